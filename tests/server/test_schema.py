"""The REST API against its own OpenAPI schema (``/openapi.json``), fuzzed with schemathesis.

Every operation of the schema is called with requests that schemathesis
generates from it, both valid ones and invalid ones (negative mode: wrong
types, missing keys, values out of bounds), once without a guest cookie and
once with a guest's. Each response must pass schemathesis's checks:

- ``not_a_server_error``: no 5xx;
- ``status_code_conformance``: the status is one the operation documents;
- ``content_type_conformance``: the body's media type is the documented one;
- ``response_schema_conformance``: the body validates against the documented
  schema of that status (a refusal: ``{"error": {"code", "message", ...}}``);
and, tested on its own below, a method a path does not take is a 405 whose ``Allow``
lists exactly the path's methods in the schema (what schemathesis's ``unsupported_method``
and ``allow_header_conformance`` check).

Random ids would rarely name anything, so the app runs on a copy of a
database where a match was played to its end (a finished game, a table to ask
a rematch of), a table waits for players, a private one keeps a seat for its
invite link, a match is being played and the guest sits at a waiting table;
about half of the generated ids, invite codes and table bodies are replaced by
these (or by plausible table specs), so the deeper paths run too: joining,
leaving, rematches, replays, the table limit.

schemathesis's pytest integration (``from_fixture``) does not run on this
pytest, so each operation's strategy is driven by a hypothesis test here.
"""

from __future__ import annotations

import json
import shutil
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("schemathesis", reason="the test-web extra is not installed")

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import Case, GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.python import asgi

from buraco.rules import PRESETS, option_names
from buraco.server.accounts import visible
from buraco.server.app import create_app
from buraco.server.routes import COOKIE
from serverkit import Server, make_settings, my_turn, until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

EXAMPLES = 40
"""Generated requests per operation and run (an operation without inputs needs one)."""

SPEC: dict[str, Any] = create_app().openapi()
OPERATIONS = [f"{method.upper()} {path}" for path, ops in SPEC["paths"].items() for method in ops]


@dataclass
class World:
    """A database with something at every id the API takes, and the guest of the runs."""

    db: Path
    token: str
    tables: list[str]
    invites: list[str]
    games: list[int]


def play_to_the_end(server: Server, table: str, who: Any) -> None:
    """Play a seat's first legal action at each turn until the match is over."""
    with server.ws(table, who) as ws:
        acted = -1
        while True:
            m = until(ws, lambda x: my_turn(x) or (x["type"] == "table" and x["table"]["game"]))
            if m["type"] == "table":
                return
            if m["version"] > acted:
                acted = m["version"]
                action = m["view"]["legal"][0]
                ws.send_text(json.dumps({"type": "action", "version": acted, "action": action}))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    db = tmp_path_factory.mktemp("schema") / "buraco.db"
    config = make_settings(f"sqlite+aiosqlite:///{db}")
    with TestClient(create_app(config)) as client:
        server = Server(client, config)
        ana, bia = server.guest("Ana"), server.guest("Bia")
        one_hand = {"players": 2, "options": {"match_hands": 1}}
        over = server.create(ana, [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}], **one_hand)
        play_to_the_end(server, over["table"]["id"], ana)
        waiting = server.create(bia, [{"kind": "me"}, {"kind": "open"}], players=2)
        private = server.create(bia, [{"kind": "me"}, {"kind": "invite"}], players=2, public=False)
        playing = server.create(ana, [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}], players=2)
        seated = server.create(
            bia, [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]
        )
        r = client.post(
            f"/api/tables/{seated['table']['id']}/join", json={"seat": 1}, headers=ana.headers
        )
        assert r.status_code == 200, r.text
        games = [g["id"] for g in client.get("/api/games").json()["games"]]
        assert games
    tables = [t["table"]["id"] for t in (over, waiting, private, playing, seated)]
    return World(db, ana.token, tables, [private["invite"]], games)


@pytest.fixture
def api(world: World, tmp_path: Path) -> Iterator[schemathesis.BaseSchema]:
    """The schema, loaded from a fresh app on a copy of the world's database."""
    db = tmp_path / "buraco.db"
    shutil.copy(world.db, db)
    app = create_app(make_settings(f"sqlite+aiosqlite:///{db}"))
    try:
        yield schemathesis.openapi.from_asgi("/openapi.json", app)
    finally:
        asgi.shutdown_lifespans()


BOTS = ["greedy", "heuristic", "random", "mcts:time=0.1", "mcts:time=3", "mcts:iterations=5000"]
SEATS = st.one_of(
    st.sampled_from([{"kind": "open"}, {"kind": "invite"}, {"kind": "me"}]),
    st.fixed_dictionaries({"kind": st.just("bot"), "bot": st.sampled_from([*BOTS, "nope", ""])}),
)
VALUES = st.one_of(
    st.integers(-3, 200),
    st.booleans(),
    st.text(max_size=6),
    st.lists(st.integers(-1, 40), max_size=4),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False),
)


