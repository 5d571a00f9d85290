"""The HTTP routes: the web page, the REST API, the WebSocket endpoint and ``/healthz``.

The REST API is described by the OpenAPI schema at ``/openapi.json`` (browsable at
``/docs``); play goes over the WebSocket (``docs/protocol.md``). Each concern has a module
of its own, over :mod:`buraco.server.http` (what they share): :mod:`~buraco.server.guest_routes`,
:mod:`~buraco.server.table_routes`, :mod:`~buraco.server.game_routes`,
:mod:`~buraco.server.page_routes`, :mod:`~buraco.server.account_routes`,
:mod:`~buraco.server.rating_routes` and :mod:`~buraco.server.tournament_routes`.
"""

from __future__ import annotations

from fastapi import APIRouter

from buraco.server import game_routes, guest_routes, page_routes, table_routes
from buraco.server.http import COOKIE

router = APIRouter()
"""The routes of the page, the guests, the tables and the finished games."""

for _part in (guest_routes, page_routes, table_routes, game_routes):
    router.include_router(_part.router)

__all__ = ["COOKIE", "router"]
