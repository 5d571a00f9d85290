"""The ``heuristic`` bot: a fast rule-based player for every preset and player count.

It plays only from its seat's view, remembering what the hand's history showed it
(cards the others took from the pile, what they discarded, and in a closed pile what
lies under the top card). Its policy, decision by decision:

Reading the hand
    Each natural card is classed by what it can become, counting the side's melds as
    if their cards were in hand: *meld* (part of three or more in a row, or of a set,
    or it extends one of the side's melds), *adjacent* (next to another card of its
    suit, or one of a pair when sets are allowed), *gap* (two places from one) or
    *junk*. Wild cards are counted apart. The classes give both what a card is worth
    keeping and a hand's *potential*, a number used to value drawing choices.

Drawing
    Take the pile when the potential of the hand with the pile, less the risk of the
    added junk (its points, weighed by how close the hand is to its end, and the
    extra cards to shed before the morto), plus what taking it keeps from the next
    player, beats a stock card. Left, an open pile goes with this seat's discard to the
    next player, an opponent, who takes it as often as they have taken piles this hand:
    every card of it is worth something to them while the hand has long to go (more
    when it extends their melds, most for a wild card). With two sides only: with
    three, two opponents race to go out while a big hand is a burden. A one-card pile
    whose card is worth no more to the bot than what it would discard instead is
    taken only from a next player who takes nearly every pile (the swap keeps them
    from taking two cards for one), else the stock card is the better draw. In a
    closed pile the bot knows the cards under the top from the discards it saw. On the
    first turn it keeps the first card only if it fits the hand.

Melding
    An unopened side with an initial-meld minimum melds only when a plan of disjoint
    melds reaches the minimum this turn (so an ``us`` attempt never fails). Otherwise:
    clean a run by sending a wild 2 home (``us``); add natural cards to the side's
    melds (the partner's too), canastras first; put down the longest clean melds. A
    wild card is spent only to complete a canastra that is not the side's hope of a
    clean one, to empty the hand (the morto race, going out), or when the hand may
    end soon (a wild left in hand costs its points).

Going out
    With the morto taken and the canastra the preset needs, the bot goes out when
    ending now leaves its side ahead, when an opponent could go out soon, or near the
    end of the stock; otherwise it keeps two cards and goes on melding.

Discarding
    The discard minimises *keep value + danger*. Keep value: the card's class, minus
    a little of its points (more when the hand may end soon). Danger: the card
    extends an opponent's meld (most when it completes a canastra), it is near cards
    the next player took from the pile, it joins cards already in an open pile that
    the next player takes whole, all scaled by the pile's size; a card the next player
    discarded is safer. Wild cards go last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import compress
from typing import Any

from buraco.actions import (
    DRAW,
    TAKE_PILE,
    TURN_UP,
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
from buraco.bots.base import Bot, is_wild_add, play_sections, wild_count
from buraco.cards import CARD_NAMES, JOKER, RANKS, Card
from buraco.views import MeldView, SeatView, SeenEvent

# ----- card tables ------------------------------------------------------------------------

_CODES = tuple(range(53))
_WILD = tuple(c == JOKER or c % 13 == 1 for c in range(53))
_SUIT = tuple(c // 13 if c < JOKER else -1 for c in range(53))
_RANK = tuple(c % 13 if c < JOKER else -1 for c in range(53))
_BY_NAME = {name: code for code, name in enumerate(CARD_NAMES)}

# card classes: what a natural card can become
_JUNK, _GAP, _ADJ, _MELD = 0, 1, 2, 3

# ----- weights (tuned by duplicate deals against the greedy bot) -------------------------

_KEEP = (0.0, 14.0, 30.0, 90.0)
"""Keep value of a card by class."""
_KEEP_SPARE = (0.0, 40.0, 60.0, 90.0)
"""Keep value by class when a wild card is to spare (a wild makes a pair a meld)."""
_KEEP_FIT = 120.0
"""Keep value of a card that extends one of the side's melds."""
_KEEP_WILD = 400.0
_POTENTIAL = (0.0, 2.0, 4.0, 10.0)
"""Potential of a card by class (a meld-class card also counts its points)."""
_POTENTIAL_WILD = 22.0
_DRAW_VALUE = -10.0
_DRAW_VALUE_ANY = 4.0
_DRAW_SHORT = 20.0
_SHORT_TURNS = 12.0
"""What a card from the stock is worth, for comparison with the pile: the first when
the hand has long to go, up to the sum when it is about to end (more cards in hand
pay off only with time to meld them)."""
_DANGER_FIT = 45.0
"""Danger of a card that extends an opponent's meld (per weight unit)."""
_DANGER_KNOWN = 18.0
"""Danger per card the next player is known to hold next to the discard."""
_DANGER_PILE = 5.0
"""Danger per card of an open pile that the discard would join."""
_SAFE_DISCARDED = 8.0
_TEMPO_RACING = 2.0
"""What an extra card in hand costs while the side races for its morto."""
_TEMPO = 1.0
"""What an extra card in hand costs once the morto is taken."""
_RISK_K = 2.0
"""A junk card costs this share of its points divided by the turns left (see _horizon)."""
_FUTURE = 3.0
"""What a junk card may yet become, at a long horizon."""
_NEAR_TEMPO = 1.0
"""Share of the tempo cost charged to a card that is near a meld but not in one."""
_NO_POT_TURNS = 8.0
"""Turns an opponent without its morto is expected to need to go out (doubled when
going out needs a clean canastra), beyond a third of its hand."""
_KEPT_TOP_COST = 16.0
"""Taking a pile whose top card may not be discarded at once (``keep_taken_top``) and
cannot be melded at once."""
_WILD_COST = 15.0
"""What spending a wild card on a meld that does not need it costs."""
_TOP_WILD = 15.0
_DENY = 1.0
"""Weight of what taking the pile keeps from the next player (see ``_denial``)."""
_SWAP_RATE = 0.85
"""Take a one-card pile only to swap its card when the next player took at least this share
of the piles they could."""
_DENY_MANY = 0.0
"""The same weight with three sides (two opponents racing to go out while this hand grows)."""
_DENY_CARD = 40.0
"""What any card of the pile is worth to the next player at a long horizon."""
_DENY_HALF = 1.0
"""Turns left at which a card is worth half of that."""
_DENY_FIT = 15.0
"""More for a card that extends the next player's melds (per weight unit)."""
_DENY_WILD = 20.0
"""More for a wild card."""
_SWAP_COST = 10.0
"""What a take that only swaps a card for one worth as much costs beyond a stock card."""
_OUT_MARGIN = 0.0
"""Go out when the hand would end at most this much behind."""
"""Danger removed for a card the next player discarded this hand."""


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


