"""The ASGI application: :func:`create_app` wires the store, the bot pool and the table service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from buraco.server.botpool import BotPool
from buraco.server.protocol import PROTOCOL
from buraco.server.routes import router
from buraco.server.service import ServiceError, TableService
from buraco.server.settings import Settings
from buraco.server.store import Store


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server's app: opens (and migrates) the database at start, resumes every table."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await Store.open(settings.url())
        pool = BotPool(settings.bot_workers)
        service = TableService(store, settings, pool)
        app.state.store = store
        app.state.service = service
        await service.start()
        try:
            yield
        finally:
            await service.stop()
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
        return JSONResponse({"error": exc.as_dict()}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # one format for every refusal: {"error": {"code", "message", "field"}}
        errors = exc.errors()
        first = errors[0] if errors else {}
        loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
        message = str(first.get("msg", "malformed request"))
        error: dict[str, Any] = {
            "code": "request",
            "message": f"{'.'.join(loc)}: {message}" if loc else message,
        }
        if loc:
            error["field"] = loc[0]
        return JSONResponse({"error": error}, status_code=422)

    app.include_router(router)
    web = files("buraco.server").joinpath("web")
    app.mount("/static", StaticFiles(directory=str(web)), name="static")
    return app
