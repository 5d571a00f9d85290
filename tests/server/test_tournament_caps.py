"""Tournaments' caps under real concurrency: many requests at once (asyncio.gather) against
real ``buraco serve`` processes, on SQLite (one process) and on PostgreSQL (two processes
sharing the database and a Redis of the test's own)."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from buraco.server.routes import COOKIE
from buraco.server.tournaments import MAX_OPEN_BY_GUESTS, MAX_OPEN_PER_GUEST
from buraco.tournament.pairing import MAX_ENTRANTS
from serverkit import free_port, start_serve

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BODY = {"name": "Quinta", "preset": "italiano", "players": 4, "movements": ["swiss"], "pace": 0}

OPEN = ["--guests-per-address", "1000000/minute", "--tournaments-per-address", "1000000/minute"]
"""Every request comes from 127.0.0.1: the limits per address out of the way but where tested."""


class Site:
    """``buraco serve`` processes of one database; requests are spread over them."""

    def __init__(self, bases: list[str]) -> None:
        self.bases = bases
        self.n = 0

    def base(self) -> str:
        """The next process's address (round robin)."""
        self.n += 1
        return self.bases[self.n % len(self.bases)]

    async def post(
        self, path: str, body: dict[str, Any] | None = None, who: str | None = None
    ) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.base(), timeout=60) as client:
            headers = {"cookie": f"{COOKIE}={who}"} if who else {}
            return await client.post(path, json=body or {}, headers=headers)

    async def guest(self, name: str) -> str:
        r = await self.post("/api/guests", {"name": name})
        assert r.status_code == 200, r.text
        return r.cookies[COOKIE]

    async def account(self, name: str) -> str:
        body = {"name": name, "password": "a long password"}
        r = await self.post("/api/account/register", body)
        assert r.status_code == 201, r.text
        return r.cookies[COOKIE]


def _redis() -> tuple[subprocess.Popen[bytes], str]:
    """A Redis of the test's own (its counts of tries start from nothing), on a free port."""
    port = free_port()
    args = ["--port", str(port), "--save", "", "--appendonly", "no", "--daemonize", "no"]
    proc = subprocess.Popen(["redis-server", *args], stdout=subprocess.DEVNULL)
    for _ in range(100):
        try:
            redis.Redis(port=port, socket_connect_timeout=0.2).ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    return proc, f"redis://127.0.0.1:{port}/0"


@pytest.fixture(params=["sqlite", "postgresql"])
def kind(request: pytest.FixtureRequest) -> str:
    param: str = request.param
    return param


def _site(kind: str, request: pytest.FixtureRequest, tmp_path: Path, args: list[str]) -> Any:
    """Start the processes of a site; yields it, then stops them."""
    procs: list[subprocess.Popen[bytes]] = []
    redis_proc = None
    try:
        if kind == "sqlite":
            ports = [free_port()]
            procs.append(start_serve(ports[0], ["--data", str(tmp_path), *args]))
        else:
            db: str = request.getfixturevalue("fresh_pg")
            redis_proc, bus = _redis()
            ports = [free_port(), free_port()]
            for port in ports:
                procs.append(start_serve(port, ["--db", db, "--bus", bus, *args]))
        yield Site([f"http://127.0.0.1:{p}" for p in ports])
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if redis_proc is not None:
            redis_proc.kill()
            redis_proc.wait()


