"""No connection is ever sent a card its seat may not know (docs/protocol.md).

For every preset a match of one hand (``match_hands=1``; another hand follows
only on a level score) is played on the real app with every kind of client
connected: a guest at a seat sending actions over the WebSocket (who
also drops and reconnects with ``since``), greedy bots at the other seats, a
guest watching and an anonymous watcher (one of them asking for missed events
with ``hello``). Every frame each connection receives is kept. Then the hand is
replayed from the table's log, and each frame is checked against what its
connection may know at the frame's version:

- a frame's ``view`` is exactly the seat's :func:`~buraco.views.seat_view` (a
  watcher's: the :func:`~buraco.views.spectator_view`) at that version;
- the card codes in any part of a frame (the view, the event, each missed event)
  are a sub-multiset of the card codes of that legitimate view, plus the hand's
  deck and hands once the hand is over;
- before the hand is over no frame holds the deck order, the salt, the stock,
  a morto, another seat's hand, or a ``reveal``; a watcher's frames hold no hand
  card at all.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest

from buraco.cards import CARD_NAMES
from buraco.game import Game
from buraco.rules import PRESETS, rules_from_json
from buraco.views import seat_view, spectator_view
from serverkit import Player, Server, whole_view

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PLAYERS = {"aberto": 4, "fechado": 4, "us": 4, "netcartas": 4, "italiano": 4}
"""One player count per preset: four, so that partners and each side's morto are played."""

ME = 0
"""The guest's seat (its partner, seat 2, is a bot)."""

CARD = re.compile(r"(?<![A-Za-z0-9])(?:(?:[A2-9TJQK]|10)[CDHS]|JK)(?![A-Za-z0-9])")
"""A card code inside any text (``7H`` in ``"discard 7H"``, ``TD``, ``JK``)."""

RANDOM_KEYS = frozenset({"id", "guest", "commitment", "salt", "created_by"})
"""Keys whose values are random identifiers or digests, not text that could name a card."""

HIDDEN_KEYS = ("deck", "salt", "hands", "reveal")
"""Keys that only a hand's reveal may carry (once the hand is over)."""

FRAME_LIMIT = 20_000


def test_the_card_pattern_finds_codes_in_text() -> None:
    assert CARD.findall("you: take-pile (7H TD 10C JK) draw QS, 2C") == [
        "7H",
        "TD",
        "10C",
        "JK",
        "QS",
        "2C",
    ]
    assert CARD.findall("Greedy 2 heuristic 3 aberto clean-13 AJQK 7HX x7H") == []
    log = ["you: draw 7H", "Ana: draw", "you: turn-up (turned up 3C, drew 9S)", "Bia: draw 2C"]
    assert seen_draws({"seat": 0, "log": log}) == ["Bia: draw 2C"]
    assert seen_draws({"seat": None, "log": log}) == [log[0], log[2], log[3]]


