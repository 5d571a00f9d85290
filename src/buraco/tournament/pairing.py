"""Who plays whom in a turn: the movements of pair (or heads-up) tournaments.

Entrants are numbered from 0; a turn's pairings are :class:`Pairing` rows, one a
table, the first entrant North–South (NS), the second East–West (EW), or ``None``
for a bye (an odd field: that entrant rests).

- :func:`mitchell`: NS entrants stay at their table, EW entrants move one table on
  each turn: over a full rotation every NS meets every EW once.
- :func:`round_robin`: everyone meets everyone once (the circle method).
- :func:`danish`: by the standings: 1st v 2nd, 3rd v 4th, …; *modified*, no one meets
  the opponent of the turn before (except in the last turn).
- :func:`swiss`: by the standings, the nearest entrant not yet met, no pair meeting
  twice while another pairing avoids it; NS goes to whoever has sat NS fewer times.
- :func:`individual`: a turn of an individual tournament (players, four to a table,
  a new partner each turn): by the standings, no one partnering the same player twice
  while another seating avoids it.

>>> [(p.table, p.ns, p.ew) for p in mitchell(6, 1)]
[(1, 0, 5), (2, 1, 3), (3, 2, 4)]
>>> [(p.ns, p.ew) for p in danish([3, 1, 0, 2], previous={(1, 3)}, modified=True)]
[(3, 0), (1, 2)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from buraco.errors import TournamentError

MAX_ENTRANTS = 1000
"""The most entrants (pairs or players) a tournament may have."""

SEARCH_STEPS = 200_000
"""How far the search for a pairing with no rematch goes before a matching settles it."""


@dataclass(frozen=True)
class Pairing:
    """One table of a turn: its number (from 1), NS, and EW (None: NS has a bye).

    In an individual tournament NS and EW are players, each with the partner of the
    turn (``ns_partner``, ``ew_partner``); in a tournament of pairs these are None.
    """

    table: int
    ns: int
    ew: int | None
    ns_partner: int | None = None
    ew_partner: int | None = None

    def entrants(self) -> tuple[int, ...]:
        """Who sits at this table."""
        return (*self.ns_side(), *self.ew_side())

    def ns_side(self) -> tuple[int, ...]:
        """The entrants of the NS side (one, or a player and the turn's partner)."""
        return (self.ns,) if self.ns_partner is None else (self.ns, self.ns_partner)

    def ew_side(self) -> tuple[int, ...]:
        """The entrants of the EW side (none for a bye)."""
        if self.ew is None:
            return ()
        return (self.ew,) if self.ew_partner is None else (self.ew, self.ew_partner)


def met(pairings: Iterable[Pairing]) -> set[frozenset[int]]:
    """The pairs of entrants that met at these tables (byes left out)."""
    return {frozenset((p.ns, p.ew)) for p in pairings if p.ew is not None}


def _check_field(n: int) -> None:
    if type(n) is not int or not 2 <= n <= MAX_ENTRANTS:
        raise TournamentError(f"a tournament has 2 to {MAX_ENTRANTS} entrants, not {n!r}")


def mitchell_turns(n: int) -> int:
    """How many turns a full Mitchell rotation of ``n`` entrants has (its tables)."""
    _check_field(n)
    return (n + 1) // 2


def mitchell(n: int, turn: int) -> list[Pairing]:
    """Turn ``turn`` (from 0) of a Mitchell movement of ``n`` entrants.

    Entrants ``0 … T-1`` are NS at tables ``1 … T``; the others are EW and move one
    table on each turn (EW entrant ``T + j`` sits at table ``(j + turn) mod T + 1``).
    With an odd field the missing EW is a bye, which moves like an entrant.
    """
    tables = mitchell_turns(n)
    if type(turn) is not int or not 0 <= turn < tables:
        raise TournamentError(
            f"a Mitchell of {tables} tables has turns 1 to {tables}, not {turn + 1!r}"
        )
    out: list[Pairing] = []
    for table in range(tables):
        j = (table - turn) % tables
        ew = tables + j
        out.append(Pairing(table + 1, table, ew if ew < n else None))
    return out


def round_robin_turns(n: int) -> int:
    """How many turns everyone-meets-everyone takes for ``n`` entrants."""
    _check_field(n)
    return n - 1 if n % 2 == 0 else n


def round_robin(n: int, turn: int) -> list[Pairing]:
    """Turn ``turn`` (from 0) of a round robin (the circle method; a bye for an odd field).

    Entrant 0 stays put while the others turn around the circle. Of two entrants ``a <
    b``, ``a`` sits NS when ``a + b`` is odd: over the whole round robin everyone sits NS
    in half their turns (one more or less when they play an odd number).
    """
    turns = round_robin_turns(n)
    if type(turn) is not int or not 0 <= turn < turns:
        raise TournamentError(f"a round robin of {n} has turns 1 to {turns}, not {turn + 1!r}")
    size = n + n % 2
    ring = list(range(1, size))
    circle = [0, *ring[turn:], *ring[:turn]]
    out: list[Pairing] = []
    for i in range(size // 2):
        a, b = sorted((circle[i], circle[size - 1 - i]))
        if b >= n:
            out.append(Pairing(0, a, None))
        else:
            out.append(Pairing(0, a, b) if (a + b) % 2 else Pairing(0, b, a))
    return _numbered(out)


def _numbered(pairings: list[Pairing]) -> list[Pairing]:
    """Tables numbered from 1 in order, byes last."""
    ordered = [p for p in pairings if p.ew is not None] + [p for p in pairings if p.ew is None]
    return [replace(p, table=i + 1) for i, p in enumerate(ordered)]


def _check_order(order: Sequence[int]) -> None:
    _check_field(len(order))
    if sorted(order) != list(range(len(order))):
        raise TournamentError("the standings must hold each entrant once, numbered from 0")


def _resting_order(order: Sequence[int], byes: Collection[int]) -> list[int]:
    """Who rests first when someone must: the fewest byes so far, then the lowest placed.

    ``byes`` lists each bye's entrant (repeats count).
    """
    rested = Counter(byes)
    place = {e: i for i, e in enumerate(order)}
    return sorted(order, key=lambda e: (rested[e], -place[e]))


def _bye_candidates(order: Sequence[int], byes: Collection[int]) -> list[int | None]:
    """Who may rest in an odd field, in turn (see :func:`_resting_order`)."""
    if len(order) % 2 == 0:
        return [None]
    return [*_resting_order(order, byes)]


def _pairing_avoiding(
    order: Sequence[int], byes: Collection[int], banned: Collection[frozenset[int]]
) -> tuple[int | None, list[tuple[int, int]]]:
    """A bye and pairs of the rest, none of them ``banned`` if that can be.

    First a search top down (each entrant with the nearest below not banned), trying
    the byes in turn; when it finds none (or runs out of steps), a maximum-weight
    matching that meets as few banned pairs as there must be.
    """
    candidates = _bye_candidates(order, byes)
    if not banned:
        bye = candidates[0]
        field = [e for e in order if e != bye]
        return bye, [(field[i], field[i + 1]) for i in range(0, len(field), 2)]
    budget = [SEARCH_STEPS]  # shared by the byes tried
    for bye in candidates:
        pairs = _pair_down([e for e in order if e != bye], banned, budget)
        if pairs is not None:
            return bye, pairs
        if budget[0] <= 0:
            break
    return _matching(order, byes, banned)


def _matching(
    order: Sequence[int], byes: Collection[int], banned: Collection[frozenset[int]]
) -> tuple[int | None, list[tuple[int, int]]]:
    """The pairing with the fewest banned pairs, repeated byes, then placing distances.

    A maximum-weight perfect matching (networkx's blossom algorithm).
    """
    import networkx as nx

    n = len(order)
    place = {e: i for i, e in enumerate(order)}
    rested = Counter(byes)
    far = n**3 + 1  # more than every placing distance of a pairing together
    second_bye = far
    rematch = second_bye * (n + 1) + far
    top = rematch * (n + 1)
    graph: nx.Graph[int] = nx.Graph()
    for a, b in combinations(order, 2):
        cost = (place[a] - place[b]) ** 2 + (rematch if frozenset((a, b)) in banned else 0)
        graph.add_edge(a, b, weight=top - cost)
    bye_node = -1
    if n % 2:
        for e in order:
            cost = rested[e] * second_bye + (n - 1 - place[e]) ** 2
            graph.add_edge(e, bye_node, weight=top - cost)
    chosen = nx.max_weight_matching(graph, maxcardinality=True)
    bye: int | None = None
    pairs: list[tuple[int, int]] = []
    for a, b in chosen:
        if bye_node in (a, b):
            bye = a if b == bye_node else b
            continue
        pairs.append((a, b) if place[a] < place[b] else (b, a))
    pairs.sort(key=lambda p: place[p[0]])
    return bye, pairs


def _pair_down(
    order: list[int], banned: Collection[frozenset[int]], budget: list[int]
) -> list[tuple[int, int]] | None:
    """``order`` paired top down, each with the nearest below not ``banned``, or None.

    None when no such pairing exists, or the search ran out of its ``budget`` of steps.
    """

    def go(rest: list[int]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        first = rest[0]
        for i in range(1, len(rest)):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            other = rest[i]
            if frozenset((first, other)) in banned:
                continue
            tail = go(rest[1:i] + rest[i + 1 :])
            if tail is not None:
                return [(first, other), *tail]
        return None

    return go(order)


def danish(
    order: Sequence[int],
    previous: Collection[tuple[int, int]] | Collection[frozenset[int]] = (),
    *,
    modified: bool = False,
    byes: Collection[int] = (),
) -> list[Pairing]:
    """A Danish turn: ``order`` is the standings (best first).

    Pure: 1st v 2nd, 3rd v 4th, …. Modified: no one meets the opponent they met in
    ``previous`` (the turn before; give none for the last turn, where a rematch is
    allowed), the nearest other taken instead. In an odd field the entrant with the
    fewest byes rests, the lowest placed of them (``byes``: each bye's entrant). The
    better placed of a table sits NS.
    """
    _check_order(order)
    banned = {frozenset(p) for p in previous} if modified else set()
    bye, pairs = _pairing_avoiding(order, byes, banned)
    rows = [Pairing(0, a, b) for a, b in pairs]
    if bye is not None:
        rows.append(Pairing(0, bye, None))
    return _numbered(rows)


def swiss(
    order: Sequence[int],
    history: Collection[frozenset[int]] = (),
    *,
    ns_turns: Mapping[int, int] | None = None,
    byes: Collection[int] = (),
) -> list[Pairing]:
    """A Swiss turn: ``order`` is the standings (best first), ``history`` who has met.

    Each entrant, from the top, meets the nearest below it they have not met, so that
    no pair meets twice while another pairing of the whole field avoids it; when none
    does, the fewest rematches there must be. NS goes to the entrant who has sat NS
    fewer times (``ns_turns``; equal: the better placed). In an odd field the entrant
    with the fewest byes rests, the lowest placed of them (``byes``: each bye's
    entrant; a second bye rather than a rematch).
    """
    _check_order(order)
    bye, pairs = _pairing_avoiding(order, byes, set(history))
    seats = ns_turns or {}
    rows = []
    for a, b in pairs:
        if seats.get(b, 0) < seats.get(a, 0):
            a, b = b, a
        rows.append(Pairing(0, a, b))
    if bye is not None:
        rows.append(Pairing(0, bye, None))
    return _numbered(rows)


def partnered(pairings: Iterable[Pairing]) -> set[frozenset[int]]:
    """The players who were partners at these tables (individual tournaments)."""
    out: set[frozenset[int]] = set()
    for p in pairings:
        for side in (p.ns_side(), p.ew_side()):
            if len(side) == 2:
                out.add(frozenset(side))
    return out


Foursome = tuple[tuple[int, int], tuple[int, int]]
"""A table of an individual turn: two sides of two partners."""


def individual(
    order: Sequence[int],
    history: Collection[frozenset[int]] = (),
    *,
    byes: Collection[int] = (),
) -> list[Pairing]:
    """A turn of an individual tournament: ``order`` is the standings (best first).

    Players sit four to a table from the top (the 1st with the 4th against the 2nd and
    3rd: each side's places add up alike), taking the nearest others instead when that
    would make two players partners again who were partners before (``history``: the
    pairs of partners so far), so that no one partners the same player twice while
    another seating of the whole field avoids it; when none does, the fewest repeated
    partnerships there must be. When the field is not a multiple of four, 1 to 3
    players rest (a bye each): the fewest byes first, the lowest placed of them.

    >>> [(p.ns, p.ns_partner, p.ew, p.ew_partner) for p in individual(range(8))]
    [(0, 3, 1, 2), (4, 7, 5, 6)]
    >>> [p.ns_side() + p.ew_side() for p in individual(range(5), {frozenset((0, 3))})]
    [(0, 2, 1, 3), (4,)]
    """
    order = list(order)
    if len(order) < 4:
        raise TournamentError(f"an individual tournament has 4 or more players, not {len(order)}")
    _check_order(order)
    resting = set(_resting_order(order, byes)[: len(order) % 4])
    field = [e for e in order if e not in resting]
    banned = set(history)
    tables = _seat_down(field, banned, [SEARCH_STEPS])
    if tables is None:
        tables = _seat_matching(field, banned)
    rows = [Pairing(0, a, c, b, d) for (a, b), (c, d) in tables]
    rows += [Pairing(0, e, None) for e in order if e in resting]
    return _numbered(rows)


def _seat_down(
    field: list[int], banned: Collection[frozenset[int]], budget: list[int]
) -> list[Foursome] | None:
    """``field`` seated four to a table from the top, no partners ``banned``, or None."""

    def sides(a: int, b: int, c: int, d: int) -> Iterable[Foursome]:
        yield (a, d), (b, c)
        yield (a, c), (b, d)
        yield (a, b), (c, d)

    def go(rest: list[int]) -> list[Foursome] | None:
        if not rest:
            return []
        first = rest[0]
        for i, j, k in combinations(range(1, len(rest)), 3):
            for ns, ew in sides(first, rest[i], rest[j], rest[k]):
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                if frozenset(ns) in banned or frozenset(ew) in banned:
                    continue
                others = [e for x, e in enumerate(rest) if x not in (0, i, j, k)]
                tail = go(others)
                if tail is not None:
                    return [(ns, ew), *tail]
        return None

    return go(field)


def _seat_matching(field: list[int], banned: Collection[frozenset[int]]) -> list[Foursome]:
    """The seating with the fewest repeated partners (then near places partnered).

    A maximum-weight perfect matching makes the partnerships; sides then meet in the
    order of their places.
    """
    import networkx as nx

    n = len(field)
    place = {e: i for i, e in enumerate(field)}
    repeat = n**3 + 1
    top = repeat * (n + 1)
    graph: nx.Graph[int] = nx.Graph()
    for a, b in combinations(field, 2):
        cost = (place[a] - place[b]) ** 2 + (repeat if frozenset((a, b)) in banned else 0)
        graph.add_edge(a, b, weight=top - cost)
    chosen = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted(
        (tuple(sorted((a, b), key=place.__getitem__)) for a, b in chosen),
        key=lambda p: place[p[0]] + place[p[1]],
    )
    return [((a, b), (c, d)) for (a, b), (c, d) in zip(pairs[::2], pairs[1::2], strict=True)]
