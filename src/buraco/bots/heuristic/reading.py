"""Reading a hand and the table: the cards, the rules and the melds as the heuristic counts them.

Each natural card is classed by what it can become, counting the side's melds as if their
cards were in hand (meld, adjacent, gap, junk); the classes give what a card is worth
keeping and a hand's potential.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import compress
from typing import Any

from buraco.bots.heuristic.weights import _NEAR_TEMPO, _POTENTIAL, _POTENTIAL_WILD
from buraco.cards import CARD_NAMES, JOKER, RANKS, Card
from buraco.views import MeldView

# ----- card tables ------------------------------------------------------------------------

_CODES = tuple(range(53))
_WILD = tuple(c == JOKER or c % 13 == 1 for c in range(53))
_SUIT = tuple(c // 13 if c < JOKER else -1 for c in range(53))
_RANK = tuple(c % 13 if c < JOKER else -1 for c in range(53))
_BY_NAME = {name: code for code, name in enumerate(CARD_NAMES)}

# card classes: what a natural card can become
_JUNK, _GAP, _ADJ, _MELD = 0, 1, 2, 3


def _shape(mask: int) -> tuple[int, ...]:
    """Class of each run position (0-13) of a suit from the positions held (cached)."""
    found = _SHAPES.get(mask)
    if found is None:
        found = _SHAPES[mask] = _compute_shape(mask)
    return found


_SHAPES: dict[int, tuple[int, ...]] = {}


def _compute_shape(mask: int) -> tuple[int, ...]:
    out = [_JUNK] * 14
    p = 0
    while p < 14:
        if not mask >> p & 1:
            p += 1
            continue
        q = p
        while q < 13 and mask >> (q + 1) & 1:
            q += 1
        length = q - p + 1
        for x in range(p, q + 1):
            if length >= 3:
                out[x] = _MELD
            elif length == 2:
                out[x] = _ADJ
            elif (x >= 2 and mask >> (x - 2) & 1) or (x <= 11 and mask >> (x + 2) & 1):
                out[x] = _GAP
        p = q + 1
    return tuple(out)


def _card_at(suit: int, pos: int) -> Card:
    return suit * 13 + (0 if pos == 13 else pos)


# ----- the rules as the bot needs them ---------------------------------------------------


class _Rules:
    """The options that matter to the bot, read once per game."""

    __slots__ = (
        "ace_bits",
        "average",
        "clean_out",
        "going_out_bonus",
        "keep_top",
        "max_pos",
        "min_pos",
        "pile_open",
        "players",
        "positions",
        "pot_penalty",
        "pot_to_stock",
        "set_mask",
        "sides",
        "top_meld",
        "values",
        "wild_moves",
    )

    def __init__(self, options: Mapping[str, Any], values: tuple[int, ...]) -> None:
        self.values = values
        self.set_mask = sum(1 << RANKS.index(ch) for ch in options["set_ranks"])
        self.clean_out = options["go_out_canastra"] == "clean"
        self.top_meld = bool(options["pile_top_meld"])
        self.pile_open = bool(options["pile_open"])
        # with pile_top_meld the taken top card is melded at once and never stays kept
        self.keep_top = bool(options["keep_taken_top"]) and not self.top_meld
        self.wild_moves = bool(options["wild_moves"])
        self.players = int(options["players"])
        self.sides = int(options["sides"])
        self.going_out_bonus = int(options["going_out_bonus"])
        self.pot_penalty = int(options["pot_penalty"])
        self.pot_to_stock = bool(options["pot_to_stock"])
        aces = options["aces"]
        self.min_pos = 1 if aces == "high" else 0
        self.max_pos = 12 if aces == "low" else 13
        ace_positions = tuple(p for p in (0, 13) if self.min_pos <= p <= self.max_pos)
        positions: list[tuple[int, ...]] = []
        for c in range(53):
            r = c % 13
            if c == JOKER or r == 1:
                positions.append(())
            else:
                positions.append(ace_positions if r == 0 else (r,))
        self.positions = tuple(positions)
        self.ace_bits = sum(1 << p for p in ace_positions)
        decks, jokers = int(options["decks"]), int(options["jokers_per_deck"])
        total = sum(values[c] for c in range(52)) * decks + values[JOKER] * jokers * decks
        self.average = total / (52 * decks + jokers * decks)


# ----- what the melds on the table mean --------------------------------------------------


class _MeldFacts:
    """What one meld means to a reader: the cards that extend it and its run positions."""

    __slots__ = ("covered", "fits", "meld", "suit", "virtual", "weight")

    def __init__(self, m: MeldView, min_pos: int, max_pos: int) -> None:
        self.meld = m
        size = len(m.cards)
        self.weight = 1.0 + (size >= 6) + (size == 6 and m.clean)
        """How much extending it matters: more near and at a canastra, most for a clean one."""
        self.suit = m.suit
        self.virtual = self.covered = 0
        if not m.run:
            self.fits: tuple[Card, ...] = tuple(t * 13 + m.rank for t in range(4))
            return
        s, lo, hi = m.suit, m.lo, m.hi
        span = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
        self.virtual = span
        wpos = lo + m.wild if m.wild is not None else -1
        self.covered = span & ~(1 << wpos) if wpos >= 0 else span
        ends = []
        if lo - 1 >= min_pos:
            ends.append(lo - 1)
        if hi + 1 <= max_pos:
            ends.append(hi + 1)
        if wpos >= 0 and ends:
            ends.append(wpos)
        self.fits = tuple(_card_at(s, p) for p in ends)


_FACTS: dict[int, _MeldFacts] = {}
"""Facts of the melds seen lately, by the meld view's identity (views are cached by the
engine until a meld changes, so most melds are read once)."""


def _facts(m: MeldView, r: _Rules) -> _MeldFacts:
    found = _FACTS.get(id(m))
    if found is None or found.meld is not m:
        if len(_FACTS) > 4096:
            _FACTS.clear()
        found = _FACTS[id(m)] = _MeldFacts(m, r.min_pos, r.max_pos)
    return found


class _SideTable:
    """A side's melds digested: which cards extend them, and their run positions."""

    __slots__ = ("best_clean", "clean_canastra", "covered", "fit", "melds", "set_ranks", "virtual")

    def __init__(self, melds: Sequence[MeldView], r: _Rules) -> None:
        self.melds = melds
        self.fit: dict[Card, float] = {}
        """Weight of each natural card that extends a meld (absent when it extends none)."""
        self.virtual = [0, 0, 0, 0]
        """Run positions each suit's melds occupy (counted as held when reading a hand)."""
        self.covered = [0, 0, 0, 0]
        """The same without the wild cards' places (a card there adds nothing)."""
        self.set_ranks = 0
        self.clean_canastra = False
        self.best_clean = -1
        """Index of the longest clean meld: the side's hope of a clean canastra."""
        best_size = 0
        fit = self.fit
        for i, m in enumerate(melds):
            facts = _facts(m, r)
            size = len(m.cards)
            if m.clean:
                if m.canastra and not m.staged:
                    self.clean_canastra = True
                if size > best_size:
                    best_size, self.best_clean = size, i
            if m.run:
                self.virtual[m.suit] |= facts.virtual
                self.covered[m.suit] |= facts.covered
            else:
                self.set_ranks |= 1 << m.rank
            w = facts.weight
            for c in facts.fits:
                if fit.get(c, 0.0) < w:
                    fit[c] = w

    def same(self, melds: Sequence[MeldView]) -> bool:
        """Whether ``melds`` are the melds this table was read from."""
        old = self.melds
        if melds is old:
            return True
        if len(melds) != len(old):
            return False
        return all(a is b for a, b in zip(melds, old, strict=True))


