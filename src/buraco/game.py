"""The game: a match of Buraco hands under one set of rules.

>>> g = Game("aberto", players=4, seed=1)
>>> g.to_move, g.phase.name
(1, 'DRAW')
>>> [str(a) for a in g.legal_actions()]
['draw']
>>> g.apply("draw")
>>> g.apply("take-pile")
Traceback (most recent call last):
...
buraco.errors.IllegalAction: you have drawn already this turn; now meld, add or discard
>>> g.clone().to_move
1

A game is fully defined by its rules, the deck order of each hand (from a seed
or given), and its actions; see :mod:`buraco.record`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import compress
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from buraco.actions import (
    ACTION_TYPES,
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
    check_action,
    parse_action,
)
from buraco.cards import (
    CARD_NAMES,
    JOKER,
    MAX_CARDS,
    N_CODES,
    Card,
    build_deck,
    cards_of,
    is_wild_capable,
    parse_card,
    parse_cards,
)
from buraco.errors import (
    BuracoError,
    IllegalAction,
    NotationError,
    RulesError,
    SeatError,
    WordedError,
    shown,
)
from buraco.explain import explain
from buraco.melds import TableMeld
from buraco.movegen import MoveTables
from buraco.notes import note
from buraco.opening import can_reach
from buraco.refusals import Refusal
from buraco.rules import PRESETS, Rules, make_rules
from buraco.text import has_control

if TYPE_CHECKING:
    from buraco.views import MeldView

_DISCARDS = tuple(Discard(c) for c in range(N_CODES))


STREAK_NOTE = "must draw from the stock (pile_streak_limit)"
"""How a hand's log starts the note of a turn on which ``pile_streak_limit`` forbids the pile."""


class Phase(IntEnum):
    """Where the player to move is in the turn."""

    DRAW = 0
    """Start of the turn: draw from the stock or take the pile."""
    PLAY = 1
    """Drawn: meld, add, (us) move a wild, or discard to end the turn."""
    TOP_MELD = 2
    """``pile_top_meld``: the pile was taken; its top card must be melded now."""
    OVER = 3
    """The hand is over."""


@dataclass(frozen=True)
class Score:
    """One side's score for a hand: every part and the total."""

    side: int
    melds: int
    """Card values of the side's melded cards."""
    bonuses: int
    """Canastra bonuses."""
    hand: int
    """Minus the card values left in the side's hands (an unplayed morto counts as
    ``-pot_penalty`` instead when ``unplayed_pot`` is ``penalty``)."""
    pot: int
    """Minus the penalty when the side never took its morto (or, with
    ``unused_pot_penalty``, took it and put no card on the table afterwards)."""
    going_out: int
    """The going-out bonus."""
    cut: int
    """Cut bonus or penalty."""
    rounding: int
    """What rounding up to a multiple of 10 added."""
    canastras: tuple[str, ...] = ()
    """Kinds of the side's canastras (``clean``, ``dirty``, ...)."""

    @property
    def total(self) -> int:
        """The hand's score for the side."""
        return (
            self.melds
            + self.bonuses
            + self.hand
            + self.pot
            + self.going_out
            + self.cut
            + (self.rounding)
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "side": self.side,
            "melds": self.melds,
            "bonuses": self.bonuses,
            "hand": self.hand,
            "pot": self.pot,
            "going_out": self.going_out,
            "cut": self.cut,
            "rounding": self.rounding,
            "total": self.total,
            "canastras": list(self.canastras),
        }


@dataclass
class HandResult:
    """How a finished hand ended and what each side scored."""

    number: int
    dealer: int
    ended_by: str
    """``going-out`` or ``stock`` (the stock ran out) or ``blocked`` (no draw possible)."""
    went_out: int | None
    """The side that went out, if any."""
    scores: list[Score]
    totals: list[int]
    """Match totals after the hand."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "ended_by": self.ended_by,
            "went_out": self.went_out,
            "scores": [s.as_dict() for s in self.scores],
            "totals": list(self.totals),
        }


class Event(NamedTuple):
    """One entry of a hand's log: an action by a seat or something that followed it."""

    seat: int
    action: Action | None
    card: Card = -1
    """The card a draw or turn-up took from the stock (private to the seat)."""
    note: str = ""
    """A public consequence: ``took the morto``, ``opening short``, ... (in English)."""
    cards: tuple[Card, ...] = ()
    """The cards of a pile that was taken, or the card turned up by ``turn-up``."""
    code: str = ""
    """The note's code (:data:`buraco.notes.NOTES`), for a front end to word it."""
    params: tuple[tuple[str, int | str], ...] = ()
    """The note's parameters, as (name, value) pairs."""


@dataclass
class HandDeal:
    """How one hand was dealt: the dealer, the cut and the deck order (top first)."""

    dealer: int
    cut: int
    deck: list[Card] = field(default_factory=list)


