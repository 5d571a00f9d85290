"""Actions as tokens, each engine action entered as a few small choices; the compact view.

``Discrete(19868)`` (:mod:`buraco.rl.encoding`) gives every add its own index (meld × card ×
placement), and a policy pays for a 19,868-way output at every step. Here an action is a
short sequence of **tokens** from a space of :data:`N_TOKENS` (243), each a choice of one
part of the action: its kind and card first, then the meld, then the placement.

=================================  ====================================================
token                              meaning
=================================  ====================================================
``DRAW`` (0)                       ``draw``
``TURN_UP`` (1)                    ``turn-up``
``TAKE_PILE`` (2)                  ``take-pile``
``DISCARD + c`` (3-55)             ``discard c``
``MELD + c`` (56-108)              the next card ``c`` of a new meld
``MELD_END`` (109)                 put down the new meld entered so far
``ADD + c`` (110-162)              add the card ``c`` to one of the side's melds ...
``MOVE`` (163)                     move a wild (``us``) in one of the side's melds ...
``MELD_INDEX + i`` (164-237)       ... the side's meld ``i`` (0-based, ``add i+1``) ...
``PLACE + p`` (238-242)            ... with placement ``p`` (a :class:`~buraco.actions.Place`)
=================================  ====================================================

So ``draw``, ``turn-up``, ``take-pile`` and ``discard c`` are one token; ``meld c1 ... ck``
is ``MELD + c1``, ..., ``MELD + ck``, ``MELD_END`` (the cards in the engine's order, as
:class:`~buraco.rl.encoding.MeldEntry` enters them); ``add i+1 c p`` is ``ADD + c``,
``MELD_INDEX + i``, ``PLACE + p``; ``move i+1 to`` is ``MOVE``, ``MELD_INDEX + i``,
``PLACE + to`` (:func:`action_tokens`, :func:`tokens_action`).

No sequence is the start of another, so the legal actions form a tree: at each step the
mask allows exactly the tokens that continue the prefix towards some legal action, and
every legal action is reached by its own sequence (nothing is left out, however many legal
actions there are). :class:`TokenEntry` follows one seat's prefix. It never asks a choice
that is not one: once the prefix names a single legal action, that action is complete, and
a token that is the only one allowed is entered by itself; only the first token of an
engine decision is always asked. Adding a card that fits one meld in one way is thus the
single token ``ADD + c``, and a meld whose first card starts no other legal meld is
``MELD + c`` alone.

This module needs NumPy alone (no learning environment): the ``learned`` bot plays through
it, and :class:`buraco.rl.factored.FactoredEnv` offers it to a learner.

>>> from buraco.actions import parse_action
>>> action_tokens(parse_action("add 2 6H wild-high"))
(141, 165, 242)
>>> tokens_action((141, 165, 242))
Add('add 2 6H wild-high')
>>> [token_name(t) for t in action_tokens(parse_action("meld 3H 4H JK 6H"))]
['meld 3H', 'meld 4H', 'meld JK', 'meld 6H', 'end meld']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

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
from buraco.cards import CARD_NAMES, N_CODES
from buraco.rl.encoding import (
    MAX_MELDS,
    MAX_PLAYERS,
    MELD_SIZE,
    MeldEntry,
    observation_slices,
)

__all__ = [
    "ADD",
    "COMPACT_LAYOUT",
    "COMPACT_SIZE",
    "DISCARD",
    "DRAW",
    "ENTRY_LAYOUT",
    "ENTRY_SIZE",
    "MELD",
    "MELD_END",
    "MELD_INDEX",
    "MOVE",
    "N_TOKENS",
    "OBSERVATIONS",
    "OWN_MELD_SLOTS",
    "PLACE",
    "TAKE_PILE",
    "TURN_UP",
    "TokenEntry",
    "action_tokens",
    "compact_observation",
    "entry_block",
    "first_token",
    "known_groups",
    "token_name",
    "tokens_action",
]

DRAW = 0
"""Token of ``draw``."""
TURN_UP = 1
"""Token of ``turn-up``."""
TAKE_PILE = 2
"""Token of ``take-pile``."""
DISCARD = 3
"""First discard token (``DISCARD + card``)."""
MELD = DISCARD + N_CODES
"""First meld-card token (``MELD + card``): the next card of a new meld."""
MELD_END = MELD + N_CODES
"""Token that puts down the new meld entered so far."""
ADD = MELD_END + 1
"""First add token (``ADD + card``): the card to add, then the meld and the placement."""
MOVE = ADD + N_CODES
"""Token of a wild move (``us``), then the meld and the end it moves to."""
MELD_INDEX = MOVE + 1
"""First meld token (``MELD_INDEX + i``): the side's meld ``i`` (0-based) of an add or move."""
PLACE = MELD_INDEX + MAX_MELDS
"""First placement token (``PLACE + p``, ``p`` a :class:`~buraco.actions.Place`)."""
N_TOKENS = PLACE + len(Place)
"""Size of the token space (243)."""