@pytest.fixture
def site(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    """Bots in threads, every limit per address open."""
    yield from _site(kind, request, tmp_path, ["--bot-workers", "0", *OPEN])


def keys(answers: list[httpx.Response]) -> Counter[str]:
    """Each answer's status, and its refusal's key."""
    return Counter(
        str(r.status_code) + (f" {r.json()['error']['key']}" if r.status_code >= 400 else "")
        for r in answers
    )


async def test_one_player_making_tournaments_at_once_gets_three(site: Site) -> None:
    # the issue: the per-player cap of 3 was count-then-insert (6 at once gave 5)
    ana = await site.guest("Ana")
    made = await asyncio.gather(
        *(site.post("/api/tournaments", BODY, ana) for _ in range(2 * MAX_OPEN_PER_GUEST))
    )
    assert keys(made) == {"201": MAX_OPEN_PER_GUEST, "429 tournament.yours": MAX_OPEN_PER_GUEST}


async def test_guests_together_fill_only_their_share_of_the_sites_tournaments(
    site: Site,
) -> None:
    # the issue: 65 throw-away guests filled the site's 200 in seconds, after which an
    # honest player got 429 tournament.many; guests together now hold at most 50
    guests = await asyncio.gather(*(site.guest(f"Tim {i}") for i in range(20)))
    made = await asyncio.gather(
        *(site.post("/api/tournaments", BODY, g) for g in guests for _ in range(3))
    )
    assert keys(made) == {
        "201": MAX_OPEN_BY_GUESTS,
        "429 tournament.many-guests": 60 - MAX_OPEN_BY_GUESTS,
    }
    # an account still makes one
    honest = await site.account(f"Onesta {secrets.token_hex(2)}")
    r = await site.post("/api/tournaments", BODY, honest)
    assert r.status_code == 201, r.text


async def test_entries_made_at_the_same_moment_are_all_taken(site: Site) -> None:
    # the issue: 8 guests entering at once, 6 refused with a misleading 409
    # tournament.started (they all took the same next entry number)
    director = await site.guest("Dora")
    r = await site.post("/api/tournaments", BODY, director)
    assert r.status_code == 201, r.text
    tid = r.json()["tournament"]["id"]
    players = await asyncio.gather(*(site.guest(f"Eva {i}") for i in range(8)))
    path = f"/api/tournaments/{tid}/entries"
    entered = await asyncio.gather(
        *(site.post(path, {"partner": "greedy"}, p) for p in players),
        site.post(f"/api/tournaments/{tid}/bots", {"count": 4}, director),
        # and one of them twice, at the same moment: one entry
        site.post(path, {"partner": "greedy"}, players[0]),
    )
    assert keys(entered) == {"200": 9, "409 tournament.entered": 1}, [r.text for r in entered]
    async with httpx.AsyncClient(base_url=site.base()) as client:
        view = (await client.get(f"/api/tournaments/{tid}")).json()
    numbers = [e["number"] for e in view["entries"]]
    assert numbers == list(range(12))  # 8 players and 4 of bots, each its own number


async def test_the_last_places_of_a_tournament_go_to_as_many_as_there_are(site: Site) -> None:
    director = await site.guest("Dora")
    r = await site.post("/api/tournaments", BODY, director)
    tid = r.json()["tournament"]["id"]
    r = await site.post(f"/api/tournaments/{tid}/bots", {"count": MAX_ENTRANTS - 3}, director)
    assert r.status_code == 200, r.text
    players = await asyncio.gather(*(site.guest(f"Eva {i}") for i in range(6)))
    path = f"/api/tournaments/{tid}/entries"
    entered = await asyncio.gather(*(site.post(path, {"partner": "greedy"}, p) for p in players))
    assert keys(entered) == {"200": 3, "409 tournament.full": 3}


@pytest.fixture
def limited(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    """Tournaments limited to 4 an hour per address (guests open)."""
    args = ["--bot-workers", "0", "--guests-per-address", "1000000/minute"]
    yield from _site(kind, request, tmp_path, [*args, "--tournaments-per-address", "4/hour"])


async def test_tournaments_made_from_one_address_are_limited(limited: Site) -> None:
    # counted in memory by one process, in Redis by several: the limit holds across them
    guests = await asyncio.gather(*(limited.guest(f"Tim {i}") for i in range(7)))
    made = await asyncio.gather(*(limited.post("/api/tournaments", BODY, g) for g in guests))
    assert keys(made) == {"201": 4, "429 limit.tries": 3}
    refused = next(r for r in made if r.status_code == 429)
    params = refused.json()["error"]["params"]
    assert params["what"] == "tournament" and params["most"] == 4
    assert int(refused.headers["retry-after"]) > 0
