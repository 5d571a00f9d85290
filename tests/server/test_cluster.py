"""Several server processes over one PostgreSQL database and a Redis bus.

Each "process" here is a table service of its own (its own store, bus, leases and
live tables) in one event loop, talking to the others only through the real
PostgreSQL and the real Redis, as separate processes do. Real processes killed
with SIGKILL are in ``test_cluster_processes.py``.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import Any

import pytest

pytest.importorskip("redis", reason="the server extra is not installed")

from buraco.server.botpool import BotPool
from buraco.server.bus import make_bus
from buraco.server.errors import ServiceError
from buraco.server.service import Guest, TableService, TableSpec, token_hash
from buraco.server.store import Store
from buraco.server.tables import LiveTable, Sender
from buraco.views import seat_view
from serverkit import make_settings


class Conn(Sender):
    """A connection at one process's copy of a table, keeping every frame it is sent."""

    def __init__(self, seat: int | None, guest_id: str | None) -> None:
        self.seat = seat
        self.guest_id = guest_id
        self.frames: list[dict[str, Any]] = []

    def send(self, frame: str) -> None:
        self.frames.append(json.loads(frame))

    def versions(self) -> list[int]:
        return [f["version"] for f in self.frames if f["type"] == "event"]


async def until(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    """Wait for ``check`` to hold; fail after ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


@pytest.fixture
async def site(fresh_pg: str, redis_url: str) -> AsyncIterator[Site]:
    """A fresh site: its own PostgreSQL database, processes added by the test."""
    s = Site(fresh_pg, redis_url)
    try:
        yield s
    finally:
        await s.close()


class Site:
    """Processes sharing one database and bus."""

    def __init__(self, db: str, bus: str) -> None:
        self.db = db
        self.bus = bus
        self.procs: list[TableService] = []

    async def process(self, lease: float = 60.0, **settings: Any) -> TableService:
        """Start one more process (a long lease: leases play no part unless a test says)."""
        store = await Store.open(self.db)
        svc = TableService(
            store,
            make_settings(self.db, bus_url=self.bus, lease=lease, **settings),
            BotPool(0),
            make_bus(self.bus, self.db),
        )
        await svc.start()
        self.procs.append(svc)
        return svc

    async def stop(self, svc: TableService) -> None:
        """Stop a process cleanly (its leases given up)."""
        self.procs.remove(svc)
        await svc.stop()
        svc.pool.close()
        await svc.store.close()

    async def crash(self, svc: TableService) -> None:
        """Stop a process as a crash would: nothing given up, nothing more said."""
        self.procs.remove(svc)
        svc._closing = True
        tasks = [svc._maintainer] + [lt.driver for lt in svc.tables.values()]
        for t in tasks:
            if t is not None:
                t.cancel()
        await svc.bus.close()
        await svc.store.close()
        svc.pool.close()

    async def close(self) -> None:
        for svc in list(self.procs):
            await self.stop(svc)

    async def guest(self, svc: TableService, name: str) -> Guest:
        gid = secrets.token_hex(8)
        await svc.store.add_guest(gid, token_hash(secrets.token_hex(8)), name)
        return Guest(gid, name)


def _at(lt: LiveTable, version: int) -> bool:
    return lt.version == version


def _legal(svc: TableService, table: str, seat: int) -> str:
    g = svc.tables[table].game
    assert g is not None
    return str(seat_view(g, seat).legal[0])


async def _two_players(
    site: Site, **settings: Any
) -> tuple[TableService, TableService, str, Conn, Conn]:
    """Process A with Ana at seat 0, process B with Bea at seat 1, the first hand dealt."""
    a = await site.process(**settings)
    b = await site.process(**settings)
    ana, bea = await site.guest(a, "Ana"), await site.guest(b, "Bea")
    lt_a, _ = await a.create(
        ana, TableSpec("aberto", 2, {}, [{"kind": "me"}, {"kind": "open"}], pace=0)
    )
    lt_b = await b.get(lt_a.id)
    assert lt_b is not None
    await b.join(lt_b, bea, 1, None)
    ca, cb = Conn(0, ana.id), Conn(1, bea.id)
    a.connect(lt_a, ca)
    b.connect(lt_b, cb)
    # A made the table, so A drives it: it hears the seat taken at B and deals
    await until(lambda: lt_b.game is not None and lt_b.version == lt_a.version)
    return a, b, lt_a.id, ca, cb


async def test_a_move_made_at_one_process_is_seen_at_once_at_the_other(site: Site) -> None:
    a, b, table, ca, cb = await _two_players(site)
    assert table in a.owned and table not in b.owned
    lt = {0: a.tables[table], 1: b.tables[table]}
    svc = {0: a, 1: b}
    for _ in range(12):
        g = lt[0].game
        assert g is not None
        seat = g.turn
        version = lt[seat].version
        start = time.monotonic()
        await svc[seat].act(lt[seat], seat, version, _legal(svc[seat], table, seat))
        # through the bus, not the leases' minute-long catch-up
        await until(partial(_at, lt[1 - seat], version + 1), 2.0)
        assert time.monotonic() - start < 2.0
    assert lt[0].version == lt[1].version
    for seat in (0, 1):  # both copies give each seat the same view
        g0, g1 = lt[0].game, lt[1].game
        assert g0 is not None and g1 is not None
        assert seat_view(g0, seat).to_dict() == seat_view(g1, seat).to_dict()
    # each connection got every version once, in order, from its own process
    for conn in (ca, cb):
        vs = conn.versions()
        assert vs == list(range(vs[0], lt[0].version + 1))


async def test_two_processes_racing_on_one_version_commit_exactly_one(site: Site) -> None:
    a, b, table, ca, cb = await _two_players(site)
    lt_a, lt_b = a.tables[table], b.tables[table]
    g = lt_a.game
    assert g is not None
    seat, version = g.turn, lt_a.version
    action = _legal(a, table, seat)
    # both copies are at the same version; both check the action and try to commit it
    results = await asyncio.gather(
        a.act(lt_a, seat, version, action),
        b.act(lt_b, seat, version, action),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert results.count(None) == 1 and len(refused) == 1, results
    assert refused[0].code == "stale"
    # the loser read the winner's entry from the database: both at the next version
    assert lt_a.version == lt_b.version == version + 1
    events = await a.store.events(table, after=version)
    assert [e.version for e in events] == [version + 1]
    await asyncio.sleep(0.3)  # the bus message of the winner arrives late, and is ignored
    for conn in (ca, cb):
        assert conn.versions().count(version + 1) == 1


async def test_events_missed_while_redis_was_away_are_read_from_the_database(
    site: Site,
) -> None:
    import redis.asyncio as redis

    a, b, table, ca, cb = await _two_players(site)
    lt_a, lt_b = a.tables[table], b.tables[table]
    admin = redis.from_url(site.bus)
    before = lt_b.version
    try:
        for _ in range(3):
            # every connection to Redis but this one is cut, the listeners' included
            await admin.client_kill_filter(_type="pubsub")
            await admin.client_kill_filter(_type="normal", skipme=True)
            g = lt_a.game
            assert g is not None
            seat = g.turn
            s, lt = (a, lt_a) if seat == 0 else (b, lt_b)
            await s.act(lt, seat, lt.version, _legal(s, table, seat))
            await until(lambda: lt_a.version == lt_b.version, 10)
    finally:
        await admin.aclose()
    assert lt_b.version == before + 3
    # nothing skipped, nothing twice, at either process's connections
    for conn in (ca, cb):
        vs = conn.versions()
        assert vs == list(range(vs[0], lt_a.version + 1))
    # both buses connect again (each after its own back-off, however busy the machine)
    await until(lambda: a.bus.connected and b.bus.connected, 20)


async def test_a_process_that_dies_leaves_its_tables_to_another_when_the_lease_runs_out(
    site: Site,
) -> None:
    a = await site.process(lease=1.0)
    b = await site.process(lease=1.0)
    bob = await site.guest(a, "Bob")
    bots = [{"kind": "bot", "bot": "greedy"}] * 4
    lt_a, _ = await a.create(bob, TableSpec("aberto", 4, {}, bots, pace=0.05))
    await until(lambda: lt_a.version > 5, 20)
    assert lt_a.id in a.owned and lt_a.id not in b.owned
    await site.crash(a)
    died_at = time.monotonic()
    stopped = (await b.store.versions([lt_a.id]))[lt_a.id][0]
    # B takes the table once A's lease (1 s) has run out, and its bots play on
    await until(lambda: lt_a.id in b.owned and lt_a.id in b.tables, 20)
    assert time.monotonic() - died_at >= 0.5
    lt_b = b.tables[lt_a.id]
    await until(lambda: lt_b.version > stopped + 5, 20)
    events = await b.store.events(lt_a.id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))


async def test_a_process_that_stops_cleanly_hands_its_tables_over_at_once(site: Site) -> None:
    a = await site.process(lease=40.0)
    b = await site.process(lease=40.0)
    bob = await site.guest(a, "Bob")
    bots = [{"kind": "bot", "bot": "greedy"}] * 2
    lt_a, _ = await a.create(bob, TableSpec("aberto", 2, {}, bots, pace=0.05))
    await until(lambda: lt_a.version > 3)
    await site.stop(a)
    # its lease given up: the next round of B's leases (every 10 s) takes it, long before
    # the lease (40 s) would have run out
    await until(lambda: lt_a.id in b.owned, 15)


async def test_presence_at_another_process_keeps_a_player_from_the_stand_in(site: Site) -> None:
    a, b, table, _ca, cb = await _two_players(site)
    lt_a = a.tables[table]
    # Bea is connected at B only: A, which drives the table, counts her as there
    assert lt_a.connected(1) and 1 not in lt_a.left_at
    lt_b = b.tables[table]
    b.disconnect(lt_b, cb)
    await until(lambda: 1 in lt_a.left_at, 2)
    assert not lt_a.connected(1)
    b.connect(lt_b, cb)
    await until(lambda: 1 not in lt_a.left_at, 2)


async def test_a_process_not_heard_from_loses_its_connections_presence(site: Site) -> None:
    a, b, table, _ca, _cb = await _two_players(site, lease=1.0)
    lt_a = a.tables[table]
    await until(lambda: lt_a.connected(1))
    await site.crash(b)
    # B's connections went with it; after three quiet rounds A counts Bea as gone
    await until(lambda: not lt_a.connected(1), 5)
    assert 1 in lt_a.left_at


async def test_chat_reaches_the_other_process(site: Site) -> None:
    a, _b, table, _ca, cb = await _two_players(site)
    ana = Guest(a.tables[table].seats[0].guest_id or "", "Ana")
    await a.chat(a.tables[table], ana, "olá <b>")
    await until(lambda: any(f["type"] == "chat" and "line" in f for f in cb.frames), 2)
    line = next(f["line"] for f in cb.frames if f["type"] == "chat" and "line" in f)
    assert line["text"] == "olá <b>" and line["name"] == "Ana"


async def test_ready_at_one_process_lets_the_driving_process_deal(site: Site) -> None:
    a, b, table, _ca, _cb = await _two_players(site, hand_pause=60.0)
    lt_a, lt_b = a.tables[table], b.tables[table]
    rng = random.Random(5)
    g = lt_a.game
    assert g is not None
    while not g.is_hand_over():  # a hand played to its end by both
        seat = g.turn
        s, lt = (a, lt_a) if seat == 0 else (b, lt_b)
        mine = lt.game
        assert mine is not None
        await s.act(lt, seat, lt.version, str(rng.choice(seat_view(mine, seat).legal)))
        await until(lambda: lt_b.version == lt_a.version, 2)
    await until(lambda: lt_b.version == lt_a.version, 2)
    over = lt_a.version
    await a.ready(lt_a, 0)
    await asyncio.sleep(0.3)
    assert lt_a.version == over  # one player ready: A waits for the other (60 s)
    await b.ready(lt_b, 1)  # told at B, heard at A, which deals at once
    await until(lambda: lt_a.version == over + 1 and lt_b.version == over + 1, 3)
    assert g.hand_number == 1


async def test_of_two_processes_taking_a_free_table_at_once_one_gets_it(site: Site) -> None:
    a = await site.process()
    b = await site.process()
    bob = await site.guest(a, "Bob")
    lt, _ = await a.create(bob, TableSpec("aberto", 2, {}, [{"kind": "me"}, {"kind": "open"}]))
    await a.store.release(a.bus.proc)  # as if A had stopped: the table is free
    now = time.time()
    for _ in range(5):
        won = await asyncio.gather(
            a.store.claim(lt.id, a.bus.proc, now + 60, now),
            b.store.claim(lt.id, b.bus.proc, now + 60, now),
        )
        assert sorted(won) == [False, True]
        winner, loser = (a, b) if won[0] else (b, a)
        # the winner may take it again (it renews); the loser may not while it runs
        assert await winner.store.claim(lt.id, winner.bus.proc, now + 60, now)
        assert not await loser.store.claim(lt.id, loser.bus.proc, now + 60, now)
        # once it has run out, anyone may
        assert await loser.store.claim(lt.id, loser.bus.proc, now + 60, now + 61)
        await a.store.release(loser.bus.proc)


async def test_a_lease_taken_without_hearing_back_is_taken_up_at_the_next_round(
    site: Site,
) -> None:
    # a claim committed while its answer was lost (the database restarting): the lease
    # says this process drives the table, and so it must, or no one would
    a = await site.process()
    b = await site.process()
    bob = await site.guest(b, "Bob")
    bots = [{"kind": "bot", "bot": "greedy"}] * 2
    lt_b, _ = await b.create(bob, TableSpec("aberto", 2, {}, bots, pace=0.05))
    await site.stop(b)  # its lease given up
    now = time.time()
    assert await a.store.claim(lt_b.id, a.bus.proc, now + 60, now)
    assert lt_b.id not in a.owned
    await a._maintain_once()
    assert lt_b.id in a.owned
    lt = a.tables[lt_b.id]
    await until(lambda: lt.version > 3, 10)  # its bots play at A


async def test_a_session_made_at_one_process_holds_at_the_other(site: Site) -> None:
    # sessions are in the database: signed in at A is signed in at B, and signed out
    # everywhere at B is signed out at A
    from buraco.server.accounts import hash_password, name_keys

    a, b = await site.process(), await site.process()
    gid, token = secrets.token_hex(8), secrets.token_urlsafe(32)
    name = f"Nadia {secrets.token_hex(2)}"
    await a.store.add_guest(
        gid, token_hash(token), name, keys=name_keys(name), password_hash=hash_password("x" * 8)
    )
    second = secrets.token_urlsafe(32)
    await a.store.add_session(gid, token_hash(second))
    for svc in (a, b):
        for t in (token, second):
            found = await svc.store.guest_by_token(token_hash(t))
            assert found is not None and found.id == gid
    assert len(await b.store.drop_sessions(gid)) == 2
    assert await a.store.guest_by_token(token_hash(token)) is None
    assert await a.store.guest_by_token(token_hash(second)) is None


class SessionConn(Conn):
    """A connection opened with a session, noting when it is told the session ended."""

    def __init__(self, seat: int | None, guest_id: str, session: str) -> None:
        super().__init__(seat, guest_id)
        self.session = session
        self.ended = 0

    def signed_out(self) -> None:
        self.ended += 1


async def test_a_session_ended_without_a_word_on_the_bus_is_closed_at_the_next_round(
    site: Site,
) -> None:
    # the bus may lose a message: each process checks its connections' sessions against
    # the database in its regular round, and closes those that ended
    a, b = await site.process(), await site.process()
    bob = await site.guest(a, "Bob")
    lt_a, _ = await a.create(bob, TableSpec("aberto", 2, {}, [{"kind": "me"}, {"kind": "open"}]))
    lt_b = await b.get(lt_a.id)
    assert lt_b is not None
    first, other = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    await a.store.add_session(bob.id, token_hash(first))
    await a.store.add_session(bob.id, token_hash(other))
    kept, ended = (
        SessionConn(0, bob.id, token_hash(other)),
        SessionConn(0, bob.id, token_hash(first)),
    )
    b.connect(lt_b, kept)
    b.connect(lt_b, ended)
    await a.store.drop_session(token_hash(first))  # no word on the bus
    await b._maintain_once()
    assert (ended.ended, kept.ended) == (1, 0)
    b.disconnect(lt_b, ended)
    assert list(b.session_conns) == [token_hash(other)]


async def test_a_player_deleted_at_one_process_is_renamed_at_the_other(site: Site) -> None:
    a, b = await site.process(), await site.process()
    name = f"Dora {secrets.token_hex(2)}"
    dora = await site.guest(a, name)
    bots = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    lt_a, _ = await a.create(dora, TableSpec("aberto", 2, {}, bots, pace=5))
    await until(lambda: lt_a.game is not None, 10)
    lt_b = await b.get(lt_a.id)
    assert lt_b is not None and lt_b.game is not None and lt_b.game.names[0] == name
    watcher = Conn(None, None)
    b.connect(lt_b, watcher)
    forgotten = await a.store.delete_account(dora.id, "deleted player")
    a.forget(dora.id, "deleted player", forgotten.names, forgotten.seats)
    await until(lambda: lt_b.seats[0].name == "deleted player", 5)
    assert lt_b.game.names[0] == "deleted player"
    assert name not in json.dumps(watcher.frames[-1])
    b.disconnect(lt_b, watcher)


async def test_a_bus_whose_listener_lost_its_cancellation_still_closes(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a cancellation taken inside a handler for a failure: the listener used to go on
    # listening, and closing the bus (so stopping the process) waited for ever
    from buraco.server import stopping

    monkeypatch.setattr(stopping, "STOP_WAIT", 2.0)
    database = f"stopping-{secrets.token_hex(4)}"
    entered = asyncio.Event()

    async def swallowing(_body: dict[str, Any]) -> None:
        entered.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            raise RuntimeError("the read failed") from None

    async def nothing() -> None:
        return None

    async def ignore(_body: dict[str, Any]) -> None:
        return None

    listener, sender = make_bus(redis_url, database), make_bus(redis_url, database)
    await listener.start(swallowing, nothing)
    await sender.start(ignore, nothing)
    try:
        sender.publish({"t": "chat"})
        await asyncio.wait_for(entered.wait(), 10)
        start = time.monotonic()
        await asyncio.wait_for(listener.close(), 10)
        assert time.monotonic() - start < 1.5  # it ended; the bound was not needed
    finally:
        await sender.close()


def _redis(port: int) -> subprocess.Popen[bytes]:
    """A Redis of this test's own on ``port``, waited for until it answers."""
    import redis

    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis(port=port, socket_connect_timeout=0.2).ping()
            return proc
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                proc.kill()
                raise
            time.sleep(0.05)


def test_with_redis_away_the_limits_count_in_memory_and_go_back_to_redis(
    fresh_pg: str, caplog: pytest.LogCaptureFixture
) -> None:
    import redis
    from fastapi.testclient import TestClient

    from buraco.server.app import create_app
    from serverkit import Browser, free_port, register, sign_in

    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    cache = _redis(port)
    settings = make_settings(fresh_pg, bus_url=url, guests_per_address="4/minute")
    try:
        with TestClient(create_app(settings)) as client:
            c = Browser(client)
            assert c.post("/api/guests", json={"name": "Before"}).status_code == 200
            assert redis.Redis(port=port).keys("LIMITS*")  # counted in Redis
            cache.kill()
            cache.wait(10)
            caplog.clear()
            with caplog.at_level("WARNING", logger="buraco.server.accounts"):
                codes = [
                    Browser(client).post("/api/guests", json={"name": f"Away {i}"}).status_code
                    for i in range(5)
                ]
                name = f"Redis away {secrets.token_hex(2)}"
                register(Browser(client), name)  # 201, or it fails here
                signed = [sign_in(Browser(client), name).status_code for _ in range(2)]
                wrong = sign_in(Browser(client), name, "not the password").status_code
            # counted afresh in this process's memory meanwhile: the limit of 4 holds there
            assert codes == [200, 200, 200, 200, 429], codes
            assert signed == [200, 200] and wrong == 401
            said = [r for r in caplog.records if r.name == "buraco.server.accounts"]
            assert len(said) == 1 and said[0].exc_info is None, said
            assert "Redis does not answer" in said[0].getMessage()
            # Redis is back: the counts go there again once the retry is due
            cache = _redis(port)
            client.app.state.gate._retry_at = 0.0  # type: ignore[attr-defined]
            with caplog.at_level("WARNING", logger="buraco.server.accounts"):
                assert Browser(client).post("/api/guests", json={"name": "Back"}).status_code == 200
            assert redis.Redis(port=port).keys("LIMITS*")
            assert not client.app.state.gate.away  # type: ignore[attr-defined]
    finally:
        cache.kill()
        cache.wait(10)
