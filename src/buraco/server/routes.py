"""The HTTP routes: the web page, the REST API, the WebSocket endpoint and ``/healthz``.

The REST API is described by the OpenAPI schema at ``/openapi.json`` (browsable at
``/docs``); play goes over the WebSocket (``docs/protocol.md``).
"""

from __future__ import annotations

import html
import json
import re
import secrets
from datetime import UTC, datetime
from functools import lru_cache
from importlib.resources import files
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Cookie, Depends, Query, Request, Response, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from buraco.bots import BOTS
from buraco.cards import CARD_NAMES
from buraco.errors import BuracoError
from buraco.game import MAX_NAME, Game
from buraco.record import replay
from buraco.rules import (
    OPTION_HELP,
    OPTION_TOPICS,
    PRESETS,
    _choices,
    make_rules,
    option_bounds,
    option_names,
    option_schema,
)
from buraco.server import i18n
from buraco.server.accounts import Limit, name_key
from buraco.server.errors import ServiceError
from buraco.server.service import (
    MATCH_MINUTES,
    OFFLINE_BOTS,
    PACES,
    SEAT_KINDS,
    TURN_TIMERS,
    Guest,
    TableService,
    TableSpec,
    check_name,
    token_hash,
)
from buraco.server.settings import Settings
from buraco.server.store import Store
from buraco.server.tables import LiveTable
from buraco.server.ws import CLOSE_HELD, CLOSE_NOT_FOUND, serve_table
from buraco.text import CONTROLS
from buraco.views import seat_view, spectator_view

COOKIE = "buraco_guest"
"""The cookie holding a guest's secret token (HttpOnly)."""

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a table id may be (ids are made by ``secrets.token_urlsafe``); anything else is no table."""

MAX_GAME_ID = 2**31 - 1
"""The largest game id the database can hold (a 32-bit integer column)."""

router = APIRouter()


# ----- dependencies ------------------------------------------------------------------------------
def service_of(request: Request) -> TableService:
    """The app's table service."""
    svc: TableService = request.app.state.service
    return svc


async def guest_of(
    request: Request, buraco_guest: Annotated[str | None, Cookie()] = None
) -> Guest | None:
    """The guest whose token is in the cookie, if any."""
    return await _guest(request.app.state.service, buraco_guest)


async def _guest(service: TableService, token: str | None) -> Guest | None:
    if not token or len(token) > 100:
        return None
    row = await service.store.guest_by_token(token_hash(token))
    return Guest(row.id, row.name, row.password_hash is not None) if row else None


async def need_guest(guest: Annotated[Guest | None, Depends(guest_of)]) -> Guest:
    """The guest, or 401 asking for a name first."""
    if guest is None:
        raise ServiceError("guest", status=401)
    return guest


Svc = Annotated[TableService, Depends(service_of)]
MaybeGuest = Annotated[Guest | None, Depends(guest_of)]
NeedGuest = Annotated[Guest, Depends(need_guest)]


async def _table(
    service: TableService, table_id: str, guest: Guest | None, invite: str | None
) -> LiveTable:
    lt = await service.get(table_id) if TABLE_ID.fullmatch(table_id) else None
    if lt is None or not service.may_see(lt, guest, invite):
        raise ServiceError("not-found.table", status=404, table=repr(table_id[:40]))
    return lt


# ----- models ------------------------------------------------------------------------------------
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


DISPLAY_NAME: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_NAME,
    "pattern": f"^[^{CONTROLS}]*$",
    "format": "display-name",
    "description": (
        f"1 to {MAX_NAME} characters, no control characters, at least one of them a letter, "
        "digit, punctuation mark or symbol (format display-name: Unicode categories L, N, P "
        "or S); spaces around it are trimmed. Unique: a name another player holds after "
        "NFKC, case folding and confusable skeletons (Unicode TS #39) is refused (name.taken)"
    ),
}
"""The JSON Schema of a display name (what :func:`check_name` and ``name.taken`` accept)."""


class NameIn(_Body):
    """A display name."""

    name: Annotated[str, Field(json_schema_extra=DISPLAY_NAME)]


class GuestOut(BaseModel):
    """A player: an id others see in game lists, a display name, and whether it is an account.

    An account is a name claimed with a password.
    """

    id: str
    name: str
    account: bool = False


ONLINE_BOT_PATTERN = f"^({'|'.join(b for b in BOTS if b not in OFFLINE_BOTS)})(:.*)?$"
"""The JSON Schema pattern of a bot spec a server takes (the bots offered online)."""


