"""The steps a decision is judged among: the one played and the search's alternatives.

At a draw the choice is the stock or the pile. In the play phase the alternatives are
the ones the search bot would weigh (:meth:`buraco.bots.mcts.MctsBot.candidates`): the
playout policy's own step (its plan of melds and adds, or its discard), its plan when it
must meld, and its ``width`` preferred discards (holding every meld back). The step
played is always among them. A rollout plays on after a step with the policy, so a
single meld stands for "this meld, then the policy's turn".

Only the seat's view and a game sampled from it are read: the policy's first choice is
made on the view itself (which carries the hand's history), the rest of its plan on the
sample, whose hidden cards the plan never touches (a plan stops where it takes the
morto).
"""

from __future__ import annotations

from dataclasses import dataclass

from buraco.actions import DRAW, TAKE_PILE, Action, Discard, TurnUp
from buraco.bots.base import Bot
from buraco.game import Game
from buraco.review.steps import PLAYS
from buraco.views import SeatView, seat_view

Step = tuple[Action, ...]
"""A seat's actions taken as one decision."""


@dataclass(frozen=True)
class Candidate:
    """A step the review weighs, and where it came from."""

    step: Step
    source: str
    """``played``, ``policy`` (the policy's own step), ``plan`` (its plan when it must
    meld), ``discard`` (one of its preferred discards), ``draw`` or ``take-pile``."""


def candidates(
    view: SeatView, sample: Game, played: Step, policy: Bot, width: int
) -> list[Candidate]:
    """The distinct steps to compare at ``view``'s position, the one played first."""
    legal = list(view.legal)
    out = [Candidate(played, "played")]

    def add(step: Step, source: str) -> None:
        if step and all(step != c.step for c in out):
            out.append(Candidate(step, source))

    if view.phase == "draw":
        for pick, source in ((DRAW, "draw"), (TAKE_PILE, "take-pile")):
            if pick in legal:
                add((pick,), source)
        return out
    first = policy.choose(view, legal)
    add(plan_from(first, view, sample, policy), "policy")
    plays = [a for a in legal if isinstance(a, PLAYS)]
    if plays and not isinstance(first, PLAYS):
        add(plan_from(policy.choose(view, plays), view, sample, policy), "plan")
    for action in policy.ranked_discards(view, legal)[:width]:
        add((action,), "discard")
    turn_up = [a for a in legal if isinstance(a, TurnUp)]
    for up in turn_up:
        add((up,), "policy")
    return out


def plan_from(first: Action, view: SeatView, sample: Game, policy: Bot) -> Step:
    """``first`` and, when it is a meld or an add, the policy's next ones up to its discard.

    Played on a copy of ``sample``; the plan ends where it takes the morto or goes out.
    """
    if not isinstance(first, PLAYS):
        return (first,)
    game = sample.clone()
    seat = view.seat
    step = [first]
    pots = sum(game.pot_taken)
    game.apply(first)
    while not game.is_hand_over() and game.turn == seat and sum(game.pot_taken) == pots:
        legal = game.legal_actions()
        action = policy.choose(seat_view(game, seat, full=True), legal)
        if not isinstance(action, PLAYS):
            break
        step.append(action)
        game.apply(action)
    return tuple(step)


def kind_of(step: Step, phase: str) -> str:
    """The kind of decision a step is: ``pile``, ``turn-up``, ``plan`` or ``discard``."""
    first = step[0]
    if phase == "draw":
        return "pile"
    if isinstance(first, TurnUp):
        return "turn-up"
    if isinstance(first, Discard):
        return "discard"
    return "plan"
