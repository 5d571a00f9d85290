"""Tournaments: their state, entrants and duplicate deals, and the tables of their turns.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the tournaments' tables and each table's tournament, turn and number."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created_by", sa.String(32), sa.ForeignKey("guests.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(20), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("pace", sa.Float, nullable=False),
        sa.Column("break_seconds", sa.Integer, nullable=False),
        sa.Column("minutes", sa.Integer, nullable=False, server_default="0"),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("next_turn_at", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("members", sa.Text, nullable=False),
    )
    op.create_table(
        "tournament_deals",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("cut", sa.Integer, nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
    )
    # plain ADD COLUMNs (SQLite takes them as they are: no copy of a table others refer to)
    op.add_column("tables", sa.Column("tournament_id", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("tournament_turn", sa.Integer, nullable=True))
    op.add_column("tables", sa.Column("tournament_table", sa.Integer, nullable=True))
    op.add_column(
        "tables",
        sa.Column("holds_decks", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_tables_tournament", "tables", ["tournament_id"])


def downgrade() -> None:
    """Drop the tournaments and the tables' tournament columns."""
    op.drop_index("ix_tables_tournament", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("holds_decks")
        batch.drop_column("tournament_table")
        batch.drop_column("tournament_turn")
        batch.drop_column("tournament_id")
    op.drop_table("tournament_deals")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
