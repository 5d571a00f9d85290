"""Tables as stored: their rows, seats and logs, the leases of several processes, and chat."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from buraco.server.models import (
    ChatRow,
    EventRow,
    Guest,
    Lease,
    SeatRow,
    TableRow,
)
from buraco.server.store.base import (
    _BUMP,
    _BUMP_STATUS,
    _SEAT,
    Conflict,
    StoreBase,
    TableData,
    _Append,
    now,
)


class TableStore(StoreBase):
    """Tables, their logs, their leases and their chat."""

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

    # ----- chat ------------------------------------------------------------------------------
    async def add_chat(self, table_id: str, guest_id: str, line: str) -> ChatRow | None:
        """Store a chat line under the player's name now (None: a deleted player's, not stored).

        The player's row is locked meanwhile: a deletion waits for the line, or the line for
        the deletion, so no line is stored under a deleted player's name.
        """
        async with self.session.begin() as s:
            q = select(Guest).where(Guest.id == guest_id).with_for_update()
            guest = (await s.execute(q)).scalar_one_or_none()
            if guest is None or guest.deleted:
                return None
            row = ChatRow(
                table_id=table_id, guest_id=guest_id, name=guest.name, text=line, created_at=now()
            )
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
