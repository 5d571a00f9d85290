"""Sampled games agree with the view they were built from, and keep every card."""

import random
from collections import Counter

import pytest

from buraco import Game
from buraco.cards import build_deck, parse_cards
from buraco.determinize import Determinizer, known_hands, pile_of
from buraco.views import seat_view
from scenario import play, where_cards_are

PUBLIC = [
    "counts",
    "hand_sizes",
    "melds",
    "pile",
    "pile_size",
    "stock",
    "pots",
    "pot_taken",
    "turn",
    "phase",
    "totals",
    "table_points",
    "vulnerable",
    "requirement",
    "taken_top",
    "last_turn",
    "legal",
]
SETUPS = [
    ("aberto", 4),
    ("fechado", 2),
    ("fechado", 4),
    ("us", 4),
    ("us", 6),
    ("netcartas", 2),
    ("italiano", 3),
]


@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_samples_show_each_seat_what_it_saw(preset: str, players: int) -> None:
    for seed in range(4):
        game = Game(preset, players=players, seed=seed, match=False)
        rng = random.Random(seed)
        while not game.is_hand_over():
            if rng.random() < 0.1:
                for seat in range(players):
                    view = seat_view(game, seat)
                    sample = Determinizer(view).sample(random.Random(seed))
                    rules = sample.rules
                    assert where_cards_are(sample) == Counter(
                        build_deck(rules.decks, rules.jokers_per_deck)
                    )
                    again = seat_view(sample, seat)
                    for key in PUBLIC:
                        assert getattr(again, key) == getattr(view, key), key
            legal = game.legal_actions()
            melds = [a for a in legal if a.kind in ("meld", "add")]
            pick = rng.choice(melds) if melds and rng.random() < 0.5 else rng.choice(legal)
            game.apply(pick)


def test_a_closed_pile_is_remembered_and_so_are_the_cards_a_player_took() -> None:
    # fechado: only the top card shows, but every discard was seen; the cards seat 1 took
    # with the pile stay known to seat 0 until seat 1 plays them
    game = play(
        "fechado",
        2,
        hands=["9H 3C 6C 9C QC 5D 8D JD 4S 7S TS", "7H 8H 5H KC 2D 4D 7D 9S 3S 6H JC"],
        stock="KS QS",
        actions=["draw", "discard 9H", "draw", "discard QS", "draw", "discard KS"],
    )
    view = seat_view(game, 0)
    assert view.pile == tuple(parse_cards("KS"))
    assert pile_of(view) == parse_cards("9H QS KS")
    game.apply("take-pile")
    game.apply("meld QS KS 2D")
    view = seat_view(game, 0)
    assert known_hands(view)[1] == Counter(parse_cards("9H"))
    samples = Determinizer(view)
    for k in range(5):
        sample = samples.sample(random.Random(k))
        assert sample.hands[1][parse_cards("9H")[0]] >= 1


def test_samples_differ_but_a_seed_repeats_one() -> None:
    game = Game("aberto", players=4, seed=8, match=False)
    game.apply("draw")
    d = Determinizer(seat_view(game, game.turn))
    a, b = d.sample(random.Random(1)), d.sample(random.Random(2))
    assert a.hands[1] != b.hands[1] or a.stock != b.stock
    assert d.sample(random.Random(1)).stock == a.stock


def test_a_lean_view_cannot_be_sampled() -> None:
    game = Game("aberto", players=2, seed=1, match=False)
    with pytest.raises(ValueError, match="full view"):
        Determinizer(seat_view(game, 0, full=False))
