import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from buraco import replay as replay_record
from buraco.cli import app
from buraco.cli import bench as bench_cli
from buraco.compiled import compiled_modules
from clikit import CliRunner

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


# ----- the command itself ----------------------------------------------------------------


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version

    code, out = run("--version")
    assert code == 0 and out.strip() == f"buraco {version('buraco')}"


def test_no_arguments_show_the_help_without_an_empty_error_line() -> None:
    for args in ((), ("tournament",)):
        code, out = run(*args)
        assert code == 2 and "Usage: buraco" in out and "error:" not in out, out


def test_a_usage_error_points_to_the_help_of_the_command_it_is_in() -> None:
    # the parser's "requires an argument" carries no context: the pointer comes from the args
    code, out = run("simulate", "--hands")
    assert code == 2
    assert "requires an argument" in out and "(see 'buraco simulate --help')" in out
    code, out = run("simulate", "--bogus")
    assert code == 2 and "(see 'buraco simulate --help')" in out


# ----- rules ------------------------------------------------------------------------------


def test_rules_lists_every_preset() -> None:
    code, out = run("rules")
    assert code == 0
    for name in ("aberto", "fechado", "us", "netcartas", "italiano"):
        assert name in out


def test_rules_of_a_preset_shows_its_options_and_marks_changes() -> None:
    code, out = run("rules", "us", "--option", "target=3000")
    assert code == 0
    assert "failed_opening_penalty" in out and "15" in out
    assert "3000" in out and "(changed)" in out


def test_an_option_given_twice_is_refused_not_overwritten() -> None:
    code, out = run("rules", "aberto", "-o", "target=1000", "-o", "target=2000")
    assert code == 2 and "--option 'target' is given twice" in out
    code, out = run("rules", "aberto", "-o", "target=1000", "-o", "going_out_bonus=50")
    assert code == 0, out


def test_rules_refuses_bad_input_with_a_message() -> None:
    code, out = run("rules", "aberto", "--players", "3")
    assert code == 2 and "played by 2 or 4 players" in out
    code, out = run("rules", "bogus")
    assert code == 2 and "unknown preset 'bogus'" in out
    code, out = run("rules", "aberto", "-o", "colour=red")
    assert code == 2 and "unknown option 'colour'" in out
    code, out = run("rules", "aberto", "-o", "target")
    assert code == 2 and "name=value" in out


# ----- simulate -----------------------------------------------------------------------------


