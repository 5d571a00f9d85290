"""The REST API on the real app: guests, presets, tables, seats, finished games, health."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from buraco.cards import CARD_NAMES
from buraco.fairness import verify
from buraco.game import Game
from buraco.replays import replay
from buraco.server.app import create_app
from buraco.server.models import GameRow
from buraco.server.routes import COOKIE
from buraco.server.service import BOT_NAMES
from buraco.server.store import Store
from buraco.server.tablespec import BRAZIL_NAMES, ITALY_NAMES, PRESET_NAMES
from buraco.views import seat_view
from serverkit import Player, Server, make_settings, receive, until, wait_for

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TWO = [{"kind": "me"}, {"kind": "open"}]
BOTS = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]


def error_of(r: Any) -> dict[str, Any]:
    """The ``error`` object of a refused request."""
    body = r.json()
    assert set(body) == {"error"}, body
    err: dict[str, Any] = body["error"]
    assert isinstance(err["message"], str) and err["message"]
    return err


def table_of(server: Server, table_id: str, who: Player | None = None) -> dict[str, Any]:
    r = server.client.get(f"/api/tables/{table_id}", headers=who.headers if who else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Server]:
    """The app on SQLite with a limit of two unfinished tables per guest."""
    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", max_tables_per_guest=2)
    with TestClient(create_app(settings)) as client:
        yield Server(client, settings)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One app on SQLite for the tests that only read, or make things of their own."""
    db = tmp_path_factory.mktemp("shared") / "buraco.db"
    settings = make_settings(f"sqlite+aiosqlite:///{db}")
    with TestClient(create_app(settings)) as client:
        yield Server(client, settings)
        client.cookies.clear()


# ----- guests --------------------------------------------------------------------------------


def test_a_new_guest_gets_an_httponly_cookie_not_shown_in_the_body(shared: Server) -> None:
    client = shared.client
    r = client.post("/api/guests", json={"name": "Ana"})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "httponly" in cookie.lower()
    assert "samesite=lax" in cookie.lower()
    token = r.cookies[COOKIE]
    assert len(token) >= 32 and token not in r.text
    assert r.json()["name"] == "Ana" and r.json()["account"] is False
    client.cookies.clear()
    me = client.get("/api/me", headers={"cookie": f"{COOKIE}={token}"})
    assert me.json() == r.json()
    anonymous = client.get("/api/me")
    assert anonymous.status_code == 401 and "/api/guests" in error_of(anonymous)["message"]
    forged = client.get("/api/me", headers={"cookie": f"{COOKIE}={token[:-1]}x"})
    assert forged.status_code == 401


def test_two_guests_get_different_ids_and_tokens(shared: Server) -> None:
    a, b = shared.guest("Ana"), shared.guest("Ana")
    assert a.id != b.id and a.token != b.token


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "a" * 41,
        "Ana\x1b[2J",
        "A\u202eB",
        "two\nlines",
        "nul\x00",
        "tab\there",
        "x" * 5000,
    ],
)
def test_a_bad_name_is_refused_saying_what_a_name_is(shared: Server, name: str) -> None:
    r = shared.client.post("/api/guests", json={"name": name})
    assert r.status_code == 400, r.text
    err = error_of(r)
    assert err["field"] == "name" and "1 to 40" in err["message"]
    assert COOKIE not in r.cookies


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("a" * 40, "a" * 40),
        ("  Ana  ", "Ana"),
        ("<b>Bia</b> & 'Caio' \"Duda\"", "<b>Bia</b> & 'Caio' \"Duda\""),
        ("名字 😀 Zoë", "名字 😀 Zoë"),
        ("{{7*7}} ${x} %s", "{{7*7}} ${x} %s"),
    ],
)
def test_a_good_name_is_kept_as_written(shared: Server, name: str, kept: str) -> None:
    r = shared.client.post("/api/guests", json={"name": name})
    shared.client.cookies.clear()
    assert r.status_code == 200 and r.json()["name"] == kept


def test_a_name_that_is_not_text_is_refused(shared: Server) -> None:
    for body in ({"name": 5}, {"name": None}, {}, {"name": "Ana", "admin": True}):
        r = shared.client.post("/api/guests", json=body)
        assert r.status_code == 422, body
        # the same error format as every other refusal
        error = r.json()["error"]
        assert error["code"] == "request" and error["message"], body
    r = shared.client.post("/api/guests", json={"name": "Ana", "admin": True})
    assert r.json()["error"]["field"] == "admin"


def test_the_guest_of_a_cookie_renames_and_keeps_their_id(shared: Server) -> None:
    client = shared.client
    ana = shared.guest("Ana")
    r = client.post("/api/guests", json={"name": "Ana Maria"}, headers=ana.headers)
    assert r.status_code == 200
    assert r.json() == {"id": ana.id, "name": "Ana Maria", "account": False}
    assert "set-cookie" not in r.headers  # the same token stays valid
    assert client.get("/api/me", headers=ana.headers).json()["name"] == "Ana Maria"
    bad = client.post("/api/guests", json={"name": "\x07"}, headers=ana.headers)
    assert bad.status_code == 400
    assert client.get("/api/me", headers=ana.headers).json()["name"] == "Ana Maria"


# ----- rules ---------------------------------------------------------------------------------


def test_presets_lists_every_preset_and_the_kind_of_every_option(shared: Server) -> None:
    r = shared.client.get("/api/presets")
    assert r.status_code == 200
    data = r.json()
    presets = {p["name"]: p for p in data["presets"]}
    assert set(presets) == {"aberto", "fechado", "us", "netcartas", "italiano"}
    assert presets["aberto"]["players"] == [2, 4] and presets["us"]["players"] == [2, 4, 6]
    assert set(presets["italiano"]["defaults"]) == {"2", "3", "4"}
    assert presets["us"]["defaults"]["6"]["decks"] == 3
    # every option's value, also those a preset keeps from the base rules
    names = {o["name"] for o in data["options"]}
    assert names <= set(presets["aberto"]["defaults"]["4"])
    assert presets["aberto"]["defaults"]["4"]["pile_open"] is True
    assert presets["fechado"]["defaults"]["4"]["pile_open"] is False
    options = {o["name"]: o for o in data["options"]}
    assert "players" not in options
    assert options["target"]["type"] == "int" and options["target"]["max"] == 100_000
    assert options["pile_open"]["type"] == "bool"
    assert options["aces"]["type"] == "choice" and "both" in options["aces"]["choices"]
    assert options["pot_sizes"]["type"] == "sizes"
    assert all(o["help"] for o in data["options"])


