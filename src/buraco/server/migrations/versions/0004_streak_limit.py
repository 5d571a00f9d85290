"""Every hand ends: tables stored without a pile streak limit get the default one.

``pile_streak_limit=0`` is now refused unless ``pile_top_meld`` is on (RULINGS 9:
without it a take may put no card on the table, so the pile could go round forever).
A table made before that with the limit removed plays on with the default limit, 12.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

TOP_MELD_PRESETS = ("fechado",)
"""Presets whose pile is taken only to meld its top card (``pile_top_meld`` on)."""

DEFAULT_LIMIT = 12


def upgrade() -> None:
    """Give the default limit to every table whose options remove it without pile_top_meld."""
    tables = sa.table(
        "tables",
        sa.column("id", sa.String),
        sa.column("preset", sa.String),
        sa.column("options", sa.Text),
    )
    bind = op.get_bind()
    for row in bind.execute(sa.select(tables.c.id, tables.c.preset, tables.c.options)):
        options = json.loads(row.options)
        top_meld = options.get("pile_top_meld", row.preset in TOP_MELD_PRESETS)
        if options.get("pile_streak_limit") != 0 or top_meld:
            continue
        options["pile_streak_limit"] = DEFAULT_LIMIT
        bind.execute(
            tables.update().where(tables.c.id == row.id).values(options=json.dumps(options))
        )


def downgrade() -> None:
    """Nothing to undo: the limit stays (the old code accepts it too)."""
