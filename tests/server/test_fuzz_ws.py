"""Hostile WebSocket clients: hypothesis-generated frames against a table being played.

The scene, on the real app: an ``aberto`` table of four, Ana at seat 0 and Bia
at seat 1 (guests, each with a connection), greedy bots at seats 2 and 3 with
no pace; an anonymous watcher; and Ana's connection at another table whose
match is over. Bia plays until it is Ana's turn; from then on the table waits
for Ana, so its version stays put while the frames below are sent.

Each example sends one frame from one of the four connections: text that is
not JSON, JSON that is not an object, random bytes as a binary frame, frames
over the 4096-byte limit (``protocol.MAX_FRAME``; a multi-byte text whose
characters are fewer but whose bytes are more too), every message kind with a
wrong type, a missing key or an extra key (another seat's number, another
table's id) in turn, unknown kinds, actions in garbage notation, with a stale
or a future version, not at one's turn, from the watcher, at the finished
table, ``ready`` during play, ``hello`` with another protocol, chat with
control characters, blank chat, chat with HTML; and, to mix refused frames
with accepted ones, ``ping``, ``hello`` and printable chat. Binary frames carry
the same messages too (a binary frame is read as UTF-8 text).

What the server must answer is worked out from docs/protocol.md alone (the
engine decides whether a text is notation and whether it is legal, as the
protocol says it does), and for each example the test asserts:

- a refused frame gets one ``error`` frame (``type``, a ``code`` that is the
  documented one, a ``message``; an action's refusal carries the table's
  version, the start of the action, and ``rule`` for ``turn``, ``notation`` and
  ``illegal``), a ``stale`` one is followed by the ``state``; a ``ping`` gets a
  ``pong``, a ``hello`` a ``state``, a printable chat line the line itself as
  text (white space collapsed, nothing escaped) or ``rate``;
- no connection is sent an ``event`` (nothing changed), every connection still
  answers ``ping`` with a ``pong`` at the table's version, and a fresh
  ``state`` for the sender shows the same version and the same view as before;
- an error frame holds no card the connection may not see (its view's, and
  those the sender wrote itself).

After the examples, every frame Ana's connection and the watcher's received
(from the start, through the deal and Bia's turns) is checked by the secrecy
test's own checks (``test_secrecy.check_frames``) against the views replayed
from the table's log; Bia's against her view. ``/healthz`` answers 200 and a
new connection gets its ``state``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from buraco.errors import BuracoError
from buraco.game import Game
from buraco.refusals import english
from buraco.server.protocol import KINDS, MAX_ACTION, MAX_CHAT, MAX_FRAME, PROTOCOL
from buraco.server.routes import COOKIE
from buraco.text import has_control
from server.test_restart import _serve  # the restart test's server, shared
from server.test_secrecy import Conn, card_codes, check_frames, ground_truth, receive
from serverkit import Player, Server, free_port

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

EXAMPLES = 800
"""Frames sent, each followed by the checks above."""

ANA, BIA = 0, 1
"""The guests' seats (seats 2 and 3 are bots)."""

ACTION_REFUSALS = ("stale", "turn", "notation", "illegal", "not-playing", "hand-over")
"""The codes of an action refused by the table, sent with its version and the action."""


@dataclass
class Socket:
    """One connection of the scene and what it may see."""

    name: str
    ws: Any
    seat: int | None
    table: str
    frames: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    """Its ``state`` once the table waits for Ana: the version and view that must stay."""

    def read(self) -> dict[str, Any]:
        text, m = receive(self.ws, timeout=10)
        self.frames.append((text, m))
        return m

    def send(self, frame: str | bytes) -> None:
        if isinstance(frame, bytes):
            self.ws.send_bytes(frame)
        else:
            self.ws.send_text(frame)

    def until(self, kinds: tuple[str, ...]) -> dict[str, Any]:
        for _ in range(10_000):
            m = self.read()
            if m["type"] in kinds:
                return m
        raise AssertionError(f"{self.name}: no {kinds} frame")


