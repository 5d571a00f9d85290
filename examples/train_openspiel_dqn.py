"""OpenSpiel's DQN learns Buraco through ``rl_environment``: a baseline for the research docs.

Trains ``open_spiel.python.pytorch.dqn.DQN`` on ``python_buraco`` (``aberto`` for 4 unless
``--preset``/``--players`` say otherwise) as OpenSpiel's own examples do: one agent a
learning seat, stepped through ``rl_environment.Environment`` (every seat's
information-state tensor, 9,316 floats, each step; the flat action space of 19,868
indexes, a new meld entered card by card). The learning seats are one side (seats 0 and
2 of 4, seat 0 of 2); the others are uniformly random agents (``--opponents random``,
as the PPO baseline trains) or DQN agents too (``--opponents self``). The reward is
OpenSpiel's return at the end of the hand (the side's score difference / 1000).

Settings (``docs/research.md`` gives them with the results): a Q-network of one hidden
layer of ``--hidden`` ReLU units (128), Adam at ``--lr`` (1e-4), Huber loss, batches of
``--batch`` (32) from a replay of 10,000 transitions a seat, learning from the
``--learn-after``-th transition (1,000) every 8 of the seat's steps, the target network
updated every 1,000, epsilon from 1 down to 0.05 over the first half of the steps
(linearly), no discount (one hand is one episode).

For each seed of ``--seeds``, before training and after each of ``--chunks`` parts of
``--steps`` (steps of the learning seats), seat 0's agent plays ``--eval-hands`` hands
greedily (no exploration) at both seats of its side against random agents, the same
hands every time: a row with the seed, the learning steps, the CPU seconds of training
so far (evaluations not counted), the win rate and the mean return. ``--save DIR``
writes seat 0's Q-network for the ``learned`` bot (``DIR/<preset><players>_dqn_seed<S>.npz``,
``"actions": "flat"``, ``"activation": "relu"``), which ``buraco arena`` then plays
(``learned:path=FILE``).

Usage: ``python examples/train_openspiel_dqn.py [--seeds 0 1 2] [--steps 100000]
[--chunks 4] [--eval-hands 40] [--opponents random] [--save DIR] [--csv FILE]``.
Needs the ``openspiel`` and ``torch`` extras.
"""

from __future__ import annotations

import argparse
import csv
import random
import time
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found,unused-ignore]
    import torch
    from open_spiel.python import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        rl_agent,
        rl_environment,
    )
    from open_spiel.python.pytorch import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        dqn,
    )
except ImportError as missing:  # say which extra, not a traceback
    raise SystemExit(
        f"this example needs {missing.name or missing}: pip install -e '.[openspiel,torch]'"
    ) from None

import buraco.rl.openspiel  # noqa: F401  (registers python_buraco)
from buraco.bots.learned import save_model

EVAL_SEED = 1_000_000
"""The evaluation hands are dealt by environments seeded from this number on."""


class RandomAgent:
    """A uniformly random choice among the legal indexes, seeded (same hands, same play)."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
        """An action among the legal ones (nothing at the end of the hand)."""
        if time_step.last():
            return None
        legal = time_step.observations["legal_actions"][self.seat]
        return rl_agent.StepOutput(action=self.rng.choice(legal), probs=[])


def make_env(args: argparse.Namespace, seed: int) -> rl_environment.Environment:
    """The ``rl_environment`` of ``python_buraco`` for the preset and players asked."""
    game = pyspiel.load_game(f"python_buraco(preset={args.preset},players={args.players})")
    return rl_environment.Environment(game, seed=seed)


def make_agent(args: argparse.Namespace, seat: int, seed: int, size: int, actions: int) -> Any:
    """A DQN agent for one seat, with the settings of the module docstring."""
    return dqn.DQN(
        seat,
        size,
        actions,
        hidden_layers_sizes=[args.hidden],
        batch_size=args.batch,
        replay_buffer_capacity=10_000,
        learning_rate=args.lr,
        update_target_network_every=1_000,
        learn_every=8,
        discount_factor=1.0,
        min_buffer_size_to_learn=args.learn_after,
        epsilon_start=1.0,
        epsilon_end=0.05,
        epsilon_decay_duration=max(1, args.steps // 2),
        epsilon_decay_schedule_str="linear",
        optimizer_str="adam",
        loss_str="huber",
        seed=seed,
    )


def side_seats(players: int) -> list[int]:
    """The learning side's seats: 0 and every other seat (0 alone for 2 players)."""
    return list(range(0, players, 2))