# ----- making tables -------------------------------------------------------------------------


def test_a_table_with_every_kind_of_seat(shared: Server) -> None:
    ana = shared.guest("Ana")
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "invite"}, {"kind": "bot", "bot": "greedy"}]
    made = shared.create(ana, seats, players=4, options={"target": 1500}, turn_timer=60)
    t = made["table"]
    assert [s["kind"] for s in t["seats"]] == ["guest", "open", "invite", "bot"]
    assert t["seats"][0]["name"] == "Ana" and t["seats"][3]["bot"] == "greedy"
    assert t["open_seats"] == [1] and t["invite_seats"] == [2]
    assert t["status"] == "waiting" and t["version"] == 0 and t["hand"] is None
    assert t["options"] == {"target": 1500} and t["turn_timer"] == 60 and t["pace"] == 0
    assert made["invite"] and made["link"] == f"/#/table/{t['id']}?invite={made['invite']}"
    # the public summary tells no one a guest id
    assert ana.id not in json.dumps(t)
    assert table_of(shared, t["id"], ana)["you"] == 0


def test_a_public_table_without_invite_seats_has_no_invite_code(shared: Server) -> None:
    ana = shared.guest("Ana")
    made = shared.create(ana, TWO, players=2)
    assert made["invite"] is None and made["link"] == f"/#/table/{made['table']['id']}"


def test_making_a_table_needs_a_name(shared: Server) -> None:
    r = shared.client.post("/api/tables", json={"players": 2, "seats": TWO})
    assert r.status_code == 401 and error_of(r)["code"] == "guest"


BASE: dict[str, Any] = {"preset": "aberto", "players": 2, "seats": TWO, "pace": 0}


@pytest.mark.parametrize(
    ("change", "code", "field", "words"),
    [
        ({"preset": "bogus"}, "rules", "preset", ["'bogus'", "aberto", "italiano"]),
        ({"options": {"colour": "red"}}, "rules", "colour", ["'colour'", "target"]),
        ({"options": {"target": "abc"}}, "rules", "target", ["'abc'", "whole number"]),
        ({"options": {"target": -5}}, "rules", "target", ["-5", "1 to 100000"]),
        ({"options": {"target": 10**9}}, "rules", "target", ["1 to 100000"]),
        ({"options": {"aces": "sideways"}}, "rules", "aces", ["'sideways'", "both"]),
        (
            {"options": {"upcard": True, "first_card_choice": True}},
            "rules",
            "first_card_choice",
            ["upcard", "first_card_choice"],
        ),
        (
            {"options": {"pile_streak_limit": 0}},
            "rules",
            "pile_streak_limit",
            ["pile_streak_limit=0", "pile_top_meld=false", "RULINGS 9", "from 1 to 1000"],
        ),
        (
            {"players": 3, "seats": [*TWO, {"kind": "open"}]},
            "rules",
            "players",
            ["2 or 4", "not 3"],
        ),
        ({"options": {"players": 4}}, "rules", "players", ["players"]),
        (
            {"seats": [{"kind": "me"}, {"kind": "bot", "bot": "bogus"}]},
            "seats",
            "seats",
            ["seat 2", "'bogus'", "heuristic"],
        ),
        ({"seats": [{"kind": "me"}, {"kind": "bot"}]}, "seats", "seats", ["seat 2", "bot spec"]),
        (
            {"seats": [{"kind": "me"}, {"kind": "bot", "bot": "mcts:speed=9"}]},
            "seats",
            "seats",
            ["seat 2", "speed"],
        ),
        (
            {"seats": [{"kind": "me"}, {"kind": "alien"}]},
            "seats",
            "seats",
            ["seat 2", "open, invite, bot, me"],
        ),
        ({"seats": [{"kind": "me"}, {"kind": "me"}]}, "seats", "seats", ["at most one"]),
        ({"seats": [*TWO, {"kind": "open"}]}, "seats", "seats", ["give 2 seats"]),
        ({"players": 4}, "seats", "seats", ["give 4 seats"]),
        ({"pace": 6}, "pace", "pace", ["0 to 5"]),
        ({"pace": -0.5}, "pace", "pace", ["0 to 5"]),
        ({"turn_timer": 45}, "turn_timer", "turn_timer", ["0, 30, 60, 120"]),
        ({"turn_timer": -30}, "turn_timer", "turn_timer", ["0, 30, 60, 120"]),
    ],
)
def test_a_bad_table_is_refused_naming_what_is_wrong_and_what_is_allowed(
    shared: Server, change: dict[str, Any], code: str, field: str, words: list[str]
) -> None:
    ana = shared.guest("Ana")
    before = len(shared.client.get("/api/tables").json()["tables"])
    r = shared.client.post("/api/tables", json={**BASE, **change}, headers=ana.headers)
    assert r.status_code == 400, r.text
    err = error_of(r)
    assert err["code"] == code and err["field"] == field, err
    for word in words:
        assert word in err["message"], (word, err["message"])
    # nothing was made
    assert len(shared.client.get("/api/tables").json()["tables"]) == before


def test_a_malformed_table_request_is_refused_without_a_table(shared: Server) -> None:
    ana = shared.guest("Ana")
    before = len(shared.client.get("/api/tables").json()["tables"])
    for body in (
        {**BASE, "seats": [{"kind": "me", "bot": "greedy", "extra": 1}, {"kind": "open"}]},
        {**BASE, "turn_timer": "soon"},
        {**BASE, "options": ["target", 10]},
        {**BASE, "public": "maybe"},
        {k: v for k, v in BASE.items() if k != "seats"},
    ):
        r = shared.client.post("/api/tables", json=body, headers=ana.headers)
        assert r.status_code == 422, body
    assert len(shared.client.get("/api/tables").json()["tables"]) == before


