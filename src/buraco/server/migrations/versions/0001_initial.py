"""The first schema: guests, tables, seats, the table log, games, chat.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "guests",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_by", sa.String(32), sa.ForeignKey("guests.id"), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("preset", sa.String(20), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=False),
        sa.Column("pace", sa.Float, nullable=False),
        sa.Column("turn_timer", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("rematch_of", sa.String(32), nullable=True),
        sa.Column("rematch", sa.String(32), nullable=True),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("guest_id", sa.String(32), sa.ForeignKey("guests.id"), nullable=True),
        sa.Column("invited", sa.Boolean, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False, unique=True
        ),
        sa.Column("finished_at", _WHEN, nullable=False),
        sa.Column("preset", sa.String(20), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("names", sa.Text, nullable=False),
        sa.Column("totals", sa.Text, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("guest_id", sa.String(32), sa.ForeignKey("guests.id"), nullable=False),
    )
    op.create_index("ix_game_players_guest", "game_players", ["guest_id"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("guest_id", sa.String(32), sa.ForeignKey("guests.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_index("ix_chat_table", "chat", ["table_id", "id"])


def downgrade() -> None:
    """Drop every table."""
    for name in ("chat", "game_players", "games", "events", "seats", "tables", "guests"):
        op.drop_table(name)
