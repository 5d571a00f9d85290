"""Accounts on SQLite and PostgreSQL: register, claim, sign in on another client, the same seat
from two clients, sign out, passwords, limits, download and deletion; names that look alike."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from buraco.server import accounts
from buraco.server.accounts import DELETED, name_key
from buraco.server.app import create_app
from buraco.server.routes import COOKIE
from serverkit import (
    SHIPPED_HASHER,
    Player,
    Server,
    make_settings,
    my_turn,
    receive,
    until,
    wait_for,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PASSWORD = "correct horse battery"

NAMES = {
    n: f"{n} {secrets.token_hex(2)}"
    for n in (
        "Marta",
        "Nina",
        "Luiza",
        "Bianca",
        "Olga",
        "Rita",
        "Tina",
        "Yara",
        "Vera",
        "Zoe",
        "Iara",
    )
}
"""Names with a suffix of this run: the PostgreSQL database is shared by the test session,
and an account's name (and its look-alikes) is nobody else's there."""


class Browser:
    """A browser of its own on the test's client: it keeps its own cookie."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.token: str | None = None

    def request(self, method: str, path: str, **kw: Any) -> Any:
        headers = dict(kw.pop("headers", None) or {})
        if self.token and "cookie" not in headers:
            headers["cookie"] = f"{COOKIE}={self.token}"
        self.client.cookies.clear()
        r = self.client.request(method, path, headers=headers, **kw)
        self.client.cookies.clear()
        for line in r.headers.get_list("set-cookie"):
            if line.startswith(f"{COOKIE}="):
                value = line.split(";", 1)[0].split("=", 1)[1].strip('"')
                self.token = None if "Max-Age=0" in line or not value else value
        return r

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Any:
        return self.request("POST", path, **kw)

    @property
    def cookies(self) -> dict[str, str]:
        return {COOKIE: self.token} if self.token else {}

    def websocket_connect(self, path: str, headers: dict[str, str]) -> Any:
        return self.client.websocket_connect(path, headers=headers)


def client_of(server: Server) -> Browser:
    """Another browser: the same app, a cookie of its own."""
    return Browser(server.client)


