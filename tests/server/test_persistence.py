"""Persistence on SQLite and PostgreSQL: restarts resume tables, finished games are kept, and
two writers can never both commit one version of a table."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.testclient import WebSocketTestSession

from buraco.cli import app as cli
from buraco.fairness import verify
from buraco.replays import replay
from buraco.server.app import create_app
from buraco.server.models import EventRow, SeatRow, TableRow
from buraco.server.store import Conflict, Store, now
from clikit import CliRunner
from serverkit import Server, make_settings, receive, until, wait_for, whole_view

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@contextmanager
def running(db_url: str) -> Iterator[Server]:
    """A server on the database until the block ends (then shut down as on SIGTERM)."""
    settings = make_settings(db_url)
    with TestClient(create_app(settings)) as client:
        yield Server(client, settings)


def summary(server: Server, table_id: str) -> dict[str, Any]:
    r = server.client.get(f"/api/tables/{table_id}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()["table"]
    return data


def stored(db_url: str, table_id: str) -> tuple[TableRow, list[EventRow]]:
    """The table's row and its log, read straight from the database."""

    async def read() -> tuple[TableRow, list[EventRow]]:
        store = await Store.open(db_url)
        try:
            data = await store.table(table_id)
            assert data is not None
            return data.row, await store.events(table_id)
        finally:
            await store.close()

    return asyncio.run(read())


def play(
    sockets: dict[int, WebSocketTestSession], frames: dict[int, dict[str, Any]], actions: int
) -> None:
    """Make ``actions`` actions, each by the seat to move, each its first legal action."""
    for _ in range(actions):
        mover = next(s for s, f in frames.items() if f["view"]["legal"])
        version = frames[mover]["version"]
        action = frames[mover]["view"]["legal"][0]
        sockets[mover].send_text(
            json.dumps({"type": "action", "version": version, "action": action})
        )
        for seat, ws in sockets.items():
            ev = until(ws, lambda x, v=version: x["type"] == "event" and x["version"] == v + 1)
            assert ev["event"] == {
                "kind": "action",
                "seat": mover,
                "action": action,
                "by": "player",
            } or ev["event"].get("reveal")
            ev["view"] = whole_view(frames[seat]["view"], ev["view"])
            frames[seat] = ev


def test_a_restarted_server_resumes_the_table_at_its_last_version(db_url: str) -> None:
    with running(db_url) as server:
        ana, bia = server.guest("Ana"), server.guest("Bia")
        t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]
        r = server.client.post(f"/api/tables/{t['id']}/join", json={"seat": 1}, headers=bia.headers)
        assert r.status_code == 200
        wait_for(lambda: summary(server, t["id"])["status"] == "playing")
        with server.ws(t["id"], ana) as wa, server.ws(t["id"], bia) as wb:
            sockets = {0: wa, 1: wb}
            frames = {0: receive(wa), 1: receive(wb)}
            play(sockets, frames, 9)
            wa.send_text(json.dumps({"type": "chat", "text": "before the restart"}))
            until(wb, lambda x: x["type"] == "chat")
        before = {seat: (f["version"], f["view"]) for seat, f in frames.items()}
        version = frames[0]["version"]
        assert version == 2 + 9  # the seat, the deal and nine actions

    row, log = stored(db_url, t["id"])
    assert row.version == version and [e.version for e in log] == list(range(1, version + 1))
    assert [e.kind for e in log[:2]] == ["seat", "deal"] and {e.kind for e in log[2:]} == {"action"}

    with running(db_url) as server:
        after = summary(server, t["id"])
        assert after["status"] == "playing" and after["version"] == version
        assert [s["name"] for s in after["seats"]] == ["Ana", "Bia"]
        # the guests' tokens still hold
        me = server.client.get("/api/me", headers=bia.headers)
        assert me.json() == {"id": bia.id, "name": "Bia", "account": False}
        with server.ws(t["id"], ana) as wa, server.ws(t["id"], bia) as wb:
            states = {0: receive(wa), 1: receive(wb)}
            for seat, state in states.items():
                assert state["type"] == "state" and state["you"]["seat"] == seat
                assert (state["version"], state["view"]) == before[seat]
            assert receive(wa)["lines"][-1]["text"] == "before the restart"
            receive(wb)
            # and play goes on from there
            play({0: wa, 1: wb}, states, 1)
            assert states[0]["version"] == version + 1
    row, log = stored(db_url, t["id"])
    assert row.version == version + 1 and len(log) == version + 1