class SeatIn(_Body):
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


class TableIn(_Body):
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
    ] = {}
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


class JoinIn(_Body):
    """Take a seat."""

    seat: Annotated[int, Field(ge=0, le=5)]
    invite: Annotated[str | None, Field(max_length=100)] = None


class _Out(BaseModel):
    """A response as the schema documents it: no key beyond those listed."""

    model_config = ConfigDict(extra="forbid")


class TableTournament(_Out):
    """Which tournament table a table is."""

    id: str
    turn: int
    table: int


class SeatOut(_Out):
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


class TableOut(_Out):
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
    you: Annotated[
        int | None,
        Field(description="in the lobby's list: your seat at this table, if you have one"),
    ] = None


class Created(_Out):
    """A table just made, with its invite code when it has one."""

    table: TableOut
    invite: str | None
    link: str


class TablesOut(_Out):
    """The public tables waiting for players or being played."""

    tables: list[TableOut]


class TableAnswer(_Out):
    """A table, and the seat the asking guest holds there (``you``; null: none)."""

    table: TableOut
    you: int | None = None


class GameOut(_Out):
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


class GamesOut(_Out):
    """Finished games, newest first."""

    games: list[GameOut]


class ReplayOut(_Out):
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


class PresetOut(_Out):
    """A preset: its player counts and every option's value for each count."""

    name: str
    title: str
    players: list[int]
    defaults: dict[str, dict[str, Any]]


class OptionOut(_Out):
    """A rule option: its kind and, for a whole number, its bounds."""

    name: str
    help: str
    topic: str = Field(description="the option's topic: deal, values, melds, pile, canastras, …")
    type: Literal["choice", "bool", "int", "sizes", "text"]
    choices: list[str] | None = None
    min: int | None = None
    max: int | None = None


class PresetsOut(_Out):
    """Every preset and every rule option."""

    presets: list[PresetOut]
    options: list[OptionOut]


class LanguageOut(_Out):
    """A language the page is offered in."""

    tag: str = Field(description="BCP 47 tag: en, pt-BR, es, it")
    name: str = Field(description="the language's name in itself")


class CatalogOut(_Out):
    """The page's words in one language."""

    language: str = Field(description="the language chosen for the request (a tag)")
    languages: list[LanguageOut]
    messages: dict[str, str] = Field(
        description="every key's text: {name} a parameter, {@name} a term of the game"
    )


class Health(_Out):
    """Whether the database can be read and written, and how often bot workers were replaced."""

    ok: bool
    bot_restarts: int = 0


class ErrorDetail(_Out):
    """What was refused and why."""

    code: Annotated[str, Field(description="what kind of refusal, e.g. name, rules, not-found")]
    key: Annotated[
        str, Field(description="the case, e.g. name.length: the page words error.<key>")
    ] = ""
    params: Annotated[
        dict[str, Any], Field(description="the case's values (numbers, names, identifiers)")
    ] = {}
    message: Annotated[str, Field(description="what is wrong and what is allowed, in English")]
    field: Annotated[str, Field(description="the request field it is about")] = ""
    rule: Annotated[str, Field(description="the engine's rule identifier")] = ""
    refusal: Annotated[
        dict[str, Any] | None,
        Field(description="the engine's refusal: {code, params} (docs/notation.md)"),
    ] = None


class ErrorOut(_Out):
    """Every refusal of the REST API has this shape, with the HTTP status."""

    error: ErrorDetail


_REFUSALS = {
    400: "a value the server does not allow (the message says what is)",
    401: "no guest: choose a name first (POST /api/guests)",
    403: "not allowed: a private table or an invite seat without its code, not a player",
    404: "no such table, game, seat or hand",
    409: "not now: the match started, the seat is taken, the match is not over, or the table "
    "changed under this server",
    413: "a request body over 64 KiB",
    422: "a malformed request: not JSON, a missing or extra key, a wrong type",
    429: "a guest's limit of unfinished tables",
    503: "the database is not answering: nothing was done; try again (Retry-After)",
}


