"""The server's database: opening it, migrating it, and every read and write the server makes.

SQLite (the embedded default, through aiosqlite) or PostgreSQL (asyncpg or
psycopg). The schema is made and changed by the Alembic migrations in
``buraco/server/migrations``, applied by :meth:`Store.open`.

Every write is its own transaction, committed before the method returns: the
table service tells no one of an action until :meth:`Store.append` has
committed it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    ColumnElement,
    Connection,
    bindparam,
    event,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)

from buraco.server import ratings
from buraco.server.models import (
    GamePlayer,
    GameRow,
    SeatRow,
    TableRow,
)
from buraco.server.stopping import cancel_and_wait

MIGRATIONS = Path(__file__).parent.with_name("migrations")


_BUMP = (
    update(TableRow)
    .where(TableRow.id == bindparam("tid"), TableRow.version == bindparam("prev"))
    .values(version=bindparam("new_version"))
)
"""A table's version moved on by one, only from the version the entry follows."""
_BUMP_STATUS = _BUMP.values(status=bindparam("new_status"))
_SEAT = (
    update(SeatRow)
    .where(SeatRow.table_id == bindparam("tid"), SeatRow.seat == bindparam("number"))
    .values(
        kind=bindparam("new_kind"),
        bot=bindparam("new_bot"),
        guest_id=bindparam("new_guest_id"),
        invited=bindparam("new_invited"),
        name=bindparam("new_name"),
    )
)


class Conflict(Exception):
    """Another writer committed this version of the table first."""


def database_url(url: str) -> str:
    """An async SQLAlchemy URL from what a user may type.

    ``postgresql://`` and ``postgres://`` use asyncpg; ``sqlite:///`` uses aiosqlite.

    >>> database_url("postgresql://u@localhost/test")
    'postgresql+asyncpg://u@localhost/test'
    >>> database_url("sqlite:///x.db")
    'sqlite+aiosqlite:///x.db'
    """
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        return "postgresql+asyncpg://" + url[len("postgresql://") :]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    return url


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class RatedMatch:
    """What a rated match's end rates.

    Each side's seats (a player's id, or a key and a bot's spec) and each side's rank
    (0: the best).
    """

    sides: list[list[ratings.Entrant]]
    ranks: list[int]
    cap: int = 0
    """The most rated matches a player may have against the same opponents in a rolling
    week (:data:`ratings.WEEK`); at it, the match is not rated (0: no cap)."""


@dataclass
class _Append:
    """A log entry waiting for the writer: its statements' values and who waits for it."""

    table_id: str
    version: int
    table: dict[str, Any]
    event: dict[str, Any]
    seats: list[dict[str, Any]]
    done: asyncio.Future[None]


@dataclass
class TableData:
    """A table as stored: its row and its seats in seat order."""

    row: TableRow
    seats: list[SeatRow]


@dataclass(frozen=True)
class TournamentCaps:
    """The caps on tournaments open or being played that a new one must stay under."""

    per_player: int
    """Made by one player."""
    site: int
    """On the whole site."""
    guests: int
    """Made by guests (players without an account), all together."""
    guest: bool
    """Whether the new one's maker is a guest."""


@dataclass(frozen=True)
class Forgotten:
    """What deleting a player ended and renamed."""

    sessions: list[str]
    """The sessions ended (their tokens' hashes)."""
    names: set[str]
    """The names the player went by, now replaced."""
    seats: dict[str, set[int]]
    """Per table, the seats the player sat at (where those names were replaced)."""


@dataclass(frozen=True)
class TableResult:
    """A tournament table's match points at its end: NS's and EW's over the turn."""

    tournament: str
    turn: int
    table: int
    ns_mp: int
    ew_mp: int
    resigned: str | None = None
    """``"ns"`` or ``"ew"``: the side that conceded the table, which loses it."""


class StoreBase:
    """The connection and the tables' log writer (the layer below :class:`Store`'s others)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.session = async_sessionmaker(engine, expire_on_commit=False)
        self._pending: asyncio.Queue[_Append] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    # ----- opening ---------------------------------------------------------------------------
    @classmethod
    async def open(cls, url: str) -> Self:
        """Connect to ``url`` and apply the migrations the database lacks."""
        url = database_url(url)
        sqlite = make_url(url).get_backend_name() == "sqlite"
        engine = create_async_engine(url, pool_pre_ping=not sqlite)
        if sqlite:
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        try:
            async with engine.begin() as conn:
                await conn.run_sync(_upgrade)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine)

    async def close(self) -> None:
        """Close every connection."""
        await cancel_and_wait([self._writer])
        await self.engine.dispose()

    async def healthy(self) -> bool:
        """Whether the database answers a read and a write now."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(text("SELECT 1"))
                await conn.execute(
                    update(TableRow).where(TableRow.id == "").values(version=TableRow.version)
                )
        except Exception:
            return False
        return True


def visible_to(viewer: str | None, invite_hash: str | None = None) -> ColumnElement[bool]:
    """Whether a finished game may be shown to ``viewer`` (a query joining its table).

    A public table's game is everyone's; a private table's only its players' (seated at
    its end), its maker's, and (``invite_hash``: the hash of the invite code given) its
    invite's holders'.
    """
    cond: ColumnElement[bool] = TableRow.public.is_(True)
    if viewer is not None:
        played = select(GamePlayer.game_id).where(GamePlayer.guest_id == viewer)
        cond = or_(cond, TableRow.created_by == viewer, GameRow.id.in_(played))
    if invite_hash:
        cond = or_(cond, TableRow.invite_hash == invite_hash)
    return cond


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def _upgrade(conn: Connection, revision: str = "head") -> None:
    """Migrate the database of a connection to a revision (the newest: ``head``)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, revision)