# ----- memory of the hand ---------------------------------------------------------------


class _Memory:
    """What one seat learnt from the hand's history (full views only)."""

    __slots__ = (
        "chances",
        "discarded",
        "drawn",
        "known",
        "last_event",
        "pile",
        "seen",
        "takes",
        "turn_cards",
    )

    def __init__(self, players: int) -> None:
        self.reset(players)

    def reset(self, players: int) -> None:
        """Forget everything (a new hand, or another history)."""
        self.seen = 0
        """Events read so far."""
        self.last_event: SeenEvent | None = None
        self.known: list[dict[Card, int]] = [{} for _ in range(players)]
        """Cards each seat is known to hold (taken from the pile, returned openings)."""
        self.discarded: list[set[Card]] = [set() for _ in range(players)]
        self.pile: list[Card] = []
        """The discard pile as followed from the events (exact also when closed)."""
        self.turn_cards: list[list[Card]] = [[] for _ in range(players)]
        """Cards each seat melded in its current turn (an opening short returns them)."""
        self.drawn: tuple[int, ...] | None = None
        """This seat's counts before its draw (to name the card drawn)."""
        self.takes = [0] * players
        """Turns each seat began by taking the pile."""
        self.chances = [0] * players
        """Turns each seat began with a pile to take (taken or not)."""

    def update(self, view: SeatView) -> None:
        """Read the events not yet seen (starting again if the history is another one)."""
        events = view.events
        n = self.seen
        if len(events) < n or (n and events[n - 1] != self.last_event):
            self.reset(len(view.hand_sizes))
            n = 0
        if len(events) == n:
            return
        if n == 0 and view.detail is not None and view.detail.upcard is not None:
            self.pile.append(view.detail.upcard)
        me = view.seat
        for e in events[n:]:
            self._read(e, me, view.pile_open)
        self.seen = len(events)
        self.last_event = events[-1]

    def _read(self, e: SeenEvent, me: int, open_pile: bool) -> None:
        a, s = e.action, e.seat
        if a is None:
            if e.note.startswith("opening short") and s != me:
                for c in self.turn_cards[s]:
                    self._gain(s, c)
            return
        kind = type(a)
        if kind is Discard:
            c = a.card  # type: ignore[union-attr]
            self.pile.append(c)
            self._lose(s, c)
            self.discarded[s].add(c)
        elif kind is Meld:
            for c in a.cards:  # type: ignore[union-attr]
                self._lose(s, c)
            self.turn_cards[s].extend(a.cards)  # type: ignore[union-attr]
        elif kind is Add:
            self._lose(s, a.card)  # type: ignore[union-attr]
            self.turn_cards[s].append(a.card)  # type: ignore[union-attr]
        elif kind is TakePile:
            self.takes[s] += 1
            self.chances[s] += 1
            taken = e.cards if open_pile or s == me else tuple(self.pile)
            if s != me:
                for c in taken:
                    self._gain(s, c)
            self.pile = []
            self.turn_cards[s] = []
        elif kind is TurnUp:
            card = _BY_NAME.get(e.note.split()[-1], -1) if e.note else -1
            if card >= 0:
                self.pile.append(card)
        elif kind is Draw:
            if self.pile:
                self.chances[s] += 1
            self.turn_cards[s] = []

    def _gain(self, seat: int, c: Card) -> None:
        known = self.known[seat]
        known[c] = known.get(c, 0) + 1

    def _lose(self, seat: int, c: Card) -> None:
        known = self.known[seat]
        k = known.get(c, 0)
        if k > 1:
            known[c] = k - 1
        elif k:
            del known[c]


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


