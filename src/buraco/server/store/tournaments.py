"""Tournaments as stored: entries, turns, their tables and deals, and what they hold back."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import (
    delete,
    func,
    select,
    update,
)
from sqlalchemy.ext.asyncio import (
    AsyncSession,
)

from buraco.server.models import (
    EntryRow,
    GameRow,
    Guest,
    Lease,
    SeatRow,
    TableRow,
    TournamentDeal,
    TournamentRow,
)
from buraco.server.store.base import TournamentCaps
from buraco.server.store.tables import TableStore


class TournamentStore(TableStore):
    """Tournaments, their entries, turns and deals."""

    # ----- tournaments ---------------------------------------------------------------------
    async def add_tournament(
        self, row: TournamentRow, caps: TournamentCaps | None = None
    ) -> str | None:
        """Store a new tournament, unless one of ``caps`` is reached: then which, and nothing.

        The counts and the insert are one transaction that every other creation waits for
        (:meth:`_one_at_a_time`), so simultaneous creations never pass a cap together.
        """
        async with self.session.begin() as s:
            if caps is not None:
                await self._one_at_a_time(s, "tournaments")
                open_ = TournamentRow.status.in_(("open", "playing"))
                count = select(func.count()).select_from(TournamentRow).where(open_)
                mine = count.where(TournamentRow.created_by == row.created_by)
                if int((await s.execute(mine)).scalar_one()) >= caps.per_player:
                    return "tournament.yours"
                if int((await s.execute(count)).scalar_one()) >= caps.site:
                    return "tournament.many"
                if caps.guest:
                    by_guests = count.join(Guest, Guest.id == TournamentRow.created_by).where(
                        Guest.password_hash.is_(None)
                    )
                    if int((await s.execute(by_guests)).scalar_one()) >= caps.guests:
                        return "tournament.many-guests"
            s.add(row)
        return None

    async def _one_at_a_time(self, s: AsyncSession, what: str) -> None:
        """Make the transaction wait for every other one that took this lock, until it ends.

        PostgreSQL: a transaction-scoped advisory lock (held until commit or rollback).
        SQLite: a write, so that the transaction holds the database's one write lock from
        here (its reads that follow see every write committed before).
        """
        if self.engine.dialect.name == "postgresql":
            await s.execute(select(func.pg_advisory_xact_lock(func.hashtext(f"buraco.{what}"))))
        else:
            await s.execute(update(TournamentRow).where(TournamentRow.id == "").values(version=0))

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

    async def add_entries(
        self, tid: str, members: Sequence[str], *, most: int, guest: str | None = None
    ) -> int | str:
        """Add entries, numbered after the last; the first one's number, or why not.

        Why not: ``tournament.started`` (it is no longer open), ``tournament.full`` (they
        would make more than ``most``), ``tournament.entered`` (``guest`` holds an entry).
        Numbered, counted and checked in the transaction that moves the tournament's
        version on (which every other change of its entries waits for), so entries made
        at the same moment are all taken, each with a number of its own.
        """
        async with self.session.begin() as s:
            if not await self._entries_change(s, tid):
                return "tournament.started"
            mine = EntryRow.tournament_id == tid
            if guest is not None and await self._holds_entry(s, tid, guest):
                await s.rollback()
                return "tournament.entered"
            q = select(func.count(), func.max(EntryRow.number)).where(mine)
            count, last = (await s.execute(q)).one()
            if int(count) + len(members) > most:
                await s.rollback()
                return "tournament.full"
            first = -1 if last is None else int(last)
            s.add_all(
                EntryRow(tournament_id=tid, number=first + 1 + i, members=m)
                for i, m in enumerate(members)
            )
            return first + 1

    @staticmethod
    async def _holds_entry(s: AsyncSession, tid: str, guest: str) -> bool:
        """Whether a player is a member of an entry of the tournament."""
        q = select(EntryRow.number).where(
            EntryRow.tournament_id == tid,
            EntryRow.members.contains(f'"guest": "{guest}"', autoescape=True),
        )
        return (await s.execute(q.limit(1))).first() is not None

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

    async def update_entry(
        self, tid: str, number: int, before: str, after: str, *, guest: str | None = None
    ) -> bool:
        """Change an entry's members if they are still ``before`` (and it is still open).

        Not if ``guest`` (who joins it) is a member of an entry already.
        """
        async with self.session.begin() as s:
            if not await self._entries_change(s, tid):
                return False
            if guest is not None and await self._holds_entry(s, tid, guest):
                await s.rollback()
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

    async def _forget_in_tournaments(self, s: AsyncSession, guest_id: str, shown_as: str) -> None:
        """A deleted player's tournament entries, tables and standings under ``shown_as``."""
        from buraco.server.entrants import entry_name

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
                name = entry_name(members)
                others = {e.casefold() for i, e in enumerate(entrants) if i != entry.number}
                if name.casefold() in others:  # names stay distinct
                    name = f"{name[:34]} ({entry.number + 1})"
                entrants[entry.number] = name
                row.state = json.dumps(state)
                row.version += 1
