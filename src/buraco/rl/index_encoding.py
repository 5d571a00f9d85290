"""A seat's observation as the indexes and values of its non-zero entries, read from the game.

:class:`IndexEncoder` gives what :class:`buraco.rl.encoding.ObservationEncoder` gives for a
seat's full view, without building the :class:`~buraco.views.SeatView`: the non-zero
entries in ascending index order. It follows one game's events as they come and keeps each
block until what it shows changes (the meld slots of a side until one of its melds changes,
the cards known in other hands until they change, the pile's counts as it grows), so a step
of a game costs only what changed. :mod:`buraco.rl.vector` batches it; the PettingZoo and
OpenSpiel wrappers scatter it into their dense vectors.

>>> from buraco.game import Game
>>> from buraco.rules import make_rules
>>> g = Game(make_rules("aberto", players=4), seed=1)
>>> indexes, values = IndexEncoder().encode(g, g.turn)
>>> dense = IndexEncoder().dense(g, g.turn)
>>> bool((dense[indexes] == values).all()), int((dense != 0).sum()) == len(indexes)
(True, True)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import compress
from operator import is_
from typing import Any

import numpy as np
import numpy.typing as npt

from buraco.actions import Add, Discard, Draw, Meld, TakePile, TurnUp
from buraco.cards import JOKER, N_CODES, Card
from buraco.game import Event, Game, Phase
from buraco.rl.encoding import (
    MAX_MELDS,
    MAX_PLAYERS,
    MELD_FEATURES,
    MELD_SIZE,
    OBS_SIZE,
    observation_slices,
)
from buraco.views import MeldView, public_counts, table_views

__all__ = ["IndexEncoder", "Parts", "join_parts"]

FloatArray = npt.NDArray[np.float32]


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

    The same numbers as :class:`buraco.rl.encoding.ObservationEncoder` puts in a meld slot
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
    since. Follows the events of a hand as :class:`buraco.rl.encoding.ObservationEncoder` does
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
"""An observation in three pieces (:meth:`IndexEncoder.parts`): the entries before the meld
blocks (indexes, values), the meld blocks, the entries after them (indexes, values)."""
Listed = tuple[list[int], list[float]]


class IndexEncoder:
    """The observation of :class:`buraco.rl.encoding.ObservationEncoder` in index form.

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
        return join_parts(self.parts(g, seat, pending))

    def dense(
        self,
        g: Game,
        seat: int,
        pending: Sequence[Card] = (),
        out: FloatArray | None = None,
    ) -> FloatArray:
        """The seat's observation as a ``float32`` vector of ``OBS_SIZE`` (into ``out``).

        Equal to ``ObservationEncoder().encode(seat_view(g, seat, full=True), pending)``.
        """
        indexes, values = self.encode(g, seat, pending)
        if out is None:
            out = np.zeros(OBS_SIZE, dtype=np.float32)
        else:
            out.fill(0)
        out[indexes] = values
        return out

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
        rare = public_counts(g)
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


def join_parts(parts: Parts) -> tuple[npt.NDArray[np.int32], FloatArray]:
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