# ----- the bot ---------------------------------------------------------------------------


class _Turn:
    """One decision's digest of the view."""

    __slots__ = (
        "counts",
        "end_near",
        "horizon",
        "imminent",
        "mem",
        "own",
        "r",
        "risk",
        "side",
        "size",
        "tables",
        "tempo",
        "threat",
        "view",
        "wilds",
    )

    def __init__(
        self, view: SeatView, r: _Rules, tables: list[_SideTable], mem: _Memory | None
    ) -> None:
        self.view = view
        self.r = r
        self.tables = tables
        self.own = tables[view.side]
        self.mem = mem
        self.side = view.side
        self.counts = view.counts
        self.size = sum(view.counts)
        counts = view.counts
        self.wilds = counts[JOKER] + counts[1] + counts[14] + counts[27] + counts[40]
        self.threat = _threat(view, r)
        """How close the opponents are to going out (see :func:`_threat`)."""
        self.end_near = view.last_turn or _stock_left(view, r) <= 2 * r.players
        self.imminent = self.end_near or self.threat >= 1.0
        """The hand may well end before this seat's next turn."""
        racing = not view.pot_taken[view.side] and bool(view.pots)
        self.horizon = 1.0 if view.last_turn else _horizon(view, r)
        """This seat's turns the hand is likely to last."""
        self.risk = min(0.95, max(0.05, _RISK_K / self.horizon))
        """Share of a junk card's points it is likely to cost when the hand ends."""
        self.tempo = (_TEMPO_RACING if racing else _TEMPO) - _FUTURE * self.horizon / (
            self.horizon + 8.0
        )
        """What a junk card costs beyond its points: the morto race, less its chances."""


def _side_of(view: SeatView, seat: int) -> int:
    for side, seats in enumerate(view.sides):
        if seat in seats:
            return side
    return -1


def _stock_left(view: SeatView, r: _Rules) -> int:
    """Cards still to be drawn before the hand ends by the stock."""
    if r.pot_to_stock:
        return view.stock + sum(view.pots)
    return view.stock


def _horizon(view: SeatView, r: _Rules) -> float:
    """How many more turns this seat is likely to play.

    Until the stock runs out, or until an opponent goes out: sooner when they hold
    their morto and a canastra, and when any canastra will do.
    """
    turns = _stock_left(view, r) / r.players
    side = view.side
    slow = 2.0 if r.clean_out else 1.0
    for o, melds in enumerate(view.melds):
        if o == side:
            continue
        smallest = min(view.hand_sizes[s] for s in view.sides[o])
        if not view.pot_taken[o]:
            out = smallest / 3.0 + _NO_POT_TURNS * slow
        elif any(m.canastra and (m.clean or not r.clean_out) and not m.staged for m in melds):
            out = 1.0 + smallest / 3.0
        else:
            out = 3.0 * slow
        turns = min(turns, out)
    return max(1.0, turns)


def _ready_to_go_out(view: SeatView, r: _Rules) -> bool:
    """Whether the seat's side holds its morto and a canastra that lets it go out."""
    if not view.pot_taken[view.side]:
        return False
    clean = r.clean_out
    return any(
        m.canastra and (m.clean or not clean) and not m.staged for m in view.melds[view.side]
    )


def _threat(view: SeatView, r: _Rules) -> float:
    """How close the opponents are to going out, from 0 to 1.

    1: a side with its morto and a canastra that counts, one of its players holding
    three cards or fewer; 0.6: the same with bigger hands; 0.3: a side with its morto
    but no such canastra yet.
    """
    side = view.side
    level = 0.0
    for o, melds in enumerate(view.melds):
        if o == side or not view.pot_taken[o]:
            continue
        ready = False
        for m in melds:
            if m.canastra and (m.clean or not r.clean_out) and not m.staged:
                ready = True
                break
        if not ready:
            level = max(level, 0.3)
            continue
        smallest = min(view.hand_sizes[s] for s in view.sides[o])
        level = max(level, 1.0 if smallest <= 3 else 0.6)
    return level


