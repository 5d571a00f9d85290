"""Actions: small immutable values with a short text notation.

=========================  ==================================================================
``draw``                   take the top card of the stock (on the first turn of ``aberto``,
                           ``fechado`` and ``us`` this is the first card, seen before choosing)
``turn-up``                first turn only: turn the card just drawn face up as the first
                           discard and draw the next stock card instead
``take-pile``              take the whole discard pile
``meld 3H 4H JK 6H``       put down a new meld; a run is written low to high with each wild
                           where it stands (here the joker is the 5H); a set in any order
``add 2 7H``               add a card to your side's meld number 2 (melds are numbered from 1)
``add 2 7H low``           ... saying where it goes when it could go at either end (an ace,
                           or a wild added to a run)
``add 2 6H wild-high``     ... the card replaces the wild, which moves to the high end
``move 2 low``             (``us``) move the wild at one end of run 2 to its other end
``discard 9C``             discard a card, ending the turn
=========================  ==================================================================

>>> parse_action("meld 3h 4h jk 6h")
Meld('meld 3H 4H JK 6H')
>>> str(parse_action("add 2 7H low"))
'add 2 7H low'
>>> parse_action("discard 1C")
Traceback (most recent call last):
...
buraco.errors.CardError: unknown card '1C': a card is a rank (A 2 3 4 5 6 7 8 9 T J Q K, or 10) \
followed by a suit (C D H S), e.g. AS, TH, 7C; or JK for a joker
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal, NamedTuple

from buraco.cards import CARD_NAMES, Card, parse_card
from buraco.errors import NotationError, shown
from buraco.refusals import Refusal


class Place(IntEnum):
    """Where a card added to a run goes (``NONE`` for sets and unambiguous adds)."""

    NONE = 0
    LOW = 1
    HIGH = 2
    WILD_LOW = 3
    WILD_HIGH = 4

    @property
    def word(self) -> str:
        """The notation word (empty for ``NONE``)."""
        return _PLACE_WORDS[self]


_PLACE_WORDS = {
    Place.NONE: "",
    Place.LOW: "low",
    Place.HIGH: "high",
    Place.WILD_LOW: "wild-low",
    Place.WILD_HIGH: "wild-high",
}
_PLACES_BY_WORD = {w: p for p, w in _PLACE_WORDS.items() if w}


class Draw(NamedTuple):
    """Take the top card of the stock."""

    kind: Literal["draw"] = "draw"

    def __str__(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return "Draw()"


class TurnUp(NamedTuple):
    """First turn: turn the first card face up as the first discard and draw the next."""

    kind: Literal["turn-up"] = "turn-up"

    def __str__(self) -> str:
        return "turn-up"

    def __repr__(self) -> str:
        return "TurnUp()"


class TakePile(NamedTuple):
    """Take the whole discard pile."""

    kind: Literal["take-pile"] = "take-pile"

    def __str__(self) -> str:
        return "take-pile"

    def __repr__(self) -> str:
        return "TakePile()"


class Meld(NamedTuple):
    """Put down a new meld. ``cards`` in run order (low to high) or, for a set, sorted."""

    cards: tuple[Card, ...]
    kind: Literal["meld"] = "meld"

    def __str__(self) -> str:
        return "meld " + " ".join(CARD_NAMES[c] for c in self.cards)

    def __repr__(self) -> str:
        return f"Meld({str(self)!r})"


class Add(NamedTuple):
    """Add one card to the side's meld with index ``meld`` (0-based; written 1-based)."""

    meld: int
    card: Card
    place: Place = Place.NONE
    kind: Literal["add"] = "add"

    def __str__(self) -> str:
        text = f"add {self.meld + 1} {CARD_NAMES[self.card]}"
        return f"{text} {_PLACE_WORDS[Place(self.place)]}" if self.place else text

    def __repr__(self) -> str:
        return f"Add({str(self)!r})"


