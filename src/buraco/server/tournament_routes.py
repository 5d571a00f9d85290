"""The REST API of tournaments.

Create one, enter it, fill it with bots, start it, adjust a result, and read its
tables and standings (JSON or CSV).

The service is :mod:`buraco.server.tournaments`; the movements, VP and standings are
:mod:`buraco.tournament` (``docs/tournaments.md``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import AwareDatetime, ConfigDict, Field

from buraco.rules import PRESETS
from buraco.server import i18n
from buraco.server.accounts import Limit
from buraco.server.errors import ServiceError
from buraco.server.http import (
    DISPLAY_NAME,
    ONLINE_BOT_PATTERN,
    Body,
    MaybeGuest,
    NeedGuest,
    Out,
    address,
    before_code,
    coded,
    refusals,
    wrong_code,
)
from buraco.server.service import MATCH_MINUTES
from buraco.server.settings import Settings
from buraco.server.tournaments import BREAKS, Tournaments, TournamentSpec, individual_of
from buraco.tournament.event import MAX_TURNS
from buraco.tournament.pairing import MAX_ENTRANTS
from buraco.tournament.report import standings_csv, standings_html

router = APIRouter(tags=["tournaments"])

BOT_SPEC: dict[str, Any] = {"pattern": ONLINE_BOT_PATTERN}


def tournaments_of(request: Request) -> Tournaments:
    """The app's tournaments."""
    found: Tournaments = request.app.state.tournaments
    return found


Tours = Annotated[Tournaments, Depends(tournaments_of)]
Secret = Annotated[
    str | None,
    Query(max_length=100, description="the director's secret (from the link given at creation)"),
]


class TournamentIn(Body):
    """A new tournament."""

    # duplicate deals need the hands played out: no time a turn
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "allOf": [
                {
                    "if": {"properties": {"duplicate": {"const": True}}, "required": ["duplicate"]},
                    "then": {"properties": {"minutes": {"const": 0}}},
                },
                {
                    # players at tables of 4, a new partner each turn: every turn Swiss
                    "if": {
                        "properties": {"individual": {"const": True}},
                        "required": ["individual"],
                    },
                    "then": {
                        "properties": {
                            "players": {"const": 4},
                            "movements": {"items": {"const": "swiss"}},
                        }
                    },
                },
            ]
        },
    )

    name: Annotated[str, Field(max_length=200, json_schema_extra=DISPLAY_NAME)]
    preset: Annotated[str, Field(max_length=20, json_schema_extra={"enum": sorted(PRESETS)})] = (
        "italiano"
    )
    players: Annotated[
        Literal[2, 4], Field(description="4: entrants are pairs; 2: entrants are players")
    ] = 4
    movements: Annotated[
        list[Literal["mitchell", "danish", "danish-modified", "swiss", "round-robin"]],
        Field(min_length=1, max_length=MAX_TURNS, description="the movement of each turn"),
    ]
    hands: Annotated[int, Field(ge=3, le=4, description="hands a turn: its VP scale follows")] = 3
    duplicate: Annotated[
        bool, Field(description="every table of a turn is dealt the same cards")
    ] = False
    pace: Annotated[float, Field(ge=0, le=5, description="seconds a bot waits to move")] = 1.0
    break_seconds: Annotated[
        int, Field(ge=BREAKS[0], le=BREAKS[1], description="between a turn's end and the next")
    ] = 60
    minutes: Annotated[
        int,
        Field(
            json_schema_extra={"enum": [*MATCH_MINUTES]},
            description="a turn's time: after it, each table ends with the hand in play (0: "
            "its hands are played out)",
        ),
    ] = 0
    rated: Annotated[bool, Field(description="each table's end updates its players' ratings")] = (
        False
    )
    individual: Annotated[
        bool,
        Field(
            description="entrants are players at tables of 4, with a new partner each turn "
            "(players 4, every movement swiss)"
        ),
    ] = False
    starts_at: Annotated[
        AwareDatetime | None,
        Field(
            description="when it starts by itself (in the next 30 days; with fewer entries "
            "than it needs, it waits for its director); absent: when its director starts it"
        ),
    ] = None


