"""Names compared as they are shown: each account's name gets two keys, recomputed.

A name's keys leave out the characters that are not shown (default-ignorable: zero-width
spaces and joiners, soft hyphens, fillers) and reduce it to its confusable skeleton both
after and before case folding (:func:`buraco.server.accounts.name_keys`), so ``Bru\u200bna``
and ``Вruna`` (a Cyrillic В) are ``Bruna``.

Every account's ``name_key`` is recomputed and its new ``shape_key`` computed, oldest account
first. Two accounts made before, whose names are now one, both stay: the older keeps the key
they share, the newer goes without it (it still signs in under its exact name), and no
third may take the name.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from buraco.server.accounts import name_keys

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_guests = sa.table(
    "guests",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("shape_key", sa.String),
    sa.column("registered_at", sa.DateTime),
)


def upgrade() -> None:
    """Add ``shape_key`` (unique) and recompute both keys of every account."""
    op.add_column("guests", sa.Column("shape_key", sa.String(200), nullable=True))
    conn = op.get_bind()
    accounts = conn.execute(
        sa.select(_guests.c.id, _guests.c.name)
        .where(_guests.c.name_key.is_not(None))
        .order_by(_guests.c.registered_at, _guests.c.id)
    ).all()
    conn.execute(sa.update(_guests).values(name_key=None))
    held: set[str] = set()
    for guest_id, name in accounts:
        keys = name_keys(name)
        free = [k if k not in held else None for k in keys]
        held.update(keys)
        conn.execute(
            sa.update(_guests)
            .where(_guests.c.id == guest_id)
            .values(name_key=free[0], shape_key=free[1])
        )
    op.create_index("uq_guests_shape_key", "guests", ["shape_key"], unique=True)


def downgrade() -> None:
    """Drop ``shape_key``; ``name_key`` keeps the new keys (each still unique)."""
    op.drop_index("uq_guests_shape_key", "guests")
    with op.batch_alter_table("guests") as batch:
        batch.drop_column("shape_key")
