"""Fast enumeration of the new melds a hand can make.

Runs are found per suit from a 14-bit mask of the run positions the hand holds
naturally; the windows of a mask (contiguous stretches of 3 or more positions
with at most one missing, the missing one filled by a wild) are computed once
and the resulting :class:`~buraco.actions.Meld` actions are cached by suit, mask
and the wild cards available. Sets are cached by the counts of their rank.
Caches are shared by every game with the same rules. Each holds at most
:data:`CACHE_LIMIT` entries and is emptied when full: a search deals itself millions
of hands, and a cache that kept them all would grow without end (and a long-lived
process would spend ever longer in the garbage collector going over it).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from buraco.actions import Meld
from buraco.cards import JOKER, TWO, WILD_CODES, Card
from buraco.melds import TableMeld, card_at, shape_of
from buraco.refusals import Refusal
from buraco.rules import Rules

CACHE_LIMIT = 2_000
"""The most entries one cache of a :class:`MoveTables` holds; a full one is emptied."""

_WINDOWS: dict[tuple[int, bool, int, int, bool], tuple[tuple[int, int, int], ...]] = {}


def _windows(
    mask14: int, ace2: bool, minpos: int, maxpos: int, ace_to_ace: bool = True
) -> tuple[tuple[int, int, int], ...]:
    """(lo, hi, gap) of every run window; gap is the one missing position or -1."""
    key = (mask14, ace2, minpos, maxpos, ace_to_ace)
    found = _WINDOWS.get(key)
    if found is not None:
        return found
    out: list[tuple[int, int, int]] = []
    for lo in range(minpos, maxpos - 1):
        gap = -1
        missing = 0
        for hi in range(lo, maxpos + 1):
            if not mask14 >> hi & 1 or (hi == 13 and lo == 0 and not ace2):
                missing += 1
                if missing > 1:
                    break
                gap = hi
            if hi - lo >= 2 and (ace_to_ace or lo > 0 or hi < 13):
                out.append((lo, hi, gap if missing else -1))
        # the full ace-to-ace window with one ace: the wild may stand for either ace
    if minpos == 0 and maxpos == 13 and ace_to_ace and not ace2 and mask14 & 1:
        inner = all(mask14 >> p & 1 for p in range(1, 13))
        if inner:
            out.append((0, 13, 0))
    found = tuple(out)
    _WINDOWS[key] = found
    return found


class MoveTables:
    """Cached meld enumeration and meld shapes for one set of rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.minpos = 1 if rules.aces == "high" else 0
        self.maxpos = 12 if rules.aces == "low" else 13
        self._runs: dict[tuple[int, ...], list[tuple[Meld, ...] | None]] = {}
        self._runs_by_mask: dict[tuple[int, int, bool, bool], list[tuple[Meld, ...] | None]] = {}
        self._sets: dict[tuple[int, ...], tuple[Meld, ...]] = {}
        self._shapes: dict[tuple[Card, ...], TableMeld | Refusal] = {}
        self.set_ranks = [r for r in range(13) if rules.set_rank_mask >> r & 1]

    # ----- shapes ----------------------------------------------------------------------
    def shape(self, cards: tuple[Card, ...]) -> TableMeld | Refusal:
        """A fresh :class:`TableMeld` for these cards, or why they make no meld."""
        found = self._shapes.get(cards)
        if found is None:
            found = self._remember_shape(cards)
        if isinstance(found, Refusal):
            return found
        return found.copy()

    def _remember_shape(self, cards: tuple[Card, ...]) -> TableMeld | Refusal:
        if len(self._shapes) >= CACHE_LIMIT:
            self._shapes.clear()
        found = self._shapes[cards] = shape_of(cards, self.rules)
        return found

    def set_rank(self, cards: tuple[Card, ...]) -> int:
        """The rank index of the set these cards make, or -1 for a run (or no meld)."""
        found = self._shapes.get(cards)
        if found is None:
            found = self._remember_shape(cards)
        if isinstance(found, Refusal) or found.run:
            return -1
        return found.rank

    # ----- runs ------------------------------------------------------------------------
    def runs(self, h: list[int], s: int, wbits: int) -> Sequence[Meld]:
        """Every run of suit ``s`` the hand counts ``h`` can meld.

        ``wbits`` says which wild cards the hand holds (bit i for ``WILD_CODES[i]``).
        Runs are cached by the suit's counts: the clean runs, then the runs with each
        wild card, so a hand's runs are the clean ones plus those of the wilds it holds.
        """
        base = s * 13
        counts = h[base : base + 13]
        if counts.count(0) > 11:  # fewer than two natural ranks: no run
            return ()
        key = (s, *counts)
        parts = self._runs.get(key)
        if parts is None:
            if len(self._runs) >= CACHE_LIMIT:
                # the runs by mask are found only through the runs by counts: one limit
                self._runs.clear()
                self._runs_by_mask.clear()
            # hands whose counts differ only in second copies share the same runs
            mask13 = sum(1 << r for r in range(13) if counts[r])
            by_mask = (s, mask13, counts[0] >= 2, counts[TWO] >= 2)
            parts = self._runs_by_mask.get(by_mask)
            if parts is None:
                parts = self._runs_by_mask[by_mask] = [None] * 6
            self._runs[key] = parts
        clean = parts[0]
        if clean is None:
            clean = parts[0] = self._make_runs(h, s, -1)
        if not wbits:
            return clean
        out = list(clean)
        for i in range(5):
            if wbits >> i & 1:
                with_wild = parts[i + 1]
                if with_wild is None:
                    with_wild = parts[i + 1] = self._make_runs(h, s, WILD_CODES[i])
                out.extend(with_wild)
        return out

    def _make_runs(self, h: list[int], s: int, wild: int) -> tuple[Meld, ...]:
        """The clean runs of suit ``s`` (``wild`` -1), or those using the card ``wild``."""
        base = s * 13
        mask13 = 0
        for r in range(13):
            if h[base + r]:
                mask13 |= 1 << r
        mask14 = mask13 | ((mask13 & 1) << 13)
        ace2 = h[base] >= 2
        twos = h[base + TWO]
        own_two = base + TWO
        out: list[Meld] = []
        windows = _windows(mask14, ace2, self.minpos, self.maxpos, self.rules.ace_to_ace)
        for lo, hi, gap in windows:
            naturals = [card_at(s, p) for p in range(lo, hi + 1)]
            if wild < 0:
                if gap < 0:
                    out.append(Meld(tuple(naturals)))
                continue
            # the wild fills the gap, or stands in for a natural card the player holds
            for p in range(lo, hi + 1) if gap < 0 else (gap,):
                uses_own_two = lo <= 1 <= hi and p != 1
                if wild == own_two and (p == 1 or twos < 1 + uses_own_two):
                    continue
                cards = list(naturals)
                cards[p - lo] = wild
                out.append(Meld(tuple(cards)))
        return tuple(out)

    def melds(self, h: list[int], exclude: int = 0) -> list[Meld]:
        """Every new meld the counts ``h`` can make: runs by suit, then sets.

        ``exclude`` has bit ``r`` set for a rank that may not form a new set.
        """
        wbits = (
            (1 if h[JOKER] else 0)
            | (2 if h[1] else 0)
            | (4 if h[14] else 0)
            | (8 if h[27] else 0)
            | (16 if h[40] else 0)
        )
        runs = self.runs
        out = [*runs(h, 0, wbits), *runs(h, 1, wbits), *runs(h, 2, wbits), *runs(h, 3, wbits)]
        if self.set_ranks:
            out.extend(self.sets(h, exclude))
        return out

    # ----- sets ------------------------------------------------------------------------
    def sets(self, h: list[int], exclude: int = 0) -> list[Meld]:
        """Every set the hand counts ``h`` can meld (no rank whose bit is in ``exclude``)."""
        out: list[Meld] = []
        jokers = h[JOKER]
        twos_bits = (1 if h[1] else 0) | (2 if h[14] else 0) | (4 if h[27] else 0)
        twos_bits |= 8 if h[40] else 0
        for r in self.set_ranks:
            if exclude >> r & 1:
                continue
            n = (h[r], h[13 + r], h[26 + r], h[39 + r])
            total = n[0] + n[1] + n[2] + n[3]
            if total < 2:
                continue
            wild_key = 1 if jokers else 0
            if r != TWO:
                wild_key |= twos_bits << 1
            if total < 3 and not wild_key:
                continue
            key = (r, *n, wild_key)
            found = self._sets.get(key)
            if found is None:
                if len(self._sets) >= CACHE_LIMIT:
                    self._sets.clear()
                found = self._sets[key] = self._make_sets(r, n, wild_key)
            out.extend(found)
        return out

    def _make_sets(self, r: int, n: tuple[int, ...], wild_key: int) -> tuple[Meld, ...]:
        wilds = [w for i, w in enumerate(WILD_CODES) if wild_key >> i & 1]
        out: list[Meld] = []
        for counts in product(*(range(k + 1) for k in n)):
            k = sum(counts)
            if k < 2:
                continue
            naturals: list[Card] = []
            for t in range(4):
                naturals.extend([t * 13 + r] * counts[t])
            if k >= 3:
                out.append(Meld(tuple(naturals)))
            for w in wilds:
                if r == TWO and w != JOKER:
                    continue
                out.append(Meld((*naturals, w)))
        return tuple(out)
