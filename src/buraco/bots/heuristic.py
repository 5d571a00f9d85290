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
    extra cards to shed before the morto), beats a stock card. In a closed pile the
    bot knows the cards under the top from the discards it saw. On the first turn it
    keeps the first card only if it fits the hand.

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
from buraco.bots.base import Bot
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
_KEEP_FIT = 120.0
"""Keep value of a card that extends one of the side's melds."""
_KEEP_WILD = 400.0
_POTENTIAL = (0.0, 2.0, 4.0, 10.0)
"""Potential of a card by class (a meld-class card also counts its points)."""
_POTENTIAL_WILD = 22.0
_DRAW_VALUE = 4.0
"""What a card from the stock is worth, for comparison with the pile."""
_DANGER_FIT = 45.0
"""Danger of a card that extends an opponent's meld (per weight unit)."""
_DANGER_KNOWN = 18.0
"""Danger per card the next player is known to hold next to the discard."""
_DANGER_PILE = 5.0
"""Danger per card of an open pile that the discard would join."""
_SAFE_DISCARDED = 8.0
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
        self.keep_top = bool(options["keep_taken_top"])
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


class _SideTable:
    """A side's melds digested: which cards extend them, and their run positions."""

    __slots__ = ("best_clean", "clean_canastra", "covered", "fit", "set_ranks", "virtual")

    def __init__(self, melds: Sequence[MeldView], r: _Rules) -> None:
        self.fit = [0.0] * 53
        """Weight of each natural card that extends a meld (0 when it extends none)."""
        self.virtual = [0, 0, 0, 0]
        """Run positions each suit's melds occupy (counted as held when reading a hand)."""
        self.covered = [0, 0, 0, 0]
        """The same without the wild cards' places (a card there adds nothing)."""
        self.set_ranks = 0
        self.clean_canastra = False
        self.best_clean = -1
        """Index of the longest clean meld: the side's hope of a clean canastra."""
        best_size = 0
        for i, m in enumerate(melds):
            size = len(m.cards)
            weight = 1.0 + (size >= 6) + (size == 6 and m.clean)
            if m.canastra and m.clean and not m.staged:
                self.clean_canastra = True
            if m.clean and size > best_size:
                best_size, self.best_clean = size, i
            if m.run:
                self._add_run(m, r, weight)
            else:
                self.set_ranks |= 1 << m.rank
                for t in range(4):
                    c = t * 13 + m.rank
                    self.fit[c] = max(self.fit[c], weight)

    def _add_run(self, m: MeldView, r: _Rules, weight: float) -> None:
        s, lo, hi = m.suit, m.lo, m.hi
        span = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
        self.virtual[s] |= span
        wpos = lo + m.wild if m.wild is not None else -1
        self.covered[s] |= span & ~(1 << wpos) if wpos >= 0 else span
        ends = []
        if lo - 1 >= r.min_pos:
            ends.append(lo - 1)
        if hi + 1 <= r.max_pos:
            ends.append(hi + 1)
        if wpos >= 0 and ends:
            ends.append(wpos)
        for p in ends:
            c = _card_at(s, p)
            self.fit[c] = max(self.fit[c], weight)


# ----- memory of the hand ---------------------------------------------------------------


class _Memory:
    """What one seat learnt from the hand's history (full views only)."""

    __slots__ = ("discarded", "drawn", "known", "last_event", "pile", "seen", "turn_cards")

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
        if fit[c]:
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
    return _POTENTIAL[k] - risk * v * 0.5


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


def _wild_count(cards: Sequence[Card]) -> int:
    """Wild cards in a meld's cards (a 2 between the ace and the 3 of its suit is natural)."""
    n = 0
    for i, c in enumerate(cards):
        if c == JOKER:
            n += 1
        elif c % 13 == 1:
            s = c - 1
            natural = 0 < i < len(cards) - 1 and cards[i - 1] == s and cards[i + 1] == s + 2
            if not natural:
                n += 1
    return n


