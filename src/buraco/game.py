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
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from buraco.actions import (
    Action,
)
from buraco.cards import (
    Card,
    cards_of,
)
from buraco.dealing import deck_codes
from buraco.dealing import deck_for as deck_for
from buraco.errors import (
    BuracoError,
    IllegalAction,
    RulesError,
    WordedError,
    shown,
)
from buraco.explain import explain
from buraco.melds import TableMeld
from buraco.movegen import MoveTables
from buraco.refusals import Refusal
from buraco.rules import PRESETS, Rules, make_rules
from buraco.state import Event as Event
from buraco.state import HandDeal as HandDeal
from buraco.state import HandResult as HandResult
from buraco.state import Phase as Phase
from buraco.state import Score as Score
from buraco.text import has_control
from buraco.turns import TurnPlay

STREAK_NOTE = "must draw from the stock (pile_streak_limit)"
"""How a hand's log starts the note of a turn on which ``pile_streak_limit`` forbids the pile."""


class Game(TurnPlay):
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
        self._stacked = [deck_codes(d) for d in _listed(stacked, "stacked", "decks")]
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
