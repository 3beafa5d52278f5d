"""more sources: Comprehensive Rules, page notes, translated rulings, page translations

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 07:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("localizations", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("origin", sa.String(length=16), server_default="printing", nullable=False)
        )
    with op.batch_alter_table("rulings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("original_digest", sa.String(length=40), nullable=True))
    op.create_table(
        "rules",
        sa.Column("number", sa.String(length=16), nullable=False),
        sa.Column("parent", sa.String(length=16), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("examples", sa.JSON(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("number", name=op.f("pk_rules")),
    )
    with op.batch_alter_table("rules", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rules_parent"), ["parent"], unique=False)
    op.create_table(
        "glossary",
        sa.Column("term", sa.Text(), nullable=False),
        sa.Column("term_norm", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("term", name=op.f("pk_glossary")),
    )
    with op.batch_alter_table("glossary", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_glossary_term_norm"), ["term_norm"], unique=False)
    op.create_table(
        "rules_editions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("effective", sa.Date(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("rules", sa.Integer(), nullable=False),
        sa.Column("glossary", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rules_editions")),
    )
    op.create_table(
        "notes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(length=64), nullable=True),
        sa.Column("card_id", sa.Integer(), nullable=True),
        sa.Column("language", sa.String(length=32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["card_id"], ["cards.id"], name=op.f("fk_notes_card_id_cards"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notes")),
        sa.UniqueConstraint("digest", name=op.f("uq_notes_digest")),
    )
    with op.batch_alter_table("notes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_notes_card_id"), ["card_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_notes_topic"), ["topic"], unique=False)


def downgrade() -> None:
    op.drop_table("notes")
    op.drop_table("rules_editions")
    op.drop_table("glossary")
    op.drop_table("rules")
    # Not in batch mode: recreating a table that others refer to would cascade-delete their rows.
    op.drop_column("rulings", "original_digest")
    op.drop_column("localizations", "origin")