def _refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route's refusals, each with the one error shape.

    Every route that reads the database may also answer 503 while it is away.
    """
    return {s: {"model": ErrorOut, "description": _REFUSALS[s]} for s in (*statuses, 503)}


# ----- guests ------------------------------------------------------------------------------------
@router.post(
    "/api/guests",
    response_model=GuestOut,
    tags=["guests"],
    responses=_refusals(400, 409, 413, 422, 429),
)
async def new_guest(
    body: NameIn, request: Request, response: Response, service: Svc, guest: MaybeGuest
) -> GuestOut:
    """Choose a display name.

    A new guest gets a secret token in an HttpOnly cookie; the guest of a cookie gets
    a new name.
    """
    name = check_name(body.name)
    holder = await service.store.account_by_key(name_key(name))
    if holder is not None and (guest is None or holder.id != guest.id):
        raise ServiceError("name.taken", field="name")
    if guest is not None:
        if guest.account and holder is None:
            raise ServiceError("name.account", field="name")
        await service.store.rename_guest(guest.id, name)
        return GuestOut(id=guest.id, name=name, account=guest.account)
    settings: Settings = request.app.state.settings
    request.app.state.gate.check(Limit("guest", settings.guests_per_address), address(request))
    token = secrets.token_urlsafe(32)
    guest_id = secrets.token_urlsafe(12)
    await service.store.add_guest(guest_id, token_hash(token), name)
    set_session_cookie(response, token, settings)
    return GuestOut(id=guest_id, name=name)


def set_session_cookie(response: Response, token: str, settings: Settings) -> None:
    """Give a browser its session's token: HttpOnly, SameSite=Lax, Secure behind TLS."""
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookie,
        max_age=400 * 24 * 3600,
    )


def address(request: Request) -> str:
    """The address a request came from (the proxy's, unless it forwards the client's)."""
    return request.client.host if request.client else "unknown"


@router.get("/api/me", response_model=GuestOut, tags=["guests"], responses=_refusals(401, 422))
async def me(guest: NeedGuest) -> GuestOut:
    """The guest of the cookie (401 without one)."""
    return GuestOut(id=guest.id, name=guest.name, account=guest.account)


# ----- languages ---------------------------------------------------------------------------------
@router.get(
    "/api/i18n",
    tags=["page"],
    response_model=None,
    responses={
        200: {"model": CatalogOut},
        422: {"model": ErrorOut, "description": _REFUSALS[422]},
    },
)
async def catalog(
    request: Request, lang: Annotated[str | None, Query(max_length=20)] = None
) -> JSONResponse:
    """The page's words in one language.

    ``lang``, else the ``lang`` cookie, else the browser's ``Accept-Language``, else English
    (``docs/online.md``).
    """
    language = _language(request, lang)
    body = {
        "language": language,
        "languages": i18n.language_names(),
        "messages": i18n.messages(language),
    }
    return JSONResponse(
        body, headers={"Cache-Control": "no-cache", "Vary": "Accept-Language, Cookie"}
    )


# ----- rules -------------------------------------------------------------------------------------
@router.get(
    "/api/presets", tags=["rules"], response_model=None, responses={200: {"model": PresetsOut}}
)
async def presets() -> dict[str, Any]:
    """Every preset with its player counts and default options, and every option's kind."""
    return _presets()


@lru_cache(maxsize=1)
def _presets() -> dict[str, Any]:
    out: dict[str, Any] = {"presets": [], "options": []}
    for name, p in PRESETS.items():
        defaults = {}
        for n in p.players:
            # every option's value in this preset for n players (not only those it changes)
            opts = make_rules(name, players=n).options()
            defaults[str(n)] = {k: list(v) if isinstance(v, tuple) else v for k, v in opts.items()}
        out["presets"].append(
            {"name": name, "title": p.title, "players": list(p.players), "defaults": defaults}
        )
    from buraco.rules import _HINTS

    for name in option_names():
        if name == "players":
            continue
        hint = _HINTS[name]
        info: dict[str, Any] = {
            "name": name,
            "help": OPTION_HELP.get(name, ""),
            "topic": OPTION_TOPICS[name],
        }
        choices = _choices(name)
        if choices is not None:
            info.update(type="choice", choices=list(choices))
        elif hint is bool:
            info["type"] = "bool"
        elif hint is int:
            low, high = option_bounds(name)
            info.update(type="int", min=low, max=high)
        elif name == "pot_sizes":
            info["type"] = "sizes"
        else:
            info["type"] = "text"
        out["options"].append(info)
    return out