@dataclass
class Scene:
    server: Server
    table: str
    over: str
    sockets: dict[str, Socket]
    version: int
    over_version: int
    game: Game
    """The live table's game, asked whether a text is notation and legal (it is not changed)."""


def play_bia_until_anas_turn(bia: Socket) -> dict[str, Any]:
    """Bia plays her first legal action at her turns until it is Ana's turn; returns that frame."""
    acted = -1
    while True:
        m = bia.until(("state", "event"))
        view = m.get("view")
        if view is None:
            continue
        if view["turn"] == ANA and view["phase"] == "draw":
            return m
        if view["legal"] and m["version"] > acted:
            acted = m["version"]
            action = view["legal"][0]
            bia.send(json.dumps({"type": "action", "version": acted, "action": action}))


def finished_table(server: Server, ana: Player) -> str:
    """A one-hand match of Ana against a bot, played to its end over the socket."""
    made = server.create(
        ana,
        [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}],
        players=2,
        options={"match_hands": 1},
    )
    table: str = made["table"]["id"]
    with server.ws(table, ana) as ws:
        acted = -1
        while True:
            _, m = receive(ws)
            if m["type"] == "table" and m["table"]["status"] == "over":
                return table
            view = m.get("view") if m["type"] in ("state", "event") else None
            if view and view["legal"] and m["version"] > acted:
                acted = m["version"]
                message = {"type": "action", "version": acted, "action": view["legal"][0]}
                ws.send_text(json.dumps(message))


@pytest.fixture
def scene(sqlite_server: Server) -> Iterator[Scene]:
    server = sqlite_server
    ana, bia = server.guest("Ana"), server.guest("Bia")
    over = finished_table(server, ana)
    seats = [{"kind": "me"}, {"kind": "open"}] + [{"kind": "bot", "bot": "greedy"}] * 2
    table = server.create(ana, seats, options={"match_hands": 1}, pace=0)["table"]["id"]
    with ExitStack() as stack:
        sockets = {
            "ana": Socket("ana", stack.enter_context(server.ws(table, ana)), ANA, table),
            "watcher": Socket("watcher", stack.enter_context(server.ws(table)), None, table),
            "bia": Socket("bia", stack.enter_context(server.ws(table, bia)), BIA, table),
            "over": Socket("over", stack.enter_context(server.ws(over, ana)), ANA, over),
        }
        for s in sockets.values():
            s.until(("chat",))
        r = server.client.post(f"/api/tables/{table}/join", json={"seat": BIA}, headers=bia.headers)
        assert r.status_code == 200, r.text
        version = play_bia_until_anas_turn(sockets["bia"])["version"]
        for s in sockets.values():
            s.send(json.dumps({"type": "hello"}))
            s.state = s.until(("state",))
        assert sockets["ana"].state["version"] == version
        assert sockets["ana"].state["view"]["legal"], "Ana's turn"
        service = server.client.app.state.service  # type: ignore[attr-defined]
        game = service.tables[table].game
        assert game is not None and game.turn == ANA
        yield Scene(
            server,
            table,
            over,
            sockets,
            version,
            sockets["over"].state["version"],
            game,
        )


# ----- frames --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Probe:
    """One frame to send, from one connection; ``message``: the message it is, if it is one."""

    who: str
    frame: str | bytes
    message: dict[str, Any] | None

    def __repr__(self) -> str:
        frame = repr(self.frame)
        if len(frame) > 240:
            frame = frame[:200] + " ... " + frame[-20:]
        return f"Probe({self.who!r}, {frame}, {len(self.frame)} long)"


JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)
)
JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
NOT_INT = st.one_of(
    st.text(max_size=10),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer()),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
