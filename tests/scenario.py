"""Stacked-deck scenarios for rule tests.

A scenario names the cards that matter (hands, mortos, the top of the stock),
plays a list of actions, and goes through a game record: the actions are
written to a record with the stacked deck and replayed from it, so every rule
test also checks that records replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from buraco import Game, deck_for, make_rules, replay


def play(
    preset: str,
    players: int = 2,
    *,
    hands: Sequence[str] = (),
    pots: Sequence[str] = (),
    stock: str = "",
    upcard: str | None = None,
    actions: Sequence[str] = (),
    scores: Sequence[int] | None = None,
    dealer: int | None = None,
    match: bool = False,
    **options: Any,
) -> Game:
    """Deal the named cards (seat 0 plays first unless ``dealer`` says otherwise),
    apply ``actions`` (each by the seat to move), and return the replayed game."""
    rules = make_rules(preset, players=players, **options)
    if dealer is None:
        dealer = players - 1
    deck = deck_for(rules, dealer=dealer, hands=hands, pots=pots, stock=stock, upcard=upcard)
    game = Game(rules, stacked=[deck], first_dealer=dealer, match=match, scores=scores, seed=0)
    for text in actions:
        game.apply(text, seat=game.to_move)
    again = replay(game.record())
    assert again.events == game.events
    return again


def legal(game: Game) -> list[str]:
    """The legal actions as notation."""
    return [str(a) for a in game.legal_actions()]
