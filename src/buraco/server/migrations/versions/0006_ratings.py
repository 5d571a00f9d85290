"""Rated tables and the players' ratings, with each rated game's changes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.rated`` (no table so far was rated) and the ratings' tables."""
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("guest_id", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("preset", sa.String(20), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["preset", "players"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("guest_id", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_guest", "rating_changes", ["guest_id"])


def downgrade() -> None:
    """Drop the ratings and ``tables.rated``."""
    op.drop_index("ix_rating_changes_guest", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
