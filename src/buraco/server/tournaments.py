"""Tournaments online: entries, turns whose tables the server makes and seats, standings.

A director (the player who made it, or anyone holding its secret link) creates a
tournament: the preset, pairs (tables of 4), players (tables of 2) or an individual
tournament (players at tables of 4 with a new partner each turn), the movement of
each turn, the hands of a turn, duplicate deals or not. Players enter, alone with a
bot partner, or with a place kept for a partner who joins (alone in an individual
tournament); the director may fill the field with bots. When the director starts it,
the server pairs the first turn by its movement (:mod:`buraco.tournament`) and makes
one table a pairing, its seats taken by the entrants (a partner's place still open
is played by a bot). Each table is a match of the turn's hands; its end records the
table's match points in the tournament, in the same transaction (the standings
follow from them). Once every table of a turn is over, the next turn starts
``break_seconds`` later, at whichever server process sees it due first (the
tournament's version decides).

With duplicate deals, every table of a turn is dealt the same deck orders, made when
the turn starts; a table shows a hand's deck and salt only in its game's record, once
the whole turn is over.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from buraco.bots import make_bot
from buraco.errors import BuracoError, TournamentError
from buraco.fairness import new_deal
from buraco.rules import PRESETS, make_rules
from buraco.server.entrants import entry_name
from buraco.server.errors import MESSAGES, ServiceError
from buraco.server.models import EntryRow, SeatRow, TableRow, TournamentDeal, TournamentRow
from buraco.server.people import Guest, check_name, token_hash
from buraco.server.service import TableService
from buraco.server.stopping import cancel_and_wait
from buraco.server.store import TournamentCaps, now
from buraco.server.tablespec import MATCH_MINUTES, check_budget, offline_bot, table_row
from buraco.tournament.event import MAX_TURNS, MOVEMENTS, Tournament
from buraco.tournament.pairing import MAX_ENTRANTS
from buraco.tournament.standings import BYE_VP
from buraco.tournament.vp import scale_for

log = logging.getLogger("buraco.server")

BREAKS = (0, 3600)
"""The shortest and longest break between turns, in seconds."""

MAX_OPEN = 200
"""The most tournaments open for entries or being played at once (on the whole site)."""

MAX_OPEN_PER_GUEST = 3
"""The most tournaments one player may have open or being played."""

MAX_OPEN_BY_GUESTS = 50
"""The most tournaments open or being played that guests (players without an account) have
made, all together: guests made in seconds never fill the site's :data:`MAX_OPEN`."""

TURN_TIMER = 120
"""Seconds a player of a tournament's table has for a turn before the stand-in moves."""

MAX_AHEAD = 30 * 86400
"""How far ahead a tournament's start time may be, in seconds."""

CHECK_EVERY = 1.0
"""Seconds between looks for a turn that is due."""


@dataclass(frozen=True)
class TournamentSpec:
    """What a new tournament is to be (checked by :meth:`Tournaments.create`)."""

    name: str
    preset: str
    players: int
    movements: list[str]
    hands: int
    duplicate: bool = False
    pace: float = 1.0
    break_seconds: int = 60
    bye_vp: int = BYE_VP
    minutes: int = 0
    """A turn's time: its tables end with the hand in play after so many minutes (0: none)."""
    rated: bool = False
    starts_at: float | None = None
    """When it starts by itself (seconds since the epoch); None: when its director says."""
    individual: bool = False
    """Players, not pairs, at tables of 4: a new partner each turn (every turn Swiss)."""


def _config(spec: TournamentSpec) -> dict[str, Any]:
    """The tournament's settings while it is open (its state once it starts)."""
    return {
        "movements": spec.movements,
        "hands": spec.hands,
        "duplicate": spec.duplicate,
        "bye_vp": spec.bye_vp,
        "individual": spec.individual,
    }


def individual_of(row: TournamentRow) -> bool:
    """Whether the tournament's entrants are players at tables of 4 (open or started)."""
    return bool(json.loads(row.state).get("individual", False))


