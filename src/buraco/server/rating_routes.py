"""The REST API of ratings: a leaderboard per preset and player count, a player's profile.

The model and the rating shown are in :mod:`buraco.server.ratings` (``docs/online.md``).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import Field

from buraco.rules import PRESETS, rules_from_json
from buraco.server.errors import ServiceError
from buraco.server.game_routes import game_summary
from buraco.server.http import MaybeGuest, Out, Svc, refusals, utc
from buraco.server.ratings import PROVISIONAL, shown

router = APIRouter(tags=["ratings"])

PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class RatingOut(Out):
    """A rating in one preset and player count."""

    preset: str
    players: int
    rating: Annotated[int, Field(description="shown conservatively: (μ − 3σ) × 40")]
    mu: float
    sigma: float
    games: int
    provisional: Annotated[bool, Field(description=f"fewer than {PROVISIONAL} rated matches")]


class BoardRow(RatingOut):
    """A player's place on a leaderboard."""

    place: int
    id: str
    name: str


class BoardOut(Out):
    """A leaderboard: the best players, and your place when you are on it."""

    preset: str
    players: int
    rows: list[BoardRow]
    you: BoardRow | None
    total: Annotated[int, Field(description="rated players in this preset and player count")]


def _rating(row: Any) -> dict[str, Any]:
    return {
        "preset": row.preset,
        "players": row.players,
        "rating": shown(row.mu, row.sigma),
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "games": row.games,
        "provisional": row.games < PROVISIONAL,
    }


@router.get("/api/ratings", response_model=BoardOut, responses=refusals(400, 422))
async def leaderboard(
    svc: Svc,
    guest: MaybeGuest,
    preset: Annotated[
        str,
        Query(
            max_length=20,
            json_schema_extra={"enum": sorted(PRESETS)},
            description="a preset (GET /api/presets); another is refused (400 rules.preset)",
        ),
    ] = "aberto",
    players: Annotated[int, Query(ge=2, le=6)] = 4,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """The best rated players of a preset and player count, and your place."""
    if preset not in PRESETS:
        raise ServiceError("rules.preset", field="preset", presets=list(PRESETS))
    board = await svc.store.leaderboard(preset, players)
    rows = [
        {"place": i + 1, "id": row.guest_id, "name": name, **_rating(row)}
        for i, (row, name) in enumerate(board)
    ]
    you = next((r for r in rows if guest is not None and r["id"] == guest.id), None)
    return {
        "preset": preset,
        "players": players,
        "rows": rows[:limit],
        "you": you,
        "total": len(rows),
    }


@router.get("/api/players/{player_id}", responses=refusals(404, 422))
async def profile(player_id: str, svc: Svc, guest: MaybeGuest) -> dict[str, Any]:
    """A player's page: ratings, their history by game, recent games and head-to-head.

    Of a private table's games (their history, recent games and opponents) only those the
    asker may see: their own, or of a table they made.
    """
    row = await svc.store.guest_by_id(player_id) if PLAYER_ID.fullmatch(player_id) else None
    if row is None:
        raise ServiceError("not-found.player", status=404)
    viewer = guest.id if guest is not None else None
    history = [
        {
            "game": game.id,
            "at": utc(game.finished_at),
            "preset": game.preset,
            "players": game.players,
            "rating": shown(change.mu_after, change.sigma_after),
            "change": shown(change.mu_after, change.sigma_after)
            - shown(change.mu_before, change.sigma_before),
        }
        for change, game in await svc.store.rating_history(player_id, viewer=viewer)
    ]
    mine = {p.game_id: p.seat for p in await svc.store.seats_in(player_id)}
    against: dict[str, dict[str, Any]] = {}
    sides: dict[int, list[int]] = {}  # each game's record read once, whatever its players
    for other, game in await svc.store.opponents(player_id, viewer=viewer):
        names = json.loads(game.names)
        if game.id not in sides:
            sides[game.id] = _sides(game.record)
        me, them = sides[game.id][mine[game.id]], sides[game.id][other.seat]
        if me == them:
            continue  # a partner, not an opponent
        h = against.setdefault(
            other.guest_id,
            {"id": other.guest_id, "name": names[other.seat], "games": 0, "won": 0, "lost": 0},
        )
        h["games"] += 1
        if game.winner == me:
            h["won"] += 1
        elif game.winner is not None:
            h["lost"] += 1
    recent = await svc.store.games(viewer=viewer, guest_id=player_id, limit=20)
    return {
        "id": row.id,
        "name": row.name,
        "account": row.password_hash is not None,
        "ratings": [_rating(r) for r in await svc.store.ratings_for(player_id)],
        "history": history,
        "games": [game_summary(g) for g in recent],
        "opponents": sorted(against.values(), key=lambda h: (-h["games"], h["name"])),
    }


def _sides(record: str) -> list[int]:
    """Each seat's side in a game's record (partners opposite, as the rules seat them)."""
    given = json.loads(record)["rules"]
    rules = rules_from_json(given["preset"], given["players"], given.get("options", {}))
    return [rules.side_of(s) for s in range(rules.players)]