class HeuristicBot(Bot):
    """A fast rule-based player (see the module docstring for its strategy)."""

    name = "heuristic"
    wants_full_view = True

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._options: Mapping[str, Any] | None = None
        self._rules: _Rules | None = None
        self._melds_key: object = None
        self._tables: list[_SideTable] = []
        self._memories: dict[int, _Memory] = {}
        self._plans: dict[int, list[Meld]] = {}
        """The rest of each seat's opening plan this turn."""

    def new_hand(self) -> None:
        """Forget the previous hand."""
        self._memories.clear()
        self._plans.clear()

    # ----- entry point ---------------------------------------------------------------
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The heuristic choice (see the module docstring)."""
        if len(legal) == 1:
            return legal[0]
        r = self._rules_for(view)
        mem = self._memory_for(view)
        tables = self._tables_for(view, r)
        t = _Turn(view, r, tables, mem)
        phase = view.phase
        if phase == "draw":
            if mem is not None:
                mem.drawn = view.counts
            return self._draw(t, legal)
        if phase == "top-meld":
            return self._top_meld(t, legal)
        return self._play(t, legal)

    def _rules_for(self, view: SeatView) -> _Rules:
        if view.options is not self._options or self._rules is None:
            self._options = view.options
            self._rules = _Rules(view.options, view.options_values)
            self._melds_key = None
        return self._rules

    def _memory_for(self, view: SeatView) -> _Memory | None:
        if view.detail is None and not view.events:
            return None
        mem = self._memories.get(view.seat)
        if mem is None:
            mem = self._memories[view.seat] = _Memory(len(view.hand_sizes))
        mem.update(view)
        return mem

    def _tables_for(self, view: SeatView, r: _Rules) -> list[_SideTable]:
        melds = view.melds
        if melds is not self._melds_key:
            self._melds_key = melds
            tables = self._tables
            if len(tables) != len(melds):
                self._tables = [_SideTable(side, r) for side in melds]
            else:
                for i, side in enumerate(melds):
                    if not tables[i].same(side):
                        tables[i] = _SideTable(side, r)
        return self._tables

    # ----- drawing -------------------------------------------------------------------
    def _draw(self, t: _Turn, legal: Sequence[Action]) -> Action:
        if TAKE_PILE not in legal:
            return legal[0]
        if DRAW not in legal:
            return TAKE_PILE
        turns = _stock_left(t.view, t.r) / t.r.players
        base = _DRAW_VALUE if t.r.clean_out else _DRAW_VALUE_ANY
        threshold = base + _DRAW_SHORT * max(0.0, 1.0 - turns / _SHORT_TURNS)
        denial = self._denial(t)
        if self._pointless_swap(t):
            # a swap only keeps a card from a next player who takes nearly every lone card
            swap = self._take_rate(t) >= _SWAP_RATE and denial > threshold + _SWAP_COST
            return TAKE_PILE if swap else DRAW
        gain = self._pile_gain(t) + denial
        return TAKE_PILE if gain > threshold else DRAW

    def _take_rate(self, t: _Turn) -> float:
        """How often the next player took the pile when they could, this hand.

        With one imagined take and one imagined draw before the first turn, so that a
        few turns do not make a habit.
        """
        mem = t.mem
        if mem is None:
            return 0.5
        nxt = (t.view.seat + 1) % t.r.players
        return (mem.takes[nxt] + 1.0) / (mem.chances[nxt] + 2.0)

    def _denial(self, t: _Turn) -> float:
        """What taking the pile keeps from the next player, who would take it otherwise.

        Left, the pile goes with this seat's discard to the next player, an opponent;
        taken, only the discard does. Each card is worth something to any hand while
        the hand has long to go, more when it extends the opponents' melds; weighed by
        how often the next player took the pile when they could this hand.
        """
        view, r = t.view, t.r
        if r.top_meld or not view.pile:
            return 0.0
        nxt = (view.seat + 1) % r.players
        side = _side_of(view, nxt)
        if side == t.side:
            return 0.0
        rate = self._take_rate(t)
        worth = _DENY_CARD * t.horizon / (t.horizon + _DENY_HALF)
        fit = t.tables[side].fit
        total = (view.pile_size - len(view.pile)) * worth
        for c in view.pile:
            total += worth + (_DENY_WILD if _WILD[c] else _DENY_FIT * fit.get(c, 0.0))
        return (_DENY if r.sides == 2 else _DENY_MANY) * rate * total

    def _pointless_swap(self, t: _Turn) -> bool:
        """Whether taking a one-card pile would only swap its card for one worth as much.

        Under ``keep_taken_top`` a lone top card that cannot be melded at once stays in
        hand while another card is discarded. When the card that would go is worth no
        less to the bot than the one taken (another wild for a wild, a copy of it), the
        take makes no progress, and a run of such takes passes the same cards round the
        table; drawing from the stock brings a new card instead.
        """
        view, r = t.view, t.r
        if not r.keep_top or view.pile_size != 1 or not view.pile:
            return False
        top = view.pile[-1]
        with_top = list(t.counts)
        with_top[top] += 1
        if (
            not _WILD[top]
            and _classes(with_top, r, t.own).get(top, _JUNK) >= _MELD
            and (t.size >= 2 or _ready_to_go_out(view, r))
        ):
            return False  # it can be melded (with one card left over to discard)
        after = _Turn(view, r, t.tables, t.mem)  # the same decision, one card more
        after.counts = tuple(with_top)
        after.size = t.size + 1
        after.wilds = t.wilds + _WILD[top]
        held = [c for c in _CODES if with_top[c]]
        ranked = self._discard_scores(after, [Discard(c) for c in held])
        scores = dict(zip(held, ranked, strict=True))
        others = [scores[c] for c in held if c != top or t.counts[top]]
        return bool(others) and min(others) >= scores[top]

    def _pile_gain(self, t: _Turn) -> float:
        """What taking the pile is worth beyond the hand as it is."""
        view, r = t.view, t.r
        pile: Sequence[Card] = view.pile
        if not view.pile_open:
            mem = t.mem
            if mem is not None and len(mem.pile) == view.pile_size and mem.pile[-1:] == [*pile]:
                pile = mem.pile
        with_pile = list(t.counts)
        for c in pile:
            with_pile[c] += 1
        unknown = view.pile_size - len(pile)
        before = _potential(t.counts, r, t.own, t.risk, t.tempo)
        after = _potential(with_pile, r, t.own, t.risk, t.tempo)
        gain = after - before - unknown * (t.risk * r.average + t.tempo - 1.0)
        need = view.requirement[t.side]
        if need and not r.top_meld and _meldable_points(with_pile, r, t.own) < need:
            gain -= 10.0 + len(pile) * 3.0
        if r.keep_top and view.pile:
            top = view.pile[-1]
            if not _WILD[top] and _classes(with_pile, r, t.own).get(top, _JUNK) < _MELD:
                gain -= _KEPT_TOP_COST  # the top card stays in hand this turn
        if r.top_meld:
            gain += 10.0  # the top card is melded at once
            if _top_needs_wild(view.pile[-1], with_pile, r, t.own):
                gain -= _WILD_COST
        return gain

    # ----- a pile taken to meld its top card (fechado) --------------------------------
    def _top_meld(self, t: _Turn, legal: Sequence[Action]) -> Action:
        if t.view.requirement[t.side]:
            values = t.r.values
            return max(legal, key=lambda a: sum(values[c] for c in _cards_of(a)))
        melds = t.view.melds[t.side]
        return max(legal, key=lambda a: _top_score(a, melds))

    # ----- melding and discarding ----------------------------------------------------
    def _play(self, t: _Turn, legal: Sequence[Action]) -> Action:
        end = len(legal)
        first_meld, first_add, first_discard = play_sections(legal)
        if first_meld and self._turn_up(t):
            return TURN_UP
        melds = legal[first_meld:first_add]
        adds = legal[first_add:first_discard]
        if t.view.requirement[t.side]:
            act = self._opening(t, melds, adds)
        else:
            act = self._meld_step(t, melds, adds)
        if act is not None:
            return act
        if first_discard < end:
            return self._discard(t, legal[first_discard:])
        return legal[0]

    def _turn_up(self, t: _Turn) -> bool:
        """On the first turn: turn the first card up unless it fits the hand."""
        view = t.view
        card = view.detail.turn_up_card if view.detail is not None else None
        if card is None and t.mem is not None and t.mem.drawn is not None:
            drawn = [c for c in range(53) if view.counts[c] > t.mem.drawn[c]]
            card = drawn[0] if len(drawn) == 1 else None
        if card is None or _WILD[card]:
            return False
        classes = _classes(t.counts, t.r, t.own)
        return classes.get(card, _JUNK) < _ADJ and t.counts[card] == 1

    # ----- the initial meld ----------------------------------------------------------
    def _opening(self, t: _Turn, melds: Sequence[Action], adds: Sequence[Action]) -> Action | None:
        """A meld of a plan that reaches the initial-meld minimum this turn, if any.

        The plan is made when the first meld goes down and then followed, so the melds
        staged this turn always reach the minimum (an ``us`` attempt never fails).
        """
        view = t.view
        seat = view.seat
        staged = sum(m.points for m in view.melds[t.side] if m.staged)
        plan = self._plans.get(seat)
        if staged and plan and plan[0] in melds:
            return plan.pop(0)
        need = view.requirement[t.side] - staged
        values = t.r.values
        plan = _opening_plan([a for a in melds if type(a) is Meld], t.counts, values, need, t.size)
        if plan is not None:
            self._plans[seat] = plan[1:]
            return plan[0]
        if staged:
            # the plan went wrong (it should not happen): anything that brings points
            options = [a for a in (*melds, *adds) if type(a) in (Meld, Add)]
            if options:
                return max(options, key=lambda a: sum(values[c] for c in _cards_of(a)))
        return None

    # ----- melding once opened ---------------------------------------------------------
    def _meld_step(
        self, t: _Turn, melds: Sequence[Action], adds: Sequence[Action]
    ) -> Action | None:
        view, r = t.view, t.r
        side_melds = view.melds[t.side]
        racing = not view.pot_taken[t.side] and bool(view.pots)
        if racing:
            min_left = 0
        elif view.pot_taken[t.side]:
            min_left = 0 if self._want_out(t) else 2
        else:
            min_left = 2
        size = t.size
        move = _cleaning_move(adds, side_melds, r)
        if move is not None:
            return move
        add = _best_natural_add(adds, side_melds, size, min_left)
        if add is not None:
            return add
        meld = _best_clean_meld(melds, size, min_left)
        if meld is not None:
            return meld
        dump = t.imminent
        return _best_wild_play(t, melds, adds, side_melds, min_left, dump)

    def _want_out(self, t: _Turn) -> bool:
        """Whether to go out (when possible) rather than go on melding."""
        if t.threat >= 0.6 or t.end_near:
            return True
        view, r = t.view, t.r
        mine = float(view.table_points[t.side] + r.going_out_bonus)
        partners = [s for s in view.sides[t.side] if s != view.seat]
        mine -= sum(view.hand_sizes[s] for s in partners) * r.average
        others = []
        for o in range(len(view.melds)):
            if o == t.side:
                continue
            theirs = float(view.table_points[o])
            theirs -= sum(view.hand_sizes[s] for s in view.sides[o]) * r.average
            if not view.pot_taken[o]:
                theirs -= r.pot_penalty
            others.append(theirs)
        return mine + _OUT_MARGIN >= sum(others) / len(others)

    # ----- discarding ----------------------------------------------------------------
    def ranked_discards(self, view: SeatView, legal: Sequence[Action]) -> list[Action]:
        """The legal discards, the one this bot would play first, then by its preference.

        For a search bot that tries the heuristic's best few discards. Empty when
        ``legal`` holds no discard.

        >>> from buraco.game import Game
        >>> from buraco.views import seat_view
        >>> game = Game("aberto", players=2, seed=3, match=False)
        >>> game.apply("draw")
        >>> bot = HeuristicBot(seed=1)
        >>> ranked = bot.ranked_discards(seat_view(game, 0), game.legal_actions())
        >>> len(ranked) == len({a for a in game.legal_actions() if a.kind == "discard"})
        True
        """
        discards: list[Action] = [a for a in legal if type(a) is Discard]
        if len(discards) < 2:
            return discards
        r = self._rules_for(view)
        t = _Turn(view, r, self._tables_for(view, r), self._memory_for(view))
        scores = self._discard_scores(t, discards)
        order = sorted(range(len(discards)), key=scores.__getitem__)
        return [discards[i] for i in order]

    def _discard(self, t: _Turn, discards: Sequence[Action]) -> Action:
        if len(discards) == 1:
            return discards[0]
        scores = self._discard_scores(t, discards)
        return discards[min(range(len(discards)), key=scores.__getitem__)]

    def _discard_scores(self, t: _Turn, discards: Sequence[Action]) -> list[float]:
        """Keep value plus danger of each discard: the lowest is played."""
        r = t.r
        counts = t.counts
        classes = _classes(counts, r, t.own)
        danger = _Danger(t)
        fit = t.own.fit
        values = r.values
        value_weight = 1.0 if t.end_near else 0.3 + 0.7 * t.threat
        keep = _KEEP_SPARE if t.wilds > 1 else _KEEP
        scores: list[float] = []
        for a in discards:
            c = a.card  # type: ignore[union-attr]
            if _WILD[c]:
                score = _KEEP_WILD + values[c]
            else:
                k = classes.get(c, _JUNK)
                if counts[c] > 1:
                    k = _extra_class(c, k, counts, r)
                w = fit.get(c)
                score = _KEEP_FIT * w if w else keep[k]
                score -= values[c] * value_weight
                score += danger.of(c)
            scores.append(score)
        return scores


# ----- choosing among melds and adds -----------------------------------------------------


def _cards_of(a: Action) -> tuple[Card, ...]:
    if type(a) is Meld:
        return a.cards
    if type(a) is Add:
        return (a.card,)
    return ()


def _top_score(a: Action, melds: Sequence[MeldView]) -> float:
    """How good a play of the pile's top card is: clean, long, completing a canastra."""
    if type(a) is Meld:
        cards = a.cards
        return 10.0 * len(cards) - _TOP_WILD * wild_count(cards)
    if type(a) is Add:
        m = melds[a.meld]
        return 25.0 + 30.0 * (len(m.cards) == 6) - (_TOP_WILD if is_wild_add(a, m) else 0.0)
    return 0.0


