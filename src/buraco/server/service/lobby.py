"""Tables made, found, joined, left, resigned and played again; players forgotten."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Collection, Sequence

from buraco.bots import make_bot
from buraco.errors import BuracoError, RulesError
from buraco.rules import make_rules
from buraco.server.errors import ServiceError
from buraco.server.people import Guest, token_hash
from buraco.server.service.play import Play
from buraco.server.tables import LiveTable, Seat, dumps
from buraco.server.tablespec import (
    MATCH_MINUTES,
    PACES,
    SEAT_KINDS,
    TURN_TIMERS,
    TableSpec,
    check_budget,
    field_of,
    name_bots,
    offline_bot,
    table_row,
)

log = logging.getLogger("buraco.server")


class Lobby(Play):
    """Tables made, found, joined, left, resigned and played again; players forgotten."""

    async def get(self, table_id: str) -> LiveTable | None:
        """A table by id: live, or rebuilt from the database (a finished one)."""
        lt = self.tables.get(table_id)
        self._idle.pop(table_id, None)
        if lt is not None or len(table_id) > 32 or table_id in self.unloadable:
            return lt
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            lt = self.tables.get(table_id)
            if lt is None:
                data = await self.store.table(table_id)
                if data is None:
                    return None
                try:
                    lt = LiveTable.from_data(data)
                    game = await self.store.game_of_table(table_id)
                    lt.game_id = game.id if game else None
                    lt.unrated = self._unrated(game.unrated if game else None)
                    self._adopt(lt, await self.store.events(table_id))
                    await self._rate_seats(lt)
                except (BuracoError, RuntimeError, ValueError) as exc:
                    log.error("table %s not loaded: %s", table_id, exc)
                    self.unloadable.add(table_id)
                    self._loading.pop(table_id, None)
                    return None
                if self.shared:
                    # what was committed between reading the log and listening for it here
                    await self._sync(lt)
                if lt.status != "over":
                    self._drive(lt)
        self._loading.pop(table_id, None)
        return lt

    async def create(self, guest: Guest, spec: TableSpec) -> tuple[LiveTable, str | None]:
        """Make a table; returns it and its invite code (private or with invite seats)."""
        try:
            rules = make_rules(spec.preset, players=spec.players, **spec.options)
        except RulesError as exc:
            raise ServiceError(
                "rules", field=field_of(exc, spec), refusal=exc.refusal, text=str(exc)
            ) from None
        if rules.options().get("match_hands", 0) == 0 and rules.target > 100_000:
            raise ServiceError("rules.target", field="target", most=100_000)
        if len(spec.seats) != rules.players:
            raise ServiceError("seats.count", field="seats", players=rules.players)
        if not PACES[0] <= spec.pace <= PACES[1]:
            raise ServiceError("pace", field="pace", low=PACES[0], high=PACES[1])
        if spec.minutes not in MATCH_MINUTES:
            minutes = [str(m) for m in MATCH_MINUTES[1:]]
            raise ServiceError("minutes", field="minutes", minutes=minutes)
        if spec.turn_timer not in TURN_TIMERS:
            timers = [str(t) for t in TURN_TIMERS]
            raise ServiceError("turn_timer", field="turn_timer", timers=timers)
        if spec.rated:
            self.check_rated(guest, field="rated")
        if await self.store.count_tables_by(guest.id) >= self.settings.max_tables_per_guest:
            raise ServiceError(
                "limit",
                status=429,
                most=self.settings.max_tables_per_guest,
            )
        table_id = secrets.token_urlsafe(6)
        seats: list[Seat] = []
        mine = 0
        for i, s in enumerate(spec.seats):
            kind = s.get("kind") if isinstance(s, dict) else None
            if kind not in SEAT_KINDS:
                raise ServiceError("seats.kind", field="seats", row=i + 1, kinds=[*SEAT_KINDS])
            if kind == "bot":
                bot = s.get("bot")
                if isinstance(bot, str) and offline_bot(bot):
                    raise ServiceError("seats.bot-offline", field="seats", row=i + 1, bot=bot[:20])
                try:
                    make_bot(bot if isinstance(bot, str) else "", seed=0)
                except BuracoError as exc:
                    raise ServiceError(
                        "seats.bot", field="seats", row=i + 1, text=str(exc)
                    ) from None
                assert isinstance(bot, str)
                check_budget(bot, i)
                seats.append(Seat(i, "bot", bot, None, False, ""))  # named below
            elif kind == "me":
                mine += 1
                seats.append(Seat(i, "guest", None, guest.id, False, guest.name))
            elif kind == "invite":
                seats.append(Seat(i, "invite", None, None, True, f"Seat {i + 1}"))
            else:
                seats.append(Seat(i, "open", None, None, False, f"Seat {i + 1}"))
        if mine > 1:
            raise ServiceError("seats.one", field="seats")
        name_bots(seats, table_id, spec.preset)
        invite = None
        if not spec.public or any(s.kind == "invite" for s in seats):
            invite = secrets.token_urlsafe(12)
        row = table_row(
            table_id,
            guest.id,
            rules.preset,
            rules.players,
            rules.overrides(),
            public=spec.public,
            invite_hash=token_hash(invite) if invite else "",
            pace=float(spec.pace),
            turn_timer=spec.turn_timer,
            minutes=spec.minutes,
            rated=spec.rated,
        )
        await self.store.add_table(row, [s.row(table_id) for s in seats], self._own_new(row))
        data = await self.store.table(table_id)
        assert data is not None
        lt = self._adopt(LiveTable.from_data(data), [], new=True)
        await self._rate_seats(lt)
        self._drive(lt)
        return lt, invite

    async def join(self, lt: LiveTable, guest: Guest, seat: int, invite: str | None) -> None:
        """Sit a guest at an open seat (or one kept for the invite link, with its code)."""
        async with lt.lock:
            if lt.status != "waiting":
                raise ServiceError("started", status=409)
            if not 0 <= seat < lt.players:
                raise ServiceError("seat", status=404, last=lt.players - 1)
            if lt.seat_of(guest.id) is not None:
                raise ServiceError("seated", status=409)
            if lt.rated:
                self.check_rated(guest)
            s = lt.seats[seat]
            if s.kind == "offer":
                if s.guest_id != guest.id:
                    raise ServiceError("taken.offer", status=409, seat=seat, name=s.name)
            elif s.kind == "invite":
                if invite is None or token_hash(invite) != lt.invite_hash:
                    raise ServiceError("invite.seat", status=403)
            elif s.kind != "open":
                raise ServiceError("taken", status=409, seat=seat)
            elif not self.may_see(lt, guest, invite):
                raise ServiceError("invite", status=403)
            await self._seat(lt, Seat(seat, "guest", None, guest.id, s.invited, guest.name))

    async def leave(self, lt: LiveTable, guest: Guest) -> None:
        """Give up a seat.

        Before the match starts the seat opens again; during the match the stand-in bot
        takes it for good, under the same name.
        """
        async with lt.lock:
            seat = lt.seat_of(guest.id)
            if seat is None:
                raise ServiceError("not-seated", status=409)
            old = lt.seats[seat]
            if lt.status == "playing" and lt.rated:
                # leaving a rated match concedes it: the side's loss is rated
                g = lt.game
                if g is not None and not g.is_over():
                    await self._commit(lt, "resign", {"seat": seat})
                    await self._finish(lt)
                    return
            if lt.status == "playing":
                spec = self.settings.stand_in
                await self._seat(lt, Seat(seat, "bot", spec, None, False, old.name))
                return
            if lt.status != "waiting":
                raise ServiceError("over", status=409)
            others = [s for s in lt.seats if s.kind == "guest" and s.seat != seat]
            if lt.created_by == guest.id and not others:
                # its creator left and no one else sat down: the table goes
                await self._close(lt)
                return
            kind = "invite" if old.invited else "open"
            await self._seat(lt, Seat(seat, kind, None, None, old.invited, f"Seat {seat + 1}"))

    async def resign(self, lt: LiveTable, guest: Guest) -> None:
        """Concede the match in play: your side loses it now (the hand in play is scored)."""
        async with lt.lock:
            seat = lt.seat_of(guest.id)
            if seat is None:
                raise ServiceError("not-seated", status=403)
            g = lt.game
            if lt.status != "playing" or g is None or g.is_over():
                raise ServiceError("not-playing.here", status=409)
            await self._commit(lt, "resign", {"seat": seat})
            await self._finish(lt)

    async def decline(self, lt: LiveTable, guest: Guest) -> None:
        """Say no to the seat a rematch offers you: it opens to anyone."""
        async with lt.lock:
            offered = [s for s in lt.seats if s.kind == "offer" and s.guest_id == guest.id]
            if not offered or lt.status != "waiting":
                raise ServiceError("not-offered", status=409)
            s = offered[0]
            await self._seat(lt, Seat(s.seat, "open", None, None, False, f"Seat {s.seat + 1}"))

    async def _seat(self, lt: LiveTable, seat: Seat) -> None:
        data = {
            "seat": seat.seat,
            "kind": seat.kind,
            "bot": seat.bot,
            "guest": seat.guest_id,
            "invited": seat.invited,
            "name": seat.name,
        }
        await self._commit(lt, "seat", data, seats=[seat])
        await self._rate_seats(lt)

    async def _close(self, lt: LiveTable) -> None:
        """Remove a table that never started, telling whoever is watching."""
        await self.store.delete_table(lt.id)
        self._gone(lt)
        self.bus.publish({"t": "table", "table": lt.id})

    async def rematch(self, lt: LiveTable, guest: Guest) -> LiveTable:
        """A new table with the same rules and players, once the match is over.

        The player who asks sits down at once; each other player is offered their seat
        (kind ``offer``) and takes it (:meth:`join`) or declines (:meth:`decline`).
        """
        if lt.status != "over":
            raise ServiceError("not-over", status=409)
        if lt.seat_of(guest.id) is None:
            raise ServiceError("not-seated.rematch", status=403)
        if lt.tournament is not None:
            raise ServiceError("tournament.rematch", status=409)
        if lt.rated:
            self.check_rated(guest)
        async with lt.lock:
            if lt.rematch is not None:
                found = await self.get(lt.rematch)
                if found is not None:
                    return found
            table_id = secrets.token_urlsafe(6)
            row = table_row(
                table_id,
                guest.id,
                lt.preset,
                lt.players,
                lt.options,
                public=lt.public,
                invite_hash=lt.invite_hash,
                pace=lt.pace,
                turn_timer=lt.turn_timer,
                minutes=lt.minutes,
                rated=lt.rated,
                rematch_of=lt.id,
            )
            # the other players are offered their seats: the rematch starts once they accept
            seats = [
                Seat(s.seat, "offer", None, s.guest_id, s.invited, s.name)
                if s.kind == "guest" and s.guest_id != guest.id
                else s
                for s in lt.seats
            ]
            await self.store.add_table(row, [s.row(table_id) for s in seats], self._own_new(row))
            await self.store.set_rematch(lt.id, table_id)
            lt.rematch = table_id
            data = await self.store.table(table_id)
            assert data is not None
            new = self._adopt(LiveTable.from_data(data), [])
            await self._rate_seats(new)
            self._drive(new)
        self.bus.publish({"t": "table", "table": lt.id})
        lt.broadcast(
            lambda _seat: dumps({"type": "table", "table": lt.summary(self.settings.grace)})
        )
        return new

    async def adopt_new(self, table_ids: Sequence[str]) -> None:
        """Take tables just stored (a tournament's turn) into memory, and drive them.

        Their players count as away until they connect: the grace period runs from now,
        and then the stand-in plays for a player who did not come.
        """
        for table_id in table_ids:
            data = await self.store.table(table_id)
            assert data is not None
            lt = self._adopt(LiveTable.from_data(data), [])
            await self._rate_seats(lt)
            self._drive(lt)

    def forget(
        self,
        guest_id: str,
        shown_as: str,
        names: Collection[str],
        seats: dict[str, set[int]],
        *,
        tell: bool = True,
    ) -> None:
        """A deleted player's name out of this process's live tables: ``shown_as`` instead.

        At the seats they sat at (``seats``, per table), each of the ``names`` they went by
        is replaced: the seat, the game's names, the seat entries kept for reconnecting
        clients; the connections there are sent the table again. The database's rows are
        renamed by :meth:`Store.delete_account`; the other processes are told (``tell``).
        """
        known = set(names)
        for lt in list(self.tables.values()):
            at = seats.get(lt.id, set()) | {s.seat for s in lt.seats if s.guest_id == guest_id}
            if not at:
                continue
            for s in lt.seats:
                if s.seat in at and (s.guest_id == guest_id or s.name in known):
                    s.name = shown_as
            if lt.game is not None:
                lt.game.names = tuple(
                    shown_as if i in at and n in known else n for i, n in enumerate(lt.game.names)
                )
            for _version, event in lt.recent:
                seat_entry = event.get("kind") == "seat" and event.get("seat") in at
                if seat_entry and event.get("name") in known:
                    event["name"] = shown_as
            self._presence(lt)
        if tell and self.shared:
            self.bus.publish(
                {
                    "t": "forget",
                    "guest": guest_id,
                    "as": shown_as,
                    "names": sorted(known),
                    "seats": {t: sorted(at) for t, at in seats.items()},
                }
            )
