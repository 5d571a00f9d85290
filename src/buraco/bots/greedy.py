"""The ``greedy`` bot: melds whatever it can and discards its least useful card.

Its policy, in order: take the pile when its top card fits the hand or the
side's melds; add natural cards to the side's melds; put down the longest clean
meld (wild cards only where they complete a canastra, or to empty a small
hand); reach an initial-meld minimum in one turn or not at all; discard the card
with the fewest partners in the hand (never a wild while another card will do).
It is a baseline that really plays hands out, not a strong player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from buraco.actions import DRAW, TAKE_PILE, Action, Add, Discard, Meld, TakePile
from buraco.bots.base import Bot, play_sections
from buraco.cards import JOKER, TWO, Card
from buraco.views import MeldView, SeatView

_WILDS = frozenset((JOKER, 1, 14, 27, 40))


def _wild(c: Card) -> bool:
    return c == JOKER or c % 13 == TWO


def _fits_meld(c: Card, m: MeldView) -> bool:
    """Whether a natural card extends a meld at one end (or joins a set)."""
    if not m.run:
        return c % 13 == m.rank
    if c // 13 != m.suit:
        return False
    r = c % 13
    if r == 0:
        return m.lo == 1 or m.hi == 12
    return r == m.lo - 1 or r == m.hi + 1


def _partners() -> tuple[tuple[tuple[int, float], ...], ...]:
    # same-suit ranks one or two run positions away, with a weight (the ace is next to 2 and K)
    table = []
    for rank in range(13):
        positions = (0, 13) if rank == 0 else (rank,)
        found: dict[int, float] = {}
        for p in positions:
            for gap, weight in ((1, 12.0), (2, 6.0)):
                for q in (p - gap, p + gap):
                    if 0 <= q <= 13:
                        other = 0 if q == 13 else q
                        if other != rank:
                            found[other] = max(found.get(other, 0.0), weight)
        table.append(tuple(found.items()))
    return tuple(table)


_PARTNERS = _partners()


def _fitting_cards(melds: Sequence[MeldView]) -> set[Card]:
    """Natural cards that would extend one of these melds."""
    out: set[Card] = set()
    for m in melds:
        if not m.run:
            out.update(t * 13 + m.rank for t in range(4))
            continue
        base = m.suit * 13
        if m.lo > 0:
            out.add(base + (m.lo - 1 if m.lo > 1 else 0))
        if m.hi < 13:
            out.add(base + (m.hi + 1 if m.hi < 12 else 0))
    return out


class GreedyBot(Bot):
    """Melds what it can, keeps wild cards for canastras, discards the least useful card."""

    name = "greedy"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The greedy choice (see the module docstring)."""
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase == "draw":
            if any(type(a) is TakePile for a in legal) and self._wants_pile(view):
                return TAKE_PILE
            return DRAW if DRAW in legal else legal[0]
        if phase == "top-meld":
            return max(legal, key=lambda a: len(a.cards) if isinstance(a, Meld) else 1)
        return self._play(view, legal)

    # ----- drawing -------------------------------------------------------------------
    def _wants_pile(self, view: SeatView) -> bool:
        if view.options["pile_top_meld"]:
            return True  # only legal when the top card can be melded at once
        top = view.pile[-1]
        if _wild(top):
            return True
        counts = view.counts
        suit, rank = top // 13, top % 13
        for m in view.melds[view.side]:
            if _fits_meld(top, m):
                return True
        base = suit * 13
        near = any(counts[base + r] for r in (rank - 1, rank + 1) if 0 <= r < 13)
        same = counts[top] if view.options["set_ranks"] else 0
        return near or same >= 2

    # ----- melding and discarding -----------------------------------------------------
    def _play(self, view: SeatView, legal: Sequence[Action]) -> Action:
        # legal actions come in a fixed order: turn-up, melds, adds, wild moves, discards
        side = view.side
        my_melds = view.melds[side]
        hand_size = view.hand_size
        end = len(legal)
        first_meld, first_add, first_discard = play_sections(legal)
        natural_add: Add | None = None
        wild_add: Add | None = None
        if first_add < first_discard:
            any_ok = view.options["go_out_canastra"] == "any"
            have_clean = any(m.canastra and m.clean for m in my_melds)
            for a in legal[first_add:first_discard]:
                if type(a) is not Add:
                    continue
                target = my_melds[a.meld]
                if a.card not in _WILDS:
                    if natural_add is None or len(target.cards) == 6:
                        natural_add = a
                elif wild_add is None:
                    size = len(target.cards)
                    if hand_size <= 2 or (size >= 6 and (not target.clean or have_clean or any_ok)):
                        wild_add = a
        if natural_add is not None:
            return natural_add
        if first_meld < first_add:
            melds = cast(list[Meld], legal[first_meld:first_add])
            choice = self._pick_meld(view, melds, view.requirement[side] == 0, hand_size)
            if choice is not None:
                return choice
        if wild_add is not None:
            return wild_add
        if first_discard < end:
            return self._pick_discard(view, cast(list[Discard], legal[first_discard:]))
        return legal[0]

    def _pick_meld(
        self, view: SeatView, melds: list[Meld], opened: bool, hand_size: int
    ) -> Meld | None:
        clean = [m for m in melds if _WILDS.isdisjoint(m.cards)]
        pool = clean
        if not pool:
            pool = [m for m in melds if len(m.cards) >= 4 or hand_size <= 4]
        if not pool:
            return None
        if not opened:
            side = view.side
            staged = sum(m.points for m in view.melds[side] if m.staged)
            need = view.requirement[side] - staged
            values = view.options_values
            plan = self._opening_plan(pool, need, values, view.counts)
            return plan
        return max(pool, key=lambda m: len(m.cards))

    @staticmethod
    def _opening_plan(
        pool: list[Meld], need: int, values: Sequence[int], counts: Sequence[int]
    ) -> Meld | None:
        """The first meld of a set of disjoint melds reaching ``need``, if any."""
        scored = sorted(pool, key=lambda m: -sum(values[c] for c in m.cards))
        left = list(counts)
        total = 0
        first: Meld | None = None
        for m in scored:
            use: dict[Card, int] = {}
            for c in m.cards:
                use[c] = use.get(c, 0) + 1
            if all(left[c] >= k for c, k in use.items()):
                for c, k in use.items():
                    left[c] -= k
                total += sum(values[c] for c in m.cards)
                first = first or m
                if total >= need:
                    return first
        return None

    def _pick_discard(self, view: SeatView, discards: list[Discard]) -> Discard:
        counts = view.counts
        sets = view.options["set_ranks"]
        fits = _fitting_cards(view.melds[view.side])
        values = view.options_values
        best: Discard | None = None
        best_score = 1e9
        for d in discards:
            c = d.card
            if _wild(c):
                score = 1000.0
            else:
                base, rank = c - c % 13, c % 13
                score = -values[c] / 20
                if c in fits:
                    score += 50
                for other, weight in _PARTNERS[rank]:
                    if counts[base + other]:
                        score += weight
                if counts[c] > 1:
                    score += 6 if sets else 2
            if score < best_score:
                best, best_score = d, score
        assert best is not None
        return best
