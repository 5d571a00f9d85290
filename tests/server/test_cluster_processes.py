"""Real ``buraco serve`` processes over one PostgreSQL database and Redis, under faults.

- The process that drives a table is killed with SIGKILL mid-game, again and again,
  with players connected to it and to another process: they reconnect to whichever
  process is up, and the table goes on from its last committed action. Every event a
  client was shown is in the database's log at its version, and the log replays.
- PostgreSQL is restarted under load (only with ``BURACO_PG_RESTART=1``: it stops the
  machine's database server for a few seconds): requests fail cleanly, and the
  processes recover without a restart.
- A client that never answers the WebSocket's pings is disconnected.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("redis", reason="the server extra is not installed")

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect

from buraco.server.crashpoints import CRASH_ENV, POINTS
from buraco.server.protocol import PROTOCOL
from buraco.server.routes import COOKIE
from buraco.server.store import Store
from buraco.server.tables import LiveTable
from serverkit import free_port, start_serve


@dataclass
class Proc:
    """One ``buraco serve`` process of the site."""

    port: int
    args: list[str]
    env: dict[str, str]
    popen: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.popen = start_serve(self.port, self.args, self.env)

    def kill(self) -> None:
        assert self.popen is not None
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(10)

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(15)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()


@pytest.fixture
def site(fresh_pg: str, redis_url: str) -> Iterator[tuple[str, list[Proc]]]:
    """Two processes of one site, each on its own port (as behind a proxy)."""
    env = {**os.environ, "BURACO_WS_PING": "5"}
    args = [
        "--db",
        fresh_pg,
        "--bus",
        redis_url,
        "--lease",
        "1.5",
        "--hand-pause",
        "0",
        "--bot-workers",
        "0",
    ]
    procs = [Proc(free_port(), args, env), Proc(free_port(), args, env)]
    try:
        for p in procs:
            p.start()
        yield fresh_pg, procs
    finally:
        for p in procs:
            p.stop()


def _guest(base: str, name: str) -> dict[str, str]:
    r = httpx.post(f"{base}/api/guests", json={"name": name})
    assert r.status_code == 200, r.text
    return {"cookie": f"{COOKIE}={r.cookies[COOKIE]}"}


@dataclass
class Seen:
    """Every event frame the clients were shown, by version (they must all agree)."""

    events: dict[int, dict[str, Any]] = field(default_factory=dict)
    actions_sent: int = 0
    reconnects: int = 0
    at: dict[int, int] = field(default_factory=dict)
    """Each client's process now (by its index), while it is connected."""
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def event(self, version: int, event: dict[str, Any]) -> None:
        with self.lock:
            known = self.events.setdefault(version, event)
            if known != event:
                self.problems.append(f"version {version} shown as {known} and as {event}")

    def top(self) -> int:
        with self.lock:
            return max(self.events, default=0)


def _player(
    procs: list[Proc], first: int, table: str, headers: dict[str, str], seen: Seen, stop: Any
) -> None:
    """A client playing random legal actions, reconnecting to any process that is up.

    Like a proxy that prefers one process per client, it goes back to its own process
    (``first``) once that is up again, so the players are spread over both.
    """
    rng = random.Random(first)
    since: int | None = None
    at = first
    while not stop.is_set():
        url = f"ws://127.0.0.1:{procs[at].port}/ws/tables/{table}"
        try:
            with connect(
                url + (f"?since={since}" if since is not None else ""),
                additional_headers=headers,
                open_timeout=2,
            ) as ws:
                seen.at[first] = at
                opened = time.monotonic()
                while not stop.is_set():
                    if at != first and time.monotonic() - opened > 1.5 and _up(procs[first]):
                        break  # home again

                    try:
                        m = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    if m["type"] == "event":
                        seen.event(m["version"], m["event"])
                    if m["type"] not in ("state", "event"):
                        continue
                    since = m["version"]
                    view = m.get("view")
                    if m.get("table", {}).get("status") == "over":
                        return
                    if view and view["legal"]:
                        time.sleep(0.06)  # within the 20 messages a second a connection may send
                        action = rng.choice(view["legal"])
                        ws.send(json.dumps({"type": "action", "version": since, "action": action}))
                        seen.actions_sent += 1
                    elif view and view.get("hand_over"):
                        ws.send(json.dumps({"type": "ready"}))
        except (OSError, WebSocketException, TimeoutError):
            pass
        seen.at.pop(first, None)
        seen.reconnects += 1
        at = first if at != first and _up(procs[first]) else (at + 1) % len(procs)
        time.sleep(0.05)


