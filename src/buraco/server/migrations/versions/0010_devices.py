"""Devices: the browsers that have signed in to an account (their device cookies' hashes).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the devices table."""
    op.create_table(
        "devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("guest_id", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_devices_guest", "devices", ["guest_id"])


def downgrade() -> None:
    """Drop the devices table."""
    op.drop_index("ix_devices_guest", "devices")
    op.drop_table("devices")
