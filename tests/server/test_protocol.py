"""The WebSocket protocol on the real app (docs/protocol.md): actions, versions, refusals, chat."""

from __future__ import annotations

import json
from typing import Any

import pytest

from buraco.actions import FORMS
from buraco.server.protocol import PROTOCOL
from serverkit import Server, my_turn, receive, until

BOTS = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}] * 2


def test_welcome_is_a_state_with_the_seat_view_then_chat(sqlite_server: Server) -> None:
    ana = sqlite_server.guest("Ana")
    t = sqlite_server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]
    with sqlite_server.ws(t["id"], ana) as ws:
        state = receive(ws)
        assert state["type"] == "state" and state["protocol"] == PROTOCOL
        assert state["you"] == {"seat": 0, "guest": {"id": ana.id, "name": "Ana"}}
        assert state["table"]["status"] == "waiting" and state["view"] is None
        assert receive(ws) == {"type": "chat", "lines": []}


def test_actions_go_through_the_engine_and_every_event_carries_the_version(
    sqlite_server: Server,
) -> None:
    ana = sqlite_server.guest("Ana")
    t = sqlite_server.create(ana, BOTS[:2], players=2, options={"match_hands": 1})["table"]
    with sqlite_server.ws(t["id"], ana) as ws:
        versions = []
        m = until(ws, my_turn)
        for _ in range(6):
            versions.append(m["version"])
            ws.send_text(
                json.dumps(
                    {"type": "action", "version": m["version"], "action": m["view"]["legal"][0]}
                )
            )
            ev = until(
                ws,
                lambda x: (
                    x["type"] == "event"
                    and x["event"].get("seat") == 0
                    and x["event"]["kind"] == "action"
                ),
            )
            assert ev["version"] == m["version"] + 1
            assert ev["event"]["action"] == m["view"]["legal"][0]
            assert ev["event"]["by"] == "player"
            m = ev if my_turn(ev) else until(ws, my_turn)
        assert versions == sorted(versions) and len(set(versions)) == 6


def test_a_stale_action_is_refused_with_the_current_state(sqlite_server: Server) -> None:
    ana = sqlite_server.guest("Ana")
    t = sqlite_server.create(ana, BOTS[:2], players=2)["table"]
    with sqlite_server.ws(t["id"], ana) as ws:
        m = until(ws, my_turn)
        action = m["view"]["legal"][0]
        # the same click twice: the second was sent from the view before the first applied
        ws.send_text(json.dumps({"type": "action", "version": m["version"], "action": action}))
        ws.send_text(json.dumps({"type": "action", "version": m["version"], "action": action}))
        ev = until(ws, lambda x: x["type"] == "event")
        assert ev["version"] == m["version"] + 1
        err = until(ws, lambda x: x["type"] == "error")
        assert err["code"] == "stale" and err["version"] == m["version"] + 1
        state = receive(ws)
        assert state["type"] == "state" and state["version"] == m["version"] + 1


@pytest.mark.parametrize(
    ("text", "code", "refusal"),
    [
        ("discard ZZ", "notation", {"code": "notation.card", "params": {"given": "'ZZ'"}}),
        (
            "add ² 3S",
            "notation",
            {
                "code": "notation.meld-number",
                "params": {"text": "'add ² 3S'", "most": 999, "given": "'²'"},
            },
        ),
        ("meld " + "9" * 600, "message", None),  # over the action's 500 characters
        ("meld " + "9" * 5000, "too-large", None),  # over the frame's 4096 bytes
        (
            "take-pile-now",
            "notation",
            {"code": "notation.unknown", "params": {"given": "'take-pile-now'", "forms": FORMS}},
        ),
    ],
)
def test_bad_actions_get_the_engines_reason_and_change_nothing(
    sqlite_server: Server, text: str, code: str, refusal: dict[str, Any] | None
) -> None:
    ana = sqlite_server.guest("Ana")
    t = sqlite_server.create(ana, BOTS[:2], players=2)["table"]
    with sqlite_server.ws(t["id"], ana) as ws:
        m = until(ws, my_turn)
        ws.send_text(json.dumps({"type": "action", "version": m["version"], "action": text}))
        err = until(ws, lambda x: x["type"] in ("error", "event"))
        assert err["type"] == "error" and err["code"] == code, err
        assert err["message"]
        # what was typed is refused as data, for the page to word in its player's language
        assert err.get("refusal") == refusal, err
        ws.send_text(json.dumps({"type": "ping"}))
        assert until(ws, lambda x: x["type"] == "pong")["version"] == m["version"]


