"""Seat views: JSON form, keys, and hidden information (stacked-deck scenarios)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from buraco import Discard, Draw, Game, format_cards, parse_cards, seat_view
from buraco.cards import sorted_cards
from scenario import VIEW_KEYS, play

MELD_KEYS = {
    "number",
    "type",
    "cards",
    "wild",
    "clean",
    "canastra",
    "bonus",
    "bonus_points",
    "points",
    "staged",
}

_CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][CDHS]|JK)(?![0-9A-Za-z])")


def card_tokens(view: dict[str, Any]) -> set[str]:
    """Every card name anywhere in a view's JSON text."""
    return set(_CARD_TOKEN.findall(json.dumps(view)))


def cards(text: str) -> list[str]:
    return format_cards(parse_cards(text)).split()


def display(text: str) -> list[str]:
    return format_cards(sorted_cards(parse_cards(text))).split()


# ----------------------------------------------------------------------------------------
# JSON form and keys
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players"),
    [("aberto", 4), ("fechado", 2), ("us", 6), ("netcartas", 4), ("italiano", 3)],
)
def test_view_is_json_with_the_documented_keys(preset: str, players: int) -> None:
    game = Game(preset, players=players, seed=3, match=False)
    rng = random.Random(3)
    for _ in range(40):  # a few turns in, with a meld or two on the table
        legal = game.legal_actions()
        plays = [a for a in legal if not isinstance(a, Draw | Discard)]
        game.apply(rng.choice(plays or list(legal)))
        if game.is_hand_over():
            break
    for seat in range(players):
        v = game.view(seat)
        text = json.dumps(v)
        assert json.loads(text) == v
        assert set(v) >= VIEW_KEYS
        assert v["seat"] == seat
        assert v["preset"] == preset
        assert v["side"] == game.rules.side_of(seat)
        assert v["sides"] == [list(game.rules.seats_of(s)) for s in range(game.rules.sides)]
        assert len(v["hand_sizes"]) == players
        assert len(v["melds"]) == game.rules.sides
        assert all(isinstance(c, str) and len(c) == 2 for c in v["hand"])
        assert all(isinstance(a, str) for a in v["legal"])
        assert all(isinstance(line, str) for line in v["log"])
        for side in v["melds"]:
            for m in side:
                assert set(m) >= MELD_KEYS
                assert m["type"] in ("run", "set")
        assert v["options"]["players"] == players


def test_view_of_a_seat_not_at_the_table() -> None:
    game = Game("aberto", players=2, seed=1, match=False)
    for seat in (-1, 2):
        with pytest.raises(ValueError, match="seat"):
            game.view(seat)
        with pytest.raises(ValueError, match="seat"):
            seat_view(game, seat)


def test_scores_only_once_the_hand_is_over() -> None:
    game = Game("fechado", players=2, seed=4, match=False)
    rng = random.Random(4)
    while not game.is_hand_over():
        assert all(game.view(s)["scores"] is None for s in (0, 1))
        legal = game.legal_actions()
        plays = [a for a in legal if not isinstance(a, Draw | Discard)]
        game.apply(rng.choice(plays if plays and rng.random() < 0.7 else list(legal)))
    for seat in (0, 1):
        v = game.view(seat)
        assert v["scores"] == [s.as_dict() for s in game.scores()]
        assert v["turn"] is None
        assert v["legal"] == []
        assert v["phase"] == "over"
        assert v["totals"] == game.totals


# ----------------------------------------------------------------------------------------
# hidden information
# ----------------------------------------------------------------------------------------

SEAT0 = "3H 4H 5H 9D 6C 2D JK TD 8D 5C 7D"
SEAT1 = "KS KS QS QS JS JS TS TS 9S 9S 8S"
POT1 = "AD AD KD KD QD QD JD JD 4S 4S 3S"
POT2 = "5S 5S 6S 6S 7S 7S AC AC KC KC QC"
STOCK = "9C JC JC"


def hidden_info_game() -> Game:
    return play("aberto", 2, hands=[SEAT0, SEAT1], pots=[POT1, POT2], stock=STOCK, actions=["draw"])


