"""The bot interface: a bot sees only its seat's view and the legal actions.

A bot never receives the game, so it cannot reach hidden cards: it is given a
:class:`~buraco.views.SeatView` (a copied snapshot) and returns one of the legal
actions. Every bot takes a seed; the same seed and views give the same choices.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from buraco.actions import Action, Add, Discard, MoveWild, TurnUp
from buraco.views import SeatView


class Bot(ABC):
    """Base class of bots. Subclasses implement :meth:`choose`."""

    name: ClassVar[str] = "bot"
    params: ClassVar[dict[str, type]] = {}
    """Parameters a bot spec may give (``name=value`` after the bot's name), with types."""
    wants_full_view: ClassVar[bool] = False
    """Whether this bot wants full views: the hand's history and the rest of the public
    state (see :func:`buraco.views.seat_view`); slower to build."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """One of ``legal``, chosen from what ``view`` shows."""

    def new_hand(self) -> None:  # noqa: B027 - optional hook
        """Called before each hand; bots with memory reset it here."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"


def play_sections(legal: Sequence[Action]) -> tuple[int, int, int]:
    """Where the melds, the adds (with wild moves) and the discards start in ``legal``.

    Legal actions of the play phase come in a fixed order: turn-up, melds, adds, wild
    moves, discards. Returns ``(first_meld, first_add, first_discard)``; a section that
    is empty starts where the next one does.
    """
    first_discard = len(legal)
    while first_discard > 0 and type(legal[first_discard - 1]) is Discard:
        first_discard -= 1
    first_add = first_discard
    while first_add > 0 and type(legal[first_add - 1]) in (Add, MoveWild):
        first_add -= 1
    first_meld = 1 if legal and type(legal[0]) is TurnUp else 0
    return first_meld, first_add, first_discard