def test_an_illegal_action_names_the_broken_rule(sqlite_server: Server) -> None:
    ana = sqlite_server.guest("Ana")
    t = sqlite_server.create(ana, BOTS[:2], players=2)["table"]
    with sqlite_server.ws(t["id"], ana) as ws:
        m = until(ws, my_turn)
        assert "draw" in m["view"]["legal"]
        card = m["view"]["hand"][0]
        ws.send_text(
            json.dumps({"type": "action", "version": m["version"], "action": f"discard {card}"})
        )
        err = until(ws, lambda x: x["type"] == "error")
        assert err["code"] == "illegal" and err["rule"] and "draw" in err["message"].lower()
        # the same refusal as data, for the page to word in its language
        assert err["refusal"] == {"code": "phase.draw-first", "params": {}}
        assert err["rule"] == "phase"
        r = sqlite_server.client.get(f"/api/tables/{t['id']}")
        assert r.json()["table"]["version"] == m["version"]


def test_a_spectator_cannot_act_and_sees_no_hand(sqlite_server: Server) -> None:
    ana, bia = sqlite_server.guest("Ana"), sqlite_server.guest("Bia")
    t = sqlite_server.create(ana, BOTS[:2], players=2)["table"]
    with sqlite_server.ws(t["id"], bia) as ws:
        m = until(ws, lambda x: x["type"] in ("state", "event") and x["view"])
        assert m["view"]["hand"] == [] and m["view"]["seat"] is None and m["view"]["legal"] == []
        ws.send_text(json.dumps({"type": "action", "version": m["version"], "action": "draw"}))
        assert until(ws, lambda x: x["type"] == "error")["code"] == "spectator"


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[]",
        '{"type": "action"}',
        '{"type": "action", "version": "3", "action": "draw"}',
        '{"type": "action", "version": 3, "action": "draw", "seat": 2}',
        '{"type": "launch"}',
        '{"type": "chat", "text": ""}',
        '{"type": "chat", "text": "' + "x" * 301 + '"}',
        '{"type": "hello", "since": -1}',
    ],
)
def test_malformed_messages_get_an_error_and_the_connection_stays(
    sqlite_server: Server, frame: str
) -> None:
    ana = sqlite_server.guest("Ana")
    t = sqlite_server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]
    with sqlite_server.ws(t["id"], ana) as ws:
        until(ws, lambda x: x["type"] == "chat")
        ws.send_text(frame)
        err = until(ws, lambda x: x["type"] not in ("table", "event"))
        assert err["type"] == "error" and err["code"] == "message"
        assert "docs/protocol.md" in err["message"]
        ws.send_text('{"type": "ping"}')
        assert until(ws, lambda x: x["type"] not in ("table", "event"))["type"] == "pong"


def test_a_frame_over_the_limit_is_refused(sqlite_server: Server) -> None:
    ana = sqlite_server.guest("Ana")
    t = sqlite_server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]
    with sqlite_server.ws(t["id"], ana) as ws:
        until(ws, lambda x: x["type"] == "chat")
        ws.send_text(json.dumps({"type": "chat", "text": "x" * 5000}))
        assert until(ws, lambda x: x["type"] == "error")["code"] == "too-large"


