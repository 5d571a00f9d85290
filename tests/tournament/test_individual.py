"""Individual tournaments: players four to a table, a new partner each turn."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buraco.errors import TournamentError
from buraco.tournament.event import Tournament
from buraco.tournament.pairing import Pairing, individual, partnered

PLAYERS = [f"Player {i}" for i in range(16)]


def check_turn(rows: list[Pairing], n: int) -> None:
    """Every player at one table of four (two sides of two) or resting; n % 4 rest."""
    assert sorted(e for p in rows for e in p.entrants()) == list(range(n))
    assert [p.table for p in rows] == list(range(1, len(rows) + 1))
    tables = [p for p in rows if p.ew is not None]
    assert all(len(p.ns_side()) == len(p.ew_side()) == 2 for p in tables)
    assert sum(p.ew is None for p in rows) == n % 4
    assert all(p.ew is not None for p in rows[: len(tables)])  # byes last


def repeat_free_exists(players: list[int], history: set[frozenset[int]]) -> bool:
    """Whether some seating of ``players`` in fours repeats no partnership (exhaustive)."""
    if not players:
        return True
    a, rest = players[0], players[1:]
    for b, c, d in combinations(rest, 3):
        others = [e for e in rest if e not in (b, c, d)]
        for x, y, z in ((b, c, d), (c, b, d), (d, b, c)):  # a's partner x; y with z
            if {frozenset((a, x)), frozenset((y, z))} & history:
                continue
            if repeat_free_exists(others, history):
                return True
    return False


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 11), st.integers(1, 7), st.randoms(use_true_random=False))
def test_no_one_partners_the_same_player_twice_while_it_can_be_avoided(
    n: int, turns: int, rng: random.Random
) -> None:
    # issue 21: "individuals or fixed pairs"; an individual tournament gives everyone a new
    # partner each turn: a repeat only when no seating of the field avoids one
    history: set[frozenset[int]] = set()
    byes: list[int] = []
    for _ in range(turns):
        order = list(range(n))
        rng.shuffle(order)  # any standings
        rows = individual(order, history, byes=byes)
        check_turn(rows, n)
        new = partnered(rows)
        resting = {p.ns for p in rows if p.ew is None}
        if new & history:
            field = [e for e in order if e not in resting]
            assert not repeat_free_exists(field, history)
        history |= new
        byes += sorted(resting)


@given(st.integers(4, 40))
def test_the_top_four_sit_together_first_with_fourth_against_second_with_third(n: int) -> None:
    rows = individual(list(range(n)))
    check_turn(rows, n)
    for i, p in enumerate(p for p in rows if p.ew is not None):
        a, b, c, d = (4 * i + k for k in range(4))
        assert (p.ns_side(), p.ew_side()) == ((a, d), (b, c))


@pytest.mark.parametrize("n", [5, 6, 7, 9, 10, 11])
def test_byes_go_round_the_field_before_anyone_rests_twice(n: int) -> None:
    history: set[frozenset[int]] = set()
    byes: list[int] = []
    for _ in range(2 * n):
        rows = individual(list(range(n)), history, byes=byes)
        byes += [p.ns for p in rows if p.ew is None]
        history |= partnered(rows)
        counts = Counter(byes)
        assert max(counts.values()) - min(counts.get(e, 0) for e in range(n)) <= 1


def test_a_large_field_is_seated_with_no_repeated_partner_in_every_turn() -> None:
    # 400 players (100 tables), 8 turns, by changing standings: always a fresh partner
    rng = random.Random(3)
    history: set[frozenset[int]] = set()
    for _ in range(8):
        order = list(range(400))
        rng.shuffle(order)
        rows = individual(order, history)
        check_turn(rows, 400)
        assert not partnered(rows) & history
        history |= partnered(rows)


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 13), st.integers(1, 5), st.integers(0, 2**32 - 1), st.booleans())
def test_an_individual_tournament_plays_out_and_reads_back_the_same(
    n: int, turns: int, seed: int, duplicate: bool
) -> None:
    t = Tournament.new(
        "Individuale",
        PLAYERS[:n],
        movements=["swiss"] * turns,
        hands=3,
        duplicate=duplicate,
        individual=True,
    )
    rng = random.Random(seed)
    while t.turn < turns:
        for p in t.pair():
            if p.ew is not None:
                t.record(p.table, rng.randrange(0, 3000, 5), rng.randrange(0, 3000, 5))
    again = Tournament.from_dict(json.loads(json.dumps(t.to_dict())))
    assert again.to_dict() == t.to_dict() and again.standings() == t.standings()
    # both partners score their side's VP: each table gives 2 × 20, each bye bye_vp
    tables = [r for r in t.results if r.ew is not None]
    rested = [r for r in t.results if r.ew is None]
    assert sum(s.vp for s in t.standings()) == 40 * len(tables) + t.bye_vp * len(rested)
    for r in tables:
        ns, ew = r.sides()
        assert len(ns) == len(ew) == 2 and sum(t.table_vp(r)) == 20
    by = {s.entrant: s for s in t.standings()}
    assert all(by[e].played + by[e].byes == turns for e in range(n))


def test_partners_share_a_result_and_the_names_of_a_side_are_both() -> None:
    t = Tournament.new("Club", PLAYERS[:8], movements=["swiss"] * 2, hands=3, individual=True)
    first = t.pair()
    assert [(p.ns_side(), p.ew_side()) for p in first] == [((0, 3), (1, 2)), ((4, 7), (5, 6))]
    assert t.side(first[0].ns_side()) == "Player 0 & Player 3"
    t.record(1, 2000, 400)  # FIBUR 3 hands: over 1,500 → 20–0
    t.record(2, 900, 900)
    top = t.standings()
    assert [(s.entrant, s.vp) for s in top[:2]] == [(0, 20), (3, 20)]
    assert {s.entrant for s in top if s.vp == 0} == {1, 2}
    second = t.pair()
    assert not partnered(second) & partnered(first)


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"movements": ["mitchell"]}, "paired 'swiss' every turn"),
        ({"movements": ["swiss", "danish"]}, "not 'danish'"),
        ({"entrants": PLAYERS[:3]}, "4 or more players, not 3"),
    ],
)
def test_an_individual_tournament_that_cannot_be_is_refused(
    kwargs: dict[str, object], says: str
) -> None:
    args: dict[str, object] = {"entrants": PLAYERS[:8], "movements": ["swiss"]} | kwargs
    with pytest.raises(TournamentError, match=says):
        Tournament.new("Club", hands=3, individual=True, **args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("row", "says"),
    [
        ([1, 0, 1], "a pairing is \\[table, NS, EW, NS's partner, EW's partner\\]"),
        ([1, 0, 1, 2, None], "EW null for a bye"),
        ([1, 0, 1, 2, 2], "each at one table"),
        ([1, 0, 1, 2, "3"], "a pairing is"),
    ],
)
def test_a_malformed_individual_turn_is_a_clear_error(row: list[object], says: str) -> None:
    t = Tournament.new("Club", PLAYERS[:4], movements=["swiss"], hands=3, individual=True)
    t.pair()
    saved = t.to_dict()
    assert saved["individual"] is True and saved["turns"] == [[[1, 0, 1, 3, 2]]]
    saved["turns"] = [[row]]
    with pytest.raises(TournamentError, match=says):
        Tournament.from_dict(saved)
    saved["turns"] = [[[1, 0, 1, 3, 2]]]
    saved["individual"] = "yes"
    with pytest.raises(TournamentError, match="individual is true or false"):
        Tournament.from_dict(saved)
