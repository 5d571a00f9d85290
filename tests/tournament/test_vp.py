"""VP scales: the published FIBUR tables, and what makes any scale one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buraco.errors import TournamentError
from buraco.tournament.vp import FULL, SCALES, load_scale, scale_for, scale_from_dict

# the published tables (docs/tournaments.md#vp-scales): difference band → winner's VP
THREE = [(0, 50, 10), (55, 150, 11), (155, 250, 12), (255, 350, 13), (355, 500, 14),
         (505, 650, 15), (655, 800, 16), (805, 1000, 17), (1005, 1250, 18),
         (1255, 1500, 19), (1505, 5000, 20)]  # fmt: skip
FOUR = [(0, 100, 10), (105, 300, 11), (305, 500, 12), (505, 700, 13), (705, 900, 14),
        (905, 1100, 15), (1105, 1300, 16), (1305, 1500, 17), (1505, 1700, 18),
        (1705, 2000, 19), (2005, 5000, 20)]  # fmt: skip


@pytest.mark.parametrize(("name", "table"), [("fibur-3", THREE), ("fibur-4", FOUR)])
def test_the_shipped_scales_are_the_published_tables_band_by_band(
    name: str, table: list[tuple[int, int, int]]
) -> None:
    # issue 21: "3-hand turns: 0–50 → 10–10, 55–150 → 11–9, … >1500 → 20–0; 4-hand turns:
    # 0–100 → 10–10 … >2000 → 20–0"; every band of puntiburraco.it's FIBUR tables
    scale = SCALES[name]
    for low, high, winner in table:
        for difference in range(low, high + 1, 5):
            assert scale.vp(difference) == (winner, FULL - winner), difference
            assert scale.vp(-difference) == (FULL - winner, winner), difference


def test_a_scale_is_found_by_the_hands_of_a_turn_and_an_unknown_one_says_what_is_shipped() -> None:
    assert scale_for(3).name == "fibur-3" and scale_for(4).name == "fibur-4"
    with pytest.raises(TournamentError, match=r"2 hands.*3 \(fibur-3\), 4 \(fibur-4\)"):
        scale_for(2)


@given(st.sampled_from(sorted(SCALES)), st.integers(-10_000, 10_000), st.integers(0, 10_000))
def test_every_scale_shares_20_is_symmetric_and_never_gives_less_for_more(
    name: str, difference: int, more: int
) -> None:
    scale = SCALES[name]
    ns, ew = scale.vp(difference)
    assert ns + ew == FULL and 0 <= ns <= FULL
    assert scale.vp(-difference) == (ew, ns)
    bigger = abs(difference) + more
    assert scale.vp(bigger)[0] >= scale.vp(abs(difference))[0]


def test_a_scale_of_the_directors_own_is_read_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    data = {"name": "club-2", "hands": 2, "bands": [[30, 10], [500, 14], [1000, 18]],
            "source": "our club"}  # fmt: skip
    path.write_text(json.dumps(data))
    scale = load_scale(path)
    assert scale.vp(30) == (10, 10) and scale.vp(31) == (14, 6) and scale.vp(-1001) == (0, 20)
    assert scale.to_dict() == data


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ([], "a JSON object"),
        ({"name": "x", "hands": 3, "bands": [], "source": ""}, "1 to 20"),
        ({"name": "x", "hands": 3, "bands": [[50, 11]], "source": ""}, "even table"),
        ({"name": "x", "hands": 3, "bands": [[50, 10], [40, 12]], "source": ""}, "band 2"),
        ({"name": "x", "hands": 3, "bands": [[50, 10], [90, 10]], "source": ""}, "more than 10"),
        ({"name": "x", "hands": 3, "bands": [[50, 10], [90, 20]], "source": ""}, "less than 20"),
        ({"name": "x", "hands": 3, "bands": [["50", 10]], "source": ""}, "whole numbers"),
        ({"name": "x", "hands": 0, "bands": [[50, 10]], "source": ""}, "hands is 1 to 20"),
        ({"name": "x", "bands": [[50, 10]], "source": "", "colour": 1}, "no key 'colour'"),
        ({"name": "x", "hands": 2, "bands": [[50, 10]]}, "'source' is missing"),
        ({"hands": 2, "bands": [[50, 10]], "source": ""}, "'name' is missing"),
        ({"name": "x", "source": ""}, "'bands' is missing"),
    ],
)
def test_a_malformed_scale_is_refused_saying_what_is_wrong(data: object, says: str) -> None:
    with pytest.raises(TournamentError, match=says):
        scale_from_dict(data)


def test_a_scale_file_that_is_not_json_or_not_there_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(TournamentError, match="not JSON"):
        load_scale(bad)
    with pytest.raises(TournamentError, match="cannot read"):
        load_scale(tmp_path / "none.json")
