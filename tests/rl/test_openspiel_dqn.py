"""The OpenSpiel DQN example trains through ``rl_environment`` and writes a model that the
``learned`` bot plays exactly as the Q-network scores it."""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
torch = pytest.importorskip("torch")
pytest.importorskip("tree")

import numpy as np  # noqa: E402

from buraco import Game  # noqa: E402
from buraco.bots import make_bot  # noqa: E402
from buraco.bots.learned import LearnedBot, load_model  # noqa: E402
from buraco.rl.encoding import N_ACTIONS, OBS_SIZE, MeldEntry  # noqa: E402
from buraco.views import seat_view  # noqa: E402
from examplekit import EXAMPLES, load_example  # noqa: E402

SCRIPT = EXAMPLES / "train_openspiel_dqn.py"


def test_a_tiny_run_learns_evaluates_and_saves_a_model_the_bot_plays(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    tiny = ["--seeds", "5", "--steps", "300", "--chunks", "1", "--eval-hands", "1", "--hidden",
            "8", "--learn-after", "64", "--save", str(tmp_path), "--csv", str(rows)]  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *tiny],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    table = list(csv.DictReader(rows.open()))
    assert int(table[0]["steps"]) == 0 and int(table[-1]["steps"]) >= 300
    assert float(table[0]["cpu_s"]) == 0 < float(table[-1]["cpu_s"])
    assert "seed 5: win rate vs random" in done.stdout
    path = tmp_path / "aberto4_dqn_seed5.npz"
    model = load_model(path)
    assert model.sizes == [OBS_SIZE, 8, N_ACTIONS]
    assert model.actions == "flat" and model.activation == "relu"
    assert model.meta["seed"] == 5 and model.meta["opponents"] == "random"
    game = Game("aberto", players=4, seed=9, match=False)
    bot = make_bot(f"learned:path={path}")
    for _ in range(60):
        seat = game.turn
        assert seat is not None and not game.is_hand_over()
        view = seat_view(game, seat, full=True)
        game.apply(bot.choose(view, view.legal))


def test_the_exported_network_scores_as_the_q_network_and_the_bot_takes_its_best(
    tmp_path: Path,
) -> None:
    """The file holds the DQN's Q-network (ReLU layers and head, float16): the bot's scores
    are its Q-values, and its choice at a decision is the DQN's greedy action there."""
    ex = load_example("train_openspiel_dqn")
    args = argparse.Namespace(hidden=16, batch=8, lr=1e-3, steps=100, learn_after=16,
                              preset="aberto", players=4, opponents="random")  # fmt: skip
    agent = ex.make_agent(args, 0, 3, OBS_SIZE, N_ACTIONS)
    with torch.no_grad():  # weights away from their start, so the head is not all alike
        for p in agent._q_network.parameters():
            p.add_(torch.randn_like(p) * 0.05)
    path = tmp_path / "q.npz"
    ex.export(agent, path, args, seed=3)
    bot = make_bot(f"learned:path={path}")
    assert isinstance(bot, LearnedBot)
    game = Game("aberto", players=4, seed=4, match=False)
    game.apply(game.legal_actions()[0])  # the draw: then melds and discards to choose from
    view = seat_view(game, game.turn or 0, full=True)
    obs = bot.encoder.encode(view)
    with torch.no_grad():
        q = agent._q_network(torch.from_numpy(obs)[None])[0].numpy()
    assert np.allclose(bot.model.logits(obs), q, atol=0.02)
    legal = np.flatnonzero(MeldEntry().mask(view.legal))
    assert len(legal) > 1
    action, _ = agent._act_epsilon_greedy(obs.tolist(), legal.tolist(), 0.0)
    entry = MeldEntry()
    assert entry.step(int(action), view.legal) == bot.choose(view, view.legal)
