"""Dealing: each hand's deck (from the seed, or stacked), its cut, the hands and the mortos.

:func:`deck_for` builds a stacked deck that deals given cards (for tests and puzzles).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from buraco.actions import (
    Action,
)
from buraco.cards import (
    CARD_NAMES,
    JOKER,
    MAX_CARDS,
    N_CODES,
    Card,
    build_deck,
    is_wild_capable,
    parse_card,
    parse_cards,
)
from buraco.errors import (
    RulesError,
    shown,
)
from buraco.melds import TableMeld
from buraco.rules import Rules
from buraco.state import Event, GameState, HandDeal, Phase, Score

if TYPE_CHECKING:
    from buraco.views import MeldView


class Dealing(GameState):
    """Dealing a hand: the deck from the seed or the stack, the cut, the hands, the mortos."""

    def _deal_next(self) -> None:
        r = self.rules
        self.hand_number += 1
        number = self.hand_number
        self.dealer = (self.first_dealer + number) % self.n
        rng = random.Random(f"buraco:{self.seed}:{number}")
        if number < len(self._stacked):
            deck = list(self._stacked[number])
            expected = sorted(build_deck(r.decks, r.jokers_per_deck))
            if sorted(deck) != expected:
                raise RulesError(
                    f"stacked deck of hand {number + 1} is not the {r.deck_size}-card pack of "
                    f"these rules ({r.decks} decks, {r.jokers_per_deck} jokers each)"
                )
            cut = self._cuts[number] if number < len(self._cuts) else min(1, r.cut_spread)
        else:
            deck = build_deck(r.decks, r.jokers_per_deck)
            rng.shuffle(deck)
            cut = rng.randint(-r.cut_spread, r.cut_spread)
        self.deals.append(HandDeal(self.dealer, cut, list(deck)))
        self._setup_hand(deck, cut)

    def _setup_hand(self, deck: list[Card], cut: int) -> None:
        r = self.rules
        n = self.n
        self.hands = [[0] * N_CODES for _ in range(n)]
        self.sizes = [0] * n
        cutter = r.cutter_of(self.dealer)
        pos = 0
        if r.cutter_keeps_wild and is_wild_capable(deck[0]):
            self.hands[cutter][deck[0]] += 1
            self.sizes[cutter] = 1
            pos = 1
        self.pots: list[list[Card]] = []
        for size in r.pot_sizes:
            self.pots.append(deck[pos : pos + size])
            pos += size
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        keeper = cutter if self.sizes[cutter] else -1  # skipped in the first round (001)
        for rnd in range(r.hand_size):
            for s in order:
                if rnd == 0 and s == keeper:
                    continue
                self.hands[s][deck[pos]] += 1
                self.sizes[s] += 1
                pos += 1
        self.pile: list[Card] = []
        self.upcard = -1
        if r.upcard:
            self.upcard = deck[pos]
            self.pile.append(deck[pos])
            pos += 1
        self.stock: list[Card] = deck[pos:][::-1]  # top card last
        k = self.k
        self.melds: list[list[TableMeld]] = [[] for _ in range(k)]
        # every side's meld views and table points, cached by buraco.views until a meld changes
        self.table_views: tuple[tuple[tuple[MeldView, ...], ...], tuple[int, ...]] | None = None
        self.pot_taken = [False] * k
        self.pot_used = [False] * k
        self.unplayed = [False] * n
        self.hidden = [False] * n
        self.turns_started = [0] * n
        self.vulnerable = [
            r.vulnerable_minimum > 0 and self.totals[s] >= r.vulnerable_threshold for s in range(k)
        ]
        self.requirement = [
            r.vulnerable_minimum if self.vulnerable[s] else r.opening_minimum for s in range(k)
        ]
        self.opened = [req == 0 for req in self.requirement]
        self.staged_value = 0
        self.cut = cut
        self.cut_points = [0] * k
        if r.cut_bonus == "pots" and cut == 0:
            self.cut_points[self.side_of[cutter]] += r.cut_bonus_points
        elif r.cut_bonus == "deal":
            if cut == 0:
                for s in range(k):
                    if s != self.side_of[self.dealer]:
                        self.cut_points[s] += r.cut_bonus_points
            elif cut < 0:
                self.cut_points[self.side_of[cutter]] -= r.cut_bonus_points
        self.turn = order[0]
        self.phase = Phase.DRAW
        self.first_card = -1
        self.first_draw = r.first_card_choice and not self.pile
        self.taken_top = -1
        self.taken_melded = False
        self.top_to_meld = -1
        self.moved: set[int] = set()
        self.last_turn = False
        self.must_open = False
        self.pile_streak = 0
        self.went_out = -1
        self.ended_by = ""
        self.events: list[Event] = []
        self.hand_events.append(self.events)
        # per seat: the events as that seat saw them, built by buraco.views as needed
        self.seen_cache: list[Any] = [None] * (n + 1)  # the last: spectators
        self._legal: tuple[Action, ...] | None = None
        self.score_cache: list[Score] | None = None
        # mortos, totals, vulnerability and minimums as views show them (see buraco.views);
        # reset whenever one of them changes
        self.public_cache: (
            tuple[
                tuple[int, ...],
                tuple[bool, ...],
                tuple[int, ...],
                tuple[bool, ...],
                tuple[int, ...],
            ]
            | None
        ) = None


def deck_codes(deck: Iterable[Card | str]) -> list[Card]:
    """A stacked deck as card codes: from a string of card names, or a list of names or codes."""
    if isinstance(deck, str):
        return parse_cards(deck)
    if not isinstance(deck, list | tuple) or len(deck) > MAX_CARDS:
        raise RulesError(
            f"a stacked deck is a string or a list of at most {MAX_CARDS} cards, not {shown(deck)}"
        )
    items = list(deck)
    out = []
    for c in items:
        if isinstance(c, str):
            out.append(parse_card(c))
        elif type(c) is int and 0 <= c < N_CODES:
            out.append(c)
        else:
            raise RulesError(f"a stacked deck holds card names or codes 0-52, not {shown(c)}")
    return out


def deck_for(
    rules: Rules,
    *,
    dealer: int = 0,
    hands: Sequence[str | Iterable[Card]] | None = None,
    pots: Sequence[str | Iterable[Card]] | None = None,
    stock: str | Iterable[Card] = "",
    upcard: str | None = None,
    cutter_wild: str | None = None,
) -> list[Card]:
    """A deck order that deals the given cards (a stacked deck for tests and puzzles).

    ``hands[seat]`` lists a seat's cards, ``pots`` the mortos in the order they
    are taken, ``stock`` the top cards of the stock (top first). Cards not
    named fill the rest in code order; a hand, pot or stock given with fewer
    cards than the deal needs is completed the same way. ``dealer`` must match
    the game's dealer of that hand.
    """
    from buraco.cards import counts_of

    def codes(x: str | Iterable[Card]) -> list[Card]:
        return deck_codes(x)

    if not isinstance(rules, Rules):
        raise RulesError(f"deck_for needs a Rules (from make_rules), not {shown(rules)}")
    r = rules
    n = r.players
    if type(dealer) is not int or not 0 <= dealer < n:
        raise RulesError(f"dealer must be a seat from 0 to {n - 1}, not {shown(dealer)}")
    if hands is not None and (not isinstance(hands, list | tuple) or len(hands) > n):
        raise RulesError(f"hands lists at most {n} hands, one per seat, not {shown(hands)}")
    pot_count = len(r.pot_sizes)
    if pots is not None and (not isinstance(pots, list | tuple) or len(pots) > pot_count):
        raise RulesError(f"pots lists at most {pot_count} mortos, not {shown(pots)}")
    pool = counts_of(build_deck(r.decks, r.jokers_per_deck))

    def take(cards: list[Card], what: str) -> list[Card]:
        for c in cards:
            if pool[c] <= 0:
                raise RulesError(f"{what}: the pack has no more {CARD_NAMES[c]}")
            pool[c] -= 1
        return cards

    given_hands = [
        take(codes(hands[s]) if hands and s < len(hands) else [], f"seat {s}") for s in range(n)
    ]
    given_pots = [
        take(codes(pots[i]) if pots and i < len(pots) else [], f"pot {i + 1}")
        for i in range(len(r.pot_sizes))
    ]
    given_stock = take(codes(stock), "stock")
    up = take([parse_card(upcard)], "upcard") if upcard else []
    keep = take([parse_card(cutter_wild)], "cutter") if cutter_wild else []

    cursor = [0]

    def fill(cards: list[Card], size: int, what: str) -> list[Card]:
        if len(cards) > size:
            raise RulesError(f"{what}: {len(cards)} cards given but it holds {size}")
        out = list(cards)
        while len(out) < size:
            while pool[_FILLER_ORDER[cursor[0]]] <= 0:
                cursor[0] += 1
            c = _FILLER_ORDER[cursor[0]]
            cursor[0] += 1
            pool[c] -= 1
            out.append(c)
        return out

    cutter = r.cutter_of(dealer)
    hand_sizes = [r.hand_size - (1 if keep and s == cutter else 0) for s in range(n)]
    full_hands = [fill(given_hands[s], hand_sizes[s], f"seat {s}") for s in range(n)]
    full_pots = [fill(given_pots[i], size, f"pot {i + 1}") for i, size in enumerate(r.pot_sizes)]
    if r.upcard and not up:
        up = fill([], 1, "upcard")
    if r.cutter_keeps_wild and not keep and full_pots and is_wild_capable(full_pots[0][0]):
        # the first card is the one seen at the cut: put a plain card there
        first = full_pots[0]
        plain = next((i for i, c in enumerate(first) if not is_wild_capable(c)), None)
        if plain is None:
            raise RulesError("pot 1: with cutter_keeps_wild, the first morto needs a plain card")
        first[0], first[plain] = first[plain], first[0]
    deck: list[Card] = list(keep)
    for p in full_pots:
        deck.extend(p)
    order = [(dealer + 1 + i) % n for i in range(n)]
    idx = [0] * n
    for rnd in range(r.hand_size):
        for s in order:
            if rnd == 0 and keep and s == cutter:
                continue
            deck.append(full_hands[s][idx[s]])
            idx[s] += 1
    deck.extend(up)
    deck.extend(given_stock)
    for c in _FILLER_ORDER:
        while pool[c] > 0:
            deck.append(c)
            pool[c] -= 1
    return deck


def _filler_order() -> tuple[Card, ...]:
    # Twelve cards of twelve ranks, no two of a suit within two ranks of each other,
    # so that filler cards make no meld among themselves; then the same with the
    # suits rotated; then second copies; wild cards last.
    pattern = [
        (0, 0),
        (3, 0),
        (6, 0),
        (9, 0),
        (2, 1),
        (5, 1),
        (8, 1),
        (11, 1),
        (4, 2),
        (7, 2),
        (10, 2),
        (12, 3),
    ]
    order = [(s + rot) % 4 * 13 + rank for rot in range(4) for rank, s in pattern]
    wilds = [1, 14, 27, 40, JOKER]
    return tuple(order * 3 + wilds * 3)


_FILLER_ORDER = _filler_order()
