"""What one seat may know: its own hand, the table, counts, and its legal actions.

A :class:`SeatView` is a snapshot copied out of the game: holding one gives no
way back to the game, so nothing hidden can be reached through it. Its
:meth:`SeatView.to_dict` is the JSON form returned by
:meth:`buraco.game.Game.view`.

Hidden from a seat: the other hands (only their sizes are shown), the stock
order, the untaken mortos, a morto taken by discarding while ``us`` keeps it
unseen, and, in a closed pile, every card but the top. Scores of hand cards are
hidden until the hand is over (they would reveal the other hands).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from buraco.actions import Action, Draw, TakePile, TurnUp
from buraco.cards import CARD_NAMES, Card, sort_key
from buraco.errors import SeatError
from buraco.melds import TableMeld

if TYPE_CHECKING:
    from buraco.game import Game


@dataclass(frozen=True)
class MeldView:
    """A meld as everyone sees it."""

    number: int
    """The meld's number in its side's list (from 1), as used by ``add N``."""
    run: bool
    suit: int
    """A run's suit index (-1 for a set)."""
    rank: int
    """A set's rank index (-1 for a run)."""
    lo: int
    """A run's lowest position (0 = low ace, 1-12 = 2-K, 13 = high ace); -1 for a set."""
    hi: int
    """A run's highest position; -1 for a set."""
    cards: tuple[Card, ...]
    """Run: low to high; set: naturals then the wild."""
    wild: int | None
    """Index in ``cards`` of the wild card, if any."""
    clean: bool
    canastra: bool
    bonus: str | None
    """Kind of canastra bonus earned (``clean``, ``dirty``, ``clean-13`` ...)."""
    bonus_points: int
    points: int
    """Card values of the meld."""
    staged: bool
    """Part of an initial meld that has not yet reached the minimum this turn."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "number": self.number,
            "type": "run" if self.run else "set",
            "low": self.lo if self.run else None,
            "high": self.hi if self.run else None,
            "cards": [CARD_NAMES[c] for c in self.cards],
            "wild": self.wild,
            "clean": self.clean,
            "canastra": self.canastra,
            "bonus": self.bonus,
            "bonus_points": self.bonus_points,
            "points": self.points,
            "staged": self.staged,
        }


def meld_view(number: int, m: TableMeld, g: Game) -> MeldView:
    """The public view of one table meld (cached on the meld until it changes)."""
    cached = m.mview
    if isinstance(cached, MeldView) and cached.number == number and cached.staged == m.staged:
        return cached
    cards = tuple(m.cards())
    wild: int | None = None
    if m.wild >= 0:
        wild = m.wpos - m.lo if m.run else len(cards) - 1
    b = m.bonus(g.rules)
    view = MeldView(
        number,
        m.run,
        m.suit if m.run else -1,
        -1 if m.run else m.rank,
        m.lo if m.run else -1,
        m.hi if m.run else -1,
        cards,
        wild,
        m.wild < 0,
        m.size >= 7,
        b.kind if b else None,
        b.points if b else 0,
        m.value,
        m.staged,
    )
    m.mview = view
    return view


class SeenEvent(NamedTuple):
    """One entry of a hand's history as one seat saw it."""

    seat: int
    """Who acted (or whose action had the consequence in ``note``)."""
    action: Action | None
    """The action, or None for a consequence (a morto taken, an opening short, ...)."""
    card: Card = -1
    """The card drawn from the stock, when the viewing seat drew it (else -1)."""
    cards: tuple[Card, ...] = ()
    """The cards of a pile taken, as far as the viewing seat saw them (a closed pile taken
    by another seat: its top card only); for ``turn-up``, the card turned up."""
    note: str = ""
    taken: int = 0
    """How many cards a ``take-pile`` took."""
    code: str = ""
    """The note's code (:data:`buraco.notes.NOTES`), empty without a note."""
    params: tuple[tuple[str, int | str], ...] = ()
    """The note's parameters."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form, for a front end to word in its language.

        The action in notation (or None), the card this seat drew, the cards of a pile
        taken (as this seat saw them), and the note's code and parameters.

        >>> SeenEvent(1, None, note="went out", code="went-out").to_dict()["note"]
        'went-out'
        """
        return {
            "seat": self.seat,
            "action": None if self.action is None else str(self.action),
            "card": CARD_NAMES[self.card] if self.card >= 0 else None,
            "cards": [CARD_NAMES[c] for c in self.cards],
            "taken": self.taken,
            "note": self.code or None,
            "params": dict(self.params),
        }


