"""A turn's results in victory points, and the standings they make.

Each table's result is its two entrants' match points (MP) over the turn; the VP
scale (:mod:`buraco.tournament.vp`) turns their difference into VP. A director may
set a table's VP instead (an adjusted result, :attr:`Result.vp`); a bye scores
``bye_vp`` VP and no MP. A side that resigned (:attr:`Result.resigned`) loses the table
as a pair that leaves it does (the FIBUR code of play, art. 33): it scores 0 VP and keeps
no MP lead, and the other side scores a bye's VP, or the VP of the MP as they stood if more.

Standings order: **VP**, then **MP difference**, then **head to head** (the VP the
tied entrants scored against one another), then the entrant's number (the order of
entry). Entrants still equal on the first three share a place.

>>> from buraco.tournament.vp import SCALES
>>> results = [Result(1, 1, 0, 1, 1200, 700), Result(1, 2, 2, 3, 900, 900)]
>>> [(s.place, s.entrant, s.vp, s.mp_difference) for s in standings(4, results, SCALES["fibur-3"])]
[(1, 0, 14, 500), (2, 2, 10, 0), (2, 3, 10, 0), (4, 1, 6, -500)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from buraco.errors import TournamentError
from buraco.tournament.vp import FULL, VPScale

BYE_VP = 12
"""The VP of a bye unless the tournament says otherwise (clubs differ; one gives 14)."""

MAX_MP = 100_000
"""The most match points a table's entrant may score in a turn."""


@dataclass(frozen=True)
class Result:
    """A table's result in a turn: the MP of NS and of EW (EW None: NS had a bye).

    ``vp``, when given, is the director's adjusted VP (NS, EW) in place of the scale's;
    ``note`` says why. In an individual tournament each side is two players, NS and
    ``ns_partner``, EW and ``ew_partner``: both score their side's VP and MP.
    """

    turn: int
    table: int
    ns: int
    ew: int | None
    ns_mp: int = 0
    ew_mp: int = 0
    vp: tuple[int, int] | None = None
    note: str = ""
    ns_partner: int | None = None
    ew_partner: int | None = None
    resigned: str | None = None
    """``"ns"`` or ``"ew"``: the side that conceded the table (None: played to its end)."""

    def __post_init__(self) -> None:
        if self.resigned not in (None, "ns", "ew"):
            raise TournamentError(f"a resigned side is ns or ew, not {self.resigned!r}")
        for mp in (self.ns_mp, self.ew_mp):
            if type(mp) is not int or not -MAX_MP <= mp <= MAX_MP:
                raise TournamentError(
                    f"match points are whole numbers from {-MAX_MP} to {MAX_MP}, not {mp!r}"
                )
        if self.vp is not None and (
            len(self.vp) != 2 or not all(type(v) is int and 0 <= v <= FULL for v in self.vp)
        ):
            raise TournamentError(
                f"an adjusted result gives each side 0 to {FULL} VP, not {self.vp!r}"
            )

    def vps(self, scale: VPScale, bye_vp: int = BYE_VP, datum: int = 0) -> tuple[int, int]:
        """The VP of NS and of EW (a bye: NS's ``bye_vp`` and 0).

        With duplicate deals, NS's difference is counted against ``datum``, the
        difference the NS of the turn made on the same cards (:func:`datum`).
        """
        if self.vp is not None:
            return self.vp
        if self.ew is None:
            return bye_vp, 0
        ns, ew = scale.vp(self.ns_mp - self.ew_mp - datum)
        if self.resigned == "ns":  # a concession: the losing end for the side that resigned
            return 0, max(bye_vp, ew)
        if self.resigned == "ew":
            return max(bye_vp, ns), 0
        return ns, ew

    def counted_mp(self) -> tuple[int, int]:
        """The MP of NS and of EW as the standings count them.

        As they stood, except that a side that resigned ahead keeps no lead: its MP count
        as the other side's.

        >>> Result(1, 1, 0, 1, -95, -100, resigned="ns").counted_mp()
        (-100, -100)
        >>> Result(1, 1, 0, 1, -95, -100, resigned="ew").counted_mp()
        (-95, -100)
        """
        if self.resigned == "ns":
            return min(self.ns_mp, self.ew_mp), self.ew_mp
        if self.resigned == "ew":
            return self.ns_mp, min(self.ew_mp, self.ns_mp)
        return self.ns_mp, self.ew_mp

    def sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The entrants of NS and of EW (EW none for a bye)."""
        ns = (self.ns,) if self.ns_partner is None else (self.ns, self.ns_partner)
        if self.ew is None:
            return ns, ()
        return ns, (self.ew,) if self.ew_partner is None else (self.ew, self.ew_partner)


def datum(results: Sequence[Result]) -> int:
    """The datum of a duplicate turn: the mean MP difference NS made (to the nearest 5).

    Every table of a duplicate turn is dealt the same deck orders, so every NS held
    the same cards: a table's VP go by how much better (or worse) its NS did than the
    field's NS on them. Byes, adjusted results and resigned tables are left out.

    >>> datum([Result(1, 1, 0, 1, 900, 500), Result(1, 2, 2, 3, 600, 600), Result(1, 3, 4, None)])
    200
    """
    played = [
        r.ns_mp - r.ew_mp
        for r in results
        if r.ew is not None and r.vp is None and r.resigned is None
    ]
    if not played:
        return 0
    return 5 * round(sum(played) / len(played) / 5)


def datums_of(results: Sequence[Result]) -> dict[int, int]:
    """Each turn's :func:`datum`."""
    turns: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        turns[r.turn].append(r)
    return {turn: datum(rows) for turn, rows in turns.items()}


