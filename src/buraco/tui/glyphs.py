"""How the terminal draws a card: its rank, then its suit's symbol (``10♥``, ``A♣``, ``JK``).

Below both the words (:mod:`buraco.tui.words`, which fill a card into a sentence) and the
board (:mod:`buraco.tui.render`, which styles it).

>>> card_label(35), card_label(52), card_label(0)
('10♥', 'JK', 'A♣')
"""

from __future__ import annotations

from buraco.cards import JOKER, RANKS, Card, rank_of, suit_of

SUIT_SYMBOLS = "♣♦♥♠"
"""Suit symbols in code order (clubs, diamonds, hearts, spades)."""

RANK_LABELS = tuple("10" if r == "T" else r for r in RANKS)
"""How each rank index is shown (``10`` for the ten)."""


def card_label(card: Card) -> str:
    """A card as the screen shows it: rank and suit symbol, or ``JK``."""
    if card == JOKER:
        return "JK"
    return RANK_LABELS[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]
