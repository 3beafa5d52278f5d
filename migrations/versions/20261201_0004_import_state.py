"""import state: set source digests, search document digests, the search index's pending cards

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 08:30:00

* ``sets.source_digest``: a digest of the source text a set was written from, so that importing the
  very same set again is skipped (``carddb.ingest.loader``);
* ``cards.source_digest``: a digest of the faces and rulings a card was written from, so that a
  reprint in another set file of the same build does not write the card again;
* ``search_documents.digest``: a digest of a document's content, so that a document is rewritten
  (and its full-text entries with it) only when its content changes;
* ``type_norm``/``text_norm`` on faces, localizations and rulings: their text folded for search,
  made at import, once per distinct text, so that rebuilding search documents folds nothing
  (rows stored before have none, and the document builder folds those itself);
* PostgreSQL: no trigram index on ``search_documents.self_text`` any more (see ``upgrade``);
* ``search_pending``: the cards whose search documents must be rebuilt. Each file's transaction
  records the cards it touched; the import rebuilds their documents once, after its last file, and
  empties the table in the same transaction. A table rather than memory, so that an import
  interrupted between the two leaves the work for the next one instead of a stale index.

Documents stored before this revision have no digest: every card is marked pending, so the next
import rebuilds them (search keeps working on the old ones meanwhile).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FOLDED = {
    "faces": ("type_norm", "text_norm"),
    "localizations": ("type_norm", "text_norm"),
    "rulings": ("text_norm",),
}


def upgrade() -> None:
    # Plain ALTER TABLE … ADD COLUMN on both databases: a batch "move and copy" of search_documents
    # would drop the full-text triggers that migration 0002 created on it.
    op.add_column("sets", sa.Column("source_digest", sa.String(length=40), nullable=True))
    op.add_column("cards", sa.Column("source_digest", sa.String(length=40), nullable=True))
    op.add_column("search_documents", sa.Column("digest", sa.String(length=40), nullable=True))
    for table, columns in _FOLDED.items():
        for column in columns:
            op.add_column(table, sa.Column(column, sa.Text(), nullable=True))
    op.create_table(
        "search_pending",
        sa.Column("card_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.PrimaryKeyConstraint("card_id", name=op.f("pk_search_pending")),
    )
    op.execute("INSERT INTO search_pending (card_id) SELECT id FROM cards")
    if op.get_bind().dialect.name == "postgresql":
        # ``o:"~ deals"`` narrows through the index on ``text`` (carddb.search.fulltext): the
        # trigram index on ``self_text`` doubled the index's build time for a rare kind of query.
        op.execute("DROP INDEX IF EXISTS fts_search_documents_self_text")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        schema = (
            op.get_bind()
            .execute(
                sa.text(
                    "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
                    "WHERE e.extname = 'pg_trgm'"
                )
            )
            .scalar()
        )
        opclass = f'"{schema}".gin_trgm_ops'
        op.execute(
            f"CREATE INDEX fts_search_documents_self_text ON search_documents USING gin (self_text {opclass})"
        )
    op.drop_table("search_pending")
    for table, columns in _FOLDED.items():
        with op.batch_alter_table(table, schema=None, recreate="never") as batch_op:
            for column in columns:
                batch_op.drop_column(column)
    with op.batch_alter_table("search_documents", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("digest")
    with op.batch_alter_table("cards", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("source_digest")
    with op.batch_alter_table("sets", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("source_digest")