@dataclass(frozen=True)
class Standing:
    """An entrant's place and totals."""

    place: int
    entrant: int
    vp: int
    mp_for: int
    mp_against: int
    played: int
    byes: int

    @property
    def mp_difference(self) -> int:
        """MP scored less MP conceded."""
        return self.mp_for - self.mp_against


def standings(
    entrants: int,
    results: Sequence[Result],
    scale: VPScale,
    bye_vp: int = BYE_VP,
    *,
    duplicate: bool = False,
) -> list[Standing]:
    """Every entrant's place after ``results`` (see the module's order).

    ``duplicate``: every turn was dealt the same cards at each table; VP and MP
    differences are counted against the turn's :func:`datum`.
    """
    datums = datums_of(results) if duplicate else {}
    vp: dict[int, int] = defaultdict(int)
    mp_for: dict[int, int] = defaultdict(int)
    mp_against: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    against: dict[tuple[int, int], int] = defaultdict(int)
    for r in results:
        ns, ew = r.sides()
        for e in (*ns, *ew):
            if not 0 <= e < entrants:
                raise TournamentError(f"no entrant {e + 1} among {entrants}")
        base = datums.get(r.turn, 0)
        ns_vp, ew_vp = r.vps(scale, bye_vp, base)
        ns_mp, ew_mp = r.counted_mp()
        if not ew:
            for e in ns:
                vp[e] += ns_vp
                byes[e] += 1
            continue
        # against the datum, NS's share of it moves to EW's side (duplicate only)
        for side, other, side_vp, side_mp, other_mp in (
            (ns, ew, ns_vp, ns_mp - base, ew_mp),
            (ew, ns, ew_vp, ew_mp, ns_mp - base),
        ):
            for e in side:
                vp[e] += side_vp
                mp_for[e] += side_mp
                mp_against[e] += other_mp
                played[e] += 1
                for o in other:
                    against[e, o] += side_vp

    def main_key(e: int) -> tuple[int, int]:
        return (-vp[e], -(mp_for[e] - mp_against[e]))

    order = sorted(range(entrants), key=main_key)
    # head to head inside each group equal on VP and MP difference
    ranked: list[int] = []
    keys: dict[int, tuple[int, int, int]] = {}
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and main_key(order[j]) == main_key(order[i]):
            j += 1
        group = order[i:j]
        for e in group:
            h2h = sum(against[e, o] for o in group if o != e)
            keys[e] = (*main_key(e), -h2h)
        ranked += sorted(group, key=lambda e: (keys[e], e))
        i = j
    out: list[Standing] = []
    for pos, e in enumerate(ranked):
        place = pos + 1
        if pos and keys[ranked[pos - 1]] == keys[e]:
            place = out[-1].place
        out.append(Standing(place, e, vp[e], mp_for[e], mp_against[e], played[e], byes[e]))
    return out