# ----- tables ------------------------------------------------------------------------------------
@router.get(
    "/api/tables",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TablesOut}, **_refusals(422)},
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
    responses=_refusals(400, 401, 413, 422, 429),
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
    responses={200: {"model": TableAnswer}, **_refusals(404, 422)},
)
async def get_table(
    table_id: str,
    request: Request,
    service: Svc,
    guest: MaybeGuest,
    invite: Annotated[str | None, Query(max_length=100)] = None,
) -> dict[str, Any]:
    """A table's summary: rules, seats, status, version."""
    lt = await _table(service, table_id, guest, invite)
    return {
        "table": lt.summary(request.app.state.settings.grace),
        "you": lt.seat_of(guest.id if guest else None),
    }


@router.post(
    "/api/tables/{table_id}/join",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **_refusals(401, 403, 404, 409, 413, 422)},
)
async def join_table(
    table_id: str, body: JoinIn, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """Take an open seat, or one kept for the invite link (give its code)."""
    lt = await _table(service, table_id, guest, body.invite)
    await service.join(lt, guest, body.seat, body.invite)
    return {"table": lt.summary(request.app.state.settings.grace), "you": body.seat}


@router.post(
    "/api/tables/{table_id}/leave",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **_refusals(401, 404, 409, 422)},
)
async def leave_table(
    table_id: str, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """Give up your seat before the match starts."""
    lt = await _table(service, table_id, guest, None)
    await service.leave(lt, guest)
    return {"table": lt.summary(request.app.state.settings.grace)}


class HintOut(_Out):
    """A suggested move."""

    action: str = Field(description="the move in notation, as the heuristic bot would play it")
    version: int = Field(description="the table's version the hint is for")


@router.get(
    "/api/tables/{table_id}/hint",
    tags=["tables"],
    response_model=HintOut,
    responses=_refusals(401, 403, 404, 409, 422),
)
async def hint(table_id: str, service: Svc, guest: NeedGuest) -> HintOut:
    """What the ``heuristic`` bot would play in your seat now (you must be the one to move)."""
    lt = await _table(service, table_id, guest, None)
    return HintOut(action=service.hint(lt, guest), version=lt.version)


@router.post(
    "/api/tables/{table_id}/resign",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **_refusals(401, 403, 404, 409, 422)},
)
async def resign_table(
    table_id: str, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """Concede the match in play: your side loses it now."""
    lt = await _table(service, table_id, guest, None)
    await service.resign(lt, guest)
    return {"table": lt.summary(request.app.state.settings.grace)}


@router.post(
    "/api/tables/{table_id}/decline",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **_refusals(401, 404, 409, 422)},
)
async def decline_table(
    table_id: str, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """Decline the seat a rematch offers you (it opens to anyone)."""
    lt = await _table(service, table_id, guest, None)
    await service.decline(lt, guest)
    return {"table": lt.summary(request.app.state.settings.grace)}


@router.post(
    "/api/tables/{table_id}/rematch",
    tags=["tables"],
    response_model=None,
    responses={200: {"model": TableAnswer}, **_refusals(401, 403, 404, 409, 422)},
)
async def rematch(
    table_id: str, request: Request, service: Svc, guest: NeedGuest
) -> dict[str, Any]:
    """A new table with the same rules and players, once the match is over."""
    lt = await _table(service, table_id, guest, None)
    new = await service.rematch(lt, guest)
    return {"table": new.summary(request.app.state.settings.grace)}


# ----- finished games ----------------------------------------------------------------------------
def _utc(at: datetime) -> str:
    """A stored time in ISO 8601 with its offset (SQLite gives the UTC time back without it)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).isoformat()


def _game_summary(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "table": row.table_id,
        "finished_at": _utc(row.finished_at),
        "preset": row.preset,
        "players": row.players,
        "names": json.loads(row.names),
        "totals": json.loads(row.totals),
        "winner": row.winner,
        "hands": row.hands,
    }


@router.get(
    "/api/games",
    tags=["games"],
    response_model=None,
    responses={200: {"model": GamesOut}, **_refusals(401, 422)},
)
async def list_games(
    service: Svc,
    guest: MaybeGuest,
    mine: bool = False,
    table: Annotated[str | None, Query(max_length=32)] = None,
) -> dict[str, Any]:
    """Finished games, newest first: every game, yours (``mine``), or a table's."""
    if table is not None:
        row = await service.store.game_of_table(table) if TABLE_ID.fullmatch(table) else None
        return {"games": [_game_summary(row)] if row else []}
    if mine and guest is None:
        raise ServiceError("guest", status=401)
    rows = await service.store.games(guest_id=guest.id if mine and guest else None)
    return {"games": [_game_summary(r) for r in rows]}


async def _game(service: TableService, game_id: int) -> Any:
    row = await service.store.game(game_id) if 0 < game_id <= MAX_GAME_ID else None
    if row is None:
        raise ServiceError("not-found.game", status=404, game=game_id)
    return row


@router.get(
    "/api/games/{game_id}",
    tags=["games"],
    response_model=None,
    responses={200: {"model": GameOut}, **_refusals(404, 422)},
)
async def get_game(game_id: int, service: Svc) -> dict[str, Any]:
    """A finished game's summary."""
    return _game_summary(await _game(service, game_id))


@router.get(
    "/api/games/{game_id}/record",
    tags=["games"],
    responses={
        200: {
            "description": "the game record (docs/records.md)",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        **_refusals(404, 409, 422),
    },
)
async def game_record(game_id: int, service: Svc) -> Response:
    """The game record (JSON), with each hand's commitment and salt: ``buraco verify`` checks it.

    A duplicate tournament's game is held back (409) while its turn is played elsewhere.
    """
    row = await _game(service, game_id)
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
    responses={200: {"model": ReplayOut}, **_refusals(404, 409, 422)},
)
async def game_replay(
    game_id: int,
    service: Svc,
    hand: Annotated[int, Query(ge=1, le=1000)] = 1,
    step: Annotated[int, Query(ge=0, le=100_000)] = 0,
) -> dict[str, Any]:
    """The position after ``step`` actions of ``hand``, with every hand shown.

    As ``buraco replay --watch`` shows it: a finished game hides nothing.
    """
    row = await _game(service, game_id)
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


# ----- health and the page -----------------------------------------------------------------------
@router.get(
    "/healthz",
    tags=["server"],
    response_model=None,
    responses={
        200: {"model": Health},
        503: {"model": Health, "description": "the database does not answer"},
    },
)
async def healthz(request: Request) -> JSONResponse:
    """200 when the database can be read and written, else 503.

    ``bot_restarts``: how many times a dead bot worker was replaced since the start.
    """
    store: Store = request.app.state.store
    ok = await store.healthy()
    restarts = request.app.state.service.pool.restarts
    return JSONResponse({"ok": ok, "bot_restarts": restarts}, status_code=200 if ok else 503)


@lru_cache(maxsize=len(i18n.LANGUAGES))
def _index(language: str) -> str:
    page = files("buraco.server").joinpath("web/index.html").read_text(encoding="utf-8")
    words = i18n.messages(language)
    for marker, text in (
        ("__LANG__", language),
        ("__TITLE__", words["title.page"]),
        ("__LOADING__", words["page.loading"]),
        ("__NOSCRIPT__", words["page.noscript"]),
    ):
        page = page.replace(marker, html.escape(text))
    return page


def _language(request: Request, lang: str | None = None) -> str:
    return i18n.negotiate(
        lang, request.cookies.get(i18n.COOKIE), request.headers.get("accept-language")
    )


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def index(request: Request) -> HTMLResponse:
    """The web page (one page: lobby, table, replays), in the request's language."""
    return HTMLResponse(
        _index(_language(request)),
        headers={
            "Content-Security-Policy": (
                "default-src 'self'; script-src 'self'; style-src 'self'; "
                "connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
            ),
            "X-Content-Type-Options": "nosniff",
        },
    )


@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    ws: WebSocket, table_id: str, invite: str | None = None, since: int | None = None
) -> None:
    """A connection at a table (``docs/protocol.md``)."""
    service: TableService = ws.app.state.service
    guest = await _guest(service, ws.cookies.get(COOKIE))
    lt = await service.get(table_id) if TABLE_ID.fullmatch(table_id) else None
    if lt is None or not service.may_see(
        lt, guest, invite if invite and len(invite) <= 100 else None
    ):
        # accepted first, so the browser sees the close code and its reason
        await ws.accept()
        await ws.close(code=CLOSE_NOT_FOUND, reason="no such table")
        return
    # a duplicate tournament's table: its cards are every table's of the turn, so only its
    # players see it until the whole turn is over
    watcher = lt.seat_of(guest.id if guest else None) is None
    if lt.holds_decks and watcher and await service.store.holds_table(lt.id):
        await ws.accept()
        await ws.send_text(json.dumps({"type": "error", **ServiceError("game.held").as_dict()}))
        await ws.close(code=CLOSE_HELD, reason="played elsewhere still")
        return
    await ws.accept()
    await serve_table(ws, service, ws.app.state.settings, lt, guest, since)