def test_other_hands_appear_only_as_sizes() -> None:
    game = hidden_info_game()
    v0, v1 = game.view(0), game.view(1)
    assert sorted(v0["hand"]) == sorted(cards(SEAT0 + " 9C"))
    assert v0["hand"] == display(SEAT0 + " 9C")
    assert v1["hand"] == display(SEAT1)
    assert v0["hand_sizes"] == v1["hand_sizes"] == [12, 11]
    # every copy of these cards is in seat 1's hand, a morto or the stock
    seat1_only = {"KS", "QS", "JS", "TS", "9S"}
    mortos = {"AD", "KD", "QD", "JD", "4S", "5S", "6S", "7S", "AC", "KC"}
    stock = {"JC"}
    assert not card_tokens(v0) & (seat1_only | mortos | stock)
    # seat 1 sees neither seat 0's hand (nor the card it drew) nor the mortos nor the stock
    seat0_cards = set(cards(SEAT0 + " 9C"))
    assert not card_tokens(v1) & (seat0_cards | mortos | stock)
    assert v0["stock"] == v1["stock"] == 108 - 22 - 22 - 1
    assert v0["pots"] == v1["pots"] == [11, 11]


def test_legal_actions_only_for_the_seat_to_move() -> None:
    game = hidden_info_game()
    assert game.to_move == 0
    assert game.view(0)["legal"] == [str(a) for a in game.legal_actions()]
    assert "discard 9C" in game.view(0)["legal"]
    assert game.view(1)["legal"] == []
    game.apply("discard 9C")
    assert game.view(0)["legal"] == []
    assert game.view(1)["legal"] == ["draw", "take-pile"]
    assert game.view(1)["turn"] == 1 == game.view(0)["turn"]


def test_log_shows_a_seat_its_own_drawn_card_only() -> None:
    game = play(
        "aberto", 2, hands=[SEAT0, SEAT1], stock="9C 8C 7C", actions=["draw", "discard 9C", "draw"]
    )
    assert game.view(0)["log"] == ["you: draw 9C", "you: discard 9C", "Player 2: draw"]
    assert game.view(1)["log"] == ["Player 1: draw", "Player 1: discard 9C", "you: draw 8C"]


def test_log_of_a_turn_up() -> None:
    game = play("aberto", 2, hands=[SEAT0, SEAT1], stock="9C 8C 7C", actions=["draw", "turn-up"])
    assert game.view(0)["log"] == ["you: draw 9C", "you: turn-up (turned up 9C, drew 8C)"]
    assert game.view(1)["log"] == ["Player 1: draw", "Player 1: turn-up (turned up 9C)"]
    assert game.view(1)["pile"] == ["9C"]
    assert "8C" not in card_tokens(game.view(1))


# ----------------------------------------------------------------------------------------
# closed and open piles
# ----------------------------------------------------------------------------------------

PILE_SEAT1 = "6H 8H KS QS JS TS 9S 4C 4D 3C 3D"
PILE_ACTIONS = ["draw", "discard 9C", "draw", "discard 8C", "draw", "discard 7H"]


@pytest.mark.parametrize("preset", ["fechado", "aberto"])
def test_closed_pile_shows_only_its_top(preset: str) -> None:
    game = play(preset, 2, hands=[SEAT0, PILE_SEAT1], stock="9C 8C 7H", actions=PILE_ACTIONS)
    closed = preset == "fechado"
    for seat in (0, 1):
        v = game.view(seat)
        assert v["pile_open"] is not closed
        assert v["pile_size"] == 3
        assert v["pile"] == (["7H"] if closed else ["9C", "8C", "7H"])
    game.apply("take-pile")
    if closed:  # fechado: the top card must be melded at once
        assert game.view(1)["phase"] == "top-meld"
        assert game.view(1)["taken_top"] == "7H"
        assert game.view(1)["legal"] == ["meld 6H 7H 8H"]
    game.apply("meld 6H 7H 8H")
    taken = "3 cards, top 7H" if closed else "9C 8C 7H"
    assert game.view(0)["log"][-2] == f"Player 2: take-pile ({taken})"
    assert game.view(1)["log"][-2] == "you: take-pile (9C 8C 7H)"
    assert game.view(1)["hand"] == display(PILE_SEAT1.replace("6H 8H ", "") + " 8C 9C")
    assert game.view(0)["pile"] == []
    assert game.view(0)["melds"][1][0]["cards"] == ["6H", "7H", "8H"]
    assert game.view(0)["hand_sizes"] == [11, 11]  # 11 + 1 - 1 + 3 - 3