def _up(proc: Proc) -> bool:
    try:
        return httpx.get(f"{proc.base}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def _owner(db: str, table: str) -> str | None:
    async def read() -> str | None:
        store = await Store.open(db)
        try:
            from sqlalchemy import select

            from buraco.server.models import Lease

            async with store.session() as s:
                owner: str | None = (
                    await s.execute(select(Lease.owner).where(Lease.table_id == table))
                ).scalar_one_or_none()
                return owner
        finally:
            await store.close()

    return asyncio.run(read())


def _check_log(db: str, table: str, seen: Seen) -> int:
    """The log is whole (versions 1..n), replays under the rules, and holds what was shown."""

    async def read() -> int:
        store = await Store.open(db)
        try:
            data = await store.table(table)
            assert data is not None
            events = await store.events(table)
            assert [e.version for e in events] == list(range(1, len(events) + 1))
            lt = LiveTable.from_data(data)
            lt.load(events)  # every action checked again by the engine
            stored = {e.version: e for e in events}
            for version, shown in seen.events.items():
                entry = stored[version]  # nothing a client was shown is missing
                data_ = json.loads(entry.data)
                assert entry.kind == shown["kind"]
                if entry.kind == "action":
                    assert (data_["seat"], data_["action"]) == (shown["seat"], shown["action"])
            return len(events)
        finally:
            await store.close()

    return asyncio.run(read())


def _ratings(db: str, table: str, guest_id: str) -> tuple[str, int, int, int]:
    """A table's status, its stored games, and a player's rated games and rating changes."""

    async def read() -> tuple[str, int, int, int]:
        from sqlalchemy import func, select

        from buraco.server.models import GameRow, RatingChange, RatingRow, TableRow

        store = await Store.open(db)
        try:
            async with store.session() as s:
                status = (
                    await s.execute(select(TableRow.status).where(TableRow.id == table))
                ).scalar_one()
                games = (
                    await s.execute(
                        select(func.count()).select_from(GameRow).where(GameRow.table_id == table)
                    )
                ).scalar_one()
                rated = (
                    await s.execute(select(RatingRow.games).where(RatingRow.guest_id == guest_id))
                ).scalar_one_or_none()
                changes = (
                    await s.execute(
                        select(func.count())
                        .select_from(RatingChange)
                        .where(RatingChange.guest_id == guest_id)
                    )
                ).scalar_one()
                return str(status), int(games), int(rated or 0), int(changes)
        finally:
            await store.close()

    return asyncio.run(read())


@pytest.mark.parametrize("point", POINTS)
def test_a_process_killed_at_a_rated_matchs_end_leaves_it_rated_exactly_once(
    fresh_pg: str, redis_url: str, point: str
) -> None:
    # the "a test kills a process between a match's end and its rating update":
    # the process driving a rated match kills itself (SIGKILL) right after the last action
    # is committed ("finish": the game, the table's end and the ratings not yet) or right
    # after the end is committed ("finished": no one told); the other process takes the
    # table up when the lease runs out, and the match is stored and rated once
    args = ["--db", fresh_pg, "--bus", redis_url, "--lease", "1.5", "--bot-workers", "0"]
    # a guest's match of one hand, rated however short (the rules of rated play are
    # test_ratings'; this is about its end being rated once)
    args += ["--rated-guests", "--rated-min-turns", "0"]
    env = {**os.environ, "BURACO_WS_PING": "5"}
    a = Proc(free_port(), args, {**env, CRASH_ENV: point})
    b = Proc(free_port(), args, env)
    stop = threading.Event()
    try:
        a.start()
        b.start()
        ana = _guest(a.base, "Ana")
        me = httpx.get(f"{a.base}/api/me", headers=ana).json()["id"]
        body = {
            "preset": "aberto",
            "players": 2,
            "options": {"match_hands": 1},
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}],
            "pace": 0,
            "rated": True,
        }
        r = httpx.post(f"{a.base}/api/tables", json=body, headers=ana)
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
        seen = Seen()
        player = threading.Thread(
            target=_player, args=([a, b], 0, table, ana, seen, stop), daemon=True
        )
        player.start()
        assert a.popen is not None
        a.popen.wait(120)  # A reached the crash point at the match's end, and died there
        assert a.popen.returncode == -signal.SIGKILL
        deadline = time.monotonic() + 30
        while _ratings(fresh_pg, table, me)[0] != "over" and time.monotonic() < deadline:
            time.sleep(0.2)
        a.popen = None
        a.env = env
        a.start()  # and A comes back, as a supervisor would restart it
        player.join(30)
        time.sleep(2)  # a round of leases at both processes: neither finishes it again
        assert _ratings(fresh_pg, table, me) == ("over", 1, 1, 1)
        board = httpx.get(f"{b.base}/api/ratings?preset=aberto&players=2").json()
        assert [row["id"] for row in board["rows"]] == [me]
        assert board["rows"][0]["games"] == 1
    finally:
        stop.set()
        a.stop()
        b.stop()


