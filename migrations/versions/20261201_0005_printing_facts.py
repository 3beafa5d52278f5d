"""printing facts, legalities, card colours, rules text with and without reminder text

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 11:30:00

Scryfall's printing keywords are matched on one printing, and some need facts carddb did not keep:

* ``printings``: ``artist`` (``a:``), ``finishes`` (``is:foil``, ``is:nonfoil``, ``is:etched``),
  ``games`` (``game:``, ``is:digital``), ``border`` (``border:``), ``frame`` and ``frame_effects``
  (``frame:``), ``promo`` (``is:promo``), ``digital`` and ``reprint`` (``is:reprint``: printed
  before, as the source says);
* ``legalities``: a card's status per format (``f:``, ``legal:``, ``banned:``, ``restricted:``),
  those of all its printings (MTGJSON gives Old School per printing);
* ``cards.colors`` / ``cards.color_identity``: the colours of all the faces (``c:rg`` finds
  Heaven // Earth), filled here from the faces;
* ``search_documents.full_text``: the rules text with reminder text (``fo:``); ``text`` loses its
  reminder text (``o:``). Every card is marked pending, so the documents are rebuilt by the
  upgrade (:func:`carddb.db.migrate.upgrade`). It has no full-text index (``fo:`` reads the
  documents): one more trigram index over the longest column would cost every import a sixth
  more, for a rarely used keyword.

The printing facts and legalities of cards imported before are empty until the sets are imported
again (the set digest's format version changed, so the next import writes every set again).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PRINTING_COLUMNS: dict[str, sa.types.TypeEngine[object]] = {
    "artist": sa.Text(),
    "finishes": sa.String(length=64),
    "games": sa.String(length=64),
    "border": sa.String(length=16),
    "frame": sa.String(length=16),
    "frame_effects": sa.Text(),
    "promo": sa.Boolean(),
    "digital": sa.Boolean(),
    "reprint": sa.Boolean(),
}
_MARK_ALL_PENDING = (
    "INSERT INTO search_pending (card_id) SELECT id FROM cards "
    "WHERE id NOT IN (SELECT card_id FROM search_pending)"
)


def _fill_card_colors() -> None:
    """Every card's colours and identity from its faces (rows of later imports are written so)."""
    from carddb.characteristics import card_colors

    bind = op.get_bind()
    faces = sa.table(
        "faces", sa.column("card_id", sa.Integer), sa.column("colors"), sa.column("color_identity")
    )
    cards = sa.table("cards", sa.column("id", sa.Integer), sa.column("colors"), sa.column("color_identity"))
    found: dict[int, tuple[list[str], list[str]]] = {}
    for card_id, colors, identity in bind.execute(
        sa.select(faces.c.card_id, faces.c.colors, faces.c.color_identity)
    ):
        entry = found.setdefault(card_id, ([], []))
        entry[0].append(colors)
        entry[1].append(identity)
    rows = [
        {"card": card_id, "c": card_colors(colors), "i": card_colors(identity)}
        for card_id, (colors, identity) in found.items()
    ]
    if rows:
        bind.execute(
            cards.update()
            .where(cards.c.id == sa.bindparam("card"))
            .values(colors=sa.bindparam("c"), color_identity=sa.bindparam("i")),
            rows,
        )


def upgrade() -> None:
    # Plain ADD COLUMN (see revision 0004: a batch copy of search_documents would drop its triggers).
    for name, type_ in _PRINTING_COLUMNS.items():
        op.add_column("printings", sa.Column(name, type_, nullable=True))
    op.add_column("cards", sa.Column("colors", sa.String(length=8), server_default="", nullable=False))
    op.add_column(
        "cards", sa.Column("color_identity", sa.String(length=8), server_default="", nullable=False)
    )
    op.add_column("search_documents", sa.Column("full_text", sa.Text(), server_default="", nullable=False))
    op.create_table(
        "legalities",
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["card_id"], ["cards.id"], name=op.f("fk_legalities_card_id_cards"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("card_id", "format", "status", name=op.f("pk_legalities")),
    )
    op.create_index(
        "ix_legalities_format_status_card_id", "legalities", ["format", "status", "card_id"], unique=False
    )
    op.create_index("ix_cards_colors_id", "cards", ["colors", "id"], unique=False)
    op.create_index("ix_cards_color_identity_id", "cards", ["color_identity", "id"], unique=False)
    _fill_card_colors()
    # The documents lose their reminder text and gain full_text: rebuilt after the last revision.
    op.execute(_MARK_ALL_PENDING)


def downgrade() -> None:
    op.drop_index("ix_legalities_format_status_card_id", table_name="legalities")
    op.drop_table("legalities")
    with op.batch_alter_table("search_documents", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("full_text")
    op.drop_index("ix_cards_color_identity_id", table_name="cards")
    op.drop_index("ix_cards_colors_id", table_name="cards")
    with op.batch_alter_table("cards", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("color_identity")
        batch_op.drop_column("colors")
    with op.batch_alter_table("printings", schema=None, recreate="never") as batch_op:
        for name in reversed(_PRINTING_COLUMNS):
            batch_op.drop_column(name)
    # The documents hold reminder text again after the downgrade's next import.
    op.execute(_MARK_ALL_PENDING)
