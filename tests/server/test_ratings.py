"""Ratings: the model's properties, rated matches on SQLite and PostgreSQL, the leaderboard and
the profile, and an update that is applied exactly once."""

from __future__ import annotations

import asyncio
import math
import secrets
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buraco.server.ratings import BOT_ANCHORS, MODEL, START, anchor, ranks_of, rate, shown
from buraco.server.store import Store
from serverkit import Player, Server, receive, wait_for

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ME_AND_GREEDY = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]


# ----- the model ---------------------------------------------------------------------------------
ratings_st = st.tuples(st.floats(10, 40), st.floats(1, 9))


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    n_sides=st.integers(2, 3),
    per_side=st.integers(1, 3),
)
def test_the_update_does_not_depend_on_the_order_of_the_sides(
    data: st.DataObject, n_sides: int, per_side: int
) -> None:
    # Plackett-Luce ranks sides, not positions: listing them in another order (each with
    # its rank) gives every player the same new rating
    players = [[f"p{s}{i}" for i in range(per_side)] for s in range(n_sides)]
    current = {p: data.draw(ratings_st) for side in players for p in side}
    ranks = data.draw(st.lists(st.integers(0, n_sides - 1), min_size=n_sides, max_size=n_sides))
    order = data.draw(st.permutations(range(n_sides)))
    sides = [[(p, None) for p in side] for side in players]
    first = rate(sides, ranks, current)
    second = rate([sides[i] for i in order], [ranks[i] for i in order], current)
    assert first.keys() == second.keys()
    for p in first:
        assert first[p] == pytest.approx(second[p])


@settings(max_examples=60, deadline=None)
@given(sigma=st.floats(1, 9), mus=st.lists(st.floats(10, 40), min_size=4, max_size=4))
def test_between_two_equal_partnerships_what_one_side_gains_the_other_loses(
    sigma: float, mus: list[float]
) -> None:
    # with every σ equal, two sides of two: the winners' μ rises by what the losers' falls
    current = {f"p{i}": (mu, sigma) for i, mu in enumerate(mus)}
    after = rate([[("p0", None), ("p1", None)], [("p2", None), ("p3", None)]], [0, 1], current)
    gained = sum(after[p][0] - current[p][0] for p in ("p0", "p1"))
    lost = sum(current[p][0] - after[p][0] for p in ("p2", "p3"))
    assert gained > 0 and gained == pytest.approx(lost)
    # each match makes the model surer (beyond the little uncertainty τ adds each match)
    assert all(after[p][1] <= math.hypot(sigma, MODEL.tau) for p in after)


def test_bots_are_fixed_anchors_and_a_win_over_a_stronger_one_is_worth_more() -> None:
    beat_mcts = rate([[("ana", None)], [("bot", "mcts:time=0.5")]], [0, 1], {})
    beat_random = rate([[("ana", None)], [("bot", "random")]], [0, 1], {})
    assert set(beat_mcts) == set(beat_random) == {"ana"}  # a bot's rating never moves
    assert beat_mcts["ana"][0] > beat_random["ana"][0] > START[0]
    assert anchor("heuristic:depth=2") == BOT_ANCHORS["heuristic"]
    assert anchor("someone-new") == BOT_ANCHORS["heuristic"]


def test_a_resigned_or_abandoning_side_ranks_last_and_ties_share_a_rank() -> None:
    # online.md, rated matches: abandoning a rated match counts as a loss
    assert ranks_of([3000, 1200]) == [0, 1]
    assert ranks_of([3000, 1200], last=[0]) == [1, 0]
    assert ranks_of([900, 900, 100]) == [0, 0, 1]
    assert ranks_of([900, 900, 100], last=[1]) == [0, 2, 1]
    assert shown(*START) == 0


# ----- rated matches on the server ----------------------------------------------------------------
def name(base: str) -> str:
    """A name of this run: the session's PostgreSQL database is shared by the tests."""
    return f"{base} {secrets.token_hex(2)}"


def resign(server: Server, who: Player, table: str) -> None:
    r = server.client.post(f"/api/tables/{table}/resign", headers=who.headers)
    assert r.status_code == 200, r.text


def board(server: Server, who: Player | None = None, **query: Any) -> dict[str, Any]:
    r = server.client.get(
        "/api/ratings",
        params={"preset": "aberto", "players": 2, **query},
        headers=who.headers if who else {},
    )
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_rated_match_updates_the_ratings_the_board_and_the_profile(server: Server) -> None:
    ana, bia = server.guest(name("Ana")), server.guest(name("Bia"))
    made = server.create(ana, ME_AND_GREEDY, players=2, rated=True)["table"]
    assert made["rated"] is True and made["seats"][0]["rating"] is None
    resign(server, ana, made["id"])  # a conceded rated match is a loss
    mine = wait_for(lambda: [r for r in board(server, ana)["rows"] if r["id"] == ana.id])
    row = mine[0]
    assert row["games"] == 1 and row["provisional"] is True and row["rating"] < 0
    assert board(server, ana)["you"] == row
    # an unrated match changes nothing
    other = server.create(bia, ME_AND_GREEDY, players=2)["table"]
    resign(server, bia, other["id"])
    assert bia.id not in [r["id"] for r in board(server)["rows"]]
    # the profile: the rating, its history, the game
    profile = server.client.get(f"/api/players/{ana.id}").json()
    assert profile["name"] == ana.name
    assert [(r["preset"], r["players"], r["games"]) for r in profile["ratings"]] == [
        ("aberto", 2, 1)
    ]
    assert [h["rating"] for h in profile["history"]] == [row["rating"]]
    assert profile["history"][0]["change"] == row["rating"]  # from 0, a newcomer's rating
    assert [g["table"] for g in profile["games"]] == [made["id"]]  # a game against a bot too
    # the next rated table shows her rating beside her name
    again = server.create(ana, ME_AND_GREEDY, players=2, rated=True)["table"]
    assert again["seats"][0]["rating"] == row["rating"]
    assert server.client.get("/api/players/nobody-here").status_code == 404