def register(c: Browser, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = c.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def sign_in(c: Browser, name: str, password: str = PASSWORD) -> Any:
    return c.post("/api/account/signin", json={"name": name, "password": password})


def as_player(c: Browser, name: str) -> Player:
    me = c.get("/api/me").json()
    return Player(name, me["id"], c.cookies[COOKIE])


def test_names_are_one_after_normalising_folding_and_look_alikes() -> None:
    same = ["Ana", "ana", "ANA", "Ａｎａ", "\u0410na", "An\u0430"]  # fullwidth, Cyrillic A and a
    assert len({name_key(n) for n in same}) == 1
    assert name_key("Ana") != name_key("Ann")
    assert name_key("José") == name_key("JOSÉ") == name_key("Jose\u0301")  # composed or not
    assert name_key("Bob") == name_key("B0B")  # a zero looks like an O
    assert name_key("Luiza") == name_key("LUIZA") != name_key("Luisa")


def test_register_sign_in_elsewhere_and_sign_out(server: Server) -> None:
    phone, laptop = client_of(server), client_of(server)
    made = register(phone, NAMES["Marta"])
    assert made["account"] is True
    # the wrong password and an unknown name: one answer
    wrong, unknown = sign_in(laptop, NAMES["Marta"], "not the password"), sign_in(laptop, "Nobody")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert COOKIE not in laptop.cookies
    # the right one, written as another device might: the same player
    r = sign_in(laptop, f"  {NAMES['Marta'].lower()} ")
    assert r.status_code == 200 and r.json()["id"] == made["id"]
    assert laptop.get("/api/me").json() == phone.get("/api/me").json()
    assert laptop.cookies[COOKIE] != phone.cookies[COOKIE]  # a session of its own
    # signing out this device leaves the other signed in
    assert laptop.post("/api/account/signout").status_code == 204
    laptop.cookies.clear()
    assert laptop.get("/api/me").status_code == 401
    assert phone.get("/api/me").status_code == 200


def test_sign_out_everywhere_and_a_new_password_end_the_other_sessions(server: Server) -> None:
    a, b, c = client_of(server), client_of(server), client_of(server)
    register(a, NAMES["Nina"])
    assert sign_in(b, NAMES["Nina"]).status_code == 200
    assert sign_in(c, NAMES["Nina"]).status_code == 200
    new = {"password": PASSWORD, "new_password": "another long one"}
    assert a.post("/api/account/password", json=new).status_code == 204
    assert a.get("/api/me").status_code == 200  # this device stays signed in
    assert b.get("/api/me").status_code == c.get("/api/me").status_code == 401
    assert sign_in(b, NAMES["Nina"]).status_code == 401
    assert sign_in(b, NAMES["Nina"], "another long one").status_code == 200
    # a wrong current password changes nothing
    bad = {"password": "not it at all", "new_password": "a third password"}
    assert a.post("/api/account/password", json=bad).status_code == 403
    assert sign_in(c, NAMES["Nina"], "a third password").status_code == 401
    assert a.post("/api/account/signout-all").status_code == 204
    assert b.get("/api/me").status_code == 401
    a.cookies.clear()
    assert a.get("/api/me").status_code == 401


def test_a_guest_claims_their_name_and_keeps_their_games(server: Server) -> None:
    name = f"Ana {secrets.token_hex(2)}"
    ana = server.guest(name)
    bots = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    table = server.create(ana, bots, players=2)["table"]["id"]
    resigned = server.client.post(f"/api/tables/{table}/resign", headers=ana.headers)
    assert resigned.status_code == 200, resigned.text
    games = wait_for(
        lambda: server.client.get("/api/games?mine=true", headers=ana.headers).json()["games"]
    )
    r = server.client.post("/api/account/claim", json={"password": PASSWORD}, headers=ana.headers)
    assert r.status_code == 200 and r.json() == {"id": ana.id, "name": name, "account": True}
    # signed in from another browser: the same games
    other = client_of(server)
    assert sign_in(other, name.lower()).json()["id"] == ana.id
    assert other.get("/api/games?mine=true").json()["games"] == games
    again = server.client.post(
        "/api/account/claim", json={"password": PASSWORD}, headers=ana.headers
    )
    assert again.status_code == 409 and again.json()["error"]["key"] == "account.already"


def test_a_name_and_its_look_alikes_belong_to_one_account(server: Server) -> None:
    register(client_of(server), NAMES["Luiza"])
    luiza = NAMES["Luiza"]
    wide = "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in luiza)
    for name in (luiza.lower(), wide.upper(), luiza.replace("i", "\u0456")):  # a Ukrainian i
        other = client_of(server)
        r = other.post("/api/account/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"]["key"] == "name.taken", name
        # nor may a guest play under it
        g = other.post("/api/guests", json={"name": name})
        assert g.status_code == 400 and g.json()["error"]["key"] == "name.taken", name
    # a guest who already has the name cannot claim it twice
    bia_name = f"Bia {secrets.token_hex(2)}"
    bia = server.guest(bia_name)
    register(client_of(server), NAMES["Bianca"])
    r = server.client.post("/api/account/claim", json={"password": PASSWORD}, headers=bia.headers)
    assert r.status_code == 200
    # an account keeps its name: its capitals may change, not the name
    upper = bia_name.upper()
    ok = server.client.post("/api/guests", json={"name": upper}, headers=bia.headers)
    assert ok.status_code == 200 and ok.json()["name"] == upper
    bea = {"name": f"Bea {secrets.token_hex(2)}"}
    no = server.client.post("/api/guests", json=bea, headers=bia.headers)
    assert no.status_code == 400 and no.json()["error"]["key"] == "name.account"


def test_one_player_in_two_browsers_has_one_seat(server: Server) -> None:
    phone, laptop = client_of(server), client_of(server)
    register(phone, NAMES["Olga"])
    sign_in(laptop, NAMES["Olga"])
    olga_phone, olga_laptop = as_player(phone, NAMES["Olga"]), as_player(laptop, NAMES["Olga"])
    assert olga_phone.id == olga_laptop.id
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    table = server.create(olga_phone, seats, players=2)["table"]["id"]
    with server.ws(table, olga_phone) as a, server.ws(table, olga_laptop) as b:
        first, second = until(a, my_turn), until(b, my_turn)
        assert first["view"]["seat"] == second["view"]["seat"] == 0
        assert first["view"]["hand"] == second["view"]["hand"]
        a.send_text(json.dumps({"type": "action", "version": first["version"], "action": "draw"}))
        seen = until(b, lambda m: m.get("type") == "event" and m["event"].get("seat") == 0)
        assert seen["view"]["phase"] != "draw"  # the laptop sees the phone's draw, as its own


def test_download_everything_and_delete_the_account(server: Server) -> None:
    c = client_of(server)
    register(c, NAMES["Rita"])
    rita = as_player(c, NAMES["Rita"])
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    table = server.create(rita, seats, players=2)["table"]["id"]
    with server.ws(table, rita) as ws:
        until(ws, lambda m: m["type"] == "chat")
        ws.send_text(json.dumps({"type": "chat", "text": "boa sorte"}))
        until(ws, lambda m: m["type"] == "chat" and m.get("line"))
    data = c.get("/api/account/export", headers=rita.headers)
    assert data.status_code == 200 and "attachment" in data.headers["content-disposition"]
    body = data.json()
    assert body["name"] == NAMES["Rita"] and body["account"] is True
    assert body["tables_created"] == [table] and body["chat"][0]["text"] == "boa sorte"
    text = data.text
    assert rita.token not in text and "argon2" not in text and "hash" not in text
    # deleting needs the password; then the name is free, the cookie dead, the table kept
    wrong = c.post("/api/account/delete", json={"password": "no no no no"}, headers=rita.headers)
    assert wrong.status_code == 403
    done = c.post("/api/account/delete", json={"password": PASSWORD}, headers=rita.headers)
    assert done.status_code == 204
    assert c.get("/api/me", headers=rita.headers).status_code == 401
    assert sign_in(client_of(server), NAMES["Rita"]).status_code == 401
    seat = c.get(f"/api/tables/{table}").json()["table"]["seats"][0]
    assert seat["name"] == DELETED
    register(client_of(server), NAMES["Rita"])  # the name may be taken again


def test_sign_in_is_limited_per_address_and_per_name(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    limits = make_settings(db, signin_per_address="5/minute", signin_per_name="3/minute")
    with TestClient(create_app(limits)) as client:
        c = Browser(client)
        register(c, NAMES["Vera"])
        answers = [sign_in(c, NAMES["Vera"], f"wrong password {i}") for i in range(4)]
        assert [a.status_code for a in answers] == [401, 401, 401, 429]
        refused = answers[-1]
        error = refused.json()["error"]
        assert error["key"] == "limit.tries" and error["params"]["what"] == "signin-name"
        assert error["params"]["most"] == 3 and error["params"]["seconds"] == 60
        assert 1 <= int(refused.headers["retry-after"]) <= 61
        # the right password is refused too while the name is over its limit
        assert sign_in(c, NAMES["Vera"]).status_code == 429
        # other names from the same address, until the address's limit
        others = [sign_in(c, f"Someone {i}").status_code for i in range(3)]
        assert others[-1] == 429


def test_new_guests_and_accounts_are_limited_per_address(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    limits = make_settings(db, guests_per_address="3/minute", accounts_per_address="2/hour")
    with TestClient(create_app(limits)) as client:
        codes = []
        for i in range(4):
            c = Browser(client)
            codes.append(c.post("/api/guests", json={"name": f"G{i}"}).status_code)
        assert codes == [200, 200, 200, 429]
        made = [
            c.post("/api/account/register", json={"name": f"A{i}", "password": PASSWORD})
            for i in range(3)
        ]
        assert [m.status_code for m in made] == [201, 201, 429]
        assert made[-1].json()["error"]["params"]["what"] == "register"


def test_passwords_are_hashed_with_argon2id_at_rfc_9106_low_memory() -> None:
    # the tests run their servers with a lighter hasher (conftest); the shipped one is this
    from argon2 import Type
    from argon2.profiles import RFC_9106_LOW_MEMORY

    assert SHIPPED_HASHER.type is Type.ID
    params = (SHIPPED_HASHER.time_cost, SHIPPED_HASHER.memory_cost, SHIPPED_HASHER.parallelism)
    low = RFC_9106_LOW_MEMORY
    assert params == (low.time_cost, low.memory_cost, low.parallelism)
    assert SHIPPED_HASHER.hash("a long password").startswith("$argon2id$v=19$m=65536,t=3,p=4$")


def test_an_unknown_name_costs_a_password_check_too(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same work for "no such name" as for "wrong password": a hash is checked either way
    register(client_of(server), NAMES["Tina"])
    checked: list[str] = []
    real = accounts._HASHER

    class Counting:
        def verify(self, stored: str, password: str) -> bool:
            checked.append(stored)
            return real.verify(stored, password)

    monkeypatch.setattr(accounts, "_HASHER", Counting())
    sign_in(client_of(server), "Nobody At All")
    sign_in(client_of(server), NAMES["Tina"], "wrong password")
    assert (
        len(checked) == 2 and checked[0] == accounts._DUMMY and checked[1].startswith("$argon2id$")
    )


def test_requests_from_another_site_are_refused_and_change_nothing(server: Server) -> None:
    c = client_of(server)
    register(c, NAMES["Yara"])
    evil = {"origin": "http://evil.example"}
    r = c.post("/api/guests", json={"name": "Hacked"}, headers=evil)
    assert r.status_code == 403 and r.json()["error"]["key"] == "origin"
    assert c.get("/api/me").json()["name"] == NAMES["Yara"]
    for path, body in [
        ("/api/account/signout-all", None),
        ("/api/account/password", {"password": PASSWORD, "new_password": "x" * 10}),
        ("/api/tables", {"preset": "aberto", "players": 2, "seats": [{"kind": "me"}] * 2}),
    ]:
        assert c.post(path, json=body, headers=evil).status_code == 403, path
    cross = c.post("/api/account/signout-all", headers={"sec-fetch-site": "cross-site"})
    assert cross.status_code == 403
    assert c.get("/api/me").status_code == 200  # still signed in, same password
    assert sign_in(client_of(server), NAMES["Yara"]).status_code == 200
    # this server's own page may
    own = c.post(
        "/api/guests", json={"name": NAMES["Yara"]}, headers={"origin": "http://testserver"}
    )
    assert own.status_code == 200
    # and a socket opened by another site's page is refused
    yara = as_player(c, NAMES["Yara"])
    table = server.create(yara, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]["id"]
    foreign = {**yara.headers, **evil}
    with pytest.raises(WebSocketDisconnect) as refused:
        c.websocket_connect(f"/ws/tables/{table}", headers=foreign).__enter__()
    assert refused.value.code == 4403
    with c.websocket_connect(f"/ws/tables/{table}", headers=yara.headers) as ws:
        assert receive(ws)["type"] == "state"  # from its own page, the same socket opens


def test_an_allowed_origin_passes(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    app = create_app(make_settings(db, allowed_origins=("https://club.example",)))
    with TestClient(app) as c:
        ok = c.post(
            "/api/guests", json={"name": NAMES["Zoe"]}, headers={"origin": "https://club.example"}
        )
        assert ok.status_code == 200
        bad = c.post(
            "/api/guests", json={"name": NAMES["Zoe"]}, headers={"origin": "https://club.evil"}
        )
        assert bad.status_code == 403


def test_watchers_sockets_are_limited_per_address(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    with TestClient(create_app(make_settings(db, connections_per_address=3))) as client:
        server = Server(client, make_settings(db))
        ana = server.guest("Ana")
        table = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]["id"]
        sockets = [server.ws(table) for _ in range(3)]
        opened = [s.__enter__() for s in sockets]
        for ws in opened:
            assert receive(ws)["type"] == "state"
        with server.ws(table) as fourth:
            m = receive(fourth)
            assert m["type"] == "error" and m["key"] == "limit.sockets"
            assert m["params"] == {"most": 3}
        for s in sockets:
            s.__exit__(None, None, None)
        with server.ws(table) as again:  # room again once they close
            assert receive(again)["type"] == "state"


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    name=st.text(max_size=60),
    password=st.text(max_size=260),
)
def test_fuzzed_names_and_passwords_get_an_answer_never_a_crash(
    fuzz_server: Server, name: str, password: str
) -> None:
    c = client_of(fuzz_server)
    r = c.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code in (201, 400, 409, 422), r.text
    if r.status_code == 201:
        assert r.json()["name"] == name.strip()
        assert sign_in(client_of(fuzz_server), name, password).status_code == 200
    else:
        assert "error" in r.json() and COOKIE not in r.cookies
    s = sign_in(client_of(fuzz_server), name, password + "x")
    assert s.status_code in (401, 422), s.text


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'b.db'}"
    settings_ = make_settings(db, signin_per_name="100000/minute")
    with TestClient(create_app(settings_)) as client:
        yield Server(client, settings_)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_of_the_last_release_migrates_and_its_guests_stay_signed_in(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    # a database as the release before accounts made it (migrations up to 0004), with a guest
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from buraco.server.service import token_hash
    from buraco.server.store import _upgrade

    if kind == "sqlite":
        db_url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    else:
        db_url = request.getfixturevalue("fresh_pg")

    async def make_old() -> None:
        engine = create_async_engine(db_url)
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade, "0004")
            await conn.execute(
                text(
                    "INSERT INTO guests (id, token_hash, name, created_at) "
                    "VALUES ('oldguest', :h, 'Velha', CURRENT_TIMESTAMP)"
                ),
                {"h": token_hash("the old cookie")},
            )
        await engine.dispose()

    asyncio.run(make_old())
    old = {"cookie": f"{COOKIE}=the old cookie"}
    with TestClient(create_app(make_settings(db_url))) as c:
        me = c.get("/api/me", headers=old)
        assert me.status_code == 200 and me.json() == {
            "id": "oldguest",
            "name": "Velha",
            "account": False,
        }
        r = c.post("/api/account/claim", json={"password": PASSWORD}, headers=old)
        assert r.status_code == 200 and r.json()["account"] is True
        assert sign_in(Browser(c), "velha").status_code == 200


def test_signing_in_never_reuses_the_cookie_a_browser_came_with(server: Server) -> None:
    # session fixation: a token planted in a browser before it signs in (say, a guest's
    # the attacker made) stays that guest's; the account gets a token of its own
    owner = client_of(server)
    register(owner, NAMES["Iara"])
    planted = server.guest(f"Planted {secrets.token_hex(2)}")
    victim = client_of(server)
    victim.token = planted.token
    assert sign_in(victim, NAMES["Iara"]).status_code == 200
    assert victim.token != planted.token
    me = victim.get("/api/me").json()
    assert me["name"] == NAMES["Iara"] and me["account"] is True
    still = server.client.get("/api/me", headers=planted.headers).json()
    assert still["id"] == planted.id and still["account"] is False
    # and one account's cookie is never another's
    other = client_of(server)
    second = f"Other {secrets.token_hex(2)}"
    register(other, second)
    assert other.get("/api/me").json()["name"] == second
    assert victim.get("/api/me").json()["name"] == NAMES["Iara"]
