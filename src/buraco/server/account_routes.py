"""The REST API of accounts (``docs/protocol.md``, ``docs/online.md``).

Register, claim a guest's name, sign in and out, change the password, download what is
stored, delete.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Request, Response
from fastapi.responses import JSONResponse
from pydantic import Field
from sqlalchemy.exc import IntegrityError

from buraco.server.accounts import (
    DELETED,
    MAX_PASSWORD,
    MIN_PASSWORD,
    Limit,
    check_password,
    hash_password,
    name_key,
    verify_password,
)
from buraco.server.errors import ServiceError
from buraco.server.routes import (
    COOKIE,
    DISPLAY_NAME,
    GuestOut,
    NeedGuest,
    Svc,
    _Body,
    _refusals,
    address,
    set_session_cookie,
)
from buraco.server.service import check_name, token_hash
from buraco.server.settings import Settings

router = APIRouter(prefix="/api/account", tags=["accounts"])

Password = Annotated[
    str,
    Field(
        max_length=MAX_PASSWORD,
        json_schema_extra={"minLength": MIN_PASSWORD},
        description=f"{MIN_PASSWORD} to {MAX_PASSWORD} characters",
    ),
]


class RegisterIn(_Body):
    """A new account: a name and its password."""

    name: Annotated[str, Field(max_length=200, json_schema_extra=DISPLAY_NAME)]
    password: Password


class SignInIn(RegisterIn):
    """An account's name and password."""


class ClaimIn(_Body):
    """The password that makes the guest's name theirs."""

    password: Password


class PasswordIn(_Body):
    """The password now, and the new one."""

    password: Password
    new_password: Password


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _gate(request: Request, limit: Limit, who: str) -> None:
    request.app.state.gate.check(limit, who)


async def _new_session(service: Svc, response: Response, request: Request, guest_id: str) -> None:
    token = secrets.token_urlsafe(32)
    await service.store.add_session(guest_id, token_hash(token))
    set_session_cookie(response, token, _settings(request))


@router.post(
    "/register", response_model=GuestOut, status_code=201, responses=_refusals(400, 409, 422, 429)
)
async def register(body: RegisterIn, request: Request, response: Response, svc: Svc) -> GuestOut:
    """Make an account with a new name and sign this browser in to it."""
    settings = _settings(request)
    _gate(request, Limit("register", settings.accounts_per_address), address(request))
    name = check_name(body.name)
    password = check_password(body.password)
    key = name_key(name)
    if await svc.store.account_by_key(key) is not None:
        raise ServiceError("name.taken", status=409, field="name")
    token = secrets.token_urlsafe(32)
    guest_id = secrets.token_urlsafe(12)
    try:
        await svc.store.add_guest(
            guest_id, token_hash(token), name, name_key=key, password_hash=hash_password(password)
        )
    except IntegrityError:  # the same name registered at the same moment
        raise ServiceError("name.taken", status=409, field="name") from None
    set_session_cookie(response, token, settings)
    return GuestOut(id=guest_id, name=name, account=True)


@router.post("/claim", response_model=GuestOut, responses=_refusals(400, 401, 409, 422, 429))
async def claim(body: ClaimIn, request: Request, guest: NeedGuest, svc: Svc) -> GuestOut:
    """Make the guest's name theirs with a password: their games, replays and seats stay."""
    if guest.account:
        raise ServiceError("account.already", status=409)
    _gate(request, Limit("register", _settings(request).accounts_per_address), address(request))
    password = check_password(body.password)
    key = name_key(guest.name)
    if not await svc.store.claim_name(guest.id, guest.name, key, hash_password(password)):
        raise ServiceError("name.taken", status=409, field="name")
    return GuestOut(id=guest.id, name=guest.name, account=True)


@router.post("/signin", response_model=GuestOut, responses=_refusals(401, 422, 429))
async def sign_in(body: SignInIn, request: Request, response: Response, svc: Svc) -> GuestOut:
    """Sign this browser in to an account (a new session; the others stay signed in).

    An unknown name and a wrong password get the same answer, after the same work.
    """
    settings = _settings(request)
    _gate(request, Limit("signin", settings.signin_per_address), address(request))
    key = name_key(body.name.strip())  # the body bounds the name to 200 characters
    _gate(request, Limit("signin-name", settings.signin_per_name), key)
    row = await svc.store.account_by_key(key) if key else None
    stored = row.password_hash if row is not None and not row.deleted else None
    if not verify_password(stored, body.password) or row is None:
        raise ServiceError("signin", status=401)
    await _new_session(svc, response, request, row.id)
    return GuestOut(id=row.id, name=row.name, account=True)


@router.post("/signout", status_code=204, responses=_refusals(422))
async def sign_out(svc: Svc, buraco_guest: Annotated[str | None, Cookie()] = None) -> Response:
    """Sign this browser out (its session is deleted; the cookie is cleared)."""
    if buraco_guest and len(buraco_guest) <= 100:
        await svc.store.drop_session(token_hash(buraco_guest))
    out = Response(status_code=204)
    out.delete_cookie(COOKIE)
    return out


@router.post("/signout-all", status_code=204, responses=_refusals(401, 422))
async def sign_out_everywhere(guest: NeedGuest, svc: Svc) -> Response:
    """Sign out every browser of this player, this one included."""
    await svc.store.drop_sessions(guest.id)
    out = Response(status_code=204)
    out.delete_cookie(COOKIE)
    return out


@router.post("/password", status_code=204, responses=_refusals(400, 401, 403, 422, 429))
async def change_password(
    body: PasswordIn,
    request: Request,
    guest: NeedGuest,
    svc: Svc,
    buraco_guest: Annotated[str | None, Cookie()] = None,
) -> Response:
    """Change the password; every other browser is signed out."""
    await _check_own_password(request, guest.id, guest.account, body.password, svc)
    new = check_password(body.new_password)
    await svc.store.set_password(guest.id, hash_password(new))
    await svc.store.drop_sessions(guest.id, keep=token_hash(buraco_guest or ""))
    return Response(status_code=204)


@router.get("/export", responses=_refusals(401, 422))
async def export(guest: NeedGuest, svc: Svc) -> JSONResponse:
    """Everything stored about this player, as JSON (no password, no token)."""
    data: dict[str, Any] = await svc.store.everything_about(guest.id)
    return JSONResponse(
        data, headers={"content-disposition": 'attachment; filename="buraco-account.json"'}
    )


@router.post("/delete", status_code=204, responses=_refusals(401, 403, 422, 429))
async def delete_account(body: ClaimIn, request: Request, guest: NeedGuest, svc: Svc) -> Response:
    """Delete this player: name, password and sessions.

    Past games stay, under "deleted player". An account confirms with its password.
    """
    if guest.account:
        await _check_own_password(request, guest.id, True, body.password, svc)
    await svc.store.delete_account(guest.id, DELETED)
    svc.forget(guest.id, DELETED)
    out = Response(status_code=204)
    out.delete_cookie(COOKIE)
    return out


async def _check_own_password(
    request: Request, guest_id: str, account: bool, password: str, svc: Svc
) -> None:
    if not account:
        raise ServiceError("account.none", status=403)
    _gate(request, Limit("signin-name", _settings(request).signin_per_name), guest_id)
    row = await svc.store.guest_by_id(guest_id)
    if row is None or not verify_password(row.password_hash, password):
        raise ServiceError("signin", status=403, field="password")