class EntryIn(Body):
    """An entry: yourself, and (tables of 4) a bot partner or a place kept for a partner."""

    partner: Annotated[
        str | None,
        Field(
            max_length=200,
            json_schema_extra=BOT_SPEC,
            description="a bot spec for a bot partner; absent: a place a partner joins",
        ),
    ] = None


class JoinEntryIn(Body):
    """The code that opens a partner's place (its entrant has it)."""

    code: Annotated[str, Field(min_length=1, max_length=40)]


class BotsIn(Body):
    """Entries of bots, to fill a short field."""

    count: Annotated[int, Field(ge=1, le=MAX_ENTRANTS)]
    bot: Annotated[str, Field(max_length=200, json_schema_extra=BOT_SPEC)] = "heuristic"


class AdjustIn(Body):
    """The director's VP for one table (both absent: the scale's VP again)."""

    turn: Annotated[int, Field(ge=1, le=MAX_TURNS)]
    table: Annotated[int, Field(ge=1, le=MAX_ENTRANTS)]
    ns_vp: Annotated[int | None, Field(ge=0, le=20)] = None
    ew_vp: Annotated[int | None, Field(ge=0, le=20)] = None
    note: Annotated[str, Field(max_length=200)] = ""


class MemberOut(Out):
    """A member of an entry."""

    kind: Literal["player", "bot", "open"]
    name: str | None


class EntryOut(Out):
    """An entrant."""

    number: int = Field(description="from 0: the entrant's number in turns and standings")
    name: str
    members: list[MemberOut]


class TableOut(Out):
    """A table of a turn, and its result once it is over."""

    table: int
    ns: int
    ew: int | None = Field(description="null: NS has a bye")
    ns_partner: int | None = Field(description="an individual tournament: NS's partner")
    ew_partner: int | None = Field(description="an individual tournament: EW's partner")
    table_id: str | None
    status: str | None
    ns_mp: int | None
    ew_mp: int | None
    vp: list[int] | None
    note: str | None
    resigned: Literal["ns", "ew"] | None = Field(
        default=None,
        description="the side that resigned: it loses the table (0 VP; the other side a bye's "
        "VP, or more if it had earned more)",
    )


class TurnOut(Out):
    """A turn: its movement and tables."""

    turn: int
    movement: str
    tables: list[TableOut]


class StandingOut(Out):
    """An entrant's place."""

    place: int
    entrant: int
    name: str
    vp: int
    mp_for: int
    mp_against: int
    played: int


class TournamentOut(Out):
    """A tournament as everyone sees it."""

    id: str
    director: bool = Field(description="whether you direct it (its maker, or with its secret)")
    name: str
    preset: str
    players: int
    status: Literal["open", "playing", "over"]
    pace: float
    break_seconds: int
    minutes: int
    rated: bool
    next_turn_in: float | None = Field(description="seconds until the next turn starts")
    entries: list[EntryOut]
    you: int | None = Field(description="your entry's number, if you are entered")
    partner_code: str | None = Field(
        description="the code of your entry's partner place, for you to pass on (yours only)"
    )
    movements: list[str]
    hands: int
    duplicate: bool
    individual: bool = Field(description="entrants are players, a new partner each turn")
    starts_at: float | None = Field(
        description="open: when it starts by itself (seconds since the epoch), if it has a time"
    )
    turn: int
    turns: list[TurnOut]
    standings: list[StandingOut]


class CreatedOut(Out):
    """A new tournament, its director's secret and the link that carries it."""

    tournament: TournamentOut
    secret: str
    link: str


class TournamentsOut(Out):
    """Tournaments open for entries or being played, then the last ones over."""

    tournaments: list[dict[str, Any]]


async def _director(
    request: Request, tours: Tournaments, tid: str, guest: Any, secret: str | None
) -> None:
    row, _ = await tours.get(tid)
    if not await _directs(request, tours, row, guest, secret):
        raise ServiceError("tournament.director", status=403)


