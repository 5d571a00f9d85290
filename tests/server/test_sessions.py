"""Sessions that end close their sockets, on SQLite and PostgreSQL: signing out (here or
everywhere), a new password, deleting the account and claiming a name (a new session) close
every socket opened with an ended session at once, with code 4401; it acts and chats no more,
and no chat line is ever stored under a deleted player's name."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from buraco.server.models import ChatRow
from buraco.server.ws import CLOSE_SIGNED_OUT
from serverkit import (
    PASSWORD,
    Browser,
    Player,
    Server,
    as_player,
    client_of,
    my_turn,
    receive,
    register,
    sign_in,
    until,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def closed_with(ws: WebSocketTestSession) -> int | None:
    """The code a socket was closed with, or None when it still answers a ping."""
    try:
        ws.send_text(json.dumps({"type": "ping"}))
        for _ in range(10_000):
            if receive(ws)["type"] == "pong":
                return None
    except WebSocketDisconnect as closed:
        return closed.code
    raise AssertionError("neither a pong nor a close")


def chat_rows(server: Server, table: str) -> list[ChatRow]:
    store = server.client.app.state.service.store  # type: ignore[attr-defined]

    async def read() -> list[ChatRow]:
        async with store.session() as s:
            q = select(ChatRow).where(ChatRow.table_id == table).order_by(ChatRow.id)
            return list((await s.execute(q)).scalars())

    rows: list[ChatRow] = server.client.portal.call(read)  # type: ignore[union-attr]
    return rows


def two_sessions(server: Server) -> tuple[Browser, Browser, Player, str]:
    """An account signed in twice (S1, S2), seated at a table being played against a bot."""
    s1, s2 = client_of(server), client_of(server)
    name = f"Sessions {secrets.token_hex(3)}"
    register(s1, name)
    assert sign_in(s2, name).status_code == 200
    player = as_player(s2, name)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    table = server.create(as_player(s1, name), seats, players=2, pace=5)["table"]["id"]
    return s1, s2, player, table


REVOKE: dict[str, Callable[[Browser, Browser], Any]] = {
    "signout": lambda s1, s2: s2.post("/api/account/signout"),
    "signout-all": lambda s1, s2: s1.post("/api/account/signout-all"),
    "password": lambda s1, s2: s1.post(
        "/api/account/password", json={"password": PASSWORD, "new_password": "a new one here"}
    ),
    "delete": lambda s1, s2: s1.post("/api/account/delete", json={"password": PASSWORD}),
}


@pytest.mark.parametrize("how", list(REVOKE))
def test_an_ended_session_s_socket_is_closed_and_acts_and_chats_no_more(
    server: Server, how: str
) -> None:
    s1, s2, player, table = two_sessions(server)
    with server.ws(table, player) as ws:
        seen = until(ws, my_turn)
        assert seen["view"]["seat"] == 0
        ws.send_text(json.dumps({"type": "chat", "text": "before"}))
        until(ws, lambda m: m["type"] == "chat" and m.get("line"))
        r = REVOKE[how](s1, s2)
        assert r.status_code == 204, r.text
        assert closed_with(ws) == CLOSE_SIGNED_OUT
    assert s2.get("/api/me").status_code == 401
    # the same cookie opens a socket as a watcher only: no seat, no chat
    version = server.client.get(f"/api/tables/{table}").json()["table"]["version"]
    with server.ws(table, player) as ws:
        state = receive(ws)
        assert state["type"] == "state" and state["you"] == {"seat": None, "guest": None}
        ws.send_text(json.dumps({"type": "action", "version": version, "action": "draw"}))
        assert until(ws, lambda m: m["type"] == "error")["code"] == "spectator"
        ws.send_text(json.dumps({"type": "chat", "text": "after"}))
        assert until(ws, lambda m: m["type"] == "error")["key"] == "guest.chat"
    if how == "delete":  # a deleted player's chat lines go with them
        assert chat_rows(server, table) == []
    else:
        assert [c.text for c in chat_rows(server, table)] == ["before"]
        assert s1.get("/api/me").status_code == (401 if how == "signout-all" else 200)


def test_a_deleted_player_s_chat_is_never_stored_under_their_name(server: Server) -> None:
    s1, _s2, player, table = two_sessions(server)
    store = server.client.app.state.service.store  # type: ignore[attr-defined]
    assert s1.post("/api/account/delete", json={"password": PASSWORD}).status_code == 204
    # a line that was on its way when the account went (the socket's last message)
    late = server.client.portal.call(store.add_chat, table, player.id, "too late")  # type: ignore[union-attr]
    assert late is None
    assert all(c.name != player.name for c in chat_rows(server, table))


def test_claiming_a_name_closes_the_guest_s_sockets(server: Server) -> None:
    guest = server.guest(f"Claimer {secrets.token_hex(3)}")
    seats = [{"kind": "me"}, {"kind": "open"}]
    table = server.create(guest, seats, players=2)["table"]["id"]
    with server.ws(table, guest) as ws:
        assert receive(ws)["type"] == "state"
        r = server.client.post(
            "/api/account/claim", json={"password": PASSWORD}, headers=guest.headers
        )
        assert r.status_code == 200
        assert closed_with(ws) == CLOSE_SIGNED_OUT
    fresh = Player(guest.name, guest.id, r.cookies["buraco_guest"])
    server.client.cookies.clear()
    with server.ws(table, fresh) as ws:  # the new session's socket has the seat
        assert receive(ws)["you"]["seat"] == 0


def test_the_other_sessions_sockets_stay_open(server: Server) -> None:
    s1, _s2, player, table = two_sessions(server)
    kept = as_player(s1, player.name)
    with server.ws(table, kept) as mine, server.ws(table, player) as other:
        until(mine, my_turn)
        until(other, my_turn)
        new = {"password": PASSWORD, "new_password": "a new one here"}
        assert s1.post("/api/account/password", json=new).status_code == 204
        assert closed_with(other) == CLOSE_SIGNED_OUT
        assert closed_with(mine) is None


def test_a_socket_opened_while_its_session_ends_is_closed_too(server: Server) -> None:
    # the handshake read the session before it ended, the socket joins the table after: the
    # end, told meanwhile, still closes it
    from buraco.server.service import token_hash

    _s1, _s2, player, table = two_sessions(server)
    service = server.client.app.state.service  # type: ignore[attr-defined]
    server.client.portal.call(service.end_sessions, [token_hash(player.token)])  # type: ignore[union-attr]
    with server.ws(table, player) as ws:
        assert closed_with(ws) == CLOSE_SIGNED_OUT
