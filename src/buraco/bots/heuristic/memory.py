"""The heuristic's memory of the hand: what each seat took from the pile and discarded."""

from __future__ import annotations

from buraco.actions import (
    Add,
    Discard,
    Draw,
    Meld,
    TakePile,
    TurnUp,
)
from buraco.bots.heuristic.reading import _BY_NAME
from buraco.cards import Card
from buraco.views import SeatView, SeenEvent

# ----- memory of the hand ---------------------------------------------------------------


class _Memory:
    """What one seat learnt from the hand's history (full views only)."""

    __slots__ = (
        "chances",
        "discarded",
        "drawn",
        "known",
        "last_event",
        "pile",
        "seen",
        "takes",
        "turn_cards",
    )

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
        self.takes = [0] * players
        """Turns each seat began by taking the pile."""
        self.chances = [0] * players
        """Turns each seat began with a pile to take (taken or not)."""

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
            self.takes[s] += 1
            self.chances[s] += 1
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
            if self.pile:
                self.chances[s] += 1
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
