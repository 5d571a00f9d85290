"""The table service's state: the store, the settings, the bots, the bus and the live tables."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter

from buraco.bots.heuristic import HeuristicBot
from buraco.server.botpool import BotPool
from buraco.server.bus import Bus
from buraco.server.errors import ServiceError
from buraco.server.models import Lease, TableRow
from buraco.server.people import Guest, token_hash
from buraco.server.settings import Settings
from buraco.server.store import Store
from buraco.server.tables import LiveTable, Sender
from buraco.views import seat_view

log = logging.getLogger("buraco.server")


class ServiceState:
    """The table service's state: the store, the settings, the bots, the bus and the live tables."""

    def __init__(
        self, store: Store, settings: Settings, pool: BotPool, bus: Bus | None = None
    ) -> None:
        self.store = store
        self.settings = settings
        self.pool = pool
        self.bus = bus or Bus()
        self.shared = self.bus.shared
        """Whether other processes share the database (and the bus)."""
        self.tables: dict[str, LiveTable] = {}
        self.owned: set[str] = set()
        """The tables whose lease this process holds (shared only; alone, it drives all)."""
        self.unloadable: set[str] = set()
        """Tables whose stored rules or log this version refuses (logged once, left alone)."""
        self.presence: dict[str, dict[str, tuple[frozenset[int], float]]] = {}
        """Per table, per other process: the seats with a connection there, and when heard."""
        self.procs: dict[str, float] = {}
        """The other processes heard from, and when (monotonic seconds)."""
        self.guest_conns: Counter[str] = Counter()
        """Connections open at this process, per guest."""
        self.session_conns: dict[str, set[Sender]] = {}
        """Connections open at this process, per session (the hash of its token)."""
        self._ended: dict[str, float] = {}
        """Sessions ended in the last minute, and when (for a socket opened meanwhile)."""
        self._idle: dict[str, float] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._maintainer: asyncio.Task[None] | None = None
        self._closing = False

    def owns(self, lt: LiveTable) -> bool:
        """Whether this process drives a table (alone, it drives every table)."""
        return not self.shared or lt.id in self.owned

    def _own_new(self, row: TableRow) -> Lease | None:
        """A table this process makes is its own to drive (shared: under a lease)."""
        if not self.shared:
            return None
        self.owned.add(row.id)
        return Lease(table_id=row.id, owner=self.bus.proc, until=time.time() + self.settings.lease)

    def hint(self, lt: LiveTable, guest: Guest) -> str:
        """What the ``heuristic`` bot would play in a player's seat now (action text).

        Only for the player to move, from that seat's own view.
        """
        seat = lt.seat_of(guest.id)
        if seat is None:
            raise ServiceError("not-seated.hint", status=403)
        g = lt.game
        if g is None or g.is_hand_over() or g.turn != seat:
            raise ServiceError("turn.hint", status=409, rule="turn")
        bot = HeuristicBot(seed=lt.version)
        return str(bot.choose(seat_view(g, seat), g.legal_actions()))

    def may_see(self, lt: LiveTable, guest: Guest | None, invite: str | None) -> bool:
        """Whether someone may watch or join a table (a private one needs the invite code)."""
        if lt.public:
            return True
        if guest is not None and (
            lt.created_by == guest.id or any(s.guest_id == guest.id for s in lt.seats)
        ):
            return True  # its maker, a player, or one offered a seat (a rematch)
        return invite is not None and token_hash(invite) == lt.invite_hash
