"""Meld enumeration: its caches stay bounded and never change what is found."""

import random

import pytest

import buraco.movegen as movegen
from buraco import Game
from buraco.melds import TableMeld
from buraco.movegen import MoveTables
from buraco.refusals import Refusal
from buraco.rules import make_rules


def _state(shape: TableMeld | Refusal) -> object:
    if isinstance(shape, Refusal):
        return shape
    return tuple(
        getattr(shape, name)
        for name in ("run", "suit", "rank", "lo", "hi", "wpos", "wild", "nat", "size", "value")
    )


@pytest.mark.parametrize(("preset", "players"), [("us", 2), ("aberto", 4), ("italiano", 3)])
def test_a_full_cache_is_emptied_and_finds_what_a_new_one_finds(
    monkeypatch: pytest.MonkeyPatch, preset: str, players: int
) -> None:
    monkeypatch.setattr(movegen, "CACHE_LIMIT", 8)
    rules = make_rules(preset, players=players)
    kept = MoveTables(rules)
    rng = random.Random(4)
    game = Game(rules, seed=4, match=False)
    hands = 0
    while not game.is_hand_over():
        legal = game.legal_actions()
        if game.phase.name == "PLAY":
            hand = game.hands[game.turn]
            found = kept.melds(hand)
            assert found == MoveTables(rules).melds(hand)  # a new cache: nothing remembered
            for meld in found[:6]:
                assert _state(kept.shape(meld.cards)) == _state(MoveTables(rules).shape(meld.cards))
                assert kept.set_rank(meld.cards) == MoveTables(rules).set_rank(meld.cards)
            sizes = [len(kept._runs), len(kept._runs_by_mask), len(kept._sets), len(kept._shapes)]
            assert max(sizes) <= 8, sizes
            hands += 1
        # take the pile when it may, so hands grow and many different ones are met
        take = [a for a in legal if str(a) == "take-pile"]
        game.apply(take[0] if take else rng.choice(legal))
    assert hands > 20
