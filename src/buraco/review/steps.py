"""A seat's decisions in a recorded hand: the positions it chose at and what it played.

A record is replayed to the start of the hand reviewed (every action checked, as
:func:`buraco.replays.replay` does), then action by action. The reviewed seat's actions
are grouped into *steps*, each one decision:

- drawing from the stock or taking the pile (with ``turn-up`` on a first turn);
- a turn's *plan*: the melds, adds and wild moves made one after the other, up to the
  discard, or up to the action that takes the morto (the cards that come with it are a
  new position, known only from then on);
- the discard, which may go out or take the morto.

A step is reviewed where the seat had a choice (more than one legal action); the others
are forced and left out. Each :class:`Position` carries the seat's full view at the step
(what the review may know) and, apart from it, the real game there, which only the
hindsight line may read (:mod:`buraco.review.hindsight`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from buraco.actions import Action, Add, Meld, MoveWild, parse_action
from buraco.errors import RecordError
from buraco.game import Game
from buraco.record import ReplayError, load
from buraco.replays import replay
from buraco.views import SeatView, seat_view

PLAYS = (Meld, Add, MoveWild)
"""The actions a plan is made of."""


@dataclass(frozen=True)
class Position:
    """One decision of the reviewed seat: its view, and the step it played."""

    index: int
    """The step's place among the seat's steps of the hand (from 0, forced ones counted)."""
    action_index: int
    """The index in the hand's actions of the step's first action."""
    view: SeatView
    """The seat's full view before the step: all the review reads."""
    played: tuple[Action, ...]
    """The step the seat played."""
    forced: bool
    """The seat had one legal action: nothing to review."""
    game: Game
    """The real game before the step. Hidden cards: for the hindsight line only."""
    after: tuple[tuple[int, str], ...]
    """The hand's actions from the step on, as the record has them (seat, notation): for
    the hindsight line only."""


def start_of_hand(source: str | bytes | Any, hand: int) -> tuple[Game, list[tuple[int, str]]]:
    """The game replayed to the start of hand ``hand`` (from 0) and that hand's actions.

    Raises :class:`RecordError` for a malformed record or a hand it does not hold, and
    :class:`ReplayError` for an illegal action before it.
    """
    data = load(source)
    hands = data["hands"]
    if not 0 <= hand < len(hands):
        raise RecordError(f"the record has {len(hands)} hand(s): no hand {hand + 1}")
    head = copy.deepcopy({k: v for k, v in data.items() if k not in ("resigned", "stopped")})
    head["hands"] = [*head["hands"][:hand], {**head["hands"][hand], "actions": []}]
    head["hands"][hand].pop("result", None)
    head.pop("totals", None)
    head.pop("winner", None)
    game = replay(head, check_results=False)
    actions = [(int(seat), str(text)) for seat, text in hands[hand]["actions"]]
    return game, actions


def positions(source: str | bytes | Any, seat: int, hand: int) -> Iterator[Position]:
    """The reviewed seat's steps of one hand of a record, in order (see the module docstring).

    The game of each position is a copy, safe to keep.
    """
    game, actions = start_of_hand(source, hand)
    if not 0 <= seat < game.players:
        raise RecordError(f"the game has seats 0 to {game.players - 1}: no seat {seat}")
    i = 0
    index = 0
    while i < len(actions):
        who, text = actions[i]
        if who != seat:
            _apply(game, hand, i, who, text)
            i += 1
            continue
        start = i
        before = game.clone()
        view = seat_view(game, seat, full=True)
        forced = len(view.legal) == 1
        first = parse_action(text)
        step = [first]
        pots = sum(game.pot_taken)
        _apply(game, hand, i, who, text)
        i += 1
        if isinstance(first, PLAYS):
            while (
                i < len(actions)
                and actions[i][0] == seat
                and sum(game.pot_taken) == pots
                and not game.is_hand_over()
            ):
                action = parse_action(actions[i][1])
                if not isinstance(action, PLAYS):
                    break
                step.append(action)
                _apply(game, hand, i, seat, actions[i][1])
                i += 1
        yield Position(index, start, view, tuple(step), forced, before, tuple(actions[start:]))
        index += 1


def _apply(game: Game, hand: int, i: int, seat: int, text: str) -> None:
    try:
        game.apply(text, seat=seat)
    except Exception as exc:  # an illegal action: the record does not replay
        raise ReplayError(hand, i, seat, text, str(exc)) from None
