"""Which matches are rated, and rating them at their end (docs/online.md, Ratings)."""

from __future__ import annotations

import logging
from typing import Any

from buraco.server.errors import ServiceError, notice
from buraco.server.people import Guest
from buraco.server.ratings import WEEK, Entrant, opponents_key, ranks_of, shown
from buraco.server.service.presence import Presence
from buraco.server.store import RatedMatch
from buraco.server.tables import LiveTable

log = logging.getLogger("buraco.server")


class Rating(Presence):
    """Which matches are rated, and rating them at their end (docs/online.md, Ratings)."""

    def _rated_match(self, lt: LiveTable) -> RatedMatch:
        """What the end of a rated match rates: its sides, each ranked by its total.

        A side that resigned, or with a player away at the end (gone past the grace period,
        a stand-in playing), comes last: abandoning a rated match counts as a loss.
        """
        g = lt.game
        assert g is not None
        sides: list[list[Entrant]] = [[] for _ in g.totals]
        last: set[int] = set()
        for s in lt.seats:
            side = g.side_of[s.seat]
            if s.kind == "guest" and s.guest_id:
                sides[side].append((s.guest_id, None))
                if lt.away(s.seat, self.settings.grace):
                    last.add(side)
            else:
                sides[side].append((f"seat {s.seat}", s.bot or self.settings.stand_in))
        if g.resigned >= 0:
            last.add(g.side_of[g.resigned])
        cap = self.settings.rated_same_opponents
        return RatedMatch(sides, ranks_of(list(g.totals), sorted(last)), cap)

    def check_rated(self, guest: Guest, field: str | None = None) -> None:
        """Refuse a guest (no account) rated play, unless the server takes rated guests."""
        if not guest.account and not self.settings.rated_guests:
            raise ServiceError("rated.guest", status=403, field=field)

    def _too_few_turns(self, lt: LiveTable) -> bool:
        """Whether a side with a player made fewer turns itself than rated play needs.

        A side's turns are those its players began themselves (not a bot partner, the
        stand-in or the turn timer); a side of bots alone needs none.
        """
        g = lt.game
        assert g is not None
        made = [0] * len(g.totals)
        people = [False] * len(g.totals)
        for s in lt.seats:
            side = g.side_of[s.seat]
            made[side] += lt.own_turns[s.seat] if lt.own_turns else 0
            people[side] = people[side] or s.kind == "guest"
        least = self.settings.rated_min_turns
        return any(p and n < least for p, n in zip(people, made, strict=True))

    def _unrated(self, key: str | None) -> dict[str, Any] | None:
        """The notice of a rated table's match that is not rated (None: it is, or may be)."""
        if key == "rated.turns":
            return notice(key, least=self.settings.rated_min_turns)
        if key == "rated.cap":
            return notice(key, most=self.settings.rated_same_opponents, days=WEEK // 86400)
        return None

    async def _rate_seats(self, lt: LiveTable) -> None:
        """Put each player's rating (in the table's preset and player count) on their seat."""
        ids = [s.guest_id for s in lt.seats if s.kind == "guest" and s.guest_id]
        found = await self.store.ratings_of(ids, lt.preset, lt.players) if ids else {}
        for s in lt.seats:
            row = found.get(s.guest_id or "")
            s.rating = shown(row.mu, row.sigma) if row is not None else None
        if lt.rated and lt.status == "waiting" and self.settings.rated_same_opponents:
            # told before it starts: a match past the week's cap is played unrated
            lt.unrated = None
            for s in lt.seats:
                if s.kind in ("guest", "offer") and s.guest_id:
                    opponents = opponents_key(self._sides_now(lt), lt.rules.side_of(s.seat))
                    count = await self.store.rated_against(s.guest_id, opponents)
                    if count >= self.settings.rated_same_opponents:
                        lt.unrated = self._unrated("rated.cap")
                        break

    def _sides_now(self, lt: LiveTable) -> list[list[Entrant]]:
        """The sides as seated now (a seat open or kept counts as no one yet)."""
        sides: list[list[Entrant]] = [[] for _ in range(lt.rules.sides)]
        for s in lt.seats:
            if s.kind in ("guest", "offer") and s.guest_id:
                sides[lt.rules.side_of(s.seat)].append((s.guest_id, None))
            elif s.kind == "bot":
                sides[lt.rules.side_of(s.seat)].append((f"seat {s.seat}", s.bot))
        return sides