def _top_needs_wild(top: Card, counts: Sequence[int], r: _Rules, own: _SideTable) -> bool:
    """Whether melding the pile's top card needs a wild card (``counts`` hold the pile)."""
    if _WILD[top] or top in own.fit:
        return False
    rank = _RANK[top]
    if (
        r.set_mask >> rank & 1
        and counts[rank] + counts[13 + rank] + counts[26 + rank] + counts[39 + rank] >= 3
    ):
        return False
    s = _SUIT[top]
    mask = 0
    for c in range(s * 13, s * 13 + 13):
        if counts[c] and not _WILD[c]:
            for p in r.positions[c]:
                mask |= 1 << p
    for p in r.positions[top]:
        for a, b in ((p - 2, p - 1), (p - 1, p + 1), (p + 1, p + 2)):
            if a >= 0 and b <= 13 and mask >> a & 1 and mask >> b & 1:
                return False
    return True


def _opening_plan(
    options: list[Meld], counts: Sequence[int], values: Sequence[int], need: int, size: int
) -> list[Meld] | None:
    """Disjoint melds worth ``need`` points that leave a card to discard, fewest wilds first."""
    if not options:
        return None
    points = {m: sum(values[c] for c in m.cards) for m in options}
    wilds = {m: wild_count(m.cards) for m in options}
    by_points = sorted(options, key=lambda m: -points[m])
    orders = (
        [m for m in by_points if not wilds[m]],
        sorted(options, key=lambda m: (wilds[m], -points[m])),
        by_points,
    )
    best: list[Meld] | None = None
    best_wilds = 99
    for pool in orders:
        plan = _greedy_plan(pool, counts, points, wilds, need, size)
        if plan is not None:
            used = sum(wilds[m] for m in plan)
            if used < best_wilds:
                best, best_wilds = plan, used
    return best


