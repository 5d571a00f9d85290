"""A deleted player's name is gone for good, on SQLite and PostgreSQL: deleted mid-match, at
a table they left mid-match (a stand-in kept their name) and with a finished game, then the
server restarted, the name is in no view, no record, no chat frame and no row of the
database; their chat lines are deleted."""

from __future__ import annotations

import json
import secrets

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from buraco.server.accounts import DELETED
from buraco.server.app import create_app
from buraco.server.models import Base
from serverkit import (
    PASSWORD,
    Browser,
    Server,
    as_player,
    make_settings,
    receive,
    register,
    until,
    wait_for,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def every_row(client: TestClient) -> str:
    """Every row of every table of the database, as text."""
    store = client.app.state.service.store  # type: ignore[attr-defined]

    async def dump() -> str:
        out = []
        async with store.session() as s:
            for table in Base.metadata.sorted_tables:
                for row in (await s.execute(select(table))).all():
                    out.append(repr(tuple(row)))
        return "\n".join(out)

    text: str = client.portal.call(dump)  # type: ignore[union-attr]
    return text


def what_a_watcher_sees(server: Server, table: str) -> str:
    """A table's summary, and a socket's first frames there (state, chat), as text."""
    seen = [server.client.get(f"/api/tables/{table}").text]
    with server.ws(table) as ws:
        seen.append(json.dumps(receive(ws)))
        seen.append(json.dumps(until(ws, lambda m: m["type"] == "chat")))
    return "\n".join(seen)


def test_a_deleted_player_s_name_is_nowhere_after_a_restart(db_url: str) -> None:
    name = f"Delia {secrets.token_hex(3)}"
    settings = make_settings(db_url)
    bots = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    with TestClient(create_app(settings)) as client:
        server = Server(client, settings)
        c = Browser(client)
        register(c, name)
        delia = as_player(c, name)
        playing = server.create(delia, bots, players=2, pace=5)["table"]["id"]
        left = server.create(delia, bots, players=2, pace=5)["table"]["id"]
        over = server.create(delia, bots, players=2)["table"]["id"]
        for t in (playing, left, over):
            wait_for(
                lambda t=t: client.get(f"/api/tables/{t}").json()["table"]["status"] == "playing"
            )
        with server.ws(playing, delia) as ws:
            until(ws, lambda m: m["type"] == "chat")
            ws.send_text(json.dumps({"type": "chat", "text": "a line of mine"}))
            until(ws, lambda m: m["type"] == "chat" and m.get("line"))
        # she leaves one match in play: the stand-in takes her seat, under her name
        assert client.post(f"/api/tables/{left}/leave", headers=delia.headers).status_code == 200
        assert client.get(f"/api/tables/{left}").json()["table"]["seats"][0]["name"] == name
        assert client.post(f"/api/tables/{over}/resign", headers=delia.headers).status_code == 200
        game = wait_for(lambda: client.get(f"/api/games?table={over}").json()["games"])[0]["id"]
        assert name in every_row(client)
        done = c.post("/api/account/delete", json={"password": PASSWORD})
        assert done.status_code == 204
        for t in (playing, left):  # at once, in the live tables
            live = what_a_watcher_sees(server, t)
            assert name not in live and DELETED in live
        assert "a line of mine" not in what_a_watcher_sees(server, playing)
        assert name not in every_row(client)
    with TestClient(create_app(settings)) as client:  # the server restarted
        server = Server(client, settings)
        seen = [what_a_watcher_sees(server, t) for t in (playing, left, over)]
        seen += [client.get(f"/api/games/{game}/record").text]
        seen += [client.get(f"/api/games/{game}/replay?step=3").text]
        seen += [client.get("/api/games").text, client.get(f"/api/games/{game}").text]
        text = "\n".join(seen)
        assert name not in text and "a line of mine" not in text
        assert DELETED in text
        assert name not in every_row(client) and "a line of mine" not in every_row(client)
