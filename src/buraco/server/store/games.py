"""Finished games as stored: a table's end, the ratings it changes, and the games' lists."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import (
    delete,
    func,
    select,
    update,
)
from sqlalchemy.ext.asyncio import (
    AsyncSession,
)

from buraco.server import ratings
from buraco.server.models import (
    GamePlayer,
    GameRow,
    Guest,
    Lease,
    RatingChange,
    RatingRow,
    TableRow,
    TournamentRow,
)
from buraco.server.store.base import RatedMatch, TableResult, now, visible_to
from buraco.server.store.tournaments import TournamentStore


class GameStore(TournamentStore):
    """Finished games and ratings."""

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
        t.record(
            result.table, result.ns_mp, result.ew_mp, turn=result.turn, resigned=result.resigned
        )
        if not t.missing() and t.turn == result.turn:
            if t.turn >= len(t.movements):
                row.status = "over"
                row.next_turn_at = None
            else:
                row.next_turn_at = time.time() + row.break_seconds
        row.state = json.dumps(t.to_dict())
        row.version += 1

    async def _rate(self, s: AsyncSession, game: GameRow, rated: RatedMatch) -> None:
        """Update the ratings of a rated game's players (in the game's transaction).

        Not when a player has had ``rated.cap`` rated matches against the same opponents
        in the last week: then the game is marked ``unrated`` ``rated.cap``. The players'
        rating rows are locked first, so two matches ending at once count each other.
        """
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
        against = {
            key: ratings.opponents_key(rated.sides, i)
            for i, side in enumerate(rated.sides)
            for key, bot in side
            if bot is None
        }
        if rated.cap:
            since = game.finished_at - timedelta(seconds=ratings.WEEK)
            for guest_id, opponents in against.items():
                if await self._rated_against(s, guest_id, opponents, since) >= rated.cap:
                    game.unrated = "rated.cap"
                    return
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
                    opponents=against[guest_id],
                )
            )

    @staticmethod
    async def _rated_against(
        s: AsyncSession, guest_id: str, opponents: str, since: datetime
    ) -> int:
        """A player's rated matches against these opponents finished since ``since``."""
        q = (
            select(func.count())
            .select_from(RatingChange)
            .join(GameRow, GameRow.id == RatingChange.game_id)
            .where(
                RatingChange.guest_id == guest_id,
                RatingChange.opponents == opponents,
                GameRow.finished_at >= since,
            )
        )
        return int((await s.execute(q)).scalar_one())

    async def rated_against(self, guest_id: str, opponents: str) -> int:
        """A player's rated matches against these opponents in the last week."""
        async with self.session() as s:
            since = now() - timedelta(seconds=ratings.WEEK)
            return await self._rated_against(s, guest_id, opponents, since)

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

    async def rating_history(
        self, guest_id: str, *, viewer: str | None
    ) -> list[tuple[RatingChange, GameRow]]:
        """A player's rating changes with their games, oldest first.

        Only those of games ``viewer`` may see (:func:`visible_to`).
        """
        async with self.session() as s:
            q = (
                select(RatingChange, GameRow)
                .join(GameRow, GameRow.id == RatingChange.game_id)
                .join(TableRow, TableRow.id == GameRow.table_id)
                .where(RatingChange.guest_id == guest_id, visible_to(viewer))
                .order_by(GameRow.finished_at, GameRow.id)
            )
            return [(c, g) for c, g in (await s.execute(q)).all()]

    async def opponents(
        self, guest_id: str, *, viewer: str | None
    ) -> list[tuple[GamePlayer, GameRow]]:
        """Every seat of the other players in a player's finished games, with the game.

        Only in games ``viewer`` may see (:func:`visible_to`).
        """
        async with self.session() as s:
            mine = select(GamePlayer.game_id).where(GamePlayer.guest_id == guest_id)
            q = (
                select(GamePlayer, GameRow)
                .join(GameRow, GameRow.id == GamePlayer.game_id)
                .join(TableRow, TableRow.id == GameRow.table_id)
                .where(
                    GamePlayer.game_id.in_(mine),
                    GamePlayer.guest_id != guest_id,
                    visible_to(viewer),
                )
            )
            return [(p, g) for p, g in (await s.execute(q)).all()]

    async def seats_in(self, guest_id: str) -> list[GamePlayer]:
        """A player's seats in finished games."""
        async with self.session() as s:
            q = select(GamePlayer).where(GamePlayer.guest_id == guest_id)
            return list((await s.execute(q)).scalars())

    async def game(
        self, game_id: int, *, viewer: str | None, invite_hash: str | None = None
    ) -> GameRow | None:
        """A finished game, if ``viewer`` (or the holder of the invite) may see it."""
        async with self.session() as s:
            q = (
                select(GameRow)
                .join(TableRow, TableRow.id == GameRow.table_id)
                .where(GameRow.id == game_id, visible_to(viewer, invite_hash))
            )
            return (await s.execute(q)).scalar_one_or_none()

    async def game_of_table(self, table_id: str) -> GameRow | None:
        """The finished game of a table, if it is over (for the server, whoever asks).

        What a request may see is :meth:`visible_game_of_table`'s.
        """
        async with self.session() as s:
            q = select(GameRow).where(GameRow.table_id == table_id)
            return (await s.execute(q)).scalar_one_or_none()

    async def visible_game_of_table(
        self, table_id: str, *, viewer: str | None, invite_hash: str | None = None
    ) -> GameRow | None:
        """The finished game of a table, if it is over and ``viewer`` may see it."""
        async with self.session() as s:
            q = (
                select(GameRow)
                .join(TableRow, TableRow.id == GameRow.table_id)
                .where(GameRow.table_id == table_id, visible_to(viewer, invite_hash))
            )
            return (await s.execute(q)).scalar_one_or_none()

    async def games(
        self, *, viewer: str | None, guest_id: str | None = None, limit: int = 50
    ) -> list[GameRow]:
        """Finished games ``viewer`` may see, newest first: all of them, or a guest's."""
        async with self.session() as s:
            q = select(GameRow).join(TableRow, TableRow.id == GameRow.table_id)
            if guest_id is not None:
                q = q.join(GamePlayer, GamePlayer.game_id == GameRow.id).where(
                    GamePlayer.guest_id == guest_id
                )
            q = q.where(visible_to(viewer)).order_by(GameRow.id.desc()).limit(limit)
            return list((await s.execute(q)).scalars().unique())