# ----- reading a hand --------------------------------------------------------------------


def _classes(counts: Sequence[int], r: _Rules, own: _SideTable) -> dict[Card, int]:
    """The class of each natural card held (its first copy), by code."""
    held = [c for c in compress(_CODES, counts) if not _WILD[c]]
    masks = [0, 0, 0, 0]
    positions = r.positions
    for c in held:
        for p in positions[c]:
            masks[_SUIT[c]] |= 1 << p
    virtual, covered = own.virtual, own.covered
    shapes_full = []
    shapes_hand = []
    for s in range(4):
        m = masks[s]
        shapes_full.append(_shape(m | virtual[s]) if m else _NO_SHAPE)
        shapes_hand.append(_shape(m) if m and covered[s] else _NO_SHAPE)
    out: dict[Card, int] = {}
    set_mask = r.set_mask
    fit = own.fit
    rank_counts: dict[int, int] = {}
    if set_mask:
        for c in held:
            rank = _RANK[c]
            if set_mask >> rank & 1:
                rank_counts[rank] = rank_counts.get(rank, 0) + counts[c]
    own_sets = own.set_ranks
    for c in held:
        s = _SUIT[c]
        cov = covered[s]
        best = _JUNK
        full, alone = shapes_full[s], shapes_hand[s]
        for p in positions[c]:
            k = alone[p] if cov >> p & 1 else full[p]
            if k > best:
                best = k
        if c in fit:
            best = _MELD
        rank = _RANK[c]
        if rank_counts:
            n = rank_counts.get(rank, 0)
            if n >= 3 or own_sets >> rank & 1:
                best = _MELD
            elif n == 2 and best < _ADJ:
                best = _ADJ
        out[c] = best
    return out


_NO_SHAPE = (_JUNK,) * 14


def _extra_class(c: Card, first: int, counts: Sequence[int], r: _Rules) -> int:
    """The class of a second copy of a card: it counts for a set, hardly for a run."""
    if r.set_mask >> _RANK[c] & 1:
        return first
    return _GAP if first >= _ADJ else _JUNK


def _potential(
    counts: Sequence[int], r: _Rules, own: _SideTable, risk: float, tempo: float
) -> float:
    """How much a hand is worth: meldable cards and wilds, less the risk of junk."""
    classes = _classes(counts, r, own)
    values = r.values
    total = 0.0
    for c, k in classes.items():
        v = values[c]
        n = counts[c]
        total += _card_potential(k, v, risk, tempo)
        if n > 1:
            extra = _extra_class(c, k, counts, r)
            total += (n - 1) * _card_potential(extra, v, risk, tempo)
    wilds = counts[JOKER] + counts[1] + counts[14] + counts[27] + counts[40]
    return total + wilds * _POTENTIAL_WILD


def _card_potential(k: int, v: int, risk: float, tempo: float) -> float:
    if k == _MELD:
        return v + _POTENTIAL[_MELD]
    if k == _JUNK:
        return -(risk * v + tempo)
    return _POTENTIAL[k] - risk * v * 0.5 - tempo * _NEAR_TEMPO


def _meldable_points(counts: Sequence[int], r: _Rules, own: _SideTable) -> int:
    """Points of the cards that could be melded at once (an opening estimate)."""
    classes = _classes(counts, r, own)
    values = r.values
    total = sum(values[c] for c, k in classes.items() if k == _MELD)
    near = sum(1 for k in classes.values() if k == _ADJ)
    wilds = counts[JOKER] + counts[1] + counts[14] + counts[27] + counts[40]
    if near >= 2 and wilds:
        total += 20 + values[JOKER] // 2
    return total