def _greedy_plan(
    pool: Sequence[Meld],
    counts: Sequence[int],
    points: Mapping[Meld, int],
    wilds: Mapping[Meld, int],
    need: int,
    size: int,
) -> list[Meld] | None:
    """Melds taken in ``pool`` order while the hand holds their cards, until ``need``."""
    left = list(counts)
    total = used = wild_total = 0
    plan: list[Meld] = []
    for m in pool:
        cards = m.cards
        if used + len(cards) > size - 1 or wild_total + wilds[m] > 2:
            continue
        for c in cards:
            left[c] -= 1
        if min(left[c] for c in cards) < 0:
            for c in cards:
                left[c] += 1
            continue
        plan.append(m)
        wild_total += wilds[m]
        used += len(cards)
        total += points[m]
        if total >= need:
            return plan
    return None


def _cleaning_move(adds: Sequence[Action], melds: Sequence[MeldView], r: _Rules) -> Action | None:
    """``us``: a move that sends a run's wild 2 home, making the run clean."""
    if not r.wild_moves:
        return None
    for a in adds:
        if type(a) is not MoveWild or a.to != Place.LOW:
            continue
        m = melds[a.meld]
        if m.wild is None or m.wild != len(m.cards) - 1 or m.lo != 2:
            continue
        if m.cards[m.wild] == m.suit * 13 + 1:
            return a
    return None


