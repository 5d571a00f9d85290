"""Accounts on SQLite and PostgreSQL: register, claim, sign in on another client, the same seat
from two clients, sign out, passwords, limits, download and deletion; names that look alike."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import regex
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from buraco.server import accounts
from buraco.server.accounts import DELETED, same_name
from buraco.server.app import create_app
from buraco.server.routes import COOKIE
from serverkit import (
    PASSWORD,
    SHIPPED_HASHER,
    Browser,
    Player,
    Server,
    as_player,
    client_of,
    make_settings,
    my_turn,
    receive,
    register,
    sign_in,
    until,
    wait_for,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

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


def test_names_are_one_after_normalising_folding_and_look_alikes() -> None:
    same = ["Ana", "ana", "ANA", "Ａｎａ", "\u0410na", "An\u0430"]  # fullwidth, Cyrillic A and a
    assert all(same_name("Ana", n) for n in same)
    assert not same_name("Ana", "Ann")
    assert same_name("José", "JOSÉ") and same_name("José", "Jose\u0301")  # composed or not
    assert same_name("Bob", "B0B")  # a zero looks like an O
    assert same_name("Luiza", "LUIZA") and not same_name("Luiza", "Luisa")


LOOK_ALIKES = [
    "Bru\u200bna",  # a zero-width space
    "Br\u2060una",  # a word joiner
    "Bru\u00adna",  # a soft hyphen
    "Bruna\ufeff",  # a zero-width no-break space (byte order mark)
    "B\u034fruna",  # a combining grapheme joiner
    "Bruna\u3164",  # a Hangul filler
    "Bru\u200dna",  # a zero-width joiner
    "\u0412runa",  # a Cyrillic capital Ve
]
"""Names that are shown as ``Bruna``, or as good as."""


def test_look_alikes_of_invisible_characters_and_other_scripts_capitals_are_one_name() -> None:
    for name in LOOK_ALIKES:
        assert same_name("Bruna", name), ascii(name)
        assert same_name(name, "bruna") and same_name(name.upper(), "BRUNA"), ascii(name)
    # the Cyrillic capital and its own small letter are one name (case folded first), and
    # the small letter, which looks like a small capital ʙ, is not Bruna
    assert same_name("\u0412runa", "\u0432runa") and not same_name("Bruna", "\u0432runa")
    assert not same_name("Bruna", "Bruno")


DEFAULT_IGNORABLE = regex.findall(r"\p{DI}", "".join(map(chr, range(0x110000))))
"""Every default-ignorable code point (Unicode's DI property: not shown, 4,174 of them);
found in one pass over every code point (a match a code point took 12 s to collect)."""


@settings(max_examples=200, deadline=None)
@given(
    name=st.text(st.characters(codec="utf-8", categories=["L", "N"]), min_size=1, max_size=12),
    hidden=st.lists(
        st.sampled_from(DEFAULT_IGNORABLE),
        min_size=1,
        max_size=3,
    ),
    at=st.integers(0, 12),
)
def test_a_name_with_characters_that_are_not_shown_is_the_name(
    name: str, hidden: list[str], at: int
) -> None:
    at = min(at, len(name))
    assert same_name(name, name[:at] + "".join(hidden) + name[at:])
    assert same_name(name, name.upper()) and same_name(name.casefold(), name)


def test_look_alikes_of_an_account_are_refused_to_guests_and_accounts(server: Server) -> None:
    # refused alike, 409 name.taken, as a guest's name and as an account's
    tag = secrets.token_hex(2)
    bruna = f"Bruna {tag}"
    made = register(client_of(server), bruna)
    for look_alike in LOOK_ALIKES:
        name = f"{look_alike} {tag}"
        other = client_of(server)
        r = other.post("/api/account/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"]["key"] == "name.taken", ascii(name)
        g = other.post("/api/guests", json={"name": name})
        assert g.status_code == 409 and g.json()["error"]["key"] == "name.taken", ascii(name)
        # and signing in under it is signing in to Bruna (the one account of that name)
        signed = sign_in(client_of(server), name)
        assert signed.status_code == 200 and signed.json()["id"] == made["id"], ascii(name)
    # a look-alike guest made before the account cannot claim the name now
    early = server.guest(f"Bru\u200bno {tag}")
    register(client_of(server), f"Bruno {tag}")
    r = server.client.post("/api/account/claim", json={"password": PASSWORD}, headers=early.headers)
    assert r.status_code == 409 and r.json()["error"]["key"] == "name.taken"


@pytest.mark.parametrize("name", ["\u3164", "\u200b\u200d", "\u3164 \u115f", "\u00ad\ufeff"])
def test_a_name_of_characters_that_are_not_shown_is_refused(server: Server, name: str) -> None:
    for path, body in (
        ("/api/guests", {"name": name}),
        ("/api/account/register", {"name": name, "password": PASSWORD}),
    ):
        r = client_of(server).post(path, json=body)
        assert r.status_code == 400 and r.json()["error"]["key"] == "name.visible", (path, r.text)


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
    r = a.post("/api/account/password", json=bad)
    # worded as the current password, not as a sign-in's "no account has this name"
    assert r.status_code == 403 and r.json()["error"]["key"] == "password.wrong", r.text
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
    ana = Player(name, ana.id, r.cookies[COOKIE])  # the browser's new session
    server.client.cookies.clear()
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
        assert g.status_code == 409 and g.json()["error"]["key"] == "name.taken", name
    # a guest who already has the name cannot claim it twice
    bia_name = f"Bia {secrets.token_hex(2)}"
    bia = server.guest(bia_name)
    register(client_of(server), NAMES["Bianca"])
    r = server.client.post("/api/account/claim", json={"password": PASSWORD}, headers=bia.headers)
    assert r.status_code == 200
    bia = Player(bia_name, bia.id, r.cookies[COOKIE])
    server.client.cookies.clear()
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


def test_every_password_is_hashed_and_checked_outside_the_event_loop(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Argon2id in the event loop would hold up every table: each hash and each check of
    # registering, claiming, signing in (an unknown name too), a new password and deleting
    # is made in the pool's threads
    import threading

    where: list[tuple[str, str]] = []
    real = accounts._HASHER

    class Watching:
        def hash(self, password: str) -> str:
            where.append(("hash", threading.current_thread().name))
            return real.hash(password)

        def verify(self, stored: str, password: str) -> bool:
            where.append(("verify", threading.current_thread().name))
            return real.verify(stored, password)

    monkeypatch.setattr(accounts, "_HASHER", Watching())
    c = client_of(server)
    name = f"Hashed {secrets.token_hex(2)}"
    register(c, name)
    sign_in(client_of(server), name, "a wrong password")
    sign_in(client_of(server), "Nobody Here At All")
    assert sign_in(client_of(server), name).status_code == 200
    new = {"password": PASSWORD, "new_password": "another long one"}
    assert c.post("/api/account/password", json=new).status_code == 204
    guest = server.guest(f"Claimer {secrets.token_hex(2)}")
    claimed = server.client.post(
        "/api/account/claim", json={"password": PASSWORD}, headers=guest.headers
    )
    assert claimed.status_code == 200
    gone = c.post("/api/account/delete", json={"password": "another long one"})
    assert gone.status_code == 204
    kinds = [k for k, _ in where]
    assert kinds.count("hash") == 3 and kinds.count("verify") == 5, where
    assert all(t.startswith("buraco-password") for _, t in where), where


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migration_recomputes_every_accounts_name_keys(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    # accounts made while look-alikes passed: "Bruna", then "Bru\u200bna" (a zero-width
    # space), each with its old key; both keep signing in, and no third look-alike passes
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from buraco.server.service import token_hash
    from buraco.server.store import _upgrade

    if kind == "sqlite":
        db_url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    else:
        db_url = request.getfixturevalue("fresh_pg")
    stored = accounts.hash_password(PASSWORD)
    made = [("first", "Bruna", "bruna"), ("second", "Bru\u200bna", "bru\u200bna")]
    made.append(("third", "Caio", "caio"))

    async def make_old() -> None:
        engine = create_async_engine(db_url)
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade, "0007")
            for i, (gid, name, key) in enumerate(made):
                await conn.execute(
                    text(
                        "INSERT INTO guests (id, token_hash, name, created_at, name_key, "
                        "password_hash, registered_at, deleted) VALUES (:id, :h, :name, "
                        "CURRENT_TIMESTAMP, :key, :pw, :at, false)"
                    ),
                    {
                        "id": gid,
                        "h": token_hash(gid),
                        "name": name,
                        "key": key,
                        "pw": stored,
                        "at": datetime(2026, 1, i + 1, tzinfo=UTC),
                    },
                )
        await engine.dispose()

    async def keys() -> dict[str, tuple[str | None, str | None]]:
        engine = create_async_engine(db_url)
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT id, name_key, shape_key FROM guests"))
            out = {r[0]: (r[1], r[2]) for r in rows}
        await engine.dispose()
        return out

    asyncio.run(make_old())
    with TestClient(create_app(make_settings(db_url))) as c:
        after = asyncio.run(keys())
        assert after["first"] == ("bruna", "bruna")  # the older keeps the name's keys
        assert after["second"] == (None, None)
        assert after["third"] == ("caio", "caio")
        for gid, name, _key in made:
            r = sign_in(Browser(c), name)
            assert r.status_code == 200 and r.json()["id"] == gid, name
        assert sign_in(Browser(c), "BRUNA").json()["id"] == "first"
        for name in ("Bruna\ufeff", "bru\u00adna", "\u0412runa", "CAIO"):
            r = Browser(c).post("/api/account/register", json={"name": name, "password": PASSWORD})
            assert r.status_code == 409, name


def test_claiming_a_name_gives_a_new_token_and_ends_the_guests(server: Server) -> None:
    # a guest's token known to someone else (planted in the browser, or read over a
    # shoulder) must not become an account's session when the guest claims the name
    name = f"Claimed {secrets.token_hex(2)}"
    guest = server.guest(name)
    owner, known = client_of(server), client_of(server)
    owner.token = known.token = guest.token
    r = owner.post("/api/account/claim", json={"password": PASSWORD})
    assert r.status_code == 200 and r.json() == {"id": guest.id, "name": name, "account": True}
    assert owner.token is not None and owner.token != guest.token
    me = owner.get("/api/me")
    assert me.status_code == 200 and me.json()["account"] is True
    assert known.get("/api/me").status_code == 401  # the guest's token signs no one in
    assert server.client.get("/api/me", headers=guest.headers).status_code == 401
    assert sign_in(client_of(server), name).json()["id"] == guest.id
    # a claim refused (the name taken meanwhile) changes nothing: the guest stays signed in
    taken = f"Taken {secrets.token_hex(2)}"
    other = server.guest(taken)
    register(client_of(server), f"{taken}\u200b")
    no = server.client.post(
        "/api/account/claim", json={"password": PASSWORD}, headers=other.headers
    )
    assert no.status_code == 409 and COOKIE not in no.cookies
    assert server.client.get("/api/me", headers=other.headers).json()["id"] == other.id


def test_guessing_at_a_name_is_limited_and_never_locks_its_owner_out(tmp_path: Path) -> None:
    # one address guessing is limited at that name alone; guesses from many addresses put
    # the name past its failures, after which only browsers that signed in to it before may
    # try: its owner still signs in, from another address, while the guessers are refused
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    db = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    limits = make_settings(db, signin_per_name="3/minute", signin_failures_per_name="8/hour")
    app = ProxyHeadersMiddleware(create_app(limits), trusted_hosts="*")  # type: ignore[arg-type]
    with TestClient(app) as client:  # type: ignore[arg-type]
        name = NAMES["Zoe"] + " owner"
        owner = Browser(client, "198.51.100.7")
        register(owner, name)
        assert owner.device is not None  # this browser is the account's now
        owner.post("/api/account/signout")
        attacker = Browser(client, "203.0.113.1")
        tries = [sign_in(attacker, name, f"guess {i}").status_code for i in range(4)]
        assert tries == [401, 401, 401, 429]
        refused = sign_in(attacker, name, "guess 4").json()["error"]
        assert refused["key"] == "limit.tries" and refused["params"]["what"] == "signin-name"
        # the owner, at another address: signed in (a new browser too, while the name has
        # room for failures)
        assert sign_in(owner, name).status_code == 200
        assert sign_in(Browser(client, "198.51.100.8"), name).status_code == 200
        # guesses from five more addresses: the name is past its 8 failures an hour
        for i in range(5):
            sign_in(Browser(client, f"203.0.113.{10 + i}"), name, f"more {i}")
        late = Browser(client, "203.0.113.99")
        r = sign_in(late, name)  # even the right password, from a browser the name never saw
        assert r.status_code == 429 and r.json()["error"]["params"]["what"] == "signin-account"
        assert late.token is None
        # and a wrong one answers the same (nothing is checked): no guess is tried
        r = sign_in(Browser(client, "203.0.113.98"), name, "a guess")
        assert r.status_code == 429
        # the owner's browser, from yet another address: signed in, and a typo is a 401
        owner.address = "192.0.2.50"
        owner.post("/api/account/signout")
        assert sign_in(owner, name, "a typo in it").status_code == 401
        assert sign_in(owner, name).status_code == 200
        assert owner.get("/api/me").json()["name"] == name


def test_an_origin_of_the_other_scheme_is_another_site(server: Server) -> None:
    # https://testserver is not the page of a plain-http server at testserver
    c = client_of(server)
    wrong = c.post(
        "/api/guests", json={"name": "Schemed"}, headers={"origin": "https://testserver"}
    )
    assert wrong.status_code == 403 and wrong.json()["error"]["key"] == "origin"
    right = c.post("/api/guests", json={"name": "Schemed"}, headers={"origin": "http://testserver"})
    assert right.status_code == 200
    me = as_player(c, "Schemed")
    table = server.create(me, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]["id"]
    with pytest.raises(WebSocketDisconnect) as refused:
        c.websocket_connect(
            f"/ws/tables/{table}", headers={**me.headers, "origin": "https://testserver"}
        ).__enter__()
    assert refused.value.code == 4403
    with c.websocket_connect(
        f"/ws/tables/{table}", headers={**me.headers, "origin": "http://testserver"}
    ) as ws:
        assert receive(ws)["type"] == "state"


def test_behind_a_tls_proxy_the_origin_is_its_https_page(tmp_path: Path) -> None:
    # X-Forwarded-Proto: https from a trusted proxy: the page is https://, not http://
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    app = create_app(make_settings(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"))
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")  # type: ignore[arg-type]
    with TestClient(proxied) as behind:  # type: ignore[arg-type]
        for origin, status in (("https://testserver", 200), ("http://testserver", 403)):
            r = behind.post(
                "/api/guests",
                json={"name": f"Proxied {status}"},
                headers={"x-forwarded-proto": "https", "origin": origin},
            )
            assert r.status_code == status, (origin, r.text)