@dataclass(frozen=True, slots=True)
class PublicDetail:
    """The rest of the public state: what a search needs to rebuild a position.

    Given in full views (``seat_view(game, seat, full=True)``).
    """

    upcard: Card | None
    """The card turned up at the deal to start the pile (``upcard``), if any."""
    first_draw: bool
    """The hand's first draw is still to come (the first player may then turn the card up)."""
    turn_up_card: Card | None
    """The card this seat drew first and may still turn up (only to that seat)."""
    staged_value: int
    """Points melded this turn toward an initial meld not yet reached."""
    must_open: bool
    """The player to move took the pile owing an initial meld and must reach it this turn."""
    taken_melded: bool
    """A copy of the card taken from the pile has been melded this turn."""
    moved: tuple[int, ...]
    """Melds (0-based) whose wild moved this turn (``wild_moves``)."""
    pile_streak: int
    """Turns in a row that began by taking the pile."""
    turns_started: tuple[int, ...]
    """Turns each seat has begun this hand."""
    pot_unplayed: tuple[bool, ...]
    """Seats holding a morto taken by discarding that they have not played yet."""
    pot_used: tuple[bool, ...]
    """Sides that have put a card on the table since taking their morto."""
    cut_points: tuple[int, ...]
    """Each side's cut bonus or penalty this hand."""


@dataclass(slots=True)
class SeatView:
    """Everything one seat may know at one moment."""

    seat: int
    """The viewing seat (-1: a spectator, see :func:`spectator_view`)."""
    preset: str
    options: Mapping[str, Any]
    """The rule options in force (read-only)."""
    options_values: tuple[int, ...]
    """Point value of every card code under these rules."""
    names: tuple[str, ...]
    side: int
    sides: tuple[tuple[int, ...], ...]
    """Seats of each side."""
    counts: tuple[int, ...]
    """Own cards as a count per card code (53 entries; all 0 while the morto is hidden)."""
    hidden_pot: int
    """Cards of an own morto taken by discarding and not yet to be looked at (``us``)."""
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[MeldView, ...], ...]
    """Each side's melds."""
    pile: tuple[Card, ...]
    """The discard pile bottom to top: every card when open, only the top when closed."""
    pile_size: int
    pile_open: bool
    stock: int
    pots: tuple[int, ...]
    """Sizes of the mortos not yet taken, in the order they will be taken."""
    pot_taken: tuple[bool, ...]
    turn: int | None
    phase: str
    dealer: int
    hand_number: int
    totals: tuple[int, ...]
    """Match totals (including this hand once it is over)."""
    table_points: tuple[int, ...]
    """Each side's meld values and canastra bonuses so far this hand (public)."""
    vulnerable: tuple[bool, ...]
    requirement: tuple[int, ...]
    """The initial-meld minimum of each side this hand (0 once the side has opened).

    Staged melds (``MeldView.staged``) made this turn count toward it."""
    taken_top: Card | None
    """The pile's top card taken this turn that must be melded / may not be discarded."""
    last_turn: bool
    """The stock is exhausted: the hand ends after this turn."""
    legal: tuple[Action, ...]
    """This seat's legal actions (empty when it is not this seat's turn)."""
    scores: tuple[dict[str, Any], ...] | None = None
    """Full score breakdown per side, once the hand is over."""
    winner: int | None = None
    events: tuple[SeenEvent, ...] = field(default=())
    """The same history as values (full views)."""
    detail: PublicDetail | None = None
    """The rest of the public state (full views)."""

    @property
    def log(self) -> tuple[str, ...]:
        """The hand so far as this seat saw it, one line per action or event (full views)."""
        return tuple(log_lines(self))

    @property
    def hand(self) -> tuple[Card, ...]:
        """Own cards, sorted for display (by suit, ace high, wild cards last)."""
        return display_hand(self.counts)

    @property
    def hand_size(self) -> int:
        """Number of own cards that may be looked at."""
        return sum(self.counts)

    def to_dict(self, log: bool = True) -> dict[str, Any]:
        """JSON form of the view (without ``log`` and ``feed`` when ``log`` is false).

        ``log`` is the hand's history in lines of text, ``feed`` the same entries as data
        (:meth:`SeenEvent.to_dict`), one for each line.
        """
        out = {
            "seat": self.seat if self.seat >= 0 else None,
            "preset": self.preset,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items()},
            "names": list(self.names),
            "side": self.side if self.side >= 0 else None,
            "sides": [list(s) for s in self.sides],
            "hand": [CARD_NAMES[c] for c in self.hand],
            "hidden_pot": self.hidden_pot,
            "hand_sizes": list(self.hand_sizes),
            "melds": [[m.to_dict() for m in side] for side in self.melds],
            "pile": [CARD_NAMES[c] for c in self.pile],
            "pile_size": self.pile_size,
            "pile_open": self.pile_open,
            "stock": self.stock,
            "pots": list(self.pots),
            "pot_taken": list(self.pot_taken),
            "turn": self.turn,
            "phase": self.phase,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "totals": list(self.totals),
            "table_points": list(self.table_points),
            "vulnerable": list(self.vulnerable),
            "requirement": list(self.requirement),
            "taken_top": CARD_NAMES[self.taken_top] if self.taken_top is not None else None,
            "last_turn": self.last_turn,
            "legal": [str(a) for a in self.legal],
            "log": list(self.log) if log else None,
            "feed": [e.to_dict() for e in self.events] if log else None,
            "detail": None if self.detail is None else _detail_dict(self.detail),
            "scores": list(self.scores) if self.scores is not None else None,
            "winner": self.winner,
        }
        if not log:
            del out["log"]
            del out["feed"]
        return out