# ----------------------------------------------------------------------------------------
# us: a morto taken by discarding stays hidden until the partner has played
# ----------------------------------------------------------------------------------------

RUN_HAND = "3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
RUN_MELD = "meld " + RUN_HAND
POT_ONLY = {"AD", "KD", "QD", "JD", "4S"}  # both copies in the morto


def indirect_pot(preset: str, players: int) -> Game:
    game = play(
        preset,
        players,
        hands=[RUN_HAND],
        pots=[POT1],
        stock="TC 9D 8D 7D 6D",
        actions=["draw", RUN_MELD, "discard TC"],
    )
    assert game.events[-1].note == "took the morto by discarding"
    assert game.sizes[0] == 11
    return game


def test_us_hidden_indirect_pot_four_players() -> None:
    game = indirect_pot("us", 4)
    v = game.view(0)
    assert v["hand"] == []
    assert v["hidden_pot"] == 11
    assert v["hand_sizes"][0] == 11
    assert v["pot_taken"] == [True, False]
    assert v["pots"] == [11]
    assert "you: took the morto by discarding" in v["log"]
    for seat in range(4):
        assert not card_tokens(game.view(seat)) & POT_ONLY
    # an opponent plays: still hidden
    game.apply("draw")
    game.apply("discard 9D")
    assert game.view(0)["hand"] == []
    assert game.view(0)["hidden_pot"] == 11
    assert not card_tokens(game.view(0)) & POT_ONLY
    # the partner starts to play: still hidden; once the partner's turn ends, seen
    game.apply("draw")
    assert game.view(0)["hidden_pot"] == 11
    game.apply("discard 8D")
    v = game.view(0)
    assert v["hidden_pot"] == 0
    assert v["hand"] == display(POT1)
    # the others never see it
    for seat in (1, 2, 3):
        assert not card_tokens(game.view(seat)) & POT_ONLY


def test_us_hidden_indirect_pot_two_players() -> None:
    game = indirect_pot("us", 2)
    assert game.view(0)["hidden_pot"] == 11
    game.apply("draw")
    assert game.view(0)["hand"] == []
    game.apply("discard 9D")
    # no partner: seen when the seat's own turn comes
    assert game.to_move == 0
    v = game.view(0)
    assert v["hidden_pot"] == 0
    assert v["hand"] == display(POT1)
    assert v["legal"] == [str(a) for a in game.legal_actions()] != []
    assert not card_tokens(game.view(1)) & POT_ONLY


@pytest.mark.parametrize("preset", ["aberto", "italiano"])
def test_indirect_pot_is_seen_at_once_without_the_us_option(preset: str) -> None:
    game = indirect_pot(preset, 4)
    v = game.view(0)
    assert v["hidden_pot"] == 0
    assert v["hand"] == display(POT1)
    assert not card_tokens(game.view(1)) & POT_ONLY


# ----------------------------------------------------------------------------------------
# a view is a snapshot
# ----------------------------------------------------------------------------------------


def test_view_object_does_not_follow_the_game() -> None:
    game = hidden_info_game()
    sv = seat_view(game, 0)
    before = sv.to_dict()
    game.apply("discard 9C")
    assert sv.to_dict() == before
    assert game.view(0) != before


def test_changing_a_returned_view_changes_nothing() -> None:
    game = hidden_info_game()
    before = json.dumps([game.view(s) for s in (0, 1)])
    v = game.view(0)
    v["hand"].append("JK")
    v["melds"][0].append({})
    v["options"]["pot_sizes"].append(99)
    assert json.dumps([game.view(s) for s in (0, 1)]) == before
