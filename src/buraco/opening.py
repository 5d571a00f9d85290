"""Can an initial meld still be reached? A search over disjoint new melds.

``fechado`` lets a side that still owes its initial meld take the closed pile
only to meld its top card at once, counting the pile cards it melds that turn
toward the minimum (001 §Buraco Fechado, RULINGS table). Once the pile is in
hand the take cannot be undone, so the engine allows the take, and each meld of
that turn, only while the rest of the minimum can still be made from the cards
in hand. :func:`can_reach` answers that question exactly.

>>> from buraco.cards import counts_of, parse_cards
>>> from buraco.game import _tables_for
>>> from buraco.rules import make_rules
>>> tables = _tables_for(make_rules("fechado"))
>>> hand = counts_of(parse_cards("KS KD KC AS AD AC 9C"))
>>> can_reach(tables, hand, 75), can_reach(tables, hand, 76)
(True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from buraco.cards import N_CODES

if TYPE_CHECKING:
    from buraco.movegen import MoveTables


def can_reach(
    tables: MoveTables,
    h: list[int],
    need: int,
    keep: int = 1,
    exclude: int = 0,
    one_set_per_rank: bool = False,
) -> bool:
    """Whether new melds from the counts ``h`` can reach ``need`` points together.

    The melds are disjoint and leave at least ``keep`` cards in hand (for the discard).
    ``exclude`` has bit ``r`` set for ranks that may not form a new set; with
    ``one_set_per_rank`` each set made excludes its rank from further sets.
    """
    if need <= 0:
        return sum(h) >= keep
    values = tables.rules.values
    failed: set[tuple[tuple[int, ...], int, int, int]] = set()

    def search(h: list[int], need: int, spare: int, exclude: int) -> bool:
        # spare: cards set aside unmelded so far (capped at keep)
        if need <= 0:
            return spare + sum(h) >= keep
        key = (tuple(h), need, spare, exclude)
        if key in failed:
            return False
        melds = tables.melds(h, exclude)
        useful = [0] * N_CODES
        for m in melds:
            for c in m.cards:
                useful[c] = 1
        bound = sum(values[c] * h[c] for c in range(N_CODES) if useful[c])
        if bound >= need:
            c = next(c for c in range(N_CODES) if h[c] and useful[c])
            for m in melds:
                if c in m.cards:
                    more = exclude
                    if one_set_per_rank:
                        rank = tables.set_rank(m.cards)
                        if rank >= 0:
                            more |= 1 << rank
                    for x in m.cards:
                        h[x] -= 1
                    ok = search(h, need - sum(values[x] for x in m.cards), spare, more)
                    for x in m.cards:
                        h[x] += 1
                    if ok:
                        return True
            # or one copy of c stays out of every meld
            h[c] -= 1
            ok = search(h, need, min(keep, spare + 1), exclude)
            h[c] += 1
            if ok:
                return True
        failed.add(key)
        return False

    return search(list(h), need, 0, exclude)
