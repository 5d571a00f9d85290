"""Play at a table: actions, deals, a match's end, and the driver that moves for bots."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import Any

from buraco.errors import BuracoError, WordedError
from buraco.fairness import new_deal
from buraco.refusals import Refusal
from buraco.server.crashpoints import crash_point
from buraco.server.errors import ServiceError
from buraco.server.models import GameRow
from buraco.server.service.log import TableLog
from buraco.server.store import TableResult, now
from buraco.server.tables import LiveTable, dumps
from buraco.views import seat_view

log = logging.getLogger("buraco.server")


class Play(TableLog):
    """Play at a table: actions, deals, a match's end, and the driver that moves for bots."""

    async def act(
        self, lt: LiveTable, seat: int, version: int, text: str, by: str = "player"
    ) -> None:
        """Make an action at a seat, seen at ``version``; raises :class:`ServiceError`."""
        async with lt.lock:
            g = lt.game
            if g is None or lt.status != "playing":
                raise ServiceError("not-playing", status=409)
            if version != lt.version:
                raise ServiceError("stale", status=409, version=lt.version, sent=version)
            if g.is_hand_over():
                raise ServiceError("hand-over")
            if g.turn != seat:
                raise ServiceError("turn", rule="turn", name=g.names[g.turn], seat=g.turn)
            if by == "away" and not lt.away(seat, self.settings.grace):
                # the player came back while the stand-in was thinking: their seat again
                raise ServiceError("back", status=409, name=g.names[seat])
            try:
                action = g.parse(text)
            except BuracoError as exc:
                worded = exc.refusal if isinstance(exc, WordedError) else None
                why = worded or Refusal("notation", {"text": str(exc)})
                raise ServiceError(
                    "notation", rule="notation", refusal=why, text=str(exc)
                ) from None
            refusal = g.refusal(action)
            if refusal is not None:
                raise ServiceError(
                    "illegal", rule=refusal.rule, refusal=refusal, text=refusal.message
                )
            await self._commit(lt, "action", {"seat": seat, "action": str(action), "by": by})
            if g.is_over():
                await self._finish(lt)

    async def _deal(self, lt: LiveTable) -> None:
        async with lt.lock:
            g = lt.game
            if g is not None and (not g.is_hand_over() or g.is_over()):
                return
            if g is None and (lt.status != "waiting" or not lt.full()):
                return
            data: dict[str, Any] = await self._next_deal(lt)
            if g is None:
                data.update(
                    at=round(time.time(), 3),
                    seed=secrets.randbits(63),
                    # a duplicate turn's tables deal alike: NS (seat 0) deals first
                    first_dealer=0 if lt.holds_decks else secrets.randbelow(lt.players),
                    names=[s.name for s in lt.seats],
                )
            await self._commit(lt, "deal", data, status="playing" if g is None else None)

    async def _next_deal(self, lt: LiveTable) -> dict[str, Any]:
        """The next hand's deck, cut, salt and commitment.

        From the CSPRNG, or the deal of every table of a duplicate tournament's turn.
        """
        if lt.holds_decks and lt.tournament is not None:
            tid, turn, _table = lt.tournament
            stored = await self.store.tournament_deal(tid, turn, len(lt.deals) + 1)
            if stored is not None:
                return {
                    "deck": stored.deck,
                    "cut": stored.cut,
                    "salt": stored.salt,
                    "commitment": stored.commitment,
                }
        deal = new_deal(lt.rules)
        return {
            "deck": deal.deck_text,
            "cut": deal.cut,
            "salt": deal.salt,
            "commitment": deal.commitment,
        }

    async def _finish(self, lt: LiveTable) -> None:
        g = lt.game
        assert g is not None
        record = g.record()
        for hand, deal in zip(record["hands"], lt.deals, strict=True):
            hand["commitment"] = deal.commitment
            hand["salt"] = deal.salt
        row = GameRow(
            table_id=lt.id,
            finished_at=now(),
            preset=lt.preset,
            players=lt.players,
            names=json.dumps(list(g.names)),
            totals=json.dumps(list(g.totals)),
            winner=g.winner,
            hands=len(g.results),
            record=json.dumps(record, separators=(",", ":")),
        )
        players = [(s.seat, s.guest_id) for s in lt.seats if s.kind == "guest" and s.guest_id]
        rated = self._rated_match(lt) if lt.rated else None
        if rated is not None and self._too_few_turns(lt):
            rated, row.unrated = None, "rated.turns"  # rated play needs play
        result = None
        if lt.tournament is not None:
            tid, turn, table = lt.tournament
            ns, ew = g.totals[g.side_of[0]], g.totals[g.side_of[1]]
            # a side that resigned loses the table, whatever the totals (docs/tournaments.md)
            resigned = None
            if g.resigned >= 0:
                resigned = "ns" if g.side_of[g.resigned] == g.side_of[0] else "ew"
            result = TableResult(tid, turn, table, ns, ew, resigned)
        crash_point("finish")
        lt.game_id = await self.store.finish_table(lt.id, row, players, rated, result)
        crash_point("finished")
        lt.status = "over"
        if lt.rated:
            stored = row if row.id == lt.game_id else await self.store.game_of_table(lt.id)
            lt.unrated = self._unrated(stored.unrated if stored is not None else None)
        if rated is not None:
            await self._rate_seats(lt)
        self.owned.discard(lt.id)
        self.bus.publish({"t": "table", "table": lt.id})
        lt.broadcast(
            lambda _seat: dumps({"type": "table", "table": lt.summary(self.settings.grace)})
        )

    async def ready(self, lt: LiveTable, seat: int) -> None:
        """A player is ready for the next hand."""
        g = lt.game
        if g is None or not g.is_hand_over() or g.is_over():
            raise ServiceError("not-over.hand")
        lt.ready.add(seat)
        lt.changed.set()
        self.bus.publish({"t": "ready", "table": lt.id, "seat": seat, "hand": g.hand_number})

    def _drive(self, lt: LiveTable) -> None:
        if not self.owns(lt):
            return
        if lt.driver is None or lt.driver.done():
            lt.driver = asyncio.create_task(self._driver(lt), name=f"table {lt.id}")

    async def _driver(self, lt: LiveTable) -> None:
        while not self._closing and lt.status not in ("over", "closed") and self.owns(lt):
            lt.changed.clear()
            try:
                wait = await self._step(lt)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: driver step failed", lt.id)
                wait = 1.0
            if wait == 0:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(lt.changed.wait(), wait)

    async def _step(self, lt: LiveTable) -> float | None:
        """Do what is due at a table; returns how long to wait (None: until a change)."""
        g = lt.game
        grace = self.settings.grace
        if g is None:
            if lt.full():
                await self._deal(lt)
                return 0
            return None
        if g.is_over():
            if lt.status != "over":
                async with lt.lock:
                    if lt.status != "over":
                        await self._finish(lt)
            return None
        if g.is_hand_over():
            if lt.time_up():
                async with lt.lock:
                    if not g.is_over():
                        await self._commit(lt, "stop", {})
                return 0
            waiting = [
                s.seat
                for s in lt.seats
                if s.kind == "guest" and s.seat not in lt.ready and not lt.away(s.seat, grace)
            ]
            left = self.settings.hand_pause - (time.monotonic() - lt.hand_over_at)
            if waiting and left > 0:
                return left
            await self._deal(lt)
            return 0
        seat = g.turn
        s = lt.seats[seat]
        elapsed = time.monotonic() - lt.turn_since
        if s.kind == "bot" and s.bot is not None:
            spec, by, pace = s.bot, "bot", lt.pace
        else:
            away = lt.away(seat, grace)
            late = lt.turn_timer > 0 and elapsed >= lt.turn_timer
            if not away and not late:
                waits = []
                if seat in lt.left_at:
                    waits.append(grace - (time.monotonic() - lt.left_at[seat]))
                if lt.turn_timer:
                    waits.append(lt.turn_timer - elapsed)
                return max(0.01, min(waits)) if waits else None
            spec = self.settings.stand_in
            by = "away" if away else "timer"
            pace = min(lt.pace, 1.0) if away else 0.0
        if elapsed < pace:
            return pace - elapsed
        version = lt.version
        view = seat_view(g, seat)
        try:
            text = await self.pool.choose(lt.id, seat, g.hand_number, spec, 0, view)
        except Exception:
            log.exception("table %s: bot %r failed; playing its first legal action", lt.id, spec)
            text = str(view.legal[0])
        try:
            await self.act(lt, seat, version, text, by=by)
        except ServiceError as exc:
            if exc.code == "unavailable":
                return 1.0
            if exc.code not in ("stale", "turn", "hand-over", "back"):
                log.error("table %s: bot %r refused: %s", lt.id, spec, exc.message)
                await self.act(lt, seat, lt.version, str(view.legal[0]), by=by)
        return 0
