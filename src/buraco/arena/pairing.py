"""Duplicate pairing: which bot sits on which side in each game of a deal.

Bots meet at *tables*. A table is a group of bots that play the same deal once in
every *arrangement* (every way of seating them over the sides), so that each bot
holds each side's cards equally often and the luck of the deal cancels:

- **two sides** (2 or 4 players, or 6 in two teams): a table is a pair of bots; the
  arrangements are ``(A, B)`` and ``(B, A)``. With several bots every pair has a table
  (a round robin).
- **three sides** (``italiano`` with 3 players, ``us`` with 6 in three teams): a table
  is three bots, seated in all six orders: every bot holds every side and sits both
  before and after each other bot (the cyclic rotations alone would always seat B
  after A, so B would always see A's discards first). With more than three bots
  every trio has a table. With exactly two bots the third side needs a filler, so
  the table plays both ``A, A, B`` and ``A, B, B`` in their three orders each.

An arrangement gives each side an index into the table's bots; a seat plays for
side ``seat % sides`` (:meth:`buraco.rules.Rules.side_of`), so with 4 players the bot
of side 0 fills seats 0 and 2.

>>> [t.arrangements for t in tables_for(["greedy", "random"], sides=2)]
[((0, 1), (1, 0))]
>>> seat_bots((1, 0), players=4)
(1, 0, 1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

Arrangement = tuple[int, ...]
"""For each side, the index (into the table's bots) of the bot playing it."""


@dataclass(frozen=True)
class Table:
    """A group of bots that play each deal once in every arrangement."""

    index: int
    """The table's number within the arena (its place in :func:`tables_for`)."""
    bots: tuple[int, ...]
    """The bots at the table, as indices into the arena's bot list (in that order)."""
    arrangements: tuple[Arrangement, ...]
    """Every seating played, each giving per side an index into :attr:`bots`."""

    def side_bots(self, rotation: int) -> tuple[int, ...]:
        """Per side, the arena bot index playing it in arrangement ``rotation``."""
        return tuple(self.bots[i] for i in self.arrangements[rotation])

    def pairs(self) -> list[tuple[int, int]]:
        """The pairs of distinct arena bots that meet at this table (``x < y``)."""
        return list(combinations(self.bots, 2))


def arrangements_for(size: int, sides: int) -> tuple[Arrangement, ...]:
    """Every seating of a table of ``size`` bots over ``sides`` sides.

    >>> arrangements_for(2, 2)
    ((0, 1), (1, 0))
    >>> len(arrangements_for(3, 3)), arrangements_for(2, 3)
    (6, ((0, 0, 1), (0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0)))
    """
    if size == sides:
        return tuple(permutations(range(size)))
    if size == 2 and sides == 3:
        # each bot twice against the other once, the lone bot on every side in turn
        lone_b = [tuple(int(side == lone) for side in range(3)) for lone in (2, 1, 0)]
        lone_a = [tuple(int(side != lone) for side in range(3)) for lone in (0, 1, 2)]
        return tuple(lone_b + lone_a)
    raise ValueError(f"no duplicate seating of {size} bots over {sides} sides")


def tables_for(bots: Sequence[str], sides: int) -> list[Table]:
    """The tables of an arena of ``bots`` (at least two) with ``sides`` sides (2 or 3)."""
    if len(bots) < 2:
        raise ValueError(f"an arena needs at least two bots, not {len(bots)}")
    if sides not in (2, 3):
        raise ValueError(f"duplicate play needs 2 or 3 sides, not {sides}")
    size = min(sides, len(bots))
    groups = list(combinations(range(len(bots)), size))
    arrangements = arrangements_for(size, sides)
    return [Table(i, group, arrangements) for i, group in enumerate(groups)]


def seat_bots(side_bots: Sequence[int], players: int) -> tuple[int, ...]:
    """Per seat, the bot of its side: seat ``s`` plays for side ``s % sides``."""
    sides = len(side_bots)
    return tuple(side_bots[seat % sides] for seat in range(players))


def bot_labels(specs: Sequence[str]) -> list[str]:
    """Display names of the bots: their specs, numbered when a spec repeats.

    >>> bot_labels(["greedy", "random", "greedy"])
    ['greedy', 'random', 'greedy#2']
    """
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels
