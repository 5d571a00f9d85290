"""The tables' routes.

List, make, see, join, leave, resign, decline and play again a table, and a hint for the
seat to move.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import ConfigDict, Field, JsonValue

from buraco.rules import (
    PRESETS,
    option_names,
    option_schema,
)
from buraco.server.errors import ServiceError
from buraco.server.http import (
    ONLINE_BOT_PATTERN,
    Body,
    MaybeGuest,
    NeedGuest,
    Out,
    Svc,
    coded,
    live_table,
    refusals,
)
from buraco.server.service import (
    MATCH_MINUTES,
    PACES,
    SEAT_KINDS,
    TURN_TIMERS,
    TableSpec,
)
from buraco.server.settings import Settings

router = APIRouter()


class SeatIn(Body):
    """One seat of a new table."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "if": {"properties": {"kind": {"const": "bot"}}},
            "then": {"required": ["bot"], "properties": {"bot": {"type": "string"}}},
        },
    )

    kind: Annotated[
        str, Field(json_schema_extra={"enum": [*SEAT_KINDS]}, description="open, invite, bot or me")
    ]
    bot: Annotated[
        str | None,
        Field(
            max_length=200,
            json_schema_extra={"pattern": ONLINE_BOT_PATTERN},
            description="with kind bot, a bot spec (docs/bots.md): a bot's name, then its "
            "parameters after a colon (mcts:time=2); a parameter the bot does not take is "
            "refused (seats.bot), and so is a search budget over the server's limit "
            "(seats.bot-seconds, seats.bot-rounds)",
        ),
    ] = None


def _table_combinations() -> list[JsonValue]:
    """What a new table's schema says of its fields together (JSON Schema ``if``/``then``).

    The preset's player counts, one seat a player, and a bot spec on each bot's seat.
    """
    rules: list[JsonValue] = [
        {
            "if": {"properties": {"preset": {"const": name}}},
            "then": {"properties": {"players": {"enum": list(preset.players)}}},
        }
        for name, preset in sorted(PRESETS.items())
    ]
    rules += [
        {
            "if": {"properties": {"players": {"const": n}}},
            "then": {"properties": {"seats": {"minItems": n, "maxItems": n}}},
        }
        for n in range(2, 7)
    ]
    return rules


class TableIn(Body):
    """A new table."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"allOf": _table_combinations()})

    preset: Annotated[
        str,
        Field(
            max_length=20,
            json_schema_extra={"enum": sorted(PRESETS)},
            description="the preset; it says which player counts it takes (GET /api/presets)",
        ),
    ] = "aberto"
    players: Annotated[int, Field(ge=2, le=6)] = 4
    options: Annotated[
        dict[str, Any],
        Field(
            max_length=60,
            json_schema_extra={
                "properties": {n: option_schema(n) for n in option_names() if n != "players"},
                "additionalProperties": False,
            },
            description="rule options over the preset's (GET /api/presets); options that "
            "contradict one another are refused with the rule they break (rules, options.*)",
        ),
    ] = {}  # noqa: RUF012 (a pydantic default is copied for each instance)
    seats: Annotated[
        list[SeatIn],
        Field(
            min_length=2,
            max_length=6,
            json_schema_extra={
                "contains": {"properties": {"kind": {"const": "me"}}},
                "minContains": 0,
                "maxContains": 1,
            },
            description="one per player (seats.count), at most one of kind me (seats.one)",
        ),
    ]
    public: bool = True
    pace: Annotated[
        float,
        Field(
            json_schema_extra={"minimum": PACES[0], "maximum": PACES[1]},
            description="seconds a bot waits before it moves, 0 to 5",
        ),
    ] = 1.0
    turn_timer: Annotated[
        int,
        Field(json_schema_extra={"enum": [*TURN_TIMERS]}, description="0, 30, 60 or 120 seconds"),
    ] = 0
    minutes: Annotated[
        int,
        Field(
            json_schema_extra={"enum": [*MATCH_MINUTES]},
            description="a timed match: 0 (not timed), 15, 30, 60 or 90 minutes",
        ),
    ] = 0
    rated: Annotated[
        bool, Field(description="a rated match: its end updates the players' ratings")
    ] = False


class JoinIn(Body):
    """Take a seat."""

    seat: Annotated[int, Field(ge=0, le=5)]
    invite: Annotated[str | None, Field(max_length=100)] = None


class TableTournament(Out):
    """Which tournament table a table is."""

    id: str
    turn: int
    table: int


class SeatOut(Out):
    """One seat of a table as everyone sees it (no guest id, no invite code)."""

    seat: int
    kind: Literal["open", "invite", "bot", "guest", "offer"] = Field(
        description="open, kept for the invite link, a bot, a player, or offered to a player "
        "of the match before (a rematch) until they accept or decline"
    )
    name: str
    bot: str | None
    connected: Annotated[bool, Field(description="the player has a connection open")]
    away: Annotated[bool, Field(description="gone longer than the grace period: a bot plays")]
    rating: Annotated[
        int | None,
        Field(description="a player's rating in this preset and player count (μ − 3σ, × 40)"),
    ] = None
    away_in: Annotated[
        float | None,
        Field(description="without a connection, not away yet: seconds left of the grace period"),
    ] = None


class NoticeOut(Out):
    """Something the server tells about a table: the page words ``notice.<key>``."""

    key: Annotated[str, Field(description="the case, e.g. rated.cap")]
    params: Annotated[dict[str, Any], Field(description="the case's values (numbers)")]
    message: Annotated[str, Field(description="the notice in English")]


class TableOut(Out):
    """A table's summary (docs/protocol.md, the table summary)."""

    id: str
    preset: str
    players: int
    options: Annotated[dict[str, Any], Field(description="the options changed from the preset")]
    public: bool
    pace: float
    turn_timer: int
    minutes: int
    rated: Annotated[bool, Field(description="a rated match")] = False
    tournament: Annotated[
        TableTournament | None,
        Field(description="the tournament, turn and table number it plays, if any"),
    ] = None
    started_at: Annotated[float | None, Field(description="the first deal, seconds since 1970")]
    status: Literal["waiting", "playing", "over", "closed"]
    version: int
    hand: Annotated[int | None, Field(description="the hand being played, from 1")]
    totals: list[int] | None
    open_seats: list[int]
    invite_seats: list[int]
    seats: list[SeatOut]
    game: Annotated[int | None, Field(description="the finished game, once the match is over")]
    rematch: Annotated[str | None, Field(description="the rematch table, once made")]
    unrated: Annotated[
        NoticeOut | None,
        Field(
            description="a rated table whose match is not rated, or will not be, and why: "
            "rated.turns (a side made too few turns itself), rated.cap (a week's rated "
            "matches against the same opponents are counted already)"
        ),
    ] = None
    you: Annotated[
        int | None,
        Field(description="in the lobby's list: your seat at this table, if you have one"),
    ] = None


class Created(Out):
    """A table just made, with its invite code when it has one."""

    table: TableOut
    invite: str | None
    link: str


class TablesOut(Out):
    """The public tables waiting for players or being played."""

    tables: list[TableOut]


class TableAnswer(Out):
    """A table, and the seat the asking guest holds there (``you``; null: none)."""

    table: TableOut
    you: int | None = None


# ----- tables ------------------------------------------------------------------------------------
@router.get(
    "/api/tables",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TablesOut}, **refusals(422)},
)
async def list_tables(request: Request, service: Svc, guest: MaybeGuest) -> dict[str, Any]:
    """Public tables waiting for players or being played, and those you sit at (first)."""
    settings: Settings = request.app.state.settings
    tables = []
    for lt in service.tables.values():
        if lt.status not in ("waiting", "playing"):
            continue
        you = lt.seat_of(guest.id) if guest is not None else None
        if lt.public or you is not None:
            tables.append({**lt.summary(settings.grace), "you": you})
    tables.sort(key=lambda t: (t["you"] is None, t["status"] != "waiting", t["id"]))
    return {"tables": tables[:200]}