def _is_wild_add(a: Add, m: MeldView) -> bool:
    """Whether an add puts a wild card on the meld (not a 2 in its natural place)."""
    c = a.card
    if c == JOKER:
        return True
    if c % 13 != 1:
        return False
    if not m.run:
        return m.rank != 1
    return not (c // 13 == m.suit and a.place == Place.LOW and m.lo == 2)


# ----- the bot ---------------------------------------------------------------------------


class _Turn:
    """One decision's digest of the view."""

    __slots__ = (
        "counts",
        "end_near",
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
        self.threat = _threat(view, r)
        self.end_near = view.last_turn or _stock_left(view, r) <= 2 * r.players
        racing = not view.pot_taken[view.side] and bool(view.pots)
        self.risk = 0.9 if self.threat or self.end_near else 0.25
        self.tempo = 2.0 if racing else 1.0


def _stock_left(view: SeatView, r: _Rules) -> int:
    """Cards still to be drawn before the hand ends by the stock."""
    if r.pot_to_stock:
        return view.stock + sum(view.pots)
    return view.stock


def _threat(view: SeatView, r: _Rules) -> bool:
    """Whether an opponent side could go out soon (morto taken and a canastra that counts)."""
    side = view.side
    for o, melds in enumerate(view.melds):
        if o == side or not view.pot_taken[o]:
            continue
        for m in melds:
            if m.canastra and (m.clean or not r.clean_out) and not m.staged:
                return True
    return False


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

    def new_hand(self) -> None:
        """Forget the previous hand."""
        self._memories.clear()

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
        if view.melds is not self._melds_key:
            self._melds_key = view.melds
            self._tables = [_SideTable(side, r) for side in view.melds]
        return self._tables

    # ----- drawing -------------------------------------------------------------------
    def _draw(self, t: _Turn, legal: Sequence[Action]) -> Action:
        if TAKE_PILE not in legal:
            return legal[0]
        if DRAW not in legal:
            return TAKE_PILE
        return TAKE_PILE if self._pile_gain(t) > _DRAW_VALUE else DRAW

    def _pile_gain(self, t: _Turn) -> float:
        """What taking the pile is worth beyond the hand as it is."""
        view, r = t.view, t.r
        pile: Sequence[Card] = view.pile
        if not view.pile_open:
            mem = t.mem
            if mem is not None and len(mem.pile) == view.pile_size:
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
        if r.top_meld:
            gain += 10.0  # the top card is melded at once
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
        first_discard = end
        while first_discard > 0 and type(legal[first_discard - 1]) is Discard:
            first_discard -= 1
        first_add = first_discard
        while first_add > 0 and type(legal[first_add - 1]) in (Add, MoveWild):
            first_add -= 1
        first_meld = 0
        if legal and type(legal[0]) is TurnUp:
            first_meld = 1
            if self._turn_up(t):
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
        """A meld of a plan that reaches the initial-meld minimum this turn, if any."""
        view = t.view
        own = view.melds[t.side]
        staged = sum(m.points for m in own if m.staged)
        need = view.requirement[t.side] - staged
        values = t.r.values
        plan = _opening_plan(melds, t.counts, values, need, t.size)
        if plan is not None:
            return plan
        if staged:
            # already started (it should not happen): anything that brings points
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
        dump = t.threat or t.end_near or (min_left == 0 and (racing or size <= 4))
        return _best_wild_play(t, melds, adds, side_melds, min_left, dump)

    def _want_out(self, t: _Turn) -> bool:
        """Whether to go out (when possible) rather than go on melding."""
        if t.threat or t.end_near:
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
        return mine >= sum(others) / len(others)

    # ----- discarding ----------------------------------------------------------------
    def _discard(self, t: _Turn, discards: Sequence[Action]) -> Action:
        if len(discards) == 1:
            return discards[0]
        r = t.r
        counts = t.counts
        classes = _classes(counts, r, t.own)
        danger = _Danger(t)
        fit = t.own.fit
        values = r.values
        value_weight = 1.0 if t.threat or t.end_near else 0.3
        best = discards[0]
        best_score = 1e18
        for a in discards:
            c = a.card  # type: ignore[union-attr]
            if _WILD[c]:
                score = _KEEP_WILD + values[c]
            else:
                k = classes.get(c, _JUNK)
                if counts[c] > 1:
                    k = _extra_class(c, k, counts, r)
                score = _KEEP_FIT * fit[c] if fit[c] else _KEEP[k]
                score -= values[c] * value_weight
                score += danger.of(c)
            if score < best_score:
                best, best_score = a, score
        return best


# ----- choosing among melds and adds -----------------------------------------------------


def _cards_of(a: Action) -> tuple[Card, ...]:
    if type(a) is Meld:
        return a.cards
    if type(a) is Add:
        return (a.card,)
    return ()


def _top_score(a: Action, melds: Sequence[MeldView]) -> float:
    """How good a play of the pile's top card is: long and clean."""
    if type(a) is Meld:
        cards = a.cards
        return 10.0 * len(cards) - 25.0 * _wild_count(cards)
    if type(a) is Add:
        m = melds[a.meld]
        return 12.0 + 30.0 * (len(m.cards) == 6)
    return 0.0


def _opening_plan(
    melds: Sequence[Action], counts: Sequence[int], values: Sequence[int], need: int, size: int
) -> Action | None:
    """The first meld of disjoint melds worth ``need`` points, clean ones first."""
    options = [a for a in melds if type(a) is Meld]
    if not options:
        return None
    scored = sorted(options, key=lambda m: -sum(values[c] for c in m.cards))
    clean = [m for m in scored if not _wild_count(m.cards)]
    for pool in (clean, scored):
        found = _greedy_plan(pool, counts, values, need, size)
        if found is not None:
            return found
    return None


def _greedy_plan(
    pool: Sequence[Action], counts: Sequence[int], values: Sequence[int], need: int, size: int
) -> Action | None:
    left = list(counts)
    total = 0
    used = 0
    first: Action | None = None
    wilds = 0
    for m in pool:
        cards = m.cards  # type: ignore[union-attr]
        if used + len(cards) > size - 1:
            continue
        w = _wild_count(cards)
        if wilds + w > 2:
            continue
        for c in cards:
            left[c] -= 1
        if min(left[c] for c in cards) < 0:
            for c in cards:
                left[c] += 1
            continue
        wilds += w
        used += len(cards)
        total += sum(values[c] for c in cards)
        if first is None:
            first = m
        if total >= need:
            return first
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
        if _is_wild_add(a, m):
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
        if _wild_count(cards):
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
    """A play with a wild card: to complete a canastra, to empty the hand, or to dump."""
    size = t.size
    own = t.own
    best: Action | None = None
    best_score = 0.0
    for a in adds:
        if type(a) is not Add:
            continue
        m = side_melds[a.meld]
        if not _is_wild_add(a, m) or size - 1 < min_left:
            continue
        n = len(m.cards)
        score = 0.0
        if n == 6 and m.clean:
            keep_clean = t.r.clean_out and not own.clean_canastra and own.best_clean == a.meld
            if not keep_clean or dump:
                score = 50.0
        elif n >= 7 and m.clean:
            score = 0.0  # a clean canastra stays clean
        elif dump:
            score = 5.0 + n
        if size - 1 <= 1 and min_left == 0:
            score += 30.0
        if score > best_score:
            best, best_score = a, score
    for a in melds:
        cards = a.cards  # type: ignore[union-attr]
        n = len(cards)
        left = size - n
        if left < min_left:
            continue
        score = 0.0
        if n >= 6:
            score = 40.0 + n
        elif left <= 1 and min_left == 0:
            score = 35.0 + n
        elif dump:
            score = 5.0 + n
        if score > best_score:
            best, best_score = a, score
    return best


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
        self.fit = [0.0] * 53
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
            fit = t.tables[side].fit
            mine = self.fit
            for c in range(52):
                if fit[c]:
                    mine[c] += w * fit[c] * _DANGER_FIT
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
        d = self.fit[c]
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