def test_chat_reaches_everyone_as_text_and_is_rate_limited(sqlite_server: Server) -> None:
    ana, bia = sqlite_server.guest("Ana"), sqlite_server.guest("<b>Bia</b>")
    t = sqlite_server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]
    with sqlite_server.ws(t["id"], ana) as wa, sqlite_server.ws(t["id"], bia) as wb:
        until(wa, lambda x: x["type"] == "chat")
        until(wb, lambda x: x["type"] == "chat")
        wb.send_text(json.dumps({"type": "chat", "text": "<script>alert(1)</script>  hi"}))
        line = until(wa, lambda x: x["type"] == "chat")["line"]
        assert line["name"] == "<b>Bia</b>" and line["text"] == "<script>alert(1)</script> hi"
        codes = []
        for i in range(sqlite_server.settings.chat_per_minute):
            wb.send_text(json.dumps({"type": "chat", "text": f"line {i}"}))
            m = until(wb, lambda x: x["type"] in ("chat", "error"))
            codes.append(m.get("code"))
        assert "rate" in codes
    # a new connection gets the stored lines
    with sqlite_server.ws(t["id"], ana) as ws:
        lines = until(ws, lambda x: x["type"] == "chat")["lines"]
        assert lines[0]["text"] == "<script>alert(1)</script> hi"
        # stored lines keep their UTC offset as live ones do (SQLite drops it)
        assert lines[0]["at"].endswith("+00:00") and line["at"].endswith("+00:00")


def test_reconnecting_with_since_gets_the_missed_events_then_the_state(
    sqlite_server: Server,
) -> None:
    ana = sqlite_server.guest("Ana")
    t = sqlite_server.create(ana, BOTS[:2], players=2)["table"]
    with sqlite_server.ws(t["id"], ana) as ws:
        m = until(ws, my_turn)
        ws.send_text(json.dumps({"type": "action", "version": m["version"], "action": "draw"}))
        seen = until(ws, lambda x: x["type"] == "event")["version"]
    # meanwhile nothing moves (it is still Ana's turn); act in a second connection
    with sqlite_server.ws(t["id"], ana) as ws:
        m = until(ws, my_turn)
        ws.send_text(
            json.dumps(
                {"type": "action", "version": m["version"], "action": m["view"]["legal"][-1]}
            )
        )
        until(ws, lambda x: x["type"] == "event")
    with sqlite_server.ws(t["id"], ana, f"?since={seen}") as ws:
        missed = receive(ws)
        assert missed["type"] == "missed" and missed["since"] == seen
        assert missed["events"][0]["kind"] == "action"
        state = receive(ws)
        assert state["type"] == "state" and state["version"] >= seen + 1
    with sqlite_server.ws(t["id"], ana, "?since=999999") as ws:
        assert receive(ws)["type"] == "state"  # a version it cannot have seen: full resync


def test_an_unknown_or_private_table_closes_the_socket(sqlite_server: Server) -> None:
    from starlette.websockets import WebSocketDisconnect

    ana, bia = sqlite_server.guest("Ana"), sqlite_server.guest("Bia")
    made = sqlite_server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2, public=False)
    with pytest.raises(WebSocketDisconnect) as exc, sqlite_server.ws("nope", ana) as ws:
        ws.receive_text()
    assert exc.value.code == 4404
    with pytest.raises(WebSocketDisconnect), sqlite_server.ws(made["table"]["id"], bia) as ws:
        ws.receive_text()
    with sqlite_server.ws(made["table"]["id"], bia, f"?invite={made['invite']}") as ws:
        assert receive(ws)["type"] == "state"


def test_a_player_who_connects_is_shown_connected_to_everyone_and_to_themselves(
    sqlite_server: Server,
) -> None:
    ana, bia = sqlite_server.guest("Ana"), sqlite_server.guest("Bia")
    t = sqlite_server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2)["table"]
    with sqlite_server.ws(t["id"], bia) as watcher:
        until(watcher, lambda x: x["type"] == "chat")
        with sqlite_server.ws(t["id"], ana) as ws:
            # her state was made just before her connection joined: a table frame follows
            seats = until(ws, lambda x: x["type"] == "table")["table"]["seats"]
            assert seats[0]["connected"] is True
            # the watcher's own arrival came first (Ana not yet there), then hers
            seen = until(watcher, lambda x: x["type"] == "table")["table"]["seats"]
            assert seen[0]["connected"] is False
            seen = until(watcher, lambda x: x["type"] == "table")["table"]["seats"]
            assert seen[0]["connected"] is True
        gone = until(watcher, lambda x: x["type"] == "table")["table"]["seats"]
        assert gone[0]["connected"] is False
