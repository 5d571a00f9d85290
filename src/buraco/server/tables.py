"""A live table: the engine's game, its seats, its connections, and what each of them is sent.

The table is rebuilt from its log (:meth:`LiveTable.load`) and changed only by
the table service (:mod:`buraco.server.service`). The engine stays the only
place that knows the rules: a table holds a :class:`~buraco.game.Game` and asks
it.

Frames (the server's messages, ``docs/protocol.md``) are built here from a
seat's :func:`~buraco.views.seat_view` or the :func:`~buraco.views.spectator_view`
and nothing else of the game, so no connection is sent a card its seat may not
know. The deck of a hand and its salt leave the server only once the hand is over.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from buraco.cards import CARD_NAMES
from buraco.game import Game, Phase
from buraco.rules import Rules, rules_from_json
from buraco.server.models import EventRow, SeatRow
from buraco.server.protocol import PROTOCOL
from buraco.server.store import TableData
from buraco.views import event_lines, seat_view, spectator_view

RECENT = 500
"""Table events kept in memory for clients that reconnect (older ones get a full state)."""


@dataclass
class Seat:
    """Who sits at a seat."""

    seat: int
    kind: str
    """``open``, ``invite``, ``bot`` or ``guest``."""
    bot: str | None
    guest_id: str | None
    invited: bool
    name: str
    rating: int | None = None
    """The player's rating in the table's preset and player count (kept in memory only)."""

    def row(self, table_id: str) -> SeatRow:
        """The database row of this seat."""
        return SeatRow(
            table_id=table_id,
            seat=self.seat,
            kind=self.kind,
            bot=self.bot,
            guest_id=self.guest_id,
            invited=self.invited,
            name=self.name,
        )

    def public(self, connected: bool, away: bool, away_in: float | None = None) -> dict[str, Any]:
        """The seat as every client sees it (no guest id, no invite code).

        ``away_in``: for a player without a connection who is not away yet, the seconds
        left of the grace period (then a bot plays for them).
        """
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "rating": self.rating,
            "connected": connected,
            "away": away,
            "away_in": away_in,
        }


class Bucket:
    """A token bucket: ``rate`` per second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        """Take a token if there is one; whether there was."""
        t = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (t - self.at) * self.rate)
        self.at = t
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Sender:
    """A connection as a table sees it: who it is and how to send it a frame."""

    seat: int | None
    guest_id: str | None
    session: str | None = None
    """The hash of the session's token the connection was opened with (None: no player)."""

    def send(self, frame: str) -> None:  # pragma: no cover - interface
        """Queue a frame (JSON text); never blocks."""
        raise NotImplementedError

    def signed_out(self) -> None:
        """The connection's session has ended: it sends and takes nothing more, and closes."""


@dataclass
class DealInfo:
    """One hand's deal as the log holds it: secret until the hand is over."""

    deck: str
    cut: int
    salt: str
    commitment: str