_KIND_OF_FIRST = {DRAW: "draw", TURN_UP: "turn-up", TAKE_PILE: "take-pile", MOVE: "move"}


def first_token(action: Action) -> int:
    """The first token of an action's sequence (all of it but for a meld, an add or a move)."""
    if type(action) is Discard:
        return DISCARD + action.card
    if type(action) is Meld:
        return MELD + action.cards[0]
    if type(action) is Add:
        return ADD + action.card
    if type(action) is Draw:
        return DRAW
    if type(action) is TakePile:
        return TAKE_PILE
    if type(action) is MoveWild:
        return MOVE
    if type(action) is TurnUp:
        return TURN_UP
    raise ValueError(f"not an action: {action!r}")


def action_tokens(action: Action) -> tuple[int, ...]:
    """An action's token sequence (see the module docstring)."""
    t = type(action)
    if t is Meld:
        assert isinstance(action, Meld)
        return (*(MELD + c for c in action.cards), MELD_END)
    if t is Add or t is MoveWild:
        assert isinstance(action, Add | MoveWild)
        if not 0 <= action.meld < MAX_MELDS:
            raise ValueError(f"meld index {action.meld} is beyond {MAX_MELDS - 1}")
        place = action.place if isinstance(action, Add) else action.to
        return (first_token(action), MELD_INDEX + action.meld, PLACE + int(place))
    return (first_token(action),)


def tokens_action(tokens: Iterable[int]) -> Action:
    """The action of a whole token sequence; ``ValueError`` for one that is no action's."""
    seq = [int(t) for t in tokens]
    bad = next((t for t in seq if not 0 <= t < N_TOKENS), None)
    if bad is not None:
        raise ValueError(f"a token is from 0 to {N_TOKENS - 1}, not {bad}")
    if len(seq) == 1 and seq[0] < MELD:
        t = seq[0]
        if t >= DISCARD:
            return Discard(t - DISCARD)
        return (DRAW_ACTION, TURN_UP_ACTION, TAKE_PILE_ACTION)[t]
    if seq and MELD <= seq[0] < MELD_END:
        if len(seq) < 2 or seq[-1] != MELD_END or not all(MELD <= t < MELD_END for t in seq[:-1]):
            raise ValueError("a new meld's tokens are its cards' MELD tokens then MELD_END")
        return Meld(tuple(t - MELD for t in seq[:-1]))
    if (
        len(seq) == 3
        and ADD <= seq[0] <= MOVE
        and MELD_INDEX <= seq[1] < PLACE
        and PLACE <= seq[2] < N_TOKENS
    ):
        meld, place = seq[1] - MELD_INDEX, Place(seq[2] - PLACE)
        if seq[0] < MOVE:
            return Add(meld, seq[0] - ADD, place)
        if place in (Place.LOW, Place.HIGH):
            return MoveWild(meld, place)
    raise ValueError(
        f"tokens {seq} are no action's: one of draw, turn-up, take-pile or a discard; a meld's "
        "cards then MELD_END; or ADD + card (or MOVE), MELD_INDEX + meld, PLACE + placement"
    )