def _best_natural_add(
    adds: Sequence[Action], melds: Sequence[MeldView], size: int, min_left: int
) -> Action | None:
    """The natural card to add: one completing a canastra first, then to clean melds."""
    if size - 1 < min_left:
        return None
    best: Action | None = None
    best_score = -1.0
    for a in adds:
        if type(a) is not Add:
            continue
        m = melds[a.meld]
        if is_wild_add(a, m):
            continue
        n = len(m.cards)
        score = 10.0 + 40.0 * (n == 6) + 5.0 * m.clean + n * 0.5
        if score > best_score:
            best, best_score = a, score
    return best


def _best_clean_meld(melds: Sequence[Action], size: int, min_left: int) -> Action | None:
    """The longest clean new meld (then the one with the most points)."""
    best: Action | None = None
    best_len = 0
    for a in melds:
        cards = a.cards  # type: ignore[union-attr]
        n = len(cards)
        if n <= best_len or size - n < min_left:
            continue
        if wild_count(cards):
            continue
        best, best_len = a, n
    return best


def _best_wild_play(
    t: _Turn,
    melds: Sequence[Action],
    adds: Sequence[Action],
    side_melds: Sequence[MeldView],
    min_left: int,
    dump: bool,
) -> Action | None:
    """A play with a wild card, or None.

    To complete a canastra, to empty the hand, to use a wild card held beyond the one
    kept in reserve, or to dump points before the hand ends.
    """
    size = t.size
    spare = t.wilds > 1
    best: Action | None = None
    best_score = 0.0
    if size - 1 >= min_left:
        for a in adds:
            if type(a) is Add:
                m = side_melds[a.meld]
                if is_wild_add(a, m):
                    score = _wild_add_score(t, a, m, spare, dump, min_left)
                    if score > best_score:
                        best, best_score = a, score
    for a in melds:
        cards = a.cards  # type: ignore[union-attr]
        n = len(cards)
        left = size - n
        if left < min_left:
            continue
        score = 0.0
        if n >= 7:
            score = 45.0 + n
        elif left <= 1 and min_left == 0:
            score = 35.0 + n
        elif spare or dump:
            score = 5.0 + n
        if score > best_score:
            best, best_score = a, score
    return best


