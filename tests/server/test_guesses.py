"""Wrong codes are limited per address: a table's invite, a tournament partner's place, a
director's secret. Past the limit every code from the address is refused (429
``limit.tries``), the right one too, and nothing changes; right codes are not counted."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from buraco.server.app import create_app
from serverkit import Server, make_settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MOST = 3
"""Wrong codes the test server takes from one address a minute."""


@pytest.fixture
def guarded(db_url: str) -> Iterator[Server]:
    settings = make_settings(db_url, code_guesses_per_address=f"{MOST}/minute")
    with TestClient(create_app(settings)) as client:
        yield Server(client, settings)


def key_of(r: Any) -> str:
    assert r.status_code >= 400, r.text
    key: str = r.json()["error"]["key"]
    return key


def assert_limited(r: Any) -> None:
    assert r.status_code == 429, r.text
    error = r.json()["error"]
    assert error["key"] == "limit.tries" and error["params"]["what"] == "code"
    assert error["params"]["most"] == MOST and int(r.headers["retry-after"]) >= 1


def test_wrong_partner_codes_are_limited_and_then_even_the_right_one_waits(
    guarded: Server,
) -> None:
    director = guarded.guest("Dora")
    body = {"name": "Sera", "preset": "italiano", "players": 4, "movements": ["swiss"]}
    tid = guarded.client.post("/api/tournaments", json=body, headers=director.headers).json()[
        "tournament"
    ]["id"]
    ana, caio = guarded.guest("Ana"), guarded.guest("Caio")
    entered = guarded.client.post(f"/api/tournaments/{tid}/entries", json={}, headers=ana.headers)
    code = entered.json()["partner_code"]
    join = f"/api/tournaments/{tid}/entries/0/join"
    for _ in range(MOST):
        r = guarded.client.post(join, json={"code": secrets.token_urlsafe(9)}, headers=caio.headers)
        assert key_of(r) == "tournament.code"
    assert_limited(guarded.client.post(join, json={"code": "one more"}, headers=caio.headers))
    # the right code from this address waits too: a guesser learns nothing from the answer
    assert_limited(guarded.client.post(join, json={"code": code}, headers=caio.headers))
    view = guarded.client.get(f"/api/tournaments/{tid}").json()
    assert view["entries"][0]["members"][1]["kind"] == "open"
    # a wrong director's secret is a wrong code too
    r = guarded.client.post(f"/api/tournaments/{tid}/start?secret=guess", headers=caio.headers)
    assert_limited(r)


def test_wrong_invite_codes_are_limited_on_every_route_that_takes_one(guarded: Server) -> None:
    ana, bia = guarded.guest("Ana"), guarded.guest("Bia")
    made = guarded.create(ana, [{"kind": "me"}, {"kind": "invite"}], players=2, public=False)
    table, invite = made["table"]["id"], made["invite"]
    # the right code is never counted
    for _ in range(2 * MOST):
        r = guarded.client.get(f"/api/tables/{table}?invite={invite}")
        assert r.status_code == 200, r.text
    r = guarded.client.get(f"/api/tables/{table}?invite=guess")
    assert r.status_code == 404 and key_of(r) == "not-found.table"
    r = guarded.client.post(
        f"/api/tables/{table}/join", json={"seat": 1, "invite": "guess"}, headers=bia.headers
    )
    assert r.status_code == 404 and key_of(r) == "not-found.table"
    r = guarded.client.get(f"/api/games?table={table}&invite=guess")
    assert r.status_code == 200 and r.json() == {"games": []}
    # past the limit: every route that takes a code refuses it, the right one too
    for route in (
        f"/api/tables/{table}?invite={invite}",
        f"/api/games?table={table}&invite={invite}",
        "/api/games/1?invite=guess",
    ):
        assert_limited(guarded.client.get(route))
    r = guarded.client.post(
        f"/api/tables/{table}/join", json={"seat": 1, "invite": invite}, headers=bia.headers
    )
    assert_limited(r)
    with guarded.ws(table, bia, f"?invite={invite}") as ws:
        frame = json.loads(ws.receive_text())
        assert frame["type"] == "error" and frame["key"] == "limit.tries"
    # without a code, and for who needs none, nothing is refused; nothing was changed
    mine = guarded.client.get(f"/api/tables/{table}", headers=ana.headers)
    assert mine.status_code == 200 and mine.json()["table"]["invite_seats"] == [1]
    r = guarded.client.get(f"/api/tables/{table}")
    assert r.status_code == 404 and key_of(r) == "not-found.table"
