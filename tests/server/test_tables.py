"""A live table's clock: the turn, and between hands the time left before the next deal."""

from __future__ import annotations

import time

from buraco import Game
from buraco.bots import make_bot
from buraco.bots.play import play_hand
from buraco.rules import make_rules
from buraco.server.tables import LiveTable


def table(game: Game) -> LiveTable:
    return LiveTable(
        id="t1",
        created_by="g1",
        preset="aberto",
        players=2,
        options={},
        public=True,
        invite_hash="",
        pace=0.0,
        turn_timer=30,
        minutes=0,
        status="playing",
        version=1,
        rules=game.rules,
        seats=[],
        game=game,
        hand_pause=20.0,
    )


def test_between_hands_the_clock_says_when_the_next_is_dealt() -> None:
    game = Game(make_rules("aberto", players=2), seed=3)  # a match: more hands follow
    lt = table(game)
    clock = lt.clock()
    assert clock["turn"] == game.turn and clock["next_deal"] is None and clock["limit"] == 30
    play_hand(game, [make_bot("greedy", seed=s) for s in range(2)])
    assert game.is_hand_over() and not game.is_over()
    lt.hand_over_at = time.monotonic() - 5.0
    clock = lt.clock()
    assert clock["turn"] is None and 14.0 <= clock["next_deal"] <= 15.0
    lt.hand_over_at = time.monotonic() - 60.0  # past the pause: due now, never negative
    assert lt.clock()["next_deal"] == 0.0


def test_no_next_deal_once_the_match_is_over() -> None:
    game = Game(make_rules("aberto", players=2), seed=3, match=False)
    play_hand(game, [make_bot("greedy", seed=s) for s in range(2)])
    assert game.is_over()
    assert table(game).clock()["next_deal"] is None


def test_a_seat_without_a_connection_says_when_it_will_be_away() -> None:
    from buraco.server.tables import Seat

    game = Game(make_rules("aberto", players=2), seed=3)
    lt = table(game)
    lt.seats = [
        Seat(0, "guest", None, "g1", False, "Ana"),
        Seat(1, "bot", "greedy", None, False, "Tião"),
    ]
    seat = lt.summary(60.0)["seats"][0]
    assert seat["away"] is False and seat["away_in"] is None  # never left
    lt.left_at[0] = time.monotonic() - 45.0
    seat = lt.summary(60.0)["seats"][0]
    assert seat["connected"] is False and seat["away"] is False and 14.0 <= seat["away_in"] <= 15.0
    lt.left_at[0] = time.monotonic() - 61.0
    seat = lt.summary(60.0)["seats"][0]
    assert seat["away"] is True and seat["away_in"] is None
    assert lt.summary(60.0)["seats"][1]["away_in"] is None  # a bot is never away