NOT_STR = st.one_of(
    st.integers(), st.booleans(), st.floats(allow_nan=False), st.none(), st.lists(st.text())
)
WORDS = [
    "draw", "take-pile", "turn-up", "meld", "add", "move", "discard", "low", "high",
    "wild-low", "wild-high", "JK", "AS", "10H", "TD", "2C", "ZZ", "99", "0", "-1", "²",
    "7h", "<b>", "\x00", "\u202e", "  ",
]  # fmt: skip
NOTATION = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
ACTION_TEXT = st.one_of(NOTATION, st.text(min_size=1, max_size=MAX_ACTION))
CONTROL = st.sampled_from(["\x00", "\x07", "\x1b[2J", "\x7f", "\x9b", "\u202e", "\u2066"])
CHAT_TEXT = st.one_of(
    st.text(min_size=1, max_size=MAX_CHAT),
    st.sampled_from(
        [
            "<script>alert(1)</script>",
            '<img src=x onerror="alert(1)">',
            "&lt;b&gt; &amp; 7H",
            "hi\n\tthere",
            "   ",
            "\u2028",
            "a\u2029b",
        ]
    ),
    st.tuples(st.text(max_size=100), CONTROL, st.text(max_size=100)).map("".join),
)


def plausible_actions(scene: Scene) -> st.SearchStrategy[str]:
    """Actions in good notation with Ana's own cards (and some others), mostly illegal now."""
    view = scene.sockets["ana"].state["view"]
    cards = st.sampled_from([*view["hand"], *view["pile"], "7H", "JK", "AS", "2C", "TD"])
    verbs = st.sampled_from(["meld", "discard", "add 1", "add 2", "move 1", "take-pile", "draw"])
    places = st.sampled_from(["", " low", " high", " wild-low", " wild-high"])
    return st.tuples(verbs, st.lists(cards, max_size=5), places).map(
        lambda t: " ".join([t[0], *t[1]]) + t[2]
    )


def scene_versions(scene: Scene) -> st.SearchStrategy[int]:
    """Table versions: the current one, a near one, or any whole number up to 2**70."""
    return st.one_of(
        st.just(scene.version),
        st.integers(max(0, scene.version - 3), scene.version + 3),
        st.integers(0, 2**70),
    )


def valid_messages(scene: Scene) -> st.SearchStrategy[dict[str, Any]]:
    """Messages of the protocol, each well formed (refused or not by the table)."""
    hello = st.fixed_dictionaries(
        {"type": st.just("hello")},
        optional={
            "protocol": st.one_of(st.just(PROTOCOL), st.integers(-3, 2**40)),
            "since": st.one_of(st.none(), st.integers(0, scene.version + 5), st.integers(0)),
        },
    )
    action = st.fixed_dictionaries(
        {
            "type": st.just("action"),
            "version": scene_versions(scene),
            "action": st.one_of(ACTION_TEXT, st.sampled_from(["draw", "take-pile", "turn-up"])),
        }
    )
    chat = st.fixed_dictionaries({"type": st.just("chat"), "text": CHAT_TEXT})
    plain = st.sampled_from([{"type": "ready"}, {"type": "ping"}])
    return st.one_of(action, action, chat, hello, plain)


FIELDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    # per kind, each key with values of a wrong type (or out of bounds) for it
    "hello": {
        "protocol": st.one_of(NOT_INT, st.none()),
        "since": st.one_of(NOT_INT, st.integers(max_value=-1)),
    },
    "action": {
        "version": st.one_of(NOT_INT, st.none(), st.integers(max_value=-1)),
        "action": st.one_of(NOT_STR, st.just(""), st.just("x" * (MAX_ACTION + 1))),
    },
    "chat": {"text": st.one_of(NOT_STR, st.just(""), st.just("y" * (MAX_CHAT + 1)))},
    "ready": {},
    "ping": {},
}  # fmt: skip
REQUIRED = {"action": ("version", "action"), "chat": ("text",)}


@st.composite
def malformed_messages(draw: st.DrawFn, scene: Scene) -> dict[str, Any]:
    """A message of the protocol with one thing wrong: a type, a key missing, a key too many."""
    base = dict(draw(valid_messages(scene)))
    kind = base["type"]
    how = draw(st.sampled_from(["type", "missing", "extra", "kind"]))
    wrong = FIELDS[kind]
    if how == "type" and wrong:
        key = draw(st.sampled_from(sorted(wrong)))
        base[key] = draw(wrong[key])
    elif how == "missing" and kind in REQUIRED:
        del base[draw(st.sampled_from(REQUIRED[kind] + ("type",)))]
    elif how == "kind":
        base["type"] = draw(
            st.one_of(st.text(max_size=10), NOT_STR).filter(lambda t: t not in KINDS)
        )
    else:  # another seat's or table's ids, or anything else
        key = draw(st.sampled_from(["seat", "table", "guest", "id", "by", "Type", "since "]))
        known = {"hello": ("protocol", "since")}.get(kind, ())
        assume(key not in known)
        value = st.sampled_from([2, 3, BIA, scene.over, scene.table, "Bia", None])
        base[key] = draw(st.one_of(value, JSON))
    return base


