"""The finished games' routes: lists, summaries, records and replays.

Each is shown only to who may see it (a private table's games: its players, its maker, its
invite's holders).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import Field

from buraco.cards import CARD_NAMES
from buraco.errors import BuracoError
from buraco.game import Game
from buraco.replays import replay
from buraco.server.errors import ServiceError
from buraco.server.http import (
    MAX_GAME_ID,
    TABLE_ID,
    MaybeGuest,
    Out,
    Svc,
    before_code,
    coded,
    refusals,
    utc,
    wrong_code,
)
from buraco.server.service import (
    Guest,
    TableService,
    token_hash,
)
from buraco.views import seat_view, spectator_view

router = APIRouter()


class GameOut(Out):
    """A finished game's summary."""

    id: int
    table: str
    finished_at: Annotated[str, Field(description="ISO 8601, UTC")]
    preset: str
    players: int
    names: list[str]
    totals: list[int]
    winner: int | None
    hands: int


class GamesOut(Out):
    """Finished games, newest first."""

    games: list[GameOut]


class ReplayOut(Out):
    """A finished game's position after ``step`` actions of ``hand``, every hand shown."""

    hand: int
    hands: int
    step: int
    steps: int
    action: Annotated[
        list[int | str] | None,
        Field(min_length=2, max_length=2, description="the last action applied: [seat, text]"),
    ]
    cards: Annotated[list[list[str]], Field(description="every seat's hand")]
    view: Annotated[dict[str, Any], Field(description="the spectator's view (docs/protocol.md)")]


def game_summary(row: Any) -> dict[str, Any]:
    """A finished game's summary (:class:`GameOut`) from its row."""
    return {
        "id": row.id,
        "table": row.table_id,
        "finished_at": utc(row.finished_at),
        "preset": row.preset,
        "players": row.players,
        "names": json.loads(row.names),
        "totals": json.loads(row.totals),
        "winner": row.winner,
        "hands": row.hands,
    }


Invite = Annotated[
    str | None,
    Query(
        max_length=100,
        description="a private table's invite code: its games are shown to who holds it",
    ),
]


@router.get(
    "/api/games",
    tags=["games"],
    response_model=None,
    responses={200: {"model": GamesOut}, **refusals(401, 422, 429)},
)
async def list_games(
    request: Request,
    service: Svc,
    guest: MaybeGuest,
    mine: bool = False,
    table: Annotated[str | None, Query(max_length=32)] = None,
    invite: Invite = None,
) -> dict[str, Any]:
    """Finished games, newest first: every game, yours (``mine``), or a table's.

    A private table's game is listed only for its players, its maker, and (with
    ``table``) the holder of its invite code.
    """
    viewer = guest.id if guest else None
    if table is not None:
        if invite:
            await before_code(request)
        row = (
            await service.store.visible_game_of_table(
                table, viewer=viewer, invite_hash=token_hash(invite) if invite else None
            )
            if TABLE_ID.fullmatch(table)
            else None
        )
        if invite and row is None:
            found = await service.store.table(table) if TABLE_ID.fullmatch(table) else None
            if found is None or found.row.invite_hash != token_hash(invite):
                await wrong_code(request)
        return {"games": [game_summary(row)] if row else []}
    if mine and guest is None:
        raise ServiceError("guest", status=401)
    rows = await service.store.games(viewer=viewer, guest_id=viewer if mine else None)
    return {"games": [game_summary(r) for r in rows]}


async def _game(
    request: Request, service: TableService, game_id: int, guest: Guest | None, invite: str | None
) -> Any:
    """A game the asker may see (a private table's: its players, maker, invite's holders)."""

    async def find() -> Any:
        row = None
        if 0 < game_id <= MAX_GAME_ID:
            row = await service.store.game(
                game_id,
                viewer=guest.id if guest else None,
                invite_hash=token_hash(invite) if invite else None,
            )
        if row is None:
            raise ServiceError("not-found.game", status=404, game=game_id)
        return row

    return await coded(request, find, invite)


