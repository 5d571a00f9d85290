"""Ratings: the model's properties, rated matches on SQLite and PostgreSQL, the leaderboard and
the profile, and an update that is applied exactly once."""

from __future__ import annotations

import asyncio
import math
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from buraco.server.models import GameRow
from buraco.server.ratings import BOT_ANCHORS, MODEL, START, anchor, ranks_of, rate, shown
from buraco.server.store import Store
from serverkit import Player, Server, account, play_turns, serving, wait_for

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
    beat_expert = rate([[("ana", None)], [("bot", "expert")]], [0, 1], {})
    assert beat_expert["ana"][0] > beat_mcts["ana"][0]  # the strongest bot, anchored above


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


TURNS = 10
"""The turns each side must play itself for a match to be rated (the server's default)."""


def played(server: Server, table: str, players: dict[int, Player], turns: int = TURNS) -> None:
    """The players (by seat) play ``turns`` turns each of a rated table, once it is dealt."""
    wait_for(lambda: server.client.get(f"/api/tables/{table}").json()["table"]["status"]
             == "playing")  # fmt: skip
    play_turns(server, table, players, turns)


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
    ana, bia = account(server, name("Ana")), server.guest(name("Bia"))
    made = server.create(ana, ME_AND_GREEDY, players=2, rated=True)["table"]
    assert made["rated"] is True and made["seats"][0]["rating"] is None
    played(server, made["id"], {0: ana})
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
    ana, bia = account(server, name("Ana")), account(server, name("Bia"))
    t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2, rated=True)["table"]
    r = server.client.post(f"/api/tables/{t['id']}/join", json={"seat": 1}, headers=bia.headers)
    assert r.status_code == 200
    played(server, t["id"], {0: ana, 1: bia})
    resign(server, bia, t["id"])
    rows = wait_for(lambda: {r["id"]: r for r in board(server)["rows"]})
    assert rows[ana.id]["mu"] > START[0] > rows[bia.id]["mu"]
    assert rows[ana.id]["mu"] - START[0] == pytest.approx(START[0] - rows[bia.id]["mu"])
    profile = server.client.get(f"/api/players/{ana.id}").json()
    assert profile["opponents"] == [
        {"id": bia.id, "name": bia.name, "games": 1, "won": 1, "lost": 0}
    ]


def test_leaving_a_rated_match_concedes_it(server: Server) -> None:
    ana = account(server, name("Ana"))
    t = server.create(ana, ME_AND_GREEDY, players=2, rated=True)["table"]
    played(server, t["id"], {0: ana})
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
    ana = account(server, name("Ana"))
    t = server.create(ana, ME_AND_GREEDY, players=2, rated=True)["table"]
    played(server, t["id"], {0: ana})
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
        ana = account(server, name("Ana"))
        options = {"match_hands": 1}
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
        t = server.create(ana, seats, players=2, rated=True, options=options)["table"]
        played(server, t["id"], {0: ana})  # she plays her turns, then goes: away at once
        wait_for(
            lambda: client.get(f"/api/tables/{t['id']}").json()["table"]["status"] == "over",
            seconds=120,
        )
        # her stand-in (heuristic) outscored random, and still her side is rated last
        game = client.get(f"/api/games?table={t['id']}").json()["games"][0]
        assert game["totals"][0] > game["totals"][1], game
        rows = {r["id"]: r for r in board(server)["rows"]}
        assert rows[ana.id]["mu"] < START[0]