def play_hand(env: rl_environment.Environment, agents: list[Any], evaluation: bool) -> float:
    """One hand with ``agents`` (one a seat); seat 0's return."""
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        out = agents[seat].step(step, is_evaluation=evaluation)
        step = env.step([out.action])
    for agent in agents:
        agent.step(step, is_evaluation=evaluation)
    return float(step.rewards[0])


def evaluate(args: argparse.Namespace, learner: Any) -> tuple[float, float]:
    """Win rate and mean return of ``learner`` at its side's seats against random agents."""
    returns = []
    for hand in range(args.eval_hands):
        env = make_env(args, EVAL_SEED + hand)
        agents: list[Any] = [RandomAgent(s, EVAL_SEED + hand * 10 + s) for s in range(args.players)]
        for seat in side_seats(args.players):
            agents[seat] = SeatAs(learner, seat)
        returns.append(play_hand(env, agents, evaluation=True))
    r = np.array(returns)
    return float((r > 0).mean()), float(r.mean())


class SeatAs:
    """An agent's greedy play at another seat (its network, asked for that seat's tensor)."""

    def __init__(self, agent: Any, seat: int) -> None:
        self.agent, self.seat = agent, seat

    def step(self, time_step: Any, is_evaluation: bool = True) -> Any:
        """The agent's greedy action for this seat (nothing at the end of the hand)."""
        if time_step.last():
            return None
        obs = time_step.observations
        action, probs = self.agent._act_epsilon_greedy(
            obs["info_state"][self.seat], obs["legal_actions"][self.seat], 0.0
        )
        return rl_agent.StepOutput(action=action, probs=probs)


def export(agent: Any, path: Path, args: argparse.Namespace, seed: int) -> None:
    """Seat 0's Q-network as a ``learned`` model of the flat action space."""
    linears = [m for m in agent._q_network.modules() if isinstance(m, torch.nn.Linear)]
    layers = [(m.weight.detach().numpy(), m.bias.detach().numpy()) for m in linears]
    meta = {
        "preset": args.preset,
        "players": args.players,
        "actions": "flat",
        "activation": "relu",
        "observation": "buraco.rl.encoding.ObservationEncoder",
        "trainer": "open_spiel.python.pytorch.dqn (examples/train_openspiel_dqn.py)",
        "seed": seed,
        "steps": args.steps,
        "opponents": args.opponents,
    }
    save_model(path, layers, meta)


def train(args: argparse.Namespace, seed: int, rows: list[dict[str, Any]]) -> None:
    """Train one seed; append its evaluation rows; save seat 0's network if asked."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    env = make_env(args, seed)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    learning = side_seats(args.players) if args.opponents == "random" else range(args.players)
    agents: list[Any] = [RandomAgent(s, seed * 100 + s) for s in range(args.players)]
    for seat in learning:
        agents[seat] = make_agent(args, seat, seed * 100 + seat, size, actions)
    learner = agents[0]
    chunk = args.steps // args.chunks
    cpu = 0.0

    def row() -> None:
        win, ret = evaluate(args, learner)
        rows.append({"seed": seed, "steps": learner.step_counter, "cpu_s": round(cpu, 1),
                     "win_rate": round(win, 3), "mean_return": round(ret, 4)})  # fmt: skip
        print(",".join(str(v) for v in rows[-1].values()), flush=True)

    row()
    for part in range(1, args.chunks + 1):
        t0 = time.process_time()
        while learner.step_counter < part * chunk:
            play_hand(env, agents, evaluation=False)
        cpu += time.process_time() - t0
        row()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        export(learner, args.save / f"{args.preset}{args.players}_dqn_seed{seed}.npz", args, seed)


def main() -> None:
    """Train each seed; print the rows and each seed's first and last evaluation."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="aberto")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--steps", type=int, default=100_000, help="seat 0's learning steps")
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--eval-hands", type=int, default=40)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--learn-after", type=int, default=1_000, help="transitions first")
    parser.add_argument("--opponents", choices=("random", "self"), default="random")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--csv", type=Path)
    args = parser.parse_args()
    torch.set_num_threads(1)
    rows: list[dict[str, Any]] = []
    print("seed,steps,cpu_s,win_rate,mean_return")
    started = time.perf_counter()
    for seed in args.seeds:
        train(args, seed, rows)
    for seed in args.seeds:
        mine = [r for r in rows if r["seed"] == seed]
        print(f"seed {seed}: win rate vs random {mine[0]['win_rate']:.2f} -> "
              f"{mine[-1]['win_rate']:.2f}, {mine[-1]['cpu_s']:.0f} s of training")  # fmt: skip
    print(f"whole run {time.perf_counter() - started:.0f} s")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
