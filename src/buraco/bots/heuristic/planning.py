"""Choosing among melds and adds: clean melds first, wild cards spent only where they pay.

An unopened side with a minimum melds only when a plan reaches it this turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from buraco.actions import (
    Action,
    Add,
    Meld,
    MoveWild,
    Place,
)
from buraco.bots.base import is_wild_add, wild_count
from buraco.bots.heuristic.reading import _RANK, _SUIT, _WILD, _Rules, _SideTable
from buraco.bots.heuristic.turn import _Turn
from buraco.bots.heuristic.weights import _TOP_WILD
from buraco.cards import Card
from buraco.views import MeldView

# ----- choosing among melds and adds -----------------------------------------------------


def _cards_of(a: Action) -> tuple[Card, ...]:
    if type(a) is Meld:
        return a.cards
    if type(a) is Add:
        return (a.card,)
    return ()


def _top_score(a: Action, melds: Sequence[MeldView]) -> float:
    """How good a play of the pile's top card is: clean, long, completing a canastra."""
    if type(a) is Meld:
        cards = a.cards
        return 10.0 * len(cards) - _TOP_WILD * wild_count(cards)
    if type(a) is Add:
        m = melds[a.meld]
        return 25.0 + 30.0 * (len(m.cards) == 6) - (_TOP_WILD if is_wild_add(a, m) else 0.0)
    return 0.0


def _top_needs_wild(top: Card, counts: Sequence[int], r: _Rules, own: _SideTable) -> bool:
    """Whether melding the pile's top card needs a wild card (``counts`` hold the pile)."""
    if _WILD[top] or top in own.fit:
        return False
    rank = _RANK[top]
    if (
        r.set_mask >> rank & 1
        and counts[rank] + counts[13 + rank] + counts[26 + rank] + counts[39 + rank] >= 3
    ):
        return False
    s = _SUIT[top]
    mask = 0
    for c in range(s * 13, s * 13 + 13):
        if counts[c] and not _WILD[c]:
            for p in r.positions[c]:
                mask |= 1 << p
    for p in r.positions[top]:
        for a, b in ((p - 2, p - 1), (p - 1, p + 1), (p + 1, p + 2)):
            if a >= 0 and b <= 13 and mask >> a & 1 and mask >> b & 1:
                return False
    return True


def _opening_plan(
    options: list[Meld], counts: Sequence[int], values: Sequence[int], need: int, size: int
) -> list[Meld] | None:
    """Disjoint melds worth ``need`` points that leave a card to discard, fewest wilds first."""
    if not options:
        return None
    points = {m: sum(values[c] for c in m.cards) for m in options}
    wilds = {m: wild_count(m.cards) for m in options}
    by_points = sorted(options, key=lambda m: -points[m])
    orders = (
        [m for m in by_points if not wilds[m]],
        sorted(options, key=lambda m: (wilds[m], -points[m])),
        by_points,
    )
    best: list[Meld] | None = None
    best_wilds = 99
    for pool in orders:
        plan = _greedy_plan(pool, counts, points, wilds, need, size)
        if plan is not None:
            used = sum(wilds[m] for m in plan)
            if used < best_wilds:
                best, best_wilds = plan, used
    return best


def _greedy_plan(
    pool: Sequence[Meld],
    counts: Sequence[int],
    points: Mapping[Meld, int],
    wilds: Mapping[Meld, int],
    need: int,
    size: int,
) -> list[Meld] | None:
    """Melds taken in ``pool`` order while the hand holds their cards, until ``need``."""
    left = list(counts)
    total = used = wild_total = 0
    plan: list[Meld] = []
    for m in pool:
        cards = m.cards
        if used + len(cards) > size - 1 or wild_total + wilds[m] > 2:
            continue
        for c in cards:
            left[c] -= 1
        if min(left[c] for c in cards) < 0:
            for c in cards:
                left[c] += 1
            continue
        plan.append(m)
        wild_total += wilds[m]
        used += len(cards)
        total += points[m]
        if total >= need:
            return plan
    return None


def _cleaning_move(adds: Sequence[Action], melds: Sequence[MeldView], r: _Rules) -> Action | None:
    """``us``: a move that sends a run's wild 2 home, making the run clean."""
    if not r.wild_moves:
        return None
    for a in adds:
        if type(a) is not MoveWild or a.to != Place.LOW:
            continue
        m = melds[a.meld]
        if m.wild is None or m.wild != len(m.cards) - 1 or m.lo != 2:
            continue
        if m.cards[m.wild] == m.suit * 13 + 1:
            return a
    return None


def _best_natural_add(
    adds: Sequence[Action], melds: Sequence[MeldView], size: int, min_left: int
) -> Action | None:
    """The natural card to add: one completing a canastra first, then to clean melds."""
    if size - 1 < min_left:
        return None
    best: Action | None = None
    best_score = -1.0
    for a in adds:
        if type(a) is not Add:
            continue
        m = melds[a.meld]
        if is_wild_add(a, m):
            continue
        n = len(m.cards)
        score = 10.0 + 40.0 * (n == 6) + 5.0 * m.clean + n * 0.5
        if score > best_score:
            best, best_score = a, score
    return best


def _best_clean_meld(melds: Sequence[Action], size: int, min_left: int) -> Action | None:
    """The longest clean new meld (then the one with the most points)."""
    best: Action | None = None
    best_len = 0
    for a in melds:
        cards = a.cards  # type: ignore[union-attr]
        n = len(cards)
        if n <= best_len or size - n < min_left:
            continue
        if wild_count(cards):
            continue
        best, best_len = a, n
    return best


def _best_wild_play(
    t: _Turn,
    melds: Sequence[Action],
    adds: Sequence[Action],
    side_melds: Sequence[MeldView],
    min_left: int,
    dump: bool,
) -> Action | None:
    """A play with a wild card, or None.

    To complete a canastra, to empty the hand, to use a wild card held beyond the one
    kept in reserve, or to dump points before the hand ends.
    """
    size = t.size
    spare = t.wilds > 1
    best: Action | None = None
    best_score = 0.0
    if size - 1 >= min_left:
        for a in adds:
            if type(a) is Add:
                m = side_melds[a.meld]
                if is_wild_add(a, m):
                    score = _wild_add_score(t, a, m, spare, dump, min_left)
                    if score > best_score:
                        best, best_score = a, score
    for a in melds:
        cards = a.cards  # type: ignore[union-attr]
        n = len(cards)
        left = size - n
        if left < min_left:
            continue
        score = 0.0
        if n >= 7:
            score = 45.0 + n
        elif left <= 1 and min_left == 0:
            score = 35.0 + n
        elif spare or dump:
            score = 5.0 + n
        if score > best_score:
            best, best_score = a, score
    return best


def _wild_add_score(t: _Turn, a: Add, m: MeldView, spare: bool, dump: bool, min_left: int) -> float:
    """How good adding a wild card to the side's meld ``m`` is (0: not worth it)."""
    n = len(m.cards)
    if not m.clean or n >= 7:
        return 0.0  # a clean canastra stays clean (and a dirty meld takes no wild)
    own = t.own
    if t.r.clean_out and not own.clean_canastra and own.best_clean == a.meld and not dump:
        return 0.0  # the side's hope of a clean canastra
    score = 0.0
    if n == 6:
        score = 50.0
    elif spare or dump:
        score = 5.0 + n
    if t.size - 1 <= 1 and min_left == 0:
        score += 30.0
    return score
