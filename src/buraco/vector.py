"""Batched Buraco: many games stepped together, observations and masks encoded in batch.

:class:`BuracoBatch` holds ``N`` games of one rule set and steps them all at once, one
action index each (the fixed action space of :mod:`buraco.encoding`). After every step it
gives, for each game, the observation of one seat and that seat's legal actions, in two
forms:

- **dense**: a ``float32`` array ``(N, OBS_SIZE)`` and a mask ``(N, N_ACTIONS)``, equal
  row for row to what :class:`buraco.encoding.ObservationEncoder` and
  :meth:`buraco.encoding.ActionCodec.mask` give for the same seat and state;
- **index**: a :class:`CSRBatch` per batch: the non-zero entries of each row (column
  indexes in ascending order, and their values), as a compressed-sparse-row matrix. An
  observation has one or two hundred non-zero numbers out of 9,316 and a position a few
  dozen legal actions out of 19,868, so this form is much smaller; ``scipy.sparse.csr_array(
  (b.values, b.indices, b.indptr), shape=b.shape)`` and ``torch.sparse_csr_tensor(
  b.indptr, b.indices, b.values, b.shape)`` take it as it is.

The index form is built straight from the game state, without a
:class:`~buraco.views.SeatView`, and the dense form is scattered from it.

Two ways to seat the learners:

- **every seat an agent** (``opponents=None``, the default): each step is one decision
  of the seat to move in each game, and the observation is that seat's (as in
  :mod:`buraco.pettingzoo`, where the agent to move is the one observed). Game ``i`` of
  ``reset(seed=s)`` plays the same deal as ``buraco.pettingzoo.raw_env`` reset with seed
  ``s + i``.
- **one seat against bots** (``opponents`` a bot spec, or one per other seat): seat
  ``seat`` learns and bots play the others between its decisions, as in
  :class:`buraco.gymnasium.BuracoEnv`; game ``i`` of ``reset(seed=s)`` is that
  environment reset with seed ``s + i``.

:class:`BuracoVectorEnv` is the same batch as a Gymnasium vector environment
(``gymnasium.vector.VectorEnv``), with Gymnasium's three autoreset modes.

>>> batch = BuracoBatch(3, players=4)
>>> batch.reset(seed=0)
>>> obs, legal = batch.observations("index"), batch.legal_actions()
>>> obs.shape, legal.shape
((3, 9316), (3, 19868))
>>> rewards, terminated, illegal = batch.step(random_actions(legal, np.random.default_rng(0)))
>>> bool(terminated.any()), bool(illegal.any())
(False, False)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import compress
from operator import is_
from typing import Any, Literal, NamedTuple

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from buraco.actions import (
    Action,
    Add,
    Discard,
    Draw,
    Meld,
    MoveWild,
    TakePile,
    TurnUp,
)
from buraco.bots import make_bot
from buraco.bots.base import Bot
from buraco.cards import JOKER, N_CODES, Card
from buraco.encoding import (
    ADD,
    DISCARD,
    DRAW,
    MAX_MELDS,
    MAX_PLAYERS,
    MELD_CARD,
    MELD_END,
    MELD_FEATURES,
    MELD_SIZE,
    MOVE,
    N_ACTIONS,
    N_PLACES,
    OBS_SIZE,
    TAKE_PILE,
    TURN_UP,
    check_rules,
    hand_rewards,
    observation_slices,
)
from buraco.game import MAX_SEED, Event, Game, Phase
from buraco.rules import Rules, make_rules
from buraco.views import MeldView, seat_view, table_views

__all__ = [
    "BuracoBatch",
    "BuracoVectorEnv",
    "CSRBatch",
    "IndexEncoder",
    "random_actions",
]

Form = Literal["dense", "index"]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float32]

OBS_BOUND = 1e4
"""Bound of the observation box (as :data:`buraco.pettingzoo.OBS_BOUND`)."""

_PZ_SEED_BOUND = min(MAX_SEED, 2**63 - 1)  # game seeds as buraco.pettingzoo draws them
_GYM_SEED_BOUND = 2**62  # game and bot seeds as buraco.gymnasium draws them


class CSRBatch(NamedTuple):
    """Rows of a sparse batch in compressed-sparse-row form.

    Row ``i`` holds the entries ``indices[indptr[i]:indptr[i+1]]`` (ascending column
    indexes) with values ``values[indptr[i]:indptr[i+1]]``; every other entry is zero.
    """

    indptr: npt.NDArray[np.int32]
    """``N + 1`` offsets into ``indices`` and ``values`` (the same type as ``indices``, as
    PyTorch's sparse CSR tensors ask)."""
    indices: npt.NDArray[np.int32]
    """Column indexes of the non-zero entries, row after row, ascending within a row."""
    values: npt.NDArray[Any]
    """The entries' values (``float32`` observations; ``int8`` ones for legal actions)."""
    shape: tuple[int, int]
    """The dense shape ``(N, width)``."""

    def row(self, i: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[Any]]:
        """Row ``i``'s column indexes and values."""
        a, b = int(self.indptr[i]), int(self.indptr[i + 1])
        return self.indices[a:b], self.values[a:b]

    def counts(self) -> npt.NDArray[np.int32]:
        """Non-zero entries per row."""
        return np.diff(self.indptr)

    def to_dense(self, dtype: npt.DTypeLike | None = None) -> npt.NDArray[Any]:
        """The dense ``(N, width)`` array (of ``dtype``, by default the values' type)."""
        out = np.zeros(self.shape, dtype=self.values.dtype if dtype is None else dtype)
        rows = np.repeat(np.arange(self.shape[0]), self.counts())
        out[rows, self.indices] = self.values
        return out


def _indptr(counts: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """The row offsets of rows of these lengths."""
    out = np.zeros(len(np.asarray(counts)) + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    if out[-1] >= 2**31:
        raise ValueError("a batch holds fewer than 2**31 entries: use fewer games")
    return out.astype(np.int32)


def random_actions(legal: CSRBatch, rng: np.random.Generator) -> IntArray:
    """One legal action index per row of ``legal``, uniformly at random (0 for an empty row).

    ``legal`` is :meth:`BuracoBatch.legal_actions` (or ``info["legal_actions"]`` of
    :class:`BuracoVectorEnv`).
    """
    counts = legal.counts()
    pick = legal.indptr[:-1] + (rng.random(len(counts)) * counts).astype(np.int64)
    out = np.zeros(len(counts), dtype=np.int64)
    has = counts > 0
    out[has] = legal.indices[pick[has]]
    return out


# ----------------------------------------------------------------------------------------
# observation: index form
# ----------------------------------------------------------------------------------------

_S = {name: s.start for name, s in observation_slices().items()}
_HIDDEN_POT = _S["hidden_pot"]
_PENDING = _S["pending"]
_PILE_COUNTS = _S["pile_counts"]
_PILE_TOP = _S["pile_top"]
_PILE_SIZE = _S["pile_size"]
_PILE_OPEN = _S["pile_open"]
_STOCK = _S["stock"]
_LAST_TURN = _S["last_turn"]
_TAKEN_TOP = _S["taken_top"]
_TURN_UP_CARD = _S["turn_up_card"]
_FIRST_DRAW = _S["first_draw"]
_PHASE = _S["phase"]
_TURN = _S["turn"]
_SEAT_PRESENT = _S["seat_present"]
_PARTNER = _S["partner"]
_HAND_SIZES = _S["hand_sizes"]
_POT_UNPLAYED = _S["pot_unplayed"]
_POTS = _S["pots"]
_STAGED_VALUE = _S["staged_value"]
_MUST_OPEN = _S["must_open"]
_TAKEN_MELDED = _S["taken_melded"]
_PILE_STREAK = _S["pile_streak"]
_SIDE_PRESENT = _S["side_present"]
_TOTALS = _S["totals"]
_TABLE_POINTS = _S["table_points"]
_VULNERABLE = _S["vulnerable"]
_REQUIREMENT = _S["requirement"]
_POT_TAKEN = _S["pot_taken"]
_POT_USED = _S["pot_used"]
_CUT_POINTS = _S["cut_points"]
_MELDED_COUNTS = _S["melded_counts"]
_MELDS = _S["melds"]
_PILE_MEMORY = _S["pile_memory"]
_KNOWN_CARDS = _S["known_cards"]
_SIDE_MELDS = MAX_MELDS * MELD_SIZE

_F: dict[str, int] = {}
_pos = 0
for _name, _size in MELD_FEATURES:
    _F[_name] = _pos
    _pos += _size
_MOVED = _F["moved"]
_F_RUN = _F["run"]
_F_SUIT = _F["suit"]
_F_LOW = _F["low"]
_F_HIGH = _F["high"]
_F_RANK = _F["rank"]
_F_SET_SUITS = _F["set_suits"]
_F_SIZE = _F["size"]
_F_WILD = _F["wild"]
_F_WILD_JOKER = _F["wild_joker"]
_F_WILD_POS = _F["wild_pos"]
_F_CANASTRA = _F["canastra"]
_F_STAGED = _F["staged"]
_F_BONUS_POINTS = _F["bonus_points"]
_F_POINTS = _F["points"]
_CODES = range(N_CODES)
_HAND_SIZES_AT = range(_HAND_SIZES, _HAND_SIZES + MAX_PLAYERS)
_OVER = int(Phase.OVER)


_EMPTY_I = np.zeros(0, dtype=np.int32)
_EMPTY_F = np.zeros(0, dtype=np.float32)


def _meld_features(mv: MeldView) -> tuple[list[int], list[float]]:
    """A meld slot's non-zero features: offsets in the slot and values.

    The same numbers as :class:`buraco.encoding.ObservationEncoder` puts in a meld slot
    (here in double precision; they become the same ``float32`` numbers).
    """
    f = [0.0] * MELD_SIZE
    f[0] = 1.0
    cards = mv.cards
    if mv.run:
        f[_F_RUN] = 1.0
        f[_F_SUIT + mv.suit] = 1.0
        f[_F_LOW] = mv.lo / 13
        f[_F_HIGH] = mv.hi / 13
    else:
        f[_F_RANK + mv.rank] = 1.0
        for j, c in enumerate(cards):
            if j != mv.wild:
                f[_F_SET_SUITS + c // 13] += 0.25
    f[_F_SIZE] = len(cards) / 14
    if mv.wild is not None:
        f[_F_WILD] = 1.0
        f[_F_WILD_JOKER] = float(cards[mv.wild] == JOKER)
        if mv.run:
            f[_F_WILD_POS] = (mv.lo + mv.wild) / 13
    f[_F_CANASTRA] = float(mv.canastra)
    f[_F_STAGED] = float(mv.staged)
    f[_F_BONUS_POINTS] = mv.bonus_points / 1000
    f[_F_POINTS] = mv.points / 100
    offsets = [j for j in range(MELD_SIZE) if f[j]]
    return offsets, [f[j] for j in offsets]


class _History:
    """What every seat has seen of a hand: the pile as built, the cards known in hands.

    The cards known in a seat's hand are those it took with the pile and has not played
    since. Follows the events of a hand as :class:`buraco.encoding.ObservationEncoder` does
    (none of it is private to a seat). ``changed[s]`` counts the changes of
    ``known[s]``, and ``version`` all of them.
    """

    __slots__ = ("changed", "done", "events", "known", "pile", "rows", "turn_cards", "version")

    def __init__(self, events: list[Event], upcard: Card, players: int) -> None:
        self.events = events
        self.done = 0
        self.version = 0
        self.changed = [0] * players
        self.pile: list[Card] = [upcard] if upcard >= 0 else []
        self.known: list[dict[Card, int]] = [{} for _ in range(players)]
        self.turn_cards: list[Card] = []
        self.rows: dict[int, tuple[int, list[int], list[float]]] = {}

    def follow(self) -> None:
        """Read the events not read yet."""
        events = self.events
        changed = self.changed
        for e in events[self.done :]:
            a = e.action
            t = type(a)
            seat = e.seat
            hand = self.known[seat]
            if t is Discard:
                assert isinstance(a, Discard)
                self.pile.append(a.card)
                if hand.get(a.card, 0):
                    hand[a.card] -= 1
                    changed[seat] += 1
            elif t is TurnUp:
                self.pile.extend(e.cards)
            elif t is TakePile:
                for c in self.pile:
                    hand[c] = hand.get(c, 0) + 1
                self.pile = []
                self.turn_cards = []
                changed[seat] += 1
            elif t is Draw:
                self.turn_cards = []
            elif t is Meld or t is Add:
                assert isinstance(a, Meld | Add)
                for c in a.cards if isinstance(a, Meld) else (a.card,):
                    self.turn_cards.append(c)
                    if hand.get(c, 0):
                        hand[c] -= 1
                        changed[seat] += 1
            elif a is None and e.note.startswith("opening short"):
                for c in self.turn_cards:
                    hand[c] = hand.get(c, 0) + 1
                changed[seat] += 1
            elif a is None and e.note.startswith("took the morto"):
                hand.clear()
                changed[seat] += 1
        self.done = len(events)
        self.version = sum(changed)

    def row(self, seat: int) -> tuple[list[int], list[float]]:
        """The cards ``seat`` is known to hold: (ascending codes, counts)."""
        cached = self.rows.get(seat)
        if cached is not None and cached[0] == self.changed[seat]:
            return cached[1], cached[2]
        held = self.known[seat]
        codes = [c for c in sorted(held) if held[c] > 0]
        values = [float(held[c]) for c in codes]
        self.rows[seat] = (self.changed[seat], codes, values)
        return codes, values


class _PileCounts:
    """A pile's cards, a count per code, kept as the pile grows (a new list starts again).

    ``counts`` and ``memory`` are the entries of the ``pile_counts`` and ``pile_memory``
    blocks: (indexes, values).
    """

    __slots__ = ("cards", "cnt", "counts", "memory", "seen")

    def __init__(self) -> None:
        self.cards: list[Card] | None = None
        self.seen = 0
        self.cnt = [0] * N_CODES
        self.counts: tuple[list[int], list[float]] = ([], [])
        self.memory: tuple[list[int], list[float]] = ([], [])

    def update(self, cards: list[Card]) -> None:
        """Catch up with ``cards`` (the same list grown, or another list).

        The lists of ``counts`` and ``memory`` are new ones after a change, never changed
        in place.
        """
        if cards is self.cards and self.seen == len(cards):
            return
        cnt = self.cnt
        if cards is not self.cards or self.seen > len(cards):
            self.cards = cards
            self.seen = len(cards)
            cnt = self.cnt = [0] * N_CODES
            for c in cards:
                cnt[c] += 1
            codes = list(compress(_CODES, cnt))
            values = [_FLOATS[cnt[c]] for c in codes]
            self.counts = ([_PILE_COUNTS + c for c in codes], values)
            self.memory = ([_PILE_MEMORY + c for c in codes], values)
            return
        (ci, values), mi = self.counts, self.memory[0]
        for c in cards[self.seen :]:  # the pile grew by a card or two
            cnt[c] += 1
            at = bisect_left(ci, _PILE_COUNTS + c)
            if cnt[c] == 1:
                ci = [*ci[:at], _PILE_COUNTS + c, *ci[at:]]
                mi = [*mi[:at], _PILE_MEMORY + c, *mi[at:]]
                values = [*values[:at], 1.0, *values[at:]]
            else:
                values = [*values[:at], _FLOATS[cnt[c]], *values[at + 1 :]]
        self.seen = len(cards)
        self.counts = (ci, values)
        self.memory = (mi, values)


Table = tuple[npt.NDArray[np.int32], FloatArray]
"""The meld blocks: indexes and values."""
Parts = tuple[list[int], list[float], Table, list[int], list[float]]
Listed = tuple[list[int], list[float]]


class IndexEncoder:
    """The observation of :class:`buraco.encoding.ObservationEncoder` in index form.

    :meth:`encode` reads a game directly and returns the non-zero entries of the seat's
    observation (of its full view, with ``pending`` the meld prefix being entered), in
    ascending index order: ``encode(game, seat, pending)`` scattered into zeros is
    ``ObservationEncoder().encode(seat_view(game, seat, full=True), pending)``.

    One encoder follows one game at a time (it keeps that hand's history and what it
    built from it); a new hand or another game starts it afresh.
    """

    def __init__(self) -> None:
        self._history: _History | None = None
        self._pile = _PileCounts()
        self._memory = _PileCounts()
        self._seats: dict[int, tuple[tuple[int, ...], Listed]] = {}
        self._public: dict[int, tuple[Any, Any, list[bool], list[int], Listed]] = {}
        self._tables: dict[int, tuple[tuple[tuple[MeldView, ...], ...], set[int], Table]] = {}
        self._sides: dict[
            int, tuple[tuple[MeldView, ...], list[int], tuple[Any, Any, Any, Any]]
        ] = {}
        self._melds: dict[tuple[int, int], tuple[MeldView, list[int], list[float]]] = {}
        self._known: dict[tuple[int, int], tuple[int, list[int], list[float]]] = {}
        self._after: dict[int, tuple[list[int], list[float], int, list[int], list[float]]] = {}

    def encode(
        self, g: Game, seat: int, pending: Sequence[Card] = ()
    ) -> tuple[npt.NDArray[np.int32], FloatArray]:
        """The seat's observation as (ascending indexes, values) of its non-zero entries."""
        return _join(self.parts(g, seat, pending))

    def parts(
        self, g: Game, seat: int, pending: Sequence[Card] = ()
    ) -> tuple[list[int], list[float], Table, list[int], list[float]]:
        """The observation in three pieces, in index order.

        The entries before the meld blocks (lists of indexes and values), the meld blocks
        (arrays, see :data:`Table`), and the entries after them (lists); :meth:`encode`
        joins them.
        """
        ix: list[int] = []
        vx: list[float] = []
        ia = ix.append
        va = vx.append
        n = g.n
        me = seat
        over = g.phase == _OVER
        pile_open = g.rules.pile_open
        history = self._follow(g)  # first: a new hand starts the encoder afresh
        # own hand
        if g.hidden[me]:
            size = g.sizes[me]
            if size:
                ia(_HIDDEN_POT)
                va(size / 10)
        else:
            h = g.hands[me]
            ix += compress(_CODES, h)
            vx += compress(h, h)  # the counts themselves (whole numbers, made float32 later)
        for i, c in enumerate(pending):
            ia(_PENDING + i * N_CODES + c)
            va(1.0)
        # the pile
        pile = g.pile
        if pile_open:
            self._pile.update(pile)
        if pile:
            if pile_open:
                ix += self._pile.counts[0]
                vx += self._pile.counts[1]
            ia(_PILE_TOP + pile[-1])
            va(1.0)
            ia(_PILE_SIZE)
            va(len(pile) / 10)
        if pile_open:
            ia(_PILE_OPEN)
            va(1.0)
        if g.stock:
            ia(_STOCK)
            va(len(g.stock) / 10)
        if g.last_turn:
            ia(_LAST_TURN)
            va(1.0)
        if g.taken_top >= 0 and not over:
            ia(_TAKEN_TOP + g.taken_top)
            va(1.0)
        if g.first_card >= 0 and g.turn == me:
            ia(_TURN_UP_CARD + g.first_card)
            va(1.0)
        if g.first_draw:
            ia(_FIRST_DRAW)
            va(1.0)
        ia(_PHASE + g.phase)
        va(1.0)
        if not over:
            ia(_TURN + (g.turn - me) % n)
            va(1.0)
        # seats, relative to the viewer
        own = g.side_of[me]
        seats = self._seats.get(me)
        if seats is None:
            mates = g.side_seats[own]
            six = [_SEAT_PRESENT + r for r in range(n)]
            six += [_PARTNER + r for r in range(n) if (me + r) % n in mates]
            seats = self._seats[me] = (mates, (six, [1.0] * len(six)))
        ix += seats[1][0]
        vx += seats[1][1]
        sizes = g.sizes[me:] + g.sizes[:me]  # relative to the viewer
        ix += compress(_HAND_SIZES_AT, sizes)
        vx += [x / 10 for x in sizes if x]
        unplayed = g.unplayed
        if any(unplayed):
            for r in range(n):
                if unplayed[(me + r) % n]:
                    ia(_POT_UNPLAYED + r)
                    va(1.0)
        rare = g.public_cache
        if rare is None:  # the engine's cache of these, filled as buraco.views does
            rare = g.public_cache = (
                tuple([len(p) for p in g.pots]),
                tuple(g.pot_taken),
                tuple(g.totals),
                tuple(g.vulnerable),
                tuple([0 if o else q for o, q in zip(g.opened, g.requirement, strict=True)]),
            )
        for i, x in enumerate(rare[0]):
            if x:
                ia(_POTS + i)
                va(x / 10)
        if g.staged_value:
            ia(_STAGED_VALUE)
            va(g.staged_value / 100)
        if g.must_open:
            ia(_MUST_OPEN)
            va(1.0)
        if g.taken_melded:
            ia(_TAKEN_MELDED)
            va(1.0)
        if g.pile_streak:
            ia(_PILE_STREAK)
            va(g.pile_streak / 10)
        # sides, relative to the viewer's (kept while they stay the same)
        melds, points = table_views(g)
        public = self._public.get(own)
        if (
            public is None
            or public[0] is not rare
            or public[1] is not points
            or public[2] != g.pot_used
            or public[3] != g.cut_points
        ):
            public = self._public[own] = (
                rare,
                points,
                list(g.pot_used),
                list(g.cut_points),
                _public_block(g.k, own, rare, points, g.pot_used, g.cut_points),
            )
        ix += public[4][0]
        vx += public[4][1]
        # the meld blocks
        table = self._table(g.k, own, melds, g.moved)
        # what the history shows: the whole pile, and cards known in other hands
        if pile_open:
            after = self._pile.memory  # the whole pile is in sight
        else:
            self._memory.update(history.pile)
            after = self._memory.memory
        ib = after[0]
        vb = after[1]
        if history.version:
            cached = self._after.get(me)
            if (
                cached is not None
                and cached[0] is ib
                and cached[1] is vb
                and cached[2] == history.version
            ):
                ib, vb = cached[3], cached[4]
            else:
                key = (ib, vb)
                ib = list(ib)
                vb = list(vb)
                changed = history.changed
                for r in range(1, n):
                    s = (me + r) % n
                    if changed[s]:
                        block = self._known.get((s, r))
                        if block is None or block[0] != changed[s]:
                            codes, values = history.row(s)
                            row = _KNOWN_CARDS + r * N_CODES
                            block = self._known[(s, r)] = (
                                changed[s],
                                [row + c for c in codes],
                                values,
                            )
                        ib += block[1]
                        vb += block[2]
                self._after[me] = (*key, history.version, ib, vb)
        return ix, vx, table, ib, vb

    @staticmethod
    def with_pending(
        parts: tuple[list[int], list[float], Table, list[int], list[float]],
        pending: Sequence[Card],
    ) -> tuple[list[int], list[float], Table, list[int], list[float]]:
        """The same observation with another meld prefix (the rest of the game unchanged)."""
        ix, vx, table, ib, vb = parts
        a = bisect_left(ix, _PENDING)
        b = bisect_left(ix, _PILE_COUNTS, a)
        pix = [_PENDING + i * N_CODES + c for i, c in enumerate(pending)]
        return ix[:a] + pix + ix[b:], vx[:a] + [1.0] * len(pix) + vx[b:], table, ib, vb

    def _follow(self, g: Game) -> _History:
        history = self._history
        events = g.events
        if history is None or history.events is not events or history.done > len(events):
            history = self._history = _History(events, g.upcard, g.n)
            # a new hand (or game): what was kept of the last one goes
            self._known.clear()
            self._after.clear()
            self._melds.clear()
            self._sides.clear()
            self._tables.clear()
            self._public.clear()
            self._seats.clear()
        if history.done < len(events):
            history.follow()
        return history

    def _table(
        self, k: int, own: int, melds: tuple[tuple[MeldView, ...], ...], moved: set[int]
    ) -> Table:
        """The ``melded_counts`` and ``melds`` blocks seen from side ``own``.

        Each side's entries are kept while its melds stay the same (the engine keeps a
        meld's view until the meld changes), relative to the side's slot; here they are
        put at their places, and the wild moves of the turn in on the way.
        """
        cached = self._tables.get(own)
        if cached is None or cached[0] is not melds or cached[1] != moved:
            order = _ORDERS[k][own]
            sides = [self._side(side, melds[side]) for side in order]
            offsets = [_MELDED_COUNTS + r * N_CODES for r in range(k)]
            offsets += [_MELDS + r * _SIDE_MELDS for r in range(k)]
            arrays_i = [c for c, _, _, _ in sides] + [m for _, _, m, _ in sides]
            ci = np.concatenate([a + o for a, o in zip(arrays_i, offsets, strict=True)])
            cv = np.concatenate([v for _, v, _, _ in sides] + [v for _, _, _, v in sides])
            if moved and melds[own]:
                extra = np.array(
                    sorted(_MELDS + i * MELD_SIZE + _MOVED for i in moved), dtype=np.int32
                )
                at = np.searchsorted(ci, extra)
                ci = np.insert(ci, at, extra)
                cv = np.insert(cv, at, np.ones(len(extra), dtype=np.float32))
            table = (ci.astype(np.int32, copy=False), cv)
            cached = self._tables[own] = (melds, set(moved), table)
        return cached[2]

    def _side(
        self, side: int, melds: tuple[MeldView, ...]
    ) -> tuple[npt.NDArray[np.int32], FloatArray, npt.NDArray[np.int32], FloatArray]:
        """A side's melded cards (codes, counts) and meld slots (indexes, values).

        The slots' indexes count from the side's first slot. Kept while the side's melds
        are the same views.
        """
        cached = self._sides.get(side)
        if cached is not None and (
            cached[0] is melds or (len(cached[0]) == len(melds) and all(map(is_, cached[0], melds)))
        ):
            return cached[2]
        # the melded cards: those of the melds that changed taken out, the new ones put in
        melds = melds[:MAX_MELDS]
        if cached is None:
            old: tuple[MeldView, ...] = ()
            cards = [0] * N_CODES
        else:
            old = cached[0]
            cards = list(cached[1])
        for i in range(max(len(old), len(melds))):
            was = old[i] if i < len(old) else None
            now = melds[i] if i < len(melds) else None
            if was is not now:
                if was is not None:
                    for c in was.cards:
                        cards[c] -= 1
                if now is not None:
                    for c in now.cards:
                        cards[c] += 1
        mix: list[int] = []
        mvx: list[float] = []
        cache = self._melds
        for i, mv in enumerate(melds):
            slot = i * MELD_SIZE
            feats = cache.get((slot, id(mv)))
            if feats is None or feats[0] is not mv:
                offsets, values = _meld_features(mv)
                feats = cache[(slot, id(mv))] = (mv, [slot + j for j in offsets], values)
            mix += feats[1]
            mvx += feats[2]
        codes = list(compress(_CODES, cards))
        out = (
            np.fromiter(codes, np.int32, len(codes)),
            np.fromiter([cards[c] for c in codes], np.float32, len(codes)),
            np.fromiter(mix, np.int32, len(mix)),
            np.fromiter(mvx, np.float32, len(mvx)),
        )
        self._sides[side] = (melds, cards, out)
        return out


def _join(parts: Parts) -> tuple[npt.NDArray[np.int32], FloatArray]:
    """One observation's pieces (:meth:`IndexEncoder.parts`) as (indexes, values)."""
    ia, va, (ti, tv), ib, vb = parts
    return (
        np.concatenate(
            [np.fromiter(ia, np.int32, len(ia)), ti, np.fromiter(ib, np.int32, len(ib))]
        ),
        np.concatenate(
            [np.fromiter(va, np.float32, len(va)), tv, np.fromiter(vb, np.float32, len(vb))]
        ),
    )


def _public_block(
    k: int,
    own: int,
    rare: tuple[tuple[int, ...], ...],
    points: tuple[int, ...],
    pot_used: list[bool],
    cut_points: list[int],
) -> Listed:
    """The per-side blocks from ``side_present`` to ``cut_points``, seen from ``own``."""
    ix: list[int] = []
    vx: list[float] = []
    order = _ORDERS[k][own]
    ix += [_SIDE_PRESENT + r for r in range(k)]
    vx += [1.0] * k
    _, pot_taken, totals, vulnerable, requirement = rare
    for base, values, scale in (
        (_TOTALS, totals, 1000),
        (_TABLE_POINTS, points, 1000),
        (_VULNERABLE, vulnerable, 1),
        (_REQUIREMENT, requirement, 100),
        (_POT_TAKEN, pot_taken, 1),
        (_POT_USED, pot_used, 1),
        (_CUT_POINTS, cut_points, 1000),
    ):
        for r, side in enumerate(order):
            x = values[side]
            if x:
                ix.append(base + r)
                vx.append(x / scale)
    return ix, vx


_FLOATS = [float(i) for i in range(256)]
_ORDERS = {k: [tuple((own + r) % k for r in range(k)) for own in range(k)] for k in range(1, 4)}


# ----------------------------------------------------------------------------------------
# legal actions: index form, and meld entry
# ----------------------------------------------------------------------------------------


class _Entry:
    """One game's legal action indexes and the meld being entered card by card.

    The same mask as :meth:`buraco.encoding.MeldEntry.mask`, as sorted indexes, and the
    same steps as :meth:`buraco.encoding.MeldEntry.step`.
    """

    __slots__ = ("actions", "indices", "pending", "tokens")

    def __init__(self) -> None:
        self.actions: dict[int, Action] = {}
        self.tokens: dict[int, list[Meld]] = {}
        self.pending: list[Card] = []
        self.indices: list[int] = []

    def clear(self) -> None:
        """No legal action (not this seat's turn, or the hand is over)."""
        self.actions = {}
        self.tokens = {}
        self.pending = []
        self.indices = []

    def load(self, legal: Sequence[Action]) -> None:
        """A new position: its legal actions, no meld pending."""
        actions: dict[int, Action] = {}
        melds: list[Meld] = []
        for a in legal:
            if isinstance(a, Discard):
                actions[DISCARD + a.card] = a
            elif isinstance(a, Add):
                actions[ADD + (a.meld * N_CODES + a.card) * N_PLACES + a.place] = a
            elif isinstance(a, Meld):
                melds.append(a)
            elif isinstance(a, Draw):
                actions[DRAW] = a
            elif isinstance(a, TakePile):
                actions[TAKE_PILE] = a
            elif isinstance(a, TurnUp):
                actions[TURN_UP] = a
            elif isinstance(a, MoveWild):
                actions[MOVE + a.meld * 2 + a.to - 1] = a
            else:
                raise ValueError(f"not an action: {a!r}")
        self.actions = actions
        self.pending = []
        self._group(melds)
        self.indices = sorted([*actions, *self.tokens])

    def _group(self, melds: list[Meld]) -> None:
        """The melds that extend the pending prefix, grouped by their next token."""
        k = len(self.pending)
        tokens: dict[int, list[Meld]] = {}
        for m in melds:
            cards = m.cards
            if len(cards) == k:
                tokens[MELD_END] = [m]
            else:
                t = MELD_CARD + cards[k]
                group = tokens.get(t)
                if group is None:
                    tokens[t] = [m]
                else:
                    group.append(m)
        self.tokens = tokens

    def step(self, index: int) -> Action | None:
        """Take one index: the action it completes, or None while a meld is being entered.

        Raises ``ValueError`` for an index that is not legal now.
        """
        if not self.pending:
            a = self.actions.get(index)
            if a is not None:
                return a
        group = self.tokens.get(index)
        if group is None:
            raise ValueError(f"action index {index} is not legal now")
        if index == MELD_END:
            self.pending = []
            return group[0]
        self.pending.append(index - MELD_CARD)
        self.actions = {}
        self._group(group)
        self.indices = sorted(self.tokens)
        return None


# ----------------------------------------------------------------------------------------
# the batch
# ----------------------------------------------------------------------------------------


class _Slot:
    """One game of a batch and what goes with it."""

    __slots__ = ("bots", "encoder", "entry", "game", "obs", "rng", "seat")

    def __init__(self) -> None:
        self.game: Game | None = None
        self.rng = np.random.default_rng()
        self.bots: dict[int, Bot] = {}
        self.entry = _Entry()
        self.encoder = IndexEncoder()
        self.seat = 0
        self.obs: Parts = ([], [], (_EMPTY_I, _EMPTY_F), [], [])
        """The observation's pieces (see :meth:`IndexEncoder.parts`)."""


def _seeds(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    """Per-game seeds: ``seed + i`` for an int (as Gymnasium's vector environments)."""
    if seed is None:
        return [None] * n
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer | Sequence):
        raise ValueError(f"a seed is a whole number from 0, a list of them, or None; not {seed!r}")
    if isinstance(seed, int | np.integer):
        if seed < 0:
            raise ValueError(f"a seed is a whole number from 0, not {seed}")
        return [int(seed) + i for i in range(n)]
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"give one seed per game ({n}), not {len(seeds)}")
    for s in seeds:
        if s is not None and (type(s) is not int or s < 0):
            raise ValueError(f"a seed is a whole number from 0 or None, not {s!r}")
    return seeds


class BuracoBatch:
    """``num_games`` games of one rule set, stepped together (see the module docstring).

    ``opponents``: None (every seat an agent), a bot spec for every other seat, or one
    spec per other seat in seat order; ``seat``: the learning seat when there are
    opponents. ``match``: an episode is a whole match instead of one hand. Rewards: at the
    end of a hand, each seat's side's hand score minus the best other side's, divided by
    ``reward_scale``. An illegal action index ends that game's episode with
    ``illegal_reward`` for the seat that gave it. ``options`` are rule options.
    """

    def __init__(
        self,
        num_games: int,
        preset: str = "aberto",
        players: int = 4,
        opponents: str | Sequence[str] | None = None,
        seat: int = 0,
        match: bool = False,
        reward_scale: float = 1000.0,
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        if type(num_games) is not int or num_games < 1:
            raise ValueError(f"num_games is a whole number from 1, not {num_games!r}")
        self.rules: Rules = make_rules(preset, players=players, **options)
        check_rules(self.rules)
        n = self.rules.players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat is a number from 0 to {n - 1}, not {seat!r}")
        self.specs: list[str] | None = None
        if opponents is not None:
            specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
            if len(specs) != n - 1:
                raise ValueError(f"give one opponent spec, or {n - 1} (one per other seat)")
            for spec in specs:
                make_bot(spec)  # refuse a bad spec now
            self.specs = specs
        if type(match) is not bool:
            raise ValueError(f"match is True or False, not {match!r}")
        self.num_games = num_games
        self.agent_seat = seat
        self.match = match
        self.reward_scale = float(reward_scale)
        self.illegal_reward = float(illegal_reward)
        self.players = n
        self._slots = [_Slot() for _ in range(num_games)]
        self.seats: IntArray = np.zeros(num_games, dtype=np.int64)
        """The seat each game's observation is of: the seat to move (every seat an agent;
        at the end of an episode, the seat that acted last), or the learning seat."""
        self.done: npt.NDArray[np.bool_] = np.ones(num_games, dtype=np.bool_)
        """Games whose episode is over (they take no step until reset)."""
        self._obs_buf: FloatArray | None = None
        self._obs_prev: IntArray = np.zeros(0, dtype=np.int64)
        self._mask_buf: npt.NDArray[np.int8] | None = None
        self._mask_prev: IntArray = np.zeros(0, dtype=np.int64)
        self._kinds = np.tile(np.array([True, False, True]), num_games)

    @property
    def games(self) -> list[Game]:
        """The games (after :meth:`reset`)."""
        out = []
        for slot in self._slots:
            assert slot.game is not None, "call reset() first"
            out.append(slot.game)
        return out

    @property
    def pending(self) -> list[tuple[Card, ...]]:
        """Each game's meld prefix being entered (empty when none)."""
        return [tuple(slot.entry.pending) for slot in self._slots]

    # ----- episodes ----------------------------------------------------------------------
    def reset(
        self,
        seed: int | Sequence[int | None] | None = None,
        games: npt.NDArray[np.bool_] | None = None,
    ) -> None:
        """Deal a new episode in every game, or in the games where ``games`` is true.

        ``seed``: an int (game ``i`` takes ``seed + i``), one seed per game, or None (go
        on with each game's own random stream, or fresh entropy the first time).
        """
        seeds = _seeds(seed, self.num_games)
        if games is not None:
            games = np.asarray(games)
            if games.shape != (self.num_games,) or games.dtype != np.bool_:
                raise ValueError(f"games is a boolean array of shape ({self.num_games},)")
        for i, slot in enumerate(self._slots):
            if games is None or games[i]:
                self._reset_slot(i, slot, seeds[i])

    def _reset_slot(self, i: int, slot: _Slot, seed: int | None) -> None:
        if seed is not None:
            slot.rng = np.random.default_rng(seed)
        slot.entry.pending = []
        if self.specs is None:
            slot.game = g = Game(
                self.rules, seed=int(slot.rng.integers(0, _PZ_SEED_BOUND)), match=self.match
            )
            slot.bots = {}
            assert g.turn is not None
            slot.seat = g.turn
        else:
            me = self.agent_seat
            while True:  # as buraco.gymnasium: deal again if the hand ends before the agent plays
                game_seed = int(slot.rng.integers(0, _GYM_SEED_BOUND))
                slot.game = g = Game(self.rules, seed=game_seed, match=self.match)
                others = [s for s in range(self.players) if s != me]
                slot.bots = {
                    s: make_bot(spec, seed=int(slot.rng.integers(0, _GYM_SEED_BOUND)))
                    for s, spec in zip(others, self.specs, strict=True)
                }
                for b in slot.bots.values():
                    b.new_hand()
                self._run_bots(slot, None)
                if not g.is_hand_over():
                    break
            slot.seat = me
        self.done[i] = False
        self.seats[i] = slot.seat
        self._observe(slot)

    def _run_bots(self, slot: _Slot, rewards: npt.NDArray[np.float64] | None) -> None:
        """Bots play until the learning seat is to move or the episode ends."""
        g = slot.game
        assert g is not None
        me = self.agent_seat
        while True:
            if g.is_hand_over():
                if rewards is not None:
                    rewards += hand_rewards(g, self.reward_scale)
                if self.match and not g.is_over():
                    g.next_hand()
                    for b in slot.bots.values():
                        b.new_hand()
                    continue
                return
            turn = g.turn
            if turn == me:
                return
            bot = slot.bots[turn]
            view = seat_view(g, turn, full=bot.wants_full_view)
            g.apply(bot.choose(view, view.legal))

    def _observe(self, slot: _Slot) -> None:
        """Encode the observed seat's observation and legal actions."""
        g = slot.game
        assert g is not None
        entry = slot.entry
        if not entry.pending:
            if g.phase == _OVER or g.turn != slot.seat:
                entry.clear()
            else:
                entry.load(g.legal_actions())
        slot.obs = slot.encoder.parts(g, slot.seat, entry.pending)

    def step(
        self, actions: npt.ArrayLike, skip: npt.NDArray[np.bool_] | None = None
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Each game takes one action index (the observed seat's); games in ``skip`` don't.

        Returns per game: every seat's reward from this step (``(N, players)``), whether
        its episode ended, and whether its action was illegal (which ends it). Raises
        ``RuntimeError`` for a game whose episode is over and is not skipped.
        """
        acts = np.asarray(actions)
        if acts.shape != (self.num_games,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"give one whole action index per game: an integer array of shape "
                f"({self.num_games},), not {acts.dtype} {acts.shape}"
            )
        n = self.num_games
        rewards = np.zeros((n, self.players), dtype=np.float64)
        ended_now: list[int] = []
        illegal_now: list[int] = []
        done = self.done
        if skip is not None:
            stepped = np.flatnonzero(~np.asarray(skip, dtype=np.bool_)).tolist()
        else:
            stepped = list(range(n))
        if done[stepped].any():
            late = [i for i in stepped if done[i]]
            raise RuntimeError(f"games {late}: the episode is over; reset them first")
        bots = self.specs is not None
        scale = self.reward_scale
        slots = self._slots
        indexes = acts.tolist()
        for i in stepped:
            slot = slots[i]
            g = slot.game
            assert g is not None
            entry = slot.entry
            try:
                act = entry.step(indexes[i])
            except ValueError:
                rewards[i, slot.seat] = self.illegal_reward
                ended_now.append(i)
                illegal_now.append(i)
                entry.clear()
                slot.obs = slot.encoder.parts(g, slot.seat, ())
                continue
            if act is None:  # one more card of a meld: only the prefix changed
                slot.obs = IndexEncoder.with_pending(slot.obs, entry.pending)
                continue
            g.apply(act)
            if bots:
                self._run_bots(slot, rewards[i])
                ended = g.phase == _OVER
            else:
                ended = g.phase == _OVER
                if ended:
                    rewards[i] = hand_rewards(g, scale)
                    if self.match and not g.is_over():
                        g.next_hand()
                        ended = False
                if not ended:
                    slot.seat = g.turn
            if ended:
                ended_now.append(i)
            self._observe(slot)
        terminated = np.zeros(n, dtype=np.bool_)
        terminated[ended_now] = True
        illegal = np.zeros(n, dtype=np.bool_)
        illegal[illegal_now] = True
        done |= terminated
        if not bots:
            self.seats[stepped] = [slots[i].seat for i in stepped]
        return rewards, terminated, illegal

    # ----- observations --------------------------------------------------------------------
    def observations(self, form: Form = "dense", copy: bool = True) -> Any:
        """Every game's observation: ``(N, OBS_SIZE)`` ``float32``, or a :class:`CSRBatch`.

        The dense array is kept from step to step and only its changed entries rewritten;
        with ``copy=False`` it is returned itself (valid until the next step, not to be
        written to).
        """
        if form not in ("dense", "index"):
            raise ValueError(f"form is 'dense' or 'index', not {form!r}")
        counts, indices, values = self._gather()
        if form == "index":
            indptr = _indptr(counts)
            return CSRBatch(indptr, indices, values, (self.num_games, OBS_SIZE))
        if self._obs_buf is None:
            self._obs_buf = np.zeros((self.num_games, OBS_SIZE), dtype=np.float32)
        flat = np.repeat(self._row_starts(OBS_SIZE), counts)
        flat += indices
        buf = self._obs_buf.reshape(-1)
        buf[self._obs_prev] = 0
        buf[flat] = values
        self._obs_prev = flat
        return self._obs_buf.copy() if copy else self._obs_buf

    def _row_starts(self, width: int) -> IntArray:
        return np.arange(self.num_games, dtype=np.int64) * width

    def _gather(self) -> tuple[IntArray, npt.NDArray[np.int32], FloatArray]:
        """Every game's observation entries, row after row: counts, indexes, values.

        A game's entries come in three pieces, lists, arrays, lists (see
        :meth:`IndexEncoder.parts`): the lists of all games are converted at once and put
        in place around the arrays with one mask.
        """
        ix: list[int] = []
        vx: list[float] = []
        pieces_i: list[npt.NDArray[np.int32]] = []
        pieces_v: list[FloatArray] = []
        seg: list[int] = []
        for slot in self._slots:
            ia, va, (ti, tv), ib, vb = slot.obs
            ix += ia
            ix += ib
            vx += va
            vx += vb
            pieces_i.append(ti)
            pieces_v.append(tv)
            seg += (len(ia), len(ti), len(ib))
        sizes = np.array(seg, dtype=np.int64)
        counts = sizes.reshape(-1, 3).sum(axis=1)
        listed = np.repeat(self._kinds, sizes)
        indices = np.empty(len(listed), dtype=np.int32)
        values = np.empty(len(listed), dtype=np.float32)
        indices[listed] = np.fromiter(ix, np.int32, len(ix))
        values[listed] = np.fromiter(vx, np.float32, len(vx))
        rest = ~listed
        indices[rest] = np.concatenate(pieces_i)
        values[rest] = np.concatenate(pieces_v)
        return counts, indices, values

    def legal_actions(self) -> CSRBatch:
        """Every game's legal action indexes (ascending; none once its episode is over)."""
        rows = [s.entry.indices for s in self._slots]
        indptr = _indptr([len(r) for r in rows])
        flat: list[int] = []
        for r in rows:
            flat += r
        indices = np.fromiter(flat, np.int32, len(flat))
        return CSRBatch(
            indptr, indices, np.ones(len(indices), dtype=np.int8), (self.num_games, N_ACTIONS)
        )

    def action_masks(self, dtype: npt.DTypeLike = np.int8, copy: bool = True) -> npt.NDArray[Any]:
        """Every game's action mask ``(N, N_ACTIONS)``: 1 where legal.

        Kept from step to step like :meth:`observations`; ``copy=False`` returns the
        ``int8`` array itself (then ``dtype`` is ignored).
        """
        if self._mask_buf is None:
            self._mask_buf = np.zeros((self.num_games, N_ACTIONS), dtype=np.int8)
        rows = [s.entry.indices for s in self._slots]
        lens = [len(r) for r in rows]
        flat: list[int] = []
        for r in rows:
            flat += r
        pos = np.fromiter(flat, np.int64, len(flat))
        pos += np.repeat(np.arange(self.num_games, dtype=np.int64) * N_ACTIONS, lens)
        buf = self._mask_buf.reshape(-1)
        buf[self._mask_prev] = 0
        buf[pos] = 1
        self._mask_prev = pos
        if not copy:
            return self._mask_buf
        return self._mask_buf.astype(dtype, copy=True)

    def observation_of(self, i: int) -> tuple[npt.NDArray[np.int32], FloatArray]:
        """Game ``i``'s observation as (ascending indexes, values) of its non-zero entries."""
        return _join(self._slots[i].obs)


# ----------------------------------------------------------------------------------------
# Gymnasium
# ----------------------------------------------------------------------------------------


class BuracoVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """A :class:`BuracoBatch` as a Gymnasium vector environment.

    ``num_envs`` games; the other arguments as :class:`BuracoBatch`, plus:

    - ``observation_form``: ``"dense"`` (an ``(N, OBS_SIZE)`` ``float32`` array, as the
      observation space says) or ``"index"`` (a :class:`CSRBatch` of the same rows);
    - ``mask_form``: ``"dense"`` puts ``info["action_mask"]`` (``(N, N_ACTIONS)``
      ``int8``) in every info; ``"index"`` puts ``info["legal_actions"]`` (a
      :class:`CSRBatch`) instead; :meth:`action_masks` gives the boolean mask either way;
    - ``autoreset_mode``: Gymnasium's (``metadata["autoreset_mode"]``): ``NEXT_STEP``
      (default: the step after an episode ends resets that game and ignores its action),
      ``SAME_STEP`` (the ending step resets it at once; its last observation and info are
      in ``info["final_obs"]`` and ``info["final_info"]``) or ``DISABLED`` (call
      ``reset(options={"reset_mask": done})``);
    - ``copy``: return a copy of the dense arrays (True) or the arrays kept between steps.

    Every info has ``"seat"`` (the seat each observation is of) and ``"rewards"``
    (``(N, players)``, every seat's reward from the step: with every seat an agent, the
    step's reward is only that of the seat that acted, the one the last observation was
    of, and the others' hand rewards are here), and
    ``"illegal_action"`` when an action was illegal; each key ``k`` has its ``"_k"`` mask,
    as Gymnasium's vector infos do.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's convention
        "render_modes": ["ansi"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int,
        preset: str = "aberto",
        players: int = 4,
        opponents: str | Sequence[str] | None = None,
        seat: int = 0,
        match: bool = False,
        reward_scale: float = 1000.0,
        illegal_reward: float = -1.0,
        observation_form: Form = "dense",
        mask_form: Form = "dense",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if observation_form not in ("dense", "index"):
            raise ValueError(f"observation_form is 'dense' or 'index', not {observation_form!r}")
        if mask_form not in ("dense", "index"):
            raise ValueError(f"mask_form is 'dense' or 'index', not {mask_form!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            modes = ", ".join(repr(m.value) for m in AutoresetMode)
            raise ValueError(f"autoreset_mode is one of {modes}, not {autoreset_mode!r}") from None
        self.batch = BuracoBatch(
            num_envs,
            preset,
            players,
            opponents=opponents,
            seat=seat,
            match=match,
            reward_scale=reward_scale,
            illegal_reward=illegal_reward,
            **options,
        )
        self.num_envs = num_envs
        self.observation_form = observation_form
        self.mask_form = mask_form
        self.autoreset_mode = mode
        self.copy = copy
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.single_observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_SIZE,), np.float32)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._all = np.ones(num_envs, dtype=np.bool_)

    # ----- helpers -----------------------------------------------------------------------
    def _obs(self) -> Any:
        return self.batch.observations(self.observation_form, copy=self.copy)

    def _info(
        self, rewards: npt.NDArray[np.float64], illegal: npt.NDArray[np.bool_]
    ) -> dict[str, Any]:
        b = self.batch
        info: dict[str, Any] = {"seat": b.seats.copy(), "_seat": self._all.copy()}
        info["rewards"] = rewards
        info["_rewards"] = self._all.copy()
        if self.mask_form == "dense":
            info["action_mask"] = b.action_masks(copy=self.copy)
            info["_action_mask"] = self._all.copy()
        else:
            info["legal_actions"] = b.legal_actions()
            info["_legal_actions"] = self._all.copy()
        if illegal.any():
            info["illegal_action"] = illegal
            info["_illegal_action"] = illegal.copy()
        return info

    def _row(self, i: int) -> Any:
        """Game ``i``'s observation alone (a final observation)."""
        ix, vx = self.batch.observation_of(i)
        if self.observation_form == "index":
            return ix, vx
        out = np.zeros(OBS_SIZE, dtype=np.float32)
        out[ix] = vx
        return out

    # ----- API ---------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a new episode in every game (or those of ``options["reset_mask"]``).

        ``seed``: an int (game ``i`` takes ``seed + i``) or one seed per game.
        """
        mask: npt.NDArray[np.bool_] | None = None
        if options and "reset_mask" in options:
            mask = options["reset_mask"]
            if (
                not isinstance(mask, np.ndarray)
                or mask.shape != (self.num_envs,)
                or mask.dtype != np.bool_
                or not mask.any()
            ):
                raise ValueError(
                    f"options['reset_mask'] is a boolean numpy array of shape "
                    f"({self.num_envs},) with at least one True"
                )
        if seed is not None and isinstance(seed, int):
            super().reset(seed=seed)
        self.batch.reset(seed, mask)
        if mask is None:
            self._autoreset[:] = False
        else:
            self._autoreset[mask] = False
        zero = np.zeros((self.num_envs, self.batch.players), dtype=np.float64)
        return self._obs(), self._info(zero, np.zeros(self.num_envs, dtype=np.bool_))

    def step(self, actions: npt.ArrayLike) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Every game takes its action index; see the class docstring for the autoreset."""
        b = self.batch
        mode = self.autoreset_mode
        skip: npt.NDArray[np.bool_] | None = None
        if mode == AutoresetMode.NEXT_STEP and self._autoreset.any():
            skip = self._autoreset.copy()
        elif mode == AutoresetMode.DISABLED and b.done.any():
            raise RuntimeError(
                "some games' episodes are over: reset them with "
                "reset(options={'reset_mask': ...}) (autoreset_mode DISABLED)"
            )
        actors = b.seats.copy()  # the seat each action is for (the last observations')
        rewards, terminated, illegal = b.step(actions, skip)
        if skip is not None:
            b.reset(None, skip)
        seats = b.seats
        reward = rewards[np.arange(self.num_envs), actors]
        final: dict[str, Any] | None = None
        if mode == AutoresetMode.SAME_STEP and terminated.any():
            final = {
                "final_obs": np.array([None] * self.num_envs, dtype=object),
                "_final_obs": terminated.copy(),
            }
            final_info = {
                "seat": seats.copy(),
                "_seat": terminated.copy(),
                "rewards": rewards,
                "_rewards": terminated.copy(),
            }
            if illegal.any():
                final_info["illegal_action"] = illegal
                final_info["_illegal_action"] = illegal.copy()
            for i in np.flatnonzero(terminated).tolist():
                final["final_obs"][i] = self._row(i)
            final["final_info"] = final_info
            final["_final_info"] = terminated.copy()
            b.reset(None, terminated)
        obs = self._obs()
        info = self._info(rewards, illegal)
        if final is not None:
            info.update(final)
        self._autoreset = terminated.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal actions now, as booleans ``(N, N_ACTIONS)``."""
        return self.batch.action_masks(np.bool_)

    def render(self) -> tuple[str, ...] | None:
        """Each game's table as its observed seat sees it (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        from buraco.pettingzoo import render_view

        b = self.batch
        return tuple(
            render_view(seat_view(g, int(b.seats[i]), full=False), list(b.pending[i]))
            for i, g in enumerate(b.games)
        )