def test_a_guest_may_have_a_limited_number_of_unfinished_tables(limited: Server) -> None:
    ana, bia = limited.guest("Ana"), limited.guest("Bia")
    limited.create(ana, TWO, players=2)
    limited.create(ana, TWO, players=2, public=False)
    r = limited.client.post("/api/tables", json=BASE, headers=ana.headers)
    assert r.status_code == 429
    err = error_of(r)
    assert err["code"] == "limit" and "2 unfinished tables" in err["message"]
    # the limit is per guest
    limited.create(bia, TWO, players=2)


def test_finished_tables_leave_the_list_and_the_limit(limited: Server) -> None:
    ana, bia = limited.guest("Ana"), limited.guest("Bia")
    done = limited.create(ana, BOTS, players=2, options={"match_hands": 1})["table"]
    playing = limited.create(bia, [{"kind": "me"}, BOTS[0]], players=2, pace=5)["table"]
    waiting = limited.create(bia, TWO, players=2)["table"]
    wait_for(lambda: table_of(limited, playing["id"])["table"]["status"] == "playing")
    listed = limited.client.get("/api/tables").json()["tables"]
    assert {t["id"] for t in listed} >= {waiting["id"], playing["id"]}
    wait_for(lambda: table_of(limited, done["id"])["table"]["status"] == "over")
    listed = limited.client.get("/api/tables").json()["tables"]
    # waiting tables first; the finished one is gone
    assert [(t["id"], t["status"]) for t in listed] == [
        (waiting["id"], "waiting"),
        (playing["id"], "playing"),
    ]
    # Ana's finished table does not count against her limit of two
    limited.create(ana, TWO, players=2)
    limited.create(ana, TWO, players=2)
    r = limited.client.post("/api/tables", json=BASE, headers=ana.headers)
    assert r.status_code == 429


def test_leaving_your_own_waiting_table_frees_a_place(limited: Server) -> None:
    ana = limited.guest("Ana")
    first = limited.create(ana, TWO, players=2)["table"]
    limited.create(ana, TWO, players=2)
    r = limited.client.post(f"/api/tables/{first['id']}/leave", headers=ana.headers)
    assert r.status_code == 200
    r = limited.client.post("/api/tables", json=BASE, headers=ana.headers)
    assert r.status_code == 201, r.text
    # the table left is gone
    assert limited.client.get(f"/api/tables/{first['id']}").status_code == 404


@pytest.mark.parametrize(
    ("bot", "words"),
    [
        ("mcts:time=3600", "at most 2 seconds"),
        ("mcts:iterations=100000,time=0", "at most 2000 rounds"),
        ("mcts:time=0", "needs a budget"),
    ],
)
def test_bots_that_would_hold_the_shared_workers_are_refused(
    sqlite_server: Server, bot: str, words: str
) -> None:
    ana = sqlite_server.guest("Ana")
    seats: list[dict[str, str]] = [{"kind": "me"}, {"kind": "bot", "bot": bot}]
    body = {"preset": "aberto", "players": 2, "seats": seats}
    r = sqlite_server.client.post("/api/tables", json=body, headers=ana.headers)
    assert r.status_code == 400
    assert r.json()["error"]["field"] == "seats" and words in r.json()["error"]["message"]
    seats[1]["bot"] = "mcts:time=0.5"
    assert (
        sqlite_server.client.post("/api/tables", json=body, headers=ana.headers).status_code == 201
    )


def test_the_strongest_bot_is_offered_by_its_short_name(sqlite_server: Server) -> None:
    ana = sqlite_server.guest("Ana")
    seats: list[dict[str, str]] = [{"kind": "me"}, {"kind": "bot", "bot": "expert"}]
    body = {"preset": "aberto", "players": 2, "seats": seats}
    r = sqlite_server.client.post("/api/tables", json=body, headers=ana.headers)
    assert r.status_code == 201, r.text
    assert "expert" in r.text
    # its parameters may be changed within the workers' budget, never to a file's value
    for bot, status in (("expert:time=3600", 400), ("expert:value=/etc/passwd", 400)):
        seats[1]["bot"] = bot
        r = sqlite_server.client.post("/api/tables", json=body, headers=ana.headers)
        assert r.status_code == status, (bot, r.text)


# ----- listing and seeing tables -------------------------------------------------------------


def test_the_public_list_shows_public_tables_only(sqlite_server: Server) -> None:
    ana, bia = sqlite_server.guest("Ana"), sqlite_server.guest("Bia")
    public = sqlite_server.create(ana, TWO, players=2)["table"]
    private = sqlite_server.create(ana, TWO, players=2, public=False)
    assert private["invite"]
    listed = sqlite_server.client.get("/api/tables", headers=bia.headers).json()["tables"]
    assert [t["id"] for t in listed] == [public["id"]]
    # its player sees it too (Ana sits at both)
    listed = sqlite_server.client.get("/api/tables", headers=ana.headers).json()["tables"]
    assert {t["id"] for t in listed} == {private["table"]["id"], public["id"]}
    assert [t["you"] for t in listed] == [0, 0]
    # a private table: hidden without the invite code, except from its creator
    pid = private["table"]["id"]
    hidden = sqlite_server.client.get(f"/api/tables/{pid}", headers=bia.headers)
    assert hidden.status_code == 404 and error_of(hidden)["code"] == "not-found"
    wrong = sqlite_server.client.get(f"/api/tables/{pid}?invite=nope", headers=bia.headers)
    assert wrong.status_code == 404
    seen = sqlite_server.client.get(f"/api/tables/{pid}?invite={private['invite']}")
    assert seen.status_code == 200 and seen.json()["you"] is None
    assert table_of(sqlite_server, pid, ana)["you"] == 0


def test_an_unknown_table_is_404(shared: Server) -> None:
    ana = shared.guest("Ana")
    for table_id in ("nope", "x" * 33, "a%00b", "%F0%9F%98%80", "..%2F..%2Fetc"):
        r = shared.client.get(f"/api/tables/{table_id}", headers=ana.headers)
        assert r.status_code == 404, table_id
        r = shared.client.post(
            f"/api/tables/{table_id}/join", json={"seat": 0}, headers=ana.headers
        )
        assert r.status_code == 404, table_id


# ----- seats ---------------------------------------------------------------------------------


