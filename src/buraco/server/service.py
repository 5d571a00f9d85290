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
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import random
import secrets
import time
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from buraco.bots import make_bot
from buraco.bots.heuristic import HeuristicBot
from buraco.errors import BuracoError, RulesError, WordedError
from buraco.fairness import new_deal
from buraco.game import MAX_NAME
from buraco.refusals import Refusal
from buraco.rules import make_rules
from buraco.server.botpool import BotPool
from buraco.server.bus import Bus
from buraco.server.crashpoints import crash_point
from buraco.server.errors import ServiceError
from buraco.server.models import EventRow, GameRow, Lease, TableRow
from buraco.server.ratings import Entrant, ranks_of, shown
from buraco.server.settings import Settings
from buraco.server.stopping import cancel_and_wait
from buraco.server.store import Conflict, RatedMatch, Store, TableResult, now
from buraco.server.tables import LiveTable, Seat, Sender, dumps
from buraco.text import has_control
from buraco.views import seat_view

log = logging.getLogger("buraco.server")

SEAT_KINDS = ("open", "invite", "bot", "me")
"""What a seat may be when a table is created: open to anyone, kept for the invite link,
a bot, or the creator's own."""

PACES = (0.0, 5.0)
"""The shortest and longest bot pace a table may set, in seconds."""

TURN_TIMERS = (0, 30, 60, 120)
"""The turn timers a table may set, in seconds (0: none)."""

OFFLINE_BOTS = ("policy", "learned")
"""Bots not offered online (they read a model file of the machine, named by the spec)."""

ONLINE_VALUES = ("fitted", "learned")
"""The values an ``mcts`` bot may score with online (not a file of the machine)."""


def offline_bot(spec: str) -> bool:
    """Whether a bot spec names a file of the machine to read: not offered online.

    >>> offline_bot("learned"), offline_bot("mcts:value=/etc/passwd"), offline_bot("mcts")
    (True, True, False)
    """
    name, _, text = spec.partition(":")
    if name.strip().lower() in OFFLINE_BOTS:
        return True
    for item in text.split(","):
        key, _, value = item.partition("=")
        if key.strip() == "value" and value.strip() not in ONLINE_VALUES:
            return True
    return False


MATCH_MINUTES = (0, 15, 30, 60, 90)
"""The lengths a timed match may have, in minutes (0: not timed)."""


BOT_NAMES = (
    "Tião",
    "Cida",
    "Dona Lurdes",
    "Zeca",
    "Chela",
    "Pocho",
    "Tano",
    "Mirta",
    "Nonna Pina",
    "Gigi",
    "Carmela",
    "Beppe",
    "Dalva",
    "Seu Jorge",
    "Negra",
    "Cacho",
    "Lola",
    "Totò",
    "Neide",
    "Ruso",
    "Rosita",
    "Peppino",
    "Bebel",
    "Quica",
)
"""Names for the bots at a table, as players of Brazil, Argentina, Uruguay and Italy are
called (the seat says it is a bot, and which)."""


def _name_bots(seats: list[Seat], table_id: str) -> None:
    """Give each bot seat a name of :data:`BOT_NAMES` that no guest at the table has.

    The names are chosen by the table's id (compared case-folded with the guests').
    """
    taken = {s.name.casefold() for s in seats if s.kind == "guest"}
    names = [n for n in BOT_NAMES if n.casefold() not in taken]
    random.Random(table_id).shuffle(names)
    for s in seats:
        if s.kind == "bot":
            s.name = names.pop()


