"""Fixed-size encodings for learning agents: one discrete action space and one observation.

Every preset, player count and rule option shares the same :data:`N_ACTIONS` actions and
the same :data:`OBS_SIZE` observation, so one network can play them all.

Action space
============

A ``Discrete(N_ACTIONS)`` space, laid out as follows (``c`` is a card code 0-52, see
:mod:`buraco.cards`; ``i`` a 0-based index in the acting side's melds):

=================================  =============================================================
index                              action
=================================  =============================================================
``DRAW`` (0)                       ``draw``
``TURN_UP`` (1)                    ``turn-up``
``TAKE_PILE`` (2)                  ``take-pile``
``DISCARD + c``                    ``discard c``
``MELD_CARD + c``                  the next card of a new meld (see below)
``MELD_END``                       put down the meld entered so far
``ADD + (i * 53 + c) * 5 + p``     ``add i+1 c`` with placement ``p`` (a
                                   :class:`~buraco.actions.Place`: 0 none, 1 low, 2 high,
                                   3 wild-low, 4 wild-high)
``MOVE + i * 2 + (to - 1)``        ``move i+1 low`` (``to`` 1) or ``move i+1 high`` (``to`` 2)
=================================  =============================================================

A new meld is entered card by card, in the engine's order (:attr:`buraco.actions.Meld.cards`:
a run low to high with each wild where it stands, a set's naturals by suit then its wild),
then committed with ``MELD_END``. While a meld is pending, the mask allows exactly the cards
that extend its prefix to a prefix of some legal meld, and ``MELD_END`` when the prefix is a
legal meld itself; nothing else is allowed (there is no "cancel": every pending prefix can be
completed, so an agent never gets stuck). The pending prefix is part of the observation.

The meld index is bounded by :data:`MAX_MELDS`, the most melds a side can ever have: every
meld holds at least three cards, so a side has at most a third of the largest pack the
options allow (4 packs of 52 cards and 4 jokers: 224 cards, 74 melds).

>>> from buraco.actions import parse_action
>>> codec = ActionCodec()
>>> codec.encode(parse_action("meld 3H 4H JK 6H"))
(84, 85, 108, 87, 109)
>>> codec.decode((84, 85, 108, 87, 109))
Meld('meld 3H 4H JK 6H')
>>> codec.decode(codec.encode(parse_action("add 2 6H wild-high"))[0])
Add('add 2 6H wild-high')

Observation
===========

:class:`ObservationEncoder` turns one seat's :class:`~buraco.views.SeatView` (and the pending
meld prefix) into a ``float32`` vector of :data:`OBS_SIZE` numbers. It reads nothing but the
view, which holds only what that seat may know. Seats and sides are relative to the viewer:
seat slot 0 is the viewer, slot 1 the next player to act after it, ...; side slot 0 is the
viewer's side. Unused slots (fewer players, sides or melds) are zero. The blocks, in order,
are listed in :data:`OBSERVATION_LAYOUT` with their sizes; :func:`observation_slices` gives
each block's slice.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from buraco.actions import (
    DRAW as DRAW_ACTION,
)
from buraco.actions import (
    TAKE_PILE as TAKE_PILE_ACTION,
)
from buraco.actions import (
    TURN_UP as TURN_UP_ACTION,
)
from buraco.actions import (
    Action,
    Add,
    Discard,
    Draw,
    Meld,
    MoveWild,
    Place,
    TakePile,
    TurnUp,
)
from buraco.cards import JOKER, N_CODES, Card
from buraco.rules import Rules, option_bounds
from buraco.views import MeldView, SeatView, SeenEvent

if TYPE_CHECKING:
    from buraco.game import Game

__all__ = [
    "ADD",
    "DISCARD",
    "DRAW",
    "MAX_MELDS",
    "MAX_MELD_LEN",
    "MAX_PLAYERS",
    "MAX_POTS",
    "MAX_SIDES",
    "MELD_CARD",
    "MELD_END",
    "MOVE",
    "N_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBS_SIZE",
    "TAKE_PILE",
    "TURN_UP",
    "ActionCodec",
    "MeldEntry",
    "ObservationEncoder",
    "check_reward_scale",
    "check_rules",
    "hand_rewards",
    "observation_slices",
]

_DECKS_MAX = option_bounds("decks")[1]
_JOKERS_MAX = option_bounds("jokers_per_deck")[1]

MAX_MELDS = _DECKS_MAX * (52 + _JOKERS_MAX) // 3
"""The most melds one side can have (74): a third of the largest pack the options allow."""

MAX_MELD_LEN = max(14, 4 * _DECKS_MAX + 1)
"""The most cards one meld can hold (17): a run ace to ace has 14, a set with 4 packs
16 naturals and a wild."""

MAX_PLAYERS = 6
"""The most players of any preset."""

MAX_SIDES = option_bounds("sides")[1]
"""The most sides (3)."""

MAX_POTS = 4
"""The most mortos a pack may be split into."""

N_PLACES = len(Place)
"""Placements of an add (5)."""

DRAW = 0
"""Index of ``draw``."""
TURN_UP = 1
"""Index of ``turn-up``."""
TAKE_PILE = 2
"""Index of ``take-pile``."""
DISCARD = 3
"""First index of the discards (``DISCARD + card``)."""
MELD_CARD = DISCARD + N_CODES
"""First index of the meld-card tokens (``MELD_CARD + card``)."""
MELD_END = MELD_CARD + N_CODES
"""Index of the token that puts down the pending meld."""
ADD = MELD_END + 1
"""First index of the adds (``ADD + (meld * 53 + card) * 5 + place``)."""
MOVE = ADD + MAX_MELDS * N_CODES * N_PLACES
"""First index of the wild moves (``MOVE + meld * 2 + to - 1``)."""
N_ACTIONS = MOVE + MAX_MELDS * 2
"""Size of the action space (19868)."""

FloatArray = npt.NDArray[np.float32]


def check_rules(rules: Rules) -> None:
    """Raise ``ValueError`` if some meld of these rules could not be encoded.

    Never raises for rules the options allow (the bounds are the options' bounds); kept as
    a guard should the bounds grow.
    """
    if rules.deck_size // 3 > MAX_MELDS or 4 * rules.decks + 1 > MAX_MELD_LEN:
        raise ValueError("these rules allow more melds or longer melds than the encoding holds")
    if rules.players > MAX_PLAYERS or rules.sides > MAX_SIDES or len(rules.pot_sizes) > MAX_POTS:
        raise ValueError("these rules have more players, sides or mortos than the encoding holds")


class ActionCodec:
    """Maps engine actions to indexes of the fixed action space and back.

    Stateless: a meld's card-by-card entry is kept by :class:`MeldEntry`.
    """

    n = N_ACTIONS
    """Size of the action space."""

    def encode(self, action: Action) -> tuple[int, ...]:
        """The index sequence of an action: one index, or a meld's cards then ``MELD_END``."""
        t = type(action)
        if t is Meld:
            assert isinstance(action, Meld)
            if len(action.cards) > MAX_MELD_LEN:
                raise ValueError(f"a meld of more than {MAX_MELD_LEN} cards cannot be encoded")
            return (*(MELD_CARD + c for c in action.cards), MELD_END)
        return (self.index(action),)

    def index(self, action: Action) -> int:
        """The single index of any action but a new meld."""
        t = type(action)
        if t is Draw:
            return DRAW
        if t is TurnUp:
            return TURN_UP
        if t is TakePile:
            return TAKE_PILE
        if t is Discard:
            assert isinstance(action, Discard)
            return DISCARD + action.card
        if t is Add:
            assert isinstance(action, Add)
            if not 0 <= action.meld < MAX_MELDS:
                raise ValueError(f"meld index {action.meld} is beyond {MAX_MELDS - 1}")
            return ADD + (action.meld * N_CODES + action.card) * N_PLACES + int(action.place)
        if t is MoveWild:
            assert isinstance(action, MoveWild)
            if not 0 <= action.meld < MAX_MELDS:
                raise ValueError(f"meld index {action.meld} is beyond {MAX_MELDS - 1}")
            return MOVE + action.meld * 2 + int(action.to) - 1
        if t is Meld:
            raise ValueError("a new meld is a sequence of indexes: use encode()")
        raise ValueError(f"not an action: {action!r}")

    def decode(self, indexes: int | Iterable[int]) -> Action:
        """The action of one index, or of a meld's whole index sequence (cards, ``MELD_END``).

        Raises ``ValueError`` for an index out of range, a lone meld card, or a sequence
        that is not a meld's.
        """
        if isinstance(indexes, int | np.integer):
            return self._single(int(indexes))
        seq = [int(i) for i in indexes]
        if len(seq) == 1:
            return self._single(seq[0])
        if len(seq) < 2 or seq[-1] != MELD_END:
            raise ValueError("a meld's indexes are its cards' tokens followed by MELD_END")
        cards = tuple(self.meld_card(i) for i in seq[:-1])
        return Meld(cards)

    @staticmethod
    def meld_card(index: int) -> Card:
        """The card of a meld-card token; ``ValueError`` for any other index."""
        if not MELD_CARD <= index < MELD_END:
            raise ValueError(f"index {index} is not a meld card")
        return index - MELD_CARD

    @staticmethod
    def is_meld_step(index: int) -> bool:
        """Whether an index is a meld-card token or ``MELD_END``."""
        return MELD_CARD <= index <= MELD_END

    def _single(self, i: int) -> Action:
        if not 0 <= i < N_ACTIONS:
            raise ValueError(f"an action index is from 0 to {N_ACTIONS - 1}, not {i}")
        if i == DRAW:
            return DRAW_ACTION
        if i == TURN_UP:
            return TURN_UP_ACTION
        if i == TAKE_PILE:
            return TAKE_PILE_ACTION
        if i < MELD_CARD:
            return Discard(i - DISCARD)
        if i < ADD:
            raise ValueError(f"index {i} is one step of a meld: decode the whole sequence")
        if i < MOVE:
            rest, place = divmod(i - ADD, N_PLACES)
            meld, card = divmod(rest, N_CODES)
            return Add(meld, card, Place(place))
        meld, end = divmod(i - MOVE, 2)
        return MoveWild(meld, Place(end + 1))

    def mask(
        self,
        legal: Sequence[Action],
        pending: Sequence[Card] = (),
        dtype: npt.DTypeLike = np.bool_,
    ) -> npt.NDArray[Any]:
        """The legal indexes (an array of ``N_ACTIONS``, 1 where legal) for a legal-action list.

        ``pending`` is the meld prefix entered so far: then only meld cards extending it
        (and ``MELD_END`` when it is a legal meld) are legal. ``dtype``: the array's type
        (booleans, or ``np.int8`` as PettingZoo and Gymnasium masks are).
        """
        out = np.zeros(N_ACTIONS, dtype=dtype)
        p = tuple(pending)
        k = len(p)
        for a in legal:
            if type(a) is Meld:
                cards = a.cards
                if cards[:k] == p:
                    out[MELD_END if len(cards) == k else MELD_CARD + cards[k]] = True
            elif not k:
                out[self.index(a)] = True
        return out


class MeldEntry:
    """One seat's entry of actions index by index: keeps the pending meld prefix.

    :meth:`step` takes an index and returns the engine action it completes, or ``None``
    while a meld is being entered.

    >>> from buraco import Game
    >>> g = Game("aberto", players=2, seed=5, match=False)
    >>> g.apply("draw")
    >>> entry = MeldEntry()
    >>> meld = next(a for a in g.legal_actions() if isinstance(a, Meld))
    >>> [entry.step(i, g.legal_actions()) for i in ActionCodec().encode(meld)][-1] == meld
    True
    """

    def __init__(self) -> None:
        self.codec = ActionCodec()
        self.pending: list[Card] = []

    def reset(self) -> None:
        """Forget a pending meld."""
        self.pending.clear()

    def mask(self, legal: Sequence[Action], dtype: npt.DTypeLike = np.bool_) -> npt.NDArray[Any]:
        """The legal indexes now (see :meth:`ActionCodec.mask`)."""
        return self.codec.mask(legal, self.pending, dtype)

    def allows(self, index: int, legal: Sequence[Action]) -> bool:
        """Whether the mask allows ``index`` now (without building the mask)."""
        p = tuple(self.pending)
        k = len(p)
        if MELD_CARD <= index <= MELD_END:
            for a in legal:
                if type(a) is Meld:
                    cards = a.cards
                    if cards[:k] == p:
                        if len(cards) == k:
                            if index == MELD_END:
                                return True
                        elif index == MELD_CARD + cards[k]:
                            return True
            return False
        if k or not 0 <= index < N_ACTIONS:
            return False
        return self.codec.decode(index) in legal

    def step(self, index: int, legal: Sequence[Action]) -> Action | None:
        """Take one index; the completed action, or None while a meld is pending.

        Raises ``ValueError`` for an index the mask does not allow.
        """
        index = int(index)
        if not self.allows(index, legal):
            raise ValueError(f"action index {index} is not legal now")
        if MELD_CARD <= index < MELD_END:
            self.pending.append(index - MELD_CARD)
            return None
        if index == MELD_END:
            action: Action = Meld(tuple(self.pending))
            self.pending.clear()
            return action
        return self.codec.decode(index)


# ----------------------------------------------------------------------------------------
# observation
# ----------------------------------------------------------------------------------------

MELD_FEATURES = (
    ("present", 1),
    ("run", 1),
    ("suit", 4),
    ("rank", 13),
    ("low", 1),
    ("high", 1),
    ("size", 1),
    ("wild", 1),
    ("wild_joker", 1),
    ("wild_pos", 1),
    ("canastra", 1),
    ("staged", 1),
    ("bonus_points", 1),
    ("points", 1),
    ("moved", 1),
    ("set_suits", 4),
)
"""Per-meld features (a meld slot), with sizes:

- ``present``: 1 for a meld in this slot;
- ``run``: 1 for a run, 0 for a set;
- ``suit``: a run's suit, one-hot (C D H S); ``rank``: a set's rank, one-hot (A ... K);
- ``low``, ``high``: a run's lowest and highest position / 13 (0 low ace, 13 high ace);
- ``size``: cards / 14;
- ``wild``: 1 when the meld holds a wild; ``wild_joker``: 1 when that wild is a joker;
- ``wild_pos``: a run's wild position / 13 (0 without a wild or in a set);
- ``canastra``: 1 for 7 cards or more; ``staged``: part of an initial meld not yet reached;
- ``bonus_points`` / 1000, ``points`` (card values) / 100;
- ``moved``: its wild moved this turn (``us`` wild moves, own side only);
- ``set_suits``: a set's natural cards per suit / 4.
"""

MELD_SIZE = sum(n for _, n in MELD_FEATURES)
"""Numbers per meld slot (34)."""

OBSERVATION_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", N_CODES),
    ("hidden_pot", 1),
    ("pending", MAX_MELD_LEN * N_CODES),
    ("pile_counts", N_CODES),
    ("pile_top", N_CODES),
    ("pile_size", 1),
    ("pile_open", 1),
    ("stock", 1),
    ("last_turn", 1),
    ("taken_top", N_CODES),
    ("turn_up_card", N_CODES),
    ("first_draw", 1),
    ("phase", 4),
    ("turn", MAX_PLAYERS),
    ("seat_present", MAX_PLAYERS),
    ("partner", MAX_PLAYERS),
    ("hand_sizes", MAX_PLAYERS),
    ("pot_unplayed", MAX_PLAYERS),
    ("pots", MAX_POTS),
    ("staged_value", 1),
    ("must_open", 1),
    ("taken_melded", 1),
    ("pile_streak", 1),
    ("side_present", MAX_SIDES),
    ("totals", MAX_SIDES),
    ("table_points", MAX_SIDES),
    ("vulnerable", MAX_SIDES),
    ("requirement", MAX_SIDES),
    ("pot_taken", MAX_SIDES),
    ("pot_used", MAX_SIDES),
    ("cut_points", MAX_SIDES),
    ("melded_counts", MAX_SIDES * N_CODES),
    ("melds", MAX_SIDES * MAX_MELDS * MELD_SIZE),
    ("pile_memory", N_CODES),
    ("known_cards", MAX_PLAYERS * N_CODES),
)
"""The observation's blocks in order, with their sizes. Scales: card counts as they are;
sizes of hands, stock, pile and mortos / 10; points / 1000 (``staged_value``,
``requirement`` / 100); flags 0 or 1; one-hot blocks for cards and choices. Per block:

- ``hand``: own cards, a count per card code (zero while an ``us`` morto stays unseen);
- ``hidden_pot``: cards of an own morto not yet to be looked at (``us``) / 10;
- ``pending``: the meld prefix being entered, card by card, one-hot per position;
- ``pile_counts``: an open pile's cards, a count per code (zero for a closed pile);
- ``pile_top``: the pile's top card, one-hot; ``pile_size`` / 10; ``pile_open``: 1 if open;
- ``stock`` / 10; ``last_turn``: the stock is out and the hand ends after this turn;
- ``taken_top``: the card taken from the pile this turn that may not be discarded, one-hot;
- ``turn_up_card``: the first card drawn, which the viewer may still turn up, one-hot;
- ``first_draw``: the hand's first draw is still to come;
- ``phase``: draw, play, top-meld, over, one-hot;
- ``turn``: the seat to move (relative), one-hot; ``seat_present``: seats at the table;
  ``partner``: seats on the viewer's side (the viewer included);
- ``hand_sizes`` / 10 per relative seat; ``pot_unplayed``: the seat holds a morto taken by
  discarding and not played yet;
- ``pots``: sizes of the mortos not yet taken / 10, in the order they will be taken;
- ``staged_value`` / 100: points melded this turn toward an initial meld; ``must_open``: the
  player to move took the pile owing its initial meld; ``taken_melded``: a copy of the taken
  top card was melded this turn; ``pile_streak`` / 10: turns in a row begun by taking the pile;
- per relative side: ``side_present``, ``totals`` (match totals) / 1000, ``table_points``
  / 1000, ``vulnerable``, ``requirement`` (initial-meld minimum left) / 100, ``pot_taken``,
  ``pot_used``, ``cut_points`` / 1000;
- ``melded_counts``: every card on each side's melds, a count per code;
- ``melds``: each side's melds in their order (slot ``i`` of side 0 is the meld an
  ``add i+1`` names), :data:`MELD_SIZE` numbers each (see :data:`MELD_FEATURES`);
- ``pile_memory``: the whole pile as the viewer saw it built, a count per code: with a
  closed pile, every card under the top too (:func:`buraco.determinize.pile_of`);
- ``known_cards``: per relative seat, the cards it is known to hold because it took them
  with the pile and has not played them since (:func:`buraco.determinize.known_hands`;
  zero for the viewer).

The last two come from the history a full view carries (zero for a short view); the
encoder follows it incrementally, event by event.
"""