def test_killing_the_process_that_drives_a_table_again_and_again_loses_nothing(
    site: tuple[str, list[Proc]],
) -> None:
    db, procs = site
    a, b = procs
    ana, bea = _guest(a.base, "Ana"), _guest(b.base, "Bea")
    seats = [{"kind": "me"}, {"kind": "open"}] + [{"kind": "bot", "bot": "greedy"}] * 2
    body = {"preset": "aberto", "players": 4, "seats": seats, "pace": 0.02}
    r = httpx.post(f"{a.base}/api/tables", json=body, headers=ana)
    assert r.status_code == 201, r.text
    table = r.json()["table"]["id"]
    assert httpx.post(f"{b.base}/api/tables/{table}/join", json={"seat": 1}, headers=bea).is_success
    seen, stop = Seen(), threading.Event()
    players = [
        threading.Thread(target=_player, args=(procs, 0, table, ana, seen, stop), daemon=True),
        threading.Thread(target=_player, args=(procs, 1, table, bea, seen, stop), daemon=True),
    ]
    for t in players:
        t.start()
    kills, hit = 0, 0
    try:
        for _ in range(4):
            before = seen.top()
            deadline = time.monotonic() + 30
            while seen.top() < before + 15 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert seen.top() >= before + 15, f"no progress after kill {kills}: {seen.top()}"
            owner = _owner(db, table)
            assert owner is not None
            pid = int(owner.split(":")[1])
            victim = next(p for p in procs if p.popen is not None and p.popen.pid == pid)
            deadline = time.monotonic() + 10
            while len(set(seen.at.values())) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)  # a player at each process
            hit += procs.index(victim) in seen.at.values()
            victim.kill()  # mid-game, with one player connected to it and one to the other
            kills += 1
            victim.start()
        before = seen.top()
        deadline = time.monotonic() + 30
        while seen.top() < before + 15 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen.top() >= before + 15, "no progress after the last kill"
    finally:
        stop.set()
        for t in players:
            t.join(10)
    assert not seen.problems, seen.problems
    assert kills == 4 and hit == 4 and seen.reconnects >= 4
    total = _check_log(db, table, seen)
    assert total >= seen.top() and seen.actions_sent > 0


def _pg_cluster() -> list[str]:
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    return ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main"]