def join(server: Server, who: Player, table_id: str, seat: int, invite: str | None = None) -> Any:
    body: dict[str, Any] = {"seat": seat}
    if invite is not None:
        body["invite"] = invite
    return server.client.post(f"/api/tables/{table_id}/join", json=body, headers=who.headers)


def test_joining_an_open_seat(sqlite_server: Server) -> None:
    ana, bia = sqlite_server.guest("Ana"), sqlite_server.guest("Bia")
    t = sqlite_server.create(ana, [{"kind": "me"}] + [{"kind": "open"}] * 3, players=4)["table"]
    r = join(sqlite_server, bia, t["id"], 1)
    assert r.status_code == 200 and r.json()["you"] == 1
    seat = r.json()["table"]["seats"][1]
    assert seat["kind"] == "guest" and seat["name"] == "Bia"
    assert r.json()["table"]["open_seats"] == [2, 3] and r.json()["table"]["version"] == 1
    assert table_of(sqlite_server, t["id"], bia)["you"] == 1
    # a guest joining twice
    again = join(sqlite_server, bia, t["id"], 3)
    assert again.status_code == 409 and error_of(again)["code"] == "seated"
    # taken seats: another guest's, a bot's
    caio = sqlite_server.guest("Caio")
    taken = join(sqlite_server, caio, t["id"], 1)
    assert taken.status_code == 409 and "seat 1 is taken" in error_of(taken)["message"]
    # a seat that is not at the table
    beyond = join(sqlite_server, caio, t["id"], 4)
    assert beyond.status_code == 404 and "0 to 3" in error_of(beyond)["message"]
    assert table_of(sqlite_server, t["id"])["table"]["version"] == 1


def test_joining_needs_a_name(shared: Server) -> None:
    ana = shared.guest("Ana")
    t = shared.create(ana, TWO, players=2)["table"]
    r = shared.client.post(f"/api/tables/{t['id']}/join", json={"seat": 1})
    assert r.status_code == 401


def test_a_bot_seat_is_taken(shared: Server) -> None:
    ana, bia = shared.guest("Ana"), shared.guest("Bia")
    seats = [{"kind": "me"}, BOTS[0], {"kind": "open"}, BOTS[1]]
    t = shared.create(ana, seats, players=4)["table"]
    r = join(shared, bia, t["id"], 3)
    assert r.status_code == 409 and error_of(r)["code"] == "taken"


def test_a_seat_kept_for_the_invite_needs_the_code(shared: Server) -> None:
    ana, bia = shared.guest("Ana"), shared.guest("Bia")
    made = shared.create(ana, [{"kind": "me"}, {"kind": "invite"}], players=2, pace=5)
    t, code = made["table"], made["invite"]
    for invite in (None, "wrong", code.upper() if code.upper() != code else code + "x"):
        r = join(shared, bia, t["id"], 1, invite)
        assert r.status_code == 403, invite
        assert error_of(r)["code"] == "invite" and "invite" in error_of(r)["message"]
    r = join(shared, bia, t["id"], 1, code)
    assert r.status_code == 200 and r.json()["table"]["seats"][1]["name"] == "Bia"


def test_a_private_table_is_404_without_its_invite_code(shared: Server) -> None:
    ana, bia = shared.guest("Ana"), shared.guest("Bia")
    made = shared.create(ana, TWO, players=2, public=False, pace=5)
    t = made["table"]
    r = join(shared, bia, t["id"], 1)
    assert r.status_code == 404 and error_of(r)["code"] == "not-found"
    r = join(shared, bia, t["id"], 1, "not-the-code")
    assert r.status_code == 404
    r = join(shared, bia, t["id"], 1, made["invite"])
    assert r.status_code == 200 and r.json()["you"] == 1
    # once seated, the table is theirs to see without the code
    assert table_of(shared, t["id"], bia)["you"] == 1


def test_leaving_gives_the_seat_back(sqlite_server: Server) -> None:
    ana, bia, caio = (sqlite_server.guest(n) for n in ("Ana", "Bia", "Caio"))
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "invite"}, {"kind": "open"}]
    made = sqlite_server.create(ana, seats, players=4)
    t = made["table"]
    assert join(sqlite_server, bia, t["id"], 1).status_code == 200
    assert join(sqlite_server, caio, t["id"], 2, made["invite"]).status_code == 200
    r = sqlite_server.client.post(f"/api/tables/{t['id']}/leave", headers=bia.headers)
    assert r.status_code == 200
    assert r.json()["table"]["open_seats"] == [1, 3]
    r = sqlite_server.client.post(f"/api/tables/{t['id']}/leave", headers=caio.headers)
    # a seat kept for the invite goes back to the invite
    assert r.json()["table"]["invite_seats"] == [2] and r.json()["table"]["open_seats"] == [1, 3]
    again = sqlite_server.client.post(f"/api/tables/{t['id']}/leave", headers=caio.headers)
    assert again.status_code == 409 and error_of(again)["code"] == "not-seated"
    assert table_of(sqlite_server, t["id"], bia)["you"] is None
    # the seat can be taken again
    assert join(sqlite_server, caio, t["id"], 1).json()["you"] == 1


def test_the_match_starts_when_every_seat_is_filled(sqlite_server: Server) -> None:
    ana, bia, caio = (sqlite_server.guest(n) for n in ("Ana", "Bia", "Caio"))
    t = sqlite_server.create(ana, TWO, players=2)["table"]
    time.sleep(0.1)
    assert table_of(sqlite_server, t["id"])["table"]["status"] == "waiting"  # one seat open
    assert join(sqlite_server, bia, t["id"], 1).status_code == 200
    started = wait_for(
        lambda: (s := table_of(sqlite_server, t["id"])["table"])["status"] == "playing" and s
    )
    assert started["hand"] == 1 and started["version"] == 2  # the seat, then the deal
    assert started["totals"] == [0, 0]
    late = join(sqlite_server, caio, t["id"], 1)
    assert late.status_code == 409 and error_of(late)["code"] == "started"
    # leaving a match in play: the stand-in takes the seat for good, under the same name
    leave = sqlite_server.client.post(f"/api/tables/{t['id']}/leave", headers=bia.headers)
    assert leave.status_code == 200, leave.text
    seat = leave.json()["table"]["seats"][1]
    assert seat["kind"] == "bot" and seat["bot"] == "heuristic" and seat["name"] == "Bia"
    assert table_of(sqlite_server, t["id"], bia)["you"] is None  # a watcher now
    again = sqlite_server.client.post(f"/api/tables/{t['id']}/leave", headers=bia.headers)
    assert again.status_code == 409 and error_of(again)["code"] == "not-seated"
    # the bot plays the seat: the match goes on without her
    with sqlite_server.ws(t["id"], ana) as ws:
        m = until(ws, lambda x: x["type"] == "state")
        for _ in range(2):  # Ana's turn, if it is hers: draw, then discard
            if m["view"]["turn"] != 0:
                break
            action = m["view"]["legal"][0] if m["view"]["phase"] == "draw" else None
            action = action or next(a for a in m["view"]["legal"] if a.startswith("discard"))
            ws.send_text(json.dumps({"type": "action", "version": m["version"], "action": action}))
            m = until(ws, lambda x: x["type"] == "event")
        # then the seat Bia left is played (by the bot) to Ana's turn again
        until(ws, lambda x: x["type"] == "event" and x["event"].get("seat") == 1)


