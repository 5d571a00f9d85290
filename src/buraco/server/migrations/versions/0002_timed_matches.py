"""Timed matches: a table's ``minutes``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column; tables made before it are not timed."""
    op.add_column("tables", sa.Column("minutes", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("minutes")
