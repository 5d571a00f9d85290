"""Rated play needs play: whom each rating change was against, and why a match went unrated.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rating_changes.opponents`` and ``games.unrated`` (empty for what came before)."""
    op.add_column("rating_changes", sa.Column("opponents", sa.String(200), nullable=True))
    op.add_column("games", sa.Column("unrated", sa.String(20), nullable=True))


def downgrade() -> None:
    """Drop both columns."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("unrated")
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_column("opponents")