OBS_SIZE = sum(n for _, n in OBSERVATION_LAYOUT)
"""Size of the observation vector (9316)."""


def observation_slices() -> dict[str, slice]:
    """Each observation block's slice (see :data:`OBSERVATION_LAYOUT`)."""
    out: dict[str, slice] = {}
    pos = 0
    for name, size in OBSERVATION_LAYOUT:
        out[name] = slice(pos, pos + size)
        pos += size
    return out


_S = {name: s.start for name, s in observation_slices().items()}
_M = {}
_pos = 0
for _name, _size in MELD_FEATURES:
    _M[_name] = _pos
    _pos += _size
_PHASES = {"draw": 0, "play": 1, "top-meld": 2, "over": 3}


class _Memory:
    """What one seat remembers of a hand's history (see ``ObservationEncoder._memory``)."""

    __slots__ = ("done", "known", "last", "pile", "turn_cards")

    def __init__(self, upcard: Card | None, players: int) -> None:
        self.done = 0
        self.last: SeenEvent | None = None
        self.pile: list[Card] = [upcard] if upcard is not None else []
        self.known: list[dict[Card, int]] = [{} for _ in range(players)]
        self.turn_cards: list[Card] = []

    def read(self, e: SeenEvent) -> None:
        """Take one event into account (as ``known_hands`` and ``pile_of`` do)."""
        a = e.action
        hand = self.known[e.seat]
        if isinstance(a, Discard):
            self.pile.append(a.card)
            if hand.get(a.card, 0):
                hand[a.card] -= 1
        elif isinstance(a, TurnUp):
            self.pile.extend(e.cards)
        elif isinstance(a, TakePile):
            for c in self.pile:
                hand[c] = hand.get(c, 0) + 1
            self.pile = []
            self.turn_cards = []
        elif isinstance(a, Draw):
            self.turn_cards = []
        elif isinstance(a, Meld | Add):
            for c in a.cards if isinstance(a, Meld) else (a.card,):
                self.turn_cards.append(c)
                if hand.get(c, 0):
                    hand[c] -= 1
        elif a is None and e.note.startswith("opening short"):
            for c in self.turn_cards:
                hand[c] = hand.get(c, 0) + 1
        elif a is None and e.note.startswith("took the morto"):
            hand.clear()