class Tournaments:
    """The tournaments of a server, over its table service."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.store = tables.store
        self._task: asyncio.Task[None] | None = None

    # ----- running ---------------------------------------------------------------------------
    def start(self) -> None:
        """Begin looking for turns that are due."""
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def stop(self) -> None:
        """Stop looking."""
        await cancel_and_wait([self._task])

    async def _keep(self) -> None:
        while True:
            try:
                due = await self.store.due_tournaments(time.time())
            except Exception:  # a database that is away: the next look tries again
                log.exception("tournaments: looking for a due turn failed")
                due = []
            for row in due:
                try:
                    await self._next_turn(row)
                except Exception:  # one tournament's trouble holds up no other
                    log.exception("tournament %s: its next turn failed", row.id)
            await asyncio.sleep(CHECK_EVERY)

    # ----- making and entering ------------------------------------------------------------------
    async def create(self, guest: Guest, spec: TournamentSpec) -> tuple[TournamentRow, str]:
        """A new tournament, open for entries; returns it and the director's secret."""
        name = check_name(spec.name)
        if spec.preset not in PRESETS:
            raise ServiceError("rules.preset", field="preset", presets=list(PRESETS))
        if spec.players not in (2, 4) or spec.players not in PRESETS[spec.preset].players:
            raise ServiceError("tournament.players", field="players")
        if not 1 <= len(spec.movements) <= MAX_TURNS or any(
            m not in MOVEMENTS for m in spec.movements
        ):
            raise ServiceError(
                "tournament.movements", field="movements", most=MAX_TURNS, movements=[*MOVEMENTS]
            )
        if spec.individual and (spec.players != 4 or set(spec.movements) != {"swiss"}):
            raise ServiceError("tournament.individual", field="movements")
        try:
            scale_for(spec.hands)
            make_rules(spec.preset, players=spec.players, match_hands=spec.hands)
        except (TournamentError, BuracoError) as exc:
            raise ServiceError("tournament", field="hands", text=str(exc)) from None
        if not 0 <= spec.pace <= 5:
            raise ServiceError("pace", field="pace", low=0.0, high=5.0)
        if not BREAKS[0] <= spec.break_seconds <= BREAKS[1]:
            raise ServiceError("tournament.break", field="break_seconds", most=BREAKS[1])
        if spec.minutes not in MATCH_MINUTES:
            minutes = [str(m) for m in MATCH_MINUTES[1:]]
            raise ServiceError("minutes", field="minutes", minutes=minutes)
        if spec.starts_at is not None and not 0 < spec.starts_at - time.time() <= MAX_AHEAD:
            raise ServiceError("tournament.starts", field="starts_at", days=MAX_AHEAD // 86400)
        if spec.rated:
            self.tables.check_rated(guest, field="rated")
        if spec.duplicate and spec.minutes:
            # timed tables play different numbers of hands: not the same cards to compare
            raise ServiceError("tournament.duplicate-timed", field="minutes")
        secret = secrets.token_urlsafe(16)
        row = TournamentRow(
            id=secrets.token_urlsafe(8),
            name=name,
            created_by=guest.id,
            created_at=now(),
            secret_hash=token_hash(secret),
            preset=spec.preset,
            players=spec.players,
            pace=float(spec.pace),
            break_seconds=spec.break_seconds,
            minutes=spec.minutes,
            rated=spec.rated,
            status="open",
            state=json.dumps(_config(spec)),
            version=0,
            next_turn_at=spec.starts_at,
        )
        caps = TournamentCaps(MAX_OPEN_PER_GUEST, MAX_OPEN, MAX_OPEN_BY_GUESTS, not guest.account)
        full = await self.store.add_tournament(row, caps)
        if full is not None:
            most = {
                "tournament.yours": MAX_OPEN_PER_GUEST,
                "tournament.many": MAX_OPEN,
                "tournament.many-guests": MAX_OPEN_BY_GUESTS,
            }[full]
            raise ServiceError(full, status=429, most=most)
        return row, secret

    async def get(self, tid: str) -> tuple[TournamentRow, list[EntryRow]]:
        """A tournament and its entries, or 404."""
        found = await self.store.tournament(tid) if len(tid) <= 32 else None
        if found is None:
            raise ServiceError("not-found.tournament", status=404, tournament=repr(tid[:40]))
        return found

    def is_director(self, row: TournamentRow, guest: Guest | None, secret: str | None) -> bool:
        """The player who made it, or anyone with its secret."""
        if guest is not None and guest.id == row.created_by:
            return True
        return bool(secret) and secrets.compare_digest(token_hash(secret or ""), row.secret_hash)

    async def enter(self, tid: str, guest: Guest, partner: str | None) -> int:
        """Enter the tournament; returns the entry's number.

        Alone (tables of 2, or an individual tournament), or with a partner: a bot
        spec, or ``None`` to keep the place for a partner who joins.
        """
        row, entries = await self.get(tid)
        self._open(row)
        if any(_holds(e, guest.id) for e in entries):
            raise ServiceError("tournament.entered", status=409)
        if row.rated:
            self.tables.check_rated(guest)
        members: list[dict[str, Any]] = [{"guest": guest.id, "name": guest.name}]
        if individual_of(row) and partner is not None:
            raise ServiceError("tournament.alone", field="partner")
        if row.players == 4 and not individual_of(row):
            if partner is None:
                # the place is the partner's who has the code (the entrant passes it on)
                members.append({"open": True, "code": secrets.token_urlsafe(9)})
            else:
                taken = {m.get("name") for e in entries for m in json.loads(e.members)}
                members.append(self._bot(partner, taken | {guest.name}))
        return await self._add_entry(row.id, [json.dumps(members)], guest.id)

    async def join(self, tid: str, number: int, guest: Guest, code: str) -> None:
        """Take the partner's place kept in an entry, with the code its entrant was given."""
        row, entries = await self.get(tid)
        self._open(row)
        if any(_holds(e, guest.id) for e in entries):
            raise ServiceError("tournament.entered", status=409)
        if row.rated:
            self.tables.check_rated(guest)
        entry = next((e for e in entries if e.number == number), None)
        members = json.loads(entry.members) if entry is not None else []
        spot = next((i for i, m in enumerate(members) if m.get("open")), None)
        if entry is None or spot is None:
            raise ServiceError("tournament.no-place", status=409, entry=number + 1)
        if not secrets.compare_digest(str(members[spot].get("code", "")), code):
            raise ServiceError("tournament.code", status=403)
        members[spot] = {"guest": guest.id, "name": guest.name}
        after = json.dumps(members)
        if not await self.store.update_entry(tid, number, entry.members, after, guest=guest.id):
            # taken meanwhile, started, or the player entered elsewhere at the same moment
            found = await self.store.tournament(tid)
            if found is not None and any(_holds(e, guest.id) for e in found[1]):
                raise ServiceError("tournament.entered", status=409)
            raise ServiceError("tournament.no-place", status=409, entry=number + 1)

    async def withdraw(self, tid: str, number: int, guest: Guest | None, director: bool) -> None:
        """Take an entry out before the start: its own members, or the director."""
        row, entries = await self.get(tid)
        self._open(row)
        entry = next((e for e in entries if e.number == number), None)
        if entry is None:
            raise ServiceError("tournament.no-entry", status=404, entry=number + 1)
        first = json.loads(entry.members)[0]
        if not director and (guest is None or first.get("guest") != guest.id):
            # the player who entered it (a partner who joined may not take it out)
            raise ServiceError("tournament.director", status=403)
        if not await self.store.drop_entry(tid, number):
            raise ServiceError("tournament.started", status=409)

    async def add_bots(self, tid: str, count: int, bot: str) -> None:
        """Entries of bots only, to fill a short field (the director's)."""
        row, entries = await self.get(tid)
        self._open(row)
        if not 1 <= count <= MAX_ENTRANTS - len(entries):
            raise ServiceError("tournament.bots", field="count", most=MAX_ENTRANTS - len(entries))
        taken = {m.get("name") for e in entries for m in json.loads(e.members)}
        added = []
        for _ in range(count):
            members = []
            for _ in range(1 if individual_of(row) else row.players // 2):
                members.append(self._bot(bot, taken))
                taken.add(members[-1]["name"])
            added.append(json.dumps(members))
        await self._add_entry(tid, added, None)

    def _bot(self, spec: str, taken: set[Any] | None = None) -> dict[str, Any]:
        if offline_bot(spec):
            raise ServiceError("seats.bot-offline", field="bot", row=1, bot=spec[:20])
        try:
            make_bot(spec, seed=0)
        except BuracoError as exc:
            raise ServiceError("seats.bot", field="bot", row=1, text=str(exc)) from None
        check_budget(spec, 0)
        return {"bot": spec, "name": _bot_name(taken or set())}

    async def _add_entry(self, tid: str, members: list[str], guest: str | None) -> int:
        """Add entries (each its members as JSON): the first one's number, or the refusal."""
        done = await self.store.add_entries(tid, members, most=MAX_ENTRANTS, guest=guest)
        if isinstance(done, int):
            return done
        if done == "tournament.full":
            raise ServiceError(done, status=409, most=MAX_ENTRANTS)
        raise ServiceError(done, status=409)

    @staticmethod
    def _open(row: TournamentRow) -> None:
        if row.status != "open":
            raise ServiceError("tournament.started", status=409)

    # ----- turns ---------------------------------------------------------------------------------
    async def begin(self, tid: str) -> None:
        """Start the tournament now: its entrants fixed, its first turn paired and seated."""
        row, entries = await self.get(tid)
        self._open(row)
        config = json.loads(row.state)
        alone = bool(config.get("individual", False))
        if len(entries) < (4 if alone else 2):
            raise ServiceError("tournament.few-players" if alone else "tournament.few", status=409)
        if [e.number for e in entries] != list(range(len(entries))):
            # entries taken out left gaps: the entrants are numbered 0, 1, … in order
            if not await self.store.renumber_entries(tid, row.version):
                raise ServiceError("stale", status=409)
            row, entries = await self.get(tid)
        names = [entry_name(json.loads(e.members)) for e in entries]
        try:
            t = Tournament.new(
                row.name,
                _unique(names),
                movements=config["movements"],
                hands=config["hands"],
                bye_vp=config["bye_vp"],
                duplicate=config["duplicate"],
                individual=alone,
            )
        except TournamentError as exc:
            raise _refused(exc) from None
        if not await self._turn(row, t, entries):
            raise ServiceError("stale", status=409)

    async def _next_turn(self, row: TournamentRow) -> None:
        """Start the turn that is due (another process may have started it: then nothing)."""
        found = await self.store.tournament(row.id)
        if found is None:
            return
        row, entries = found
        if row.next_turn_at is None or row.next_turn_at > time.time():
            return
        if row.status == "open":  # its start time
            try:
                await self.begin(row.id)
            except ServiceError as exc:
                if exc.key == "stale":  # another process started it
                    return
                # too few entries: it waits for its director
                log.info("tournament %s: not started at its time (%s)", row.id, exc.key)
                await self.store.unschedule(row.id)
            return
        if row.status != "playing":
            return
        t = Tournament.from_dict(json.loads(row.state))
        await self._turn(row, t, entries)

    async def _turn(self, row: TournamentRow, t: Tournament, entries: list[EntryRow]) -> bool:
        """Pair the next turn, make and seat its tables, and commit it all at once."""
        pairings = t.pair()
        turn = t.turn
        rules = make_rules(row.preset, players=row.players, match_hands=t.hands)
        deals: list[TournamentDeal] = []
        if t.duplicate:
            for hand in range(1, t.hands + 1):
                d = new_deal(rules)
                deals.append(
                    TournamentDeal(
                        tournament_id=row.id,
                        turn=turn,
                        hand=hand,
                        deck=d.deck_text,
                        cut=d.cut,
                        salt=d.salt,
                        commitment=d.commitment,
                    )
                )
        members = {e.number: json.loads(e.members) for e in entries}
        if set(members) != set(range(len(t.entrants))):
            log.error(
                "tournament %s: entries %s for %d entrants",
                row.id,
                sorted(members),
                len(t.entrants),
            )
            return False
        made: list[tuple[TableRow, list[SeatRow]]] = []
        for p in pairings:
            if p.ew is None:
                continue
            table_id = secrets.token_urlsafe(6)
            table = table_row(
                table_id,
                row.created_by,
                row.preset,
                row.players,
                rules.overrides(),
                public=True,
                invite_hash="",
                pace=row.pace,
                # a player who sits and does not move: the stand-in moves for them
                turn_timer=TURN_TIMER,
                minutes=row.minutes,
                rated=row.rated,
            )
            table.tournament_id, table.tournament_turn, table.tournament_table = (
                row.id,
                turn,
                p.table,
            )
            table.holds_decks = t.duplicate
            ns = [m for e in p.ns_side() for m in members[e]]
            ew = [m for e in p.ew_side() for m in members[e]]
            seats = _seats(table_id, ns, ew, row.players, self.tables)
            made.append((table, seats))
        leases = [lease for table, _ in made if (lease := self.tables._own_new(table)) is not None]
        state = json.dumps(t.to_dict())
        if not await self.store.start_turn(row.id, row.version, state, made, deals, leases):
            for table, _ in made:
                self.tables.owned.discard(table.id)
            return False
        await self.tables.adopt_new([table.id for table, _ in made])
        log.info("tournament %s: turn %d, %d tables", row.id, turn, len(made))
        return True

    async def started(self, tid: str) -> tuple[TournamentRow, Tournament]:
        """A tournament that has started, with its state (409 while it is open)."""
        row, _ = await self.get(tid)
        if row.status == "open":
            raise ServiceError("tournament.not-started", status=409)
        return row, Tournament.from_dict(json.loads(row.state))

    async def adjust(
        self, tid: str, turn: int, table: int, vp: tuple[int, int] | None, note: str
    ) -> None:
        """The director's VP for a table (None: the scale's again)."""
        row, t = await self.started(tid)
        _, status = (await self.store.tournament_tables(tid)).get((turn, table), (None, None))
        if status not in (None, "over"):
            # its result comes with its end: a turn is over when its tables are
            raise ServiceError("tournament.in-play", status=409, table=table)
        try:
            if vp is None:
                t.adjust(table, None, None, turn=turn)
            else:
                t.adjust(table, vp[0], vp[1], note, turn=turn)
        except TournamentError as exc:
            raise _refused(exc) from None
        if not await self.store.save_tournament(row.id, row.version, json.dumps(t.to_dict())):
            raise ServiceError("stale", status=409)
        log.info(
            "tournament %s: turn %d, table %d adjusted by the director to %s (%s)",
            tid,
            turn,
            table,
            "the scale's VP" if vp is None else f"{vp[0]}-{vp[1]} VP",
            note,
        )

    # ----- what everyone sees --------------------------------------------------------------------
    async def view(
        self, tid: str, guest: Guest | None, secret: str | None = None
    ) -> dict[str, Any]:
        """The tournament as the API shows it (no guest ids, no secret)."""
        row, entries = await self.get(tid)
        state = json.loads(row.state)
        out: dict[str, Any] = {
            "id": row.id,
            "director": self.is_director(row, guest, secret),
            "name": row.name,
            "preset": row.preset,
            "players": row.players,
            "status": row.status,
            "pace": row.pace,
            "break_seconds": row.break_seconds,
            "minutes": row.minutes,
            "rated": row.rated,
            "next_turn_in": (
                max(0.0, round(row.next_turn_at - time.time(), 1))
                if row.next_turn_at is not None
                else None
            ),
            "entries": [
                {
                    "number": e.number,
                    "name": entry_name(json.loads(e.members)),
                    "members": [_member(m) for m in json.loads(e.members)],
                }
                for e in entries
            ],
            "you": next((e.number for e in entries if guest and _holds(e, guest.id)), None),
            "partner_code": next(
                (
                    m["code"]
                    for e in entries
                    if guest and _holds(e, guest.id)
                    for m in json.loads(e.members)
                    if m.get("open")
                ),
                None,
            ),
        }
        if row.status == "open":
            out.update(
                movements=state["movements"],
                hands=state["hands"],
                duplicate=state["duplicate"],
                individual=state.get("individual", False),
                starts_at=row.next_turn_at,
                turn=0,
                turns=[],
                standings=[],
            )
            return out
        t = Tournament.from_dict(state)
        where = await self.store.tournament_tables(row.id)
        results = {(r.turn, r.table): r for r in t.results}
        turns = []
        for number, pairings in enumerate(t.turns, start=1):
            rows = []
            for p in pairings:
                r = results.get((number, p.table))
                vp = t.table_vp(r) if r is not None else None
                table_id, status = where.get((number, p.table), (None, None))
                rows.append(
                    {
                        "table": p.table,
                        "ns": p.ns,
                        "ew": p.ew,
                        "ns_partner": p.ns_partner,
                        "ew_partner": p.ew_partner,
                        "table_id": table_id,
                        "status": status,
                        "ns_mp": r.ns_mp if r is not None and p.ew is not None else None,
                        "ew_mp": r.ew_mp if r is not None and p.ew is not None else None,
                        "vp": list(vp) if vp is not None else None,
                        "note": r.note if r is not None and r.vp is not None else None,
                        "resigned": r.resigned if r is not None else None,
                    }
                )
            turns.append({"turn": number, "movement": t.movements[number - 1], "tables": rows})
        out.update(
            movements=t.movements,
            hands=t.hands,
            duplicate=t.duplicate,
            individual=t.individual,
            starts_at=None,
            turn=t.turn,
            turns=turns,
            standings=[
                {
                    "place": s.place,
                    "entrant": s.entrant,
                    "name": t.entrants[s.entrant],
                    "vp": s.vp,
                    "mp_for": s.mp_for,
                    "mp_against": s.mp_against,
                    "played": s.played,
                }
                for s in t.standings()
            ],
        )
        return out


def _refused(exc: TournamentError) -> ServiceError:
    """The library's refusal as the API words it: by its case when it has one."""
    if exc.case is not None and f"tournament.{exc.case}" in MESSAGES:
        params: dict[str, Any] = dict(exc.params)  # never status, field, rule or refusal
        return ServiceError(f"tournament.{exc.case}", **params)
    return ServiceError("tournament", text=str(exc))


def _holds(entry: EntryRow, guest_id: str) -> bool:
    return any(m.get("guest") == guest_id for m in json.loads(entry.members))


def _member(m: dict[str, Any]) -> dict[str, Any]:
    if m.get("open"):
        return {"kind": "open", "name": None}
    return {"kind": "bot" if "bot" in m else "player", "name": m["name"]}


def _unique(names: list[str]) -> list[str]:
    """Names made distinct (a second ``Ana/Bia`` becomes ``Ana/Bia (2)``)."""
    used: set[str] = set()
    out = []
    for name in names:
        candidate, n = name, 1
        while candidate.casefold() in used:
            n += 1
            candidate = f"{name[:34]} ({n})"
        used.add(candidate.casefold())
        out.append(candidate)
    return out


_BOT_NAMES = ("Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Lia", "Marco",
              "Nora", "Otto", "Pia", "Rita", "Sara", "Tino", "Ugo", "Vera", "Zeno")  # fmt: skip


def _bot_name(taken: set[Any]) -> str:
    """A bot's name no other member of the tournament has ("Ivo (bot)", then "Ivo 2 (bot)")."""
    for round_ in range(1, 1000):
        suffix = "" if round_ == 1 else f" {round_}"
        free = [n for n in _BOT_NAMES if f"{n}{suffix} (bot)" not in taken]
        if free:
            return f"{secrets.choice(free)}{suffix} (bot)"
    return f"{secrets.choice(_BOT_NAMES)} (bot)"  # pragma: no cover - a thousand rounds


def _seats(
    table_id: str,
    ns: list[dict[str, Any]],
    ew: list[dict[str, Any]],
    players: int,
    tables: TableService,
) -> list[SeatRow]:
    """The seats of a table: NS's members at seats 0 and 2, EW's at 1 and 3 (of 2: 0 and 1)."""
    order = [ns[0], ew[0]] if players == 2 else [ns[0], ew[0], ns[1], ew[1]]
    out = []
    for i, m in enumerate(order):
        if "guest" in m:
            out.append(SeatRow(table_id=table_id, seat=i, kind="guest", bot=None,
                               guest_id=m["guest"], invited=False, name=m["name"]))  # fmt: skip
        else:
            bot = m.get("bot") or tables.settings.stand_in
            name = m.get("name") or _bot_name(set())
            out.append(SeatRow(table_id=table_id, seat=i, kind="bot", bot=bot, guest_id=None,
                               invited=False, name=name))  # fmt: skip
    return out
