"""The ASGI application: :func:`create_app` wires the store, the bot pool and the table service."""

from __future__ import annotations

import gc
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from buraco.server.account_routes import router as account_router
from buraco.server.accounts import Gate, Passwords
from buraco.server.botpool import BotPool
from buraco.server.bus import make_bus
from buraco.server.errors import ServiceError
from buraco.server.protocol import PROTOCOL
from buraco.server.rating_routes import router as rating_router
from buraco.server.routes import router
from buraco.server.service import TableService
from buraco.server.settings import Settings
from buraco.server.store import Store
from buraco.server.tournament_routes import router as tournament_router
from buraco.server.tournaments import Tournaments

MAX_BODY = 64 * 1024
"""The largest request body the REST API reads, in bytes (a table's options fit many times)."""


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413, before reading the rest of it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass a request on, its body counted as it is read."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(send, self.limit)
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise StarletteHTTPException(413)
            return message

        await self.app(scope, bounded, send)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"error": ServiceError("too-large", most=limit).as_dict()}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _unavailable() -> JSONResponse:
    """The answer while the database is away: nothing was done, try again."""
    error = ServiceError("unavailable").as_dict()
    return JSONResponse({"error": error}, status_code=503, headers={"Retry-After": "2"})


SETTINGS_ENV = "BURACO_SERVE_SETTINGS"
"""The environment variable through which ``buraco serve --workers N`` hands its settings
(as JSON) to each worker process."""


_WEB_SCHEME = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
"""The scheme of the page that opens a request of a scheme (a socket's is its page's)."""


