"""A private table's finished game is shown only to its players, its maker and its invite's
holders: in the games list, by table, its summary, record and replay, and a player's profile
(recent games, rating history, head-to-head), on SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from serverkit import Player, Server, account, play_turns, wait_for

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def name(base: str) -> str:
    """A name of this run: the session's PostgreSQL database is shared by the tests."""
    return f"{base} {secrets.token_hex(2)}"


def status_of(server: Server, table: str, who: Player) -> str:
    r = server.client.get(f"/api/tables/{table}", headers=who.headers)
    assert r.status_code == 200, r.text
    status: str = r.json()["table"]["status"]
    return status


def finished_between(server: Server, ana: Player, bia: Player, *, public: bool) -> dict[str, Any]:
    """A rated match of Ana and Bia (accounts), played some turns, Bia resigning: its table
    and invite."""
    made = server.create(
        ana, [{"kind": "me"}, {"kind": "invite"}], players=2, rated=True, public=public
    )
    table, invite = made["table"]["id"], made["invite"]
    r = server.client.post(
        f"/api/tables/{table}/join", json={"seat": 1, "invite": invite}, headers=bia.headers
    )
    assert r.status_code == 200, r.text
    wait_for(lambda: status_of(server, table, ana) == "playing")
    play_turns(server, table, {0: ana, 1: bia}, 10)
    r = server.client.post(f"/api/tables/{table}/resign", headers=bia.headers)
    assert r.status_code == 200, r.text
    game = wait_for(lambda: server.client.get(f"/api/tables/{table}", headers=ana.headers).json()
                    ["table"]["game"])  # fmt: skip
    return {"table": table, "invite": invite, "game": game}


def sees(
    server: Server, who: Player | None, game: dict[str, Any], invite: str | None
) -> dict[str, bool]:
    """What of a game a viewer is shown, route by route."""
    headers = who.headers if who else {}
    tail = f"?invite={invite}" if invite else ""
    gid, table = game["game"], game["table"]
    get = server.client.get
    out: dict[str, bool] = {}
    listed = get("/api/games", headers=headers).json()["games"]
    out["list"] = gid in [g["id"] for g in listed]
    by_table = get(f"/api/games?table={table}" + (f"&invite={invite}" if invite else ""),
                   headers=headers).json()["games"]  # fmt: skip
    out["by table"] = [g["id"] for g in by_table] == [gid]
    for route in ("", "/record", "/replay"):
        r = get(f"/api/games/{gid}{route}{tail}", headers=headers)
        assert r.status_code in (200, 404), r.text
        if r.status_code == 404:
            assert r.json()["error"]["key"] == "not-found.game"
        out[route or "summary"] = r.status_code == 200
    return out


def profile_shows(
    server: Server, who: Player | None, of: Player, game: dict[str, Any]
) -> dict[str, bool]:
    """What of a game a player's profile shows a viewer: recent games, history, head-to-head."""
    r = server.client.get(f"/api/players/{of.id}", headers=who.headers if who else {})
    assert r.status_code == 200, r.text
    p = r.json()
    return {
        "games": game["game"] in [g["id"] for g in p["games"]],
        "history": game["game"] in [h["game"] for h in p["history"]],
        "opponents": bool(p["opponents"]),
    }


EVERYTHING = {"list": True, "by table": True, "summary": True, "/record": True, "/replay": True}
NOTHING = dict.fromkeys(EVERYTHING, False)


def test_a_private_tables_game_is_shown_only_to_its_players_and_invites_holders(
    server: Server,
) -> None:
    ana, bia = account(server, name("Ana")), account(server, name("Bia"))
    caio = server.guest(name("Caio"))
    private = finished_between(server, ana, bia, public=False)
    # its players see it everywhere, without the invite
    for player in (ana, bia):
        assert sees(server, player, private, None) == EVERYTHING
        mine = server.client.get("/api/games?mine=true", headers=player.headers).json()
        assert private["game"] in [g["id"] for g in mine["games"]]
    # anyone else sees nothing of it: not listed, not found by table or id
    for stranger in (None, caio):
        assert sees(server, stranger, private, None) == NOTHING
        assert sees(server, stranger, private, "not-the-code") == NOTHING
    # who holds the invite (a guest or not) may open it, by table or by id; it is not listed
    for holder in (None, caio):
        shown = sees(server, holder, private, private["invite"])
        assert shown == {**EVERYTHING, "list": False}, shown
    # a player's profile: its recent games, rating history and head-to-head leave it out
    # for others, and show it to the players
    for player, other in ((ana, bia), (bia, ana)):
        assert profile_shows(server, player, player, private) == dict.fromkeys(
            ("games", "history", "opponents"), True
        )
        assert profile_shows(server, other, player, private) == dict.fromkeys(
            ("games", "history", "opponents"), True
        )
        for stranger in (None, caio):
            assert profile_shows(server, stranger, player, private) == dict.fromkeys(
                ("games", "history", "opponents"), False
            )
        # the rating itself is the player's, whatever was private
        r = server.client.get(f"/api/players/{player.id}").json()
        assert [x["games"] for x in r["ratings"]] == [1]


def test_a_public_tables_game_is_everyones(server: Server) -> None:
    ana, bia = account(server, name("Ana")), account(server, name("Bia"))
    caio = server.guest(name("Caio"))
    public = finished_between(server, ana, bia, public=True)
    for who in (None, caio, ana, bia):
        assert sees(server, who, public, None) == EVERYTHING
        assert profile_shows(server, who, ana, public) == dict.fromkeys(
            ("games", "history", "opponents"), True
        )


def test_a_private_tables_maker_who_did_not_sit_sees_its_game(server: Server) -> None:
    dora, ana = server.guest(name("Dora")), server.guest(name("Ana"))
    made = server.create(dora, [{"kind": "invite"}, {"kind": "bot", "bot": "greedy"}],
                         players=2, public=False)  # fmt: skip
    table, invite = made["table"]["id"], made["invite"]
    r = server.client.post(
        f"/api/tables/{table}/join", json={"seat": 0, "invite": invite}, headers=ana.headers
    )
    assert r.status_code == 200, r.text
    wait_for(lambda: status_of(server, table, ana) == "playing")
    server.client.post(f"/api/tables/{table}/resign", headers=ana.headers)
    gid = wait_for(lambda: server.client.get(f"/api/tables/{table}", headers=dora.headers).json()
                   ["table"]["game"])  # fmt: skip
    game = {"table": table, "game": gid}
    assert sees(server, dora, game, None) == EVERYTHING
    assert sees(server, None, game, None) == NOTHING