class Game:
    """A Buraco match (or a single hand) with its full state.

    ``rules`` is a :class:`~buraco.rules.Rules` or a preset name (then
    ``players`` and ``**options`` complete it). Randomness comes from ``seed``;
    ``stacked`` gives the deck order of successive hands instead (top card
    first) and ``cuts`` their cuts (see :class:`HandDeal`). With ``match=False``
    the game is one hand. ``scores`` sets the sides' match totals at the start.
    """

    def __init__(
        self,
        rules: Rules | str = "aberto",
        /,
        *,
        players: int | None = None,
        seed: int | None = None,
        stacked: Sequence[Sequence[Card | str]] | None = None,
        cuts: Sequence[int] | None = None,
        match: bool = True,
        first_dealer: int | None = None,
        scores: Sequence[int] | None = None,
        names: Sequence[str] | None = None,
        **options: Any,
    ) -> None:
        if isinstance(rules, str):
            rules = make_rules(rules, players=players, **options)
        elif not isinstance(rules, Rules):
            raise RulesError(
                f"rules must be a preset name ({', '.join(PRESETS)}) or a Rules from "
                f"make_rules, not {type(rules).__name__}"
            )
        elif players is not None or options:
            changes = dict(options)
            if players is not None:
                changes["players"] = players
            rules = rules.replace(**changes)
        self.rules = rules
        self.tables = _tables_for(rules)
        self.options_view: Mapping[str, Any] = MappingProxyType(
            {k: tuple(v) if isinstance(v, list) else v for k, v in rules.options().items()}
        )
        self.values = rules.values
        self.n = rules.players
        self.k = rules.sides
        self.side_of = [rules.side_of(s) for s in range(self.n)]
        self.side_seats = tuple(rules.seats_of(s) for s in range(self.k))
        self.teammates = [
            [t for t in range(self.n) if t != s and self.side_of[t] == self.side_of[s]]
            for s in range(self.n)
        ]
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise RulesError(f"seed must be a whole number from 0 to {MAX_SEED}, not {shown(seed)}")
        self.seed = seed
        if type(match) is not bool:
            raise RulesError(f"match must be True or False, not {shown(match)}")
        self.match = match
        self.names = check_names(names, self.n)
        self._stacked = [_deck_codes(d) for d in _listed(stacked, "stacked", "decks")]
        self._cuts = _listed(cuts, "cuts", "cuts")
        spread = rules.cut_spread
        for c in self._cuts:
            if type(c) is not int or not -spread <= c <= spread:
                raise RulesError(
                    f"a cut is a whole number from {-spread} to {spread} (cut_spread), "
                    f"not {shown(c)}"
                )
        if first_dealer is None:
            first_dealer = random.Random(f"buraco:{seed}:dealer").randrange(self.n)
        if type(first_dealer) is not int or not 0 <= first_dealer < self.n:
            raise RulesError(
                f"first_dealer must be a seat from 0 to {self.n - 1}, not {shown(first_dealer)}"
            )
        self.first_dealer = first_dealer
        if scores is not None and (
            not isinstance(scores, list | tuple)
            or len(scores) != self.k
            or not all(type(x) is int and abs(x) <= MAX_SCORE for x in scores)
        ):
            raise RulesError(
                f"give {self.k} starting scores, one per side, whole numbers from "
                f"{-MAX_SCORE} to {MAX_SCORE}"
            )
        self.totals = list(scores) if scores is not None else [0] * self.k
        self.start_totals = list(self.totals)
        self.results: list[HandResult] = []
        self.deals: list[HandDeal] = []
        self.hand_events: list[list[Event]] = []
        self.hand_number = -1
        self.winner: int | None = None
        self.stopped = False
        self.resigned = -1
        """The seat whose player conceded the match (-1: none)."""
        """Whether the match was ended early by :meth:`stop_match` (a timed match)."""
        self._deal_next()

    # ================================================================================
    # dealing
    # ================================================================================
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

    # ================================================================================
    # public state
    # ================================================================================
    @property
    def players(self) -> int:
        """Number of players."""
        return self.n

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None when the hand is over."""
        return None if self.phase == Phase.OVER else self.turn

    def is_hand_over(self) -> bool:
        """Whether the current hand has ended."""
        return self.phase == Phase.OVER

    def is_match_over(self) -> bool:
        """Whether the match has a winner (always False in a single-hand game)."""
        return self.winner is not None

    def is_over(self) -> bool:
        """Whether nothing more can be played: the match is won (or stopped), or the hand ended."""
        if self.match:
            return self.winner is not None or self.stopped or self.resigned >= 0
        return self.phase == Phase.OVER

    def stop_match(self) -> None:
        """End the match after the hand just played: a timed match whose time is up.

        The side ahead wins; sides level at the top leave the match drawn (no
        winner). Only between hands of a match that is not over.

        >>> g = Game("aberto", players=2, seed=1)
        >>> g.stop_match()
        Traceback (most recent call last):
        ...
        buraco.errors.IllegalAction: a match is stopped only between hands
        """
        if not self.match:
            raise IllegalAction(Refusal("not-a-match"))
        if self.is_over():
            raise IllegalAction(Refusal("match-over"))
        if self.phase != Phase.OVER:
            raise IllegalAction(Refusal("hand-not-over.stop"))
        self.stopped = True
        best = max(self.totals)
        leaders = [s for s in range(self.k) if self.totals[s] == best]
        self.winner = leaders[0] if len(leaders) == 1 else None

    def resign(self, seat: int) -> None:
        """The player at ``seat`` concedes the match: their side loses it, now.

        A hand in play ends where it stands and is scored (``ended_by`` ``resigned``).
        The winner is the other side; with more than two, the one ahead of the rest
        (level leaders: no winner).

        >>> g = Game("aberto", players=4, seed=1)
        >>> g.resign(1)
        >>> g.is_over(), g.winner, g.results[-1].ended_by
        (True, 0, 'resigned')
        """
        if not self.match:
            raise IllegalAction(Refusal("not-a-match"))
        if self.is_over():
            raise IllegalAction(Refusal("match-over"))
        side = self.side_of[self._check_seat(seat)]
        if self.phase != Phase.OVER:
            self._end_hand("resigned")
        self.resigned = seat
        others = [s for s in range(self.k) if s != side]
        best = max(self.totals[s] for s in others)
        leaders = [s for s in others if self.totals[s] == best]
        self.winner = leaders[0] if len(leaders) == 1 else None

    def hand(self, seat: int) -> list[Card]:
        """The cards in a seat's hand (code order). Hidden information: see :meth:`view`."""
        return cards_of(self.hands[self._check_seat(seat)])

    def side_melds(self, side: int) -> list[TableMeld]:
        """A side's melds, in the order they were made (meld number = index + 1)."""
        return self.melds[self._check_side(side)]

    def requirement_left(self, side: int) -> int:
        """The side's initial-meld minimum this hand, or 0 once it has opened.

        Melds staged this turn count toward it (see :attr:`staged_value`).
        """
        if self.opened[self._check_side(side)]:
            return 0
        return self.requirement[side]

    def _check_seat(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise SeatError(f"a seat is a number from 0 to {self.n - 1}, not {shown(seat)}")
        return seat

    def _check_side(self, side: object) -> int:
        if type(side) is not int or not 0 <= side < self.k:
            raise SeatError(f"a side is a number from 0 to {self.k - 1}, not {shown(side)}")
        return side

    # ================================================================================
    # legal actions
    # ================================================================================
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to move, in a fixed order (empty when over).

        The order: turn-up, new melds (runs by suit, then sets), adds, wild moves,
        discards.
        """
        legal = self._legal
        if legal is None:
            phase = self.phase
            if phase == Phase.PLAY:
                found = self._play_actions()
            elif phase == Phase.DRAW:
                found = []
                if self.stock:
                    found.append(DRAW)
                if (
                    self.pile
                    and not self.first_draw
                    and (
                        self.pile_streak < self.rules.pile_streak_limit
                        or not self.rules.pile_streak_limit
                    )
                    and self._pile_takeable()
                ):
                    found.append(TAKE_PILE)
            elif phase == Phase.TOP_MELD:
                found = self._top_meld_actions(self.hands[self.turn], self.sizes[self.turn])
            else:
                found = []
            legal = self._legal = tuple(found)
        return legal

    def is_legal(self, action: Action | str) -> bool:
        """Whether an action (or action text) is legal now.

        False for anything that is not an action: text that does not parse, a value
        of the wrong type or with impossible fields.
        """
        try:
            act = self._resolve(action)
        except BuracoError:
            return False
        return act in self.legal_actions()

    def _new_melds(self, h: list[int]) -> list[Meld]:
        return self.tables.melds(h, self._set_exclusions(self.side_of[self.turn]))

    def _play_actions(self) -> list[Action]:
        seat = self.turn
        h = self.hands[seat]
        size = self.sizes[seat]
        side = self.side_of[seat]
        if self.must_open:
            return self._forced_opening_actions(h, size, side)
        out: list[Action] = [TURN_UP] if self.first_card >= 0 and self.stock else []
        # plain: no card taken from the pile that may not be discarded (keep_taken_top)
        plain = self.taken_top < 0 or self.taken_melded or not self.rules.keep_taken_top
        melds = self.tables.melds(
            h, self._set_exclusions(side) if self.rules.one_set_per_rank else 0
        )
        if size <= 15:
            # a meld that leaves fewer than two cards must pass the never-stranded checks
            ok = self._meld_ok
            out.extend(m for m in melds if size - len(m[0]) >= 2 or ok(m, h, size, side))
        else:
            out.extend(melds)  # no meld leaves fewer than two cards
        side_melds = self.melds[side]
        loose = size >= 3
        wild_held = h[52] or h[1] or h[14] or h[27] or h[40]
        for i, m in enumerate(side_melds):
            cands: tuple[list[tuple[int, Add]], list[tuple[int, Add]]] | None = m.cands
            if cands is None:
                cands = self._candidates(i, m)
            for c, a in cands[0]:
                if h[c] and (loose or self._add_ok(a, h, size, side)):
                    out.append(a)
            if wild_held:
                for c, a in cands[1]:
                    if h[c] and (loose or self._add_ok(a, h, size, side)):
                        out.append(a)
        if self.rules.wild_moves:
            for i, m in enumerate(side_melds):
                if i not in self.moved:
                    out.extend(MoveWild(i, p) for p in m.move_options(self.rules))
        discards = _DISCARDS
        if size > 1 and plain:
            out.extend(compress(discards, h))
        else:
            ok_discard = self._discard_ok
            out.extend(
                [discards[c] for c in range(N_CODES) if h[c] and ok_discard(c, h, size, side)]
            )
        return out

    def _forced_opening_actions(self, h: list[int], size: int, side: int) -> list[Action]:
        """After taking the pile owing an initial meld: plays that keep it within reach."""
        need = self.requirement[side] - self.staged_value
        values = self.values
        keep = self._reach_keep(side)
        exclude = self._set_exclusions(side)
        out: list[Action] = []
        for m in self._new_melds(h):
            if not self._meld_ok(m, h, size, side):
                continue
            rank = self.tables.set_rank(m.cards)
            more = exclude | (1 << rank if rank >= 0 and self.rules.one_set_per_rank else 0)
            if self._reach_after(h, m.cards, need - sum(values[c] for c in m.cards), keep, more):
                out.append(m)
        for i, tm in enumerate(self.melds[side]):
            for c, p in tm.add_options(self.rules):
                if h[c]:
                    a = Add(i, c, p)
                    if self._add_ok(a, h, size, side) and self._reach_after(
                        h, (c,), need - values[c], keep, exclude
                    ):
                        out.append(a)
        return out

    def _reach_after(
        self, h: list[int], used: Sequence[Card], need: int, keep: int, exclude: int
    ) -> bool:
        """Whether ``need`` points can still be melded once ``used`` has left the hand."""
        for c in used:
            h[c] -= 1
        try:
            return can_reach(self.tables, h, need, keep, exclude, self.rules.one_set_per_rank)
        finally:
            for c in used:
                h[c] += 1

    def _reach_keep(self, side: int) -> int:
        """Cards to keep in hand while completing a forced opening.

        One when discarding the last card would take a morto, else two (a lone last
        card might not be discardable).
        """
        r = self.rules
        # with pile_top_meld the taken top card is melded first, so it never stays kept
        if not self.pot_taken[side] and self.pots and (r.pile_top_meld or not r.keep_taken_top):
            return 1
        return 2

    def _set_exclusions(self, side: int) -> int:
        """Ranks (bit r) of which the side may not start another set."""
        exclude = 0
        if self.rules.one_set_per_rank:
            for m in self.melds[side]:
                if not m.run:
                    exclude |= 1 << m.rank
        return exclude

    def _kept_card(self) -> Card:
        """The card taken from the pile that may not be discarded now (``keep_taken_top``).

        Copies are interchangeable: once a copy of it has been melded this turn, another
        copy may go. -1 when no card is kept.
        """
        if self.rules.keep_taken_top and self.taken_top >= 0 and not self.taken_melded:
            return self.taken_top
        return -1

    def _candidates(
        self, index: int, m: TableMeld
    ) -> tuple[list[tuple[int, Add]], list[tuple[int, Add]]]:
        """A meld's possible adds: (card, action) for natural cards, then for wild cards."""
        pairs = [(c, Add(index, c, p)) for c, p in m.add_options(self.rules)]
        natural = [(c, a) for c, a in pairs if not is_wild_capable(c)]
        wild = [(c, a) for c, a in pairs if is_wild_capable(c)]
        m.cands = (natural, wild)
        return natural, wild

    def _top_meld_actions(self, h: list[int], size: int) -> list[Action]:
        """Melds and adds that use the pile's top card (``pile_top_meld``)."""
        top = self.top_to_meld
        seat = self.turn
        side = self.side_of[seat]
        need = 0 if self.opened[side] else self.requirement[side]
        values = self.values
        keep = self._reach_keep(side)
        exclude = self._set_exclusions(side)
        out: list[Action] = []
        for m in self._new_melds(h):
            if top in m.cards and self._meld_ok(m, h, size, side):
                if need:
                    # the rest of the initial meld must still be possible this turn
                    rank = self.tables.set_rank(m.cards)
                    more = exclude
                    if rank >= 0 and self.rules.one_set_per_rank:
                        more |= 1 << rank
                    rest = need - sum(values[c] for c in m.cards)
                    if not self._reach_after(h, m.cards, rest, keep, more):
                        continue
                out.append(m)
        if not is_wild_capable(top) and not need:
            for i, tm in enumerate(self.melds[side]):
                for c, p in tm.add_options(self.rules):
                    if c == top:
                        a = Add(i, c, p)
                        if self._add_ok(a, h, size, side):
                            out.append(a)
        return out

    def _pile_takeable(self) -> bool:
        if not self.rules.pile_top_meld:
            return True
        # the top card must be melded at once: look at the hand with the pile added
        seat = self.turn
        h = list(self.hands[seat])
        for c in self.pile:
            h[c] += 1
        saved = self.top_to_meld
        self.top_to_meld = self.pile[-1]
        try:
            return bool(self._top_meld_actions(h, self.sizes[seat] + len(self.pile)))
        finally:
            self.top_to_meld = saved

    # ----- never stranded (RULINGS 8) --------------------------------------------------
    def _can_empty(self, side: int, by_discard: bool, card: int, canastra: bool) -> bool:
        """Whether emptying the hand is allowed: it takes a morto or goes out legally."""
        if not self.pot_taken[side] and self.pots:
            return True
        r = self.rules
        if not self.pot_taken[side]:
            return False
        if not canastra:
            return False
        if not r.go_out_first_turn and self.turns_started[self.turn] <= 1:
            return False
        if not by_discard:
            return r.go_out_discard == "optional"
        return r.go_out_wild_discard or not is_wild_capable(card)

    def _has_canastra(self, side: int, skip: int = -1) -> bool:
        need_clean = self.rules.go_out_canastra == "clean"
        for i, m in enumerate(self.melds[side]):
            if i != skip and m.size >= 7 and (m.wild < 0 or not need_clean) and not m.staged:
                return True
        return False

    def _qualifies(self, m: TableMeld) -> bool:
        return m.size >= 7 and (m.wild < 0 or self.rules.go_out_canastra == "any")

    def _left_ok(
        self,
        h: list[int],
        size: int,
        side: int,
        used: dict[int, int],
        canastra: bool,
        staged_after: int,
    ) -> bool:
        """Whether a meld or add using ``used`` leaves a playable hand."""
        left = size - sum(used.values())
        kept = self._kept_card()
        if used.get(kept, 0):
            kept = -1  # melding a copy of the taken card accounts for it
        short = not self.opened[side] and staged_after < self.requirement[side]
        if left == 0:
            return not short and self._can_empty(side, False, -1, canastra)
        if left == 1:
            last = next(c for c in range(N_CODES) if h[c] - used.get(c, 0) > 0)
            if last == kept:
                return False  # the taken card would be left alone, and it may not be discarded
            if short:
                # a short opening comes back to the hand at the discard, but not after a take
                return not self.must_open
            return self._can_empty(side, True, last, canastra)
        return True

    def _meld_ok(self, m: Meld, h: list[int], size: int, side: int) -> bool:
        cards = m.cards
        if size - len(cards) >= 2:
            return True  # two cards left: one to discard, kept card or not (_left_ok)
        used: dict[int, int] = {}
        for c in cards:
            used[c] = used.get(c, 0) + 1
        shape = self.tables.shape(cards)
        assert isinstance(shape, TableMeld)
        canastra = self._has_canastra(side) or self._qualifies(shape)
        staged = self.staged_value + (shape.value if not self.opened[side] else 0)
        return self._left_ok(h, size, side, used, canastra, staged)

    def _add_ok(self, a: Add, h: list[int], size: int, side: int) -> bool:
        if size >= 3:
            return True  # two cards left (_left_ok)
        m = self.melds[side][a.meld].copy()
        m.apply_add(a.card, a.place, self.values[a.card])
        canastra = self._has_canastra(side, skip=a.meld) or self._qualifies(m)
        staged = self.staged_value + (self.values[a.card] if not self.opened[side] else 0)
        return self._left_ok(h, size, side, {a.card: 1}, canastra, staged)

    def _discard_ok(self, c: int, h: list[int], size: int, side: int) -> bool:
        if c == self._kept_card() and h[c] < 2:
            return False  # the card taken from the pile (another copy may go)
        if size > 1:
            return True
        if not self.opened[side] and self.staged_value < self.requirement[side]:
            return not self.must_open  # a short opening comes back to the hand
        return self._can_empty(side, True, c, self._has_canastra(side))

    # ================================================================================
    # applying actions
    # ================================================================================
    def parse(self, text: str | Action) -> Action:
        """Parse action notation in this game's context.

        Puts a set's cards in canonical order and fills in an omitted placement
        of an ``add`` when exactly one placement is legal. An action value is checked
        field by field (:func:`~buraco.actions.check_action`). Raises
        :class:`~buraco.errors.NotationError` for anything that is not an action.
        """
        action = parse_action(text) if isinstance(text, str) else check_action(text)
        if isinstance(action, Meld):
            shape = self.tables.shape(action.cards)
            if isinstance(shape, TableMeld) and not shape.run:
                return Meld(tuple(shape.cards()))
            return action
        if isinstance(action, Add) and action.place == Place.NONE:
            matches = [
                a
                for a in self.legal_actions()
                if isinstance(a, Add) and a.meld == action.meld and a.card == action.card
            ]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                choices = [str(a) for a in matches]
                why = Refusal("notation.ambiguous", {"given": f"'{action}'", "choices": choices})
                raise NotationError(why)
        return action

    def _resolve(self, action: object) -> Action:
        """Action text parsed in context, or an action value checked (a set's cards sorted).

        A value's omitted placement is not filled in: only text is read that freely.
        """
        if isinstance(action, str):
            return self.parse(action)
        act = check_action(action)
        if isinstance(act, Meld):
            return self.parse(act)
        return act

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply a legal action (or action text) of the seat to move.

        Raises :class:`~buraco.errors.IllegalAction` naming the broken rule, and
        leaves the game unchanged, for an illegal action or the wrong ``seat``.
        """
        act = self.parse(action) if isinstance(action, str) else action
        if type(act) not in ACTION_TYPES:
            check_action(act)  # raises, naming what an action is
        if seat is not None and self._check_seat(seat) != self.turn:
            if self.phase == Phase.OVER:
                raise IllegalAction(Refusal("hand-over"))
            raise IllegalAction(Refusal("wrong-player", {"turn": self.turn, "seat": seat}))
        legal = self._legal if self._legal is not None else self.legal_actions()
        try:
            found = legal[legal.index(act)]
        except ValueError:
            found = None
        if found is not act:
            # not the engine's own value: checked field by field as is_legal and explain
            # check it, so an equal one with odd field types (5.0 or False for a card) is
            # refused by all three alike; a well-formed one plays the engine's own value
            act = self._resolve(act)
            if act not in legal:
                raise IllegalAction(explain(self, act)) from None
            act = legal[legal.index(act)]
        self._legal = None
        self.score_cache = None
        if isinstance(act, Discard):
            self._do_discard(act.card)
        elif isinstance(act, Draw):
            self._do_draw()
        elif isinstance(act, Meld):
            self._do_meld(act)
        elif isinstance(act, Add):
            self._do_add(act)
        elif isinstance(act, TakePile):
            self._do_take_pile()
        elif isinstance(act, TurnUp):
            self._do_turn_up()
        else:
            self._do_move(act)

    push = apply
    """Alias of :meth:`apply` (as in python-chess)."""

    def _do_draw(self) -> None:
        seat = self.turn
        if self.unplayed[seat]:
            self.unplayed[seat] = False
        c = self.stock.pop()
        self.hands[seat][c] += 1
        self.sizes[seat] += 1
        self.pile_streak = 0
        self.turns_started[seat] += 1
        self.events.append(Event(seat, DRAW, c))
        if self.first_draw:
            self.first_draw = False
            self.first_card = c
        self.phase = Phase.PLAY
        self._after_stock_draw()

    def _after_stock_draw(self) -> None:
        r = self.rules
        if len(self.stock) > r.stock_reserve:
            return
        if r.pot_to_stock and self.pots:
            self.public_cache = None
            pot = self.pots.pop(0)  # the next morto in taking order
            self.stock = pot[::-1] + self.stock
            self.events.append(Event(self.turn, None, **note("pot-to-stock")))
            return
        if r.stock_end == "at-once":
            self._end_hand("stock")
        else:
            self.last_turn = True

    def _do_turn_up(self) -> None:
        seat = self.turn
        c = self.first_card
        self.first_card = -1
        self.hands[seat][c] -= 1
        self.sizes[seat] -= 1
        self.pile.append(c)
        nxt = self.stock.pop()
        self.hands[seat][nxt] += 1
        self.sizes[seat] += 1
        turned = note("turned-up", card=CARD_NAMES[c])
        self.events.append(Event(seat, TURN_UP, nxt, cards=(c,), **turned))
        self._after_stock_draw()

    def _do_take_pile(self) -> None:
        seat = self.turn
        if self.unplayed[seat]:
            self.unplayed[seat] = False
        h = self.hands[seat]
        pile = self.pile
        for c in pile:
            h[c] += 1
        self.sizes[seat] += len(pile)
        self.pile_streak += 1
        self.turns_started[seat] += 1
        top = pile[-1]
        self.events.append(Event(seat, TAKE_PILE, cards=tuple(pile)))
        self.pile = []
        self.taken_top = top
        self.taken_melded = False
        if self.rules.pile_top_meld:
            self.top_to_meld = top
            self.phase = Phase.TOP_MELD
            side = self.side_of[seat]
            self.must_open = not self.opened[side] and self.requirement[side] > 0
        else:
            self.phase = Phase.PLAY

    def _do_meld(self, act: Meld) -> None:
        seat = self.turn
        side = self.side_of[seat]
        h = self.hands[seat]
        for c in act.cards:
            h[c] -= 1
        self.sizes[seat] -= len(act.cards)
        m = self.tables.shape(act.cards)
        assert isinstance(m, TableMeld)
        self.melds[side].append(m)
        self.table_views = None
        self.events.append(Event(seat, act))
        self.first_card = -1
        if self.taken_top in act.cards:
            self.taken_melded = True
        if self.phase == Phase.TOP_MELD:
            self.phase = Phase.PLAY
            self.top_to_meld = -1
        if not self.opened[side]:
            m.staged = True
            self.staged_value += m.value
            self._check_opening(side)
        if self.opened[side]:
            self._card_stays(side)
        if self.sizes[seat] == 0:
            self._emptied(seat, by_discard=False)

    def _do_add(self, act: Add) -> None:
        seat = self.turn
        side = self.side_of[seat]
        self.hands[seat][act.card] -= 1
        self.sizes[seat] -= 1
        m = self.melds[side][act.meld]
        self.table_views = None
        value = self.values[act.card]
        m.apply_add(act.card, act.place, value)
        self.events.append(Event(seat, act))
        self.first_card = -1
        if act.card == self.taken_top:
            self.taken_melded = True
        if self.phase == Phase.TOP_MELD:
            self.phase = Phase.PLAY
            self.top_to_meld = -1
        if m.staged:
            self.staged_value += value
            self._check_opening(side)
        if self.opened[side]:
            self._card_stays(side)
        if self.sizes[seat] == 0:
            self._emptied(seat, by_discard=False)

    def _do_move(self, act: MoveWild) -> None:
        seat = self.turn
        side = self.side_of[seat]
        self.melds[side][act.meld].apply_move(act.to)
        self.table_views = None
        self.moved.add(act.meld)
        self.first_card = -1
        self.events.append(Event(seat, act))

    def _card_stays(self, side: int) -> None:
        """A card went to the table for good (not staged toward an opening)."""
        self.pile_streak = 0  # the hand moves on
        if self.pot_taken[side]:
            self.pot_used[side] = True

    def _check_opening(self, side: int) -> None:
        if self.staged_value >= self.requirement[side]:
            self.public_cache = None
            self.opened[side] = True
            self.must_open = False
            self.table_views = None
            for m in self.melds[side]:
                m.staged = False

    def _do_discard(self, c: int) -> None:
        seat = self.turn
        side = self.side_of[seat]
        h = self.hands[seat]
        h[c] -= 1
        self.sizes[seat] -= 1
        self.pile.append(c)
        self.first_card = -1
        self.events.append(Event(seat, _DISCARDS[c]))
        if not self.opened[side] and any(m.staged for m in self.melds[side]):
            self._return_short_opening(seat, side)
        if self.sizes[seat] == 0:
            self._emptied(seat, by_discard=True)
            if self.phase == Phase.OVER:
                return
        self._end_turn()

    def _return_short_opening(self, seat: int, side: int) -> None:
        r = self.rules
        h = self.hands[seat]
        keep = []
        back = 0
        for m in self.melds[side]:
            if m.staged:
                for c in m.cards():
                    h[c] += 1
                    back += 1
            else:
                keep.append(m)
        self.melds[side] = keep
        self.table_views = None
        self.sizes[seat] += back
        self.public_cache = None
        short = {"value": self.staged_value, "need": self.requirement[side]}
        self.requirement[side] += r.failed_opening_penalty
        if r.failed_opening_penalty:
            said = note("opening-short-raised", now=self.requirement[side], **short)
        else:
            said = note("opening-short", **short)
        self.staged_value = 0
        self.events.append(Event(seat, None, **said))

    def _emptied(self, seat: int, by_discard: bool) -> None:
        side = self.side_of[seat]
        if not self.pot_taken[side] and self.pots:
            self.public_cache = None
            pot = self.pots.pop(0)
            h = self.hands[seat]
            for c in pot:
                h[c] += 1
            self.sizes[seat] = len(pot)
            self.pot_taken[side] = True
            if by_discard:
                self.unplayed[seat] = True
                if self.rules.hidden_indirect_pot:
                    self.hidden[seat] = True
            how = "pot-taken.discard" if by_discard else "pot-taken.meld"
            self.events.append(Event(seat, None, **note(how)))
            return
        self.went_out = side
        self.events.append(Event(seat, None, **note("went-out")))
        self._end_hand("going-out")

    def _end_turn(self) -> None:
        seat = self.turn
        for t in self.teammates[seat]:
            if self.hidden[t]:
                self.hidden[t] = False
        self.moved.clear()
        self.taken_top = -1
        self.taken_melded = False
        self.top_to_meld = -1
        self.must_open = False
        self.staged_value = 0
        if self.last_turn:
            self._end_hand("stock")
            return
        nxt = (seat + 1) % self.n
        self.turn = nxt
        self.phase = Phase.DRAW
        if self.hidden[nxt] and not self.teammates[nxt]:
            self.hidden[nxt] = False
        limit = self.rules.pile_streak_limit
        if limit and self.pile_streak >= limit and self.stock:
            self.events.append(Event(nxt, None, **note("pile-streak", streak=self.pile_streak)))
        if not self.legal_actions():
            self._end_hand("blocked")

    # ================================================================================
    # end of hand, scoring, match
    # ================================================================================
    def _end_hand(self, how: str) -> None:
        self.phase = Phase.OVER
        self.public_cache = None
        self.ended_by = how
        self._legal = ()
        scores = self.scores()
        for s, sc in enumerate(scores):
            self.totals[s] += sc.total
        self.results.append(
            HandResult(
                self.hand_number,
                self.dealer,
                how,
                self.went_out if self.went_out >= 0 else None,
                scores,
                list(self.totals),
            )
        )
        if self.match:
            r = self.rules
            done = (
                len(self.results) >= r.match_hands
                if r.match_hands
                else max(self.totals) >= r.target
            )
            if done:
                best = max(self.totals)
                leaders = [s for s in range(self.k) if self.totals[s] == best]
                if len(leaders) == 1:
                    self.winner = leaders[0]

    def next_hand(
        self, deck: Sequence[Card | str] | str | None = None, cut: int | None = None
    ) -> None:
        """Deal the next hand of the match (the current hand must be over).

        ``deck`` gives the new hand's deck order (top card first) and ``cut`` its
        cut, as ``stacked`` and ``cuts`` do up front: a server that draws each deck
        when it deals passes it here. Without them the hand comes from the stacked
        decks, else from the seed.
        """
        if self.phase != Phase.OVER:
            raise IllegalAction(Refusal("hand-not-over"))
        if self.is_over():
            raise IllegalAction(Refusal("match-over"))
        number = self.hand_number + 1
        if deck is not None:
            if number < len(self._stacked):
                raise RulesError(f"hand {number + 1} already has a stacked deck")
            codes = _deck_codes(deck)
            spread = self.rules.cut_spread
            if cut is not None and (type(cut) is not int or not -spread <= cut <= spread):
                raise RulesError(
                    f"a cut is a whole number from {-spread} to {spread} (cut_spread), "
                    f"not {shown(cut)}"
                )
            expected = sorted(build_deck(self.rules.decks, self.rules.jokers_per_deck))
            if sorted(codes) != expected:
                raise RulesError(
                    f"the deck of hand {number + 1} is not the {self.rules.deck_size}-card "
                    "pack of these rules"
                )
            self._stacked.extend([[]] * (number - len(self._stacked)))
            self._stacked.append(codes)
            if cut is not None:
                self._cuts.extend([min(1, spread)] * (number - len(self._cuts)))
                self._cuts[number:] = [cut]
        elif cut is not None:
            raise RulesError("a cut is given with the deck it cuts")
        self._deal_next()

    def scores(self) -> list[Score]:
        """Each side's score for the current hand, as it stands (final once over)."""
        if self.score_cache is not None:
            return self.score_cache
        r = self.rules
        values = self.values
        any_taken = any(self.pot_taken)
        out = []
        for side in range(self.k):
            melds = bonuses = 0
            kinds = []
            for m in self.melds[side]:
                if m.staged:
                    continue
                melds += m.value
                b = m.bonus(r)
                if b is not None:
                    bonuses += b.points
                    kinds.append(b.kind)
            hand = 0
            for seat in r.seats_of(side):
                if self.unplayed[seat] and r.unplayed_pot == "penalty":
                    hand -= r.pot_penalty
                else:
                    h = self.hands[seat]
                    hand -= sum(values[c] * h[c] for c in range(N_CODES) if h[c])
            # melds staged toward a short opening still belong to the mover's hand
            hand -= sum(m.value for m in self.melds[side] if m.staged)
            pot = 0
            if not self.pot_taken[side]:
                if r.pot_penalty_if_none_taken or any_taken:
                    pot = -r.pot_penalty
            elif r.unused_pot_penalty and not self.pot_used[side]:
                pot = -r.pot_penalty  # taken but never used on the table (RULINGS 16)
            going_out = r.going_out_bonus if self.went_out == side else 0
            cut = self.cut_points[side]
            subtotal = melds + bonuses + hand + pot + going_out + cut
            rounding = (-subtotal) % 10 if r.round_scores else 0
            out.append(
                Score(side, melds, bonuses, hand, pot, going_out, cut, rounding, tuple(kinds))
            )
        self.score_cache = out
        return out

    # ================================================================================
    # explaining illegal actions
    # ================================================================================
    def refusal(self, action: Action | str) -> Refusal | None:
        """Why an action (or action text) is not legal now, or None when it is.

        Text that does not parse gives the notation error's refusal (a code of the rule
        ``notation``); a value that is not an action, the refusal ``notation`` with the
        error's English text as its parameter ``text``.

        >>> game = Game("aberto", players=2, seed=1)
        >>> game.refusal("discard 5C").to_dict()
        {'code': 'phase.draw-first', 'params': {}}
        >>> game.refusal("draw") is None
        True
        >>> game.refusal("discard 1C").to_dict()
        {'code': 'notation.card', 'params': {'given': "'1C'"}}
        """
        try:
            act = self._resolve(action)
        except WordedError as e:
            return e.refusal or Refusal("notation", {"text": str(e)})
        except BuracoError as e:
            return Refusal("notation", {"text": str(e)})
        if act in self.legal_actions():
            return None
        return explain(self, act)

    def explain(self, action: Action | str) -> tuple[str, str]:
        """Why an action (or action text) is not legal now: (message, rule id).

        The message in English and the rule's identifier of :meth:`refusal`; both are
        empty when the action is legal.
        """
        refusal = self.refusal(action)
        if refusal is None:
            return ("", "")
        return (refusal.message, refusal.rule)

    # ================================================================================
    # copying
    # ================================================================================
    def clone(self) -> Game:
        """An independent copy of the whole game."""
        g = Game.__new__(Game)
        d = self.__dict__.copy()
        g.__dict__.update(d)
        g.hands = [list(h) for h in self.hands]
        g.sizes = list(self.sizes)
        g.pots = [list(p) for p in self.pots]
        g.pile = list(self.pile)
        g.stock = list(self.stock)
        g.melds = [[m.copy() for m in ms] for ms in self.melds]
        g.table_views = self.table_views
        g.pot_taken = list(self.pot_taken)
        g.pot_used = list(self.pot_used)
        g.unplayed = list(self.unplayed)
        g.hidden = list(self.hidden)
        g.turns_started = list(self.turns_started)
        g.vulnerable = list(self.vulnerable)
        g.requirement = list(self.requirement)
        g.opened = list(self.opened)
        g.cut_points = list(self.cut_points)
        g.moved = set(self.moved)
        g.events = list(self.events)
        g.seen_cache = [None if s is None else list(s) for s in self.seen_cache]
        g.hand_events = [*self.hand_events[:-1], g.events]
        g.totals = list(self.totals)
        g.results = list(self.results)
        g.deals = list(self.deals)
        g._legal = None
        g.score_cache = None
        g.public_cache = None
        return g

    __copy__ = clone

    # ================================================================================
    # views and records
    # ================================================================================
    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know now, as a JSON-serializable dict (see :mod:`buraco.views`)."""
        from buraco.views import seat_view

        return seat_view(self, seat).to_dict()

    def record(self) -> dict[str, Any]:
        """The game record as a JSON-serializable dict (see :mod:`buraco.record`)."""
        from buraco.record import record_of

        return record_of(self)

    def __repr__(self) -> str:
        state = "over" if self.phase == Phase.OVER else f"seat {self.turn} to {self.phase.name}"
        return (
            f"<Game {self.rules.preset} {self.n}p hand {self.hand_number + 1}: {state}; "
            f"totals {self.totals}>"
        )


MAX_SEED = 2**64 - 1
"""The largest seed a game takes."""

MAX_SCORE = 10_000_000
"""The largest match total (either sign) a game may start from."""

MAX_NAME = 40
"""The longest player name, in characters."""

MAX_HANDS = 1000
"""The most hands a game may be given stacked decks or cuts for."""


def check_names(names: object, players: int) -> tuple[str, ...]:
    r"""Player names checked: one per seat, 1 to MAX_NAME characters, no control characters.

    ``None`` (or an empty list) gives ``Player 1``, ``Player 2``, ...

    >>> check_names(None, 2)
    ('Player 1', 'Player 2')
    >>> check_names(["Ana", "Bia\x1b[2J"], 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    buraco.errors.RulesError: player name 2 ('Bia\x1b[2J') holds a control character; ...
    """
    if names is None or (isinstance(names, list | tuple) and not names):
        return tuple(f"Player {s + 1}" for s in range(players))
    if not isinstance(names, list | tuple) or len(names) != players:
        raise RulesError(f"give {players} player names (a list of strings), not {shown(names, 60)}")
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise RulesError(f"player name {i + 1} must be a string, not {shown(name)}")
        if not 1 <= len(name) <= MAX_NAME or not name.strip():
            raise RulesError(
                f"player name {i + 1} ({shown(name, 60)}) must be 1 to {MAX_NAME} characters, "
                "not all spaces"
            )
        if has_control(name):
            raise RulesError(
                f"player name {i + 1} ({name!r}) holds a control character; names are 1 to "
                f"{MAX_NAME} printable characters"
            )
    return tuple(names)


def _listed(value: object, name: str, what: str) -> list[Any]:
    """A list of per-hand items (stacked decks or cuts), bounded in length."""
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise RulesError(f"{name} is a list of {what}, one per hand, not {shown(value)}")
    if len(value) > MAX_HANDS:
        raise RulesError(f"{name} holds at most {MAX_HANDS} {what}, not {len(value)}")
    return list(value)


_TABLES: dict[Rules, MoveTables] = {}


def _tables_for(rules: Rules) -> MoveTables:
    tables = _TABLES.get(rules)
    if tables is None:
        tables = MoveTables(rules)
        _TABLES[rules] = tables
    return tables


def _deck_codes(deck: Iterable[Card | str]) -> list[Card]:
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
        return _deck_codes(x)

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
