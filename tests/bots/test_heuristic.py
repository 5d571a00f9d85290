"""The ``heuristic`` bot: legal play everywhere, decisions in constructed positions, strength."""

from __future__ import annotations

import pytest

from buraco import Add, Discard, Game, Meld, TakePile, card_name
from buraco.actions import Action
from buraco.bots import BOTS, HeuristicBot, RandomBot, make_bot, play_hand
from buraco.views import seat_view
from scenario import TABLES, play


def choice(game: Game) -> Action:
    """What a fresh heuristic bot plays for the seat to move."""
    seat = game.to_move
    assert seat is not None
    bot = HeuristicBot(seed=0)
    return bot.choose(seat_view(game, seat), game.legal_actions())


def test_registered_by_name() -> None:
    assert BOTS["heuristic"] is HeuristicBot
    bot = make_bot("heuristic", seed=3)
    assert isinstance(bot, HeuristicBot) and bot.name == "heuristic"


# ----- every preset and player count -------------------------------------------------


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_plays_every_preset_to_the_end(preset: str, players: int) -> None:
    for seed in range(2):
        game = Game(preset, players=players, seed=seed, match=False)
        bots = [HeuristicBot(seed=seed * 10 + s) for s in range(players)]
        assert play_hand(game, bots) > 0  # apply() refuses any illegal choice
        assert game.is_hand_over()


@pytest.mark.parametrize(("preset", "players"), [("fechado", 4), ("us", 4), ("italiano", 3)])
def test_plays_from_views_without_history(preset: str, players: int) -> None:
    # a search may hand it lean views (no events): it still plays legally
    game = Game(preset, players=players, seed=5, match=False)
    bots = [HeuristicBot(seed=s) for s in range(players)]
    while not game.is_hand_over():
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(seat_view(game, seat, full=False), game.legal_actions()))


def test_one_bot_may_play_every_seat() -> None:
    game = Game("aberto", players=4, seed=8, match=False)
    bot = HeuristicBot(seed=1)
    assert play_hand(game, [bot] * 4) > 0


def test_plays_a_vulnerable_match_to_the_end() -> None:
    game = Game("aberto", players=2, seed=4, scores=[1600, 1600], target=2200)
    bots = [HeuristicBot(seed=0), HeuristicBot(seed=1)]
    play_hand(game, bots)
    while not game.is_over():
        game.next_hand()
        play_hand(game, bots)
    assert game.winner is not None


# ----- decisions in constructed positions --------------------------------------------


def test_completes_a_canastra_with_a_wild_rather_than_discarding_it() -> None:
    game = play(
        "fechado",
        hands=["3H 4H 5H 6H 7H 8H 4C 8C QC 7D JD", "4S 8S QS 3D 9D KD 5H 9H KH 6C TC"],
        stock="KS 5D JK",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H", "discard KS", "draw", "discard 5D", "draw"],
    )
    action = choice(game)
    assert isinstance(action, Add) and action.card == 52 and action.meld == 0


def test_keeps_a_card_that_extends_an_opponent_meld() -> None:
    game = play(
        "aberto",
        hands=["8C KD 3H 4H 9S TS 5D 6D JH QH 7S", "5C 6C 7C 3S 9D KS 5H 9H KH AC JC"],
        stock="KH 8D 4H",
        actions=["draw", "discard KH", "draw", "meld 5C 6C 7C", "discard 8D", "draw"],
    )
    assert game.melds[1][0].cards_text() == "5C 6C 7C"
    action = choice(game)
    assert isinstance(action, Discard)
    assert card_name(action.card) == "KD"  # not 8C, which the opponents would add


def test_takes_a_pile_full_of_useful_cards() -> None:
    game = play(
        "aberto",
        hands=["5H 6H 9S TS 3C 7C QC 4D 8D KD AS", "7H 8H JS 2C 6S 9D JD 4C 8C QS TH"],
        stock="KC 3D AC 5S 9C 6C",
        actions=[
            *("draw", "discard KC", "draw", "discard 7H"),
            *("draw", "discard AC", "draw", "discard 8H"),
            *("draw", "discard 9C", "draw", "discard JS"),
        ],
    )
    assert [card_name(c) for c in game.pile] == ["KC", "7H", "AC", "8H", "9C", "JS"]
    assert isinstance(choice(game), TakePile)


def test_does_not_start_an_us_opening_it_cannot_finish() -> None:
    # 3H-5H and 3S-5S are worth 30 of the 50 needed: melding them would fail (and cost 15)
    game = play(
        "us",
        hands=["3H 4H 5H 3S 4S 5S 7C 9D JC KD 8H", "6C 8C TC QC 6D 8D TD QD 6S 8S TS"],
        stock="KH",
        actions=["draw"],
    )
    assert game.requirement_left(0) == 50
    action = choice(game)
    assert isinstance(action, Discard)


def test_opens_in_us_when_the_melds_reach_the_minimum() -> None:
    game = play(
        "us",
        hands=["JH QH KH JS QS KS 3C 7D 9C 5D 8H", "6C 8C TC QC 6D 8D TD QD 6S 8S TS"],
        stock="4H",
        actions=["draw"],
    )
    bot = HeuristicBot(seed=0)
    while game.to_move == 0:
        action = bot.choose(seat_view(game, 0), game.legal_actions())
        game.apply(action)
    assert game.requirement_left(0) == 0 and len(game.melds[0]) == 2
    assert not any(e.note.startswith("opening short") for e in game.events)


def test_never_fails_an_us_opening() -> None:
    for seed in range(6):
        game = Game("us", players=4, seed=seed, match=False, scores=[1600, 0])
        play_hand(game, [HeuristicBot(seed=s) for s in range(4)])
        assert not any(e.note.startswith("opening short") for e in game.events)


def test_melds_a_clean_run_before_discarding() -> None:
    game = play(
        "aberto",
        hands=["5H 6H 7H 8H 3C 9C KD 4S TS AD QS", "6C 8C TC QC 6D 8D TD QD 6S 8S JS"],
        stock="2D",
        actions=["draw"],
    )
    action = choice(game)
    assert isinstance(action, Meld) and [card_name(c) for c in action.cards] == [
        "5H",
        "6H",
        "7H",
        "8H",
    ]


# ----- strength ------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "players"), [("aberto", 2), ("fechado", 4), ("italiano", 3)])
def test_beats_random_on_duplicate_deals(preset: str, players: int) -> None:
    for deal in range(2):
        margin = 0.0
        for hero_first in (True, False):
            game = Game(preset, players=players, seed=100 + deal, match=False)
            hero = [(game.side_of[s] == 0) == hero_first for s in range(players)]
            bots = [HeuristicBot(seed=s) if hero[s] else RandomBot(seed=s) for s in range(players)]
            play_hand(game, bots)
            totals = [score.total for score in game.scores()]
            mine = [totals[x] for x in range(game.k) if (x == 0) == hero_first]
            theirs = [totals[x] for x in range(game.k) if (x == 0) != hero_first]
            margin += sum(mine) / len(mine) - sum(theirs) / len(theirs)
        assert margin > 0, (preset, players, deal)
