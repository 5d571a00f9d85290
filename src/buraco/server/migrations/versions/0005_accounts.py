"""Accounts: a guest may claim a name with a password; every signed-in browser is a session.

Each existing guest's cookie becomes its first session, so nobody is signed out.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the account columns and the sessions; each guest's token becomes a session.

    Columns are added in place (no table is rebuilt, so SQLite's foreign keys to the
    guests stay satisfied), and names are unique by a unique index.
    """
    op.add_column("guests", sa.Column("name_key", sa.String(200), nullable=True))
    op.add_column("guests", sa.Column("password_hash", sa.String(200), nullable=True))
    op.add_column("guests", sa.Column("registered_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "guests", sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_index("uq_guests_name_key", "guests", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("guest_id", sa.String(32), sa.ForeignKey("guests.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_guest", "sessions", ["guest_id"])
    op.execute(
        "INSERT INTO sessions (token_hash, guest_id, created_at) "
        "SELECT token_hash, id, created_at FROM guests"
    )


def downgrade() -> None:
    """Drop the sessions and the account columns (accounts become guests again)."""
    op.drop_index("ix_sessions_guest", "sessions")
    op.drop_table("sessions")
    op.drop_index("uq_guests_name_key", "guests")
    with op.batch_alter_table("guests") as batch:
        batch.drop_column("deleted")
        batch.drop_column("registered_at")
        batch.drop_column("password_hash")
        batch.drop_column("name_key")