def card_codes(value: Any, key: str = "") -> Counter[str]:
    """Every card code in every string of a JSON value (``10C`` counted as ``TC``)."""
    out: Counter[str] = Counter()
    if key in RANDOM_KEYS:
        return out
    if isinstance(value, str):
        out.update(c.replace("10", "T") for c in CARD.findall(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            out.update(card_codes(v, k))
    elif isinstance(value, list):
        for v in value:
            out.update(card_codes(v, key))
    return out


def keys_of(value: Any) -> Iterator[str]:
    """Every key anywhere in a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_of(v)


def hand_lists(value: Any, key: str = "") -> Iterator[list[Any]]:
    """Every list held under a key named ``hand``."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "hand" and isinstance(v, list):
                yield v
            yield from hand_lists(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from hand_lists(v, key)


def receive(ws: Any, timeout: float = 60.0) -> tuple[str, dict[str, Any]]:
    """The next frame as text and parsed, failing (not hanging) when none comes."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    assert message["type"] == "websocket.send", f"the server closed the socket: {message}"
    text: str = message["text"]
    return text, json.loads(text)


@dataclass
class Conn:
    """One client connection and every frame it received."""

    label: str
    seat: int | None
    """The guest's seat (it sits before the deal), or None for a watcher."""
    frames: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def read(self, ws: Any, stop: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Keep frames until one satisfies ``stop``; returns it."""
        for _ in range(FRAME_LIMIT):
            text, m = receive(ws)
            self.frames.append((text, m))
            if stop(m):
                return m
        raise AssertionError(f"{self.label}: no such frame in {FRAME_LIMIT}")


def over(m: dict[str, Any]) -> bool:
    """The frame saying the match is over (sent after the last event)."""
    return bool(m["type"] == "table" and m["table"]["status"] == "over")


def event_at(version: int) -> Callable[[dict[str, Any]], bool]:
    """A test for the event frame of one version."""
    return lambda m: bool(m["type"] == "event" and m["version"] == version)


def my_turn(m: dict[str, Any]) -> bool:
    return m["type"] in ("state", "event") and bool(m.get("view") and m["view"]["legal"])


def choose(legal: list[str]) -> str:
    """A simple player: takes the pile when it may, else the first legal action."""
    return "take-pile" if "take-pile" in legal else legal[0]


@dataclass
class Truth:
    """What each viewer may know at one version of the table, from the replayed log."""

    views: dict[int | None, dict[str, Any]]
    over: bool
    secrets: list[str]
    """Text that must not be sent before the hand is over (JSON lists and card text)."""
    own: list[str]
    """The guest's own hand as JSON text (a secret from watchers)."""
    reveal: Counter[str]


def expected_view(g: Game, seat: int | None, commitment: str) -> dict[str, Any]:
    """The view a connection at ``seat`` may be sent, as the protocol documents it."""
    v = spectator_view(g) if seat is None else seat_view(g, seat)
    out = v.to_dict()
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
    out["commitment"] = commitment
    return out


def as_json(cards: list[int]) -> str:
    return json.dumps([CARD_NAMES[c] for c in cards], separators=(",", ":"))


def ground_truth(events: list[Any], preset: str, players: int) -> dict[int, Truth]:
    """Per table version: each viewer's legitimate view and the secrets of that moment."""
    truth: dict[int, Truth] = {}
    g: Game | None = None
    deal: dict[str, Any] = {}
    rules = rules_from_json(preset, players, {"match_hands": 1})
    for ev in events:
        data = json.loads(ev.data)
        if ev.kind == "deal":
            deal = data
            if g is None:
                g = Game(
                    rules,
                    seed=data["seed"],
                    stacked=[data["deck"]],
                    cuts=[data["cut"]],
                    first_dealer=data["first_dealer"],
                    names=data["names"],
                )
            else:  # a level score after match_hands: the match goes on
                g.next_hand(data["deck"], data["cut"])
        elif ev.kind == "action":
            assert g is not None
            g.apply(data["action"], seat=data["seat"])
        elif ev.kind == "stop":  # a timed match ending (not expected here: no time limit)
            assert g is not None
            g.stop_match()
        if g is None:
            continue
        hands = [list(seat_view(g, s, full=False).hand) for s in range(players)]
        secrets = [deal["deck"], deal["salt"]]
        # the stock from its top, the mortos, and every hand but one's own
        stock = g.stock[::-1]
        if len(stock) >= 4:
            secrets += [as_json(stock[:4]), " ".join(CARD_NAMES[c] for c in stock[:4])]
        secrets += [as_json(p) for p in g.pots if len(p) >= 4]
        secrets += [" ".join(CARD_NAMES[c] for c in p) for p in g.pots if len(p) >= 4]
        others = [as_json(h) for s, h in enumerate(hands) if s != ME and len(h) >= 4]
        own = [as_json(hands[ME])] if len(hands[ME]) >= 4 else []
        reveal: Counter[str] = Counter()
        if g.is_hand_over():
            reveal.update(card_codes(deal["deck"]))
            # the reveal's hands are every card left in a hand: in us a morto taken and
            # not yet looked at too, which the seat's view does not show (found by a rare
            # failure: the last frame of a us hand ended with such a morto)
            for s in range(players):
                reveal.update(CARD_NAMES[c] for c in g.hand(s))
        truth[ev.version] = Truth(
            views={
                ME: expected_view(g, ME, deal["commitment"]),
                None: expected_view(g, None, deal["commitment"]),
            },
            over=g.is_hand_over(),
            secrets=secrets + others,
            own=own,
            reveal=reveal,
        )
    return truth


DRAWN = re.compile(r"^(?P<who>[^:]+): (?:draw \S+|turn-up \(.*, drew \S+\))$")
"""A log line naming the card drawn from the stock: only the drawer's own (``you: draw 7H``)."""


def seen_draws(view: dict[str, Any]) -> list[str]:
    """Log lines of a view showing a card someone else drew (a seat sees only its own)."""
    return [
        line
        for line in view["log"]
        if (found := DRAWN.match(line)) and (view["seat"] is None or found["who"] != "you")
    ]


def check_part(
    what: str, part: Any, allowed: Counter[str], problems: list[str], limit: int = 20
) -> None:
    extra = card_codes(part) - allowed
    if extra and len(problems) < limit:
        problems.append(f"{what}: cards it may not know: {' '.join(sorted(extra.elements()))}")


def check_frames(conn: Conn, truth: dict[int, Truth], final: int | None) -> list[str]:
    """Every way a connection's frames say more than its seat may know."""
    problems: list[str] = []
    at = 0  # the table version the connection has been told of
    told: set[int] = set()
    shown: dict[str, Any] | None = None  # the whole view the client has now
    for i, (text, m) in enumerate(conn.frames):
        what = f"{conn.label} frame {i} ({m['type']})"
        if m["type"] == "missed":
            for j, ev in enumerate(m["events"]):
                v = m["since"] + 1 + j
                told.add(v)
                t = truth.get(v)
                if t is not None:
                    allowed = card_codes(t.views[conn.seat]) + (t.reveal if t.over else Counter())
                    check_part(f"{what} event {v}", ev, allowed, problems)
                    if not t.over and set(keys_of(ev)) & set(HIDDEN_KEYS):
                        problems.append(f"{what} event {v}: a reveal before the hand is over")
                at = max(at, v)
            continue
        if "version" in m:
            v = m["version"]
        elif m["type"] == "table" or ("table" in m and isinstance(m["table"], dict)):
            v = m["table"]["version"]
        else:
            v = at
        if m["type"] in ("state", "event") and v < at:
            problems.append(f"{what}: version {v} after {at}")
        if m["type"] in ("state", "event"):
            told.add(v)
        at = max(at, v)
        if m["type"] == "error":
            problems.append(f"{what}: unexpected error {m}")
        t = truth.get(v)
        if t is None:  # before the deal: no game, no cards
            if card_codes(m):
                problems.append(f"{what}: cards before the deal: {card_codes(m)}")
            continue
        seat = conn.seat
        legit = t.views[seat]
        allowed = card_codes(legit) + (t.reveal if t.over else Counter())
        view = m.get("view")
        if view is not None:
            check_part(f"{what} view as sent", view, allowed, problems)
            if m["type"] == "event":  # the log's new lines only, and no options
                view = whole_view(shown, view)
            shown = view
            if view != legit:
                diff = sorted(k for k in set(view) | set(legit) if view.get(k) != legit.get(k))
                problems.append(
                    f"{what} at version {v}: the view differs from the seat's in {diff}"
                )
            check_part(f"{what} view", view, allowed, problems)
            if seen_draws(view):
                problems.append(f"{what}: cards drawn by others {seen_draws(view)[:3]}")
        rest = {k: x for k, x in m.items() if k != "view"}
        check_part(f"{what} at version {v}", rest, allowed, problems)
        if not t.over:
            leaked = [k for k in HIDDEN_KEYS if k in set(keys_of(m))]
            if leaked:
                problems.append(f"{what} at version {v}: {leaked} before the hand is over")
            secret = t.secrets + (t.own if seat is None else [])
            if any(s in text for s in secret):
                problems.append(f"{what} at version {v}: holds a hidden hand, stock or deal")
        if seat is None:
            held = [h for h in hand_lists(m) if h]
            if held or (view is not None and view["hidden_pot"]):
                problems.append(f"{what}: a watcher was sent hand cards {held}")
    last = max(told) if final is None else final  # None: a connection closed early
    missing = sorted(set(range(min(told), last + 1)) - told)
    if missing:
        problems.append(f"{conn.label}: never told of versions {missing[:10]}")
    return problems


@dataclass
class Clients:
    """The connections of one table: the seated guest (twice: it reconnects) and two watchers."""

    player: Conn = field(default_factory=lambda: Conn("the seated guest", seat=ME))
    again: Conn = field(default_factory=lambda: Conn("the seated guest, reconnected", seat=ME))
    watcher: Conn = field(default_factory=lambda: Conn("the watching guest", seat=None))
    anonymous: Conn = field(default_factory=lambda: Conn("the anonymous watcher", seat=None))
    acted: int = 0


def play(server: Server, tid: str, ana: Player, bia: Player, c: Clients) -> None:
    """The hand: the guest sits, plays from its view over the socket, drops once; all watch."""
    with ExitStack() as stack:
        ws_watcher = stack.enter_context(server.ws(tid, bia))
        ws_anon = stack.enter_context(server.ws(tid))
        first = stack.enter_context(ExitStack())
        ws = first.enter_context(server.ws(tid, ana))
        for conn, w in ((c.player, ws), (c.watcher, ws_watcher), (c.anonymous, ws_anon)):
            conn.read(w, lambda m: m["type"] == "chat")
        r = server.client.post(f"/api/tables/{tid}/join", json={"seat": ME}, headers=ana.headers)
        assert r.status_code == 200, r.text
        conn = c.player
        while True:
            m = conn.read(ws, lambda m: my_turn(m) or over(m))
            if over(m):
                break
            version = m["version"]
            action = choose(m["view"]["legal"])
            ws.send_text(json.dumps({"type": "action", "version": version, "action": action}))
            c.acted += 1
            if c.acted == 3:  # the watcher asks for what it missed, as after a dropped link
                ws_watcher.send_text(json.dumps({"type": "hello", "since": max(0, version - 4)}))
            if c.acted == 6:  # the player drops and reconnects, asking for what it missed
                conn.read(ws, event_at(version + 1))
                first.close()
                conn = c.again
                ws = stack.enter_context(server.ws(tid, ana, f"?since={version - 3}"))
        c.watcher.read(ws_watcher, over)
        c.anonymous.read(ws_anon, over)


def play_watched_hand(server: Server, preset: str, players: int) -> list[str]:
    """One hand with every kind of client; returns the problems found in their frames."""
    ana, bia = server.guest("Ana"), server.guest("Bia")
    seats: list[dict[str, Any]] = [{"kind": "open"}] + [
        {"kind": "bot", "bot": "greedy"} for _ in range(players - 1)
    ]
    table = server.create(
        ana, seats, preset=preset, players=players, options={"match_hands": 1}, pace=0
    )["table"]
    tid = table["id"]
    c = Clients()
    unfinished = ""
    try:
        play(server, tid, ana, bia, c)
    except TimeoutError:  # still check what was sent: a leak may be why the hand stalled
        unfinished = f"the hand stalled after {c.acted} actions of the guest"
    service = server.client.app.state.service  # type: ignore[attr-defined]
    lt = service.tables[tid]
    events = server.client.portal.call(service.store.events, tid)  # type: ignore[union-attr]
    truth = ground_truth(events, preset, players)
    final = max(truth)
    problems: list[str] = []
    for conn in (c.player, c.again, c.watcher, c.anonymous):
        if conn.frames:
            problems += check_frames(conn, truth, None if unfinished or conn is c.player else final)
    if unfinished:
        return [*problems, unfinished]
    assert lt.game is not None and lt.game.is_over() and final == lt.version
    last = truth[final].views[ME]
    assert last["scores"] is not None and last["winner"] is not None
    # the replayed hands are the server's: the same actions, the guest's among them (a
    # match of one hand that ends level plays on until a side leads, so there may be more)
    actions = [json.loads(e.data) for e in events if e.kind == "action"]
    played = [step for hand in lt.game.record()["hands"] for step in hand["actions"]]
    assert played == [[a["seat"], a["action"]] for a in actions]
    assert sum(a["seat"] == ME and a["by"] == "player" for a in actions) == c.acted >= 6
    # the reveal at the end is the deal that was played
    frames = c.player.frames + c.again.frames
    ends = [m for _, m in frames if m["type"] == "event" and "reveal" in m["event"]]
    deals = [json.loads(e.data) for e in events if e.kind == "deal"]
    assert len(ends) == len(deals) and ends[-1]["version"] == final
    for end, deal in zip(ends, deals, strict=True):
        reveal = end["event"]["reveal"]
        assert (reveal["deck"], reveal["salt"]) == (deal["deck"], deal["salt"])
    assert any(m["type"] == "missed" for _, m in c.again.frames)
    assert any(m["type"] == "missed" for _, m in c.watcher.frames)
    return problems


@pytest.mark.parametrize("preset", sorted(PLAYERS))
def test_no_frame_holds_a_card_its_connection_may_not_know(
    sqlite_server: Server, preset: str
) -> None:
    assert set(PLAYERS) == set(PRESETS)
    problems = play_watched_hand(sqlite_server, preset, PLAYERS[preset])
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:30])
