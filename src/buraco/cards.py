"""Cards: small-integer codes, their two-character names, and decks.

A card is an ``int`` from 0 to 52. The 52 suited cards are ``suit * 13 + rank``
with suits ``C D H S`` (0-3) and ranks ``A 2 3 4 5 6 7 8 9 T J Q K`` (0-12);
52 is the joker. Two copies of the same card are interchangeable, so a hand is
a multiset of codes.

>>> parse_card("7H"), card_name(32)
(32, '7H')
>>> parse_cards("ah 10h JK")
[26, 35, 52]
>>> format_cards([52, 0, 13])
'JK AC AD'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from buraco.errors import CardError, shown
from buraco.refusals import Refusal

Card = int
"""A card code, 0-52 (see the module docstring)."""

SUITS = "CDHS"
"""Suit letters in code order: clubs, diamonds, hearts, spades."""

RANKS = "A23456789TJQK"
"""Rank letters in code order: the rank index of a card is its position here."""

JOKER: Card = 52
"""The joker's code."""

N_CODES = 53
"""Number of distinct card codes (52 suited cards and the joker)."""

MAX_CARDS = 1000
"""The most cards a list of card names may hold (several packs' worth)."""

ACE, TWO = 0, 1
"""Rank indices of the ace and the two."""

CARD_NAMES: tuple[str, ...] = (*(r + s for s in SUITS for r in RANKS), "JK")
"""Two-character name of every code, indexed by code."""

_BY_NAME: dict[str, Card] = {name: code for code, name in enumerate(CARD_NAMES)}
for _s in SUITS:
    _BY_NAME["10" + _s] = _BY_NAME["T" + _s]

WILD_CODES: tuple[Card, ...] = (JOKER, 1, 14, 27, 40)
"""Codes of the cards that can be wild: the joker, then the 2 of each suit."""


def suit_of(card: Card) -> int:
    """Suit index (0-3) of a suited card."""
    return card // 13


def rank_of(card: Card) -> int:
    """Rank index (0 = ace ... 12 = king) of a suited card."""
    return card % 13


def make_card(rank: int, suit: int) -> Card:
    """Code of the card with this rank index and suit index."""
    return suit * 13 + rank


def is_wild_capable(card: Card) -> bool:
    """Whether the card can serve as a wild card: a joker or any 2."""
    return card == JOKER or card % 13 == TWO


def card_name(card: Card) -> str:
    """Two-character name of a code (``AS``, ``TH``, ``JK``).

    Raises :class:`CardError` for anything but a code from 0 to 52.
    """
    if type(card) is not int or not 0 <= card < N_CODES:
        raise CardError(f"a card code is a whole number from 0 to 52, not {shown(card)}")
    return CARD_NAMES[card]


def parse_card(text: str) -> Card:
    """Code of a card name; accepts lower case and ``10`` for ``T``.

    Raises :class:`CardError` naming the allowed forms for anything else.
    """
    if not isinstance(text, str):
        raise CardError(f"a card name is a string such as '7H', not {shown(text)}")
    code = _BY_NAME.get(text.strip().upper()) if len(text) <= 10 else None
    if code is None:
        raise CardError(Refusal("notation.card", {"given": repr(text)}))
    return code


def parse_cards(text: str | Sequence[str]) -> list[Card]:
    """Codes of a whitespace- or comma-separated list of card names (or of the names).

    Raises :class:`CardError` for anything else, or for more than ``MAX_CARDS`` names.
    """
    if isinstance(text, str):
        if len(text) > 4 * MAX_CARDS:
            raise CardError(f"a list of cards is at most {4 * MAX_CARDS} characters long")
        words = text.replace(",", " ").split()
    elif isinstance(text, list | tuple):
        words = list(text)
    else:
        raise CardError(f"cards are a string of card names or a list of them, not {shown(text)}")
    if len(words) > MAX_CARDS:
        raise CardError(f"a list of cards holds at most {MAX_CARDS} cards, not {len(words)}")
    return [parse_card(w) for w in words]


def format_cards(cards: Iterable[Card]) -> str:
    """Card names separated by spaces."""
    return " ".join(CARD_NAMES[c] for c in cards)


def sort_key(card: Card) -> tuple[int, int, int]:
    """Display order: by suit, then rank (ace high), wild cards last."""
    if card == JOKER:
        return (2, 0, 0)
    if card % 13 == TWO:
        return (1, card // 13, 0)
    rank = card % 13
    return (0, card // 13, 13 if rank == ACE else rank)


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order (see :func:`sort_key`)."""
    return sorted(cards, key=sort_key)


def build_deck(decks: int, jokers_per_deck: int) -> list[Card]:
    """The cards of ``decks`` standard packs with ``jokers_per_deck`` jokers each, in code order."""
    deck: list[Card] = []
    for _ in range(decks):
        deck.extend(range(52))
        deck.extend([JOKER] * jokers_per_deck)
    deck.sort()
    return deck


def counts_of(cards: Iterable[Card]) -> list[int]:
    """Count array (length 53) of a collection of codes."""
    counts = [0] * N_CODES
    for c in cards:
        counts[c] += 1
    return counts


def cards_of(counts: Sequence[int]) -> list[Card]:
    """Codes held in a count array, in code order, repeated by count."""
    out: list[Card] = []
    for code, n in enumerate(counts):
        if n:
            out.extend([code] * n)
    return out
