"""The gauntlet: a bot against every exploit, every preset and player count, with verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from buraco.arena.gauntlet import (
    HOLDS,
    LOSES,
    NOT_SEPARATED,
    TABLES,
    TOO_FEW,
    GauntletResult,
    GauntletRow,
    gauntlet_rows,
    has_opening_minimum,
    run_gauntlet,
)
from buraco.arena.report import gauntlet_table
from buraco.arena.stats import Outcome, mean_ci
from buraco.arena.timing import TimeSketch
from buraco.bots import EXPLOITS
from buraco.cli import app, common
from buraco.rules import make_rules
from clikit import CliRunner

runner = CliRunner()


def test_every_table_meets_every_exploit_and_the_minimum_only_where_a_hand_has_one() -> None:
    rows = gauntlet_rows("heuristic", 1)
    assert len(TABLES) == 12
    minimum = [(r.preset, r.players) for r in rows if r.exploit == "minimum"]
    # 000 (us): 50 to open below 1500; elsewhere a single hand has no minimum (001: 75
    # only once a side is vulnerable; 004 and the Italian rules: none)
    assert minimum == [("us", 2), ("us", 4), ("us", 6)]
    assert len(rows) == 12 * (len(EXPLOITS) - 1) + 3
    assert has_opening_minimum(make_rules("us", players=4))
    assert not has_opening_minimum(make_rules("aberto", players=4))
    for row in rows:
        assert row.spec.bots[0] == "heuristic" and row.spec.bots[1] == row.exploit


def test_the_exploits_may_play_on_another_base() -> None:
    rows = gauntlet_rows("greedy", 2, tables=[("aberto", 2)], base="heuristic")
    assert {r.spec.bots[1] for r in rows} == {f"{e}:base=heuristic" for e in EXPLOITS} - {
        "minimum:base=heuristic"
    }


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"exploits": ["hoarder", "cheater"]}, "unknown exploit 'cheater'; exploits are: hoarder"),
        ({"exploits": []}, "name at least one exploit"),
        ({"tables": [("aberto", 3)]}, "played by 2 or 4 players, not 3"),
        # 000 (us): only there does a single hand have an opening minimum to play exactly
        ({"tables": [("aberto", 2)], "exploits": ["minimum"]}, "minimum is played only"),
    ],
)
def test_bad_rows_are_refused_with_what_is_allowed(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        gauntlet_rows("greedy", 1, **kwargs)


def _row(values: list[float]) -> GauntletRow:
    return GauntletRow("aberto", 2, "hoarder", Outcome(), mean_ci(values), TimeSketch(), 0.0)


def test_a_row_holds_loses_or_is_not_separated_by_its_confidence_interval() -> None:
    assert _row([100, 120, 90, 110]).verdict == HOLDS
    assert _row([-100, -120, -90, -110]).verdict == LOSES
    assert _row([100, -120, 90, -110]).verdict == NOT_SEPARATED
    assert _row([100]).verdict == TOO_FEW  # one deal: no interval, as the arena says


def test_one_deal_one_row_is_worded_as_such() -> None:
    args = ("--preset", "us", "--players", "2", "--exploits", "stocker", "--deals", "1")
    code, out = gauntlet("greedy", *args)
    assert code == 0, out
    row = next(line for line in out.splitlines() if line.split()[:3] == ["us", "2", "stocker"])
    assert row.split()[-3:] == ["too", "few", "deals"]
    assert "1 row: 0 holds, 0 not separated, 0 loses, 1 too few deals" in out


def test_results_depend_on_the_seed_only() -> None:
    kwargs: dict[str, Any] = {"tables": [("italiano", 3), ("us", 2)], "seed": 4}
    kwargs["exploits"] = ["rusher", "minimum"]
    one = run_gauntlet("greedy", 3, workers=1, **kwargs)
    two = run_gauntlet("greedy", 3, workers=2, **kwargs)
    again = run_gauntlet("greedy", 3, workers=1, **kwargs)
    rows = [(r.preset, r.players, r.exploit) for r in one.rows]
    assert rows == [("italiano", 3, "rusher"), ("us", 2, "rusher"), ("us", 2, "minimum")]
    for a, b, c in zip(one.rows, two.rows, again.rows, strict=True):
        assert a.diff == b.diff == c.diff and a.outcome == b.outcome
        assert a.outcome.deals == 3 and a.times.count > 0
    other = run_gauntlet("greedy", 3, workers=1, **(kwargs | {"seed": 5}))
    assert [r.diff for r in other.rows] != [r.diff for r in one.rows]


def test_the_heuristic_holds_where_greedy_loses() -> None:
    # the pile hoarder against greedy and heuristic on the same deals of aberto for 2
    kwargs: dict[str, Any] = {"tables": [("aberto", 2)], "exploits": ["hoarder"], "seed": 1}
    greedy = run_gauntlet("greedy", 8, **kwargs).rows[0]
    heuristic = run_gauntlet("heuristic", 8, **kwargs).rows[0]
    assert greedy.diff.mean < 0 < heuristic.diff.mean


@pytest.fixture(autouse=True)
def _width_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's console reads ``COLUMNS`` when it prints, whatever it was at import."""
    monkeypatch.setattr(common.console, "_width", None)