@router.post(
    "/api/tables",
    response_model=Created,
    status_code=201,
    tags=["tables"],
    responses=refusals(400, 401, 403, 413, 422, 429),
)
async def create_table(body: TableIn, request: Request, service: Svc, guest: NeedGuest) -> Created:
    """Make a table. A rules error names the option (``field``) it is about."""
    if "players" in body.options:
        raise ServiceError("rules.players", field="players")
    spec = TableSpec(
        preset=body.preset,
        players=body.players,
        options=body.options,
        seats=[s.model_dump() for s in body.seats],
        public=body.public,
        pace=body.pace,
        turn_timer=body.turn_timer,
        minutes=body.minutes,
        rated=body.rated,
    )
    lt, invite = await service.create(guest, spec)
    settings: Settings = request.app.state.settings
    link = f"/#/table/{lt.id}" + (f"?invite={invite}" if invite else "")
    return Created(
        table=TableOut.model_validate(lt.summary(settings.grace)), invite=invite, link=link
    )


@router.get(
    "/api/tables/{table_id}",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **refusals(404, 422, 429)},
)
async def get_table(
    table_id: str,
    request: Request,
    service: Svc,
    guest: MaybeGuest,
    invite: Annotated[str | None, Query(max_length=100)] = None,
) -> dict[str, Any]:
    """A table's summary: rules, seats, status, version."""
    lt = await coded(request, lambda: live_table(service, table_id, guest, invite), invite)
    return {
        "table": lt.summary(request.app.state.settings.grace),
        "you": lt.seat_of(guest.id if guest else None),
    }


@router.post(
    "/api/tables/{table_id}/join",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **refusals(401, 403, 404, 409, 413, 422, 429)},
)
async def join_table(
    table_id: str, body: JoinIn, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """Take an open seat, or one kept for the invite link (give its code)."""
    invite = body.invite
    lt = await coded(request, lambda: live_table(service, table_id, guest, invite), invite)
    await coded(request, lambda: service.join(lt, guest, body.seat, invite), invite)
    return {"table": lt.summary(request.app.state.settings.grace), "you": body.seat}


@router.post(
    "/api/tables/{table_id}/leave",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **refusals(401, 404, 409, 422)},
)
async def leave_table(
    table_id: str, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """Give up your seat before the match starts."""
    lt = await live_table(service, table_id, guest, None)
    await service.leave(lt, guest)
    return {"table": lt.summary(request.app.state.settings.grace)}


class HintOut(Out):
    """A suggested move."""

    action: str = Field(description="the move in notation, as the heuristic bot would play it")
    version: int = Field(description="the table's version the hint is for")


@router.get(
    "/api/tables/{table_id}/hint",
    tags=["tables"],
    response_model=HintOut,
    responses=refusals(401, 403, 404, 409, 422),
)
async def hint(table_id: str, service: Svc, guest: NeedGuest) -> HintOut:
    """What the ``heuristic`` bot would play in your seat now (you must be the one to move)."""
    lt = await live_table(service, table_id, guest, None)
    return HintOut(action=service.hint(lt, guest), version=lt.version)


@router.post(
    "/api/tables/{table_id}/resign",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **refusals(401, 403, 404, 409, 422)},
)
async def resign_table(
    table_id: str, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """Concede the match in play: your side loses it now."""
    lt = await live_table(service, table_id, guest, None)
    await service.resign(lt, guest)
    return {"table": lt.summary(request.app.state.settings.grace)}


@router.post(
    "/api/tables/{table_id}/decline",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **refusals(401, 404, 409, 422)},
)
async def decline_table(
    table_id: str, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """Decline the seat a rematch offers you (it opens to anyone)."""
    lt = await live_table(service, table_id, guest, None)
    await service.decline(lt, guest)
    return {"table": lt.summary(request.app.state.settings.grace)}


@router.post(
    "/api/tables/{table_id}/rematch",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **refusals(401, 403, 404, 409, 422)},
)
async def rematch(
    table_id: str, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """A new table with the same rules and players, once the match is over."""
    lt = await live_table(service, table_id, guest, None)
    new = await service.rematch(lt, guest)
    return {"table": new.summary(request.app.state.settings.grace)}
