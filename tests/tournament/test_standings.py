"""Standings: VP, then MP difference, then head to head; byes and adjusted results."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buraco.errors import TournamentError
from buraco.tournament.standings import Result, datum, standings
from buraco.tournament.vp import SCALES

THREE = SCALES["fibur-3"]


def places(results: list[Result], n: int, bye_vp: int = 12) -> list[tuple[int, int, int]]:
    return [(s.place, s.entrant, s.vp) for s in standings(n, results, THREE, bye_vp)]


def test_vp_first_then_the_mp_difference() -> None:
    results = [
        Result(1, 1, 0, 1, 1000, 940),  # 60: 11–9
        Result(1, 2, 2, 3, 1500, 1360),  # 140: 11–9
    ]
    # 0 and 2 have 11 VP, 2 the larger MP difference; 1 and 3 have 9, 1 lost by less
    assert places(results, 4) == [(1, 2, 11), (2, 0, 11), (3, 1, 9), (4, 3, 9)]


def test_head_to_head_breaks_a_tie_of_vp_and_mp_difference() -> None:
    # A (0) beat B (1) by 100 (11–9); each then lost/won elsewhere to end level on both
    results = [
        Result(1, 1, 0, 1, 600, 500),  # A +100, 11 VP; B 9
        Result(2, 1, 0, 2, 500, 700),  # A −200, 8 VP
        Result(2, 2, 1, 3, 600, 600),  # B level, 10 VP
    ]
    table = standings(4, results, THREE)
    a, b = (next(s for s in table if s.entrant == e) for e in (0, 1))
    assert (a.vp, a.mp_difference) == (b.vp, b.mp_difference) == (19, -100)
    assert a.place < b.place  # A won their match


def test_entrants_equal_on_everything_share_a_place() -> None:
    results = [Result(1, 1, 0, 1, 800, 800), Result(1, 2, 2, 3, 900, 900)]
    assert [s.place for s in standings(4, results, THREE)] == [1, 1, 1, 1]


def test_a_bye_scores_its_vp_and_no_mp_and_an_adjusted_result_its_own_vp() -> None:
    results = [
        Result(1, 1, 0, 1, 1000, 0),
        Result(1, 2, 2, None),
        Result(2, 1, 1, 2, 500, 500, vp=(3, 17), note="slow play"),
    ]
    table = {s.entrant: s for s in standings(3, results, THREE, bye_vp=14)}
    assert table[2].vp == 14 + 17 and table[2].byes == 1 and table[2].played == 1
    assert table[1].vp == 3 + 3 and table[0].vp == 17


def test_a_side_that_resigns_loses_the_table_whatever_the_score() -> None:
    # the issue: EW resigned at -95 against NS's -100, and the table was scored 10-10 as it
    # stood; a concession is a loss (the FIBUR code, art. 33: who leaves the table scores 0,
    # the other side a bye's VP, or more if it had earned more)
    ahead = Result(1, 1, 0, 1, -100, -95, resigned="ew")
    assert ahead.vps(THREE, bye_vp=12) == (12, 0)
    table = {s.entrant: s for s in standings(2, [ahead], THREE, 12)}
    assert (table[0].vp, table[1].vp) == (12, 0)
    # no MP lead kept by the side that resigned ahead: the difference is 0, not +5
    assert table[1].mp_difference == 0 and table[0].mp_difference == 0
    # a side far ahead that the other concedes to keeps what it earned, when more than a bye
    behind = Result(1, 1, 0, 1, 2000, 300, resigned="ew")
    assert behind.vps(THREE, bye_vp=12) == (20, 0)
    assert behind.counted_mp() == (2000, 300)
    assert Result(1, 1, 0, 1, 700, 900, resigned="ns").vps(THREE, bye_vp=14) == (0, 14)
    # a director's adjustment still decides
    assert Result(1, 1, 0, 1, 0, 0, vp=(10, 10), note="x", resigned="ns").vps(THREE) == (10, 10)
    # a resigned table sets no datum of a duplicate turn
    assert datum([Result(1, 1, 0, 1, 900, 500), Result(1, 2, 2, 3, 0, 2000, resigned="ns")]) == 400
    with pytest.raises(TournamentError, match="ns or ew"):
        Result(1, 1, 0, 1, 0, 0, resigned="north")


@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 3000), st.integers(0, 3000)),
        max_size=12,
    )
)
def test_the_vp_handed_out_are_20_a_table_and_places_follow_the_order(
    rows: list[tuple[int, int, int, int]],
) -> None:
    results = [Result(1, i + 1, a, b, x, y) for i, (a, b, x, y) in enumerate(rows) if a != b]
    table = standings(6, results, THREE)
    assert sum(s.vp for s in table) == 20 * len(results)
    assert sum(s.mp_difference for s in table) == 0
    keys = [(-s.vp, -s.mp_difference) for s in table]
    assert keys == sorted(keys)
    assert table[0].place == 1
    for before, after in itertools.pairwise(table):
        assert after.place in (before.place, table.index(after) + 1)


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"ns_mp": 10**6}, "match points"),
        ({"ns_mp": 1.5}, "match points"),
        ({"vp": (21, 0)}, "0 to 20 VP"),
        ({"vp": (10,)}, "0 to 20 VP"),
    ],
)
def test_a_malformed_result_is_refused(kwargs: dict[str, object], says: str) -> None:
    with pytest.raises(TournamentError, match=says):
        Result(1, 1, 0, 1, **kwargs)  # type: ignore[arg-type]


def test_a_result_for_someone_not_entered_is_refused() -> None:
    with pytest.raises(TournamentError, match="no entrant 5 among 4"):
        standings(4, [Result(1, 1, 0, 4, 10, 0)], THREE)


def test_duplicate_deals_score_each_table_against_the_other_ns_on_the_same_cards() -> None:
    # issue 21: "score each pair against the others who held the same cards"
    results = [
        Result(1, 1, 0, 1, 900, 500),  # NS +400
        Result(1, 2, 2, 3, 600, 600),  # NS 0
        Result(1, 3, 4, 5, 700, 500),  # NS +200: the datum
    ]
    assert datum(results) == 200
    table = {s.entrant: s for s in standings(6, results, THREE, duplicate=True)}
    assert (table[0].vp, table[1].vp) == (12, 8)  # +200 against the datum
    assert (table[2].vp, table[3].vp) == (8, 12)  # −200: EW did better than the field's EW
    assert (table[4].vp, table[5].vp) == (10, 10)  # exactly the datum
    assert table[0].mp_difference == 200 and table[3].mp_difference == 200
    plain = {s.entrant: s.vp for s in standings(6, results, THREE)}
    assert (plain[0], plain[2], plain[4]) == (14, 10, 12)


@given(st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 3000)), min_size=1, max_size=8))
def test_duplicate_vp_still_share_20_a_table_and_the_datum_table_is_even(
    scores: list[tuple[int, int]],
) -> None:
    results = [Result(1, i + 1, 2 * i, 2 * i + 1, 5 * a, 5 * b) for i, (a, b) in enumerate(scores)]
    table = standings(2 * len(results), results, THREE, duplicate=True)
    assert sum(s.vp for s in table) == 20 * len(results)
    assert sum(s.mp_difference for s in table) == 0