async def _directs(
    request: Request, tours: Tournaments, row: Any, guest: Any, secret: str | None
) -> bool:
    """Whether the asker directs the tournament (its maker, or with its secret).

    A wrong secret is counted: past the address's limit of wrong codes, 429, and even the
    right one is refused.
    """
    if not secret or (guest is not None and guest.id == row.created_by):
        return bool(tours.is_director(row, guest, None))
    await before_code(request)
    if tours.is_director(row, guest, secret):
        return True
    await wrong_code(request)
    return False


@router.post(
    "/api/tournaments",
    response_model=CreatedOut,
    status_code=201,
    responses=refusals(400, 401, 403, 413, 422, 429),
)
async def create_tournament(
    body: TournamentIn, request: Request, tours: Tours, guest: NeedGuest
) -> dict[str, Any]:
    """Make a tournament (you direct it); the secret link lets another browser direct it.

    Limited per address (429 ``limit.tries``), per player, for guests all together and on
    the whole site (429 ``tournament.yours``, ``tournament.many-guests``,
    ``tournament.many``).
    """
    settings: Settings = request.app.state.settings
    limit = Limit("tournament", settings.tournaments_per_address)
    await request.app.state.gate.check(limit, address(request))
    spec = TournamentSpec(
        name=body.name,
        preset=body.preset,
        players=body.players,
        movements=list(body.movements),
        hands=body.hands,
        duplicate=body.duplicate,
        pace=body.pace,
        break_seconds=body.break_seconds,
        minutes=body.minutes,
        rated=body.rated,
        individual=body.individual,
        starts_at=body.starts_at.timestamp() if body.starts_at is not None else None,
    )
    row, secret = await tours.create(guest, spec)
    return {
        "tournament": await tours.view(row.id, guest),
        "secret": secret,
        "link": f"/#/tournament/{row.id}?secret={secret}",
    }


@router.get("/api/tournaments", response_model=TournamentsOut, responses=refusals())
async def list_tournaments(tours: Tours) -> dict[str, Any]:
    """Tournaments open for entries or being played, then the last ones over."""
    rows = await tours.store.tournaments()
    return {
        "tournaments": [
            {
                "id": r.id,
                "name": r.name,
                "preset": r.preset,
                "players": r.players,
                "individual": individual_of(r),
                "status": r.status,
            }
            for r in rows
        ]
    }


@router.get(
    "/api/tournaments/{tid}", response_model=TournamentOut, responses=refusals(404, 422, 429)
)
async def get_tournament(
    tid: str, request: Request, tours: Tours, guest: MaybeGuest, secret: Secret = None
) -> dict[str, Any]:
    """A tournament: entries, each turn's tables and results, the standings."""
    if secret:
        row, _ = await tours.get(tid)
        await _directs(request, tours, row, guest, secret)
    return await tours.view(tid, guest, secret)


@router.post(
    "/api/tournaments/{tid}/entries",
    response_model=TournamentOut,
    responses=refusals(400, 401, 403, 404, 409, 413, 422),
)
async def enter_tournament(
    tid: str, body: EntryIn, tours: Tours, guest: NeedGuest
) -> dict[str, Any]:
    """Enter: yourself, with a bot partner or a place kept for a partner who joins."""
    await tours.enter(tid, guest, body.partner)
    return await tours.view(tid, guest)


@router.post(
    "/api/tournaments/{tid}/entries/{number}/join",
    response_model=TournamentOut,
    responses=refusals(401, 403, 404, 409, 413, 422, 429),
)
async def join_entry(
    tid: str,
    number: Annotated[int, Path(ge=0, le=MAX_ENTRANTS)],
    body: JoinEntryIn,
    request: Request,
    tours: Tours,
    guest: NeedGuest,
) -> dict[str, Any]:
    """Take the partner's place kept in an entry, with the code its entrant passed on.

    Wrong codes are limited per address (429 ``limit.tries``).
    """
    await coded(request, lambda: tours.join(tid, number, guest, body.code), body.code)
    return await tours.view(tid, guest)