def table_views(g: Game) -> tuple[tuple[tuple[MeldView, ...], ...], tuple[int, ...]]:
    """Every side's melds as views, and each side's public table points.

    Cached on the game until a meld changes.
    """
    cached = g.table_views
    if cached is None:
        melds = tuple(tuple(meld_view(i + 1, m, g) for i, m in enumerate(side)) for side in g.melds)
        points = tuple(
            sum(mv.points + mv.bonus_points for mv in side if not mv.staged) for side in melds
        )
        cached = g.table_views = (melds, points)
    return cached


def public_counts(
    g: Game,
) -> tuple[tuple[int, ...], tuple[bool, ...], tuple[int, ...], tuple[bool, ...], tuple[int, ...]]:
    """Per side: mortos left, morto taken, match totals, vulnerable, initial meld still owed.

    Kept in the game's cache (``public_cache``) until an action changes them.
    """
    rare = g.public_cache
    if rare is None:
        rare = g.public_cache = (
            tuple([len(p) for p in g.pots]),
            tuple(g.pot_taken),
            tuple(g.totals),
            tuple(g.vulnerable),
            tuple([0 if o else q for o, q in zip(g.opened, g.requirement, strict=True)]),
        )
    return rare


def seat_view(g: Game, seat: int, full: bool = True) -> SeatView:
    """The view of ``seat`` (0-based).

    A full view also carries the hand's history as this seat saw it (``log``,
    ``events``) and the rest of the public state (``detail``); bots that need
    neither ask for ``full=False``, which is faster. Raises
    :class:`~buraco.errors.SeatError` for a seat not at the table.
    """
    if type(seat) is not int or not 0 <= seat < g.n:
        raise SeatError(f"seat must be a number from 0 to {g.n - 1}, not {seat!r}")
    return _view(g, seat, full)


def spectator_view(g: Game, full: bool = True) -> SeatView:
    """What someone watching the table may know: no hand, no drawn card, only public state.

    Its ``seat`` and ``side`` are ``-1`` (``None`` in :meth:`SeatView.to_dict`), its
    hand is empty and it has no legal actions.

    >>> from buraco.game import Game
    >>> g = Game("aberto", players=4, seed=1)
    >>> g.apply("draw")
    >>> v = spectator_view(g)
    >>> v.hand, v.hand_sizes, v.log
    ((), (11, 12, 11, 11), ('Player 2: draw',))
    """
    return _view(g, -1, full)


def _view(g: Game, seat: int, full: bool) -> SeatView:
    r = g.rules
    over = g.phase == _OVER
    melds, points = table_views(g)
    rare = public_counts(g)
    watcher = seat < 0
    hidden = not watcher and g.hidden[seat]
    return SeatView(
        seat,
        r.preset,
        g.options_view,
        r.values,
        g.names,
        -1 if watcher else g.side_of[seat],
        g.side_seats,
        _NO_CARDS if hidden or watcher else tuple(g.hands[seat]),
        g.sizes[seat] if hidden else 0,
        tuple(g.sizes),
        melds,
        tuple(g.pile) if r.pile_open else tuple(g.pile[-1:]),
        len(g.pile),
        r.pile_open,
        len(g.stock),
        rare[0],
        rare[1],
        None if over else g.turn,
        _PHASE_NAMES[g.phase],
        g.dealer,
        g.hand_number,
        rare[2],
        points,
        rare[3],
        rare[4],
        g.taken_top if g.taken_top >= 0 and not over else None,
        g.last_turn,
        g.legal_actions() if not over and g.turn == seat else (),
        tuple(s.as_dict() for s in g.scores()) if over else None,
        g.winner,
        tuple(seen_events(g, seat)) if full else (),
        public_detail(g, seat) if full else None,
    )