@st.composite
def table_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A plausible new table: a real preset and player count, seats, some options."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    players = draw(st.sampled_from(PRESETS[preset].players))
    body: dict[str, Any] = {
        "preset": preset,
        "players": players,
        "seats": draw(st.lists(SEATS, min_size=players, max_size=players)),
        "pace": draw(st.sampled_from([0, 0.5, 5, 6, -1])),
    }
    if draw(st.booleans()):
        names = st.sampled_from([n for n in option_names() if n != "players"])
        body["options"] = draw(st.dictionaries(names, VALUES, max_size=3))
    if draw(st.booleans()):
        body["public"] = draw(st.booleans())
        body["turn_timer"] = draw(st.sampled_from([0, 30, 45]))
        body["minutes"] = draw(st.sampled_from([0, 15, 20]))
    return body


def run(api: schemathesis.BaseSchema, world: World, label: str, token: str | None) -> None:
    """Fuzz one operation; a check that fails raises with the request to reproduce it."""
    op = api.find_operation_by_label(label)
    assert op is not None, label
    cases = st.one_of(
        op.as_strategy(generation_mode=GenerationMode.POSITIVE),
        op.as_strategy(generation_mode=GenerationMode.NEGATIVE),
    )

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(case=cases, data=st.data())
    def check(case: Case[Any], data: st.DataObject) -> None:
        real = st.booleans()
        path = case.path_parameters
        if path is not None and "table_id" in path and data.draw(real):
            path["table_id"] = data.draw(st.sampled_from(world.tables))
        if path is not None and "game_id" in path and data.draw(real):
            path["game_id"] = data.draw(st.sampled_from(world.games))
        if label == "POST /api/tables" and data.draw(real):
            case.body = data.draw(table_bodies())
        if label.endswith("/join") and data.draw(real):
            case.body = {"seat": data.draw(st.integers(-1, 6))}
            if data.draw(st.booleans()):
                case.body["invite"] = data.draw(st.sampled_from(world.invites))
        if label == "GET /api/tables/{table_id}" and data.draw(real):
            case.query = {"invite": data.draw(st.sampled_from(world.invites))}
        if token is not None:
            case.cookies = {**(case.cookies or {}), COOKIE: token}
        case.call_and_validate(checks=CHECKS)

    check()


@pytest.mark.parametrize("label", OPERATIONS)
def test_every_operation_answers_as_documented_without_a_guest(
    api: schemathesis.BaseSchema, world: World, label: str
) -> None:
    run(api, world, label, None)


@pytest.mark.parametrize("label", OPERATIONS)
def test_every_operation_answers_as_documented_for_a_guest(
    api: schemathesis.BaseSchema, world: World, label: str
) -> None:
    run(api, world, label, world.token)


def visible_name(text: str) -> bool:
    """The documented rule of format ``display-name`` beyond its pattern and lengths."""
    name = visible(text.strip())
    return any(unicodedata.category(c)[0] in "LNPS" for c in name)


schemathesis.openapi.format("display-name", st.text(min_size=1, max_size=40).filter(visible_name))

CROSS_FIELD = {
    # what the schema of a new table cannot say, and POST /api/tables says in words: the
    # preset's player counts, one seat a player, at most one "me", a bot's own parameters
    # and budget, options that contradict one another
    "POST /api/tables": {
        "seats.count",
        "seats.one",
        "seats.bot",
        "seats.bot-seconds",
        "seats.bot-rounds",
        "rules",
    },
    # a start time in the next 30 days: a schema has no "now"
    "POST /api/tournaments": {"tournament.starts"},
}
"""For each operation, the refusals (400/422) of a schema-valid request its schema names."""
CROSS_RULES = {"preset.players", "option.set-ranks-distinct"}
"""The rules' refusals of a schema-valid table: the player counts, and their own prefix below."""