def test_an_action_is_made_only_at_the_seat_of_the_token(sqlite_server: Server) -> None:
    ana, bia, caio = (sqlite_server.guest(n) for n in ("Ana", "Bia", "Caio"))
    t = sqlite_server.create(ana, TWO, players=2)["table"]
    join(sqlite_server, bia, t["id"], 1)
    wait_for(lambda: table_of(sqlite_server, t["id"])["table"]["status"] == "playing")
    with sqlite_server.ws(t["id"], ana) as wa, sqlite_server.ws(t["id"], bia) as wb:
        sa, sb = receive(wa), receive(wb)
        assert sa["you"]["seat"] == 0 and sb["you"]["seat"] == 1
        version = sa["version"]
        turn = sa["view"]["turn"]
        waiting_ws, waiting_view = (wb, sb["view"]) if turn == 0 else (wa, sa["view"])
        assert waiting_view["legal"] == []
        # the player whose turn it is not sends the mover's action: the seat is theirs, not
        # the turn's, so it is refused
        waiting_ws.send_text(json.dumps({"type": "action", "version": version, "action": "draw"}))
        err = until(waiting_ws, lambda x: x["type"] == "error")
        assert err["code"] == "turn" and f"seat {turn}" in err["message"]
    # someone without a seat, with or without a name, is a spectator
    for who in (caio, None):
        with sqlite_server.ws(t["id"], who) as ws:
            state = receive(ws)
            assert state["you"]["seat"] is None and state["view"]["hand"] == []
            ws.send_text(json.dumps({"type": "action", "version": version, "action": "draw"}))
            assert until(ws, lambda x: x["type"] == "error")["code"] == "spectator"
    assert table_of(sqlite_server, t["id"])["table"]["version"] == version


# ----- finished games ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Player, int]]:
    """A server with one finished match: Ana (played for by the stand-in) against a bot."""
    db = tmp_path_factory.mktemp("games") / "buraco.db"
    settings = make_settings(f"sqlite+aiosqlite:///{db}", grace=0.0)
    with TestClient(create_app(settings)) as client:
        server = Server(client, settings)
        ana = server.guest("Ana")
        t = server.create(ana, [{"kind": "me"}, BOTS[0]], players=2, options={"match_hands": 1})
        with server.ws(t["table"]["id"], ana) as ws:
            receive(ws)
        # Ana is away at once (no grace): the stand-in bot plays her seat to the end
        games = wait_for(lambda: client.get(f"/api/games?table={t['table']['id']}").json()["games"])
        yield server, ana, games[0]["id"]


def test_games_lists_all_mine_and_by_table(finished: tuple[Server, Player, int]) -> None:
    server, ana, game_id = finished
    client = server.client
    every = client.get("/api/games").json()["games"]
    assert [g["id"] for g in every] == [game_id]
    game = every[0]
    assert (
        game["names"][0] == "Ana" and game["names"][1] in BOT_NAMES and game["preset"] == "aberto"
    )
    assert game["players"] == 2 and game["hands"] == 1 and len(game["totals"]) == 2
    if game["totals"][0] != game["totals"][1]:
        assert game["winner"] == (0 if game["totals"][0] > game["totals"][1] else 1)
    mine = client.get("/api/games?mine=true", headers=ana.headers).json()["games"]
    assert [g["id"] for g in mine] == [game_id]
    bia = server.guest("Bia")
    assert client.get("/api/games?mine=true", headers=bia.headers).json() == {"games": []}
    anonymous = client.get("/api/games?mine=true")
    assert anonymous.status_code == 401
    by_table = client.get(f"/api/games?table={game['table']}").json()["games"]
    assert by_table == [game]
    assert client.get("/api/games?table=nope").json() == {"games": []}
    assert client.get(f"/api/games/{game_id}").json() == game
    table = table_of(server, game["table"])["table"]
    assert table["status"] == "over" and table["game"] == game_id


def test_an_unknown_game_is_404(finished: tuple[Server, Player, int]) -> None:
    client = finished[0].client
    for game_id in ("0", "-1", "999", str(2**31), "9" * 30):
        for tail in ("", "/record", "/replay"):
            r = client.get(f"/api/games/{game_id}{tail}")
            assert r.status_code == 404, (game_id, tail, r.text)
            assert error_of(r)["code"] == "not-found"
    assert client.get("/api/games/abc").status_code == 422


def test_the_record_replays_and_its_deals_verify(finished: tuple[Server, Player, int]) -> None:
    server, _ana, game_id = finished
    r = server.client.get(f"/api/games/{game_id}/record")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert f'filename="buraco-game-{game_id}.json"' in r.headers["content-disposition"]
    record = r.json()
    game = replay(record)
    summary = server.client.get(f"/api/games/{game_id}").json()
    assert game.is_over() and game.totals == summary["totals"] and game.winner == summary["winner"]
    assert list(game.names) == summary["names"] and game.names[1] in BOT_NAMES
    checks = verify(record)
    assert len(checks) == 1 and all(c.ok for c in checks), checks
    by = {a[0] for a in record["hands"][0]["actions"]}
    assert by == {0, 1}