def token_hash(token: str) -> str:
    """The stored form of a secret (a guest token or an invite code)."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: object) -> str:
    """A display name: 1 to 40 printable characters, trimmed."""
    if not isinstance(name, str) or not name.strip():
        raise ServiceError("name.length", field="name", most=MAX_NAME)
    name = name.strip()
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        raise ServiceError("name.visible", field="name")
    if len(name) > MAX_NAME or has_control(name):
        raise ServiceError("name.printable", field="name", most=MAX_NAME)
    return name


@dataclass(frozen=True)
class Guest:
    """A player as the service knows them: a guest, or an account (a claimed name)."""

    id: str
    name: str
    account: bool = False


@dataclass(frozen=True)
class TableSpec:
    """What a new table is to be: checked by :meth:`TableService.create`."""

    preset: str
    players: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    """One per seat: ``{"kind": "open" | "invite" | "bot" | "me", "bot": spec}``."""
    public: bool = True
    pace: float = 1.0
    turn_timer: int = 0
    minutes: int = 0
    rated: bool = False


class TableService:
    """Owns the live tables of this server."""

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
        self._idle: dict[str, float] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._maintainer: asyncio.Task[None] | None = None
        self._closing = False

    # ----- life ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start serving: load the tables this process drives.

        Alone, that is every unfinished table. Shared, it joins the bus and takes a share
        of the tables no process holds.
        """
        if self.shared:
            await self.bus.start(self._on_message, self.resync)
            await self._maintain_once()
            self._maintainer = asyncio.create_task(self._maintain(), name="table leases")
            log.info("process %s: %d tables taken", self.bus.proc, len(self.owned))
            return
        for data in await self.store.tables(("waiting", "playing"), public_only=False):
            try:
                lt = self._adopt(LiveTable.from_data(data), await self.store.events(data.row.id))
                await self._rate_seats(lt)
            except (BuracoError, RuntimeError, ValueError) as exc:
                # one table that no longer loads (rules or a log this version refuses)
                # must not keep the others from being served
                log.error("table %s not resumed: %s", data.row.id, exc)
                self.unloadable.add(data.row.id)
                continue
            self._drive(lt)
        log.info("%d tables resumed", len(self.tables))

    async def stop(self) -> None:
        """Stop every driver; shared, give up the leases so others take the tables at once."""
        self._closing = True
        await cancel_and_wait([self._maintainer])
        await cancel_and_wait([lt.driver for lt in self.tables.values()])
        if self.shared:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.store.release(self.bus.proc), 5)
            await self.bus.close()

    def _adopt(self, lt: LiveTable, events: Sequence[EventRow], *, new: bool = False) -> LiveTable:
        """Take a table loaded from the database into memory, its log applied.

        Its players count as away from now until they connect, except at a table just
        made (its creator is on the way to it).
        """
        lt.load(events)
        lt.hand_pause = self.settings.hand_pause
        lt.remote = self.presence.setdefault(lt.id, {})
        if not new:
            self._recount(lt)
        self.tables[lt.id] = lt
        return lt

    def owns(self, lt: LiveTable) -> bool:
        """Whether this process drives a table (alone, it drives every table)."""
        return not self.shared or lt.id in self.owned

    async def get(self, table_id: str) -> LiveTable | None:
        """A table by id: live, or rebuilt from the database (a finished one)."""
        lt = self.tables.get(table_id)
        self._idle.pop(table_id, None)
        if lt is not None or len(table_id) > 32 or table_id in self.unloadable:
            return lt
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            lt = self.tables.get(table_id)
            if lt is None:
                data = await self.store.table(table_id)
                if data is None:
                    return None
                try:
                    lt = LiveTable.from_data(data)
                    game = await self.store.game_of_table(table_id)
                    lt.game_id = game.id if game else None
                    self._adopt(lt, await self.store.events(table_id))
                    await self._rate_seats(lt)
                except (BuracoError, RuntimeError, ValueError) as exc:
                    log.error("table %s not loaded: %s", table_id, exc)
                    self.unloadable.add(table_id)
                    self._loading.pop(table_id, None)
                    return None
                if self.shared:
                    # what was committed between reading the log and listening for it here
                    await self._sync(lt)
                if lt.status != "over":
                    self._drive(lt)
        self._loading.pop(table_id, None)
        return lt

    # ----- creating and joining --------------------------------------------------------------
    async def create(self, guest: Guest, spec: TableSpec) -> tuple[LiveTable, str | None]:
        """Make a table; returns it and its invite code (private or with invite seats)."""
        try:
            rules = make_rules(spec.preset, players=spec.players, **spec.options)
        except RulesError as exc:
            raise ServiceError(
                "rules", field=_field_of(exc, spec), refusal=exc.refusal, text=str(exc)
            ) from None
        if rules.options().get("match_hands", 0) == 0 and rules.target > 100_000:
            raise ServiceError("rules.target", field="target", most=100_000)
        if len(spec.seats) != rules.players:
            raise ServiceError("seats.count", field="seats", players=rules.players)
        if not PACES[0] <= spec.pace <= PACES[1]:
            raise ServiceError("pace", field="pace", low=PACES[0], high=PACES[1])
        if spec.minutes not in MATCH_MINUTES:
            minutes = [str(m) for m in MATCH_MINUTES[1:]]
            raise ServiceError("minutes", field="minutes", minutes=minutes)
        if spec.turn_timer not in TURN_TIMERS:
            timers = [str(t) for t in TURN_TIMERS]
            raise ServiceError("turn_timer", field="turn_timer", timers=timers)
        if await self.store.count_tables_by(guest.id) >= self.settings.max_tables_per_guest:
            raise ServiceError(
                "limit",
                status=429,
                most=self.settings.max_tables_per_guest,
            )
        table_id = secrets.token_urlsafe(6)
        seats: list[Seat] = []
        mine = 0
        for i, s in enumerate(spec.seats):
            kind = s.get("kind") if isinstance(s, dict) else None
            if kind not in SEAT_KINDS:
                raise ServiceError("seats.kind", field="seats", row=i + 1, kinds=[*SEAT_KINDS])
            if kind == "bot":
                bot = s.get("bot")
                if isinstance(bot, str) and offline_bot(bot):
                    raise ServiceError("seats.bot-offline", field="seats", row=i + 1, bot=bot[:20])
                try:
                    make_bot(bot if isinstance(bot, str) else "", seed=0)
                except BuracoError as exc:
                    raise ServiceError(
                        "seats.bot", field="seats", row=i + 1, text=str(exc)
                    ) from None
                assert isinstance(bot, str)
                _check_budget(bot, i)
                seats.append(Seat(i, "bot", bot, None, False, ""))  # named below
            elif kind == "me":
                mine += 1
                seats.append(Seat(i, "guest", None, guest.id, False, guest.name))
            elif kind == "invite":
                seats.append(Seat(i, "invite", None, None, True, f"Seat {i + 1}"))
            else:
                seats.append(Seat(i, "open", None, None, False, f"Seat {i + 1}"))
        if mine > 1:
            raise ServiceError("seats.one", field="seats")
        _name_bots(seats, table_id)
        invite = None
        if not spec.public or any(s.kind == "invite" for s in seats):
            invite = secrets.token_urlsafe(12)
        row = _table_row(
            table_id,
            guest.id,
            rules.preset,
            rules.players,
            rules.overrides(),
            public=spec.public,
            invite_hash=token_hash(invite) if invite else "",
            pace=float(spec.pace),
            turn_timer=spec.turn_timer,
            minutes=spec.minutes,
            rated=spec.rated,
        )
        await self.store.add_table(row, [s.row(table_id) for s in seats], self._own_new(row))
        data = await self.store.table(table_id)
        assert data is not None
        lt = self._adopt(LiveTable.from_data(data), [], new=True)
        await self._rate_seats(lt)
        self._drive(lt)
        return lt, invite

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

    async def join(self, lt: LiveTable, guest: Guest, seat: int, invite: str | None) -> None:
        """Sit a guest at an open seat (or one kept for the invite link, with its code)."""
        async with lt.lock:
            if lt.status != "waiting":
                raise ServiceError("started", status=409)
            if not 0 <= seat < lt.players:
                raise ServiceError("seat", status=404, last=lt.players - 1)
            if lt.seat_of(guest.id) is not None:
                raise ServiceError("seated", status=409)
            s = lt.seats[seat]
            if s.kind == "offer":
                if s.guest_id != guest.id:
                    raise ServiceError("taken.offer", status=409, seat=seat, name=s.name)
            elif s.kind == "invite":
                if invite is None or token_hash(invite) != lt.invite_hash:
                    raise ServiceError("invite.seat", status=403)
            elif s.kind != "open":
                raise ServiceError("taken", status=409, seat=seat)
            elif not self.may_see(lt, guest, invite):
                raise ServiceError("invite", status=403)
            await self._seat(lt, Seat(seat, "guest", None, guest.id, s.invited, guest.name))

    def _rated_match(self, lt: LiveTable) -> RatedMatch:
        """What the end of a rated match rates: its sides, each ranked by its total.

        A side that resigned, or with a player away at the end (gone past the grace period,
        a stand-in playing), comes last: abandoning a rated match counts as a loss.
        """
        g = lt.game
        assert g is not None
        sides: list[list[Entrant]] = [[] for _ in g.totals]
        last: set[int] = set()
        for s in lt.seats:
            side = g.side_of[s.seat]
            if s.kind == "guest" and s.guest_id:
                sides[side].append((s.guest_id, None))
                if lt.away(s.seat, self.settings.grace):
                    last.add(side)
            else:
                sides[side].append((f"seat {s.seat}", s.bot or self.settings.stand_in))
        if g.resigned >= 0:
            last.add(g.side_of[g.resigned])
        return RatedMatch(sides, ranks_of(list(g.totals), sorted(last)))

    async def _rate_seats(self, lt: LiveTable) -> None:
        """Put each player's rating (in the table's preset and player count) on their seat."""
        ids = [s.guest_id for s in lt.seats if s.kind == "guest" and s.guest_id]
        found = await self.store.ratings_of(ids, lt.preset, lt.players) if ids else {}
        for s in lt.seats:
            row = found.get(s.guest_id or "")
            s.rating = shown(row.mu, row.sigma) if row is not None else None

    def forget(self, guest_id: str, shown_as: str) -> None:
        """A deleted player's seats at this process's live tables take the name ``shown_as``.

        The database's rows are renamed by :meth:`Store.delete_account`.
        """
        for lt in self.tables.values():
            for s in lt.seats:
                if s.guest_id != guest_id:
                    continue
                s.name = shown_as
                if lt.game is not None:
                    names = list(lt.game.names)
                    names[s.seat] = shown_as
                    lt.game.names = tuple(names)

    async def resign(self, lt: LiveTable, guest: Guest) -> None:
        """Concede the match in play: your side loses it now (the hand in play is scored)."""
        async with lt.lock:
            seat = lt.seat_of(guest.id)
            if seat is None:
                raise ServiceError("not-seated", status=403)
            g = lt.game
            if lt.status != "playing" or g is None or g.is_over():
                raise ServiceError("not-playing.here", status=409)
            await self._commit(lt, "resign", {"seat": seat})
            await self._finish(lt)

    async def decline(self, lt: LiveTable, guest: Guest) -> None:
        """Say no to the seat a rematch offers you: it opens to anyone."""
        async with lt.lock:
            offered = [s for s in lt.seats if s.kind == "offer" and s.guest_id == guest.id]
            if not offered or lt.status != "waiting":
                raise ServiceError("not-offered", status=409)
            s = offered[0]
            await self._seat(lt, Seat(s.seat, "open", None, None, False, f"Seat {s.seat + 1}"))

    async def leave(self, lt: LiveTable, guest: Guest) -> None:
        """Give up a seat.

        Before the match starts the seat opens again; during the match the stand-in bot
        takes it for good, under the same name.
        """
        async with lt.lock:
            seat = lt.seat_of(guest.id)
            if seat is None:
                raise ServiceError("not-seated", status=409)
            old = lt.seats[seat]
            if lt.status == "playing" and lt.rated:
                # leaving a rated match concedes it: the side's loss is rated
                g = lt.game
                if g is not None and not g.is_over():
                    await self._commit(lt, "resign", {"seat": seat})
                    await self._finish(lt)
                    return
            if lt.status == "playing":
                spec = self.settings.stand_in
                await self._seat(lt, Seat(seat, "bot", spec, None, False, old.name))
                return
            if lt.status != "waiting":
                raise ServiceError("over", status=409)
            others = [s for s in lt.seats if s.kind == "guest" and s.seat != seat]
            if lt.created_by == guest.id and not others:
                # its creator left and no one else sat down: the table goes
                await self._close(lt)
                return
            kind = "invite" if old.invited else "open"
            await self._seat(lt, Seat(seat, kind, None, None, old.invited, f"Seat {seat + 1}"))

    async def _close(self, lt: LiveTable) -> None:
        """Remove a table that never started, telling whoever is watching."""
        await self.store.delete_table(lt.id)
        self._gone(lt)
        self.bus.publish({"t": "table", "table": lt.id})

    def _gone(self, lt: LiveTable) -> None:
        """A table that was deleted: out of memory, its watchers told."""
        lt.status = "closed"
        self.tables.pop(lt.id, None)
        self.owned.discard(lt.id)
        if lt.driver is not None:
            lt.driver.cancel()
        summary = lt.summary(self.settings.grace)
        lt.broadcast(lambda _seat: dumps({"type": "table", "table": summary}))

    async def _seat(self, lt: LiveTable, seat: Seat) -> None:
        data = {
            "seat": seat.seat,
            "kind": seat.kind,
            "bot": seat.bot,
            "guest": seat.guest_id,
            "invited": seat.invited,
            "name": seat.name,
        }
        await self._commit(lt, "seat", data, seats=[seat])
        await self._rate_seats(lt)

    # ----- the one path of every change ------------------------------------------------------
    async def _commit(
        self,
        lt: LiveTable,
        kind: str,
        data: dict[str, Any],
        *,
        seats: Sequence[Seat] = (),
        status: str | None = None,
    ) -> None:
        """Commit a log entry, apply it, tell everyone (the table's lock is held).

        Once the entry is sent to the database, applying it goes ahead even if the
        caller is cancelled: the live table never falls behind its log.
        """
        await asyncio.shield(self._commit_and_apply(lt, kind, data, seats, status))

    async def _commit_and_apply(
        self,
        lt: LiveTable,
        kind: str,
        data: dict[str, Any],
        seats: Sequence[Seat],
        status: str | None,
    ) -> None:
        version = lt.version + 1
        try:
            await self.store.append(
                lt.id, version, kind, data, seats=[s.row(lt.id) for s in seats], status=status
            )
        except Conflict:
            # another process was first: read what it did (this client is told it is stale)
            with contextlib.suppress(Exception):
                await self._catch_up(lt)
            raise ServiceError(
                "stale.moment",
                status=409,
                version=lt.version,
            ) from None
        except Exception as exc:
            log.warning("table %s: the database did not answer (%s)", lt.id, exc)
            raise ServiceError(
                "unavailable",
                status=503,
            ) from None
        self._apply(lt, version, kind, data)
        self.bus.publish(
            {"t": "event", "table": lt.id, "version": version, "kind": kind, "data": data}
        )

    def _apply(self, lt: LiveTable, version: int, kind: str, data: dict[str, Any]) -> None:
        """Apply a committed log entry to the live table and tell its connections."""
        if kind == "deal" and lt.status == "waiting":
            lt.status = "playing"
        event = lt.replay(version, kind, data)
        lt.broadcast(lt.event_frame(event, self.settings.grace))
        lt.changed.set()

    async def _catch_up(self, lt: LiveTable) -> None:
        """Apply what the database's log holds after the live table's version (lock held)."""
        for ev in await self.store.events(lt.id, after=lt.version):
            self._apply(lt, ev.version, ev.kind, json.loads(ev.data))

    async def _sync(self, lt: LiveTable) -> None:
        """Bring a table up to the database: its log, whether it is over or gone, its rematch."""
        async with lt.lock:
            data = await self.store.table(lt.id)
            if data is None:
                if lt.status == "waiting":
                    self._gone(lt)
                return
            await self._catch_up(lt)
            changed = data.row.rematch != lt.rematch
            lt.rematch = data.row.rematch
            if data.row.status == "over" and lt.status != "over":
                game = await self.store.game_of_table(lt.id)
                lt.game_id = game.id if game else None
                lt.status = "over"
                self.owned.discard(lt.id)
                changed = True
            if changed:
                self._presence(lt)
                lt.changed.set()

    async def resync(self) -> None:
        """Bring every live table up to the database (after missing messages of the bus)."""
        for lt in list(self.tables.values()):
            if lt.status in ("waiting", "playing"):
                try:
                    await self._sync(lt)
                except Exception as exc:
                    log.warning("table %s: not brought up to date (%s)", lt.id, exc)

    async def act(
        self, lt: LiveTable, seat: int, version: int, text: str, by: str = "player"
    ) -> None:
        """Make an action at a seat, seen at ``version``; raises :class:`ServiceError`."""
        async with lt.lock:
            g = lt.game
            if g is None or lt.status != "playing":
                raise ServiceError("not-playing", status=409)
            if version != lt.version:
                raise ServiceError("stale", status=409, version=lt.version, sent=version)
            if g.is_hand_over():
                raise ServiceError("hand-over")
            if g.turn != seat:
                raise ServiceError("turn", rule="turn", name=g.names[g.turn], seat=g.turn)
            if by == "away" and not lt.away(seat, self.settings.grace):
                # the player came back while the stand-in was thinking: their seat again
                raise ServiceError("back", status=409, name=g.names[seat])
            try:
                action = g.parse(text)
            except BuracoError as exc:
                worded = exc.refusal if isinstance(exc, WordedError) else None
                why = worded or Refusal("notation", {"text": str(exc)})
                raise ServiceError(
                    "notation", rule="notation", refusal=why, text=str(exc)
                ) from None
            refusal = g.refusal(action)
            if refusal is not None:
                raise ServiceError(
                    "illegal", rule=refusal.rule, refusal=refusal, text=refusal.message
                )
            await self._commit(lt, "action", {"seat": seat, "action": str(action), "by": by})
            if g.is_over():
                await self._finish(lt)

    async def _deal(self, lt: LiveTable) -> None:
        async with lt.lock:
            g = lt.game
            if g is not None and (not g.is_hand_over() or g.is_over()):
                return
            if g is None and (lt.status != "waiting" or not lt.full()):
                return
            data: dict[str, Any] = await self._next_deal(lt)
            if g is None:
                data.update(
                    at=round(time.time(), 3),
                    seed=secrets.randbits(63),
                    # a duplicate turn's tables deal alike: NS (seat 0) deals first
                    first_dealer=0 if lt.holds_decks else secrets.randbelow(lt.players),
                    names=[s.name for s in lt.seats],
                )
            await self._commit(lt, "deal", data, status="playing" if g is None else None)

    async def _next_deal(self, lt: LiveTable) -> dict[str, Any]:
        """The next hand's deck, cut, salt and commitment.

        From the CSPRNG, or the deal of every table of a duplicate tournament's turn.
        """
        if lt.holds_decks and lt.tournament is not None:
            tid, turn, _table = lt.tournament
            stored = await self.store.tournament_deal(tid, turn, len(lt.deals) + 1)
            if stored is not None:
                return {
                    "deck": stored.deck,
                    "cut": stored.cut,
                    "salt": stored.salt,
                    "commitment": stored.commitment,
                }
        deal = new_deal(lt.rules)
        return {
            "deck": deal.deck_text,
            "cut": deal.cut,
            "salt": deal.salt,
            "commitment": deal.commitment,
        }

    async def adopt_new(self, table_ids: Sequence[str]) -> None:
        """Take tables just stored (a tournament's turn) into memory, and drive them.

        Their players count as away until they connect: the grace period runs from now,
        and then the stand-in plays for a player who did not come.
        """
        for table_id in table_ids:
            data = await self.store.table(table_id)
            assert data is not None
            lt = self._adopt(LiveTable.from_data(data), [])
            await self._rate_seats(lt)
            self._drive(lt)

    async def _finish(self, lt: LiveTable) -> None:
        g = lt.game
        assert g is not None
        record = g.record()
        for hand, deal in zip(record["hands"], lt.deals, strict=True):
            hand["commitment"] = deal.commitment
            hand["salt"] = deal.salt
        row = GameRow(
            table_id=lt.id,
            finished_at=now(),
            preset=lt.preset,
            players=lt.players,
            names=json.dumps(list(g.names)),
            totals=json.dumps(list(g.totals)),
            winner=g.winner,
            hands=len(g.results),
            record=json.dumps(record, separators=(",", ":")),
        )
        players = [(s.seat, s.guest_id) for s in lt.seats if s.kind == "guest" and s.guest_id]
        rated = self._rated_match(lt) if lt.rated else None
        result = None
        if lt.tournament is not None:
            tid, turn, table = lt.tournament
            ns, ew = g.totals[g.side_of[0]], g.totals[g.side_of[1]]
            result = TableResult(tid, turn, table, ns, ew)
        crash_point("finish")
        lt.game_id = await self.store.finish_table(lt.id, row, players, rated, result)
        crash_point("finished")
        lt.status = "over"
        if rated is not None:
            await self._rate_seats(lt)
        self.owned.discard(lt.id)
        self.bus.publish({"t": "table", "table": lt.id})
        lt.broadcast(
            lambda _seat: dumps({"type": "table", "table": lt.summary(self.settings.grace)})
        )

    async def ready(self, lt: LiveTable, seat: int) -> None:
        """A player is ready for the next hand."""
        g = lt.game
        if g is None or not g.is_hand_over() or g.is_over():
            raise ServiceError("not-over.hand")
        lt.ready.add(seat)
        lt.changed.set()
        self.bus.publish({"t": "ready", "table": lt.id, "seat": seat, "hand": g.hand_number})

    async def rematch(self, lt: LiveTable, guest: Guest) -> LiveTable:
        """A new table with the same rules and players, once the match is over.

        The player who asks sits down at once; each other player is offered their seat
        (kind ``offer``) and takes it (:meth:`join`) or declines (:meth:`decline`).
        """
        if lt.status != "over":
            raise ServiceError("not-over", status=409)
        if lt.seat_of(guest.id) is None:
            raise ServiceError("not-seated.rematch", status=403)
        if lt.tournament is not None:
            raise ServiceError("tournament.rematch", status=409)
        async with lt.lock:
            if lt.rematch is not None:
                found = await self.get(lt.rematch)
                if found is not None:
                    return found
            table_id = secrets.token_urlsafe(6)
            row = _table_row(
                table_id,
                guest.id,
                lt.preset,
                lt.players,
                lt.options,
                public=lt.public,
                invite_hash=lt.invite_hash,
                pace=lt.pace,
                turn_timer=lt.turn_timer,
                minutes=lt.minutes,
                rated=lt.rated,
                rematch_of=lt.id,
            )
            # the other players are offered their seats: the rematch starts once they accept
            seats = [
                Seat(s.seat, "offer", None, s.guest_id, s.invited, s.name)
                if s.kind == "guest" and s.guest_id != guest.id
                else s
                for s in lt.seats
            ]
            await self.store.add_table(row, [s.row(table_id) for s in seats], self._own_new(row))
            await self.store.set_rematch(lt.id, table_id)
            lt.rematch = table_id
            data = await self.store.table(table_id)
            assert data is not None
            new = self._adopt(LiveTable.from_data(data), [])
            self._drive(new)
        self.bus.publish({"t": "table", "table": lt.id})
        lt.broadcast(
            lambda _seat: dumps({"type": "table", "table": lt.summary(self.settings.grace)})
        )
        return new

    # ----- connections -----------------------------------------------------------------------
    def connect(self, lt: LiveTable, conn: Sender) -> None:
        """A connection opened at a table."""
        lt.conns.add(conn)
        self._idle.pop(lt.id, None)
        self._connections_changed(lt, conn)

    def disconnect(self, lt: LiveTable, conn: Sender) -> None:
        """A connection closed."""
        lt.conns.discard(conn)
        self._connections_changed(lt, conn)

    def _connections_changed(self, lt: LiveTable, conn: Sender) -> None:
        # a player's connection: everyone is told who is connected (the player too, whose
        # state was made just before it joined)
        if self._recount(lt) or conn.seat is not None:
            self._presence(lt)
        if self.shared and conn.seat is not None:  # a watcher changes no one's presence
            self.bus.publish({"t": "presence", "table": lt.id, "seats": _seats_here(lt)})
        lt.changed.set()

    def _recount(self, lt: LiveTable) -> bool:
        """Note since when each player has had no connection, here or at another process.

        Returns whether that changed.
        """
        changed = False
        for s in lt.seats:
            if s.kind != "guest" or lt.connected(s.seat):
                if lt.left_at.pop(s.seat, None) is not None:
                    changed = True
            elif s.seat not in lt.left_at:
                lt.left_at[s.seat] = time.monotonic()
                changed = True
        return changed

    def _presence(self, lt: LiveTable) -> None:
        summary = lt.summary(self.settings.grace)
        lt.broadcast(lambda _seat: dumps({"type": "table", "table": summary}))

    # ----- the driver ------------------------------------------------------------------------
    def _drive(self, lt: LiveTable) -> None:
        if not self.owns(lt):
            return
        if lt.driver is None or lt.driver.done():
            lt.driver = asyncio.create_task(self._driver(lt), name=f"table {lt.id}")

    async def _driver(self, lt: LiveTable) -> None:
        while not self._closing and lt.status not in ("over", "closed") and self.owns(lt):
            lt.changed.clear()
            try:
                wait = await self._step(lt)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: driver step failed", lt.id)
                wait = 1.0
            if wait == 0:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(lt.changed.wait(), wait)

    async def _step(self, lt: LiveTable) -> float | None:
        """Do what is due at a table; returns how long to wait (None: until a change)."""
        g = lt.game
        grace = self.settings.grace
        if g is None:
            if lt.full():
                await self._deal(lt)
                return 0
            return None
        if g.is_over():
            if lt.status != "over":
                async with lt.lock:
                    if lt.status != "over":
                        await self._finish(lt)
            return None
        if g.is_hand_over():
            if lt.time_up():
                async with lt.lock:
                    if not g.is_over():
                        await self._commit(lt, "stop", {})
                return 0
            waiting = [
                s.seat
                for s in lt.seats
                if s.kind == "guest" and s.seat not in lt.ready and not lt.away(s.seat, grace)
            ]
            left = self.settings.hand_pause - (time.monotonic() - lt.hand_over_at)
            if waiting and left > 0:
                return left
            await self._deal(lt)
            return 0
        seat = g.turn
        s = lt.seats[seat]
        elapsed = time.monotonic() - lt.turn_since
        if s.kind == "bot" and s.bot is not None:
            spec, by, pace = s.bot, "bot", lt.pace
        else:
            away = lt.away(seat, grace)
            late = lt.turn_timer > 0 and elapsed >= lt.turn_timer
            if not away and not late:
                waits = []
                if seat in lt.left_at:
                    waits.append(grace - (time.monotonic() - lt.left_at[seat]))
                if lt.turn_timer:
                    waits.append(lt.turn_timer - elapsed)
                return max(0.01, min(waits)) if waits else None
            spec = self.settings.stand_in
            by = "away" if away else "timer"
            pace = min(lt.pace, 1.0) if away else 0.0
        if elapsed < pace:
            return pace - elapsed
        version = lt.version
        view = seat_view(g, seat)
        try:
            text = await self.pool.choose(lt.id, seat, g.hand_number, spec, 0, view)
        except Exception:
            log.exception("table %s: bot %r failed; playing its first legal action", lt.id, spec)
            text = str(view.legal[0])
        try:
            await self.act(lt, seat, version, text, by=by)
        except ServiceError as exc:
            if exc.code == "unavailable":
                return 1.0
            if exc.code not in ("stale", "turn", "hand-over", "back"):
                log.error("table %s: bot %r refused: %s", lt.id, spec, exc.message)
                await self.act(lt, seat, lt.version, str(view.legal[0]), by=by)
        return 0

    # ----- chat ------------------------------------------------------------------------------
    async def chat(self, lt: LiveTable, guest: Guest, line: str) -> None:
        """Store a chat line and send it to everyone at the table."""
        row = await self.store.add_chat(lt.id, guest.id, guest.name, line)
        said = chat_line(row.id, row.name, row.text, lt.seat_of(guest.id), row.created_at)
        message = dumps({"type": "chat", "line": said})
        lt.broadcast(lambda _seat: message)
        self.bus.publish({"t": "chat", "table": lt.id, "line": said})

    # ----- several processes -----------------------------------------------------------------
    async def _on_message(self, msg: dict[str, Any]) -> None:
        """A message of another process (see :mod:`buraco.server.bus`)."""
        kind, proc = msg.get("t"), msg.get("p")
        if not isinstance(proc, str):
            return
        self.procs[proc] = time.monotonic()
        if kind == "alive":
            tables = msg.get("tables")
            if isinstance(tables, dict):
                self._heard(proc, tables)
            return
        table_id = msg.get("table")
        if kind == "presence" and isinstance(table_id, str):
            self._remote_presence(table_id, proc, msg.get("seats"))
            return
        lt = self.tables.get(table_id) if isinstance(table_id, str) else None
        if lt is None:
            return
        if kind == "event":
            version = msg["version"]
            async with lt.lock:
                if version == lt.version + 1:
                    self._apply(lt, version, msg["kind"], msg["data"])
                elif version > lt.version:  # one or more were missed: the database has them
                    await self._catch_up(lt)
        elif kind == "chat":
            message = dumps({"type": "chat", "line": msg["line"]})
            lt.broadcast(lambda _seat: message)
        elif kind == "ready":
            g = lt.game
            if g is not None and g.hand_number == msg.get("hand") and g.is_hand_over():
                lt.ready.add(int(msg["seat"]))
                lt.changed.set()
        elif kind == "table":
            await self._sync(lt)

    def _remote_presence(self, table_id: str, proc: str, seats: object) -> None:
        entries = self.presence.setdefault(table_id, {})
        if isinstance(seats, list) and seats:
            entries[proc] = (frozenset(s for s in seats if isinstance(s, int)), time.monotonic())
        elif entries.pop(proc, None) is None:
            return
        lt = self.tables.get(table_id)
        if lt is not None and self._recount(lt):
            self._presence(lt)
            lt.changed.set()

    def _heard(self, proc: str, tables: dict[str, Any]) -> None:
        """A process's presence at every table: what it no longer lists, it has left."""
        for table_id, entries in self.presence.items():
            if proc in entries and table_id not in tables:
                self._remote_presence(table_id, proc, None)
        for table_id, seats in tables.items():
            self._remote_presence(table_id, proc, seats)

    def _forget(self, proc: str) -> None:
        """A process not heard from for too long: its connections are gone."""
        self.procs.pop(proc, None)
        self._heard(proc, {})

    async def _maintain(self) -> None:
        tick = self.settings.lease / 4
        while not self._closing:
            await asyncio.sleep(tick)
            try:
                await self._maintain_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("process %s: leases not kept up (%s)", self.bus.proc, exc)

    async def _take(self, table_id: str) -> None:
        """Drive a table whose lease this process now holds."""
        self.owned.add(table_id)
        lt = await self.get(table_id)
        if lt is None:
            self.owned.discard(table_id)
            return
        await self._sync(lt)
        self._drive(lt)

    async def _maintain_once(self) -> None:
        """Renew this process's leases, say who is here, take tables no one holds, catch up."""
        lease = self.settings.lease
        tick = lease / 4
        now_m = time.monotonic()
        self.bus.publish(
            {
                "t": "alive",
                "tables": {
                    lt.id: seats for lt in self.tables.values() if (seats := _seats_here(lt))
                },
            }
        )
        for proc, heard in list(self.procs.items()):
            if now_m - heard > 3 * tick:
                self._forget(proc)
        held = await self.store.renew(self.bus.proc, time.time() + lease)
        for table_id in self.owned - held:  # another process took it (this one was too slow)
            self.owned.discard(table_id)
            lost = self.tables.get(table_id)
            if lost is not None and lost.driver is not None:
                lost.driver.cancel()
        # a claim whose answer was lost: take it up now (a table that does not load stays
        # held by this process, so that no process tries it again and again)
        for table_id in held - self.owned - self.unloadable:
            await self._take(table_id)
        orphans = await self.store.orphans(time.time(), 500)
        random.shuffle(orphans)
        share = math.ceil(len(orphans) / (1 + len(self.procs)))
        for table_id in orphans[:share]:
            if await self.store.claim(table_id, self.bus.proc, time.time() + lease, time.time()):
                await self._take(table_id)
        live = [lt.id for lt in self.tables.values() if lt.status in ("waiting", "playing")]
        stored = await self.store.versions(live)
        for table_id in live:
            lt = self.tables.get(table_id)
            if lt is None:
                continue
            version, status = stored.get(table_id, (-1, "gone"))
            if version != lt.version or status != lt.status:
                await self._sync(lt)
        for lt in list(self.tables.values()):  # copies no one here looks at are let go
            if lt.conns or lt.id in self.owned:
                self._idle.pop(lt.id, None)
            elif now_m - self._idle.setdefault(lt.id, now_m) > 15 * tick:
                self._idle.pop(lt.id, None)
                self.tables.pop(lt.id, None)
                if not self.presence.get(lt.id):
                    self.presence.pop(lt.id, None)