@pytest.mark.skipif(
    os.environ.get("BURACO_PG_RESTART") != "1",
    reason="stops the machine's PostgreSQL for a few seconds: set BURACO_PG_RESTART=1",
)
def test_a_postgresql_restart_under_load_fails_requests_cleanly_and_is_recovered_from(
    site: tuple[str, list[Proc]],
) -> None:
    _db, procs = site
    a, b = procs
    ana = _guest(a.base, "Ana")
    bot = {"kind": "bot", "bot": "greedy"}
    tables = []
    for first in ({"kind": "me"}, bot, bot):  # Ana's table, and the load: two of bots
        r = httpx.post(
            f"{a.base}/api/tables",
            json={"preset": "aberto", "players": 4, "seats": [first, bot, bot, bot], "pace": 0},
            headers=ana,
        )
        assert r.status_code == 201, r.text
        tables.append(r.json()["table"]["id"])
    table = tables[0]
    with connect(f"ws://127.0.0.1:{b.port}/ws/tables/{table}", additional_headers=ana) as ws:
        state = _my_turn(ws)
        subprocess.run([*_pg_cluster(), "stop", "-m", "fast"], check=True, timeout=60)
        try:
            for p in procs:
                # what needs the database says so, with the one error shape, and no 500
                health = httpx.get(f"{p.base}/healthz", timeout=10)
                assert health.status_code == 503
                r = httpx.post(f"{p.base}/api/guests", json={"name": "Cid"}, timeout=30)
                assert r.status_code == 503, r.text
                assert r.json()["error"]["code"] == "unavailable"
                r = httpx.get(f"{p.base}/api/games", timeout=30)
                assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
            action = state["view"]["legal"][0]
            ws.send(json.dumps({"type": "action", "version": state["version"], "action": action}))
            while True:
                m = json.loads(ws.recv(timeout=30))
                assert m["type"] != "event", "an action was applied without being committed"
                if m["type"] == "error":
                    break
            assert m["code"] == "unavailable" and m["version"] == state["version"]
        finally:
            subprocess.run([*_pg_cluster(), "start"], check=True, timeout=60)
        # back without a restart of either process: health, then play
        for p in procs:
            deadline = time.monotonic() + 30
            while httpx.get(f"{p.base}/healthz", timeout=10).status_code != 200:
                assert time.monotonic() < deadline, "a process did not recover"
                time.sleep(0.2)
            assert p.popen is not None and p.popen.poll() is None
        ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL}))
        state = _my_turn(ws)
        action = state["view"]["legal"][0]
        ws.send(json.dumps({"type": "action", "version": state["version"], "action": action}))
        while True:
            m = json.loads(ws.recv(timeout=30))
            assert m["type"] != "error", m
            if m["type"] == "event" and m["version"] == state["version"] + 1:
                break
        assert m["event"]["action"] == action
    # the bots' tables go on too (a table whose lease ran out in the outage is taken up again
    # within the lease's time)
    versions = [httpx.get(f"{a.base}/api/tables/{t}").json()["table"]["version"] for t in tables]
    deadline = time.monotonic() + 20
    while True:
        time.sleep(1)
        now = [httpx.get(f"{b.base}/api/tables/{t}").json()["table"] for t in tables]
        later = [x["version"] for x in now]
        moved = [
            x["status"] == "over" or y > v for x, y, v in zip(now, later, versions, strict=True)
        ]
        if all(moved[1:]):  # each bot table played on (or finished its match)
            break
        assert time.monotonic() < deadline, (versions, later)


def _my_turn(ws: Any) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if m["type"] in ("state", "event") and m.get("view") and m["view"]["legal"]:
            return m