class MoveWild(NamedTuple):
    """Move the wild at one end of a run to its other end (``to`` is LOW or HIGH)."""

    meld: int
    to: Place
    kind: Literal["move"] = "move"

    def __str__(self) -> str:
        return f"move {self.meld + 1} {_PLACE_WORDS[Place(self.to)]}"

    def __repr__(self) -> str:
        return f"MoveWild({str(self)!r})"


class Discard(NamedTuple):
    """Discard a card, ending the turn."""

    card: Card
    kind: Literal["discard"] = "discard"

    def __str__(self) -> str:
        return f"discard {CARD_NAMES[self.card]}"

    def __repr__(self) -> str:
        return f"Discard({str(self)!r})"


Action = Draw | TurnUp | TakePile | Meld | Add | MoveWild | Discard
"""Any action."""

DRAW = Draw()
TURN_UP = TurnUp()
TAKE_PILE = TakePile()

FORMS = (
    "draw | turn-up | take-pile | meld CARD CARD CARD... | add N CARD [low|high|wild-low|"
    "wild-high] | move N low|high | discard CARD"
)
"""A one-line summary of the notation, used in error messages."""


MAX_TEXT = 500
"""The longest action text accepted, in characters (a meld of every card fits)."""

MAX_MELD_NUMBER = 999
"""The highest meld number accepted in an action (no side ever has that many melds)."""

MAX_MELD_CARDS = 200
"""The most cards a ``meld`` action may name (more than any pack holds of one rank)."""


