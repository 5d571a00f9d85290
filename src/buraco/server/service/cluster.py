"""Several processes over one database and a bus: messages, leases, the regular check."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from typing import Any

from buraco.errors import BuracoError
from buraco.server.service.lobby import Lobby
from buraco.server.service.presence import _seats_here
from buraco.server.stopping import cancel_and_wait
from buraco.server.tables import LiveTable, dumps

log = logging.getLogger("buraco.server")


class Cluster(Lobby):
    """Several processes over one database and a bus: messages, leases, the regular check."""

    async def start(self) -> None:
        """Start serving: load the tables this process drives.

        Alone, that is every unfinished table. Shared, it joins the bus and takes a share
        of the tables no process holds.
        """
        if self.shared:
            await self.bus.start(self._on_message, self.resync)
            await self._maintain_once()
            self._maintainer = asyncio.create_task(self._maintain(), name="table leases")
            log.info("process %s: %d tables taken", self.bus.proc, len(self.owned))
            return
        for data in await self.store.tables(("waiting", "playing"), public_only=False):
            try:
                lt = self._adopt(LiveTable.from_data(data), await self.store.events(data.row.id))
                await self._rate_seats(lt)
            except (BuracoError, RuntimeError, ValueError) as exc:
                # one table that no longer loads (rules or a log this version refuses)
                # must not keep the others from being served
                log.error("table %s not resumed: %s", data.row.id, exc)
                self.unloadable.add(data.row.id)
                continue
            self._drive(lt)
        log.info("%d tables resumed", len(self.tables))

    async def stop(self) -> None:
        """Stop every driver; shared, give up the leases so others take the tables at once."""
        self._closing = True
        await cancel_and_wait([self._maintainer])
        await cancel_and_wait([lt.driver for lt in self.tables.values()])
        if self.shared:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.store.release(self.bus.proc), 5)
            await self.bus.close()

    async def _on_message(self, msg: dict[str, Any]) -> None:
        """A message of another process (see :mod:`buraco.server.bus`)."""
        kind, proc = msg.get("t"), msg.get("p")
        if not isinstance(proc, str):
            return
        self.procs[proc] = time.monotonic()
        if kind == "alive":
            tables = msg.get("tables")
            if isinstance(tables, dict):
                self._heard(proc, tables)
            return
        if kind == "forget":
            seats = msg.get("seats")
            if isinstance(seats, dict):
                self.forget(
                    str(msg.get("guest")),
                    str(msg.get("as")),
                    [n for n in msg.get("names") or () if isinstance(n, str)],
                    {t: set(v) for t, v in seats.items() if isinstance(v, list)},
                    tell=False,
                )
            return
        if kind == "sessions":
            ended = msg.get("ended")
            if isinstance(ended, list):
                self.end_sessions([h for h in ended if isinstance(h, str)], tell=False)
            return
        table_id = msg.get("table")
        if kind == "presence" and isinstance(table_id, str):
            self._remote_presence(table_id, proc, msg.get("seats"))
            return
        lt = self.tables.get(table_id) if isinstance(table_id, str) else None
        if lt is None:
            return
        if kind == "event":
            version = msg["version"]
            async with lt.lock:
                if version == lt.version + 1:
                    self._apply(lt, version, msg["kind"], msg["data"])
                elif version > lt.version:  # one or more were missed: the database has them
                    await self._catch_up(lt)
        elif kind == "chat":
            message = dumps({"type": "chat", "line": msg["line"]})
            lt.broadcast(lambda _seat: message)
        elif kind == "ready":
            g = lt.game
            if g is not None and g.hand_number == msg.get("hand") and g.is_hand_over():
                lt.ready.add(int(msg["seat"]))
                lt.changed.set()
        elif kind == "table":
            await self._sync(lt)

    def _remote_presence(self, table_id: str, proc: str, seats: object) -> None:
        entries = self.presence.setdefault(table_id, {})
        if isinstance(seats, list) and seats:
            entries[proc] = (frozenset(s for s in seats if isinstance(s, int)), time.monotonic())
        elif entries.pop(proc, None) is None:
            return
        lt = self.tables.get(table_id)
        if lt is not None and self._recount(lt):
            self._presence(lt)
            lt.changed.set()

    def _heard(self, proc: str, tables: dict[str, Any]) -> None:
        """A process's presence at every table: what it no longer lists, it has left."""
        for table_id, entries in self.presence.items():
            if proc in entries and table_id not in tables:
                self._remote_presence(table_id, proc, None)
        for table_id, seats in tables.items():
            self._remote_presence(table_id, proc, seats)

    def _forget(self, proc: str) -> None:
        """A process not heard from for too long: its connections are gone."""
        self.procs.pop(proc, None)
        self._heard(proc, {})

    async def _maintain(self) -> None:
        tick = self.settings.lease / 4
        while not self._closing:
            await asyncio.sleep(tick)
            try:
                await self._maintain_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("process %s: leases not kept up (%s)", self.bus.proc, exc)

    async def _take(self, table_id: str) -> None:
        """Drive a table whose lease this process now holds."""
        self.owned.add(table_id)
        lt = await self.get(table_id)
        if lt is None:
            self.owned.discard(table_id)
            return
        await self._sync(lt)
        self._drive(lt)

    async def _maintain_once(self) -> None:
        """Renew this process's leases, say who is here, take tables no one holds, catch up."""
        lease = self.settings.lease
        tick = lease / 4
        now_m = time.monotonic()
        self.bus.publish(
            {
                "t": "alive",
                "tables": {
                    lt.id: seats for lt in self.tables.values() if (seats := _seats_here(lt))
                },
            }
        )
        for proc, heard in list(self.procs.items()):
            if now_m - heard > 3 * tick:
                self._forget(proc)
        held = await self.store.renew(self.bus.proc, time.time() + lease)
        for table_id in self.owned - held:  # another process took it (this one was too slow)
            self.owned.discard(table_id)
            lost = self.tables.get(table_id)
            if lost is not None and lost.driver is not None:
                lost.driver.cancel()
        # a claim whose answer was lost: take it up now (a table that does not load stays
        # held by this process, so that no process tries it again and again)
        for table_id in held - self.owned - self.unloadable:
            await self._take(table_id)
        orphans = await self.store.orphans(time.time(), 500)
        random.shuffle(orphans)
        share = math.ceil(len(orphans) / (1 + len(self.procs)))
        for table_id in orphans[:share]:
            if await self.store.claim(table_id, self.bus.proc, time.time() + lease, time.time()):
                await self._take(table_id)
        await self._check_sessions()
        live = [lt.id for lt in self.tables.values() if lt.status in ("waiting", "playing")]
        stored = await self.store.versions(live)
        for table_id in live:
            lt = self.tables.get(table_id)
            if lt is None:
                continue
            version, status = stored.get(table_id, (-1, "gone"))
            if version != lt.version or status != lt.status:
                await self._sync(lt)
        for lt in list(self.tables.values()):  # copies no one here looks at are let go
            if lt.conns or lt.id in self.owned:
                self._idle.pop(lt.id, None)
            elif now_m - self._idle.setdefault(lt.id, now_m) > 15 * tick:
                self._idle.pop(lt.id, None)
                self.tables.pop(lt.id, None)
                if not self.presence.get(lt.id):
                    self.presence.pop(lt.id, None)