@router.get(
    "/api/games/{game_id}",
    tags=["games"],
    response_model=None,
    responses={200: {"model": GameOut}, **refusals(404, 422, 429)},
)
async def get_game(
    game_id: int, request: Request, service: Svc, guest: MaybeGuest, invite: Invite = None
) -> dict[str, Any]:
    """A finished game's summary (a private table's: 404 but to its players)."""
    return game_summary(await _game(request, service, game_id, guest, invite))


@router.get(
    "/api/games/{game_id}/record",
    tags=["games"],
    responses={
        200: {
            "description": "the game record (docs/records.md)",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        **refusals(404, 409, 422, 429),
    },
)
async def game_record(
    game_id: int, request: Request, service: Svc, guest: MaybeGuest, invite: Invite = None
) -> Response:
    """The game record (JSON), with each hand's commitment and salt: ``buraco verify`` checks it.

    A duplicate tournament's game is held back (409) while its turn is played elsewhere; a
    private table's is 404 but to its players, its maker and its invite's holders.
    """
    row = await _game(request, service, game_id, guest, invite)
    await _not_held(service, game_id)
    return Response(
        row.record,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="buraco-game-{game_id}.json"'},
    )


@router.get(
    "/api/games/{game_id}/replay",
    tags=["games"],
    response_model=None,
    responses={200: {"model": ReplayOut}, **refusals(404, 409, 422, 429)},
)
async def game_replay(
    game_id: int,
    request: Request,
    service: Svc,
    guest: MaybeGuest,
    hand: Annotated[int, Query(ge=1, le=1000)] = 1,
    step: Annotated[int, Query(ge=0, le=100_000)] = 0,
    invite: Invite = None,
) -> dict[str, Any]:
    """The position after ``step`` actions of ``hand``, with every hand shown.

    As ``buraco replay --watch`` shows it: a finished game hides nothing (from who may see
    it: a private table's game is 404 but to its players, its maker and its invite's holders).
    """
    row = await _game(request, service, game_id, guest, invite)
    await _not_held(service, game_id)
    try:
        game = _replayed(game_id, row.record)
    except BuracoError as exc:  # a record of rules this version refuses (RULINGS 9)
        raise ServiceError("rules.replay", status=422, text=str(exc)) from exc
    return _position(game, hand, step)


async def _not_held(service: TableService, game_id: int) -> None:
    """Refuse a game whose decks other tables of its tournament turn still play."""
    if await service.store.holds_game(game_id):
        raise ServiceError("game.held", status=409)


@lru_cache(maxsize=32)
def _replayed(game_id: int, record: str) -> Game:
    return replay(record)


def _position(full: Game, hand: int, step: int) -> dict[str, Any]:
    hands = full.hand_events
    if hand > len(hands):
        raise ServiceError("not-found.hand", status=404, hands=len(hands))
    record = full.record()
    actions = record["hands"][hand - 1]["actions"]
    step = min(step, len(actions))
    g = Game(
        full.rules,
        stacked=[d.deck for d in full.deals[:hand]],
        cuts=[d.cut for d in full.deals[:hand]],
        first_dealer=full.first_dealer,
        names=full.names,
        scores=full.start_totals,
        seed=full.seed,
    )
    for h in range(hand - 1):
        for seat, text in record["hands"][h]["actions"]:
            g.apply(text, seat=seat)
        g.next_hand()
    for seat, text in actions[:step]:
        g.apply(text, seat=seat)
    view = spectator_view(g).to_dict()
    return {
        "hand": hand,
        "hands": len(hands),
        "step": step,
        "steps": len(actions),
        "action": actions[step - 1] if step else None,
        "cards": [[CARD_NAMES[c] for c in seat_view(g, s, full=False).hand] for s in range(g.n)],
        "view": view,
    }
