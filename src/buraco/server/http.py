"""What every route module shares.

The dependencies (the service, the guest of the cookie), the request and response bases, the one
shape of a refusal, the session cookie and the limit on wrong codes.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from fastapi import Cookie, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from buraco.bots import BOTS, NAMED
from buraco.game import MAX_NAME
from buraco.server.accounts import Limit
from buraco.server.errors import ServiceError
from buraco.server.service import (
    OFFLINE_BOTS,
    Guest,
    TableService,
    token_hash,
)
from buraco.server.settings import Settings
from buraco.server.tables import LiveTable
from buraco.text import CONTROLS

T = TypeVar("T")

COOKIE = "buraco_guest"
"""The cookie holding a guest's secret token (HttpOnly)."""

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a table id may be (ids are made by ``secrets.token_urlsafe``); anything else is no table."""

MAX_GAME_ID = 2**31 - 1
"""The largest game id the database can hold (a 32-bit integer column)."""


# ----- dependencies ------------------------------------------------------------------------------
def service_of(request: Request) -> TableService:
    """The app's table service."""
    svc: TableService = request.app.state.service
    return svc


async def guest_of(
    request: Request, buraco_guest: Annotated[str | None, Cookie()] = None
) -> Guest | None:
    """The guest whose token is in the cookie, if any."""
    return await guest_by_token(request.app.state.service, buraco_guest)


async def guest_by_token(service: TableService, token: str | None) -> Guest | None:
    """The guest whose session a token is (none for no token, a long one or an ended one)."""
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


async def coded(conn: HTTPConnection, answer: Callable[[], Awaitable[T]], code: str | None) -> T:
    """An answer that depends on a code the request gave: a wrong code is counted.

    Wrong: refused as what the code would have opened (:data:`WRONG_CODE`). Without a
    code, nothing is counted; past its address's limit of wrong codes, none is tried (429).
    """
    if not code:
        return await answer()
    await before_code(conn)
    try:
        return await answer()
    except ServiceError as exc:
        if exc.key in WRONG_CODE:
            await wrong_code(conn)
        raise


WRONG_CODE = frozenset(
    {"not-found.table", "not-found.game", "invite", "invite.seat", "tournament.code"}
)
"""The refusals of a request whose code (an invite, a partner's) opened nothing."""


async def live_table(
    service: TableService, table_id: str, guest: Guest | None, invite: str | None
) -> LiveTable:
    """A table the guest may see, given the invite code they hold (404: none they may)."""
    lt = await service.get(table_id) if TABLE_ID.fullmatch(table_id) else None
    if lt is None or not service.may_see(lt, guest, invite):
        raise ServiceError("not-found.table", status=404, table=repr(table_id[:40]))
    return lt


class Body(BaseModel):
    """A request body as the schema documents it: no key beyond those listed."""

    model_config = ConfigDict(extra="forbid")


DISPLAY_NAME: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_NAME,
    "pattern": f"^[^{CONTROLS}]*$",
    "format": "display-name",
    "description": (
        f"1 to {MAX_NAME} characters, no control characters, at least one of them a letter, "
        "digit, punctuation mark or symbol that is shown (format display-name: Unicode "
        "categories L, N, P or S, not Default_Ignorable_Code_Point); spaces around it are "
        "trimmed. Unique: a name that, without its default-ignorable characters, after NFKC, "
        "case folding and confusable skeletons (Unicode TS #39) in either order, shares a key "
        "with an account's is refused (name.taken)"
    ),
}
"""The JSON Schema of a display name (what :func:`check_name` and ``name.taken`` accept)."""


class NameIn(Body):
    """A display name."""

    name: Annotated[str, Field(json_schema_extra=DISPLAY_NAME)]


class GuestOut(BaseModel):
    """A player: an id others see in game lists, a display name, and whether it is an account.

    An account is a name claimed with a password.
    """

    id: str
    name: str
    account: bool = False


ONLINE_BOT_PATTERN = f"^({'|'.join(b for b in [*BOTS, *NAMED] if b not in OFFLINE_BOTS)})(:.*)?$"
"""The JSON Schema pattern of a bot spec a server takes (the bots offered online, and the
short names of :data:`buraco.bots.NAMED`, ``expert`` among them)."""


class Out(BaseModel):
    """A response as the schema documents it: no key beyond those listed."""

    model_config = ConfigDict(extra="forbid")


class ErrorDetail(Out):
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


class ErrorOut(Out):
    """Every refusal of the REST API has this shape, with the HTTP status."""

    error: ErrorDetail


REFUSALS = {
    400: "a value the server does not allow (the message says what is)",
    401: "no guest: choose a name first (POST /api/guests)",
    403: "not allowed: a private table or an invite seat without its code, not a player, "
    "or rated play for a guest without an account",
    404: "no such table, game, seat or hand (or a private one you may not see)",
    409: "not now: the match started, the seat is taken, the match is not over, or the table "
    "changed under this server; or a name that is, or looks like, an account's (name.taken)",
    413: "a request body over 64 KiB",
    422: "a malformed request: not JSON, a missing or extra key, a wrong type",
    429: "a limit: a guest's unfinished tables or tournaments, the site's tournaments, or "
    "tries from one address (Retry-After)",
    503: "the database is not answering: nothing was done; try again (Retry-After)",
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route's refusals, each with the one error shape.

    Every route that reads the database may also answer 503 while it is away.
    """
    return {s: {"model": ErrorOut, "description": REFUSALS[s]} for s in (*statuses, 503)}


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


def address(request: HTTPConnection) -> str:
    """The address a request came from (the proxy's, unless it forwards the client's)."""
    return request.client.host if request.client else "unknown"


def _guesses(conn: HTTPConnection) -> Limit:
    settings: Settings = conn.app.state.settings
    return Limit("code", settings.code_guesses_per_address)


async def before_code(conn: HTTPConnection) -> None:
    """Refuse a code from an address past its limit of wrong ones (429); nothing is counted.

    A code is a table's invite, a tournament partner's place or a director's secret: only
    the wrong ones count (:func:`wrong_code`), and past the limit even a right one is
    refused, so the answer tells a guesser nothing.
    """
    await conn.app.state.gate.spent(_guesses(conn), address(conn))


async def wrong_code(conn: HTTPConnection) -> None:
    """Count a wrong code from the request's address (429 ``limit.tries`` past the limit)."""
    await conn.app.state.gate.check(_guesses(conn), address(conn))


def utc(at: datetime) -> str:
    """A stored time in ISO 8601 with its offset (SQLite gives the UTC time back without it)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).isoformat()