_PHASE_NAMES = ("draw", "play", "top-meld", "over")
_NO_CARDS = (0,) * 53
_OVER = 3  # Phase.OVER

_DISPLAY_ORDER = tuple(sorted(range(53), key=sort_key))
_IN_DISPLAY_ORDER = itemgetter(*_DISPLAY_ORDER)


def display_hand(counts: Sequence[int]) -> tuple[Card, ...]:
    """A hand's cards from its count array, in display order (see ``cards.sort_key``)."""
    in_order = _IN_DISPLAY_ORDER(counts)
    held = tuple(compress(_DISPLAY_ORDER, in_order))
    if len(held) == sum(in_order):
        return held
    return tuple([c for c in held for _ in range(counts[c])])


def seen_events(g: Game, seat: int) -> list[SeenEvent]:
    """The current hand's events as values, with what ``seat`` could not see left out.

    ``seat`` -1 is a spectator, who sees no drawn card.

    Built incrementally: the list is kept on the game per seat and extended with the
    events since the last call.
    """
    slot = seat if seat >= 0 else g.n  # a spectator (-1) sees what no seat keeps private
    seen: list[SeenEvent] | None = g.seen_cache[slot]
    if seen is None:
        seen = g.seen_cache[slot] = []
    events = g.events
    if len(seen) < len(events):
        open_pile = g.rules.pile_open
        for e in events[len(seen) :]:
            cards = e.cards
            taken = 0
            if isinstance(e.action, TakePile):
                taken = len(cards)
                if not open_pile and e.seat != seat:
                    cards = cards[-1:]
            card = e.card if e.seat == seat else -1
            seen.append(SeenEvent(e.seat, e.action, card, cards, e.note, taken, e.code, e.params))
    return seen


def public_detail(g: Game, seat: int) -> PublicDetail:
    """The public state a search needs, as ``seat`` may know it."""
    return PublicDetail(
        upcard=g.upcard if g.upcard >= 0 else None,
        first_draw=g.first_draw,
        turn_up_card=g.first_card if g.first_card >= 0 and g.turn == seat else None,
        staged_value=g.staged_value,
        must_open=g.must_open,
        taken_melded=g.taken_melded,
        moved=tuple(sorted(g.moved)),
        pile_streak=g.pile_streak,
        turns_started=tuple(g.turns_started),
        pot_unplayed=tuple(g.unplayed),
        pot_used=tuple(g.pot_used),
        cut_points=tuple(g.cut_points),
    )


def _detail_dict(d: PublicDetail) -> dict[str, Any]:
    return {
        "upcard": None if d.upcard is None else CARD_NAMES[d.upcard],
        "first_draw": d.first_draw,
        "turn_up_card": None if d.turn_up_card is None else CARD_NAMES[d.turn_up_card],
        "staged_value": d.staged_value,
        "must_open": d.must_open,
        "taken_melded": d.taken_melded,
        "moved": list(d.moved),
        "pile_streak": d.pile_streak,
        "turns_started": list(d.turns_started),
        "pot_unplayed": list(d.pot_unplayed),
        "pot_used": list(d.pot_used),
        "cut_points": list(d.cut_points),
    }


def log_lines(view: SeatView) -> list[str]:
    """A full view's events as lines of text."""
    return event_lines(view.events, view.seat, view.names)


def event_lines(events: Sequence[SeenEvent], seat: int, names: Sequence[str]) -> list[str]:
    """Events as ``seat`` saw them, as lines of text (see :func:`log_lines`)."""
    out = []
    for e in events:
        who = "you" if e.seat == seat else names[e.seat]
        a = e.action
        if a is None:
            out.append(f"{who}: {e.note}")
        elif isinstance(a, Draw):
            card = f" {CARD_NAMES[e.card]}" if e.card >= 0 else ""
            out.append(f"{who}: draw{card}")
        elif isinstance(a, TurnUp):
            card = f", drew {CARD_NAMES[e.card]}" if e.card >= 0 else ""
            out.append(f"{who}: turn-up ({e.note}{card})")
        elif isinstance(a, TakePile):
            if len(e.cards) == e.taken:
                what = " ".join(CARD_NAMES[c] for c in e.cards)
            else:
                what = f"{e.taken} cards, top {CARD_NAMES[e.cards[-1]]}"
            out.append(f"{who}: take-pile ({what})")
        else:
            out.append(f"{who}: {a}")
    return out