def test_simulate_json_summary_adds_up() -> None:
    code, out = run(
        "simulate",
        "--preset",
        "fechado",
        "--players",
        "4",
        "--hands",
        "4",
        "--bot",
        "greedy",
        "--seed",
        "3",
        "--json",
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["hands"] == 4 and summary["games"] == 4
    assert sum(summary["ended_by"].values()) == 4
    assert summary["going_out_rate"] == summary["ended_by"].get("going-out", 0) / 4
    assert len(summary["mean_score"]) == 2


def test_simulate_is_deterministic_for_a_seed() -> None:
    args = (
        "simulate",
        "--preset",
        "aberto",
        "--players",
        "2",
        "--hands",
        "2",
        "--bot",
        "random",
        "--seed",
        "11",
        "--json",
    )
    assert run(*args) == run(*args)


def test_simulate_matches_report_wins() -> None:
    code, out = run(
        "simulate",
        "--preset",
        "italiano",
        "--players",
        "3",
        "--matches",
        "1",
        "--bot",
        "greedy",
        "--option",
        "target=600",
        "--json",
    )
    assert code == 0
    summary = json.loads(out)
    assert sum(summary["wins"]) == 1
    assert summary["hands"] >= 1 and summary["mean_hands_per_match"] == summary["hands"]


def test_simulate_writes_records_that_replay(tmp_path: Path) -> None:
    code, _ = run(
        "simulate",
        "--preset",
        "us",
        "--players",
        "4",
        "--hands",
        "2",
        "--bots",
        "greedy,random,greedy,random",
        "--records",
        str(tmp_path),
    )
    assert code == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    for f in files:
        game = replay_record(f)
        assert game.is_hand_over()


def test_simulate_refuses_bad_bots() -> None:
    code, out = run("simulate", "--bot", "grumpy")
    assert code == 2 and "unknown bot 'grumpy'" in out
    code, out = run("simulate", "--players", "4", "--bots", "greedy,random")
    assert code == 2 and "4 seats" in out
    # both given: one of them would be ignored
    code, out = run("simulate", "--players", "2", "--bot", "greedy", "--bots", "random,random")
    assert code == 2 and "give --bot (one bot for every seat) or --bots" in out


# ----- replay -------------------------------------------------------------------------------


def _record(tmp_path: Path) -> Path:
    code, _ = run(
        "simulate",
        "--preset",
        "aberto",
        "--players",
        "2",
        "--hands",
        "1",
        "--bot",
        "greedy",
        "--seed",
        "5",
        "--records",
        str(tmp_path),
    )
    assert code == 0
    return next(tmp_path.glob("*.json"))


def test_replay_prints_the_final_state_and_scores(tmp_path: Path) -> None:
    path = _record(tmp_path)
    code, out = run("replay", str(path))
    assert code == 0
    assert "record replays" in out and "scores" in out
    code, out = run("replay", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ok"] is True and len(data["hands"]) == 1
    assert data["totals"] == json.loads(path.read_text())["totals"]


def test_replay_reports_the_first_illegal_action(tmp_path: Path) -> None:
    path = _record(tmp_path)
    record = json.loads(path.read_text())
    actions = record["hands"][0]["actions"]
    seat = actions[0][0]
    actions[1] = [seat, "take-pile"]  # after drawing, taking the pile is not allowed
    del record["hands"][0]["result"]
    path.write_text(json.dumps(record))
    code, out = run("replay", str(path))
    assert code == 1
    assert "hand 1, action 2" in out and "drawn already" in out
    code, out = run("replay", str(path), "--json")
    assert code == 1
    data = json.loads(out)
    assert data["ok"] is False and (data["hand"], data["action"]) == (1, 2)


def test_replay_refuses_malformed_records(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out = run("replay", str(bad))
    assert code == 2 and "not valid JSON" in out
    code, out = run("replay", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read record" in out
    bad.write_text(json.dumps({"format": "buraco-record", "version": 1, "rules": {}}))
    code, out = run("replay", str(bad))
    assert code == 2 and "rules.preset" in out


# ----- bench --------------------------------------------------------------------------------


def test_bench_reports_positive_figures() -> None:
    code, out = run(
        "bench",
        "--preset",
        "aberto",
        "--players",
        "2",
        "--seconds",
        "0.05",
        "--rounds",
        "1",
        "--json",
    )
    assert code == 0
    figures = json.loads(out)
    assert figures["random"]["actions_per_second"] > 0
    assert figures["random"]["hands_per_second"] > 0
    assert figures["greedy"]["hands_per_second"] > 0
    assert "bots" not in figures
    assert figures["compiled"] == compiled_modules()  # none in a plain checkout
    batched = figures["batched"]  # 64 games unless told
    if importlib.util.find_spec("gymnasium") is None:
        assert batched == {"games": 64, "skipped": "needs the rl extra: pip install 'buraco[rl]'"}
    else:
        assert batched["games"] == 64 and batched["form"] == "index"
        assert len(batched["rounds"]) == 1 and batched["agent_steps_per_second"] > 0


def test_bench_without_the_rl_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "buraco.rl.vector", None)  # importing it raises ImportError
    args = ("bench", "--seconds", "0.01", "--rounds", "1", "--batched", "8")
    code, out = run(*args, "--json")
    assert code == 0
    assert json.loads(out)["batched"] == {
        "games": 8,
        "skipped": "needs the rl extra: pip install 'buraco[rl]'",
    }
    code, out = run(*args)
    assert code == 0 and "needs the rl extra" in " ".join(out.split())


def test_bench_names_the_modules_that_run_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ("bench", "--seconds", "0.01", "--rounds", "1", "--batched", "0")
    code, out = run(*args)
    assert code == 0 and "no module compiled" in " ".join(out.split())
    monkeypatch.setattr(bench_cli, "compiled_modules", lambda: ["buraco.movegen", "buraco.views"])
    code, out = run(*args)
    named = "compiled with mypyc: buraco.movegen, buraco.views"
    assert code == 0 and named in " ".join(out.split())
    code, out = run(*args, "--json")
    assert json.loads(out)["compiled"] == ["buraco.movegen", "buraco.views"]


@pytest.mark.rl
def test_bench_times_the_batched_env_with_the_games_asked_for_or_not_at_all() -> None:
    args = ("bench", "--preset", "us", "--players", "2", "--seconds", "0.05", "--rounds", "2")
    code, out = run(*args, "--batched", "3", "-o", "pile_streak_limit=20", "--json")
    assert code == 0, out
    batched = json.loads(out)["batched"]
    assert batched["games"] == 3 and len(batched["rounds"]) == 2
    assert all(r["agent_steps_per_second"] > 0 for r in batched["rounds"])
    code, out = run(*args, "--batched", "0", "--json")
    assert code == 0 and "batched" not in json.loads(out)
    code, out = run(*args, "--batched", "3")
    assert code == 0 and "batched env, 3 games: agent steps/s" in out


def test_bench_times_the_decisions_of_the_bots_asked_for() -> None:
    args = (
        "bench",
        "--preset",
        "italiano",
        "--players",
        "3",
        "--seconds",
        "0.05",
        "--batched",
        "0",
    )
    code, out = run(*args, "--rounds", "2", "--bot", "heuristic", "--bot", "rusher", "--json")
    assert code == 0, out
    bots = json.loads(out)["bots"]
    assert list(bots) == ["heuristic", "rusher"]
    for figures in bots.values():
        assert len(figures["rounds"]) == 2
        assert figures["decisions_per_second"] > 0 and figures["median_decision_ms"] > 0
        assert 1000 / figures["median_decision_ms"] > 0
    code, out = run(*args, "--rounds", "1", "--bot", "heuristic")
    assert code == 0 and "heuristic: decisions/s" in out and "median decision, ms" in out


# ----- the installed entry point ------------------------------------------------------------


def test_errors_reach_the_user_without_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "buraco", "rules", "aberto", "--players", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "played by 2 or 4 players" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


# ----- bad input: one line, the bound in the message, user text as written ------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("simulate", "--hands", "3", "--matches", "2"), "give --hands or --matches, not both"),
        (("simulate", "--hands", "0"), "--hands must be from 1 to 1000000, not 0"),
        (("simulate", "--bots", ""), "name a bot between every pair of commas"),
        (("simulate", "--bot", ""), "name a bot between every pair of commas"),
        (("simulate", "--seed", "-3"), "--seed must be a whole number from 0"),
        (("simulate", "--records", "/etc/passwd"), "a file of that name is in the way"),
        (("simulate", "--records", "/proc/buraco"), "cannot create the directory"),
        (("simulate", "-o", "decks=100000000"), "option decks: 100000000 is out of range"),
        (
            ("simulate", "-o", "pile_streak_limit=0"),
            "pile_streak_limit=0 removes the limit on taking the pile, but with pile_top_meld",
        ),
        (("bench", "--seconds", "nan"), "--seconds must be from 0.01 to 600, not nan"),
        (("bench", "--seconds", "0"), "--seconds must be from 0.01 to 600, not 0"),
        (("bench", "--seconds", "-1"), "--seconds must be from 0.01 to 600, not -1"),
        (("bench", "--rounds", "0"), "--rounds must be from 1 to 100, not 0"),
        (("bench", "--batched", "-1"), "--batched must be from 0 to 4096, not -1"),
        (("bench", "--bot", "sharp"), "unknown bot 'sharp'"),
        (("bench", "--bot", "greedy,random"), "names 2 bots: repeat --bot for each"),
        (("play", "--pace", "inf"), "--pace must be from 0 to 60, not inf"),
        (("play", "--pace", "nan"), "--pace must be from 0 to 60, not nan"),
        (("rules", "[bold]x[/]"), "unknown preset '[bold]x[/]'"),
        (("rules", "aberto", "-o", "[/]=1"), "unknown option '[/]'"),
        (("rules", "aberto", "-o", "target=[/]"), "option target: '[/]' is not a whole number"),
        (("simulate", "--players", "2", "--bots", "greedy,[red]"), "unknown bot '[red]'"),
        (("simulate", "--hands", "x"), "Invalid value for '--hands'"),
        (("simulate", "--colour", "red"), "No such option"),
        (("replay", "/tmp/[bold]/x.json"), "cannot read record '/tmp/[bold]/x.json'"),
    ],
)
def test_bad_input_is_one_line_naming_what_is_allowed(args: tuple[str, ...], words: str) -> None:
    code, out = run(*args)
    assert code == 2, out
    assert words in out, out
    assert out.startswith("error: ") and out.count("\n") == 1, out


def test_a_long_error_is_not_wrapped_when_piped() -> None:
    # a message far wider than 80 columns stays on one line for scripts that read it
    proc = subprocess.run(
        [sys.executable, "-m", "buraco", "rules", "aberto", "-o", "colour=red"],
        capture_output=True,
        text=True,
        check=False,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 2
    assert len(proc.stderr) > 200 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("error: unknown option 'colour'; options are:")


def test_control_characters_in_user_text_are_shown_escaped() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "buraco", "rules", "\x1b[2Jaberto\x07"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "\x1b" not in proc.stderr and "\x07" not in proc.stderr
    assert "\\x1b[2Jaberto\\x07" in proc.stderr
