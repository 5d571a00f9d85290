"""Playing games with bots: each seat's bot is shown only its own view."""

from __future__ import annotations

from collections.abc import Sequence

from buraco.actions import Action
from buraco.bots.base import Bot
from buraco.game import Game
from buraco.views import seat_view


def play_hand(game: Game, bots: Sequence[Bot], max_actions: int = 100_000) -> int:
    """Play the current hand to its end with one bot per seat; returns the actions made."""
    if len(bots) != game.players:
        raise ValueError(f"give one bot per seat ({game.players}), not {len(bots)}")
    for bot in bots:
        bot.new_hand()
    count = 0
    while not game.is_hand_over():
        seat = game.turn
        bot = bots[seat]
        legal = game.legal_actions()
        action = bot.choose(seat_view(game, seat, full=bot.wants_full_view), legal)
        game.apply(action)
        count += 1
        if count >= max_actions:
            raise RuntimeError(f"the hand did not end after {max_actions} actions")
    return count


def play_one(game: Game, bots: Sequence[Bot], full: bool | None = None) -> Action:
    """Make the next action of the hand and return it.

    The only legal action, or the choice of the bot of the seat to move, shown its own
    view: ``full=None`` as the bot asks (``wants_full_view``), True or False forces a
    full or a plain view. Used by fast loops such as search playouts.
    """
    legal = game.legal_actions()
    if not legal:
        raise ValueError("the hand is over: no action to make")
    if len(legal) == 1:
        action = legal[0]
    else:
        seat = game.turn
        bot = bots[seat]
        view = seat_view(game, seat, full=bot.wants_full_view if full is None else full)
        action = bot.choose(view, legal)
    game.apply(action)
    return action


def play_match(game: Game, bots: Sequence[Bot]) -> int:
    """Play hands until the game is over (the match, or its single hand)."""
    count = play_hand(game, bots)
    while not game.is_over():
        game.next_hand()
        count += play_hand(game, bots)
    return count