def gauntlet(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["arena", "--gauntlet", *args], env={"COLUMNS": "160"})
    return result.exit_code, result.output


def test_the_command_prints_a_row_per_table_and_exploit_with_its_verdict() -> None:
    code, out = gauntlet("greedy", "--preset", "us", "--players", "4", "--deals", "3")
    assert code == 0, out
    assert "gauntlet: greedy against 8 exploits at 1 table" in out
    lines = [line.split() for line in out.splitlines()]
    rows = [line for line in lines if line[:2] == ["us", "4"]]
    assert [line[2] for line in rows] == list(EXPLOITS)
    for line in rows:
        assert line[-1] in ("holds", "loses", "separated")
    assert "8 rows: " in out


def test_a_narrow_terminal_never_cuts_an_exploits_name() -> None:
    args = ["--preset", "us", "--exploits", "wildhoarder", "--deals", "2"]
    result = runner.invoke(app, ["arena", "--gauntlet", "greedy", *args], env={"COLUMNS": "70"})
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines() if line.startswith("us ")]
    assert rows and rows[0][2] == "wildhoarder", result.output


def test_a_terminal_of_80_columns_shows_every_verdict_whole() -> None:
    args = ["--preset", "us", "--players", "4", "--deals", "3"]
    result = runner.invoke(app, ["arena", "--gauntlet", "greedy", *args], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = [line.split() for line in result.output.splitlines()]
    rows = [i for i, line in enumerate(lines) if line[:2] == ["us", "4"]]
    assert [lines[i][2] for i in rows] == list(EXPLOITS), result.output
    for i in rows:  # "not separated" may take two lines, each word whole
        verdict = lines[i][-1] if lines[i][-1] != "not" else f"not {lines[i + 1][-1]}"
        assert verdict in (HOLDS, LOSES, NOT_SEPARATED), result.output


def test_a_table_whose_verdicts_are_short_still_shows_their_header_whole() -> None:
    times = TimeSketch()
    times.add(0.0413)
    diffs = mean_ci([2400.0, 2550.0, 2480.0, 2610.0, 2390.0, 2530.0])
    row = GauntletRow("aberto", 4, "wildhoarder", Outcome(32, 7, 1), diffs, times, 1.0)
    assert row.verdict == HOLDS  # every row holds: the longest word is the header's
    result = GauntletResult("mcts:value=learned,time=0.05,depth=2", 40, 0, (row, row), 1, 1.0)
    console = Console(width=80, record=True)
    console.print(gauntlet_table(result))
    text = console.export_text()
    header = next(line.split() for line in text.splitlines() if line.startswith("preset"))
    assert header[-1] == "verdict", text


def test_the_command_gives_every_row_as_json() -> None:
    code, out = gauntlet("greedy", "--preset", "italiano", "--exploits", "stocker", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["bot"] == "greedy" and data["deals"] == 20
    assert [(r["preset"], r["players"], r["exploit"]) for r in data["rows"]] == [
        ("italiano", 2, "stocker"),
        ("italiano", 3, "stocker"),
        ("italiano", 4, "stocker"),
    ]
    for row in data["rows"]:
        assert row["verdict"] in (HOLDS, LOSES, NOT_SEPARATED)
        assert row["deals"]["played"] == 20
        assert len(row["score_diff_per_deal"]["ci95"]) == 2
        assert row["decision_time"]["decisions"] > 0
    assert sum(data["verdicts"].values()) == 3


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("greedy", "--bots", "greedy,random"), "leave out --bots"),
        (("greedy", "--matches"), "leave out --matches"),
        (("greedy", "-o", "target=1000"), "leave out --option"),
        (("greedy", "--players", "4"), "--players goes with --preset"),
        (("greedy", "--exploits", "sneak"), "unknown exploit 'sneak'"),
        (("greedy", "--exploits", "hoarder, holder,hoarder"), "names 'hoarder' twice"),
        (("greedy", "--base", "random"), "--base must be one of greedy, heuristic"),
        (("nobody",), "unknown bot 'nobody'"),
        (("greedy", "--preset", "aberto", "--players", "3"), "played by 2 or 4 players"),
        (("greedy", "--deals", "0"), "--deals must be from 1"),
        (("greedy,random",), "--gauntlet takes one bot, not 2"),
        (("greedy", "--preset", "fechado", "--exploits", "minimum"), "minimum is played only"),
    ],
)
def test_the_command_refuses_what_does_not_go_with_a_gauntlet(
    args: tuple[str, ...], words: str
) -> None:
    code, out = gauntlet(*args)
    assert code == 2 and words in out and "Traceback" not in out