@pytest.mark.parametrize("label", [o for o in OPERATIONS if not o.startswith("GET")])
def test_every_request_the_schema_admits_is_accepted_or_refused_for_a_stated_reason(
    world: World, tmp_path: Path, label: str
) -> None:
    # found by schemathesis (positive data acceptance) on an earlier server: POST /api/guests
    # and POST /api/tables refused requests their schema admitted (a name of spaces or
    # controls, an unknown preset, a seat kind, a pace, a timer, an option of the wrong type).
    # A schema-valid request may meet the state of the world (401, 403, 404, 409, 429) but
    # is never malformed (400, 422) except for what the operation's schema names in words.
    db = tmp_path / "buraco.db"
    shutil.copy(world.db, db)
    config = make_settings(
        f"sqlite+aiosqlite:///{db}",
        guests_per_address="1000000/minute",
        accounts_per_address="1000000/minute",
        max_tables_per_guest=1_000_000,
    )
    app = create_app(config)
    try:
        api = schemathesis.openapi.from_asgi("/openapi.json", app)
        op = api.find_operation_by_label(label)
        assert op is not None, label
        allowed = CROSS_FIELD.get(label, set())
        seen: list[int] = []

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        )
        @given(case=op.as_strategy(generation_mode=GenerationMode.POSITIVE))
        def check(case: Case[Any]) -> None:
            # as the guest (the fuzz above goes without a cookie too)
            case.cookies = {**(case.cookies or {}), COOKIE: world.token}
            response = case.call()
            seen.append(response.status_code)
            assert response.status_code < 500, response.text
            if response.status_code in (400, 422):
                error = response.json()["error"]
                assert error["key"] in allowed, (case.body, error)
                if error["key"] == "rules":
                    code = error["refusal"]["code"]
                    assert code in CROSS_RULES or code.startswith("options."), (case.body, error)

        check()
    finally:
        asgi.shutdown_lifespans()
    if label in ("POST /api/guests", "POST /api/tables", "POST /api/account/register"):
        # the generated requests are mostly accepted, not all refused for a stated reason
        assert sum(200 <= s < 300 for s in seen) >= len(seen) // 4, seen


@pytest.mark.parametrize("label", [o for o in OPERATIONS if o.startswith("GET")])
def test_every_query_the_schema_admits_is_answered_or_found_missing_never_malformed(
    api: schemathesis.BaseSchema, world: World, label: str
) -> None:
    # found by the runs above: GET /api/ratings?preset=<anything> answered 400 where its
    # schema admitted any string; a query the schema admits may find nothing (404, 409)
    # but is never refused as malformed (400, 422)
    op = api.find_operation_by_label(label)
    assert op is not None, label
    seen: list[int] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(case=op.as_strategy(generation_mode=GenerationMode.POSITIVE))
    def check(case: Case[Any]) -> None:
        case.cookies = {**(case.cookies or {}), COOKIE: world.token}
        response = case.call()
        seen.append(response.status_code)
        assert response.status_code not in (400, 422), (case.query, response.text)

    check()
    if label == "GET /api/ratings":
        assert set(seen) == {200}, seen


def test_the_schema_documents_every_operation_and_refusal() -> None:
    # what the runs above cover: every REST route of the app, and the one error shape
    assert len(OPERATIONS) == 39
    for label in OPERATIONS:
        method, path = label.split(" ", 1)
        responses = SPEC["paths"][path][method.lower()]["responses"]
        for status, response in responses.items():
            if status.startswith("4"):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorOut"}, (label, status)
    error = SPEC["components"]["schemas"]["ErrorOut"]
    assert error["required"] == ["error"] and error["additionalProperties"] is False


@pytest.mark.parametrize("path", ["/api/guests", "/api/tables", "/api/tables/x/join"])
def test_a_body_that_is_not_utf8_is_malformed_like_one_that_is_not_json(
    sqlite_server: Server, path: str
) -> None:
    # found by the runs above: such a body was a 400 no operation documents, where a body
    # that is not JSON is a 422
    player = sqlite_server.guest("Ana")
    for body in (b"\xff\xce\x81", b"{"):
        r = sqlite_server.client.post(
            path, content=body, headers={**player.headers, "content-type": "application/json"}
        )
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "request"


@pytest.mark.parametrize("path", sorted(SPEC["paths"]))
def test_a_method_a_path_does_not_take_is_a_405_naming_every_method_it_does(
    sqlite_server: Server, path: str
) -> None:
    # found by schemathesis on an earlier server: OPTIONS /api/tables answered "Allow: GET"
    # though POST is taken too (each route of a path answered for itself)
    documented = {m.upper() for m in SPEC["paths"][path]}
    url = (
        path.replace("{table_id}", "abcdef")
        .replace("{game_id}", "1")
        .replace("{hand}", "1")
        .replace("{player_id}", "someone")
        .replace("{tid}", "nope")
        .replace("{number}", "0")
    )
    for method in {"OPTIONS", "PUT", "PATCH", "DELETE", "POST", "GET"} - documented:
        r = sqlite_server.client.request(method, url)
        assert r.status_code == 405, (method, path, r.status_code)
        allowed = {m.strip() for m in r.headers["allow"].split(",")}
        assert allowed - {"HEAD"} == documented, (method, path, allowed)
        assert r.json()["error"]["key"] == "method"
