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
    """Add the table of leases; no table has an owner yet."""
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.String(40), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_index("ix_leases_owner", "leases", ["owner"])


def downgrade() -> None:
    """Drop the table of leases."""
    op.drop_index("ix_leases_owner", "leases")
    op.drop_table("leases")