def test_a_record_whose_rules_are_now_refused_is_a_clear_error(
    finished: tuple[Server, Player, int],
) -> None:
    # RULINGS 9: pile_streak_limit=0 without pile_top_meld is refused now; a game stored
    # under it before is answered with what is wrong, not a server error
    server, _ana, game_id = finished

    async def store_record(change: str | None) -> str:
        """Store the game's record with pile_streak_limit=0 (or ``change`` as it is)."""
        store = await Store.open(server.settings.db_url)
        try:
            async with store.engine.begin() as conn:
                old = await conn.execute(select(GameRow.record).where(GameRow.id == game_id))
                text = str(old.scalar_one())
                if change is None:
                    record = json.loads(text)
                    record["rules"]["options"]["pile_streak_limit"] = 0
                    change = json.dumps(record)
                await conn.execute(
                    update(GameRow).where(GameRow.id == game_id).values(record=change)
                )
                return text
        finally:
            await store.close()

    kept = asyncio.run(store_record(None))
    try:
        r = server.client.get(f"/api/games/{game_id}/replay")
        assert r.status_code == 422 and error_of(r)["code"] == "rules"
        assert "pile_streak_limit=0" in error_of(r)["message"]
    finally:
        asyncio.run(store_record(kept))
    assert server.client.get(f"/api/games/{game_id}/replay").status_code == 200


def test_the_replay_shows_every_hand_at_each_step(finished: tuple[Server, Player, int]) -> None:
    server, _ana, game_id = finished
    client = server.client
    record = client.get(f"/api/games/{game_id}/record").json()
    hand = record["hands"][0]
    actions = hand["actions"]
    start = client.get(f"/api/games/{game_id}/replay").json()
    assert (start["hand"], start["hands"], start["step"]) == (1, 1, 0)
    assert start["steps"] == len(actions) and start["action"] is None
    assert start["view"]["seat"] is None  # the public state beside the hands
    # the positions agree with the engine replaying the record itself
    rules = replay(record).rules
    for step in (0, 1, len(actions) // 2):
        at = client.get(f"/api/games/{game_id}/replay?hand=1&step={step}").json()
        assert at["step"] == step
        assert at["action"] == (actions[step - 1] if step else None)
        want = Game(
            rules,
            stacked=[hand["deck"]],
            cuts=[hand["cut"]],
            first_dealer=record["first_dealer"],
            names=record["names"],
        )
        for seat, text in actions[:step]:
            want.apply(text, seat=seat)
        cards = [[CARD_NAMES[c] for c in seat_view(want, s, full=False).hand] for s in range(2)]
        assert at["cards"] == cards
        assert all(at["cards"]) and at["view"]["stock"] == seat_view(want, 0).to_dict()["stock"]
    assert [len(c) for c in start["cards"]] == [rules.hand_size] * 2
    # past the end: the last position
    end = client.get(f"/api/games/{game_id}/replay?step=100000").json()
    assert end["step"] == len(actions) and end["action"] == actions[-1]
    # bounds
    beyond = client.get(f"/api/games/{game_id}/replay?hand=2")
    assert beyond.status_code == 404 and "1 hands" in error_of(beyond)["message"]
    for query in ("hand=0", "hand=1001", "step=-1", "step=100001", "hand=x"):
        assert client.get(f"/api/games/{game_id}/replay?{query}").status_code == 422, query


def test_a_rematch_is_for_the_players_only(finished: tuple[Server, Player, int]) -> None:
    server, ana, game_id = finished
    table = server.client.get(f"/api/games/{game_id}").json()["table"]
    caio = server.guest("Caio")
    r = server.client.post(f"/api/tables/{table}/rematch", headers=caio.headers)
    assert r.status_code == 403 and error_of(r)["code"] == "not-seated"
    r = server.client.post(f"/api/tables/{table}/rematch", headers=ana.headers)
    assert r.status_code == 200
    new = r.json()["table"]
    assert new["id"] != table and new["options"] == {"match_hands": 1}
    # the same people, the bot under the same name
    old = server.client.get(f"/api/tables/{table}").json()["table"]
    assert [s["name"] for s in new["seats"]] == [s["name"] for s in old["seats"]]
    assert new["seats"][1]["name"] in BOT_NAMES
    again = server.client.post(f"/api/tables/{table}/rematch", headers=ana.headers)
    assert again.json()["table"]["id"] == new["id"]  # one rematch, asked twice
    assert table_of(server, table)["table"]["rematch"] == new["id"]


def test_a_rematch_is_offered_to_the_other_players_who_accept_or_decline(
    tmp_path: Path,
) -> None:
    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'buraco.db'}", grace=0.0)
    with TestClient(create_app(settings)) as client:
        server = Server(client, settings)
        ana, bia, caio = server.guest("Ana"), server.guest("Bia"), server.guest("Caio")
        seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, BOTS[0]]
        t = server.create(ana, seats, options={"match_hands": 1})["table"]
        for seat, who in ((1, bia), (2, caio)):
            r = client.post(f"/api/tables/{t['id']}/join", json={"seat": seat}, headers=who.headers)
            assert r.status_code == 200, r.text
        for who in (ana, bia, caio):  # each looks in and goes: the stand-ins play it out
            with server.ws(t["id"], who) as ws:
                receive(ws)
        wait_for(lambda: table_of(server, t["id"])["table"]["status"] == "over")
        r = client.post(f"/api/tables/{t['id']}/rematch", headers=ana.headers)
        new = r.json()["table"]
        assert [s["kind"] for s in new["seats"]] == ["guest", "offer", "offer", "bot"]
        assert [s["name"] for s in new["seats"][:3]] == ["Ana", "Bia", "Caio"]
        assert new["status"] == "waiting"  # no one is dealt in before they accept
        url = f"/api/tables/{new['id']}"
        # a seat offered to Bia is hers alone
        r = client.post(f"{url}/join", json={"seat": 1}, headers=caio.headers)
        assert r.status_code == 409 and error_of(r)["code"] == "taken"
        r = client.post(f"{url}/join", json={"seat": 1}, headers=bia.headers)
        assert r.status_code == 200, r.text
        r = client.post(f"{url}/decline", headers=caio.headers)
        assert r.status_code == 200, r.text
        seats_now = r.json()["table"]["seats"]
        assert [s["kind"] for s in seats_now] == ["guest", "guest", "open", "bot"]
        r = client.post(f"{url}/decline", headers=caio.headers)  # said already
        assert r.status_code == 409 and error_of(r)["code"] == "not-offered"
        assert table_of(server, new["id"])["table"]["status"] == "waiting"