def _seats_here(lt: LiveTable) -> list[int]:
    """The seats with a connection at this process."""
    return sorted({c.seat for c in lt.conns if c.seat is not None})


MAX_BOT_SECONDS = 2.0
"""The longest a bot may think for one decision at an online table."""

MAX_BOT_ITERATIONS = 2000
"""The most search rounds a bot may take for one decision at an online table."""


def _check_budget(spec: str, index: int) -> None:
    """Refuse a bot whose search budget would hold the bot workers every table shares."""
    bot = make_bot(spec, seed=0)
    seconds = getattr(bot, "time", 0)
    rounds = getattr(bot, "iterations", 0)
    if isinstance(seconds, int | float) and seconds > MAX_BOT_SECONDS:
        raise ServiceError(
            "seats.bot-seconds",
            field="seats",
            row=index + 1,
            most=MAX_BOT_SECONDS,
            seconds=seconds,
        )
    if isinstance(rounds, int) and rounds > MAX_BOT_ITERATIONS:
        raise ServiceError(
            "seats.bot-rounds",
            field="seats",
            row=index + 1,
            most=MAX_BOT_ITERATIONS,
            rounds=rounds,
        )


def _table_row(
    table_id: str,
    creator: str,
    preset: str,
    players: int,
    options: dict[str, Any],
    *,
    public: bool,
    invite_hash: str,
    pace: float,
    turn_timer: int,
    minutes: int,
    rated: bool = False,
    rematch_of: str | None = None,
) -> TableRow:
    """The database row of a new table, waiting for its players."""
    return TableRow(
        id=table_id,
        created_by=creator,
        created_at=now(),
        preset=preset,
        players=players,
        options=json.dumps(options),
        public=public,
        invite_hash=invite_hash,
        pace=pace,
        turn_timer=turn_timer,
        minutes=minutes,
        status="waiting",
        version=0,
        rated=rated,
        rematch_of=rematch_of,
        rematch=None,
    )


def chat_line(line_id: int, name: str, text: str, seat: int | None, at: datetime) -> dict[str, Any]:
    """A chat line as clients get it (rendered by them as text, never as HTML).

    Times are UTC; SQLite gives them back without their offset, which is put back.
    """
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return {"id": line_id, "name": name, "text": text, "seat": seat, "at": at.isoformat()}


def _field_of(exc: RulesError, spec: TableSpec) -> str | None:
    """The field of the create form a rules error is about, when it is about one."""
    refusal = exc.refusal
    if refusal is not None:
        if refusal.code == "preset.players":
            return "players"
        if refusal.rule == "preset":
            return "preset"
        option = refusal.params.get("option")
        if isinstance(option, str):
            return option
    message = str(exc)
    for key in sorted(spec.options, key=len, reverse=True):
        if key in message:
            return key
    return "players" if "players" in message else None
