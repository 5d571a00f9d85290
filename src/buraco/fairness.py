r"""Provably fair deals: a commitment to each hand's deck order, revealed when the hand ends.

A server that deals online draws every deck from a CSPRNG (:func:`new_deal`)
and, before the first card is seen, publishes a SHA-256 **commitment** to the
deck order and the cut, made with a secret random **salt**. When the hand is
over it reveals the salt; the deck is in the game record. Anyone can then
recompute the hash (:func:`commitment`) and see that the deal was fixed before
play began and not changed since (:func:`verify`).

The committed text is ``buraco-deal-v1``, the salt, the deck order as card
names (top card first, separated by spaces) and the cut, one per line::

    sha256("buraco-deal-v1\n" + salt + "\n" + "7H QS ... JK" + "\n" + "1")

>>> c = commitment("00" * 16, "AS 2S", 0)
>>> len(c), c == commitment("00" * 16, "AS 2S", 0), c == commitment("00" * 16, "2S AS", 0)
(64, True, False)
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from buraco.cards import CARD_NAMES, Card, build_deck
from buraco.rules import Rules

DOMAIN = "buraco-deal-v1"
"""The first line of every committed text: which scheme made it."""

SALT_RE = re.compile(r"[0-9a-f]{32,128}")
"""A salt: 16 to 64 random bytes as lowercase hexadecimal."""

HASH_RE = re.compile(r"[0-9a-f]{64}")
"""A commitment: a SHA-256 digest as lowercase hexadecimal."""


def commitment(salt: str, deck: str, cut: int) -> str:
    """The SHA-256 commitment (hexadecimal) to a deck order and cut under ``salt``."""
    text = f"{DOMAIN}\n{salt}\n{deck}\n{cut}"
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Deal:
    """A deck order and cut drawn from the CSPRNG, with the salt and commitment for them."""

    deck: tuple[Card, ...]
    """Top card first."""
    cut: int
    salt: str
    commitment: str

    @property
    def deck_text(self) -> str:
        """The deck order as the record writes it (card names, top first)."""
        return " ".join(CARD_NAMES[c] for c in self.deck)


def new_deal(rules: Rules) -> Deal:
    """A deck order, a cut and a fresh salt, all from :mod:`secrets`, and their commitment."""
    deck = build_deck(rules.decks, rules.jokers_per_deck)
    secrets.SystemRandom().shuffle(deck)
    spread = rules.cut_spread
    cut = secrets.randbelow(2 * spread + 1) - spread
    salt = secrets.token_hex(16)
    text = " ".join(CARD_NAMES[c] for c in deck)
    return Deal(tuple(deck), cut, salt, commitment(salt, text, cut))


@dataclass(frozen=True)
class HandCheck:
    """The outcome of checking one hand of a record."""

    hand: int
    """The hand's number, from 1."""
    ok: bool
    message: str


def verify(record: dict[str, Any]) -> list[HandCheck]:
    """Check the commitment of every hand of a record (already checked by ``record.load``).

    A hand passes when it carries a ``commitment`` and a ``salt`` and the hash
    of its salt, deck and cut equals the commitment. A hand without them fails:
    nothing shows that its deck was fixed before play.
    """
    out = []
    for i, hand in enumerate(record["hands"]):
        deck = hand["deck"] if isinstance(hand["deck"], str) else " ".join(hand["deck"])
        cut = hand.get("cut", 1)
        if "commitment" not in hand:
            out.append(HandCheck(i + 1, False, "no commitment: the deal cannot be verified"))
        elif "salt" not in hand:
            out.append(HandCheck(i + 1, False, "the salt was not revealed"))
        elif commitment(hand["salt"], deck, cut) != hand["commitment"]:
            out.append(
                HandCheck(i + 1, False, "MISMATCH: the deck or cut is not the one committed to")
            )
        else:
            out.append(HandCheck(i + 1, True, f"verified ({hand['commitment'][:16]}…)"))
    return out