def test_a_match_cut_off_by_a_restart_finishes_and_is_kept_as_its_record(
    db_url: str, tmp_path: Path
) -> None:
    with running(db_url) as server:
        ana = server.guest("Ana")
        bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
        t = server.create(ana, bots, players=2, options={"match_hands": 1})["table"]
        wait_for(lambda: summary(server, t["id"])["version"] >= 25)
    # shut down in the middle of the hand: the table and its log agree, nothing half-written
    row, log = stored(db_url, t["id"])
    assert row.status == "playing" and row.version >= 25
    assert [e.version for e in log] == list(range(1, row.version + 1))
    cut_at = row.version

    with running(db_url) as server:
        game_rows = wait_for(
            lambda: server.client.get(f"/api/games?table={t['id']}").json()["games"]
        )
        game = game_rows[0]
        # the same time on every database: UTC, with its offset
        assert datetime.fromisoformat(game["finished_at"]).utcoffset() == timedelta(0)
        assert summary(server, t["id"])["status"] == "over"
        assert summary(server, t["id"])["game"] == game["id"]
        text = server.client.get(f"/api/games/{game['id']}/record").text
    row, log = stored(db_url, t["id"])
    assert row.status == "over" and row.version > cut_at

    # the record holds every action of the log, in order, and the deal that was committed
    record = json.loads(text)
    deals = [json.loads(e.data) for e in log if e.kind == "deal"]
    actions = [json.loads(e.data) for e in log if e.kind == "action"]
    assert len(record["hands"]) == len(deals) == 1
    hand = record["hands"][0]
    assert hand["actions"] == [[a["seat"], a["action"]] for a in actions]
    assert (hand["deck"], hand["cut"], hand["salt"], hand["commitment"]) == (
        deals[0]["deck"],
        deals[0]["cut"],
        deals[0]["salt"],
        deals[0]["commitment"],
    )
    finished = replay(record)
    assert finished.is_over() and finished.totals == game["totals"]
    assert all(c.ok for c in verify(record))
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "hand 1: ok verified" in result.output

    # and it is still there after another restart
    with running(db_url) as server:
        again = server.client.get(f"/api/games/{game['id']}")
        assert again.status_code == 200 and again.json() == game
        assert server.client.get(f"/api/games/{game['id']}/record").text == text


# ----- two writers ---------------------------------------------------------------------------


async def _table(store: Store, table_id: str) -> None:
    await store.add_guest(f"g-{table_id}", f"{table_id:0>64}", "Ana")
    row = TableRow(
        id=table_id,
        created_by=f"g-{table_id}",
        created_at=now(),
        preset="aberto",
        players=2,
        options="{}",
        public=True,
        invite_hash="",
        pace=0.0,
        turn_timer=0,
        status="waiting",
        version=0,
        rematch_of=None,
        rematch=None,
    )
    seats = [
        SeatRow(
            table_id=table_id, seat=s, kind="open", bot=None, guest_id=None, invited=False, name="x"
        )
        for s in range(2)
    ]
    await store.add_table(row, seats)


def _seat(table_id: str, name: str) -> SeatRow:
    return SeatRow(
        table_id=table_id, seat=1, kind="bot", bot="greedy", guest_id=None, invited=False, name=name
    )


async def test_a_version_is_committed_once(db_url: str) -> None:
    store = await Store.open(db_url)
    try:
        await _table(store, "once")
        await store.append("once", 1, "seat", {"by": "first"}, seats=[_seat("once", "first")])
        with pytest.raises(Conflict):
            await store.append("once", 1, "seat", {"by": "second"}, seats=[_seat("once", "second")])
        # a version that does not follow the table's is refused too, and leaves no trace
        with pytest.raises(Conflict):
            await store.append("once", 3, "seat", {"by": "gap"}, status="playing")
        data = await store.table("once")
        assert data is not None
        assert data.row.version == 1 and data.row.status == "waiting"
        assert data.seats[1].name == "first" and data.seats[1].kind == "bot"
        log = await store.events("once")
        assert [(e.version, json.loads(e.data)) for e in log] == [(1, {"by": "first"})]
        # the next version is still free
        await store.append("once", 2, "seat", {"by": "next"})
        assert [e.version for e in await store.events("once")] == [1, 2]
    finally:
        await store.close()


async def test_two_servers_racing_for_a_version_one_wins_and_nothing_is_half_written(
    db_url: str,
) -> None:
    first = await Store.open(db_url)
    second = await Store.open(db_url)  # another server on the same database
    try:
        await _table(first, "race")
        winners = []
        for version in range(1, 9):
            outcome = await asyncio.gather(
                first.append(
                    "race",
                    version,
                    "action",
                    {"by": "first"},
                    seats=[_seat("race", f"first {version}")],
                ),
                second.append(
                    "race",
                    version,
                    "action",
                    {"by": "second"},
                    seats=[_seat("race", f"second {version}")],
                ),
                return_exceptions=True,
            )
            won = [i for i, o in enumerate(outcome) if o is None]
            lost = [o for o in outcome if o is not None]
            assert len(won) == 1 and len(lost) == 1, outcome
            assert isinstance(lost[0], Conflict), lost[0]
            winners.append(("first", "second")[won[0]])
            # what was committed is the winner's entry and the winner's seat change, whole
            data = await second.table("race")
            assert data is not None and data.row.version == version
            assert data.seats[1].name == f"{winners[-1]} {version}"
        log = await first.events("race")
        assert [e.version for e in log] == list(range(1, 9))
        assert [json.loads(e.data)["by"] for e in log] == winners
    finally:
        await first.close()
        await second.close()


