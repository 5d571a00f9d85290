"""Table leases: which server process drives a table (deals, bots, timers), and until when.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns; no table has an owner yet."""
    op.add_column("tables", sa.Column("owner", sa.String(40), nullable=True))
    op.add_column("tables", sa.Column("lease_until", sa.Float, nullable=True))


def downgrade() -> None:
    """Drop the columns."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("owner")