# ----- rated play needs play ----------------------------------------------------------------------
def summary(server: Server, table: str) -> dict[str, Any]:
    r = server.client.get(f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()["table"]
    return data


def join(server: Server, who: Player, table: str, seat: int) -> None:
    r = server.client.post(f"/api/tables/{table}/join", json={"seat": seat}, headers=who.headers)
    assert r.status_code == 200, r.text


def rated_games(server: Server, who: Player, players: int = 2) -> int:
    """How many rated matches moved a player's rating (0: not on the board)."""
    rows = {r["id"]: r for r in board(server, players=players)["rows"]}
    return int(rows[who.id]["games"]) if who.id in rows else 0


def test_a_guest_may_not_make_or_join_a_rated_table_unless_the_server_says_so(
    server: Server, db_url: str
) -> None:
    ana, guest = account(server, name("Ana")), server.guest(name("Gus"))
    body = {"preset": "aberto", "players": 2, "seats": ME_AND_GREEDY, "pace": 0, "rated": True}
    r = server.client.post("/api/tables", json=body, headers=guest.headers)
    assert r.status_code == 403, r.text
    assert r.json()["error"]["key"] == "rated.guest" and r.json()["error"]["field"] == "rated"
    t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2, rated=True)["table"]
    r = server.client.post(f"/api/tables/{t['id']}/join", json={"seat": 1}, headers=guest.headers)
    assert r.status_code == 403 and r.json()["error"]["key"] == "rated.guest"
    assert summary(server, t["id"])["open_seats"] == [1]  # nothing was changed
    # unrated, a guest plays as before
    server.create(guest, ME_AND_GREEDY, players=2)
    with serving(db_url, rated_guests=True) as open_:
        other = open_.guest(name("Gus"))
        open_.create(other, ME_AND_GREEDY, players=2, rated=True)


def test_throwaway_opponents_who_resign_at_once_never_move_a_rating(
    server: Server,
) -> None:
    # the issue: a rated table for two, an opponent who joins and resigns at once, eight
    # times (0 → 719 shown); then a table of four with a second account and random bots
    ana = account(server, name("Ana"))
    for _ in range(8):
        throwaway = account(server, name("Tim"))
        t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2, rated=True)["table"]
        join(server, throwaway, t["id"], 1)
        wait_for(lambda t=t: summary(server, t["id"])["status"] == "playing")
        resign(server, throwaway, t["id"])
        done = summary(server, t["id"])
        assert done["status"] == "over"
        assert done["unrated"]["key"] == "rated.turns", done
        assert done["unrated"]["params"] == {"least": TURNS}
    assert rated_games(server, ana) == 0
    four = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"}]  # fmt: skip
    alt = account(server, name("Alt"))
    for _ in range(2):
        t = server.create(ana, four, players=4, rated=True)["table"]
        join(server, alt, t["id"], 1)
        # the farmer plays her turns; the second account lets its partner bot play
        wait_for(lambda t=t: summary(server, t["id"])["status"] == "playing")
        resign(server, alt, t["id"])
        assert summary(server, t["id"])["unrated"]["key"] == "rated.turns"
    assert rated_games(server, ana, 4) == rated_games(server, alt, 4) == 0
    r = server.client.get(f"/api/players/{ana.id}").json()
    assert r["ratings"] == [] and r["history"] == []


def test_a_side_made_of_a_player_whose_partner_plays_still_needs_the_players_turns(
    db_url: str,
) -> None:
    # a side's turns are its players' own: a bot partner's, a stand-in's or the timer's
    # do not count; a side of bots alone needs none
    # a short grace: Alt, who never connects, is away (the stand-in plays) a second in
    with serving(db_url, rated_min_turns=2, grace=1.0) as server:
        ana, alt = account(server, name("Ana")), account(server, name("Alt"))
        four = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "greedy"},
                {"kind": "bot", "bot": "greedy"}]  # fmt: skip
        t = server.create(ana, four, players=4, rated=True)["table"]
        join(server, alt, t["id"], 1)
        played(server, t["id"], {0: ana}, 3)  # Alt's seat: the stand-in is not Alt
        resign(server, ana, t["id"])
        assert summary(server, t["id"])["unrated"]["key"] == "rated.turns"
        assert rated_games(server, ana, 4) == 0
        # against bots alone, her own turns are enough
        two_bots = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"},
                    {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]  # fmt: skip
        t = server.create(ana, two_bots, players=4, rated=True)["table"]
        played(server, t["id"], {0: ana}, 2)
        resign(server, ana, t["id"])
        assert summary(server, t["id"])["unrated"] is None
        assert rated_games(server, ana, 4) == 1


def rematch(server: Server, asker: Player, other: Player, table: str, seat: int) -> str:
    """The rematch of a finished table, the other player accepting their seat."""
    r = server.client.post(f"/api/tables/{table}/rematch", headers=asker.headers)
    assert r.status_code == 200, r.text
    new: str = r.json()["table"]["id"]
    join(server, other, new, seat)
    return new


