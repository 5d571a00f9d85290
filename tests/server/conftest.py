"""Fixtures of the server tests: the real app on SQLite or PostgreSQL, guests, tables, sockets.

PostgreSQL is the one at ``BURACO_TEST_PG`` (default ``127.0.0.1:5432``, database
``test``); each test session makes a database of its own there and drops it at
the end. Without PostgreSQL those tests skip, unless ``BURACO_REQUIRE_PG=1``
(set by ``.ci/run``), when they fail.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

from argon2 import PasswordHasher

from buraco.server import accounts
from serverkit import Server, serving

PG = os.environ.get("BURACO_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture(autouse=True)
def _light_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2id at its lightest for the servers these tests run in this process: a shipped
    hash takes a tenth of a second, and the tests register and sign in hundreds of times.
    ``test_accounts`` checks the shipped one (``serverkit.SHIPPED_HASHER``); servers in
    other processes keep it."""
    light = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    monkeypatch.setattr(accounts, "_HASHER", light)
    monkeypatch.setattr(accounts, "_DUMMY", light.hash("a password no account has"))


def _admin(sql: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    async def run() -> None:
        conn = await asyncpg.connect(PG, timeout=5)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session (its async SQLAlchemy URL)."""
    name = f"buraco_test_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        _admin(f'CREATE DATABASE "{name}"')
    except Exception as exc:
        message = f"PostgreSQL at {PG} is unreachable ({type(exc).__name__}: {exc})"
        if os.environ.get("BURACO_REQUIRE_PG") == "1":
            pytest.fail(message)
        pytest.skip(message)
    base = PG.rsplit("/", 1)[0]
    yield f"{base.replace('postgresql://', 'postgresql+asyncpg://')}/{name}"
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def fresh_pg(pg_url: str) -> Iterator[str]:
    """A PostgreSQL database of this test alone (for tests that start several processes)."""
    name = f"buraco_site_{secrets.token_hex(4)}"
    _admin(f'CREATE DATABASE "{name}"')
    yield f"{pg_url.rsplit('/', 1)[0]}/{name}"
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def redis_url() -> str:
    """The Redis at ``BURACO_TEST_REDIS`` (default ``redis://127.0.0.1:6379/0``); the tests
    that need it skip without it, unless ``BURACO_REQUIRE_PG=1``, when they fail."""
    import redis

    url = os.environ.get("BURACO_TEST_REDIS", "redis://127.0.0.1:6379/0")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception as exc:
        message = f"Redis at {url} is unreachable ({type(exc).__name__}: {exc})"
        if os.environ.get("BURACO_REQUIRE_PG") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The database of a test: an SQLite file, or the session's PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'buraco.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    """The real app on the test's database, with bots in threads and no pause between hands."""
    with serving(db_url) as server:
        yield server


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    """The real app on SQLite only (for tests of the protocol, not of the database)."""
    with serving(f"sqlite+aiosqlite:///{tmp_path / 'buraco.db'}") as server:
        yield server
