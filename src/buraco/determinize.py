"""Resampling hidden cards: full games consistent with what one seat has seen.

A search bot never sees the game, only its seat's (full) view. To look ahead it
imagines the hidden cards: :class:`Determinizer` works out, from the view and
the history it carries, where every card it knows about is (its own hand, the
melds, the whole discard pile even when only its top shows, the cards other
players are known to hold because they took them from the pile), then deals the
unknown cards at random to the other hands, the stock and the mortos. Each
:meth:`Determinizer.sample` is a :class:`~buraco.game.Game` whose public state is
the view's, which can be played forward with the engine.

>>> from buraco import Game
>>> from buraco.views import seat_view
>>> game = Game("fechado", players=4, seed=3, match=False)
>>> game.apply("draw")
>>> view = seat_view(game, game.turn)
>>> sample = Determinizer(view).sample(random.Random(1))
>>> sample.legal_actions() == game.legal_actions(), sample.hand(view.seat) == game.hand(view.seat)
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from buraco.actions import Add, Discard, Draw, Meld, TakePile, TurnUp
from buraco.cards import N_CODES, Card, build_deck, counts_of
from buraco.game import Game, Phase
from buraco.melds import TableMeld
from buraco.rules import Rules, make_rules
from buraco.views import MeldView, SeatView

_PHASES = {"draw": Phase.DRAW, "play": Phase.PLAY, "top-meld": Phase.TOP_MELD}
_RULES: dict[tuple[Any, ...], Rules] = {}


def rules_of(view: SeatView) -> Rules:
    """The rules in force in a view (cached)."""
    key = (view.preset, len(view.names), tuple(view.options.items()))
    rules = _RULES.get(key)
    if rules is None:
        options = {k: v for k, v in view.options.items() if k != "players"}
        rules = _RULES[key] = make_rules(view.preset, players=len(view.names), **options)
    return rules


def pile_of(view: SeatView) -> list[Card]:
    """The whole discard pile, bottom to top, as the viewing seat remembers it.

    An open pile is in the view; a closed one is rebuilt from the hand's history: the
    card turned up at the deal, then every discard or turned-up card since the pile
    was last taken.
    """
    if view.pile_open:
        return list(view.pile)
    detail = view.detail
    pile: list[Card] = [detail.upcard] if detail and detail.upcard is not None else []
    for e in view.events:
        if isinstance(e.action, Discard):
            pile.append(e.action.card)
        elif isinstance(e.action, TurnUp):
            pile.extend(e.cards)
        elif isinstance(e.action, TakePile):
            pile = []
    return pile


def known_hands(view: SeatView) -> list[Counter[Card]]:
    """Cards each other seat is known to hold: taken from the pile and not played since.

    Cards that a short opening gave back to a hand are known too.
    """
    known: list[Counter[Card]] = [Counter() for _ in view.names]
    detail = view.detail
    pile: list[Card] = [detail.upcard] if detail and detail.upcard is not None else []
    turn_cards: list[Card] = []  # cards the player to move melded this turn
    for e in view.events:
        a, s = e.action, e.seat
        hand = known[s]
        if isinstance(a, Discard):
            pile.append(a.card)
            if hand[a.card]:
                hand[a.card] -= 1
        elif isinstance(a, TurnUp):
            pile.extend(e.cards)
        elif isinstance(a, TakePile):
            hand.update(pile)
            pile = []
            turn_cards = []
        elif isinstance(a, Draw):
            turn_cards = []
        elif isinstance(a, Meld | Add):
            for c in a.cards if isinstance(a, Meld) else (a.card,):
                turn_cards.append(c)
                if hand[c]:
                    hand[c] -= 1
        elif a is None and e.note.startswith("opening short"):
            hand.update(turn_cards)  # the staged melds went back to the hand
        elif a is None and e.note.startswith("took the morto"):
            hand.clear()  # the hand was empty; the morto's cards are unknown
    known[view.seat] = Counter()
    return known


def meld_of(mv: MeldView, values: tuple[int, ...]) -> TableMeld:
    """The table meld a meld view shows."""
    cards = mv.cards
    wild = cards[mv.wild] if mv.wild is not None else -1
    if mv.run:
        wpos = mv.lo + mv.wild if mv.wild is not None else -1
        m = TableMeld(True, mv.suit, -1, mv.lo, mv.hi, wpos, wild, None, len(cards), mv.points)
    else:
        nat = [0, 0, 0, 0]
        for i, c in enumerate(cards):
            if i != mv.wild:
                nat[c // 13] += 1
        m = TableMeld(
            False, -1, mv.rank, 0, 0, 0 if wild >= 0 else -1, wild, nat, len(cards), mv.points
        )
    m.staged = mv.staged
    return m


class Determinizer:
    """Builds games consistent with one seat's full view (see the module docstring)."""

    def __init__(self, view: SeatView) -> None:
        if view.detail is None:
            raise ValueError("a determinizer needs a full view (seat_view(..., full=True))")
        if view.turn is None:
            raise ValueError("the hand is over: there is nothing to search")
        self.view = view
        rules = rules_of(view)
        self.rules = rules
        me = view.seat
        n = len(view.names)
        pile = pile_of(view)
        known = known_hands(view)
        pool = counts_of(build_deck(rules.decks, rules.jokers_per_deck))
        hidden_own = view.hidden_pot > 0
        own = list(view.counts)
        for c in range(N_CODES):
            pool[c] -= own[c]
        for side in view.melds:
            for mv in side:
                for c in mv.cards:
                    pool[c] -= 1
        for c in pile:
            pool[c] -= 1
        # cards known in other hands (never more than the pool still holds)
        self.known: list[list[Card]] = []
        for s in range(n):
            cards: list[Card] = []
            for c, k in known[s].items():
                take = min(k, pool[c], view.hand_sizes[s] - len(cards))
                pool[c] -= take
                cards.extend([c] * take)
            self.known.append(cards)
        self.pool: list[Card] = [c for c in range(N_CODES) for _ in range(max(pool[c], 0))]
        # how many unseen cards each hand receives (one's own only while its morto is hidden)
        self.need = [
            view.hand_sizes[s] - len(self.known[s]) if s != me else view.hidden_pot
            for s in range(n)
        ]
        wanted = sum(self.need) + view.stock + sum(view.pots)
        if wanted != len(self.pool):
            raise ValueError(
                f"the view does not add up: {len(self.pool)} unseen cards for {wanted} places"
            )
        self.template = self._template(pile, own, hidden_own)

    def _template(self, pile: list[Card], own: list[int], hidden_own: bool) -> Game:
        view = self.view
        detail = view.detail
        assert detail is not None
        rules = self.rules
        g = Game(rules, seed=0, match=False, first_dealer=view.dealer, scores=list(view.totals))
        n, k = g.n, g.k
        g.hand_number = view.hand_number
        g.hands = [[0] * N_CODES for _ in range(n)]
        if not hidden_own:
            g.hands[view.seat] = list(own)
        g.sizes = list(view.hand_sizes)
        g.pile = list(pile)
        g.upcard = detail.upcard if detail.upcard is not None else -1
        g.melds = [[meld_of(mv, rules.values) for mv in side] for side in view.melds]
        g.table_views = None
        g.pot_taken = list(view.pot_taken)
        g.unplayed = list(detail.pot_unplayed)
        g.pot_used = list(detail.pot_used)
        g.hidden = [hidden_own and s == view.seat for s in range(n)]
        g.turns_started = list(detail.turns_started)
        g.vulnerable = list(view.vulnerable)
        g.requirement = [q if q else g.requirement[s] for s, q in enumerate(view.requirement)]
        g.opened = [q == 0 for q in view.requirement]
        g.staged_value = detail.staged_value
        g.cut_points = list(detail.cut_points)
        assert view.turn is not None
        g.turn = view.turn
        g.phase = _PHASES[view.phase]
        g.first_card = detail.turn_up_card if detail.turn_up_card is not None else -1
        g.first_draw = detail.first_draw
        g.taken_top = view.taken_top if view.taken_top is not None else -1
        g.taken_melded = detail.taken_melded
        g.top_to_meld = g.taken_top if g.phase == Phase.TOP_MELD else -1
        g.moved = set(detail.moved)
        g.last_turn = view.last_turn
        g.must_open = detail.must_open
        g.pile_streak = detail.pile_streak
        g.events.clear()
        g._legal = None
        g.score_cache = None
        g.public_cache = None
        assert k == len(view.melds)
        return g

    def sample(self, rng: random.Random) -> Game:
        """A new game: the view's position with the unseen cards dealt at random."""
        g = self.template.clone()
        cards = list(self.pool)
        rng.shuffle(cards)
        pos = 0
        for s, need in enumerate(self.need):
            h = g.hands[s]
            for c in self.known[s]:
                h[c] += 1
            for c in cards[pos : pos + need]:
                h[c] += 1
            pos += need
        g.pots = []
        for size in self.view.pots:
            g.pots.append(cards[pos : pos + size])
            pos += size
        g.stock = cards[pos:]
        return g