@router.post(
    "/api/tournaments/{tid}/entries/{number}/withdraw",
    response_model=TournamentOut,
    responses=refusals(403, 404, 409, 422, 429),
)
async def withdraw_entry(
    tid: str,
    number: Annotated[int, Path(ge=0, le=MAX_ENTRANTS)],
    request: Request,
    tours: Tours,
    guest: MaybeGuest,
    secret: Secret = None,
) -> dict[str, Any]:
    """Take an entry out before the start: one of its members, or the director."""
    row, _ = await tours.get(tid)
    await tours.withdraw(tid, number, guest, await _directs(request, tours, row, guest, secret))
    return await tours.view(tid, guest, secret)


@router.post(
    "/api/tournaments/{tid}/bots",
    response_model=TournamentOut,
    responses=refusals(400, 403, 404, 409, 413, 422, 429),
)
async def add_bots(
    tid: str,
    body: BotsIn,
    request: Request,
    tours: Tours,
    guest: MaybeGuest,
    secret: Secret = None,
) -> dict[str, Any]:
    """Fill the field with entries of bots (the director)."""
    await _director(request, tours, tid, guest, secret)
    await tours.add_bots(tid, body.count, body.bot)
    return await tours.view(tid, guest, secret)


@router.post(
    "/api/tournaments/{tid}/start",
    response_model=TournamentOut,
    responses=refusals(403, 404, 409, 422, 429),
)
async def start_tournament(
    tid: str, request: Request, tours: Tours, guest: MaybeGuest, secret: Secret = None
) -> dict[str, Any]:
    """Close the entries and start the first turn: its tables are made and seated."""
    await _director(request, tours, tid, guest, secret)
    await tours.begin(tid)
    return await tours.view(tid, guest, secret)


@router.post(
    "/api/tournaments/{tid}/adjust",
    response_model=TournamentOut,
    responses=refusals(400, 403, 404, 409, 413, 422, 429),
)
async def adjust_result(
    tid: str,
    body: AdjustIn,
    request: Request,
    tours: Tours,
    guest: MaybeGuest,
    secret: Secret = None,
) -> dict[str, Any]:
    """Set a table's VP as the director decides, with the reason (kept and shown)."""
    await _director(request, tours, tid, guest, secret)
    vp: tuple[int, int] | None = None
    if body.ns_vp is not None and body.ew_vp is not None:
        vp = (body.ns_vp, body.ew_vp)
    elif body.ns_vp is not None or body.ew_vp is not None:
        raise ServiceError("tournament.both-vp")
    await tours.adjust(tid, body.turn, body.table, vp, body.note)
    return await tours.view(tid, guest, secret)


@router.get(
    "/api/tournaments/{tid}/standings.csv",
    response_model=None,
    responses={
        200: {
            "description": "the standings (CSV)",
            "content": {"text/csv": {"schema": {"type": "string"}}},
        },
        **refusals(404, 409, 422),
    },
)
async def standings_file(tid: str, tours: Tours) -> Response:
    """The standings as CSV (place, entrant, VP, MP for and against, played, byes)."""
    row, t = await tours.started(tid)
    # with a byte-order mark, so that spreadsheets read the names' accents as UTF-8
    return Response(
        "\ufeff" + standings_csv(t),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{row.id}.csv"'},
    )


@router.get(
    "/api/tournaments/{tid}/standings.html",
    response_model=None,
    responses={
        200: {
            "description": "a page to print: the standings and every turn's tables",
            "content": {"text/html": {"schema": {"type": "string"}}},
        },
        **refusals(404, 409, 422),
    },
)
async def standings_page(
    tid: str,
    tours: Tours,
    request: Request,
    lang: Annotated[str | None, Query(max_length=20, description="pt-BR, es, it or en")] = None,
) -> Response:
    """A page to print or publish: the standings and every turn's tables (names escaped).

    In the language asked (``lang``), else the player's (cookie), else the browser's.
    """
    _, t = await tours.started(tid)
    language = i18n.negotiate(
        lang, request.cookies.get(i18n.COOKIE), request.headers.get("accept-language")
    )
    page = standings_html(t, words=i18n.messages(language), lang=language)
    return Response(page, media_type="text/html", headers={"Content-Language": language})