def _wild_add_score(t: _Turn, a: Add, m: MeldView, spare: bool, dump: bool, min_left: int) -> float:
    """How good adding a wild card to the side's meld ``m`` is (0: not worth it)."""
    n = len(m.cards)
    if not m.clean or n >= 7:
        return 0.0  # a clean canastra stays clean (and a dirty meld takes no wild)
    own = t.own
    if t.r.clean_out and not own.clean_canastra and own.best_clean == a.meld and not dump:
        return 0.0  # the side's hope of a clean canastra
    score = 0.0
    if n == 6:
        score = 50.0
    elif spare or dump:
        score = 5.0 + n
    if t.size - 1 <= 1 and min_left == 0:
        score += 30.0
    return score


# ----- the danger of a discard -------------------------------------------------------------


class _Danger:
    """How much a discard would help the next players."""

    __slots__ = (
        "fit",
        "known_masks",
        "known_ranks",
        "mult",
        "pile_masks",
        "pile_ranks",
        "positions",
        "safe",
    )

    def __init__(self, t: _Turn) -> None:
        view, r = t.view, t.r
        seat = view.seat
        n = r.players
        self.positions = r.positions
        self.fit: dict[Card, float] = {}
        nxt = (seat + 1) % n
        weights: dict[int, float] = {}
        for step in range(1, n):
            other = (seat + step) % n
            side = other % r.sides
            if side == t.side or side in weights:
                continue
            weights[side] = 1.0 if other == nxt else 0.6
        for side, w in weights.items():
            if not view.melds[side]:
                continue
            mine = self.fit
            for c, f in t.tables[side].fit.items():
                mine[c] = mine.get(c, 0.0) + w * f * _DANGER_FIT
        self.known_masks = [0, 0, 0, 0]
        self.known_ranks = 0
        self.safe: set[Card] = set()
        mem = t.mem
        if mem is not None:
            for c in mem.known[nxt]:
                if not _WILD[c]:
                    for p in r.positions[c]:
                        self.known_masks[_SUIT[c]] |= 1 << p
                    self.known_ranks |= 1 << _RANK[c]
            self.safe = mem.discarded[nxt]
        self.known_ranks &= r.set_mask
        self.pile_masks = [0, 0, 0, 0]
        self.pile_ranks: dict[int, int] = {}
        if view.pile_open and not r.top_meld:
            for c in view.pile:
                if not _WILD[c]:
                    for p in r.positions[c]:
                        self.pile_masks[_SUIT[c]] |= 1 << p
                    if r.set_mask >> _RANK[c] & 1:
                        self.pile_ranks[_RANK[c]] = self.pile_ranks.get(_RANK[c], 0) + 1
        self.mult = 1.0 + view.pile_size / 8.0

    def of(self, c: Card) -> float:
        """The danger of discarding the natural card ``c``."""
        d = self.fit.get(c, 0.0)
        s = _SUIT[c]
        km, pm = self.known_masks[s], self.pile_masks[s]
        links = 0
        pile_links = 0
        for p in self.positions[c]:
            near = _NEAR_BITS[p]
            links += (km & near).bit_count()
            pile_links += (pm & near).bit_count()
        rank = _RANK[c]
        if self.known_ranks >> rank & 1:
            links += 1
        pile_links += self.pile_ranks.get(rank, 0)
        d += links * _DANGER_KNOWN + pile_links * _DANGER_PILE
        if c in self.safe:
            d -= _SAFE_DISCARDED
        return d * self.mult


_NEAR_BITS = tuple(
    sum(1 << q for q in (p - 2, p - 1, p + 1, p + 2) if 0 <= q <= 13) for p in range(14)
)
