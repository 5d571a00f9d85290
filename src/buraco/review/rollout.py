"""One rollout: a sampled deal played on from a candidate, and what happened in it.

A candidate is tried on a deal the way the search bot tries one (:mod:`buraco.bots.mcts`):
its actions are applied to a :class:`~buraco.game.Game` sampled from the seat's view, then
every seat plays on with the playout policy for ``depth`` rounds (every player's turn once)
and the position is scored by the value the search uses (the learned one where a model
fits the table, else the fitted evaluation): the seat's side's estimated hand score minus
the best other side's. ``depth=0`` plays the hand to its end.

Besides that value, a rollout notes the facts an explanation may quote: whether the next
player (an opponent) took the pile at once and how big it was, whether the candidate ended
the hand or took the seat's morto, and whether the seat's side completed a canastra before
the turn passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from buraco.actions import DRAW, TAKE_PILE, Action, Discard
from buraco.bots.base import Bot
from buraco.bots.evaluation import Evaluation
from buraco.bots.play import play_one
from buraco.bots.value import SHIPPED_VALUES, LearnedValue, load_value
from buraco.game import Game
from buraco.rules import Rules

Value = Evaluation | LearnedValue
"""What scores a cut rollout: ``result(game, side)``, the side's lead in hand points."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one rollout of one candidate measured."""

    value: float
    """The seat's side's (estimated) hand score minus the best other side's."""
    next_took: bool
    """The next player is an opponent and began their turn by taking the pile."""
    next_pile: int
    """The size of the pile they took (0 when they did not)."""
    ended: bool
    """The candidate's own actions ended the hand (the seat went out)."""
    pot: bool
    """The candidate's own actions took the seat's morto."""
    canastra: bool
    """The seat's side completed a new canastra before the seat's turn passed."""


@cache
def _models() -> tuple[LearnedValue, ...]:
    return tuple(load_value(f) for f in SHIPPED_VALUES)


def value_for(rules: Rules, value: str = "learned") -> Value:
    """The value the search would score with at these rules.

    ``learned``: the first shipped model that fits the rules, else the fitted evaluation;
    ``fitted``: the fitted evaluation.
    """
    if value == "learned":
        for model in _models():
            if model.fits(rules):
                return model
    return Evaluation.for_rules(rules)


def canastras(game: Game, side: int) -> int:
    """The side's melds of seven cards or more."""
    return sum(1 for m in game.melds[side] if m.size >= 7)


def rollout(
    game: Game,
    step: Sequence[Action],
    seat: int,
    bots: Sequence[Bot],
    seed: int,
    depth: int,
    value: Value,
    habits: Sequence[Action | None],
) -> Outcome:
    """Apply ``step`` (the seat's actions) to ``game`` and play on; see the module docstring.

    ``game`` is changed (give a clone). ``bots``: one playout bot per seat, reseeded here
    from ``seed`` so that every candidate of a round meets the same play. ``habits``: a
    seat's pile habit (:func:`buraco.bots.mcts.pile_habits`) replaces its bot's choice
    between the stock and the pile.
    """
    side = game.side_of[seat]
    before = canastras(game, side)
    pots = sum(game.pot_taken)
    for own in step:
        game.apply(own)
    ended = game.is_hand_over()
    pot = sum(game.pot_taken) > pots and not ended
    for s, bot in enumerate(bots):
        bot.rng.seed(seed + s)
        bot.new_hand()
    canastra = canastras(game, side) > before
    next_took = False
    next_pile = 0
    watching = not ended  # until the next player has begun their turn
    mine = not ended and game.turn == seat  # the seat's turn goes on
    nxt = (seat + 1) % game.players
    opponent = game.side_of[nxt] != side
    turns = 0
    while not game.is_hand_over():
        turn = game.turn
        legal = game.legal_actions()
        habit = habits[turn]
        if habit is not None and DRAW in legal and TAKE_PILE in legal:
            action: Action = habit
            pile = len(game.pile)
            game.apply(action)
        else:
            pile = len(game.pile)
            action = play_one(game, bots, False)
        if watching and turn == nxt and turn != seat:
            watching = False
            if opponent and action == TAKE_PILE:
                next_took, next_pile = True, pile
        if mine:
            if turn != seat or isinstance(action, Discard) or game.is_hand_over():
                mine = False
            canastra = canastra or canastras(game, side) > before
        if isinstance(action, Discard):
            turns += 1
            if depth and turns >= depth * game.players:
                break
    return Outcome(value.result(game, side), next_took, next_pile, ended, pot, canastra)
