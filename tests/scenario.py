"""Stacked-deck scenarios for rule tests.

A scenario names the cards that matter (hands, mortos, the top of the stock),
plays a list of actions, and goes through a game record: the actions are
written to a record with the stacked deck and replayed from it, so every rule
test also checks that records replay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from buraco import Game, IllegalAction, card_name, deck_for, make_rules, replay
from buraco.cards import N_CODES
from buraco.rules import PRESETS

TABLES = [(preset, players) for preset, spec in PRESETS.items() for players in spec.players]
"""Every preset with every player count it is played by."""


def play(
    preset: str,
    players: int = 2,
    *,
    hands: Sequence[str] = (),
    pots: Sequence[str] = (),
    stock: str = "",
    upcard: str | None = None,
    actions: Sequence[str] = (),
    scores: Sequence[int] | None = None,
    dealer: int | None = None,
    match: bool = False,
    **options: Any,
) -> Game:
    """Deal the named cards (seat 0 plays first unless ``dealer`` says otherwise),
    apply ``actions`` (each by the seat to move), and return the replayed game."""
    rules = make_rules(preset, players=players, **options)
    if dealer is None:
        dealer = players - 1
    deck = deck_for(rules, dealer=dealer, hands=hands, pots=pots, stock=stock, upcard=upcard)
    game = Game(rules, stacked=[deck], first_dealer=dealer, match=match, scores=scores, seed=0)
    for text in actions:
        game.apply(text, seat=game.to_move)
    again = replay(game.record())
    assert again.events == game.events
    return again


def legal(game: Game) -> list[str]:
    """The legal actions as notation."""
    return [str(a) for a in game.legal_actions()]


def views(game: Game) -> list[dict[str, Any]]:
    """Every seat's view."""
    return [game.view(s) for s in range(game.players)]


def refused(game: Game, action: str) -> IllegalAction:
    """Apply an action that must be refused; check nothing changed; return the error."""
    before = views(game)
    events = list(game.events)
    with pytest.raises(IllegalAction) as info:
        game.apply(action, seat=game.to_move)
    assert views(game) == before
    assert game.events == events
    return info.value


def refuse(game: Game, action: str, rule: str | None = None) -> str:
    """Like :func:`refused`, also checking the rule id; returns the message."""
    error = refused(game, action)
    if rule is not None:
        assert error.rule == rule
    return str(error)


def draw_and_discard(game: Game) -> str:
    """The player to move draws the top stock card and discards it again; returns its name."""
    seat = game.to_move
    top = card_name(game.stock[-1])
    game.apply("draw", seat=seat)
    if not game.is_hand_over():
        game.apply(f"discard {top}", seat=seat)
    return top


def finish_by_stock(game: Game) -> None:
    """Draw and discard until the hand ends (the stock and the mortos run out)."""
    while not game.is_hand_over():
        draw_and_discard(game)


def melds(game: Game, side: int) -> list[str]:
    """A side's melds as notation."""
    return [m.cards_text() for m in game.melds[side]]


def names(game: Game, seat: int) -> list[str]:
    """A seat's hand as card names, in code order."""
    return [card_name(c) for c in game.hand(seat)]


def hand_text(game: Game, seat: int) -> list[str]:
    """A seat's hand as sorted card names."""
    return sorted(names(game, seat))


# 001 §Players and Cards: joker 20, two 10, ace 15, K Q J 10 9 8 10, 7 6 5 4 3 5.
VALUES_001 = {
    "JK": 20,
    "2": 10,
    "A": 15,
    "K": 10,
    "Q": 10,
    "J": 10,
    "T": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
    "3": 5,
}


def points(cards: str) -> int:
    """Card values of a list of card names, from the table in 001."""
    return sum(VALUES_001["JK" if c == "JK" else c[0]] for c in cards.split())


# Eleven-card runs (3 to K of a suit: 5 * 5 + 6 * 10 = 85 points with 5/10 values).
SPADES = "3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
HEARTS = "3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
DIAMONDS = "3D 4D 5D 6D 7D 8D 9D TD JD QD KD"
CLUBS = "3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
# Eleven cards of eleven ranks, no two of a suit within two ranks: no meld, not even a set;
# 85 points with 5/10 values.
JUNK = "4C 8C QC 3D 7D JD 5H 9H KH 6S TS"


# A us hand whose runs 8C-TC (30) and 3H-6H (20) make exactly the opening minimum of 50.
OPENING_50 = "8C 9C TC 3H 4H 5H 6H 4S KD JS 7D"


def out_in_one_turn(preset: str, **kw: Any) -> Game:
    """Seat 0 melds 3S-AS (taking its morto by melding), then melds the morto 3H-KH."""
    return play(
        preset,
        2,
        hands=[SPADES, JUNK],
        pots=[HEARTS],
        stock="AS",
        actions=["draw", f"meld {SPADES} AS", f"meld {HEARTS}"],
        **kw,
    )


def pots_taken_by_melding(preset: str, pot: str, then: Sequence[str], **options: Any) -> Game:
    """Two players: seat 0 melds 3S-AS, taking the morto ``pot`` by melding, and plays
    ``then``; seat 1 melds 3D-AD, takes the hearts morto and melds it, going out."""
    return play(
        preset,
        2,
        hands=[SPADES, DIAMONDS],
        pots=[pot, HEARTS],
        stock="AS AD",
        actions=[
            "draw",
            f"meld {SPADES} AS",
            *then,
            "draw",
            f"meld {DIAMONDS} AD",
            f"meld {HEARTS}",
        ],
        **options,
    )


def pot_then_partner_out(preset: str) -> Game:
    """Four players: seat 0 melds 3S-AS, takes the side's only morto and discards 4C; seat 1
    draws and discards; seat 2, the partner, melds 3H-AH and goes out."""
    return play(
        preset,
        4,
        hands=[SPADES, CLUBS, HEARTS, DIAMONDS],
        pots=[JUNK],
        stock="AS 9S AH",
        actions=[
            "draw",
            f"meld {SPADES} AS",
            "discard 4C",
            "draw",
            "discard 9S",
            "draw",
            f"meld {HEARTS} AH",
        ],
    )


# What a seat's view holds (the engine issue: own hand, every side's melds, the pile as the
# preset shows it, other hands' sizes, stock and morto sizes and status, scores, whose turn,
# legal actions).
VIEW_KEYS = {
    "seat",
    "preset",
    "options",
    "names",
    "side",
    "sides",
    "hand",
    "hidden_pot",
    "hand_sizes",
    "melds",
    "pile",
    "pile_size",
    "pile_open",
    "stock",
    "pots",
    "pot_taken",
    "turn",
    "phase",
    "dealer",
    "hand_number",
    "totals",
    "table_points",
    "vulnerable",
    "requirement",
    "taken_top",
    "last_turn",
    "legal",
    "log",
    "scores",
    "winner",
}


def where_cards_are(game: Game) -> Counter[int]:
    """Every card in hands, stock, pile, mortos and melds, counted."""
    found: Counter[int] = Counter()
    for seat, counts in enumerate(game.hands):
        assert len(counts) == N_CODES
        assert all(k >= 0 for k in counts), f"seat {seat} holds a negative count"
        assert sum(counts) == game.sizes[seat], f"seat {seat}: size {game.sizes[seat]}"
        for code, k in enumerate(counts):
            found[code] += k
    found.update(game.stock)
    found.update(game.pile)
    for pot in game.pots:
        found.update(pot)
    for side_melds in game.melds:
        for m in side_melds:
            found.update(m.cards())
    return found
