"""The guests' routes: choose a display name, and who the cookie's guest is."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request, Response

from buraco.server.accounts import Limit, name_keys
from buraco.server.errors import ServiceError
from buraco.server.http import (
    GuestOut,
    MaybeGuest,
    NameIn,
    NeedGuest,
    Svc,
    address,
    refusals,
    set_session_cookie,
)
from buraco.server.service import (
    check_name,
    token_hash,
)
from buraco.server.settings import Settings

router = APIRouter()


# ----- guests ------------------------------------------------------------------------------------
@router.post(
    "/api/guests",
    response_model=GuestOut,
    tags=["guests"],
    responses=refusals(400, 409, 413, 422, 429),
)
async def new_guest(
    body: NameIn, request: Request, response: Response, service: Svc, guest: MaybeGuest
) -> GuestOut:
    """Choose a display name.

    A new guest gets a secret token in an HttpOnly cookie; the guest of a cookie gets
    a new name.
    """
    name = check_name(body.name)
    holder = await service.store.account_by_keys(name_keys(name))
    if holder is not None and (guest is None or holder.id != guest.id):
        raise ServiceError("name.taken", status=409, field="name")
    if guest is not None:
        if guest.account and holder is None:
            raise ServiceError("name.account", field="name")
        await service.store.rename_guest(guest.id, name)
        return GuestOut(id=guest.id, name=name, account=guest.account)
    settings: Settings = request.app.state.settings
    await request.app.state.gate.check(
        Limit("guest", settings.guests_per_address), address(request)
    )
    token = secrets.token_urlsafe(32)
    guest_id = secrets.token_urlsafe(12)
    await service.store.add_guest(guest_id, token_hash(token), name)
    set_session_cookie(response, token, settings)
    return GuestOut(id=guest_id, name=name)


@router.get("/api/me", response_model=GuestOut, tags=["guests"], responses=refusals(401, 422))
async def me(guest: NeedGuest) -> GuestOut:
    """The guest of the cookie (401 without one)."""
    return GuestOut(id=guest.id, name=guest.name, account=guest.account)