def token_name(token: int) -> str:
    """A token in words (``"add 7H"``, ``"meld 2"``, ``"place low"``, ...)."""
    t = int(token)
    if not 0 <= t < N_TOKENS:
        raise ValueError(f"a token is from 0 to {N_TOKENS - 1}, not {t}")
    if t in _KIND_OF_FIRST:
        return _KIND_OF_FIRST[t]
    if t < MELD:
        return f"discard {CARD_NAMES[t - DISCARD]}"
    if t < MELD_END:
        return f"meld {CARD_NAMES[t - MELD]}"
    if t == MELD_END:
        return "end meld"
    if t < MOVE:
        return f"add {CARD_NAMES[t - ADD]}"
    if t < PLACE:
        return f"to meld {t - MELD_INDEX + 1}"
    return f"place {Place(t - PLACE).word or 'none'}"


_Candidates = list[tuple[tuple[int, ...], Action]]


class TokenEntry(MeldEntry):
    """One seat's entry of actions token by token (see the module docstring).

    :meth:`step` takes a token and returns the engine action it completes, or ``None``
    while the action is still being entered; :attr:`prefix` holds the tokens entered so
    far (those entered by themselves included) and :attr:`pending` a new meld's cards
    among them. Give it the seat's legal actions at each call, the same until an action
    is complete (it keeps what it worked out for that tuple of actions).

    >>> from buraco import Game
    >>> g = Game("aberto", players=2, seed=5, match=False)
    >>> g.apply("draw")
    >>> legal = g.legal_actions()
    >>> entry = TokenEntry()
    >>> entry.step(MELD + 52, legal) is None  # meld JK: two melds start with the joker
    True
    >>> entry.candidates(legal)
    [Meld('meld JK KD AD'), Meld('meld JK 3S 4S')]
    >>> [token_name(t) for t in entry.allowed(legal)]
    ['meld KD', 'meld 3S']
    >>> entry.step(MELD + 41, legal)  # one meld left: its 4S and its end go by themselves
    Meld('meld JK 3S 4S')
    """

    def __init__(self) -> None:
        super().__init__()
        self.prefix: list[int] = []
        self._legal: Sequence[Action] | None = None
        self._firsts: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self._cands: _Candidates = []

    def reset(self) -> None:
        """Forget an action being entered."""
        self.prefix.clear()
        self.pending.clear()
        self._cands = []

    def copy(self) -> TokenEntry:
        """An independent copy (to try tokens ahead without touching this one)."""
        other = TokenEntry()
        other.prefix = list(self.prefix)
        other.pending = list(self.pending)
        other._legal = self._legal
        other._firsts = self._firsts
        other._cands = self._cands
        return other

    # ----- what the prefix can still become ------------------------------------------------
    def _first_tokens(self, legal: Sequence[Action]) -> npt.NDArray[np.int64]:
        if legal is not self._legal:
            self._legal = legal
            self._firsts = np.fromiter((first_token(a) for a in legal), np.int64, len(legal))
            if self.prefix:  # the same actions given anew: recompute the candidates
                k = len(self.prefix)
                p = tuple(self.prefix)
                self._cands = [
                    (s, a) for a in legal if (s := action_tokens(a))[:k] == p and len(s) > k
                ]
        return self._firsts

    def candidates(self, legal: Sequence[Action]) -> list[Action]:
        """The legal actions the prefix can still become (all of them before a first token)."""
        self._first_tokens(legal)
        if not self.prefix:
            return list(legal)
        return [a for _, a in self._cands]

    def allowed(self, legal: Sequence[Action]) -> list[int]:
        """The tokens allowed now, in increasing order."""
        firsts = self._first_tokens(legal)
        if not self.prefix:
            return sorted({int(t) for t in firsts})
        k = len(self.prefix)
        return sorted({s[k] for s, _ in self._cands})

    def mask(self, legal: Sequence[Action], dtype: npt.DTypeLike = np.bool_) -> npt.NDArray[Any]:
        """The allowed tokens as an array of :data:`N_TOKENS` (1 where allowed)."""
        out = np.zeros(N_TOKENS, dtype=dtype)
        firsts = self._first_tokens(legal)
        if not self.prefix:
            out[firsts] = 1
        else:
            k = len(self.prefix)
            for s, _ in self._cands:
                out[s[k]] = 1
        return out

    def allows(self, index: int, legal: Sequence[Action]) -> bool:
        """Whether the token ``index`` is allowed now."""
        firsts = self._first_tokens(legal)
        if not self.prefix:
            return bool((firsts == index).any())
        k = len(self.prefix)
        return any(s[k] == index for s, _ in self._cands)

    def step(self, index: int, legal: Sequence[Action]) -> Action | None:
        """Enter one token; the action it completes, or None while it is still being entered.

        Raises ``ValueError``, naming the allowed tokens, for a token not allowed now.
        """
        token = int(index)
        firsts = self._first_tokens(legal)
        k = len(self.prefix)
        if not k:
            cands = [
                (action_tokens(a), a) for a, f in zip(legal, firsts, strict=True) if f == token
            ]
        else:
            cands = [(s, a) for s, a in self._cands if s[k] == token]
        if not cands:
            allowed = ", ".join(f"{t} ({token_name(t)})" for t in self.allowed(legal))
            shown = f"{token} ({token_name(token)})" if 0 <= token < N_TOKENS else str(token)
            raise ValueError(f"token {shown} is not allowed now; allowed: {allowed or 'none'}")
        self._push(token)
        while len(cands) > 1:
            k = len(self.prefix)
            nexts = {s[k] for s, _ in cands}
            if len(nexts) > 1:
                self._cands = cands
                return None
            self._push(nexts.pop())
        action = cands[0][1]
        self.reset()
        return action

    def _push(self, token: int) -> None:
        self.prefix.append(token)
        if MELD <= token < MELD_END:
            self.pending.append(token - MELD)