def _meld_number(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 3 or int(word) < 1:
        raise NotationError(
            Refusal(
                "notation.meld-number",
                {"text": repr(text), "most": MAX_MELD_NUMBER, "given": repr(word)},
            )
        )
    return int(word) - 1


def parse_action(text: str) -> Action:
    """Parse action notation without reference to a game (see the module docstring).

    A game's :meth:`~buraco.game.Game.parse` also fills in an omitted placement
    when only one is legal and puts a set's cards in their canonical order.

    >>> parse_action("add ² 3S")
    Traceback (most recent call last):
    ...
    buraco.errors.NotationError: 'add ² 3S': a meld number is a whole number from 1 to 999 \
(your side's melds are numbered from 1), not '²'
    """
    if not isinstance(text, str):
        raise NotationError(f"action text must be a string, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise NotationError(Refusal("notation.too-long", {"most": MAX_TEXT, "length": len(text)}))
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError(Refusal("notation.empty", {"forms": FORMS}))
    verb, args = words[0].lower(), words[1:]
    if verb in ("take", "pile") and [a.lower() for a in args] in (["pile"], []):
        verb, args = "take-pile", []
    if verb == "turn" and [a.lower() for a in args] == ["up"]:
        verb, args = "turn-up", []
    if verb in ("draw", "turn-up", "turnup", "take-pile"):
        if args:
            raise NotationError(Refusal("notation.no-cards", {"text": repr(text), "verb": verb}))
        return DRAW if verb == "draw" else TAKE_PILE if verb == "take-pile" else TURN_UP
    if verb == "meld":
        if not args:
            raise NotationError(Refusal("notation.meld-cards", {"text": repr(text)}))
        return Meld(tuple(parse_card(a) for a in args))
    if verb == "discard":
        if len(args) != 1:
            raise NotationError(Refusal("notation.discard-one", {"text": repr(text)}))
        return Discard(parse_card(args[0]))
    if verb == "add":
        if len(args) not in (2, 3):
            raise NotationError(Refusal("notation.add-form", {"text": repr(text)}))
        place = Place.NONE
        if len(args) == 3:
            place = _PLACES_BY_WORD.get(args[2].lower(), Place.NONE)
            if not place:
                why = {"text": repr(text), "given": repr(args[2])}
                raise NotationError(Refusal("notation.placement", why))
        return Add(_meld_number(args[0], text), parse_card(args[1]), place)
    if verb == "move":
        if len(args) != 2 or args[1].lower() not in ("low", "high"):
            raise NotationError(Refusal("notation.move-form", {"text": repr(text)}))
        return MoveWild(_meld_number(args[0], text), _PLACES_BY_WORD[args[1].lower()])
    raise NotationError(Refusal("notation.unknown", {"given": repr(words[0]), "forms": FORMS}))


_KINDS: dict[type, str] = {
    Draw: "draw",
    TurnUp: "turn-up",
    TakePile: "take-pile",
    Meld: "meld",
    Add: "add",
    MoveWild: "move",
    Discard: "discard",
}
ACTION_TYPES = frozenset(_KINDS)
"""The classes of action values (exactly these: a plain tuple is not an action)."""

_VALUE_FORMS = (
    "Draw(), TurnUp(), TakePile(), Meld(cards), Add(meld, card[, place]), MoveWild(meld, to) "
    "or Discard(card), with card codes 0-52 and meld indexes from 0"
)


def check_action(value: object) -> Action:
    """An action value checked field by field, with its placement as a :class:`Place`.

    Raises :class:`NotationError` naming the bad field and what is allowed, for a
    value that is not one of the action classes or holds a field no action can.

    >>> check_action(Add(0, 32, 1))
    Add('add 1 7H low')
    >>> check_action(Discard(53))
    Traceback (most recent call last):
    ...
    buraco.errors.NotationError: Discard: a card is a code from 0 to 52 (see buraco.cards), \
not 53
    >>> check_action(("draw",))
    Traceback (most recent call last):
    ...
    buraco.errors.NotationError: an action is text such as 'draw' or an action value: \
Draw(), TurnUp(), TakePile(), Meld(cards), Add(meld, card[, place]), MoveWild(meld, to) \
or Discard(card), with card codes 0-52 and meld indexes from 0; not a tuple
    """
    kind = _KINDS.get(type(value))
    if kind is None:
        what = f"a {type(value).__name__}" if isinstance(value, tuple | list) else shown(value)
        raise NotationError(
            f"an action is text such as 'draw' or an action value: {_VALUE_FORMS}; not {what}"
        )
    action: Action = value  # type: ignore[assignment]
    name = type(value).__name__
    if action.kind != kind:
        raise NotationError(f"{name}: its kind is {kind!r}, not {action.kind!r}")
    if isinstance(action, Discard):
        _check_card(name, action.card)
    elif isinstance(action, Meld):
        cards = action.cards
        if not isinstance(cards, tuple | list) or not 1 <= len(cards) <= MAX_MELD_CARDS:
            raise NotationError(
                f"{name}: cards is a tuple of 1 to {MAX_MELD_CARDS} card codes, not {shown(cards)}"
            )
        for c in cards:
            _check_card(name, c)
        return Meld(tuple(cards))
    elif isinstance(action, Add):
        _check_meld_index(name, action.meld)
        _check_card(name, action.card)
        return Add(action.meld, action.card, _check_place(name, "place", action.place, _PLACES))
    elif isinstance(action, MoveWild):
        _check_meld_index(name, action.meld)
        ends = (Place.LOW, Place.HIGH)
        return MoveWild(action.meld, _check_place(name, "to", action.to, ends))
    return action


_PLACES = tuple(Place)


def _check_card(name: str, card: object) -> None:
    if type(card) is not int or not 0 <= card < len(CARD_NAMES):
        raise NotationError(
            f"{name}: a card is a code from 0 to {len(CARD_NAMES) - 1} (see buraco.cards), "
            f"not {shown(card)}"
        )


def _check_meld_index(name: str, meld: object) -> None:
    if type(meld) is not int or not 0 <= meld < MAX_MELD_NUMBER:
        raise NotationError(
            f"{name}: meld is the 0-based index of one of your side's melds (0 to "
            f"{MAX_MELD_NUMBER - 1}), not {shown(meld)}"
        )


def _check_place(name: str, field: str, place: object, allowed: tuple[Place, ...]) -> Place:
    if type(place) in (int, Place) and place in allowed:
        return Place(place)  # type: ignore[arg-type]
    words = ", ".join(f"Place.{p.name}" for p in allowed)
    raise NotationError(f"{name}: {field} is one of {words}, not {shown(place)}")