class SameOrigin:
    """Refuses what another site's page sends with a player's cookie (CSRF, and sockets).

    A state-changing request (not GET, HEAD or OPTIONS) and a WebSocket handshake are refused
    when their ``Origin`` is neither this server's (the request's scheme and its ``Host``:
    behind a proxy, the scheme the proxy says in ``X-Forwarded-Proto``, which uvicorn puts in
    the request when it trusts the proxy) nor one of the allowed origins; without an ``Origin``,
    when ``Sec-Fetch-Site`` says ``cross-site``. Clients that are not browsers send neither, and
    pass.
    """

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = {a.rstrip("/").lower() for a in allowed}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass a request on, or refuse it when it comes from another site."""
        kind = scope["type"]
        if kind == "websocket" or (
            kind == "http" and scope["method"] not in ("GET", "HEAD", "OPTIONS")
        ):
            headers = dict(scope.get("headers", ()))
            origin = headers.get(b"origin", b"").decode("latin-1").strip().lower()
            if self._foreign(origin, headers, _WEB_SCHEME.get(scope.get("scheme", ""), "http")):
                await self._refuse(kind, origin, send)
                return
        await self.app(scope, receive, send)

    def _foreign(self, origin: str, headers: dict[bytes, bytes], scheme: str) -> bool:
        if not origin:
            return headers.get(b"sec-fetch-site", b"") == b"cross-site"
        if origin in self.allowed:
            return False
        host = headers.get(b"host", b"").decode("latin-1").strip().lower()
        return not host or origin != f"{scheme}://{host}"

    @staticmethod
    async def _refuse(kind: str, origin: str, send: Send) -> None:
        refused = ServiceError("origin", status=403, origin=origin[:100] or "unknown")
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 4403, "reason": "foreign origin"})
            return
        body = json.dumps({"error": refused.as_dict()}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _methods_of(app: FastAPI, path: str) -> set[str]:
    """The HTTP methods the app takes at a path, as its OpenAPI schema says (GET with HEAD)."""
    methods: set[str] = set()
    for template, operations in app.openapi()["paths"].items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            methods |= {m.upper() for m in operations}
    if "GET" in methods:
        methods.add("HEAD")
    return methods


def app_from_env() -> FastAPI:
    """The app of one worker of ``buraco serve --workers N`` (settings from the environment)."""
    import json
    import os
    from pathlib import Path

    given = json.loads(os.environ[SETTINGS_ENV])
    if given.get("data_dir"):
        given["data_dir"] = Path(given["data_dir"])
    return create_app(Settings(**given))


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server's app: opens (and migrates) the database at start, resumes every table."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await Store.open(settings.url())
        pool = BotPool(settings.bot_workers)
        service = TableService(store, settings, pool, make_bus(settings.bus_url, settings.url()))
        app.state.store = store
        app.state.service = service
        tournaments = Tournaments(service)
        app.state.tournaments = tournaments
        passwords = app.state.passwords = Passwords(settings.hash_threads)
        gate = app.state.gate = Gate(settings.bus_url)
        try:
            await service.start()
            tournaments.start()
        except BaseException:
            await gate.close()
            passwords.close()
            pool.close()
            await store.close()
            raise
        # what start-up made lives as long as the server: kept out of the collector's
        # full passes, which otherwise walk it and pause every table
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            await tournaments.stop()
            await service.stop()
            await gate.close()
            passwords.close()
            pool.close()
            await store.close()

    app = FastAPI(
        title="buraco",
        summary="Play Buraco online with friends and bots",
        description=(
            "The REST API of a `buraco serve` server. Play goes over the WebSocket at "
            f"`/ws/tables/{{table}}`, protocol {PROTOCOL}, described in docs/protocol.md."
        ),
        version=str(PROTOCOL),
        lifespan=lifespan,
    )
    app.state.settings = settings

    @app.exception_handler(ServiceError)
    async def refused(_request: Request, exc: ServiceError) -> JSONResponse:
        wait = exc.params.get("wait") if exc.status == 429 else None
        headers = {"Retry-After": str(wait)} if wait is not None else None
        return JSONResponse({"error": exc.as_dict()}, status_code=exc.status, headers=headers)

    @app.exception_handler(DBAPIError)
    async def database_down(_request: Request, exc: DBAPIError) -> JSONResponse:
        return _unavailable()

    @app.exception_handler(OSError)
    async def connection_lost(_request: Request, exc: OSError) -> JSONResponse:
        return _unavailable()

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # one format for every refusal: {"error": {"code", "message", "field"}}
        errors = exc.errors()
        first = errors[0] if errors else {}
        loc = [p for p in first.get("loc", ()) if p not in ("body", "query", "path")]
        message = str(first.get("msg", "malformed request"))
        where = ".".join(str(p) for p in loc)
        field = loc[0] if loc and isinstance(loc[0], str) else None  # a name, not an offset
        refused = ServiceError(
            "request", field=field, text=f"{where}: {message}" if where else message
        )
        return JSONResponse({"error": refused.as_dict()}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and isinstance(exc.__cause__, UnicodeDecodeError):
            # a body that is not UTF-8 is as malformed as one that is not JSON: 422 too
            refused = ServiceError("request.utf-8")
            return JSONResponse({"error": refused.as_dict()}, status_code=422)
        headers = dict(exc.headers or {})
        if exc.status_code == 413:
            refused = ServiceError("too-large", most=MAX_BODY)
        elif exc.status_code == 405:
            # every method of the path, not just those of the first route that matched it
            allowed = sorted(_methods_of(request.app, request.url.path))
            if allowed:
                headers["Allow"] = ", ".join(allowed)
            refused = ServiceError("method", allowed=allowed or ["GET"])
        else:
            keys = {404: "not-found", 405: "method"}
            refused = ServiceError(keys.get(exc.status_code, "request"), text=str(exc.detail))
        return JSONResponse(
            {"error": refused.as_dict()}, status_code=exc.status_code, headers=headers
        )

    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SameOrigin, allowed=settings.allowed_origins)

    app.include_router(router)
    app.include_router(account_router)
    app.include_router(rating_router)
    app.include_router(tournament_router)
    web = files("buraco.server").joinpath("web")
    app.mount("/static", StaticFiles(directory=str(web)), name="static")
    return app
