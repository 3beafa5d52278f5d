"""search index: mana values, numeric stats, search documents, type words, full-text indexes

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 07:10:00

SQLite: external-content FTS5 tables over ``search_documents``, kept in step by triggers: one per
text field with the trigram tokenizer (``search_name``, ``search_type_line``, ``search_text``,
``search_rulings``: any substring of three characters or more) and ``search_bigrams`` (the
space-separated CJK bigram columns as words). PostgreSQL: ``pg_trgm`` GIN
indexes on the folded text columns (``LIKE '%…%'``) and GIN indexes on the bigram columns split into
arrays. Both are named ``fts_…`` so that ``migrations/env.py`` leaves them out of autogenerate.
Existing cards get their documents and type words after the last revision (see revision 0004);
afterwards the importer keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FIELDS = ("name", "type_line", "text", "rulings")
BIGRAMS = tuple(f"{field}_bigrams" for field in FIELDS)
STATS = ("power", "toughness", "loyalty")


def _sqlite_fulltext() -> None:
    tables = [(f"search_{field}", (field,), "trigram") for field in FIELDS]
    tables.append(("search_bigrams", BIGRAMS, "unicode61 remove_diacritics 0"))
    inserts, deletes = [], []
    for table, names, tokenizer in tables:
        columns = ", ".join(names)
        op.execute(
            f"CREATE VIRTUAL TABLE {table} USING fts5({columns}, content='search_documents', "
            f"content_rowid='id', tokenize='{tokenizer}')"
        )
        new = ", ".join(f"new.{name}" for name in names)
        old = ", ".join(f"old.{name}" for name in names)
        inserts.append(f"INSERT INTO {table}(rowid, {columns}) VALUES (new.id, {new}); ")
        deletes.append(f"INSERT INTO {table}({table}, rowid, {columns}) VALUES ('delete', old.id, {old}); ")
    insert, delete = "".join(inserts), "".join(deletes)
    op.execute(
        f"CREATE TRIGGER fts_search_documents_insert AFTER INSERT ON search_documents BEGIN {insert}END"
    )
    op.execute(
        f"CREATE TRIGGER fts_search_documents_delete AFTER DELETE ON search_documents BEGIN {delete}END"
    )
    update = f"{delete}{insert}"
    op.execute(
        f"CREATE TRIGGER fts_search_documents_update AFTER UPDATE ON search_documents BEGIN {update}END"
    )


def _postgresql_fulltext() -> None:
    bind = op.get_bind()
    schema = bind.execute(
        sa.text(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
            "WHERE e.extname = 'pg_trgm'"
        )
    ).scalar()
    if schema is None:
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema = bind.execute(
            sa.text(
                "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
                "WHERE e.extname = 'pg_trgm'"
            )
        ).scalar()
    opclass = f'"{schema}".gin_trgm_ops'
    for field in FIELDS:
        op.execute(
            f"CREATE INDEX fts_search_documents_{field} ON search_documents USING gin ({field} {opclass})"
        )
    op.execute(
        f"CREATE INDEX fts_search_documents_self_text ON search_documents USING gin (self_text {opclass})"
    )
    for column in BIGRAMS:
        op.execute(
            f"CREATE INDEX fts_search_documents_{column} ON search_documents "
            f"USING gin (string_to_array({column}, ' '))"
        )


def upgrade() -> None:
    with op.batch_alter_table("cards", schema=None) as batch_op:
        batch_op.add_column(sa.Column("mana_value", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("type_bits", sa.Integer(), nullable=False, server_default="0"))
        batch_op.create_index(batch_op.f("ix_cards_mana_value"), ["mana_value"], unique=False)
    with op.batch_alter_table("faces", schema=None) as batch_op:
        for stat in STATS:
            batch_op.add_column(sa.Column(f"{stat}_value", sa.Float(), nullable=True))
        for column in ("colors", "color_identity", "power_value", "toughness_value"):
            batch_op.create_index(f"ix_faces_{column}_card_id", [column, "card_id"], unique=False)
    with op.batch_alter_table("localizations", schema=None) as batch_op:
        batch_op.create_index("ix_localizations_language_face_id", ["language", "face_id"], unique=False)
    _fill_characteristics()
    op.create_table(
        "search_documents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=32), nullable=False),
        *(
            sa.Column(name, sa.Text(), nullable=False)
            for name in (*FIELDS[:3], "self_text", "rulings", *BIGRAMS)
        ),
        sa.ForeignKeyConstraint(
            ["card_id"], ["cards.id"], name=op.f("fk_search_documents_card_id_cards"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_search_documents")),
        sa.UniqueConstraint("card_id", "language", name=op.f("uq_search_documents_card_id_language")),
    )
    op.create_table(
        "type_words",
        sa.Column("word", sa.Text(), nullable=False),
        sa.Column("language", sa.String(length=32), nullable=False),
        sa.Column("english", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("word", "language", "english", name=op.f("pk_type_words")),
    )
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_fulltext()
    else:
        _postgresql_fulltext()

    _renormalize_names()
    # The documents of cards imported before are built after the last revision, by the code of
    # today (revision 0004 marks every card pending; carddb.db.migrate.upgrade builds them).


def _fill_characteristics() -> None:
    """Numeric stats of every face, mana value and type flags of every card."""
    from carddb.characteristics import card_mana_value, stat_value, type_bits

    bind = op.get_bind()
    faces = bind.execute(
        sa.text(
            "SELECT faces.id, faces.card_id, cards.layout, faces.mana_value, faces.type_line, "
            f"{', '.join(STATS)} FROM faces JOIN cards ON cards.id = faces.card_id "
            "ORDER BY faces.card_id, faces.position"
        )
    ).all()
    by_card: dict[int, list[sa.Row[Any]]] = {}
    for face in faces:
        by_card.setdefault(face.card_id, []).append(face)
        values = {f"{stat}_value": stat_value(getattr(face, stat)) for stat in STATS}
        if any(value is not None for value in values.values()):
            assignments = ", ".join(f"{name} = :{name}" for name in values)
            bind.execute(sa.text(f"UPDATE faces SET {assignments} WHERE id = :id"), {**values, "id": face.id})
    for card_id, card_faces in by_card.items():
        bind.execute(
            sa.text("UPDATE cards SET mana_value = :mv, type_bits = :bits WHERE id = :id"),
            {
                "mv": card_mana_value(card_faces[0].layout, (f.mana_value for f in card_faces)),
                "bits": type_bits(f.type_line for f in card_faces),
                "id": card_id,
            },
        )


def _renormalize_names() -> None:
    """carddb.text.normalize now reads Russian ё as е and U+2212 as "-": refold the stored names
    that hold either, so lookups keep finding them."""
    from carddb.text import normalize

    bind = op.get_bind()
    for table in ("cards", "faces", "localizations"):
        rows = bind.execute(
            sa.text(
                f"SELECT id, name FROM {table} WHERE name LIKE '%ё%' OR name LIKE '%Ё%' "
                "OR name LIKE '%\u2212%'"
            )
        ).all()
        for row_id, name in rows:
            bind.execute(
                sa.text(f"UPDATE {table} SET name_norm = :norm WHERE id = :id"),
                {"norm": normalize(name), "id": row_id},
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for trigger in ("insert", "delete", "update"):
            op.execute(f"DROP TRIGGER fts_search_documents_{trigger}")
        for table in (*(f"search_{field}" for field in FIELDS), "search_bigrams"):
            op.execute(f"DROP TABLE {table}")
    op.drop_table("type_words")
    op.drop_table("search_documents")
    # Not in batch mode: recreating ``cards`` or ``faces`` would cascade-delete the rows that refer
    # to them (SQLite 3.35 drops columns in place).
    op.drop_index(op.f("ix_cards_mana_value"), table_name="cards")
    op.drop_column("cards", "mana_value")
    op.drop_column("cards", "type_bits")
    for column in ("colors", "color_identity", "power_value", "toughness_value"):
        op.drop_index(f"ix_faces_{column}_card_id", table_name="faces")
    for stat in STATS:
        op.drop_column("faces", f"{stat}_value")
    op.drop_index("ix_localizations_language_face_id", table_name="localizations")