def test_two_people_and_the_winner_rises(server: Server) -> None:
    ana, bia = server.guest(name("Ana")), server.guest(name("Bia"))
    t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2, rated=True)["table"]
    r = server.client.post(f"/api/tables/{t['id']}/join", json={"seat": 1}, headers=bia.headers)
    assert r.status_code == 200
    wait_for(
        lambda: server.client.get(f"/api/tables/{t['id']}").json()["table"]["status"] == "playing"
    )
    resign(server, bia, t["id"])
    rows = wait_for(lambda: {r["id"]: r for r in board(server)["rows"]})
    assert rows[ana.id]["mu"] > START[0] > rows[bia.id]["mu"]
    assert rows[ana.id]["mu"] - START[0] == pytest.approx(START[0] - rows[bia.id]["mu"])
    profile = server.client.get(f"/api/players/{ana.id}").json()
    assert profile["opponents"] == [
        {"id": bia.id, "name": bia.name, "games": 1, "won": 1, "lost": 0}
    ]


def test_leaving_a_rated_match_concedes_it(server: Server) -> None:
    ana = server.guest(name("Ana"))
    t = server.create(ana, ME_AND_GREEDY, players=2, rated=True)["table"]
    r = server.client.post(f"/api/tables/{t['id']}/leave", headers=ana.headers)
    assert r.status_code in (200, 204), r.text
    summary = server.client.get(f"/api/tables/{t['id']}").json()["table"]
    assert summary["status"] == "over"
    rows = {r["id"]: r for r in board(server)["rows"]}
    assert rows[ana.id]["mu"] < START[0]


def test_a_rating_update_cut_off_is_applied_once_when_the_end_is_recorded_again(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the update and the game's record are one transaction: a process that dies between
    # them leaves neither, and the end recorded again (by it or another) rates once
    ana = server.guest(name("Ana"))
    t = server.create(ana, ME_AND_GREEDY, players=2, rated=True)["table"]
    store: Store = server.client.app.state.store  # type: ignore[attr-defined]
    real = Store._rate
    calls = {"n": 0}

    async def dies_once(self: Store, *args: Any) -> None:
        calls["n"] += 1
        await real(self, *args)
        if calls["n"] == 1:
            raise ConnectionResetError("the process died here")

    monkeypatch.setattr(Store, "_rate", dies_once)
    r = server.client.post(f"/api/tables/{t['id']}/resign", headers=ana.headers)
    assert r.status_code >= 500 or r.status_code == 503
    # nothing was kept: Ana is rated only once the end has been recorded again (the
    # table's driver may do that at once, on a busy machine before the board is read)
    if ana.id in [x["id"] for x in board(server)["rows"]]:
        assert calls["n"] >= 2
    service = server.client.app.state.service  # type: ignore[attr-defined]
    lt = service.tables[t["id"]]

    async def finish_again() -> None:
        await service._finish(lt)
        await service._finish(lt)  # and once more: the table is over, nothing is rated twice

    server.client.portal.call(finish_again)  # type: ignore[union-attr]
    rows = {x["id"]: x for x in board(server)["rows"]}
    assert rows[ana.id]["games"] == 1
    history = server.client.get(f"/api/players/{ana.id}").json()["history"]
    assert len(history) == 1
    assert asyncio.iscoroutinefunction(store._rate)


def test_a_player_away_at_the_end_of_a_rated_match_is_rated_last(tmp_path: Any) -> None:
    # online.md, ratings: away past the grace period to the end counts as a loss, whatever
    # the stand-in scored for the seat
    from fastapi.testclient import TestClient

    from buraco.server.app import create_app
    from serverkit import make_settings

    settings_ = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", grace=0.0)
    with TestClient(create_app(settings_)) as client:
        server = Server(client, settings_)
        ana = server.guest(name("Ana"))
        options = {"match_hands": 1}
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
        t = server.create(ana, seats, players=2, rated=True, options=options)["table"]
        with server.ws(t["id"], ana) as ws:  # she looks in once and goes: away at once
            receive(ws)
        wait_for(
            lambda: client.get(f"/api/tables/{t['id']}").json()["table"]["status"] == "over",
            seconds=120,
        )
        # her stand-in (heuristic) outscored random, and still her side is rated last
        game = client.get(f"/api/games?table={t['id']}").json()["games"][0]
        assert game["totals"][0] > game["totals"][1], game
        rows = {r["id"]: r for r in board(server)["rows"]}
        assert rows[ana.id]["mu"] < START[0]
