"""A table's log: each change committed to the database, then applied and told."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from buraco.server.errors import ServiceError
from buraco.server.models import EventRow
from buraco.server.service.rating import Rating
from buraco.server.store import Conflict
from buraco.server.tables import LiveTable, Seat, dumps

log = logging.getLogger("buraco.server")


class TableLog(Rating):
    """A table's log: each change committed to the database, then applied and told."""

    def _adopt(self, lt: LiveTable, events: Sequence[EventRow], *, new: bool = False) -> LiveTable:
        """Take a table loaded from the database into memory, its log applied.

        Its players count as away from now until they connect, except at a table just
        made (its creator is on the way to it).
        """
        lt.load(events)
        lt.hand_pause = self.settings.hand_pause
        lt.remote = self.presence.setdefault(lt.id, {})
        if not new:
            self._recount(lt)
        self.tables[lt.id] = lt
        return lt

    def _gone(self, lt: LiveTable) -> None:
        """A table that was deleted: out of memory, its watchers told."""
        lt.status = "closed"
        self.tables.pop(lt.id, None)
        self.owned.discard(lt.id)
        if lt.driver is not None:
            lt.driver.cancel()
        summary = lt.summary(self.settings.grace)
        lt.broadcast(lambda _seat: dumps({"type": "table", "table": summary}))

    async def _commit(
        self,
        lt: LiveTable,
        kind: str,
        data: dict[str, Any],
        *,
        seats: Sequence[Seat] = (),
        status: str | None = None,
    ) -> None:
        """Commit a log entry, apply it, tell everyone (the table's lock is held).

        Once the entry is sent to the database, applying it goes ahead even if the
        caller is cancelled: the live table never falls behind its log.
        """
        await asyncio.shield(self._commit_and_apply(lt, kind, data, seats, status))

    async def _commit_and_apply(
        self,
        lt: LiveTable,
        kind: str,
        data: dict[str, Any],
        seats: Sequence[Seat],
        status: str | None,
    ) -> None:
        version = lt.version + 1
        try:
            await self.store.append(
                lt.id, version, kind, data, seats=[s.row(lt.id) for s in seats], status=status
            )
        except Conflict:
            # another process was first: read what it did (this client is told it is stale)
            with contextlib.suppress(Exception):
                await self._catch_up(lt)
            raise ServiceError(
                "stale.moment",
                status=409,
                version=lt.version,
            ) from None
        except Exception as exc:
            log.warning("table %s: the database did not answer (%s)", lt.id, exc)
            raise ServiceError(
                "unavailable",
                status=503,
            ) from None
        self._apply(lt, version, kind, data)
        self.bus.publish(
            {"t": "event", "table": lt.id, "version": version, "kind": kind, "data": data}
        )

    def _apply(self, lt: LiveTable, version: int, kind: str, data: dict[str, Any]) -> None:
        """Apply a committed log entry to the live table and tell its connections."""
        if kind == "deal" and lt.status == "waiting":
            lt.status = "playing"
        event = lt.replay(version, kind, data)
        lt.broadcast(lt.event_frame(event, self.settings.grace))
        lt.changed.set()

    async def _catch_up(self, lt: LiveTable) -> None:
        """Apply what the database's log holds after the live table's version (lock held)."""
        for ev in await self.store.events(lt.id, after=lt.version):
            self._apply(lt, ev.version, ev.kind, json.loads(ev.data))

    async def _sync(self, lt: LiveTable) -> None:
        """Bring a table up to the database: its log, whether it is over or gone, its rematch."""
        async with lt.lock:
            data = await self.store.table(lt.id)
            if data is None:
                if lt.status == "waiting":
                    self._gone(lt)
                return
            await self._catch_up(lt)
            changed = data.row.rematch != lt.rematch
            lt.rematch = data.row.rematch
            if data.row.status == "over" and lt.status != "over":
                game = await self.store.game_of_table(lt.id)
                lt.game_id = game.id if game else None
                lt.unrated = self._unrated(game.unrated if game else None)
                lt.status = "over"
                self.owned.discard(lt.id)
                changed = True
            if changed:
                self._presence(lt)
                lt.changed.set()

    async def resync(self) -> None:
        """Bring every live table up to the database (after missing messages of the bus)."""
        for lt in list(self.tables.values()):
            if lt.status in ("waiting", "playing"):
                try:
                    await self._sync(lt)
                except Exception as exc:
                    log.warning("table %s: not brought up to date (%s)", lt.id, exc)
