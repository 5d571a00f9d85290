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
    Passwords,
    check_password,
    name_keys,
)
from buraco.server.errors import ServiceError
from buraco.server.http import (
    COOKIE,
    DISPLAY_NAME,
    Body,
    GuestOut,
    NeedGuest,
    Svc,
    address,
    refusals,
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


class RegisterIn(Body):
    """A new account: a name and its password."""

    name: Annotated[str, Field(max_length=200, json_schema_extra=DISPLAY_NAME)]
    password: Password


class SignInIn(RegisterIn):
    """An account's name and password."""


class ClaimIn(Body):
    """The password that makes the guest's name theirs."""

    password: Password


class PasswordIn(Body):
    """The password now, and the new one."""

    password: Password
    new_password: Password


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _passwords(request: Request) -> Passwords:
    passwords: Passwords = request.app.state.passwords
    return passwords


async def _gate(request: Request, limit: Limit, who: str) -> None:
    await request.app.state.gate.check(limit, who)


async def _new_session(service: Svc, response: Response, request: Request, guest_id: str) -> None:
    token = secrets.token_urlsafe(32)
    await service.store.add_session(guest_id, token_hash(token))
    set_session_cookie(response, token, _settings(request))


DEVICE = "buraco_device"
"""The cookie that marks a browser that has signed in to an account (HttpOnly, kept after
signing out): while a name's failed sign-ins are past their limit, it may still try."""


def _device(request: Request) -> str | None:
    token = request.cookies.get(DEVICE)
    return token if token and len(token) <= 100 else None


async def _remember_device(
    service: Svc, request: Request, response: Response, guest_id: str
) -> None:
    """Note this browser as one of the account's (a device cookie, made if it has none)."""
    token = _device(request) or secrets.token_urlsafe(32)
    await service.store.add_device(guest_id, token_hash(token))
    settings = _settings(request)
    response.set_cookie(
        DEVICE,
        token,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookie,
        max_age=400 * 24 * 3600,
    )


@router.post(
    "/register", response_model=GuestOut, status_code=201, responses=refusals(400, 409, 422, 429)
)
async def register(body: RegisterIn, request: Request, response: Response, svc: Svc) -> GuestOut:
    """Make an account with a new name and sign this browser in to it."""
    settings = _settings(request)
    await _gate(request, Limit("register", settings.accounts_per_address), address(request))
    name = check_name(body.name)
    password = check_password(body.password)
    keys = name_keys(name)
    if await svc.store.account_by_keys(keys) is not None:
        raise ServiceError("name.taken", status=409, field="name")
    stored = await _passwords(request).hash(password)
    token = secrets.token_urlsafe(32)
    guest_id = secrets.token_urlsafe(12)
    try:
        await svc.store.add_guest(
            guest_id, token_hash(token), name, keys=keys, password_hash=stored
        )
    except IntegrityError:  # the same name registered at the same moment
        raise ServiceError("name.taken", status=409, field="name") from None
    set_session_cookie(response, token, settings)
    await _remember_device(svc, request, response, guest_id)
    return GuestOut(id=guest_id, name=name, account=True)


@router.post("/claim", response_model=GuestOut, responses=refusals(400, 401, 409, 422, 429))
async def claim(
    body: ClaimIn, request: Request, response: Response, guest: NeedGuest, svc: Svc
) -> GuestOut:
    """Make the guest's name theirs with a password: their games, replays and seats stay.

    The browser gets a new session's token; the guest's token (which others may have known)
    no longer signs anyone in.
    """
    if guest.account:
        raise ServiceError("account.already", status=409)
    settings = _settings(request)
    await _gate(request, Limit("register", settings.accounts_per_address), address(request))
    password = check_password(body.password)
    keys = name_keys(guest.name)
    stored = await _passwords(request).hash(password)
    token = secrets.token_urlsafe(32)
    ended = await svc.store.claim_name(guest.id, guest.name, keys, stored, token_hash(token))
    if ended is None:
        raise ServiceError("name.taken", status=409, field="name")
    set_session_cookie(response, token, settings)
    await _remember_device(svc, request, response, guest.id)
    svc.end_sessions(ended)
    return GuestOut(id=guest.id, name=guest.name, account=True)


@router.post("/signin", response_model=GuestOut, responses=refusals(401, 422, 429))
async def sign_in(body: SignInIn, request: Request, response: Response, svc: Svc) -> GuestOut:
    """Sign this browser in to an account (a new session; the others stay signed in).

    An unknown name and a wrong password get the same answer, after the same work.
    """
    settings = _settings(request)
    where = address(request)
    await _gate(request, Limit("signin", settings.signin_per_address), where)
    name = body.name.strip()  # the body bounds the name to 200 characters
    keys = name_keys(name)
    await _gate(request, Limit("signin-name", settings.signin_per_name), f"{keys.folded} {where}")
    row = await svc.store.account_by_keys(keys, name) if keys.folded else None
    # past the name's failures from everywhere, only a browser that signed in to it before
    # may still try: guessing from many addresses stops, and its owner is not locked out
    failures = Limit("signin-account", settings.signin_failures_per_name)
    device = _device(request)
    known = device is not None and await svc.store.is_device(
        row.id if row is not None else "", token_hash(device)
    )
    if not known:
        await request.app.state.gate.spent(failures, keys.folded)
    stored = row.password_hash if row is not None and not row.deleted else None
    if not await _passwords(request).verify(stored, body.password) or row is None:
        await request.app.state.gate.count(failures, keys.folded)
        raise ServiceError("signin", status=401)
    await _new_session(svc, response, request, row.id)
    await _remember_device(svc, request, response, row.id)
    return GuestOut(id=row.id, name=row.name, account=True)


@router.post("/signout", status_code=204, responses=refusals(422))
async def sign_out(svc: Svc, buraco_guest: Annotated[str | None, Cookie()] = None) -> Response:
    """Sign this browser out (its session is deleted; the cookie is cleared)."""
    if buraco_guest and len(buraco_guest) <= 100:
        await svc.store.drop_session(token_hash(buraco_guest))
        svc.end_sessions([token_hash(buraco_guest)])
    out = Response(status_code=204)
    out.delete_cookie(COOKIE)
    return out


@router.post("/signout-all", status_code=204, responses=refusals(401, 422))
async def sign_out_everywhere(guest: NeedGuest, svc: Svc) -> Response:
    """Sign out every browser of this player, this one included."""
    svc.end_sessions(await svc.store.drop_sessions(guest.id))
    out = Response(status_code=204)
    out.delete_cookie(COOKIE)
    return out


@router.post("/password", status_code=204, responses=refusals(400, 401, 403, 422, 429))
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
    await svc.store.set_password(guest.id, await _passwords(request).hash(new))
    svc.end_sessions(await svc.store.drop_sessions(guest.id, keep=token_hash(buraco_guest or "")))
    return Response(status_code=204)


@router.get("/export", responses=refusals(401, 422))
async def export(guest: NeedGuest, svc: Svc) -> JSONResponse:
    """Everything stored about this player, as JSON (no password, no token)."""
    data: dict[str, Any] = await svc.store.everything_about(guest.id)
    return JSONResponse(
        data, headers={"content-disposition": 'attachment; filename="buraco-account.json"'}
    )


@router.post("/delete", status_code=204, responses=refusals(401, 403, 422, 429))
async def delete_account(body: ClaimIn, request: Request, guest: NeedGuest, svc: Svc) -> Response:
    """Delete this player: name, password and sessions.

    Past games stay, under "deleted player". An account confirms with its password.
    """
    if guest.account:
        await _check_own_password(request, guest.id, True, body.password, svc)
    forgotten = await svc.store.delete_account(guest.id, DELETED)
    svc.end_sessions(forgotten.sessions)
    svc.forget(guest.id, DELETED, forgotten.names, forgotten.seats)
    out = Response(status_code=204)
    out.delete_cookie(COOKIE)
    return out


async def _check_own_password(
    request: Request, guest_id: str, account: bool, password: str, svc: Svc
) -> None:
    if not account:
        raise ServiceError("account.none", status=403)
    await _gate(request, Limit("signin-name", _settings(request).signin_per_name), guest_id)
    row = await svc.store.guest_by_id(guest_id)
    if row is None or not await _passwords(request).verify(row.password_hash, password):
        # the player is signed in: saying the password is wrong tells them nothing new
        raise ServiceError("password.wrong", status=403, field="password")