# ----------------------------------------------------------------------------------------
# observation
# ----------------------------------------------------------------------------------------

OWN_MELD_SLOTS = 16
"""Own melds described one by one in the compact observation (slots 0-15; a side seldom has
more than a dozen). Later melds count in ``melded_counts`` and take tokens all the same."""

ENTRY_LAYOUT: tuple[tuple[str, int], ...] = (
    ("entry_kind", 3),
    ("entry_cards", N_CODES),
    ("entry_last", N_CODES),
    ("entry_meld", MAX_MELDS),
)
"""The action being entered, last in both observations:

- ``entry_kind``: a new meld, an add or a wild move is being entered (one-hot; zero
  before the first token of an action);
- ``entry_cards``: the cards it names so far, a count per code (a meld's cards, an add's
  card);
- ``entry_last``: the last card named, one-hot (a meld's cards go in order);
- ``entry_meld``: the meld chosen for an add or a move, one-hot.
"""

ENTRY_SIZE = sum(n for _, n in ENTRY_LAYOUT)
"""Numbers of the entry block (183)."""

_FROM_FULL = (
    "hand",
    "hidden_pot",
    "pile_top",
    "pile_size",
    "pile_open",
    "stock",
    "last_turn",
    "taken_top",
    "turn_up_card",
    "first_draw",
    "phase",
    "turn",
    "seat_present",
    "partner",
    "hand_sizes",
    "pot_unplayed",
    "pots",
    "staged_value",
    "must_open",
    "taken_melded",
    "pile_streak",
    "side_present",
    "totals",
    "table_points",
    "vulnerable",
    "requirement",
    "pot_taken",
    "pot_used",
    "cut_points",
    "melded_counts",
    "pile_memory",
)
_FULL = observation_slices()

