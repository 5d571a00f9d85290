"""A load test of a ``buraco serve`` server: many tables of bot clients over real WebSockets.

Each table has four guests, each a client with its own connection that plays a random
legal action whenever its view shows it one (after ``think`` seconds), and says it is
ready when a hand ends. Measured: the actions the server accepted per second, and the
time from sending an action to receiving the event that carries one's own new view.

Used by ``buraco loadtest``; only loopback addresses are accepted as targets. A run ends
the tables it made, also when it is interrupted (cancelled, or Ctrl-C): each match in play
is resigned and each table not started is left, so it goes; none is left for the server
to resume.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import connect

COOKIE = "buraco_guest"
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


@dataclass
class LoadResult:
    """What a load run measured."""

    tables: int
    seconds: float
    actions: int = 0
    """Actions of the clients that the server accepted (each answered by its event)."""
    refused: int = 0
    refused_codes: dict[str, int] = field(default_factory=dict)
    """How many refusals came with each error code (``stale``, ``illegal``, …)."""
    latencies: list[float] = field(default_factory=list)
    """Seconds from sending an action to receiving its event, one per accepted action."""
    hands: int = 0
    connected: int = 0
    """Clients that have their first state (the clock starts once all have it)."""
    errors: list[str] = field(default_factory=list)
    ended: int = 0
    """Tables of the run ended at its end (resigned, over already, or left before the start)."""

    def summary(self) -> dict[str, Any]:
        """The figures as a dictionary (milliseconds for latencies)."""
        lat = sorted(self.latencies)

        def pct(p: float) -> float | None:
            if not lat:
                return None
            return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2)

        return {
            "tables": self.tables,
            "seconds": round(self.seconds, 2),
            "actions": self.actions,
            "actions_per_second": round(self.actions / self.seconds, 1) if self.seconds else 0,
            "refused": self.refused,
            "refused_codes": dict(sorted(self.refused_codes.items())),
            "hands_finished": self.hands,
            "latency_ms_p50": round(1000 * statistics.median(lat), 2) if lat else None,
            "latency_ms_p90": pct(0.90),
            "latency_ms_p99": pct(0.99),
            "latency_ms_max": round(1000 * lat[-1], 2) if lat else None,
            "errors": self.errors[:10],
            "tables_ended": self.ended,
        }


def check_loopback(url: str) -> None:
    """Refuse any target that is not this machine."""
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK and not host.startswith("127."):
        raise ValueError(f"the load test only targets this machine (127.0.0.1), not {host!r}")


async def _guest(client: httpx.AsyncClient, name: str) -> str:
    r = await client.post("/api/guests", json={"name": name})
    r.raise_for_status()
    token = r.cookies.get(COOKIE)
    client.cookies.clear()
    if not token:
        raise RuntimeError("the server set no guest cookie")
    return token


async def _table(
    client: httpx.AsyncClient,
    n: int,
    preset: str,
    players: int,
    made: list[tuple[int, str, list[str]]],
) -> tuple[str, list[str]]:
    tokens = [await _guest(client, f"Load {n}.{s}") for s in range(players)]
    seats = [{"kind": "me"}] + [{"kind": "open"}] * (players - 1)
    r = await client.post(
        "/api/tables",
        json={"preset": preset, "players": players, "seats": seats, "pace": 0},
        headers={"cookie": f"{COOKIE}={tokens[0]}"},
    )
    r.raise_for_status()
    table: str = r.json()["table"]["id"]
    made.append((n, table, tokens))  # ended at the run's end, however far it got
    for s in range(1, players):
        j = await client.post(
            f"/api/tables/{table}/join",
            json={"seat": s},
            headers={"cookie": f"{COOKIE}={tokens[s]}"},
        )
        j.raise_for_status()
    return table, tokens


async def _player(
    ws_url: str,
    token: str,
    think: float,
    rng: random.Random,
    result: LoadResult,
    stop: asyncio.Event,
    started: asyncio.Event,
) -> None:
    async with connect(ws_url, additional_headers={"cookie": f"{COOKIE}={token}"}) as ws:
        sent: tuple[int, float] | None = None
        last = ""
        seat: int | None = None
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            m = json.loads(raw)
            kind = m.get("type")
            if kind == "state":
                if seat is None:
                    result.connected += 1
                seat = m["you"]["seat"]
                sent = None
            elif kind == "error":
                if m.get("code") == "rate" and sent is not None:
                    # over the server's message rate (a fast client): the action was
                    # dropped, not refused; send it again a little later
                    await asyncio.sleep(0.2)
                    sent = (sent[0], time.perf_counter())
                    await ws.send(
                        json.dumps({"type": "action", "version": sent[0], "action": last})
                    )
                    continue
                if m.get("key") == "not-over.hand":
                    # a "ready" that crossed the next deal (or the match's end): not an
                    # answer to the action in flight, which is still awaited
                    continue
                if sent is not None and started.is_set():
                    result.refused += 1
                    code = str(m.get("code", "?"))[:40]
                    result.refused_codes[code] = result.refused_codes.get(code, 0) + 1
                sent = None
                continue
            elif kind != "event":
                continue
            version = m["version"]
            if (
                sent is not None
                and kind == "event"
                and version == sent[0] + 1
                and m["event"].get("seat") == seat
            ):
                if started.is_set():
                    result.latencies.append(time.perf_counter() - sent[1])
                    result.actions += 1
                sent = None
            reveal = kind == "event" and m["event"].get("reveal") is not None
            if reveal and seat == 0 and started.is_set():
                result.hands += 1
            view = m.get("view")
            if view is None:
                continue
            if view["phase"] == "over":
                if kind == "event" and m["event"].get("reveal") is not None:
                    await ws.send(json.dumps({"type": "ready"}))
                continue
            if view["legal"] and sent is None:
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                action = last = rng.choice(view["legal"])
                sent = (version, time.perf_counter())
                await ws.send(json.dumps({"type": "action", "version": version, "action": action}))


async def run_load(
    base_url: str | Sequence[str],
    tables: int,
    seconds: float,
    *,
    think: float = 0.0,
    warmup: float = 2.0,
    preset: str = "aberto",
    players: int = 4,
    seed: int = 0,
    clock: Callable[[bool], None] | None = None,
) -> LoadResult:
    """Play ``tables`` tables of bot clients on the server at ``base_url`` for ``seconds``.

    Figures count only from ``warmup`` seconds after every client has its first state
    (the burst of connections is not what is measured).

    Several ``base_url`` are several server processes of one site: table ``n`` is made
    at, and its clients connect to, process ``n`` modulo their number (as a proxy that
    routes by table sends each table to one process). ``clock(True)`` is called when
    the measured run starts, ``clock(False)`` when it ends.
    """
    bases = [base_url] if isinstance(base_url, str) else list(base_url)
    for base in bases:
        check_loopback(base)
    made: list[tuple[int, str, list[str]]] = []
    result = LoadResult(tables, seconds)
    try:
        await _play(bases, tables, seconds, think, warmup, preset, players, seed, clock, made,
                    result)  # fmt: skip
    finally:
        # the run's tables end with it (also when it was cancelled): none is left to resume
        result.ended = await _end_tables(bases, made)
    return result


async def _end_tables(bases: Sequence[str], made: Sequence[tuple[int, str, list[str]]]) -> int:
    """End the tables a run made: resign each match in play, leave each table not started.

    A table not started goes once its players have left it (its creator last). Returns
    how many are ended (over, or gone).
    """
    limit = asyncio.Semaphore(16)

    async def end(n: int, table: str, tokens: list[str]) -> bool:
        async with limit, httpx.AsyncClient(base_url=bases[n % len(bases)], timeout=30) as c:
            path = f"/api/tables/{table}"
            cookie = [{"cookie": f"{COOKIE}={token}"} for token in tokens]
            try:
                r = await c.post(f"{path}/resign", headers=cookie[0])
                if r.status_code == 200:
                    return True
                for who in [*cookie[1:], cookie[0]]:  # not started: everyone leaves
                    await c.post(f"{path}/leave", headers=who)
                r = await c.get(path, headers=cookie[0])
                return r.status_code == 404 or r.json()["table"]["status"] in ("over", "closed")
            except (httpx.HTTPError, KeyError, ValueError):
                return False

    done = await asyncio.gather(*(end(*t) for t in made), return_exceptions=True)
    return sum(d is True for d in done)


async def _play(
    bases: list[str],
    tables: int,
    seconds: float,
    think: float,
    warmup: float,
    preset: str,
    players: int,
    seed: int,
    clock: Callable[[bool], None] | None,
    made: list[tuple[int, str, list[str]]],
    result: LoadResult,
) -> None:
    """Make the tables (noting each in ``made`` as it is made) and play them for ``seconds``."""
    rng = random.Random(seed)
    limit = asyncio.Semaphore(16)  # tables made 16 at a time, each by its own client

    async def one(n: int) -> None:
        base = bases[n % len(bases)]
        async with limit, httpx.AsyncClient(base_url=base, timeout=30) as client:
            await _table(client, n, preset, players, made)

    await asyncio.gather(*(one(n) for n in range(tables)))
    made.sort()
    stop, started = asyncio.Event(), asyncio.Event()
    tasks = [
        asyncio.create_task(
            _player(
                "ws" + bases[n % len(bases)][len("http") :] + f"/ws/tables/{table}",
                token,
                think,
                random.Random(rng.random()),
                result,
                stop,
                started,
            )
        )
        for n, table, tokens in made
        for token in tokens
    ]
    try:
        deadline = time.perf_counter() + 300
        while result.connected < len(tasks) and time.perf_counter() < deadline:
            if all(t.done() for t in tasks):
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(warmup)
        started.set()
        if clock is not None:
            clock(True)
        t0 = time.perf_counter()
        done, _ = await asyncio.wait(tasks, timeout=seconds)
        for t in done:
            if t.exception() is not None:
                result.errors.append(repr(t.exception()))
        result.seconds = time.perf_counter() - t0
        if clock is not None:
            clock(False)
    finally:
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