def test_the_weekly_cap_on_the_same_opponents_counts_rematches(db_url: str) -> None:
    with serving(db_url, rated_min_turns=1, rated_same_opponents=2) as server:
        ana, bia = account(server, name("Ana")), account(server, name("Bia"))
        t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2, rated=True)["table"]
        join(server, bia, t["id"], 1)
        tables = [t["id"]]
        for match in range(3):
            table = tables[-1]
            played(server, table, {0: ana, 1: bia}, 1)
            resign(server, bia, table)
            if match == 2:
                break
            r = server.client.post(f"/api/tables/{table}/rematch", headers=ana.headers)
            waiting = r.json()["table"]
            assert waiting["status"] == "waiting"
            if match == 0:
                assert waiting["unrated"] is None
            else:  # told before it starts: after two rated matches, the third is not rated
                assert waiting["unrated"] == {
                    "key": "rated.cap",
                    "params": {"most": 2, "days": 7},
                    "message": "this match is not rated: 2 rated matches against the same "
                    "opponents in 7 days count, and no more",
                }
            join(server, bia, waiting["id"], 1)
            tables.append(waiting["id"])
        assert [summary(server, x)["unrated"] for x in tables[:2]] == [None, None]
        assert summary(server, tables[2])["unrated"]["key"] == "rated.cap"
        # played, not rated: the game is kept, the ratings are as after two matches
        assert server.client.get(f"/api/games?table={tables[2]}").json()["games"]
        assert rated_games(server, ana) == rated_games(server, bia) == 2
        # someone else is another opponent: rated
        caio = account(server, name("Caio"))
        t = server.create(ana, [{"kind": "me"}, {"kind": "open"}], players=2, rated=True)["table"]
        join(server, caio, t["id"], 1)
        played(server, t["id"], {0: ana, 1: caio}, 1)
        resign(server, caio, t["id"])
        assert summary(server, t["id"])["unrated"] is None
        assert rated_games(server, ana) == 3
        # a rolling week: once the first two are more than 7 days old, Bia counts again
        store: Store = server.client.app.state.store  # type: ignore[attr-defined]
        old = datetime.now(UTC) - timedelta(days=8)

        async def age() -> None:
            async with store.session.begin() as s:
                await s.execute(
                    update(GameRow).where(GameRow.table_id.in_(tables[:2])).values(finished_at=old)
                )

        server.client.portal.call(age)  # type: ignore[union-attr]
        again = rematch(server, ana, bia, tables[2], 1)
        assert summary(server, again)["unrated"] is None
        played(server, again, {0: ana, 1: bia}, 1)
        resign(server, bia, again)
        assert summary(server, again)["unrated"] is None
        assert rated_games(server, bia) == 3


def test_bots_count_as_one_opponent_whatever_their_spec(db_url: str) -> None:
    with serving(db_url, rated_min_turns=1, rated_same_opponents=2) as server:
        ana, bia = account(server, name("Ana")), account(server, name("Bia"))
        specs = ["greedy", "random", "mcts:time=0.05"]
        ends = []
        for spec in specs:
            seats = [{"kind": "me"}, {"kind": "bot", "bot": spec}]
            t = server.create(ana, seats, players=2, rated=True)["table"]
            played(server, t["id"], {0: ana}, 1)
            resign(server, ana, t["id"])
            ends.append(summary(server, t["id"])["unrated"])
        assert [e and e["key"] for e in ends] == [None, None, "rated.cap"]
        # bots as partners' opponents too: two bots against her and a bot are one opponent
        four = [{"kind": "me"}, {"kind": "bot", "bot": "heuristic"},
                {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]  # fmt: skip
        t = server.create(ana, four, players=4, rated=True)["table"]
        assert summary(server, t["id"])["unrated"]["key"] == "rated.cap"
        # a person with bots beside them is another set of opponents
        seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "greedy"},
                 {"kind": "bot", "bot": "greedy"}]  # fmt: skip
        t = server.create(ana, seats, players=4, rated=True)["table"]
        join(server, bia, t["id"], 1)
        assert summary(server, t["id"])["unrated"] is None
        played(server, t["id"], {0: ana, 1: bia}, 1)
        resign(server, bia, t["id"])
        assert summary(server, t["id"])["unrated"] is None
        assert rated_games(server, bia, 4) == rated_games(server, ana, 4) == 1
        assert rated_games(server, ana) == 2
