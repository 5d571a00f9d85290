"""The self-play league example trains, writes a model the ``learned`` bot plays, and its curve."""

import csv
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

import numpy as np

from buraco import Game
from buraco.bots import make_bot
from buraco.bots.learned import load_model
from buraco.errors import BotError
from buraco.rl.gymnasium import BuracoEnv
from buraco.views import seat_view

ROOT = Path(__file__).resolve().parents[2]


def test_a_tiny_run_imitates_trains_in_the_league_and_saves(tmp_path: Path) -> None:
    model, curve, data = tmp_path / "m.npz", tmp_path / "c.csv", tmp_path / "d.npz"
    args = [
        sys.executable,
        str(ROOT / "examples" / "train_league.py"),
        "--seed", "3",
        "--steps", "512",
        "--envs", "2",
        "--snapshot-every", "256",
        "--eval-every", "256",
        "--eval-hands", "2",
        "--hidden", "16,16",
        "--imitate-hands", "3",
        "--imitate-epochs", "1",
        "--demonstrations", str(data),
        "--out", str(model),
        "--csv", str(curve),
        "--snapshots", str(tmp_path / "snaps"),
    ]  # fmt: skip
    out = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "imitation epoch 1: loss" in out.stdout and "held-out accuracy" in out.stdout
    m = load_model(model)
    assert m.sizes[1:] == [16, 16, 243]
    assert m.meta["seed"] == 3 and m.meta["steps"] >= 512 and m.meta["imitated"]["hands"] == 3
    rows = list(csv.DictReader(curve.open()))
    assert [int(r["steps"]) for r in rows][:2] == [0, 256] and int(rows[-1]["steps"]) >= 512
    assert all(0 <= float(r["win_vs_heuristic"]) <= 1 for r in rows)
    # a snapshot per 256 steps and the first before training, each a model the bot plays
    snaps = sorted((tmp_path / "snaps").glob("*.npz"))
    assert len(snaps) >= 3
    game = Game("aberto", players=4, seed=1, match=False)
    bot = make_bot(f"learned:path={model}")
    assert game.turn is not None
    view = seat_view(game, game.turn, full=True)
    assert bot.choose(view, view.legal) in game.legal_actions()
    # the demonstrations are kept, and read back by the next run (the file is not rewritten)
    stamp = data.stat().st_mtime_ns
    first = [w.copy() for layer in m.layers for w in layer]
    again = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0 and data.stat().st_mtime_ns == stamp
    # and the same seed trains the same policy
    assert all(
        np.array_equal(a, b)
        for a, b in zip(
            first, [w for layer in load_model(model).layers for w in layer], strict=True
        )
    )

    def curve_of(rows: list[dict[str, str]]) -> list[tuple[str, ...]]:
        return [(r["steps"], r["win_vs_heuristic"], r["reward"]) for r in rows]

    assert curve_of(list(csv.DictReader(curve.open()))) == curve_of(rows)  # CPU time aside


def test_the_env_takes_other_opponents_at_a_reset() -> None:
    env = BuracoEnv("aberto", players=4, opponents="random")
    env.reset(seed=1, options={"opponents": ["heuristic", "greedy", "hoarder"]})
    assert [type(b).__name__ for b in env.bots.values()] == [
        "HeuristicBot",
        "GreedyBot",
        "HoarderBot",
    ]
    env.reset(seed=2)  # they stay until told otherwise
    assert env.specs == ["heuristic", "greedy", "hoarder"]
    for bad in (["heuristic"], None, 5, [1, 2, 3]):
        with pytest.raises(ValueError, match="opponents is a bot spec, or a list of 3 bot specs"):
            env.reset(seed=3, options={"opponents": bad})
        assert env.specs == ["heuristic", "greedy", "hoarder"]
    with pytest.raises(BotError, match="unknown bot 'grumpy'"):
        env.reset(seed=3, options={"opponents": "grumpy"})
    assert env.specs == ["heuristic", "greedy", "hoarder"]
    obs, _ = env.reset(seed=4, options={"opponents": "greedy"})
    assert env.specs == ["greedy"] * 3 and np.isfinite(obs).all()
