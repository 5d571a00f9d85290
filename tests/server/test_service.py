"""The table service on the real app: stand-in bots, the turn timer, pacing, bots off the loop."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from buraco.server.app import create_app
from serverkit import Server, make_settings, my_turn, receive, until, wait_for

ME_AND_BOT = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture
def quick_grace(tmp_path: Path) -> Iterator[Server]:
    """A server whose players keep their seat for 0.3 s after they disconnect."""
    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", grace=0.3)
    with TestClient(create_app(settings)) as client:
        yield Server(client, settings)


def _version(server: Server, table: str) -> int:
    v: int = server.client.get(f"/api/tables/{table}").json()["table"]["version"]
    return v


def _wait_for(server: Server, table: str, pred: Any, seconds: float = 10) -> dict[str, Any]:
    def summary() -> dict[str, Any] | None:
        t: dict[str, Any] = server.client.get(f"/api/tables/{table}").json()["table"]
        return t if pred(t) else None

    found: dict[str, Any] = wait_for(summary, seconds)
    return found


def test_a_player_away_past_the_grace_period_is_played_by_a_bot_until_back(
    quick_grace: Server,
) -> None:
    server = quick_grace
    ana = server.guest("Ana")
    t = server.create(ana, ME_AND_BOT, players=2)["table"]["id"]
    with server.ws(t, ana) as ws:
        m = until(ws, my_turn)
    # Ana's turn and no connection: after the grace period the stand-in moves for her
    moved = _wait_for(server, t, lambda x: x["version"] > m["version"] + 2)
    seats = moved["seats"]
    assert isinstance(seats, list) and seats[0]["away"] is True
    lt = server.client.app.state.service.tables[t]  # type: ignore[attr-defined]
    by = {e["by"] for _, e in lt.recent if e["kind"] == "action" and e["seat"] == 0}
    assert by == {"away"}
    # back at the table: the seat is hers again and nothing moves for her (a stand-in move
    # already under way when she reconnects may still land: she is sent it as an event)
    with server.ws(t, ana) as ws:
        state = until(ws, lambda x: x["type"] == "state")
        time.sleep(0.6)  # twice the grace period
        settled = _version(server, t)
        time.sleep(0.6)
        assert _version(server, t) == settled
        assert lt.game.turn == 0
        # her turn as she was told it: in the state she got, or in the event of a stand-in
        # move that landed after it
        if state["version"] == settled:
            m = state
        else:
            m = until(ws, lambda x: my_turn(x) and x["version"] == settled)
        assert my_turn(m)
        ws.send_text(
            json.dumps({"type": "action", "version": m["version"], "action": m["view"]["legal"][0]})
        )
        ev = until(ws, lambda x: x["type"] == "event" and x["version"] == settled + 1)
        assert ev["event"]["by"] == "player" and ev["event"]["seat"] == 0


def test_within_the_grace_period_the_seat_waits(sqlite_server: Server) -> None:
    server = sqlite_server  # grace: 60 s
    ana = server.guest("Ana")
    t = server.create(ana, ME_AND_BOT, players=2)["table"]["id"]
    with server.ws(t, ana) as ws:
        m = until(ws, my_turn)
    time.sleep(0.8)
    table = server.client.get(f"/api/tables/{t}").json()["table"]
    assert table["version"] == m["version"]
    assert table["seats"][0]["connected"] is False and table["seats"][0]["away"] is False


def test_the_turn_timer_lets_a_bot_move_for_a_player_out_of_time(sqlite_server: Server) -> None:
    server = sqlite_server
    ana = server.guest("Ana")
    made = server.create(ana, ME_AND_BOT, players=2, turn_timer=30)["table"]
    assert made["turn_timer"] == 30
    lt = server.client.app.state.service.tables[made["id"]]  # type: ignore[attr-defined]
    lt.turn_timer = 1  # the shortest allowed is 30 s; a test cannot wait that long
    with server.ws(made["id"], ana) as ws:
        m = until(ws, my_turn)
        assert m["clock"]["limit"] == 1 and m["clock"]["turn"] == 0
        start = time.monotonic()
        ev = until(ws, lambda x: x["type"] == "event" and x["event"].get("seat") == 0)
        waited = time.monotonic() - start
        assert ev["event"]["by"] == "timer"
        assert 0.5 <= waited < 5


def test_turn_timers_other_than_the_offered_ones_are_refused(sqlite_server: Server) -> None:
    ana = sqlite_server.guest("Ana")
    r = sqlite_server.client.post(
        "/api/tables",
        json={"preset": "aberto", "players": 2, "seats": ME_AND_BOT, "turn_timer": 5},
        headers=ana.headers,
    )
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["field"] == "turn_timer" and "30" in err["message"]


def test_bots_wait_the_tables_pace(sqlite_server: Server) -> None:
    server = sqlite_server
    ana = server.guest("Ana")
    t = server.create(ana, ME_AND_BOT, players=2)["table"]["id"]
    lt = server.client.app.state.service.tables[t]  # type: ignore[attr-defined]
    with server.ws(t, ana) as ws:
        m = until(ws, my_turn)
        lt.pace = 0.5
        ws.send_text(json.dumps({"type": "action", "version": m["version"], "action": "draw"}))
        m = until(ws, my_turn)
        discard = next(a for a in m["view"]["legal"] if a.startswith("discard"))
        ws.send_text(json.dumps({"type": "action", "version": m["version"], "action": discard}))
        until(ws, lambda x: x["type"] == "event" and x["event"].get("seat") == 0)
        start = time.monotonic()
        until(ws, lambda x: x["type"] == "event" and x["event"].get("seat") == 1)
        assert time.monotonic() - start >= 0.4


def test_a_slow_bot_in_a_worker_process_does_not_stall_other_tables(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", bot_workers=1)
    with TestClient(create_app(settings)) as client:
        server = Server(client, settings)
        ana, bia = server.guest("Ana"), server.guest("Bia")
        slow = [{"kind": "bot", "bot": "mcts:time=1"}] * 2
        server.create(ana, slow, players=2)
        t = server.create(bia, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]["id"]
        with server.ws(t, bia) as ws:
            until(ws, lambda x: x["type"] == "chat")
            latencies = []
            for _ in range(10):
                start = time.monotonic()
                ws.send_text('{"type": "ping"}')
                until(ws, lambda x: x["type"] == "pong")
                latencies.append(time.monotonic() - start)
                time.sleep(0.1)
        assert max(latencies) < 0.5, latencies


def test_messages_past_the_rate_are_dropped_with_an_error(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", messages_per_second=5)
    with TestClient(create_app(settings)) as client:
        server = Server(client, settings)
        ana = server.guest("Ana")
        t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]["id"]
        with server.ws(t, ana) as ws:
            until(ws, lambda x: x["type"] == "chat")
            for _ in range(30):  # a burst of 30 at once: 10 (twice the rate) pass
                ws.send_text('{"type": "ping"}')
            answers = [until(ws, lambda x: x["type"] in ("pong", "error")) for _ in range(30)]
        pongs = sum(a["type"] == "pong" for a in answers)
        assert 10 <= pongs <= 12
        assert {a["code"] for a in answers if a["type"] == "error"} == {"rate"}


def test_a_table_takes_a_bounded_number_of_chat_lines_from_everyone_together(
    tmp_path: Path,
) -> None:
    # each connection may send 20 lines a minute (bursts of 5), the table 8 (bursts of 2)
    settings = make_settings(
        f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", chat_per_minute=20, chat_per_table_minute=8
    )
    with TestClient(create_app(settings)) as client:
        server = Server(client, settings)
        guests = [server.guest(name) for name in ("Ana", "Bia", "Cid", "Dan")]
        t = server.create(guests[0], [{"kind": "me"}, {"kind": "open"}], players=2)["table"]["id"]
        codes = []
        for g in guests:  # four watchers, two lines each: within each one's own limit
            with server.ws(t, g) as ws:
                until(ws, lambda x: x["type"] == "chat")
                for i in range(2):
                    ws.send_text(json.dumps({"type": "chat", "text": f"{g.name} {i}"}))
                    m = until(ws, lambda x: x["type"] == "error" or "line" in x)
                    codes.append(m.get("code"))
        # the table's burst of two passed, the rest was refused for the table's rate
        assert codes[:2] == [None, None]
        assert codes[2:] == ["rate"] * 6
        with server.ws(t, guests[0]) as ws:
            lines = until(ws, lambda x: x["type"] == "chat")["lines"]
            assert [x["text"] for x in lines] == ["Ana 0", "Ana 1"]


def test_a_guest_may_have_a_bounded_number_of_connections_open(tmp_path: Path) -> None:
    from contextlib import ExitStack

    from starlette.websockets import WebSocketDisconnect

    from buraco.server.ws import CLOSE_TOO_MANY

    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", connections_per_guest=3)
    with TestClient(create_app(settings)) as client:
        server = Server(client, settings)
        ana, bia = server.guest("Ana"), server.guest("Bia")
        t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]["id"]
        with ExitStack() as stack:
            for _ in range(3):
                ws = stack.enter_context(server.ws(t, ana))
                assert receive(ws)["type"] == "state"
            with server.ws(t, ana) as extra:  # a fourth: refused, and closed
                m = receive(extra)
                assert m["type"] == "error" and m["code"] == "connections"
                with pytest.raises(WebSocketDisconnect) as closed:
                    extra.receive_text()
                assert closed.value.code == CLOSE_TOO_MANY
            with server.ws(t, bia) as other:  # another guest is not counted with her
                assert receive(other)["type"] == "state"
        # once closed, her connections no longer count
        with server.ws(t, ana) as again:
            assert receive(again)["type"] == "state"


async def test_a_client_that_stops_reading_is_closed_when_its_queue_fills() -> None:
    from buraco.server.ws import CLOSE_SLOW, Connection

    class Socket:
        def __init__(self) -> None:
            self.sent: list[str] = []
            self.closed: int | None = None

        async def send_text(self, text: str) -> None:
            self.sent.append(text)

        async def close(self, code: int, reason: str = "") -> None:
            self.closed = code

    sock = Socket()
    conn = Connection(sock, None, None, 4)  # type: ignore[arg-type]
    for i in range(10):  # nothing is written meanwhile: the client is not reading
        conn.send(f"frame {i}")
    assert conn.closing is not None and conn.queue.qsize() == 4
    await conn.writer()  # sends what was queued, then closes
    assert sock.closed == CLOSE_SLOW
    assert len(sock.sent) == 3  # what fitted, then the close: the client resyncs on reconnect


def test_a_timed_match_ends_with_the_hand_in_play_when_its_time_is_up(
    sqlite_server: Server,
) -> None:
    from buraco.replays import replay

    server = sqlite_server
    ana = server.guest("Ana")
    bots = [{"kind": "bot", "bot": "greedy"}] * 2
    made = server.create(ana, bots, players=2, minutes=15)["table"]
    assert made["minutes"] == 15
    lt = server.client.app.state.service.tables[made["id"]]  # type: ignore[attr-defined]
    _wait_for(server, made["id"], lambda x: x["status"] == "playing")
    assert lt.started_at is not None
    in_play = lt.game.hand_number + 1
    lt.started_at -= 16 * 60  # a test cannot wait a quarter of an hour
    over = _wait_for(server, made["id"], lambda x: x["status"] == "over", seconds=60)
    game = server.client.get(f"/api/games/{over['game']}/record").json()
    assert game["stopped"] is True and len(game["hands"]) == in_play
    again = replay(game)
    assert again.is_over() and again.winner == game["winner"]
    r = server.client.post(
        "/api/tables",
        json={"preset": "aberto", "players": 2, "seats": bots, "minutes": 20},
        headers=ana.headers,
    )
    assert r.status_code == 400 and r.json()["error"]["field"] == "minutes"


def test_a_dead_bot_worker_is_replaced_and_the_bots_choose_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import os
    import signal

    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", bot_workers=1)
    with TestClient(create_app(settings)) as client:
        server = Server(client, settings)
        ana = server.guest("Ana")
        bots = [{"kind": "bot", "bot": "greedy"}] * 2
        table = server.create(ana, bots, players=2, options={"target": 100000})["table"]["id"]
        pool = client.app.state.service.pool  # type: ignore[attr-defined]
        with server.ws(table) as ws:
            until(ws, lambda m: m.get("type") == "event" and m["version"] >= 5)
            # the worker dies (killed, out of memory) in the middle of the match
            for pid in list(pool.executor._processes):
                os.kill(pid, signal.SIGKILL)
            start = until(ws, lambda m: m.get("type") == "event")["version"]
            until(ws, lambda m: m.get("type") == "event" and m["version"] >= start + 30)
        assert pool.restarts == 1
        health = client.get("/healthz").json()
        assert health == {"ok": True, "bot_restarts": 1}
    # no decision fell back to "the first legal action": the bot chose every one
    assert not [r for r in caplog.records if "first legal action" in r.getMessage()]
    assert any("a bot worker died" in r.getMessage() for r in caplog.records)