@st.composite
def probes(draw: st.DrawFn, scene: Scene) -> Probe:
    who = draw(st.sampled_from(sorted(scene.sockets)))
    shapes = ["play", "play", "valid", "valid", "malformed", "malformed"]
    shape = draw(st.sampled_from([*shapes, "json", "text", "bytes", "huge"]))
    message: dict[str, Any] | None = None
    if shape == "play":  # an action at the table's version: the engine reads it
        who = draw(st.sampled_from(["ana", "ana", "bia"]))
        action = draw(st.one_of(ACTION_TEXT, plausible_actions(scene)))
        message = {"type": "action", "version": scene.version, "action": action}
        text = json.dumps(message, ensure_ascii=draw(st.booleans()))
    elif shape == "valid":
        message = draw(valid_messages(scene))
        text = json.dumps(message, ensure_ascii=draw(st.booleans()))
    elif shape == "malformed":
        text = json.dumps(draw(malformed_messages(scene)))
    elif shape == "json":  # JSON, but not an object
        text = json.dumps(draw(JSON.filter(lambda v: not isinstance(v, dict))))
    elif shape == "text":  # not JSON at all
        text = draw(st.text(max_size=200).filter(lambda t: not _is_json(t)))
    elif shape == "bytes":
        return Probe(who, draw(st.binary(max_size=MAX_FRAME)), None)
    else:  # over the frame's limit in bytes (some with fewer characters than bytes)
        char = draw(st.sampled_from(["9", "é", "€", "\U0001d11e"]))
        size = len(char.encode())
        count = draw(st.integers(MAX_FRAME // size + 1, 70_000 // size))
        message = {"type": "action", "version": scene.version, "action": "meld " + char * count}
        text = json.dumps(message, ensure_ascii=False)
    if draw(st.integers(0, 4)) == 0:  # a binary frame: read as UTF-8 text
        return Probe(who, text.encode(), message)
    return Probe(who, text, message)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


# ----- what the protocol says the answer is --------------------------------------------------
@dataclass(frozen=True)
class Expect:
    """The answer to a frame: an error with one of ``codes``, or ``pong``, ``state``, ``chat``."""

    codes: frozenset[str] = frozenset()
    reply: str = "error"
    chat: str = ""
    message: str = ""
    """The engine's own words for a text that is not notation or not legal (sent as they are)."""


def expected(scene: Scene, probe: Probe) -> Expect:
    """The documented answer to a probe (docs/protocol.md); assumes away a legal action."""
    frame, message = probe.frame, probe.message
    if isinstance(frame, bytes):
        text = frame.decode("utf-8", "replace")
        # the frame is read as text: its bytes, or the text's if replacing made it longer
        size = max(len(frame), len(text.encode()))
        if text != frame.decode("utf-8", "ignore"):
            message = None  # not UTF-8: not a message (unless too large)
    else:
        size = len(frame.encode())
    if size > MAX_FRAME:
        return Expect(frozenset({"too-large"}))
    if message is None:
        return Expect(frozenset({"message"}))
    socket = scene.sockets[probe.who]
    kind = message["type"]
    if kind == "ping":
        return Expect(reply="pong")
    if kind == "hello":
        if message.get("protocol", PROTOCOL) != PROTOCOL:
            return Expect(frozenset({"protocol"}))
        return Expect(reply="state")
    if kind == "chat":
        if probe.who == "watcher":
            return Expect(frozenset({"guest"}))
        line = " ".join(message["text"].split())
        if not line or has_control(line):
            return Expect(frozenset({"chat"}))
        return Expect(frozenset({"rate"}), reply="chat", chat=line)
    if socket.seat is None:
        return Expect(frozenset({"spectator"}))
    if kind == "ready":
        return Expect(frozenset({"not-over"}))
    if socket.table == scene.over:
        return Expect(frozenset({"not-playing"}))
    if message["version"] != scene.version:
        return Expect(frozenset({"stale"}))
    if socket.seat != scene.game.turn:
        return Expect(frozenset({"turn"}))
    try:
        action = scene.game.parse(message["action"])
    except BuracoError as exc:
        return Expect(frozenset({"notation"}), message=str(exc))
    except Exception:  # not notation either: the server must say so, not fall over
        return Expect(frozenset({"notation"}))
    assume(not scene.game.is_legal(action))  # a legal action would rightly change the table
    return Expect(frozenset({"illegal"}), message=scene.game.explain(action)[0])


# ----- the test ------------------------------------------------------------------------------
def check_answer(scene: Scene, probe: Probe, expect: Expect) -> None:
    """The sender's answer, then every connection's liveness and the sender's unchanged state."""
    socket = scene.sockets[probe.who]
    version = scene.over_version if socket.table == scene.over else scene.version
    sent = probe.frame.decode("utf-8", "replace") if isinstance(probe.frame, bytes) else probe.frame
    kinds = ("error", "pong", "state", "chat", "event")
    m = socket.until(kinds)
    while m["type"] == "chat" and "lines" in m:  # not an answer: a line someone said before
        m = socket.until(kinds)
    assert m["type"] != "event", f"{probe}: the table changed: {m['event']}"
    if m["type"] == "error" or expect.reply == "error":
        assert m["type"] == "error", f"{probe}: {m['type']}, not an error"
        assert m["code"] in expect.codes, f"{probe}: {m['code']}, not {sorted(expect.codes)}: {m}"
        assert isinstance(m["message"], str) and m["message"], m
        if m["code"] in ACTION_REFUSALS:
            assert m["version"] == version and probe.message is not None, m
            assert m["action"] == probe.message["action"][:100], m
        if m["code"] in ("turn", "notation"):
            assert m["rule"] == m["code"], m
        if m["code"] in ("illegal", "notation"):
            # the refusal as data, worded by the engine in English for the message
            assert isinstance(m["rule"], str) and m["rule"], m
            why = m["refusal"]
            assert set(why) == {"code", "params"} and why["code"].partition(".")[0] == m["rule"]
            assert english(why["code"], why["params"]) == m["message"], m
        if m["code"] == "stale":
            state = socket.until(("state",))
            assert (state["version"], state["view"]) == (version, socket.state["view"])
        if expect.message:
            assert m["message"] == expect.message, m
        # the cards of its view, and those its sender wrote (as sent, and as decoded)
        allowed = card_codes(socket.state["view"]) + card_codes(sent) + card_codes(probe.message)
        if m["code"] == "notation":  # about the text alone, with examples ('meld 3H 4H 5H')
            allowed += card_codes(m["message"]) + card_codes(m["refusal"]) + card_codes(m["params"])
        leaked = card_codes(m) - allowed
        assert not leaked, f"{probe}: an error with cards {sorted(leaked)} it may not see: {m}"
    elif expect.reply == "pong":
        assert m == {"type": "pong", "version": version}, m
    elif expect.reply == "state":
        assert m["type"] == "state", m
        assert (m["version"], m["view"]) == (version, socket.state["view"])
    else:
        assert m["type"] == "chat", m
        assert m["line"]["text"] == expect.chat and m["line"]["seat"] == socket.seat, m
    # nothing changed, for anyone: each connection answers a ping at the same version
    for other in scene.sockets.values():
        other.send('{"type": "ping"}')
        at = scene.over_version if other.table == scene.over else scene.version
        while (got := other.until(("pong", "event")))["type"] != "pong":
            raise AssertionError(f"{probe}: {other.name} was sent an event: {got}")
        assert got["version"] == at, f"{probe}: {other.name} at {got['version']}, not {at}"
    socket.send('{"type": "hello"}')
    state = socket.until(("state",))
    assert (state["version"], state["view"]) == (version, socket.state["view"]), probe


def test_hostile_frames_are_refused_and_change_nothing(scene: Scene) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(probe=probes(scene))
    def send(probe: Probe) -> None:
        expect = expected(scene, probe)
        scene.sockets[probe.who].send(probe.frame)
        check_answer(scene, probe, expect)

    send()

    # every frame the seated guest and the watcher were sent, against the replayed log
    service = scene.server.client.app.state.service  # type: ignore[attr-defined]
    events = scene.server.client.portal.call(service.store.events, scene.table)  # type: ignore[union-attr]
    truth = ground_truth(events, "aberto", 4)
    assert max(truth) == scene.version
    problems: list[str] = []
    for name, seat in (("ana", ANA), ("watcher", None)):
        conn = Conn(name, seat)
        conn.frames = [
            (text, m)
            for text, m in scene.sockets[name].frames
            if m["type"] not in ("error", "chat")  # checked above / the guests' own text
        ]
        problems += check_frames(conn, truth, None)
    assert not problems, "\n".join(problems[:20])
    bia = scene.sockets["bia"]
    start = next(i for i, (_, m) in enumerate(bia.frames) if m is bia.state)
    for _, m in bia.frames[start:]:
        if m["type"] not in ("error", "chat"):
            assert not card_codes(m) - card_codes(bia.state["view"]), m
    # the server is up: health, and a new connection gets its state
    assert scene.server.client.get("/healthz").status_code == 200
    with scene.server.ws(scene.table) as ws:
        _, m = receive(ws)
        assert m["type"] == "state" and m["version"] == scene.version
    assert Counter(m["type"] for _, m in scene.sockets["ana"].frames)["event"] >= 1


WS_MAX_SIZE = 16 * 1024
"""The largest frame ``buraco serve``'s WebSocket layer (uvicorn) takes: past it, it closes."""


def test_a_real_server_refuses_huge_frames_and_stays_up(tmp_path: Path) -> None:
    """Over 4096 bytes a frame gets ``too-large`` and the connection stays; over 16 KiB
    ``buraco serve`` closes the connection (1009, message too big); either way a new
    connection plays on and the server answers ``/healthz``."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with _serve(tmp_path, port):
        r = httpx.post(f"{base}/api/guests", json={"name": "Ana"})
        cookie = {"cookie": f"{COOKIE}={r.cookies[COOKIE]}"}
        body = {"preset": "aberto", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}
        table = httpx.post(f"{base}/api/tables", json=body, headers=cookie).json()["table"]["id"]
        url = f"{ws_base}/ws/tables/{table}"

        def pong(ws: Any) -> None:
            ws.send('{"type": "ping"}')
            while (m := json.loads(ws.recv(timeout=10)))["type"] != "pong":
                assert m["type"] in ("state", "chat", "table"), m
            assert m["version"] == 0

        sizes = st.one_of(
            st.integers(MAX_FRAME + 1, 3 * WS_MAX_SIZE),
            st.sampled_from([MAX_FRAME + 1, WS_MAX_SIZE, WS_MAX_SIZE + 1]),
        )

        @settings(max_examples=12, deadline=None, database=None)
        @given(size=sizes, binary=st.booleans())
        def huge(size: int, binary: bool) -> None:
            frame = json.dumps({"type": "chat", "text": ""})
            frame = frame[:-2] + "x" * (size - len(frame)) + frame[-2:]
            assert len(frame.encode()) == size
            with connect(url, additional_headers=cookie) as ws:
                pong(ws)
                ws.send(frame.encode() if binary else frame)
                if size <= WS_MAX_SIZE:
                    m = json.loads(ws.recv(timeout=10))
                    assert m["type"] == "error" and m["code"] == "too-large", m
                    pong(ws)  # the same connection goes on
                else:
                    with pytest.raises(ConnectionClosed) as closed:
                        ws.recv(timeout=10)
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            with connect(url, additional_headers=cookie) as ws:
                pong(ws)
            assert httpx.get(f"{base}/healthz").status_code == 200

        huge()
