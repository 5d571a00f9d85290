"""The values a game is made of: where the turn is, a hand's deal, its log and its scores.

:class:`~buraco.game.Game` holds them; :mod:`buraco.explain`, :mod:`buraco.views` and
:mod:`buraco.record` read them without needing the game's code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from buraco.actions import Action
from buraco.cards import Card

if TYPE_CHECKING:
    from buraco.melds import TableMeld
    from buraco.movegen import MoveTables
    from buraco.rules import Rules
    from buraco.views import MeldView


class Phase(IntEnum):
    """Where the player to move is in the turn."""

    DRAW = 0
    """Start of the turn: draw from the stock or take the pile."""
    PLAY = 1
    """Drawn: meld, add, (us) move a wild, or discard to end the turn."""
    TOP_MELD = 2
    """``pile_top_meld``: the pile was taken; its top card must be melded now."""
    OVER = 3
    """The hand is over."""


@dataclass(frozen=True)
class Score:
    """One side's score for a hand: every part and the total."""

    side: int
    melds: int
    """Card values of the side's melded cards."""
    bonuses: int
    """Canastra bonuses."""
    hand: int
    """Minus the card values left in the side's hands (an unplayed morto counts as
    ``-pot_penalty`` instead when ``unplayed_pot`` is ``penalty``)."""
    pot: int
    """Minus the penalty when the side never took its morto (or, with
    ``unused_pot_penalty``, took it and put no card on the table afterwards)."""
    going_out: int
    """The going-out bonus."""
    cut: int
    """Cut bonus or penalty."""
    rounding: int
    """What rounding up to a multiple of 10 added."""
    canastras: tuple[str, ...] = ()
    """Kinds of the side's canastras (``clean``, ``dirty``, ...)."""

    @property
    def total(self) -> int:
        """The hand's score for the side."""
        return (
            self.melds
            + self.bonuses
            + self.hand
            + self.pot
            + self.going_out
            + self.cut
            + (self.rounding)
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "side": self.side,
            "melds": self.melds,
            "bonuses": self.bonuses,
            "hand": self.hand,
            "pot": self.pot,
            "going_out": self.going_out,
            "cut": self.cut,
            "rounding": self.rounding,
            "total": self.total,
            "canastras": list(self.canastras),
        }


@dataclass
class HandResult:
    """How a finished hand ended and what each side scored."""

    number: int
    dealer: int
    ended_by: str
    """``going-out`` or ``stock`` (the stock ran out) or ``blocked`` (no draw possible)."""
    went_out: int | None
    """The side that went out, if any."""
    scores: list[Score]
    totals: list[int]
    """Match totals after the hand."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "ended_by": self.ended_by,
            "went_out": self.went_out,
            "scores": [s.as_dict() for s in self.scores],
            "totals": list(self.totals),
        }


class Event(NamedTuple):
    """One entry of a hand's log: an action by a seat or something that followed it."""

    seat: int
    action: Action | None
    card: Card = -1
    """The card a draw or turn-up took from the stock (private to the seat)."""
    note: str = ""
    """A public consequence: ``took the morto``, ``opening short``, ... (in English)."""
    cards: tuple[Card, ...] = ()
    """The cards of a pile that was taken, or the card turned up by ``turn-up``."""
    code: str = ""
    """The note's code (:data:`buraco.notes.NOTES`), for a front end to word it."""
    params: tuple[tuple[str, int | str], ...] = ()
    """The note's parameters, as (name, value) pairs."""


@dataclass
class HandDeal:
    """How one hand was dealt: the dealer, the cut and the deck order (top first)."""

    dealer: int
    cut: int
    deck: list[Card] = field(default_factory=list)


class GameState:
    """Every field of a game's state, declared once for the parts of :class:`~buraco.game.Game`.

    The game is put together from one part per concern (:mod:`buraco.dealing`,
    :mod:`buraco.legality`, :mod:`buraco.turns`, :mod:`buraco.scoring`); each reads and
    writes these fields, which the game sets at its start and at each deal.
    """

    # the match: fixed at the start
    rules: Rules
    tables: MoveTables
    """The meld tables of these rules (shared by every game under them)."""
    options_view: Mapping[str, Any]
    values: tuple[int, ...]
    """Each card code's point value."""
    n: int
    """Players."""
    k: int
    """Sides."""
    side_of: list[int]
    side_seats: tuple[tuple[int, ...], ...]
    teammates: list[list[int]]
    seed: int
    match: bool
    names: tuple[str, ...]
    _stacked: list[list[Card]]
    _cuts: list[Any]
    first_dealer: int
    # the match: as it goes
    totals: list[int]
    start_totals: list[int]
    results: list[HandResult]
    deals: list[HandDeal]
    hand_events: list[list[Event]]
    hand_number: int
    winner: int | None
    stopped: bool
    """Whether the match was ended early by ``stop_match`` (a timed match)."""
    resigned: int
    """The seat whose player conceded the match (-1: none)."""
    # the hand in play
    dealer: int
    cut: int
    cut_points: list[int]
    hands: list[list[int]]
    """Each seat's hand as a count per card code."""
    sizes: list[int]
    pots: list[list[Card]]
    pile: list[Card]
    upcard: Card
    stock: list[Card]
    """The stock, its top card last."""
    melds: list[list[TableMeld]]
    table_views: tuple[tuple[tuple[MeldView, ...], ...], tuple[int, ...]] | None
    """Every side's meld views and table points, cached by :mod:`buraco.views` until a meld
    changes."""
    pot_taken: list[bool]
    pot_used: list[bool]
    unplayed: list[bool]
    hidden: list[bool]
    turns_started: list[int]
    vulnerable: list[bool]
    requirement: list[int]
    opened: list[bool]
    staged_value: int
    turn: int
    phase: Phase
    first_card: Card
    first_draw: bool
    taken_top: Card
    taken_melded: bool
    top_to_meld: Card
    moved: set[int]
    last_turn: bool
    must_open: bool
    pile_streak: int
    went_out: int
    ended_by: str
    events: list[Event]
    seen_cache: list[Any]
    """Per seat, the events as that seat saw them, built by :mod:`buraco.views` as needed
    (the last: spectators)."""
    _legal: tuple[Action, ...] | None
    score_cache: list[Score] | None
    public_cache: (
        tuple[
            tuple[int, ...],
            tuple[bool, ...],
            tuple[int, ...],
            tuple[bool, ...],
            tuple[int, ...],
        ]
        | None
    )
    """Mortos, totals, vulnerability and minimums as views show them (see
    :mod:`buraco.views`); reset whenever one of them changes."""


__all__ = ["Event", "GameState", "HandDeal", "HandResult", "Phase", "Score"]
