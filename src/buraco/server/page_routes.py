"""The page's routes.

The web page in the request's language, its catalogs, the presets and options, ``/healthz`` and
the WebSocket endpoint of a table.
"""

from __future__ import annotations

import html
import json
from functools import lru_cache
from importlib.resources import files
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import Field

from buraco.rules import (
    OPTION_HELP,
    OPTION_TOPICS,
    PRESETS,
    make_rules,
    option_bounds,
    option_choices,
    option_names,
)
from buraco.server import i18n
from buraco.server.errors import ServiceError
from buraco.server.http import (
    COOKIE,
    REFUSALS,
    ErrorOut,
    Out,
    coded,
    guest_by_token,
    live_table,
)
from buraco.server.service import (
    TableService,
    token_hash,
)
from buraco.server.store import Store
from buraco.server.ws import CLOSE_HELD, CLOSE_NOT_FOUND, CLOSE_TOO_MANY, serve_table

router = APIRouter()


class PresetOut(Out):
    """A preset: its player counts and every option's value for each count."""

    name: str
    title: str
    players: list[int]
    defaults: dict[str, dict[str, Any]]


class OptionOut(Out):
    """A rule option: its kind and, for a whole number, its bounds."""

    name: str
    help: str
    topic: str = Field(description="the option's topic: deal, values, melds, pile, canastras, …")
    type: Literal["choice", "bool", "int", "sizes", "text"]
    choices: list[str] | None = None
    min: int | None = None
    max: int | None = None


class PresetsOut(Out):
    """Every preset and every rule option."""

    presets: list[PresetOut]
    options: list[OptionOut]


class LanguageOut(Out):
    """A language the page is offered in."""

    tag: str = Field(description="BCP 47 tag: en, pt-BR, es, it")
    name: str = Field(description="the language's name in itself")


class CatalogOut(Out):
    """The page's words in one language."""

    language: str = Field(description="the language chosen for the request (a tag)")
    languages: list[LanguageOut]
    messages: dict[str, str] = Field(
        description="every key's text: {name} a parameter, {@name} a term of the game"
    )


class Health(Out):
    """Whether the database can be read and written, and how often bot workers were replaced."""

    ok: bool
    bot_restarts: int = 0


# ----- languages ---------------------------------------------------------------------------------
@router.get(
    "/api/i18n",
    tags=["page"],
    response_model=None,
    responses={
        200: {"model": CatalogOut},
        422: {"model": ErrorOut, "description": REFUSALS[422]},
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
        choices = option_choices(name)
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
    token = ws.cookies.get(COOKIE)
    guest = await guest_by_token(service, token)
    invite = invite if invite and len(invite) <= 100 else None
    try:
        lt = await coded(ws, lambda: live_table(service, table_id, guest, invite), invite)
    except ServiceError as exc:
        # accepted first, so the browser sees the close code and its reason
        await ws.accept()
        if exc.status == 429:  # too many wrong invite codes from this address
            await ws.send_text(json.dumps({"type": "error", **exc.as_dict()}))
            await ws.close(code=CLOSE_TOO_MANY, reason="too many wrong codes")
            return
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
    session = token_hash(token) if guest is not None and token else None
    await serve_table(ws, service, ws.app.state.settings, lt, guest, since, session)