COMPACT_LAYOUT: tuple[tuple[str, int], ...] = (
    *((name, _FULL[name].stop - _FULL[name].start) for name in _FROM_FULL),
    ("own_melds", OWN_MELD_SLOTS * MELD_SIZE),
    ("known_next", N_CODES),
    ("known_partners", N_CODES),
    ("known_others", N_CODES),
    *ENTRY_LAYOUT,
)
"""The compact observation's blocks, in order, with their sizes. The blocks named as in
:data:`buraco.rl.encoding.OBSERVATION_LAYOUT` are those blocks, the same numbers; the others:

- ``own_melds``: the first :data:`OWN_MELD_SLOTS` slots of the viewer's side's melds
  (the ``melds`` block's, :data:`~buraco.rl.encoding.MELD_SIZE` numbers each);
- ``known_next``, ``known_partners``, ``known_others``: the ``known_cards`` of the next
  seat to play, summed over the viewer's partners, summed over the other seats;
- the entry block (:data:`ENTRY_LAYOUT`).

Left out of the full observation: ``pending`` (the entry block says it), ``pile_counts``
(``pile_memory`` holds an open pile's cards), the other sides' melds one by one (their
``melded_counts`` stay) and the viewer's melds past the first :data:`OWN_MELD_SLOTS`.
"""

COMPACT_SIZE = sum(n for _, n in COMPACT_LAYOUT)
"""Size of the compact observation (1382)."""

OBSERVATIONS = ("compact", "full")
"""The observations of :class:`FactoredEnv`: compact, or the full one and the entry block."""

_GATHER = np.concatenate(
    [
        *(np.arange(_FULL[name].start, _FULL[name].stop) for name in _FROM_FULL),
        np.arange(_FULL["melds"].start, _FULL["melds"].start + OWN_MELD_SLOTS * MELD_SIZE),
    ]
)
_KNOWN = _FULL["known_cards"]
_ENTRY_KIND = {MELD: 0, ADD: 1, MOVE: 2}


def known_groups(players: int, side_of: Sequence[int], seat: int) -> tuple[list[int], list[int]]:
    """The seats after the next one, relative to ``seat``: its partners', and the others'.

    ``side_of`` gives each seat's side. The compact observation sums the ``known_cards`` of
    each group (the next seat has its own block).

    >>> known_groups(4, [0, 1, 0, 1], 0), known_groups(3, [0, 1, 2], 1)
    (([2], [3]), ([], [2]))
    """
    side = side_of[seat]
    partners = [r for r in range(2, players) if side_of[(seat + r) % players] == side]
    return partners, [r for r in range(2, players) if r not in partners]


def compact_observation(
    full: npt.NDArray[np.float32],
    prefix: Sequence[int],
    groups: tuple[Sequence[int], Sequence[int]],
) -> npt.NDArray[np.float32]:
    """The compact observation (:data:`COMPACT_LAYOUT`) of a full one and a token prefix.

    ``full`` is the seat's :class:`~buraco.rl.encoding.ObservationEncoder` vector (with a new
    meld's cards in ``pending``), ``prefix`` the tokens entered so far in the decision and
    ``groups`` the seat's :func:`known_groups`.
    """
    obs = np.zeros(COMPACT_SIZE, dtype=np.float32)
    g_end = len(_GATHER)
    obs[:g_end] = full[_GATHER]
    known = full[_KNOWN].reshape(MAX_PLAYERS, N_CODES)
    obs[g_end : g_end + N_CODES] = known[1]
    partners, others = groups
    if len(partners):
        obs[g_end + N_CODES : g_end + 2 * N_CODES] = known[list(partners)].sum(0)
    if len(others):
        obs[g_end + 2 * N_CODES : g_end + 3 * N_CODES] = known[list(others)].sum(0)
    entry_block(obs[COMPACT_SIZE - ENTRY_SIZE :], prefix)
    return obs


def entry_block(out: npt.NDArray[np.float32], prefix: Sequence[int]) -> None:
    """Write the entry block of ``prefix`` into ``out`` (zeros, :data:`ENTRY_SIZE` long)."""
    if not prefix:
        return
    first = prefix[0]
    cards = out[3 : 3 + N_CODES]
    last = -1
    if first < MELD_END:
        out[0] = 1
        for t in prefix:
            if t < MELD_END:
                cards[t - MELD] += 1
                last = t - MELD
    else:
        if first < MOVE:
            out[1] = 1
            last = first - ADD
            cards[last] = 1
        else:
            out[2] = 1
        if len(prefix) > 1:
            out[3 + 2 * N_CODES + prefix[1] - MELD_INDEX] = 1
    if last >= 0:
        out[3 + N_CODES + last] = 1