def test_a_rematch_before_the_end_is_refused(shared: Server) -> None:
    ana = shared.guest("Ana")
    t = shared.create(ana, TWO, players=2)["table"]
    r = shared.client.post(f"/api/tables/{t['id']}/rematch", headers=ana.headers)
    assert r.status_code == 409 and error_of(r)["code"] == "not-over"


def test_a_hint_is_for_the_player_to_move_only(shared: Server) -> None:
    ana, bia, eve = shared.guest("Ana"), shared.guest("Bia"), shared.guest("Eve")
    t = shared.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]
    url = f"/api/tables/{t['id']}/hint"
    r = shared.client.get(url, headers=ana.headers)
    assert r.status_code == 409 and error_of(r)["code"] == "turn"  # not dealt yet
    r = shared.client.post(f"/api/tables/{t['id']}/join", json={"seat": 1}, headers=bia.headers)
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 10
    while True:
        answers = {who.name: shared.client.get(url, headers=who.headers) for who in (ana, bia)}
        codes = sorted(a.status_code for a in answers.values())
        if codes == [200, 409] or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert codes == [200, 409], {k: v.text for k, v in answers.items()}
    mover = next(name for name, a in answers.items() if a.status_code == 200)
    got = answers[mover].json()
    assert got["action"] in ("draw", "take-pile", "turn-up") and got["version"] >= 1
    other = next(a for a in answers.values() if a.status_code == 409)
    assert error_of(other)["code"] == "turn"
    r = shared.client.get(url, headers=eve.headers)  # a watcher
    assert r.status_code == 403 and error_of(r)["code"] == "not-seated"
    assert shared.client.get(url).status_code == 401  # no guest


# ----- the server ----------------------------------------------------------------------------


def test_healthz(shared: Server) -> None:
    r = shared.client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"ok": True, "bot_restarts": 0}


def test_openapi_lists_the_rest_api(shared: Server) -> None:
    schema = shared.client.get("/openapi.json").json()
    paths = schema["paths"]
    for path, method in (
        ("/api/guests", "post"),
        ("/api/me", "get"),
        ("/api/presets", "get"),
        ("/api/tables", "get"),
        ("/api/tables", "post"),
        ("/api/tables/{table_id}", "get"),
        ("/api/tables/{table_id}/join", "post"),
        ("/api/tables/{table_id}/leave", "post"),
        ("/api/tables/{table_id}/rematch", "post"),
        ("/api/games", "get"),
        ("/api/games/{game_id}", "get"),
        ("/api/games/{game_id}/record", "get"),
        ("/api/games/{game_id}/replay", "get"),
        ("/healthz", "get"),
    ):
        assert method in paths.get(path, {}), path
    assert "/" not in paths
    assert "TableIn" in schema["components"]["schemas"]


def test_user_text_comes_back_as_written_in_json(shared: Server) -> None:
    name = "<img src=x onerror=alert(1)>"
    ana = shared.guest(name)
    r = shared.client.get("/api/me", headers=ana.headers)
    assert r.headers["content-type"] == "application/json"
    assert r.json()["name"] == name and name in r.text  # data, not HTML: not escaped here
    t = shared.create(ana, TWO, players=2)["table"]
    assert t["seats"][0]["name"] == name
    listed = shared.client.get("/api/tables").json()["tables"]
    assert [x["seats"][0]["name"] for x in listed if x["id"] == t["id"]] == [name]
    odd = "</script><b>&amp;"
    r = shared.client.post("/api/tables", json={**BASE, "options": {odd: 1}}, headers=ana.headers)
    assert r.status_code == 400 and odd in error_of(r)["message"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/guests", {"name": "a" * 100_000}),
        ("post", "/api/guests", [1, 2]),
        ("post", "/api/tables", {**BASE, "options": {"target": 10**400}}),
        ("post", "/api/tables", {**BASE, "options": {"pot_sizes": [[1], {"a": None}]}}),
        ("post", "/api/tables", {**BASE, "options": {"set_ranks": "\x00" * 50}}),
        (
            "post",
            "/api/tables",
            {**BASE, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "x" * 201}]},
        ),
        ("post", "/api/tables", {**BASE, "preset": "\x00"}),
        ("post", "/api/tables", {**BASE, "pace": 1e308}),
        ("post", "/api/tables/%00/join", {"seat": 0, "invite": "\x00"}),
        ("post", "/api/tables/abc/leave", None),
        ("get", "/api/tables/%E2%80%AE", None),
        ("get", "/api/tables?x=" + "y" * 5000, None),
        ("get", "/api/games?table=" + "z" * 33, None),
        ("get", "/api/games?table=%00", None),
        ("get", "/api/games?mine=perhaps", None),
    ],
)
def test_odd_input_never_crashes_the_server(
    shared: Server, method: str, path: str, body: Any
) -> None:
    ana = shared.guest("Ana")
    kwargs: dict[str, Any] = {"headers": ana.headers}
    if body is not None:
        kwargs["json"] = body
    r = getattr(shared.client, method)(path, **kwargs)
    assert r.status_code < 500, r.text
    assert shared.client.get("/healthz").status_code == 200


def test_a_body_that_is_not_json_is_422(shared: Server) -> None:
    ana = shared.guest("Ana")
    r = shared.client.post(
        "/api/tables",
        content=b"{not json",
        headers={**ana.headers, "content-type": "application/json"},
    )
    assert r.status_code == 422