@dataclass
class LiveTable:
    """A table in memory: its game, seats, connections and timers."""

    id: str
    created_by: str
    preset: str
    players: int
    options: dict[str, Any]
    public: bool
    invite_hash: str
    pace: float
    turn_timer: int
    minutes: int
    status: str
    version: int
    rules: Rules
    seats: list[Seat]
    rematch: str | None = None
    rated: bool = False
    """A rated match: its end updates the players' ratings."""
    tournament: tuple[str, int, int] | None = None
    """The tournament, turn and table number this table plays, if any."""
    holds_decks: bool = False
    """A duplicate tournament's table: a hand's deck and salt are not shown at its end."""
    started_at: float | None = None
    """When the first hand was dealt (seconds since the epoch): a timed match counts from it."""
    game: Game | None = None
    deals: list[DealInfo] = field(default_factory=list)
    game_id: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    conns: set[Sender] = field(default_factory=set)
    ready: set[int] = field(default_factory=set)
    recent: deque[tuple[int, dict[str, Any]]] = field(default_factory=lambda: deque(maxlen=RECENT))
    left_at: dict[int, float] = field(default_factory=dict)
    """Seats whose player has no connection: since when (monotonic seconds)."""
    remote: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)
    """Per other server process: the seats with a connection there (and when it said so)."""
    turn_since: float = field(default_factory=time.monotonic)
    hand_over_at: float = 0.0
    hand_pause: float = 15.0
    """Seconds between a hand's end and the next deal while a player is not ready."""
    driver: asyncio.Task[None] | None = None
    chat_rate: Bucket | None = None
    """Chat lines the table still takes from everyone together (made at the first line)."""
    logs: dict[tuple[int, int], list[str]] = field(default_factory=dict)
    """Each seat's log lines of the current hand (seat -1: spectators), kept as they grow."""
    own_turns: list[int] = field(default_factory=list)
    """Per seat, the turns of the match its player began themselves (not a bot, a stand-in
    or the turn timer): rated play needs play."""
    unrated: dict[str, Any] | None = None
    """A rated table whose match is not (or will not be) rated: why, as a notice
    (``{"key", "params"}``, worded by the page from ``notice.<key>``)."""

    # ----- loading ---------------------------------------------------------------------------
    @classmethod
    def from_data(cls, data: TableData) -> LiveTable:
        """A table from its stored row and seats (no log applied yet)."""
        row = data.row
        options = json.loads(row.options)
        return cls(
            id=row.id,
            created_by=row.created_by,
            preset=row.preset,
            players=row.players,
            options=options,
            public=row.public,
            invite_hash=row.invite_hash,
            pace=row.pace,
            turn_timer=row.turn_timer,
            minutes=row.minutes,
            status=row.status,
            version=0,
            rules=rules_from_json(row.preset, row.players, options),
            seats=[Seat(s.seat, s.kind, s.bot, s.guest_id, s.invited, s.name) for s in data.seats],
            rematch=row.rematch,
            rated=row.rated,
            tournament=(
                (row.tournament_id, row.tournament_turn or 0, row.tournament_table or 0)
                if row.tournament_id
                else None
            ),
            holds_decks=row.holds_decks,
        )

    def load(self, events: Iterable[EventRow]) -> None:
        """Apply the log to rebuild the game (the rules check every action again).

        A log this version cannot read (an entry missing a field, or not JSON) raises
        RuntimeError naming the table and the entry.
        """
        for ev in events:
            try:
                self.replay(ev.version, ev.kind, json.loads(ev.data))
            except (KeyError, TypeError, ValueError) as exc:
                raise RuntimeError(
                    f"table {self.id}: log entry {ev.kind!r} at version {ev.version} "
                    f"is malformed ({type(exc).__name__}: {exc})"
                ) from exc

    def replay(self, version: int, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Apply one log entry; returns the public event for clients."""
        if version != self.version + 1:
            raise RuntimeError(f"table {self.id}: log version {version} after {self.version}")
        event: dict[str, Any] = {"kind": kind}
        if kind == "deal":
            deal = DealInfo(data["deck"], data["cut"], data["salt"], data["commitment"])
            if self.game is None:
                self.game = Game(
                    self.rules,
                    seed=data["seed"],
                    stacked=[deal.deck],
                    cuts=[deal.cut],
                    first_dealer=data["first_dealer"],
                    names=data["names"],
                )
                self.started_at = data.get("at", time.time())
            else:
                self.game.next_hand(deal.deck, deal.cut)
            self.deals.append(deal)
            self.ready.clear()
            self.turn_since = time.monotonic()
            event.update(hand=self.game.hand_number + 1, commitment=deal.commitment)
        elif kind == "stop":  # a timed match whose time is up ends with the hand just played
            self._dealt(version, kind).stop_match()
            event["match_over"] = True
        elif kind == "resign":  # a player conceded: their side loses the match now
            g = self._dealt(version, kind)
            hand_in_play = not g.is_hand_over()
            g.resign(data["seat"])
            event.update(seat=data["seat"], match_over=True)
            if hand_in_play:
                self.hand_over_at = time.monotonic()
                event["reveal"] = self.reveal(g.hand_number)
        elif kind == "action":
            g = self._dealt(version, kind)
            begins = g.phase == Phase.DRAW
            g.apply(data["action"], seat=data["seat"])
            if begins and data["by"] == "player":
                if not self.own_turns:
                    self.own_turns = [0] * self.players
                self.own_turns[data["seat"]] += 1
            if g.turn != data["seat"]:  # the turn clock runs for a whole turn
                self.turn_since = time.monotonic()
            event.update(seat=data["seat"], action=data["action"], by=data["by"])
            if g.is_hand_over():
                self.hand_over_at = time.monotonic()
                event["reveal"] = self.reveal(g.hand_number)
                if g.is_over():
                    event["match_over"] = True
        elif kind == "seat":
            s = data["seat"]
            self.seats[s] = Seat(
                s, data["kind"], data["bot"], data["guest"], data["invited"], data["name"]
            )
            for conn in self.conns:  # a guest who sits (or leaves) now sees that seat's view
                if data["guest"] is not None and conn.guest_id == data["guest"]:
                    conn.seat = s
                elif conn.seat == s:
                    conn.seat = None
            event.update(seat=s, name=data["name"], who=data["kind"])
        else:
            raise RuntimeError(f"table {self.id}: unknown log entry {kind!r}")
        self.version = version
        self.recent.append((version, event))
        return event

    def _dealt(self, version: int, kind: str) -> Game:
        """The game a log entry applies to; a log with no deal before it is refused."""
        if self.game is None:
            raise RuntimeError(
                f"table {self.id}: log entry {kind!r} at version {version} before any deal"
            )
        return self.game

    def reveal(self, hand: int) -> dict[str, Any]:
        """What becomes public when a hand is over: its deal, salt and the cards left in hands."""
        g = self.game
        assert g is not None
        d = self.deals[hand]
        if self.holds_decks:
            # other tables of the tournament's turn play this deck still: only its commitment
            return {"hand": hand + 1, "commitment": d.commitment, "held": True}
        return {
            "hand": hand + 1,
            "deck": d.deck,
            "cut": d.cut,
            "salt": d.salt,
            "commitment": d.commitment,
            # every card left in a hand, a morto not yet looked at (us) included
            "hands": [[CARD_NAMES[c] for c in sorted(g.hand(s))] for s in range(g.n)],
        }

    # ----- state -----------------------------------------------------------------------------
    def seat_of(self, guest_id: str | None) -> int | None:
        """The seat a guest holds here, if any."""
        if guest_id is None:
            return None
        for s in self.seats:
            if s.kind == "guest" and s.guest_id == guest_id:
                return s.seat
        return None

    def connected(self, seat: int) -> bool:
        """Whether the player of a seat has a connection open."""
        return any(c.seat == seat for c in self.conns) or any(
            seat in seats for seats, _ in self.remote.values()
        )

    def away(self, seat: int, grace: float) -> bool:
        """Whether a guest's seat has been without a connection for longer than ``grace``."""
        since = self.left_at.get(seat)
        return since is not None and time.monotonic() - since >= grace

    def away_in(self, seat: int, grace: float) -> float | None:
        """Seconds before a seat without a connection is away (None: connected, or away)."""
        since = self.left_at.get(seat)
        if since is None:
            return None
        left = grace - (time.monotonic() - since)
        return round(left, 1) if left > 0 else None

    def time_up(self) -> bool:
        """Whether a timed match has run its minutes (it ends when the hand in play does)."""
        return (
            self.minutes > 0
            and self.started_at is not None
            and time.time() - self.started_at >= 60 * self.minutes
        )

    def full(self) -> bool:
        """Whether every seat has a player or a bot."""
        return all(s.kind in ("bot", "guest") for s in self.seats)

    def summary(self, grace: float) -> dict[str, Any]:
        """The table as the lobby and every client see it."""
        g = self.game
        return {
            "id": self.id,
            "preset": self.preset,
            "players": self.players,
            "options": self.options,
            "public": self.public,
            "pace": self.pace,
            "turn_timer": self.turn_timer,
            "minutes": self.minutes,
            "rated": self.rated,
            "tournament": (
                {"id": self.tournament[0], "turn": self.tournament[1], "table": self.tournament[2]}
                if self.tournament is not None
                else None
            ),
            "started_at": self.started_at,
            "status": self.status,
            "version": self.version,
            "hand": None if g is None else g.hand_number + 1,
            "totals": None if g is None else list(g.totals),
            "open_seats": [s.seat for s in self.seats if s.kind == "open"],
            "invite_seats": [s.seat for s in self.seats if s.kind == "invite"],
            "seats": [
                s.public(
                    self.connected(s.seat),
                    s.kind == "guest" and self.away(s.seat, grace),
                    self.away_in(s.seat, grace) if s.kind == "guest" else None,
                )
                for s in self.seats
            ],
            "game": self.game_id,
            "rematch": self.rematch,
            "unrated": self.unrated,
        }

    def view(self, seat: int | None, *, whole: bool = True) -> dict[str, Any] | None:
        """The view a connection at ``seat`` (None: a spectator) is sent.

        ``whole``: with the rules' options and the hand's whole log (a ``state`` frame).
        Otherwise (an ``event`` frame) without the options, which never change, and with
        only the log's new lines: ``log_from`` lines of it came before them.
        """
        g = self.game
        if g is None:
            return None
        v = spectator_view(g) if seat is None else seat_view(g, seat)
        out = v.to_dict(log=False)
        # the hand's log as this seat saw it, extended by the new events only
        key = (-1 if seat is None else seat, g.hand_number)
        lines = self.logs.get(key)
        if lines is None:
            self.logs = {k: x for k, x in self.logs.items() if k[1] == g.hand_number}
            lines = self.logs[key] = []
        known = len(lines)
        if known < len(v.events):
            lines += event_lines(v.events[known:], v.seat, v.names)
        # the same entries as data (a code and parameters for each note), line for line
        start = 0 if whole else known
        feed = [e.to_dict() for e in v.events[start : len(lines)]]
        if whole:
            out["log"] = list(lines)
        else:
            del out["options"]
            out["log_from"] = known
            out["log"] = lines[known:]
        out["feed"] = feed  # after "log", as in a whole view
        out["hands_played"] = [
            {
                "hand": i + 1,
                "totals": list(r.totals),
                "scores": [s.as_dict() for s in r.scores],
                "ended_by": r.ended_by,
                "went_out": r.went_out,
            }
            for i, r in enumerate(g.results)
        ]
        out["commitment"] = self.deals[-1].commitment if self.deals else None
        return out

    def clock(self) -> dict[str, Any]:
        """Whose turn it is and for how long (seconds), for the turn clock.

        Between hands, ``next_deal``: the seconds left before the next hand is dealt
        whether or not everyone is ready (None during a hand and once the match is over).
        """
        g = self.game
        if g is None or g.is_hand_over():
            left = None
            if g is not None and not g.is_over():
                left = round(max(0.0, self.hand_pause - (time.monotonic() - self.hand_over_at)), 1)
            return {"turn": None, "elapsed": 0.0, "limit": self.turn_timer, "next_deal": left}
        return {
            "turn": g.turn,
            "elapsed": round(time.monotonic() - self.turn_since, 1),
            "limit": self.turn_timer,
            "next_deal": None,
        }

    # ----- frames ----------------------------------------------------------------------------
    def broadcast(self, build: Callable[[int | None], str]) -> None:
        """Send every connection the frame ``build`` makes for its seat (built once per seat)."""
        frames: dict[int | None, str] = {}
        for conn in list(self.conns):
            frame = frames.get(conn.seat)
            if frame is None:
                frame = frames[conn.seat] = build(conn.seat)
            conn.send(frame)

    def event_frame(self, event: dict[str, Any], grace: float) -> Callable[[int | None], str]:
        """A builder of the ``event`` frame of the latest version for each seat."""
        table = self.summary(grace) if event["kind"] in ("seat", "deal") else None
        clock = self.clock()

        def build(seat: int | None) -> str:
            msg: dict[str, Any] = {
                "type": "event",
                "version": self.version,
                "seat": seat,
                "event": event,
                "view": self.view(seat, whole=event["kind"] == "deal"),
                "clock": clock,
            }
            if table is not None:
                msg["table"] = table
            return dumps(msg)

        return build

    def state_frame(self, seat: int | None, guest: dict[str, Any] | None, grace: float) -> str:
        """The full ``state`` of the table for one connection."""
        return dumps(
            {
                "type": "state",
                "protocol": PROTOCOL,
                "version": self.version,
                "you": {"seat": seat, "guest": guest},
                "table": self.summary(grace),
                "view": self.view(seat),
                "clock": self.clock(),
            }
        )

    def missed(self, since: int) -> list[dict[str, Any]] | None:
        """The public events after version ``since``, or None when they are no longer kept."""
        if since > self.version:
            return None
        if since == self.version:
            return []
        if not self.recent or self.recent[0][0] > since + 1:
            return None
        return [ev for v, ev in self.recent if v > since]


def dumps(message: dict[str, Any]) -> str:
    """A message as compact JSON text."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
