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
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    bindparam,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from buraco.server import ratings
from buraco.server.models import (
    ChatRow,
    EntryRow,
    EventRow,
    GamePlayer,
    GameRow,
    Guest,
    Lease,
    RatingChange,
    RatingRow,
    SeatRow,
    SessionRow,
    TableRow,
    TournamentDeal,
    TournamentRow,
)
from buraco.server.stopping import cancel_and_wait

MIGRATIONS = Path(__file__).with_name("migrations")


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
class TableResult:
    """A tournament table's match points at its end: NS's and EW's over the turn."""

    tournament: str
    turn: int
    table: int
    ns_mp: int
    ew_mp: int


class Store:
    """The database of one server (or of several sharing it)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.session = async_sessionmaker(engine, expire_on_commit=False)
        self._pending: asyncio.Queue[_Append] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    # ----- opening ---------------------------------------------------------------------------
    @classmethod
    async def open(cls, url: str) -> Store:
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

    # ----- guests ----------------------------------------------------------------------------
    async def add_guest(
        self,
        guest_id: str,
        token_hash: str,
        name: str,
        *,
        name_key: str | None = None,
        password_hash: str | None = None,
    ) -> None:
        """Store a new guest, signed in with the token (its first session).

        Given a name key and a password hash, the guest is an account.
        """
        at = now()
        async with self.session.begin() as s:
            s.add(
                Guest(
                    id=guest_id,
                    token_hash=token_hash,
                    name=name,
                    created_at=at,
                    name_key=name_key,
                    password_hash=password_hash,
                    registered_at=at if password_hash else None,
                )
            )
            await s.flush()
            s.add(SessionRow(token_hash=token_hash, guest_id=guest_id, created_at=at))

    async def guest_by_token(self, token_hash: str) -> Guest | None:
        """The player signed in with a token (a session), if any."""
        async with self.session() as s:
            q = (
                select(Guest)
                .join(SessionRow, SessionRow.guest_id == Guest.id)
                .where(SessionRow.token_hash == token_hash, Guest.deleted.is_(False))
            )
            return (await s.execute(q)).scalar_one_or_none()

    async def guest_by_id(self, guest_id: str) -> Guest | None:
        """A player by id."""
        async with self.session() as s:
            return await s.get(Guest, guest_id)

    async def account_by_key(self, name_key: str) -> Guest | None:
        """The account (or guest) holding a name key, if any."""
        async with self.session() as s:
            q = select(Guest).where(Guest.name_key == name_key)
            return (await s.execute(q)).scalar_one_or_none()

    async def add_session(self, guest_id: str, token_hash: str) -> None:
        """Sign a browser in: a new session of a player."""
        async with self.session.begin() as s:
            s.add(SessionRow(token_hash=token_hash, guest_id=guest_id, created_at=now()))

    async def drop_session(self, token_hash: str) -> None:
        """Sign one browser out."""
        async with self.session.begin() as s:
            await s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    async def drop_sessions(self, guest_id: str, *, keep: str | None = None) -> int:
        """Sign a player out everywhere (but the session ``keep``); how many were dropped."""
        async with self.session.begin() as s:
            q = delete(SessionRow).where(SessionRow.guest_id == guest_id)
            if keep is not None:
                q = q.where(SessionRow.token_hash != keep)
            result = await s.execute(q)
            return int(getattr(result, "rowcount", 0) or 0)

    async def sessions_of(self, guest_id: str) -> list[SessionRow]:
        """A player's sessions, oldest first."""
        async with self.session() as s:
            q = select(SessionRow).where(SessionRow.guest_id == guest_id)
            return list((await s.execute(q.order_by(SessionRow.created_at))).scalars())

    async def claim_name(self, guest_id: str, name: str, name_key: str, password_hash: str) -> bool:
        """Make a guest an account; False when the name key is already held."""
        try:
            async with self.session.begin() as s:
                await s.execute(
                    update(Guest)
                    .where(Guest.id == guest_id)
                    .values(
                        name=name,
                        name_key=name_key,
                        password_hash=password_hash,
                        registered_at=now(),
                    )
                )
        except IntegrityError:
            return False
        return True

    async def set_password(self, guest_id: str, password_hash: str) -> None:
        """Store an account's new password hash."""
        async with self.session.begin() as s:
            await s.execute(
                update(Guest).where(Guest.id == guest_id).values(password_hash=password_hash)
            )

    async def delete_account(self, guest_id: str, shown_as: str) -> None:
        """Forget a player: name, password and sessions; their games stay under ``shown_as``."""
        async with self.session.begin() as s:
            await s.execute(delete(SessionRow).where(SessionRow.guest_id == guest_id))
            await s.execute(
                update(Guest)
                .where(Guest.id == guest_id)
                .values(name=shown_as, name_key=None, password_hash=None, deleted=True)
            )
            await s.execute(
                update(SeatRow).where(SeatRow.guest_id == guest_id).values(name=shown_as)
            )
            await s.execute(
                update(ChatRow).where(ChatRow.guest_id == guest_id).values(name=shown_as)
            )
            played = select(GamePlayer.game_id, GamePlayer.seat).where(
                GamePlayer.guest_id == guest_id
            )
            for game_id, seat in (await s.execute(played)).all():
                game = await s.get(GameRow, game_id)
                if game is None:
                    continue
                names = json.loads(game.names)
                names[seat] = shown_as
                record = json.loads(game.record)
                if isinstance(record.get("names"), list) and seat < len(record["names"]):
                    record["names"][seat] = shown_as
                game.names = json.dumps(names)
                game.record = json.dumps(record)
            await self._forget_in_tournaments(s, guest_id, shown_as)

    async def _forget_in_tournaments(self, s: AsyncSession, guest_id: str, shown_as: str) -> None:
        """A deleted player's tournament entries, tables and standings under ``shown_as``."""
        from buraco.server.tournaments import _entry_name

        mine = select(EntryRow).where(
            EntryRow.members.contains(f'"guest": "{guest_id}"', autoescape=True)
        )
        for entry in (await s.execute(mine)).scalars():
            members = json.loads(entry.members)
            for m in members:
                if m.get("guest") == guest_id:
                    m["name"] = shown_as
            entry.members = json.dumps(members)
            row = await s.get(TournamentRow, entry.tournament_id, with_for_update=True)
            if row is None or row.status == "open":
                continue
            state = json.loads(row.state)
            entrants = state.get("entrants", [])
            if 0 <= entry.number < len(entrants):
                name = _entry_name(members)
                others = {e.casefold() for i, e in enumerate(entrants) if i != entry.number}
                if name.casefold() in others:  # names stay distinct
                    name = f"{name[:34]} ({entry.number + 1})"
                entrants[entry.number] = name
                row.state = json.dumps(state)
                row.version += 1

    async def everything_about(self, guest_id: str) -> dict[str, Any]:
        """What is stored about a player, as JSON-ready data (no secret, no hash)."""
        async with self.session() as s:
            guest = await s.get(Guest, guest_id)
            assert guest is not None
            sessions = (
                await s.execute(select(SessionRow).where(SessionRow.guest_id == guest_id))
            ).scalars()
            made = (
                await s.execute(select(TableRow).where(TableRow.created_by == guest_id))
            ).scalars()
            seats = (await s.execute(select(SeatRow).where(SeatRow.guest_id == guest_id))).scalars()
            games = (
                await s.execute(select(GamePlayer).where(GamePlayer.guest_id == guest_id))
            ).scalars()
            chat = (await s.execute(select(ChatRow).where(ChatRow.guest_id == guest_id))).scalars()
            entries = (
                await s.execute(
                    select(EntryRow).where(
                        EntryRow.members.contains(f'"guest": "{guest_id}"', autoescape=True)
                    )
                )
            ).scalars()
            return {
                "id": guest.id,
                "name": guest.name,
                "account": guest.password_hash is not None,
                "created_at": guest.created_at.isoformat(),
                "registered_at": guest.registered_at.isoformat() if guest.registered_at else None,
                "sessions": [{"created_at": x.created_at.isoformat()} for x in sessions],
                "tables_created": [t.id for t in made],
                "seats": [{"table": x.table_id, "seat": x.seat, "name": x.name} for x in seats],
                "games": [{"game": g.game_id, "seat": g.seat} for g in games],
                "tournament_entries": [
                    {"tournament": e.tournament_id, "entry": e.number} for e in entries
                ],
                "chat": [
                    {"table": c.table_id, "text": c.text, "at": c.created_at.isoformat()}
                    for c in chat
                ],
            }

    async def rename_guest(self, guest_id: str, name: str) -> None:
        """Change a guest's display name."""
        async with self.session.begin() as s:
            await s.execute(update(Guest).where(Guest.id == guest_id).values(name=name))

    async def count_tables_by(self, guest_id: str) -> int:
        """How many unfinished tables a guest has created (a tournament's are not counted)."""
        async with self.session() as s:
            q = select(func.count()).where(
                TableRow.created_by == guest_id,
                TableRow.status != "over",
                TableRow.tournament_id.is_(None),
            )
            return int((await s.execute(q)).scalar_one())

    # ----- tables ----------------------------------------------------------------------------
    async def add_table(
        self, row: TableRow, seats: Sequence[SeatRow], lease: Lease | None = None
    ) -> None:
        """Store a new table and its seats (and the lease of the process that made it)."""
        async with self.session.begin() as s:
            s.add(row)
            await s.flush()
            s.add_all(seats)
            if lease is not None:
                s.add(lease)

    async def table(self, table_id: str) -> TableData | None:
        """A table and its seats."""
        async with self.session() as s:
            row = await s.get(TableRow, table_id)
            if row is None:
                return None
            seats = (
                await s.execute(
                    select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                )
            ).scalars()
            return TableData(row, list(seats))

    async def tables(self, statuses: Sequence[str], public_only: bool = True) -> list[TableData]:
        """Tables in the given states, newest first (at most 200)."""
        async with self.session() as s:
            q = select(TableRow).where(TableRow.status.in_(statuses))
            if public_only:
                q = q.where(TableRow.public.is_(True))
            rows = list(
                (await s.execute(q.order_by(TableRow.created_at.desc()).limit(200))).scalars()
            )
            ids = [r.id for r in rows]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            if ids:
                for seat in (
                    await s.execute(
                        select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
                    )
                ).scalars():
                    seats[seat.table_id].append(seat)
            return [TableData(r, seats[r.id]) for r in rows]

    async def events(self, table_id: str, after: int = 0) -> list[EventRow]:
        """A table's log after a version, in order."""
        async with self.session() as s:
            q = (
                select(EventRow)
                .where(EventRow.table_id == table_id, EventRow.version > after)
                .order_by(EventRow.version)
            )
            return list((await s.execute(q)).scalars())

    async def append(
        self,
        table_id: str,
        version: int,
        kind: str,
        data: dict[str, Any],
        *,
        seats: Sequence[SeatRow] = (),
        status: str | None = None,
    ) -> None:
        """Commit one log entry at ``version`` (the table's version + 1), with seat changes.

        Returns once the entry is committed. Entries of several tables that arrive
        together are committed in one transaction (group commit: one disk flush for
        all of them). Raises :class:`Conflict` when that version is already taken
        (another writer was first); nothing is written for the entry then.
        """
        values: dict[str, Any] = {"version": version}
        if status is not None:
            values["status"] = status
        item = _Append(
            table_id,
            version,
            values,
            {
                "table_id": table_id,
                "version": version,
                "kind": kind,
                "data": json.dumps(data, separators=(",", ":")),
                "created_at": now(),
            },
            [
                {
                    "tid": table_id,
                    "number": seat.seat,
                    "new_kind": seat.kind,
                    "new_bot": seat.bot,
                    "new_guest_id": seat.guest_id,
                    "new_invited": seat.invited,
                    "new_name": seat.name,
                }
                for seat in seats
            ],
            asyncio.get_running_loop().create_future(),
        )
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop(), name="buraco store writer")
        await self._pending.put(item)
        await item.done

    async def _write_loop(self) -> None:
        """Commit queued log entries, as many as are waiting, one transaction at a time."""
        while True:
            batch = [await self._pending.get()]
            while not self._pending.empty() and len(batch) < 500:
                batch.append(self._pending.get_nowait())
            # rows locked in one order by every process: two batches never deadlock
            batch.sort(key=lambda item: item.table_id)
            try:
                outcome = await self._write(batch)
            except IntegrityError:
                # one entry broke a constraint: commit the others one by one
                outcome = []
                for item in batch:
                    try:
                        outcome += await self._write([item])
                    except IntegrityError:
                        outcome.append(Conflict(item.table_id))
                    except Exception as exc:
                        outcome.append(exc)
            except Exception as exc:  # the database is down: every entry fails, none is lost
                outcome = [exc] * len(batch)
            for item, result in zip(batch, outcome, strict=True):
                if not item.done.done():
                    if result is None:
                        item.done.set_result(None)
                    else:
                        item.done.set_exception(result)

    async def _write(self, batch: list[_Append]) -> list[Exception | None]:
        out: list[Exception | None] = []
        events: list[dict[str, Any]] = []
        async with self.engine.begin() as conn:
            for item in batch:
                done = await conn.execute(
                    _BUMP_STATUS if "status" in item.table else _BUMP,
                    {
                        "tid": item.table_id,
                        "prev": item.version - 1,
                        **{f"new_{k}": v for k, v in item.table.items()},
                    },
                )
                if done.rowcount != 1:
                    out.append(Conflict(item.table_id))
                    continue
                events.append(item.event)
                for seat in item.seats:
                    await conn.execute(_SEAT, seat)
                out.append(None)
            if events:
                await conn.execute(insert(EventRow), events)
        return out

    async def set_rematch(self, table_id: str, rematch: str) -> None:
        """Note the table that continues this one."""
        async with self.session.begin() as s:
            await s.execute(update(TableRow).where(TableRow.id == table_id).values(rematch=rematch))

    async def delete_table(self, table_id: str) -> None:
        """Remove a table that never started (its seats and log too)."""
        async with self.session.begin() as s:
            for model in (EventRow, SeatRow, ChatRow, Lease):
                await s.execute(delete(model).where(model.table_id == table_id))
            await s.execute(delete(TableRow).where(TableRow.id == table_id))

    # ----- leases (several processes) -------------------------------------------------------
    async def claim(self, table_id: str, owner: str, until: float, now: float) -> bool:
        """Take a table's lease when no one holds it, it is ours, or it has run out.

        Of two processes that try at once, one wins: the row's lock makes the second
        see the first's lease, which has not run out.
        """
        async with self.engine.begin() as conn:
            done = await conn.execute(
                update(Lease)
                .where(
                    Lease.table_id == table_id,
                    or_(Lease.owner == owner, Lease.until < now),
                )
                .values(owner=owner, until=until)
            )
            if done.rowcount == 1:
                return True
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(Lease), {"table_id": table_id, "owner": owner, "until": until}
                )
        except IntegrityError:  # someone holds it (or the table is gone)
            return False
        return True

    async def renew(self, owner: str, until: float) -> set[str]:
        """Extend every lease an owner still holds; the ids of those tables."""
        q = update(Lease).where(Lease.owner == owner).values(until=until).returning(Lease.table_id)
        async with self.engine.begin() as conn:
            return {r[0] for r in await conn.execute(q)}

    async def orphans(self, now: float, limit: int) -> list[str]:
        """Unfinished tables that no process holds (no lease, or one that ran out)."""
        q = (
            select(TableRow.id)
            .outerjoin(Lease, Lease.table_id == TableRow.id)
            .where(
                TableRow.status.in_(("waiting", "playing")),
                or_(Lease.table_id.is_(None), Lease.until < now),
            )
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [r[0] for r in await conn.execute(q)]

    async def release(self, owner: str) -> None:
        """Give up every lease of an owner (it is stopping): others take its tables at once."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(Lease).where(Lease.owner == owner))

    async def versions(self, table_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """The stored version and status of tables (a deleted table is missing)."""
        out: dict[str, tuple[int, str]] = {}
        async with self.engine.connect() as conn:
            for start in range(0, len(table_ids), 500):
                q = select(TableRow.id, TableRow.version, TableRow.status).where(
                    TableRow.id.in_(table_ids[start : start + 500])
                )
                for tid, version, status in await conn.execute(q):
                    out[tid] = (version, status)
        return out

    # ----- games -----------------------------------------------------------------------------
    async def finish_table(
        self,
        table_id: str,
        game: GameRow,
        players: Sequence[tuple[int, str]],
        rated: RatedMatch | None = None,
        tournament: TableResult | None = None,
    ) -> int:
        """Store a table's finished game, who played it, and mark the table over; the game's id.

        Done once: when the table is already over (another process finished it), the
        game stored then is kept and its id returned. A rated match's ratings are updated
        in the same transaction (its players' rows locked), so they change exactly once.
        """
        async with self.session.begin() as s:
            done = await s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status != "over")
                .values(status="over")
            )
            if done.rowcount == 0:  # type: ignore[attr-defined]
                found = await s.execute(select(GameRow.id).where(GameRow.table_id == table_id))
                return int(found.scalar_one())
            s.add(game)
            await s.flush()
            s.add_all(GamePlayer(game_id=game.id, seat=seat, guest_id=g) for seat, g in players)
            if rated is not None:
                await self._rate(s, game, rated)
            if tournament is not None:
                await self._tournament_result(s, tournament)
            await s.execute(delete(Lease).where(Lease.table_id == table_id))
        return game.id

    async def _tournament_result(self, s: AsyncSession, result: TableResult) -> None:
        """Record a tournament table's match points (in its game's transaction)."""
        from buraco.tournament.event import Tournament

        row = (
            await s.execute(
                select(TournamentRow).where(TournamentRow.id == result.tournament).with_for_update()
            )
        ).scalar_one_or_none()
        if row is None or row.status != "playing":
            return
        t = Tournament.from_dict(json.loads(row.state))
        t.record(result.table, result.ns_mp, result.ew_mp, turn=result.turn)
        if not t.missing() and t.turn == result.turn:
            if t.turn >= len(t.movements):
                row.status = "over"
                row.next_turn_at = None
            else:
                row.next_turn_at = time.time() + row.break_seconds
        row.state = json.dumps(t.to_dict())
        row.version += 1

    # ----- tournaments ---------------------------------------------------------------------
    async def add_tournament(self, row: TournamentRow) -> None:
        """Store a new tournament."""
        async with self.session.begin() as s:
            s.add(row)

    async def count_open_tournaments(self, by: str | None = None) -> int:
        """Tournaments open for entries or being played (made by ``by``, if given)."""
        async with self.session() as s:
            q = select(func.count()).select_from(TournamentRow)
            q = q.where(TournamentRow.status.in_(("open", "playing")))
            if by is not None:
                q = q.where(TournamentRow.created_by == by)
            return int((await s.execute(q)).scalar_one())

    async def tournament(self, tid: str) -> tuple[TournamentRow, list[EntryRow]] | None:
        """A tournament and its entries in order."""
        async with self.session() as s:
            row = await s.get(TournamentRow, tid)
            if row is None:
                return None
            q = select(EntryRow).where(EntryRow.tournament_id == tid).order_by(EntryRow.number)
            return row, list((await s.execute(q)).scalars())

    async def tournaments(self) -> list[TournamentRow]:
        """Tournaments open or being played, then the last ones over (newest first, 100)."""
        async with self.session() as s:
            q = select(TournamentRow).order_by(
                (TournamentRow.status == "over").asc(), TournamentRow.created_at.desc()
            )
            return list((await s.execute(q.limit(100))).scalars())

    @staticmethod
    async def _entries_change(s: AsyncSession, tid: str) -> bool:
        """Move an open tournament's version on, in the transaction that changes its entries.

        False when it is no longer open: nothing changes once it has started, and a start
        that read the entries before sees the change and stops.
        """
        done = await s.execute(
            update(TournamentRow)
            .where(TournamentRow.id == tid, TournamentRow.status == "open")
            .values(version=TournamentRow.version + 1)
        )
        return bool(done.rowcount)  # type: ignore[attr-defined]

    async def add_entries(self, tid: str, first: int, members: Sequence[str]) -> bool:
        """Add entries numbered from ``first`` (False: taken meanwhile, or started)."""
        try:
            async with self.session.begin() as s:
                if not await self._entries_change(s, tid):
                    return False
                s.add_all(
                    EntryRow(tournament_id=tid, number=first + i, members=m)
                    for i, m in enumerate(members)
                )
        except IntegrityError:
            return False
        return True

    async def drop_entry(self, tid: str, number: int) -> bool:
        """Take an entry out (False: the tournament has started)."""
        async with self.session.begin() as s:
            if not await self._entries_change(s, tid):
                return False
            await s.execute(
                delete(EntryRow).where(EntryRow.tournament_id == tid, EntryRow.number == number)
            )
            return True

    async def renumber_entries(self, tid: str, version: int) -> bool:
        """Number a tournament's entries 0, 1, … in order, if it is still at ``version``."""
        async with self.session.begin() as s:
            done = await s.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tid, TournamentRow.version == version)
                .values(version=version + 1)
            )
            if not done.rowcount:  # type: ignore[attr-defined]
                return False
            q = select(EntryRow.number).where(EntryRow.tournament_id == tid)
            numbers = sorted((await s.execute(q)).scalars())
            for new, old in enumerate(numbers):
                if new != old:
                    await s.execute(
                        update(EntryRow)
                        .where(EntryRow.tournament_id == tid, EntryRow.number == old)
                        .values(number=new)
                    )
            return True

    async def update_entry(self, tid: str, number: int, before: str, after: str) -> bool:
        """Change an entry's members if they are still ``before`` (and it is still open)."""
        async with self.session.begin() as s:
            if not await self._entries_change(s, tid):
                return False
            done = await s.execute(
                update(EntryRow)
                .where(
                    EntryRow.tournament_id == tid,
                    EntryRow.number == number,
                    EntryRow.members == before,
                )
                .values(members=after)
            )
            if not done.rowcount:  # type: ignore[attr-defined]
                await s.rollback()
                return False
            return True

    async def save_tournament(self, tid: str, version: int, state: str) -> bool:
        """Store a tournament's new state if it is still at ``version``."""
        async with self.session.begin() as s:
            done = await s.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tid, TournamentRow.version == version)
                .values(state=state, version=version + 1)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    async def start_turn(
        self,
        tid: str,
        version: int,
        state: str,
        tables: Sequence[tuple[TableRow, Sequence[SeatRow]]],
        deals: Sequence[TournamentDeal],
        leases: Sequence[Lease],
    ) -> bool:
        """A turn's tables, seats and deals, and the tournament's new state, all at once.

        Nothing if the tournament is no longer at ``version`` (another process started it).
        """
        async with self.session.begin() as s:
            done = await s.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tid, TournamentRow.version == version)
                .values(state=state, version=version + 1, status="playing", next_turn_at=None)
            )
            if not done.rowcount:  # type: ignore[attr-defined]
                return False
            s.add_all(table for table, _ in tables)
            await s.flush()
            s.add_all(seat for _, seats in tables for seat in seats)
            s.add_all(deals)
            s.add_all(leases)
        return True

    async def due_tournaments(self, at: float) -> list[TournamentRow]:
        """Tournaments whose next turn (or, open, whose start) is due at ``at`` (epoch s)."""
        async with self.session() as s:
            q = select(TournamentRow).where(
                TournamentRow.status.in_(("open", "playing")), TournamentRow.next_turn_at <= at
            )
            return list((await s.execute(q.limit(50))).scalars())

    async def unschedule(self, tid: str) -> None:
        """An open tournament's start time cleared (its director starts it by hand)."""
        async with self.session.begin() as s:
            await s.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tid, TournamentRow.status == "open")
                .values(next_turn_at=None)
            )

    async def tournament_tables(self, tid: str) -> dict[tuple[int, int], tuple[str, str]]:
        """A tournament's tables: (turn, number) → (table id, status)."""
        async with self.session() as s:
            q = select(
                TableRow.tournament_turn, TableRow.tournament_table, TableRow.id, TableRow.status
            ).where(TableRow.tournament_id == tid)
            return {(t or 0, n or 0): (i, st) for t, n, i, st in await s.execute(q)}

    async def tournament_deal(self, tid: str, turn: int, hand: int) -> TournamentDeal | None:
        """A duplicate tournament's deck order for one hand of a turn."""
        async with self.session() as s:
            return await s.get(TournamentDeal, (tid, turn, hand))

    async def holds_table(self, table_id: str) -> bool:
        """Whether a duplicate tournament's table is hidden from watchers.

        It is while some table of its turn is not over.
        """
        async with self.session() as s:
            row = await s.get(TableRow, table_id)
            if row is None or not row.holds_decks:
                return False
            q = select(func.count()).select_from(TableRow)
            q = q.where(
                TableRow.tournament_id == row.tournament_id,
                TableRow.tournament_turn == row.tournament_turn,
                TableRow.status != "over",
            )
            return int((await s.execute(q)).scalar_one()) > 0

    async def holds_game(self, game_id: int) -> bool:
        """Whether a game's record is held back.

        It is while it is a duplicate tournament's table whose turn is still being
        played at another table.
        """
        async with self.session() as s:
            found = (
                await s.execute(
                    select(TableRow.tournament_id, TableRow.tournament_turn)
                    .join(GameRow, GameRow.table_id == TableRow.id)
                    .where(GameRow.id == game_id, TableRow.holds_decks.is_(True))
                )
            ).first()
            if found is None:
                return False
            tid, turn = found
            q = select(func.count()).select_from(TableRow)
            q = q.where(
                TableRow.tournament_id == tid,
                TableRow.tournament_turn == turn,
                TableRow.status != "over",
            )
            return int((await s.execute(q)).scalar_one()) > 0

    async def _rate(self, s: AsyncSession, game: GameRow, rated: RatedMatch) -> None:
        """Update the ratings of a rated game's players (in the game's transaction)."""
        ids = sorted({key for side in rated.sides for key, bot in side if bot is None})
        q = (
            select(RatingRow)
            .where(
                RatingRow.guest_id.in_(ids),
                RatingRow.preset == game.preset,
                RatingRow.players == game.players,
            )
            .with_for_update()
        )
        rows = {r.guest_id: r for r in (await s.execute(q)).scalars()}
        current = {g: (r.mu, r.sigma) for g, r in rows.items()}
        after = ratings.rate(rated.sides, rated.ranks, current)
        at = now()
        for guest_id, (mu, sigma) in after.items():
            before = current.get(guest_id, ratings.START)
            row = rows.get(guest_id)
            if row is None:
                s.add(
                    RatingRow(
                        guest_id=guest_id,
                        preset=game.preset,
                        players=game.players,
                        mu=mu,
                        sigma=sigma,
                        games=1,
                        updated_at=at,
                    )
                )
            else:
                row.mu, row.sigma, row.games, row.updated_at = mu, sigma, row.games + 1, at
            s.add(
                RatingChange(
                    game_id=game.id,
                    guest_id=guest_id,
                    mu_before=before[0],
                    sigma_before=before[1],
                    mu_after=mu,
                    sigma_after=sigma,
                )
            )

    async def ratings_of(
        self, guest_ids: Sequence[str], preset: str, players: int
    ) -> dict[str, RatingRow]:
        """The ratings some players have in one preset and player count."""
        async with self.session() as s:
            q = select(RatingRow).where(
                RatingRow.guest_id.in_(list(guest_ids)),
                RatingRow.preset == preset,
                RatingRow.players == players,
            )
            return {r.guest_id: r for r in (await s.execute(q)).scalars()}

    async def leaderboard(self, preset: str, players: int) -> list[tuple[RatingRow, str]]:
        """Every rated player of a preset and player count, with their name, best first."""
        async with self.session() as s:
            q = (
                select(RatingRow, Guest.name)
                .join(Guest, Guest.id == RatingRow.guest_id)
                .where(
                    RatingRow.preset == preset,
                    RatingRow.players == players,
                    Guest.deleted.is_(False),
                )
                .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), RatingRow.guest_id)
            )
            return [(r, name) for r, name in (await s.execute(q)).all()]

    async def ratings_for(self, guest_id: str) -> list[RatingRow]:
        """A player's ratings in every preset and player count they played rated."""
        async with self.session() as s:
            q = select(RatingRow).where(RatingRow.guest_id == guest_id)
            return list(
                (await s.execute(q.order_by(RatingRow.preset, RatingRow.players))).scalars()
            )

    async def rating_history(self, guest_id: str) -> list[tuple[RatingChange, GameRow]]:
        """A player's rating changes with their games, oldest first."""
        async with self.session() as s:
            q = (
                select(RatingChange, GameRow)
                .join(GameRow, GameRow.id == RatingChange.game_id)
                .where(RatingChange.guest_id == guest_id)
                .order_by(GameRow.finished_at, GameRow.id)
            )
            return [(c, g) for c, g in (await s.execute(q)).all()]

    async def opponents(self, guest_id: str) -> list[tuple[GamePlayer, GameRow]]:
        """Every seat of the other players in a player's finished games, with the game."""
        async with self.session() as s:
            mine = select(GamePlayer.game_id).where(GamePlayer.guest_id == guest_id)
            q = (
                select(GamePlayer, GameRow)
                .join(GameRow, GameRow.id == GamePlayer.game_id)
                .where(GamePlayer.game_id.in_(mine), GamePlayer.guest_id != guest_id)
            )
            return [(p, g) for p, g in (await s.execute(q)).all()]

    async def seats_in(self, guest_id: str) -> list[GamePlayer]:
        """A player's seats in finished games."""
        async with self.session() as s:
            q = select(GamePlayer).where(GamePlayer.guest_id == guest_id)
            return list((await s.execute(q)).scalars())

    async def game(self, game_id: int) -> GameRow | None:
        """A finished game."""
        async with self.session() as s:
            return await s.get(GameRow, game_id)

    async def game_of_table(self, table_id: str) -> GameRow | None:
        """The finished game of a table, if it is over."""
        async with self.session() as s:
            q = select(GameRow).where(GameRow.table_id == table_id)
            return (await s.execute(q)).scalar_one_or_none()

    async def games(self, *, guest_id: str | None = None, limit: int = 50) -> list[GameRow]:
        """Finished games, newest first: all of them, or a guest's."""
        async with self.session() as s:
            q = select(GameRow)
            if guest_id is not None:
                q = q.join(GamePlayer, GamePlayer.game_id == GameRow.id).where(
                    GamePlayer.guest_id == guest_id
                )
            q = q.order_by(GameRow.id.desc()).limit(limit)
            return list((await s.execute(q)).scalars().unique())

    # ----- chat ------------------------------------------------------------------------------
    async def add_chat(self, table_id: str, guest_id: str, name: str, line: str) -> ChatRow:
        """Store a chat line."""
        row = ChatRow(table_id=table_id, guest_id=guest_id, name=name, text=line, created_at=now())
        async with self.session.begin() as s:
            s.add(row)
        return row

    async def chat(self, table_id: str, limit: int = 50) -> list[ChatRow]:
        """A table's last chat lines, oldest first."""
        async with self.session() as s:
            q = (
                select(ChatRow)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            )
            return list(reversed(list((await s.execute(q)).scalars())))


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
