"""The table service: the only code that changes a table.

Every change follows one path: check it against the engine (nothing changes
when it is refused), **commit it to the database**, apply it to the live game,
then tell every connection, each with its own view. A table's changes are made
one at a time (its lock) and numbered (its version).

Each playing table has a driver task that deals hands, and moves for bots, for
players away longer than the grace period and for players out of time.

Several processes may share one database and a bus (:mod:`buraco.server.bus`).
Then any process may change any table, the version in the database deciding
between two that try at once (optimistic concurrency: the loser reads what
changed and tells its client so), and one process at a time, the table's owner,
runs its driver, under a lease it renews. A process that dies leaves its tables
to the others when their leases run out.

The service is built in layers, each a module of this package over the one below:
:mod:`~buraco.server.service.state` (what it holds), :mod:`~buraco.server.service.presence`
(who is connected, chat), :mod:`~buraco.server.service.rating` (rated matches),
:mod:`~buraco.server.service.log` (commit, apply, tell), :mod:`~buraco.server.service.play`
(actions, deals, the driver), :mod:`~buraco.server.service.lobby` (tables made, joined,
left, played again) and :mod:`~buraco.server.service.cluster` (several processes).
"""

from __future__ import annotations

from buraco.server.people import Guest, check_name, token_hash
from buraco.server.service.cluster import Cluster
from buraco.server.service.presence import chat_line
from buraco.server.tablespec import (
    BOT_NAMES,
    MATCH_MINUTES,
    MAX_BOT_ITERATIONS,
    MAX_BOT_SECONDS,
    OFFLINE_BOTS,
    ONLINE_VALUES,
    PACES,
    SEAT_KINDS,
    TURN_TIMERS,
    TableSpec,
    offline_bot,
)


class TableService(Cluster):
    """Owns the live tables of this server."""


__all__ = [
    "BOT_NAMES",
    "MATCH_MINUTES",
    "MAX_BOT_ITERATIONS",
    "MAX_BOT_SECONDS",
    "OFFLINE_BOTS",
    "ONLINE_VALUES",
    "PACES",
    "SEAT_KINDS",
    "TURN_TIMERS",
    "Guest",
    "TableService",
    "TableSpec",
    "chat_line",
    "check_name",
    "offline_bot",
    "token_hash",
]
