"""A tournament as a director runs it: turns, results, corrections, saved form."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buraco.errors import TournamentError
from buraco.tournament.event import MOVEMENTS, Tournament
from buraco.tournament.pairing import met
from buraco.tournament.vp import VPScale

NAMES = [f"P{i}/Q{i}" for i in range(12)]


def play_out(t: Tournament, rng: random.Random) -> None:
    """Pair every turn and enter a result at each table."""
    while t.turn < len(t.movements):
        for p in t.pair():
            if p.ew is not None:
                # now and then a side concedes its table (it loses it, whatever the score)
                resigned = rng.choice([None, None, None, "ns", "ew"])
                ns, ew = rng.randrange(0, 3000, 5), rng.randrange(0, 3000, 5)
                t.record(p.table, ns, ew, resigned=resigned)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 12),
    st.lists(st.sampled_from(MOVEMENTS), min_size=1, max_size=4),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_any_tournament_plays_out_saves_and_reads_back_the_same(
    n: int, movements: list[str], seed: int, duplicate: bool
) -> None:
    try:
        t = Tournament.new("Club", NAMES[:n], movements=movements, hands=4, duplicate=duplicate)
    except TournamentError as exc:
        assert "before pairs meet again" in str(exc)  # more Mitchell turns than tables
        return
    play_out(t, random.Random(seed))
    for turn in t.turns:
        assert sorted(e for p in turn for e in p.entrants()) == list(range(n))
    # Mitchell and round-robin turns never repeat a meeting among themselves
    for kind in ("mitchell", "round-robin"):
        meetings = [met(turn) for turn, m in zip(t.turns, t.movements, strict=True) if m == kind]
        assert sum(len(m) for m in meetings) == len(set().union(*meetings))
    again = Tournament.from_dict(json.loads(json.dumps(t.to_dict())))
    assert again.to_dict() == t.to_dict()
    assert again.standings() == t.standings()
    assert sum(s.vp for s in t.standings()) == sum(
        (20 if r.resigned is None else sum(t.table_vp(r))) if r.ew is not None else t.bye_vp
        for r in t.results
    )
    for r in t.results:  # a table conceded: the side that resigned scores nothing
        if r.resigned is not None:
            vp = t.table_vp(r)
            assert vp[("ns", "ew").index(r.resigned)] == 0
            assert vp[("ew", "ns").index(r.resigned)] >= t.bye_vp


def test_a_turn_is_paired_only_when_the_one_before_is_complete() -> None:
    t = Tournament.new("Club", NAMES[:4], movements=["swiss", "swiss"], hands=3)
    t.pair()
    t.record(1, 1000, 500)
    with pytest.raises(TournamentError, match="turn 1 still needs the result of table 2"):
        t.pair()
    t.record(2, 700, 700)
    t.pair()
    with pytest.raises(TournamentError, match="all 2 turns are paired"):
        t.pair()


def test_a_correction_and_an_adjustment_change_the_standings_and_keep_the_note() -> None:
    t = Tournament.new("Club", NAMES[:4], movements=["round-robin"] * 3, hands=3)
    first = t.pair()
    t.record(1, 1000, 500)
    t.record(2, 500, 500)
    winner = first[0].ns
    assert t.standings()[0].entrant == winner
    t.record(1, 500, 1000, turn=1)  # the score was entered the wrong way round
    assert t.standings()[0].entrant == first[0].ew
    t.adjust(2, 4, 16, "a card exposed", turn=1)
    saved = t.to_dict()
    assert saved["results"][1]["vp"] == [4, 16] and saved["results"][1]["note"] == "a card exposed"
    assert Tournament.from_dict(saved).standings() == t.standings()


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"entrants": ["A"]}, "2 to 1000 entrants"),
        ({"entrants": ["A", "a"]}, "entered twice"),
        ({"entrants": ["A", "B\x1b[2J"]}, "no control characters"),
        ({"movements": ["mitchel"]}, "no movement 'mitchel'; movements: mitchell"),
        ({"movements": ["mitchell"] * 3}, "2 mitchell turns before pairs meet again"),
        ({"hands": 2}, "no VP scale is shipped for turns of 2 hands"),
        ({"hands": 0}, "no VP scale"),
        ({"bye_vp": 21}, "a bye scores 0 to 20 VP"),
    ],
)
def test_a_tournament_that_contradicts_itself_is_refused(kwargs: dict[str, Any], says: str) -> None:
    args: dict[str, Any] = {"entrants": NAMES[:4], "movements": ["mitchell"], "hands": 3}
    args.update(kwargs)
    with pytest.raises(TournamentError, match=says):
        Tournament.new("Club", args.pop("entrants"), **args)


def test_a_scale_for_turns_of_other_hands_is_refused_as_a_saved_one_is() -> None:
    # found by a user: a 2-hand scale made a tournament of 3 hands, which then did not load
    two = VPScale("club-2", 2, ((30, 10), (100, 11)), "our club")
    with pytest.raises(TournamentError, match="'club-2' is for turns of 2 hands, not 3"):
        Tournament.new("Club", NAMES[:4], movements=["mitchell"], hands=3, scale=two)
    t = Tournament.new("Club", NAMES[:4], movements=["mitchell"], hands=2, scale=two)
    assert Tournament.from_dict(t.to_dict()).hands == 2
    anyhands = VPScale("any", None, ((30, 10),), "")
    assert Tournament.new("Club", NAMES[:4], movements=["mitchell"], hands=5, scale=anyhands)


def test_a_result_for_a_table_or_turn_that_is_not_there_is_refused_and_changes_nothing() -> None:
    t = Tournament.new("Club", NAMES[:5], movements=["mitchell"] * 3, hands=3)
    t.pair()
    before = t.to_dict()
    with pytest.raises(TournamentError, match="turn 1 has tables 1 to 3, not 4"):
        t.record(4, 100, 0)
    with pytest.raises(TournamentError, match="turn 2 is not paired"):
        t.record(1, 100, 0, turn=2)
    with pytest.raises(TournamentError, match="is a bye"):
        t.record(3, 100, 0)
    with pytest.raises(TournamentError, match="match points"):
        t.record(1, 10**7, 0)
    with pytest.raises(TournamentError, match="reason for an adjustment"):
        t.adjust(1, 10, 10, "")
    assert t.to_dict() == before


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d.update(format="x"), "not a saved tournament"),
        (lambda d: d.update(version=9), "version 9"),
        (lambda d: d.update(extra=1), "has the keys"),
        (lambda d: d["turns"][0].append([4, 0, 1]), "each at one table"),
        (lambda d: d["turns"][0].__setitem__(0, [1, 0, 77]), "entrants are 0 to 4"),
        (lambda d: d["turns"][0].__setitem__(0, "x"), "a pairing is"),
        (lambda d: d["results"].append({"turn": 1, "table": 1}), "a result has the keys"),
        (
            lambda d: d["results"].append({"turn": 1, "table": 1, "ns_mp": "9", "ew_mp": 0}),
            "whole number",
        ),
        (lambda d: d.update(entrants="AB"), "are lists"),
        (lambda d: d["scale"].update(bands=[[10, 12]]), "even table"),
    ],
)
def test_a_malformed_saved_tournament_is_a_clear_error(change: Any, says: str) -> None:
    t = Tournament.new("Club", NAMES[:5], movements=["mitchell"] * 3, hands=3)
    t.pair()
    t.record(1, 900, 100)
    data = t.to_dict()
    change(data)
    with pytest.raises(TournamentError, match=says):
        Tournament.from_dict(data)


def test_an_adjusted_bye_and_an_adjustment_under_a_corrected_score_are_kept() -> None:
    # found by review: a bye's adjustment was not saved, and entering MP again erased one
    t = Tournament.new("Club", NAMES[:5], movements=["mitchell"] * 3, hands=3)
    t.pair()
    t.adjust(3, 6, 0, "late: half a bye")
    t.record(1, 900, 100)
    t.adjust(1, 10, 10, "both pairs at fault")
    t.record(1, 1000, 100)  # a corrected score: the director's VP stay
    again = Tournament.from_dict(json.loads(json.dumps(t.to_dict())))
    vps = {r.table: (again.table_vp(r), r.note) for r in again.results}
    assert vps[3] == ((6, 0), "late: half a bye")
    assert vps[1] == ((10, 10), "both pairs at fault")
    again.adjust(1, None, None)
    assert again.table_vp(next(r for r in again.results if r.table == 1)) == (17, 3)
    with pytest.raises(TournamentError, match="no adjustment to clear"):
        again.adjust(2, None, None)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d["turns"][0].pop(), "seats no table for entrant"),
        (lambda d: d["turns"][0].__setitem__(0, [True, 0, 3]), "a pairing is"),
        (lambda d: d["scale"].update(hands=4), "for turns of 4 hands, not 3"),
        (lambda d: d["scale"].update(name="x\x1b[2J"), "no control characters"),
        (lambda d: d.update(name=5), "name is text, not 5"),
    ],
)
def test_a_saved_tournament_is_checked_field_by_field(change: Any, says: str) -> None:
    t = Tournament.new("Club", NAMES[:5], movements=["mitchell"] * 3, hands=3)
    t.pair()
    data = t.to_dict()
    change(data)
    with pytest.raises(TournamentError, match=says):
        Tournament.from_dict(data)