def test_exploits_and_base_need_a_gauntlet() -> None:
    result = runner.invoke(app, ["arena", "--exploits", "hoarder"])
    assert result.exit_code == 2 and "--exploits, --base and --save go with --gauntlet" in (
        result.output
    )


def test_a_saved_gauntlet_plays_only_the_rows_its_file_does_not_hold(tmp_path: Path) -> None:
    # a long gauntlet stopped midway and run again keeps the rows it finished
    save = tmp_path / "gauntlet.jsonl"
    one = run_gauntlet("greedy", 2, tables=[("aberto", 2)], exploits=["stocker"], seed=4,
                       save=save)  # fmt: skip
    assert len(save.read_text().splitlines()) == 1
    calls: list[int] = []
    both = run_gauntlet("greedy", 2, tables=[("aberto", 2)], exploits=["stocker", "hoarder"],
                        seed=4, save=save, progress=lambda: calls.append(1))  # fmt: skip
    assert len(save.read_text().splitlines()) == 2 and len(calls) == 4
    # the kept row reads back as it was played, the new one as a run without a file plays it
    assert both.rows[0].to_dict() == one.rows[0].to_dict()
    fresh = run_gauntlet("greedy", 2, tables=[("aberto", 2)], exploits=["hoarder"], seed=4)
    timed = {"seconds": 0, "decision_time": 0}  # wall times differ from run to run
    assert both.rows[1].to_dict() | timed == fresh.rows[0].to_dict() | timed
    assert both.rows[1].times.count == fresh.rows[0].times.count
    # another seed is another row: nothing is reused
    other = run_gauntlet("greedy", 2, tables=[("aberto", 2)], exploits=["stocker"], seed=5,
                         save=save)  # fmt: skip
    assert len(save.read_text().splitlines()) == 3 and other.rows[0].outcome.deals == 2


def test_a_save_file_that_is_not_a_gauntlets_is_one_error_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\n")
    result = runner.invoke(
        app, ["arena", "--gauntlet", "greedy", "--preset", "aberto", "--players", "2",
              "--exploits", "stocker", "--deals", "1", "--save", str(bad)],
    )  # fmt: skip
    assert result.exit_code == 2 and "line 1 is not a gauntlet row" in result.output
    assert bad.read_text() == "hello\n"
