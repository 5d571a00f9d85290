"""The game object's surface: construction, bad arguments, rules changes, seats."""

import json
from pathlib import Path
from typing import Any

import pytest

from buraco import Game, RecordError, RulesError, make_rules, replay
from buraco.errors import SeatError
from buraco.record import load


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"seed": "abc"}, "seed must be a whole number"),
        ({"seed": 1.5}, "seed must be a whole number"),
        ({"seed": 10**4000}, "from 0 to 18446744073709551615, not a whole number of 13288 bits"),
        ({"seed": -1}, "seed must be a whole number from 0"),
        ({"names": [1, 2, 3, 4]}, "player name 1 must be a string"),
        ({"names": ["a"]}, "give 4 player names"),
        ({"names": "abcd"}, "give 4 player names"),
        ({"names": ["a", "b", "c", "\x1b[2J"]}, "control character"),
        ({"names": ["a", "b", "c", "\u202eevil"]}, "control character"),
        ({"names": ["a", "b", "c", "x" * 41]}, "1 to 40 characters"),
        ({"names": ["a", "b", "c", "  "]}, "not all spaces"),
        ({"first_dealer": 1.0}, "first_dealer"),
        ({"first_dealer": 4}, "first_dealer"),
        ({"match": 1}, "match must be True or False"),
        ({"stacked": 5}, "stacked is a list of decks"),
        ({"stacked": "3H 4H"}, "stacked is a list of decks"),
        ({"stacked": [None]}, "a stacked deck"),
        ({"stacked": [[99]]}, "card names or codes"),
        ({"cuts": ["a"]}, "a cut is a whole number from -3 to 3"),
        ({"cuts": [10**30]}, "a cut is a whole number from -3 to 3"),
        ({"cuts": 7}, "cuts is a list of cuts"),
        ({"scores": [0]}, "starting scores"),
        ({"scores": ["zero", 0]}, "starting scores"),
        ({"scores": 5}, "starting scores"),
        ({"scores": [10**8, 0]}, "starting scores"),
    ],
)
def test_bad_arguments_are_refused_with_a_message(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Game("aberto", players=4, **kwargs)


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("target", float("inf"), "not a whole number"),
        ("target", 1.7, "not a whole number"),
        ("pot_sizes", [float("inf")], r"\[inf\] is not a list of up to 4 whole numbers"),
        ("pot_sizes", "1,1", "sizes of 2 to 30 cards"),
        ("hand_size", -3, "out of range; use 2 to 30"),
        ("decks", 100_000_000, "out of range; use 1 to 4"),
        ("target", 10**4000, "out of range"),
        ("target", "9" * 5000, "not a whole number"),
        ("pot_sizes", [11] * 1000, "up to 4 whole numbers"),
        ("pot_sizes", "11," * 1000, "up to 4 whole numbers"),
        ("pot_sizes", "11,99", "2 to 30 cards"),
        ("clean_bonus", 10**6, "use 0 to 10000"),
        ("aces", ["both"], "not allowed"),
        ("set_ranks", None, "must list ranks"),
    ],
)
def test_bad_option_values_are_refused(option: str, value: object, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        make_rules("aberto", **{option: value})  # type: ignore[arg-type]


def test_a_preset_must_be_a_name() -> None:
    with pytest.raises(RulesError, match="unknown preset"):
        make_rules([])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="rules must be a preset name"):
        Game(None)  # type: ignore[arg-type]


def test_changing_the_player_count_starts_from_that_counts_defaults() -> None:
    # RULINGS 13: 6 players use 3 decks and three pots; RULINGS 14: 3 players, 18 and 11
    six = Game(make_rules("us", target=3000), players=6, seed=1)
    assert (six.rules.decks, six.rules.pot_sizes, six.rules.sides) == (3, (11, 11, 11), 3)
    assert six.rules.target == 3000  # the changed option is kept
    three = Game(make_rules("italiano"), players=3, seed=1)
    assert three.rules.pot_sizes == (18, 11) and three.rules.sides == 3


def test_view_of_a_seat_not_at_the_table() -> None:
    game = Game("aberto", players=4, seed=1)
    for seat in (4, -1, "0"):
        with pytest.raises(SeatError, match="seat must be a number from 0 to 3"):
            game.view(seat)  # type: ignore[arg-type]


def test_is_legal_accepts_any_input_without_raising() -> None:
    game = Game("aberto", players=2, seed=1)
    assert game.is_legal("draw")
    assert not game.is_legal("draw 7H")
    assert not game.is_legal("fold")
    assert not game.is_legal("discard ZZ")


def test_a_record_giving_players_among_the_options_is_refused() -> None:
    record = Game("aberto", players=2, seed=3, match=False).record()
    record["rules"]["options"]["players"] = 4
    with pytest.raises(RecordError, match=r"rules\.players"):
        replay(record)


def test_a_record_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match="not UTF-8"):
        load(path)


def test_a_view_is_a_copy() -> None:
    # changing a view's JSON changes nothing in the game or in later views
    game = Game("aberto", players=2, seed=1, match=False)
    view = game.view(0)
    view["options"]["pot_sizes"].append(99)
    view["hand"].clear()
    assert game.view(0)["options"]["pot_sizes"] == [11, 11]
    assert len(game.view(0)["hand"]) == 11
    assert json.loads(json.dumps(game.view(1)))["hand_sizes"] == [11, 11]


def test_a_player_resigns_and_their_side_loses_the_match_now() -> None:
    import json

    from buraco.bots import make_bot
    from buraco.bots.play import play_one
    from buraco.errors import IllegalAction, SeatError
    from buraco.record import record_of

    game = Game("aberto", players=4, seed=8)
    bots = [make_bot("greedy", seed=s) for s in range(4)]
    for _ in range(30):
        play_one(game, bots)
    with pytest.raises(SeatError):
        game.resign(4)
    game.resign(3)  # side 1 concedes mid-hand: the hand is scored as it stands
    assert game.is_over() and game.winner == 0 and game.resigned == 3
    assert game.results[-1].ended_by == "resigned" and not game.legal_actions()
    with pytest.raises(IllegalAction) as info:
        game.resign(0)
    assert info.value.rule == "match-over"
    back = replay(json.loads(json.dumps(record_of(game))))  # the record replays it exactly
    assert back.is_over() and back.winner == 0 and back.totals == game.totals
    single = Game("aberto", players=2, seed=8, match=False)
    with pytest.raises(IllegalAction) as info:
        single.resign(0)
    assert info.value.rule == "not-a-match"


def test_with_three_sides_the_one_ahead_of_the_rest_wins_a_resigned_match() -> None:
    game = Game("italiano", players=3, seed=2)
    game.totals = [500, 100, 300]  # as if after some hands
    game.resign(0)  # the leader concedes
    assert game.is_over() and game.winner == 2
