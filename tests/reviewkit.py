"""Records and options shared by the review's tests."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from buraco import Game
from buraco.bots import make_bot, play_hand, play_one
from buraco.review import ReviewOptions
from scenario import SPADES, play

FAST = ReviewOptions(min_rounds=1, max_rounds=1, width=1, depth=1)
"""One deal a decision: enough to exercise every part in a fast test."""


@cache
def greedy_record(preset: str = "aberto", players: int = 2, seed: int = 4) -> dict[str, Any]:
    """One hand of greedy bots (a fresh copy is the caller's to change: use copy.deepcopy)."""
    game = Game(preset, players=players, seed=seed, match=False)
    play_hand(game, [make_bot("greedy", seed=seed * 10 + s) for s in range(players)])
    return game.record()


@cache
def short_record(preset: str = "aberto", players: int = 2, seed: int = 4, actions: int = 24) -> str:
    """The first ``actions`` actions of a hand of greedy bots, as record text."""
    game = Game(preset, players=players, seed=seed, match=True)
    bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(players)]
    for _ in range(actions):
        play_one(game, bots)
    return json.dumps(game.record())


DIAMONDS_TO_J = "3D 4D 5D 6D 7D 8D 9D TD JD"


def feeding(preset: str, discard: str) -> Game:
    """Seat 1 has a clean canastra (3S-AS), its morto taken and a diamond run 3D-JD on the
    table and one card in hand; seat 0, holding the wild cards, has just taken the pile (it
    is empty) and discards ``discard``. QD goes on the diamond run: seat 1 takes it, adds it
    and goes out by discarding its last card."""
    return play(
        preset,
        2,
        hands=["JK JK JK JK 2C 2H 2S QD 5C 8H 4S", SPADES],
        pots=[f"{DIAMONDS_TO_J} 4C 8C"],
        stock="9H AS 9C",
        actions=[
            "draw",
            "discard 9H",
            "draw",
            f"meld {SPADES} AS",
            f"meld {DIAMONDS_TO_J}",
            "discard 8C",
            "take-pile",
            f"discard {discard}",
        ],
    )
