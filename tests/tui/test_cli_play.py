"""``buraco play`` and ``buraco replay --watch`` on the command line: bad input is refused
with a one-line error, good input builds the app."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

import buraco.cli.play as play_cli
from buraco import make_rules
from buraco.cli import app
from buraco.cli.play import make_app
from buraco.record import save
from buraco.tui.app import PlayApp
from buraco.tui.controller import Controller
from clikit import CliRunner
from tui.driver import play_hand_directly

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "bogus"], "unknown preset 'bogus'"),
        (["--players", "3"], "preset 'aberto' is played by 2 or 4 players, not 3"),
        (["--preset", "us", "--players", "5"], "played by 2, 4 or 6 players, not 5"),
        (["--bots", "grumpy"], "unknown bot 'grumpy'"),
        (["--bots", "greedy,random"], "--bots names 2 bots but 4 players leave 3 bot seat(s)"),
        (["--bots", "mcts:depth=deep"], "parameter depth must be a whole number"),
        (["--pace", "-1"], "--pace must be from 0 to 60, not -1"),
        (["-o", "colour=red"], "unknown option 'colour'"),
        (["--resume", "missing.json"], "cannot read record"),
        (["--resume", "x.json", "--preset", "us"], "--resume takes the rules"),
        (["--save", "no/such/dir/m.json"], "not a file in an existing directory"),
    ],
)
def test_play_refuses_bad_input_in_one_line(args: list[str], message: str) -> None:
    code, out = run("play", *args)
    assert code == 2
    assert message in " ".join(out.split())
    assert "Traceback" not in out and out.startswith("error:")


def test_play_refuses_a_malformed_resume_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out = run("play", "--resume", str(bad))
    assert code == 2 and "not valid JSON" in out
    c = Controller.new(make_rules("aberto", players=2), ["greedy"], 1)
    record = c.record()
    record["hands"][0]["actions"] = [[0, "meld 2C"]]
    bad.write_text(json.dumps(record))
    code, out = run("play", "--resume", str(bad))
    assert code == 2 and "hand 1, action 1" in " ".join(out.split())


def test_good_input_builds_the_app(tmp_path: Path) -> None:
    built = make_app("italiano", 3, "greedy,random", 9, 0.0, None, tmp_path / "s.json", None)
    c = built.controller
    assert (c.rules.preset, c.rules.players, c.seed) == ("italiano", 3, 9)
    assert c.bot_specs == ["greedy", "random"] and built.pace == 0.0
    assert c.save_path == tmp_path / "s.json"
    default = make_app(seed=3, option=["target=1000"])
    assert default.controller.rules.target == 1000
    assert default.controller.bot_specs == ["heuristic"] * 3
    assert default.controller.save_path == Path("buraco-aberto-3.json")
    c.save()
    resumed = make_app(bots="random", resume=tmp_path / "s.json")
    assert resumed.controller.bot_specs == ["random", "random"]
    assert resumed.controller.save_path == tmp_path / "s.json"
    with pytest.raises(typer.Exit):
        make_app(pace=float("nan"))


def test_play_is_listed_with_its_options() -> None:
    code, out = run("play", "--help")
    assert code == 0
    for option in ("--preset", "--players", "--bots", "--seed", "--pace", "--resume", "--save"):
        assert option in out


def test_replay_watch_refuses_bad_combinations(tmp_path: Path) -> None:
    c = Controller.new(make_rules("aberto", players=2), ["greedy"], 1, tmp_path / "r.json")
    path = tmp_path / "plain.json"
    save(c.game, path)
    code, out = run("replay", str(path), "--watch", "--json")
    assert code == 2 and "--watch and --json" in out
    code, out = run("replay", str(path), "--watch", "--seat", "5")
    assert code == 2 and "--seat must be a seat from 0 to 1" in out
    code, out = run("replay", str(path), "--seat", "1")  # without --watch it would be ignored
    assert code == 2 and "--seat is for --watch" in out
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    code, out = run("replay", str(bad), "--watch")
    assert code == 2 and "must be a JSON object" in out


def test_the_installed_command_refuses_without_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "buraco", "play", "--preset", "italiano", "--players", "6"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "played by 2, 3 or 4 players, not 6" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_replay_accepts_a_saved_match(tmp_path: Path) -> None:
    c = Controller.new(make_rules("aberto", players=2), ["greedy"], 1, tmp_path / "r.json")
    code, out = run("replay", str(c.save()))
    assert code == 0, out


@pytest.mark.parametrize(
    ("args", "instead"),
    [
        (["play", "--seed", "1"], "buraco simulate or buraco arena"),
        (["replay", "RECORD", "--watch"], "buraco replay FILE (no --watch)"),
    ],
)
def test_without_a_terminal_the_board_is_refused_in_one_line(
    tmp_path: Path, args: list[str], instead: str
) -> None:
    record = tmp_path / "r.json"
    Controller.new(make_rules("aberto", players=2), ["greedy"], 1, record).save()
    args = [str(record) if a == "RECORD" else a for a in args]
    proc = subprocess.run(
        [sys.executable, "-m", "buraco", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: buraco "), proc.stderr
    assert "needs a terminal" in lines[0] and "standard input" in lines[0]
    assert instead in lines[0] and "\x1b" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]  # nothing saved


def test_the_closing_line_fits_a_match_in_progress_and_one_that_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def quit_at_once(app: PlayApp) -> Path:
        return app.controller.save()

    def play_to_the_end(app: PlayApp) -> Path:
        play_hand_directly(app.controller)
        return app.controller.save()

    monkeypatch.setattr(play_cli, "need_terminal", lambda command, instead: None)
    path = tmp_path / "m.json"
    one_hand = ["-o", "decks=1", "-o", "pot_sizes=13,13", "-o", "pot_to_stock=false"]
    args = ["play", "--players", "2", "--bots", "greedy", "--seed", "2", "--save", str(path)]
    args += [*one_hand, "-o", "match_hands=1"]
    monkeypatch.setattr(PlayApp, "run", quit_at_once)
    code, out = run(*args)
    assert code == 0 and f"go on with: buraco play --resume {path}" in " ".join(out.split())
    monkeypatch.setattr(PlayApp, "run", play_to_the_end)
    code, out = run(*args)
    shown = " ".join(out.split())
    assert code == 0 and Controller.resume(path).match_over
    assert "--resume" not in shown and f"buraco replay {path} --watch" in shown, shown