def test_a_client_that_never_answers_pings_is_disconnected(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "BURACO_WS_PING": "0.5"}
    p = Proc(port, ["--data", str(tmp_path)], env)
    p.start()
    try:
        headers = _guest(p.base, "Ana")
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
        r = httpx.post(
            f"{p.base}/api/tables",
            json={"preset": "aberto", "players": 2, "seats": seats},
            headers=headers,
        )
        table = r.json()["table"]["id"]
        # a WebSocket opened by hand, whose pings are never answered
        key = base64.b64encode(os.urandom(16)).decode()
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(
            (
                f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Cookie: {headers['cookie']}\r\n\r\n"
            ).encode()
        )
        sock.settimeout(10)
        opened = time.monotonic()
        got = b""
        while True:
            chunk = sock.recv(65536)  # frames read, pings never answered
            if not chunk:
                break
            got += chunk
        closed_after = time.monotonic() - opened
        sock.close()
        assert got.startswith(b"HTTP/1.1 101")
        assert b"\x89" in got  # a ping frame was sent (opcode 9, final)
        assert closed_after < 5, closed_after  # ping every 0.5 s, 0.5 s to answer
    finally:
        p.stop()


def _account(base: str, path: str, name: str, password: str) -> dict[str, str]:
    r = httpx.post(f"{base}/api/account/{path}", json={"name": name, "password": password})
    assert r.status_code in (200, 201), r.text
    return {"cookie": f"{COOKIE}={r.cookies[COOKIE]}"}


def _closed_within(ws: Any, seconds: float) -> tuple[int | None, float]:
    """Read a socket until it is closed: its close code and how long it took."""
    start = time.monotonic()
    try:
        while time.monotonic() - start < seconds:
            with contextlib.suppress(TimeoutError):
                ws.recv(timeout=0.2)
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), time.monotonic() - start
    return None, time.monotonic() - start


@pytest.fixture
def slow_site(fresh_pg: str, redis_url: str) -> Iterator[tuple[str, list[Proc]]]:
    """Two processes whose regular check comes only every 7.5 s (a lease of 30 s)."""
    args = ["--db", fresh_pg, "--bus", redis_url, "--lease", "30", "--bot-workers", "0"]
    procs = [Proc(free_port(), args, dict(os.environ)) for _ in range(2)]
    try:
        for p in procs:
            p.start()
        yield fresh_pg, procs
    finally:
        for p in procs:
            p.stop()


def test_a_session_ended_at_one_process_closes_its_socket_at_the_other(
    slow_site: tuple[str, list[Proc]],
) -> None:
    db, (p1, p2) = slow_site
    name, password = f"Two {random.randrange(10**6)}", "a long password"
    s1 = _account(p1.base, "register", name, password)
    s2 = _account(p2.base, "signin", name, password)
    seats = [{"kind": "me"}, {"kind": "open"}]
    body = {"preset": "aberto", "players": 2, "seats": seats}
    r = httpx.post(f"{p1.base}/api/tables", json=body, headers=s1)
    table = r.json()["table"]["id"]
    url = f"ws://127.0.0.1:{p2.port}/ws/tables/{table}"
    with connect(url, additional_headers=s2, open_timeout=5) as ws:
        assert json.loads(ws.recv(timeout=5))["you"]["seat"] == 0
        out = httpx.post(f"{p1.base}/api/account/signout-all", headers=s1)
        assert out.status_code == 204
        code, took = _closed_within(ws, 10)
    assert code == 4401 and took < 2, (code, took)  # told over the bus
    # deleted at one process: its socket at the other is closed, and it chats no more
    s3 = _account(p1.base, "signin", name, password)
    s4 = _account(p2.base, "signin", name, password)
    with connect(url, additional_headers=s4, open_timeout=5) as ws:
        assert json.loads(ws.recv(timeout=5))["you"]["seat"] == 0
        ws.send(json.dumps({"type": "chat", "text": "still here"}))
        gone = httpx.post(f"{p1.base}/api/account/delete", json={"password": password}, headers=s3)
        assert gone.status_code == 204
        code, took = _closed_within(ws, 10)
        with contextlib.suppress(ConnectionClosed):
            ws.send(json.dumps({"type": "chat", "text": "after"}))
    assert code == 4401 and took < 2, (code, took)

    async def chat_names() -> list[str]:
        from sqlalchemy import text

        store = await Store.open(db)
        try:
            async with store.session() as s:
                rows = await s.execute(text("SELECT name FROM chat"))
                return [r[0] for r in rows]
        finally:
            await store.close()

    assert name not in asyncio.run(chat_names())
