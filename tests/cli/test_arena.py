import csv
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from buraco import replay
from buraco.bots import split_specs
from buraco.cli import app
from clikit import CliRunner

runner = CliRunner()

QUICK = ("arena", "--preset", "aberto", "--players", "4", "--bots", "greedy,random")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.output


def arena_json(*args: str) -> dict[str, Any]:
    code, stdout, output = run(*QUICK, "--json", *args)
    assert code == 0, output
    data: dict[str, Any] = json.loads(stdout)
    return data


def test_arena_prints_the_tables() -> None:
    code, out, _ = run(*QUICK, "--deals", "4", "--seed", "2")
    assert code == 0
    assert "aberto, 4 players in 2 sides: greedy vs random" in out
    assert "4 duplicate deals × 2 games = 8 games" in out
    headings = ("bots, best first", "rating", "W–L–T", "95% CI", "pile", "went", "choose", "pairs")
    for heading in headings:
        assert heading in out
    assert "greedy vs random" in out


def test_arena_json_has_every_figure() -> None:
    data = arena_json("--deals", "3", "--seed", "1")
    assert (data["preset"], data["players"], data["deals"], data["games"]) == ("aberto", 4, 3, 6)
    greedy, rand = data["per_bot"]
    assert (greedy["bot"], rand["bot"]) == ("greedy", "random")
    assert greedy["deals"]["played"] == 3
    assert greedy["deals"]["won"] == rand["deals"]["lost"]
    assert greedy["score_diff_per_deal"]["mean"] == -rand["score_diff_per_deal"]["mean"]
    assert len(greedy["score_diff_per_deal"]["ci95"]) == 2
    assert greedy["rating"] + rand["rating"] == pytest.approx(3000)
    assert greedy["decision_time"]["decisions"] > 0
    assert greedy["decision_time"]["p95_ms"] >= greedy["decision_time"]["median_ms"] > 0
    (pair,) = data["per_pair"]
    assert pair["bots"] == ["greedy", "random"]
    assert [d["deal"] for d in data["per_deal"]] == [0, 1, 2]
    assert len(data["per_game"]) == 6
    assert "matches" not in greedy
    for bot in data["per_bot"]:
        taken, out = bot["pile_taken"], bot["went_out"]
        assert 0 <= taken["takes"] <= taken["chances"] and out["hands"] == 6
        assert 0 <= out["out"] <= 6 and out["share"] == out["out"] / 6
    game = data["per_game"][0]
    assert len(game["pile_takes"]) == len(game["pile_chances"]) == 2


def test_arena_matches_report_match_wins() -> None:
    code, stdout, output = run(
        "arena",
        "--preset",
        "italiano",
        "--players",
        "3",
        "--bots",
        "greedy,random,greedy",
        "--deals",
        "1",
        "--matches",
        "--option",
        "target=600",
        "--json",
    )
    assert code == 0, output
    data = json.loads(stdout)
    assert data["matches"] is True and data["games"] == 6
    assert sum(b["matches"]["won"] for b in data["per_bot"]) == 6
    assert all(b["matches"]["played"] == 6 for b in data["per_bot"])
    code, out, _ = run(
        "arena", "--preset", "italiano", "--players", "2", "--deals", "1", "--matches",
        "-o", "target=600",
    )  # fmt: skip
    assert code == 0 and "match" in out and "wins" in out


def test_workers_do_not_change_the_results() -> None:
    one = arena_json("--deals", "4", "--seed", "9", "--workers", "1")
    two = arena_json("--deals", "4", "--seed", "9", "--workers", "2")
    assert two["workers"] == 2
    for key in ("per_deal", "per_game", "per_pair"):
        assert one[key] == two[key]
    for a, b in zip(one["per_bot"], two["per_bot"], strict=True):
        del a["decision_time"], b["decision_time"]
        assert a == b


def test_out_writes_records_csv_summary_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "arena"
    code, _, output = run(*QUICK, "--deals", "3", "--seed", "4", "--out", str(out))
    assert code == 0, output
    assert "wrote 6 game records" in output
    records = sorted((out / "records").glob("*.json"))
    assert len(records) == 6
    with (out / "games.csv").open() as f:
        games = list(csv.DictReader(f))
    assert len(games) == 6
    assert set(games[0]) >= {
        "deal", "rotation", "bot_side0", "bot_side1", "score_side0", "score_side1", "diff",
        "went_out", "ended_by", "hands", "record",
    }  # fmt: skip
    for row in games:
        game = replay(out / "records" / row["record"])
        assert game.is_over()
        assert [str(t) for t in game.totals] == [row["score_side0"], row["score_side1"]]
        assert game.names[0].startswith(row["bot_side0"])
        first = 0 if row["bot_side0"] == "greedy" else 1
        assert int(row["diff"]) == game.totals[first] - game.totals[1 - first]
    with (out / "deals.csv").open() as f:
        deals = list(csv.DictReader(f))
    assert [d["deal"] for d in deals] == ["0", "1", "2"]
    for d in deals:
        pair = [g for g in games if g["deal"] == d["deal"]]
        assert int(d["diff"]) == sum(int(g["diff"]) for g in pair)
        assert d["won_by"] in ("greedy", "random", "tie")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["deals"] == 3 and "per_game" not in summary
    png = (out / "arena.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_out_without_matplotlib_writes_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    code, _, output = run(*QUICK, "--deals", "1", "--out", str(tmp_path))
    assert code == 0, output
    assert "pip install 'buraco[plot]'" in output
    assert not (tmp_path / "arena.png").exists()
    for name in ("games.csv", "deals.csv", "summary.json"):
        assert (tmp_path / name).exists()
    assert len(list((tmp_path / "records").glob("*.json"))) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "greedy,grumpy"), "unknown bot 'grumpy'"),
        (("--bots", "greedy"), "at least two bots"),
        (("--bots", "greedy,,random"), "name a bot between every pair of commas"),
        (("--bots", ""), "name a bot between every pair of commas"),
        (("--deals", "0"), "--deals must be from 1 to 1000000, not 0"),
        (("--workers", "0"), "--workers must be from 1 to 64, not 0"),
        (("--workers", "100000"), "--workers must be from 1 to 64, not 100000"),
        (("--seed", "-1"), "--seed must be a whole number from 0"),
        (("--option", "decks=100000000"), "option decks: 100000000 is out of range; use 1 to 4"),
        (("--preset", "bogus"), "unknown preset 'bogus'"),
        (("--preset", "aberto", "--players", "3"), "played by 2 or 4 players"),
        (("--option", "colour=red"), "unknown option 'colour'"),
        (("--option", "target"), "name=value"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, _, output = run("arena", "--deals", "1", *args)
    assert code == 2
    assert message in output
    assert "Traceback" not in output
    assert output.startswith("error:")


def test_bad_out_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, output = run("arena", "--deals", "1", "--out", str(blocker / "sub"))
    assert code == 2 and "cannot create the directory" in output


def test_bot_parameters_stay_with_their_bot() -> None:
    assert split_specs("greedy,random") == ["greedy", "random"]
    assert split_specs(" mcts:time=0.5,policy=greedy , heuristic") == [
        "mcts:time=0.5,policy=greedy",
        "heuristic",
    ]
    assert split_specs("greedy,") == ["greedy", ""]
