"""Melds on the table: runs and sets, where their wild sits, what may be added.

A run lives on positions 0-13 of one suit: 0 is the low ace, 1-12 are 2-K, 13 is
the high ace (RULINGS 6). It holds at most one wild (a joker, or a 2 away from
its natural place) at a recorded position (RULINGS 4-5). A 2 of the run's suit
on position 1 is natural.

>>> from buraco.rules import make_rules
>>> r = make_rules("aberto")
>>> m = shape_of((parse("3H"), parse("4H"), JOKER, parse("6H")), r)
>>> m.cards_text(), m.wpos, m.clean
('3H 4H JK 6H', 4, False)
>>> shape_of((parse("5C"), parse("5D"), parse("5H")), r).message
'not a valid meld: sets are not allowed in aberto'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from buraco.actions import Place
from buraco.cards import CARD_NAMES, JOKER, RANKS, TWO, WILD_CODES, Card
from buraco.cards import parse_card as parse
from buraco.refusals import Refusal
from buraco.rules import Rules

__all__ = ["Bonus", "TableMeld", "card_at", "parse", "shape_of"]


def card_at(suit: int, pos: int) -> Card:
    """The natural card of a suit at a run position (0 and 13 are the ace)."""
    return suit * 13 + (0 if pos == 13 else pos)


@dataclass(frozen=True)
class Bonus:
    """A canastra bonus: its kind and its points.

    Kinds: ``clean``, ``dirty``, ``semi-clean``, ``clean-13``, ``clean-14``,
    ``twos`` and ``clean-8-set``.
    """

    kind: str
    points: int


class TableMeld:
    """A meld on the table. Runs use ``suit lo hi``; sets use ``rank nat``.

    ``wpos`` is the wild's run position (-1 without a wild); ``wild`` its code
    (-1 without a wild). ``nat`` counts a set's natural cards per suit.
    """

    __slots__ = (
        "cands",
        "hi",
        "lo",
        "mview",
        "nat",
        "rank",
        "run",
        "size",
        "staged",
        "suit",
        "value",
        "wild",
        "wpos",
    )

    def __init__(
        self,
        run: bool,
        suit: int,
        rank: int,
        lo: int,
        hi: int,
        wpos: int,
        wild: int,
        nat: list[int] | None,
        size: int,
        value: int,
    ) -> None:
        self.run = run
        self.suit = suit
        self.rank = rank
        self.lo = lo
        self.hi = hi
        self.wpos = wpos
        self.wild = wild
        self.nat = nat
        self.size = size
        self.value = value
        self.staged = False
        # possible adds as (card, action), natural cards then wild cards (see Game)
        self.cands: tuple[list[tuple[Card, Any]], list[tuple[Card, Any]]] | None = None
        self.mview: object | None = None

    def copy(self) -> TableMeld:
        """An independent copy."""
        m = TableMeld(
            self.run,
            self.suit,
            self.rank,
            self.lo,
            self.hi,
            self.wpos,
            self.wild,
            None if self.nat is None else list(self.nat),
            self.size,
            self.value,
        )
        m.staged = self.staged
        m.cands = self.cands
        m.mview = self.mview
        return m

    # ----- facts -----------------------------------------------------------------------
    @property
    def clean(self) -> bool:
        """No wild card in the meld."""
        return self.wild < 0

    @property
    def canastra(self) -> bool:
        """Seven or more cards."""
        return self.size >= 7

    def cards(self) -> list[Card]:
        """The meld's cards: a run low to high, a set's naturals then its wild."""
        if self.run:
            s, w, wp = self.suit, self.wild, self.wpos
            return [w if p == wp else card_at(s, p) for p in range(self.lo, self.hi + 1)]
        out: list[Card] = []
        assert self.nat is not None
        for t in range(4):
            out.extend([t * 13 + self.rank] * self.nat[t])
        if self.wild >= 0:
            out.append(self.wild)
        return out

    def cards_text(self) -> str:
        """The cards as notation."""
        return " ".join(CARD_NAMES[c] for c in self.cards())

    def natural_stretch(self) -> int:
        """Longest stretch of natural cards (for a set, its natural count)."""
        if not self.run:
            assert self.nat is not None
            return sum(self.nat)
        if self.wpos < 0:
            return self.size
        return max(self.wpos - self.lo, self.hi - self.wpos)

    def bonus(self, rules: Rules) -> Bonus | None:
        """The canastra bonus this meld earns under the rules (None below 7 cards)."""
        if self.size < 7:
            return None
        clean = self.wild < 0
        if self.run:
            if clean:
                if self.size == 14 and rules.clean_14_bonus:
                    return Bonus("clean-14", rules.clean_14_bonus)
                if self.size >= 13 and rules.clean_13_bonus:
                    return Bonus("clean-13", rules.clean_13_bonus)
        else:
            if self.rank == TWO and rules.twos_canastra_bonus:
                return Bonus("twos", rules.twos_canastra_bonus)
            assert self.nat is not None
            if clean and sum(self.nat) >= 8 and rules.clean_eight_set_bonus:
                return Bonus("clean-8-set", rules.clean_eight_set_bonus)
        if clean:
            return Bonus("clean", rules.clean_bonus)
        if (
            rules.semi_clean_bonus
            and self.run
            and self.natural_stretch() >= 7
            and (rules.semi_clean_wild == "any" or self.wild % 13 == TWO)
        ):
            return Bonus("semi-clean", rules.semi_clean_bonus)
        return Bonus("dirty", rules.dirty_bonus)

    def describe(self) -> str:
        """Short text: the cards and the meld's kind."""
        kind = "run" if self.run else "set"
        tags = [kind, "clean" if self.clean else "dirty"]
        if self.canastra:
            tags.append("canastra")
        return f"{self.cards_text()} ({', '.join(tags)})"

    def __repr__(self) -> str:
        return f"<TableMeld {self.describe()}>"

    # ----- adding cards ----------------------------------------------------------------
    def add_options(self, rules: Rules) -> list[tuple[Card, Place]]:
        """Every (card, placement) that may be added to this meld, ignoring who holds it."""
        out: list[tuple[Card, Place]] = []
        if not self.run:
            r = self.rank
            assert self.nat is not None
            for t in range(4):
                out.append((t * 13 + r, Place.NONE))
            if self.wild < 0:
                for w in WILD_CODES:
                    if r != TWO or w == JOKER:
                        out.append((w, Place.NONE))
            return out
        s, lo, hi, wp = self.suit, self.lo, self.hi, self.wpos
        minpos = 1 if rules.aces == "high" else 0
        maxpos = 12 if rules.aces == "low" else 13
        can_low = lo - 1 >= minpos and (rules.ace_to_ace or lo - 1 > 0 or hi < 13)
        can_high = hi + 1 <= maxpos and (rules.ace_to_ace or hi + 1 < 13 or lo > 0)
        if can_low:
            out.append((card_at(s, lo - 1), Place.LOW))
        if can_high:
            out.append((card_at(s, hi + 1), Place.HIGH))
        if wp >= 0:
            natural = card_at(s, wp)
            if can_low:
                out.append((natural, Place.WILD_LOW))
            if can_high:
                out.append((natural, Place.WILD_HIGH))
            if rules.wild_moves and self.wild == s * 13 + TWO and lo == 2 and minpos <= 1:
                # us: the wild 2 goes to its natural place, the new wild takes its spot
                # (another copy of that 2 is simply added at the low end)
                for w in WILD_CODES:
                    if w != self.wild:
                        out.append((w, Place.NONE))
        else:
            two = s * 13 + TWO
            for w in WILD_CODES:
                if can_low and not (w == two and lo - 1 == 1):
                    out.append((w, Place.LOW))
                if can_high:
                    out.append((w, Place.HIGH))
        return out

    def move_options(self, rules: Rules) -> list[Place]:
        """Ends the wild may move to (``us`` wild_moves): only a wild at one end moves."""
        if not (self.run and rules.wild_moves and self.wpos >= 0):
            return []
        minpos = 1 if rules.aces == "high" else 0
        maxpos = 12 if rules.aces == "low" else 13
        out = []
        if self.wpos == self.hi and self.lo - 1 >= minpos:
            out.append(Place.LOW)
        if self.wpos == self.lo and self.hi + 1 <= maxpos:
            out.append(Place.HIGH)
        return out

    def apply_add(self, card: Card, place: Place, value: int) -> None:
        """Add a card as listed by :meth:`add_options` (not checked here)."""
        self.size += 1
        self.value += value
        self.cands = None
        self.mview = None
        if not self.run:
            assert self.nat is not None
            if card == JOKER or (card % 13 == TWO and self.rank != TWO):
                self.wild = card
                self.wpos = 0
            else:
                self.nat[card // 13] += 1
            return
        s = self.suit
        if place == Place.LOW:
            self.lo -= 1
            if card != card_at(s, self.lo):
                self.wild, self.wpos = card, self.lo
        elif place == Place.HIGH:
            self.hi += 1
            if card != card_at(s, self.hi):
                self.wild, self.wpos = card, self.hi
        elif place == Place.WILD_LOW:
            self.lo -= 1
            self.wpos = self.lo
        elif place == Place.WILD_HIGH:
            self.hi += 1
            self.wpos = self.hi
        else:  # swap: the wild 2 goes natural on position 1, the new wild takes its place
            self.lo = 1
            self.wild = card
        self._normalise()

    def apply_move(self, to: Place) -> None:
        """Move the wild at one end to the other end (as listed by :meth:`move_options`)."""
        self.cands = None
        self.mview = None
        if to == Place.LOW:
            self.lo -= 1
            self.hi -= 1
            self.wpos = self.lo
        else:
            self.lo += 1
            self.hi += 1
            self.wpos = self.hi
        self._normalise()

    def _normalise(self) -> None:
        # a wild 2 that lands on its own natural place becomes natural
        if self.wild >= 0 and self.wild == card_at(self.suit, self.wpos):
            self.wild = -1
            self.wpos = -1


def _run_of(cards: tuple[Card, ...], rules: Rules, values: tuple[int, ...]) -> TableMeld | Refusal:
    k = len(cards)
    if k > 14:
        return Refusal("meld-shape.run-too-long")
    suits = {c // 13 for c in cards if c != JOKER and c % 13 != TWO}
    if len(suits) != 1:
        return Refusal("meld-shape.run-suits")
    s = suits.pop()
    minpos = 1 if rules.aces == "high" else 0
    maxpos = 12 if rules.aces == "low" else 13
    best: TableMeld | None = None
    best_wilds = 99
    for lo in range(minpos, maxpos - k + 2):
        wilds = 0
        wpos = wild = -1
        for i, c in enumerate(cards):
            p = lo + i
            if c == card_at(s, p):
                continue
            if c == JOKER or c % 13 == TWO:
                wilds += 1
                wpos, wild = p, c
                if wilds > 1:
                    break
            else:
                wilds = 99
                break
        if wilds < best_wilds:
            best_wilds = wilds
            best = TableMeld(
                True, s, -1, lo, lo + k - 1, wpos, wild, None, k, sum(values[c] for c in cards)
            )
    if best is None or best_wilds == 99:
        if rules.aces in ("low", "high"):
            return Refusal(f"meld-shape.not-consecutive-aces-{rules.aces}")
        return Refusal("meld-shape.not-consecutive")
    if best_wilds > 1:
        return Refusal("meld-shape.one-wild")
    if not rules.ace_to_ace and best.lo == 0 and best.hi == 13:
        return Refusal("meld-shape.ace-both-ends")
    return best


def _set_of(cards: tuple[Card, ...], rank: int, rules: Rules) -> TableMeld | Refusal:
    if rank == TWO:
        naturals = [c for c in cards if c != JOKER]
    else:
        naturals = [c for c in cards if c != JOKER and c % 13 != TWO]
    wilds = len(cards) - len(naturals)
    if not rules.set_rank_mask >> rank & 1:
        if not rules.set_ranks:
            return Refusal("meld-shape.no-sets", {"preset": rules.preset})
        return Refusal(
            "meld-shape.set-rank",
            {"rank": RANKS[rank], "preset": rules.preset, "allowed": rules.set_ranks},
        )
    if wilds > 1:
        return Refusal("meld-shape.one-wild")
    if len(naturals) < 2:
        return Refusal("meld-shape.set-naturals")
    nat = [0, 0, 0, 0]
    for c in naturals:
        nat[c // 13] += 1
    wild = next((c for c in cards if c not in naturals), -1) if wilds else -1
    values = rules.values
    return TableMeld(
        False,
        -1,
        rank,
        0,
        0,
        0 if wild >= 0 else -1,
        wild,
        nat,
        len(cards),
        sum(values[c] for c in cards),
    )


def shape_of(cards: tuple[Card, ...], rules: Rules) -> TableMeld | Refusal:
    """The meld these cards make (a fresh :class:`TableMeld`), or why they make none.

    The refusal's code is one of ``meld-shape.*`` (:data:`buraco.refusals.ENGLISH`).
    """
    if len(cards) < 3:
        return Refusal("meld-shape.too-few")
    plain = [c for c in cards if c != JOKER and c % 13 != TWO]
    ranks = {c % 13 for c in plain}
    if not ranks:  # only 2s and jokers: a set of 2s
        return _set_of(cards, TWO, rules)
    if len(ranks) == 1:
        as_set = _set_of(cards, ranks.pop(), rules)
        if isinstance(as_set, TableMeld):
            return as_set
        as_run = _run_of(cards, rules, rules.values)
        if isinstance(as_run, TableMeld) or len(plain) < 2:
            return as_run
        return as_set
    return _run_of(cards, rules, rules.values)