def test_a_request_body_past_the_bound_is_refused_before_it_is_read(shared: Server) -> None:
    from buraco.server.app import MAX_BODY

    big = {"name": "x" * (MAX_BODY + 10)}
    r = shared.client.post("/api/guests", json=big)
    assert r.status_code == 413
    assert (
        r.json()["error"]["code"] == "too-large" and str(MAX_BODY) in r.json()["error"]["message"]
    )

    def chunks() -> Iterator[bytes]:  # no content-length: counted as it is read
        yield b'{"name": "'
        for _ in range(MAX_BODY // 1000 + 2):
            yield b"x" * 1000
        yield b'"}'

    r = shared.client.post(
        "/api/guests", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "too-large"


def test_every_refusal_has_the_same_shape(shared: Server) -> None:
    missing = shared.client.get("/api/nothing-here")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not-found"
    bad_json = shared.client.post(
        "/api/guests", content=b'{"name": ', headers={"content-type": "application/json"}
    )
    assert bad_json.status_code == 422
    error = bad_json.json()["error"]
    assert error["code"] == "request" and "field" not in error  # a character offset is no field
    deep = shared.client.post(
        "/api/guests",
        content=b"[" * 5000 + b"]" * 5000,
        headers={"content-type": "application/json"},
    )
    assert deep.status_code in (400, 422) and "error" in deep.json()


@pytest.mark.parametrize("name", ["\u200b", " \u200b\u200d ", "\u2060"])
def test_a_name_with_nothing_to_see_is_refused(shared: Server, name: str) -> None:
    r = shared.client.post("/api/guests", json={"name": name})
    shared.client.cookies.clear()
    assert r.status_code == 400 and r.json()["error"]["field"] == "name"


def test_bots_are_named_like_people_and_never_like_a_guest_at_the_table(
    sqlite_server: Server,
) -> None:
    # the names are chosen by the table: over many tables a guest named like a bot still
    # never meets a bot of the same name
    seen: set[str] = set()
    ana = sqlite_server.guest("Tião")
    for i in range(8):
        if i == 4:  # a guest has at most 5 unfinished tables
            ana = sqlite_server.guest("Tião")
        me = {"kind": "me"}
        t = sqlite_server.create(ana, [me, *BOTS, {"kind": "bot", "bot": "random"}])["table"]
        names = [s["name"] for s in t["seats"]]
        assert names[0] == "Tião" and len(set(names)) == 4
        assert all(n in BOT_NAMES and n != "Tião" for n in names[1:])
        assert all(s["kind"] == "bot" and s["bot"] for s in t["seats"][1:])
        seen.update(names[1:])
    assert len(seen) > 4  # not always the same three (8 tables of 3 bots of 7 names)


def test_the_lobby_lists_your_own_tables_first_private_ones_too(shared: Server) -> None:
    ana, bia = shared.guest("Ana"), shared.guest("Bia")
    mine = shared.create(ana, TWO, players=2, public=False)["table"]
    theirs = shared.create(bia, TWO, players=2)["table"]
    listed = shared.client.get("/api/tables", headers=ana.headers).json()["tables"]
    assert listed[0]["id"] == mine["id"] and listed[0]["you"] == 0
    other = next(t for t in listed if t["id"] == theirs["id"])
    assert other["you"] is None
    for who in (bia, None):  # a private table is nobody else's business
        headers = who.headers if who else {}
        ids = [t["id"] for t in shared.client.get("/api/tables", headers=headers).json()["tables"]]
        assert mine["id"] not in ids and theirs["id"] in ids


def test_a_player_resigns_the_match_and_their_side_loses_it(sqlite_server: Server) -> None:
    ana, bia, eve = (sqlite_server.guest(n) for n in ("Ana", "Bia", "Eve"))
    t = sqlite_server.create(ana, TWO, players=2)["table"]
    url = f"/api/tables/{t['id']}"
    r = sqlite_server.client.post(f"{url}/resign", headers=ana.headers)
    assert r.status_code == 409 and error_of(r)["code"] == "not-playing"  # not started
    assert join(sqlite_server, bia, t["id"], 1).status_code == 200
    wait_for(lambda: table_of(sqlite_server, t["id"])["table"]["status"] == "playing")
    r = sqlite_server.client.post(f"{url}/resign", headers=eve.headers)  # a watcher
    assert r.status_code == 403 and error_of(r)["code"] == "not-seated"
    r = sqlite_server.client.post(f"{url}/resign", headers=bia.headers)
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert table["status"] == "over" and table["game"] is not None
    game = sqlite_server.client.get(f"/api/games/{table['game']}").json()
    assert game["winner"] == 0  # Ana's side: Bia conceded
    record = sqlite_server.client.get(f"/api/games/{table['game']}/record").json()
    assert record["resigned"] == 1 and record["hands"][-1]["result"]["ended_by"] == "resigned"
    assert replay(record).winner == 0 and verify(record)
    r = sqlite_server.client.post(f"{url}/resign", headers=ana.headers)
    assert r.status_code == 409 and error_of(r)["code"] == "not-playing"


@pytest.mark.parametrize(
    ("preset", "players", "region"),
    [("italiano", 4, ITALY_NAMES), ("aberto", 4, BRAZIL_NAMES), ("us", 6, PRESET_NAMES["us"])],
)
def test_bots_are_named_as_the_preset_s_players_are(
    sqlite_server: Server, preset: str, players: int, region: tuple[str, ...]
) -> None:
    # Burraco's bots carry Italian names, Buraco's Brazilian ones (no Nonna Pina at a
    # Brazilian table)
    ana = sqlite_server.guest("Ana")
    bots = [{"kind": "bot", "bot": "random"}] * (players - 1)
    t = sqlite_server.create(ana, [{"kind": "me"}, *bots], preset=preset)["table"]
    names = [s["name"] for s in t["seats"][1:]]
    assert len(set(names)) == players - 1 and all(n in region for n in names), names


@pytest.mark.parametrize(
    ("options", "code", "params"),
    [
        # the page sends sizes as typed: the refusal quotes them, never Python's None
        ({"pot_sizes": "x,y"}, "option.pot-sizes-list", {"value": "'x,y'", "most": 4}),
        # the pack's size is a count, named apart from the card lists the page words as cards
        ({"hand_size": 30, "decks": 1}, "options.pack", {"size": 54, "needed": 143}),
    ],
)
def test_options_refused_carry_params_the_page_can_word(
    sqlite_server: Server, options: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    ana = sqlite_server.guest("Ana")
    body = {"preset": "aberto", "players": 4, "seats": [{"kind": "me"}] + [{"kind": "open"}] * 3}
    r = sqlite_server.client.post(
        "/api/tables", json={**body, "options": options}, headers=ana.headers
    )
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["refusal"] == {"code": code, "params": params}, error
    assert "None" not in error["message"]