def _downgrade(db_url: str, revision: str) -> None:
    """Take the database back to an earlier revision, as an older release left it.

    SQLite rebuilds a table to drop a column: it is done on a connection without the
    foreign-key checks the server turns on.
    """
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from buraco.server.store import MIGRATIONS

    def run(conn: Any) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)

    if db_url.startswith("sqlite"):
        engine = create_engine(db_url.replace("+aiosqlite", ""))
        with engine.begin() as conn:
            run(conn)
        engine.dispose()
        return

    async def on_postgresql() -> None:
        store = await Store.open(db_url)
        try:
            async with store.engine.begin() as conn:
                await conn.run_sync(run)
        finally:
            await store.close()

    asyncio.run(on_postgresql())


def _rewrite(db_url: str, table_id: str, options: dict[str, Any], revision: str | None) -> None:
    """Store other options for a table, and (if given) mark the schema as of ``revision``."""

    async def write() -> None:
        store = await Store.open(db_url)
        try:
            async with store.engine.begin() as conn:
                await conn.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id)
                    .values(options=json.dumps(options))
                )

        finally:
            await store.close()

    asyncio.run(write())
    if revision is not None:
        _downgrade(db_url, revision)


def _table_with_actions(server: Server) -> tuple[str, int]:
    """A two-player table of people, a few actions into its first hand: its id and version."""
    ana, bia = server.guest("Ana"), server.guest("Bia")
    t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]
    r = server.client.post(f"/api/tables/{t['id']}/join", json={"seat": 1}, headers=bia.headers)
    assert r.status_code == 200
    wait_for(lambda: summary(server, t["id"])["status"] == "playing")
    with server.ws(t["id"], ana) as wa, server.ws(t["id"], bia) as wb:
        frames = {0: receive(wa), 1: receive(wb)}
        play({0: wa, 1: wb}, frames, 3)
    return t["id"], frames[0]["version"]


def test_a_table_stored_without_a_streak_limit_plays_on_with_the_default_one(
    db_url: str,
) -> None:
    # RULINGS 9: every hand ends; pile_streak_limit=0 is refused without pile_top_meld
    # now, and migration 0004 gives such a stored table the default limit
    with running(db_url) as server:
        table_id, version = _table_with_actions(server)
    _rewrite(db_url, table_id, {"pile_streak_limit": 0}, revision="0003")
    with running(db_url) as server:
        after = summary(server, table_id)
        assert after["status"] == "playing" and after["version"] == version
    row, _ = stored(db_url, table_id)
    assert json.loads(row.options) == {"pile_streak_limit": 12}


def test_a_table_whose_stored_rules_are_refused_does_not_stop_the_others(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with running(db_url) as server:
        broken, _ = _table_with_actions(server)
        fine, version = _table_with_actions(server)
    # written after the migrations ran: the check refuses it when the table loads
    _rewrite(db_url, broken, {"pile_streak_limit": 0}, revision=None)
    with caplog.at_level("ERROR", logger="buraco.server"), running(db_url) as server:
        after = summary(server, fine)
        assert after["status"] == "playing" and after["version"] == version
        r = server.client.get(f"/api/tables/{broken}")
        assert r.status_code == 404 and r.json()["error"]["code"]
    assert any(
        f"table {broken} not resumed" in r.getMessage() and "pile_streak_limit=0" in r.getMessage()
        for r in caplog.records
    )


@pytest.mark.parametrize(
    ("kind", "data", "why"),
    [
        ("action", {"by": "first"}, "before any deal"),
        ("seat", {"seat": 1}, "is malformed (KeyError"),
        ("seat", "not json", "is malformed (JSONDecodeError"),
    ],
)
def test_a_table_whose_log_is_unreadable_is_reported_and_the_others_resume(
    db_url: str, caplog: pytest.LogCaptureFixture, kind: str, data: Any, why: str
) -> None:
    with running(db_url) as server:
        broken, _ = _table_with_actions(server)
        fine, version = _table_with_actions(server)

    async def spoil() -> None:
        store = await Store.open(db_url)
        try:
            async with store.engine.begin() as conn:
                await conn.execute(
                    update(EventRow)
                    .where(EventRow.table_id == broken, EventRow.version == 1)
                    .values(kind=kind, data=data if isinstance(data, str) else json.dumps(data))
                )
        finally:
            await store.close()

    asyncio.run(spoil())
    with caplog.at_level("ERROR", logger="buraco.server"), running(db_url) as server:
        assert summary(server, fine)["version"] == version
        for _ in range(2):  # asked again, it is not loaded again
            assert server.client.get(f"/api/tables/{broken}").status_code == 404
    said = [r.getMessage() for r in caplog.records if f"table {broken} " in r.getMessage()]
    assert len(said) == 1 and "not resumed" in said[0] and why in said[0]


def test_the_migrations_make_exactly_the_tables_the_models_describe(tmp_path: Path) -> None:
    # a column added to a model without its migration (or the other way round) shows here
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import create_engine

    from buraco.server.models import Base

    db = tmp_path / "buraco.db"

    async def migrate() -> None:
        store = await Store.open(f"sqlite+aiosqlite:///{db}")
        await store.close()

    asyncio.run(migrate())
    with create_engine(f"sqlite:///{db}").connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
