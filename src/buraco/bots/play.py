"""Playing games with bots: each seat's bot is shown only its own view."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from buraco.actions import Action
from buraco.bots.base import Bot
from buraco.game import Game
from buraco.views import seat_view

Timer = Callable[[int, float], None]
"""Told the seat and the wall time in seconds of each ``choose`` call."""

Decision = Callable[[int, Sequence[Action], Action], None]
"""Told the seat, the legal actions and the action chosen, at each decision."""


def play_hand(
    game: Game,
    bots: Sequence[Bot],
    max_actions: int = 100_000,
    on_choose: Timer | None = None,
    on_decision: Decision | None = None,
) -> int:
    """Play the current hand to its end with one bot per seat; returns the actions made.

    Every bot is asked, forced actions too. ``on_choose``, if given, is told how long
    each choice took; ``on_decision`` what was legal and what was chosen. A hand still
    going after ``max_actions`` is an error.
    """
    if len(bots) != game.players:
        raise ValueError(f"give one bot per seat ({game.players}), not {len(bots)}")
    for bot in bots:
        bot.new_hand()
    count = 0
    while not game.is_hand_over():
        if count >= max_actions:
            raise RuntimeError(
                f"a hand of game seed {game.seed} did not end after {max_actions} actions"
            )
        seat = game.turn
        bot = bots[seat]
        legal = game.legal_actions()
        view = seat_view(game, seat, full=bot.wants_full_view)
        if on_choose is None:
            action = bot.choose(view, legal)
        else:
            start = time.perf_counter()
            action = bot.choose(view, legal)
            on_choose(seat, time.perf_counter() - start)
        if on_decision is not None:
            on_decision(seat, legal, action)
        game.apply(action)
        count += 1
    return count


def play_one(game: Game, bots: Sequence[Bot], full: bool | None = None) -> Action:
    """Make the next action of the hand and return it.

    The only legal action, or the choice of the bot of the seat to move, shown its own
    view: ``full=None`` as the bot asks (``wants_full_view``), True or False forces a
    full or a plain view, except that a bot that cannot play without the full view
    (``needs_full_view``) always gets it. Used by fast loops such as search playouts.
    """
    legal = game.legal_actions()
    if not legal:
        raise ValueError("the hand is over: no action to make")
    if len(legal) == 1:
        action = legal[0]
    else:
        seat = game.turn
        bot = bots[seat]
        wanted = bot.wants_full_view if full is None else full
        view = seat_view(game, seat, full=wanted or bot.needs_full_view)
        action = bot.choose(view, legal)
    game.apply(action)
    return action


def play_match(
    game: Game,
    bots: Sequence[Bot],
    on_choose: Timer | None = None,
    max_hands: int = 1000,
    on_decision: Decision | None = None,
) -> int:
    """Play hands until the game is over (the match, or its single hand).

    Returns the actions made; ``on_choose`` and ``on_decision`` as in :func:`play_hand`.
    A match still undecided after ``max_hands`` hands is an error (no preset comes near
    it).
    """
    count = play_hand(game, bots, on_choose=on_choose, on_decision=on_decision)
    while not game.is_over():
        if len(game.results) >= max_hands:
            raise RuntimeError(
                f"the match of game seed {game.seed} is undecided after {max_hands} hands"
            )
        game.next_hand()
        count += play_hand(game, bots, on_choose=on_choose, on_decision=on_decision)
    return count
