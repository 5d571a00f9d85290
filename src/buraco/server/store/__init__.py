"""The server's database: opening it, migrating it, and every read and write the server makes.

SQLite (the embedded default, through aiosqlite) or PostgreSQL (asyncpg or
psycopg). The schema is made and changed by the Alembic migrations in
``buraco/server/migrations``, applied by :meth:`Store.open`.

Every write is its own transaction, committed before the method returns: the
table service tells no one of an action until :meth:`Store.append` has
committed it.

The store is built in layers, each a module of this package over the one below:
:mod:`~buraco.server.store.base` (the connection, the migrations, the log's writer),
:mod:`~buraco.server.store.tables` (tables, logs, leases, chat),
:mod:`~buraco.server.store.tournaments`, :mod:`~buraco.server.store.games` (finished
games and ratings) and :mod:`~buraco.server.store.people` (guests, accounts, sessions,
a player's export and deletion).
"""

from __future__ import annotations

from buraco.server.store.base import (
    MIGRATIONS,
    Conflict,
    Forgotten,
    RatedMatch,
    TableData,
    TableResult,
    TournamentCaps,
    _upgrade,
    database_url,
    now,
    visible_to,
)
from buraco.server.store.people import PeopleStore


class Store(PeopleStore):
    """The database of one server (or of several sharing it)."""


__all__ = [
    "MIGRATIONS",
    "Conflict",
    "Forgotten",
    "RatedMatch",
    "Store",
    "TableData",
    "TableResult",
    "TournamentCaps",
    "_upgrade",
    "database_url",
    "now",
    "visible_to",
]