class ObservationEncoder:
    """Builds the fixed-size observation of one seat's view (see the module docstring).

    Give it full views (``seat_view(game, seat, full=True)``) to fill the blocks that come
    from the view's ``detail``; with a short view they stay zero.
    """

    size = OBS_SIZE
    """Length of the vector."""

    def encode(self, view: SeatView, pending: Sequence[Card] = ()) -> FloatArray:
        """The observation of ``view``, with ``pending`` the meld prefix being entered."""
        o = np.zeros(OBS_SIZE, dtype=np.float32)
        S = _S
        n = len(view.names)
        me = view.seat
        k = len(view.sides)
        own_side = view.side
        o[S["hand"] : S["hand"] + N_CODES] = view.counts
        o[S["hidden_pot"]] = view.hidden_pot / 10
        base = S["pending"]
        for i, c in enumerate(pending):
            o[base + i * N_CODES + c] = 1
        if view.pile_open and view.pile:
            pc = S["pile_counts"]
            o[pc : pc + N_CODES] = np.bincount(view.pile, minlength=N_CODES)
        if view.pile:
            o[S["pile_top"] + view.pile[-1]] = 1
        o[S["pile_size"]] = view.pile_size / 10
        o[S["pile_open"]] = view.pile_open
        o[S["stock"]] = view.stock / 10
        o[S["last_turn"]] = view.last_turn
        if view.taken_top is not None:
            o[S["taken_top"] + view.taken_top] = 1
        o[S["phase"] + _PHASES[view.phase]] = 1
        if view.turn is not None:
            o[S["turn"] + (view.turn - me) % n] = 1
        for s in range(n):
            r = (s - me) % n
            o[S["seat_present"] + r] = 1
            o[S["partner"] + r] = s in view.sides[own_side]
            o[S["hand_sizes"] + r] = view.hand_sizes[s] / 10
        for i, size in enumerate(view.pots):
            o[S["pots"] + i] = size / 10
        d = view.detail
        moved: tuple[int, ...] = ()
        if d is not None:
            if d.turn_up_card is not None:
                o[S["turn_up_card"] + d.turn_up_card] = 1
            o[S["first_draw"]] = d.first_draw
            o[S["staged_value"]] = d.staged_value / 100
            o[S["must_open"]] = d.must_open
            o[S["taken_melded"]] = d.taken_melded
            o[S["pile_streak"]] = d.pile_streak / 10
            for s in range(n):
                o[S["pot_unplayed"] + (s - me) % n] = d.pot_unplayed[s]
            moved = d.moved
        mbase = S["melds"]
        cbase = S["melded_counts"]
        for side in range(k):
            r = (side - own_side) % k
            o[S["side_present"] + r] = 1
            o[S["totals"] + r] = view.totals[side] / 1000
            o[S["table_points"] + r] = view.table_points[side] / 1000
            o[S["vulnerable"] + r] = view.vulnerable[side]
            o[S["requirement"] + r] = view.requirement[side] / 100
            o[S["pot_taken"] + r] = view.pot_taken[side]
            if d is not None:
                o[S["pot_used"] + r] = d.pot_used[side]
                o[S["cut_points"] + r] = d.cut_points[side] / 1000
            melds = view.melds[side]
            if melds:
                feats, cards = self._side(melds)
                counts = cbase + r * N_CODES
                o[counts : counts + N_CODES] = cards
                m = mbase + r * MAX_MELDS * MELD_SIZE
                o[m : m + len(feats)] = feats
                if r == 0:
                    for i in moved:
                        o[m + i * MELD_SIZE + _M["moved"]] = 1
        if view.events or d is not None:
            pile, known = self._memory(view)
            if view.pile_open:
                pile = view.pile
            if pile:
                pm = S["pile_memory"]
                o[pm : pm + N_CODES] = np.bincount(pile, minlength=N_CODES)
            kc = S["known_cards"]
            for s, held in enumerate(known):
                if s != me and held:
                    row = kc + ((s - me) % n) * N_CODES
                    for c, count in held.items():
                        if count > 0:
                            o[row + c] = count
        return o

    def _memory(self, view: SeatView) -> tuple[Sequence[Card], list[dict[Card, int]]]:
        """The pile as the viewer saw it built and the cards known in each hand.

        Follows :func:`buraco.determinize.pile_of` and
        :func:`buraco.determinize.known_hands`, but event by event: the state of each
        viewing seat is kept and only the events since its last view are read (a new hand
        or game, or another line of play, starts it afresh).
        """
        events = view.events
        mem = self._memories.get(view.seat)
        done = mem.done if mem is not None else 0
        # the remembered events must be this history's: the same objects (a game's events
        # are kept, and shared by its clones only up to where they part)
        if mem is None or not done or done > len(events) or events[done - 1] is not mem.last:
            d = view.detail
            upcard = d.upcard if d is not None else None
            mem = self._memories[view.seat] = _Memory(upcard, len(view.names))
        for e in events[mem.done :]:
            mem.read(e)
        mem.done = len(events)
        mem.last = events[-1] if events else None
        return mem.pile, mem.known

    def _side(self, melds: tuple[MeldView, ...]) -> tuple[FloatArray, FloatArray]:
        """A side's meld slots (concatenated) and card counts.

        Cached per tuple of meld views: the engine keeps it until one of the side's melds
        changes.
        """
        cached = self._sides.get(id(melds))
        if cached is not None and cached[0] is melds:
            return cached[1], cached[2]
        parts = [self._meld(mv) for mv in melds[:MAX_MELDS]]
        feats: FloatArray = np.concatenate([f for f, _ in parts]).astype(np.float32, copy=False)
        cards: FloatArray = np.zeros(N_CODES, dtype=np.float32)
        for _, c in parts:
            cards += c
        if len(self._sides) > 1024:
            self._sides.clear()
        self._sides[id(melds)] = (melds, feats, cards)
        return feats, cards

    def __init__(self) -> None:
        self._melds: dict[int, tuple[MeldView, FloatArray, FloatArray]] = {}
        self._memories: dict[int, _Memory] = {}
        self._sides: dict[int, tuple[tuple[MeldView, ...], FloatArray, FloatArray]] = {}

    def _meld(self, mv: MeldView) -> tuple[FloatArray, FloatArray]:
        """A meld slot's features and the meld's card counts.

        Cached per meld view: the engine keeps a meld's view until the meld changes.
        """
        cached = self._melds.get(id(mv))
        if cached is not None and cached[0] is mv:
            return cached[1], cached[2]
        f = np.zeros(MELD_SIZE, dtype=np.float32)
        cards = np.zeros(N_CODES, dtype=np.float32)
        for c in mv.cards:
            cards[c] += 1
        f[0] = 1
        if mv.run:
            f[_M["run"]] = 1
            f[_M["suit"] + mv.suit] = 1
            f[_M["low"]] = mv.lo / 13
            f[_M["high"]] = mv.hi / 13
        else:
            f[_M["rank"] + mv.rank] = 1
            for j, c in enumerate(mv.cards):
                if j != mv.wild:
                    f[_M["set_suits"] + c // 13] += 0.25
        f[_M["size"]] = len(mv.cards) / 14
        if mv.wild is not None:
            f[_M["wild"]] = 1
            f[_M["wild_joker"]] = mv.cards[mv.wild] == JOKER
            if mv.run:
                f[_M["wild_pos"]] = (mv.lo + mv.wild) / 13
        f[_M["canastra"]] = mv.canastra
        f[_M["staged"]] = mv.staged
        f[_M["bonus_points"]] = mv.bonus_points / 1000
        f[_M["points"]] = mv.points / 100
        if len(self._melds) > 4096:
            self._melds.clear()
        self._melds[id(mv)] = (mv, f, cards)
        return f, cards

    def describe(self, obs: npt.NDArray[Any]) -> dict[str, npt.NDArray[Any]]:
        """The observation cut into its named blocks (for inspection)."""
        return {name: obs[s] for name, s in observation_slices().items()}


def check_reward_scale(value: object) -> float:
    """``value`` as an environment's ``reward_scale``: a finite number above zero.

    ``ValueError`` says what was given otherwise.

    >>> check_reward_scale(1000), check_reward_scale("250")
    (1000.0, 250.0)
    >>> check_reward_scale(0)
    Traceback (most recent call last):
    ...
    ValueError: reward_scale is a finite number above 0, not 0
    """
    try:
        scale = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        scale = math.nan
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"reward_scale is a finite number above 0, not {str(value)[:40]}")
    return scale


def hand_rewards(game: Game, scale: float = 1000.0) -> list[float]:
    """Per seat: its side's score of the last hand minus the best other side's, / ``scale``.

    The reward of the PettingZoo and Gymnasium environments and the returns of the
    OpenSpiel game, at the end of a hand.
    """
    scores = [s.total for s in game.results[-1].scores]
    out = []
    for seat in range(game.n):
        side = game.side_of[seat]
        best_other = max(t for i, t in enumerate(scores) if i != side)
        out.append((scores[side] - best_other) / scale)
    return out
