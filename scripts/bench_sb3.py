"""MaskablePPO's training speed on one core: the factored actions beside Discrete(19868).

For ``aberto`` (``--players 4 2``: each count in turn) against ``random`` bots, prints the
median of ``--rounds`` timed PPO iterations of each case, after one warm-up iteration (the
cases take turns iteration by iteration, so a change in the machine's load touches them
alike). An iteration is what ``learn`` does for one rollout: ``n_envs × n_steps`` env steps
collected with the policy, then the update (10 epochs of minibatches, SB3's default). The
figure is env steps per second of the whole iteration, by the process's CPU time (one
thread on one core: the time it ran, whatever else shares the core) and, beside it, by the
wall clock (the same on an idle core). ``sb3-contrib``'s ``MaskablePPO``
with ``"MlpPolicy"`` and its default network (two layers of 64 for the policy and for the
value), environments made by ``make_vec_env`` (``DummyVecEnv``, ``Monitor``), PyTorch on one
thread. The cases:

- ``factored``: ``buraco/AbertoFactored-v0`` (:mod:`buraco.rl.factored`: ``Discrete(243)``,
  1,382 numbers of observation) with the settings ``docs/research.md`` gives: 16 envs,
  ``n_steps=128``, ``batch_size=512``;
- ``factored, SB3 defaults``: the same env with SB3's defaults: 1 env, ``n_steps=2048``,
  ``batch_size=64``;
- ``discrete``: ``buraco/Aberto-v0`` (``Discrete(19868)``, 9,316 numbers) with the settings
  of ``factored``;
- ``discrete, SB3 defaults`` (unless ``--no-discrete-defaults``: an iteration takes about
  a minute);
- ``no-op env`` and ``no-op env, SB3 defaults``: an environment that does nothing, with the
  spaces of ``factored`` (episodes of 75 steps, 5 tokens allowed): what SB3 and PyTorch
  cost by themselves.

Then, for scale, each env alone: random allowed actions, env steps per second (``env``).

Usage: ``python scripts/bench_sb3.py [--players 4 2] [--rounds 3] [--no-discrete-defaults]``
(``taskset -c 0`` or not: the script pins itself to one core). Needs the ``sb3`` extra.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

import buraco.rl.gymnasium  # noqa: F401 - registers the environments
from buraco.rl.factored import COMPACT_SIZE, N_TOKENS


class NoOpEnv(gymnasium.Env[np.ndarray[Any, Any], np.int64]):
    """An environment that does nothing, with the factored env's spaces."""

    def __init__(self, **_: Any) -> None:
        self.observation_space = gymnasium.spaces.Box(-1e4, 1e4, (COMPACT_SIZE,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(N_TOKENS)
        self.obs = np.zeros(COMPACT_SIZE, dtype=np.float32)
        self.mask = np.zeros(N_TOKENS, dtype=bool)
        self.mask[:5] = True
        self.t = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        """Start an episode."""
        super().reset(seed=seed)
        self.t = 0
        return self.obs, {}

    def step(self, action: Any) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        """One step of nothing."""
        self.t += 1
        return self.obs, 0.0, self.t >= 75, False, {}

    def action_masks(self) -> np.ndarray[Any, Any]:
        """Five tokens allowed."""
        return self.mask


@dataclass
class Case:
    """One measured configuration."""

    name: str
    env_id: str
    n_envs: int
    n_steps: int
    batch_size: int

    @property
    def per_iteration(self) -> int:
        """Env steps of one iteration."""
        return self.n_envs * self.n_steps


def cases(discrete_defaults: bool) -> list[Case]:
    """The configurations, in the order they are printed."""
    out = [
        Case("factored", "buraco/AbertoFactored-v0", 16, 128, 512),
        Case("factored, SB3 defaults", "buraco/AbertoFactored-v0", 1, 2048, 64),
        Case("discrete", "buraco/Aberto-v0", 16, 128, 512),
    ]
    if discrete_defaults:
        out.append(Case("discrete, SB3 defaults", "buraco/Aberto-v0", 1, 2048, 64))
    out.append(Case("no-op env", "noop", 16, 128, 512))
    out.append(Case("no-op env, SB3 defaults", "noop", 1, 2048, 64))
    return out


def build(case: Case, players: int, seed: int) -> MaskablePPO:
    """The model of a case, with its environments."""
    vec = make_vec_env(
        NoOpEnv if case.env_id == "noop" else case.env_id,
        n_envs=case.n_envs,
        seed=seed,
        env_kwargs={"players": players, "opponents": "random"},
    )
    return MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=case.n_steps,
        batch_size=case.batch_size,
        seed=seed,
        device="cpu",
    )


def iteration(model: MaskablePPO, case: Case, first: bool) -> tuple[float, float]:
    """Time one PPO iteration (rollout and update); env steps per CPU second and wall second."""
    cpu, wall = time.process_time(), time.perf_counter()
    model.learn(case.per_iteration, reset_num_timesteps=first)
    n = case.per_iteration
    return n / (time.process_time() - cpu), n / (time.perf_counter() - wall)


def env_alone(env_id: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    """Env steps per CPU second and wall second of random allowed actions (``action_masks()``)."""
    e: Any = gymnasium.make(env_id, players=players, opponents="random").unwrapped
    rng = np.random.default_rng(seed)
    steps = 0
    cpu, start = time.process_time(), time.perf_counter()
    e.reset(seed=seed)
    while time.process_time() - cpu < seconds:
        _, _, done, _, _ = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
        steps += 1
        if done:
            e.reset(seed=int(rng.integers(2**31)))
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - start)


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 2], choices=[2, 4])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-discrete-defaults", action="store_true")
    args = parser.parse_args()
    pinned = False
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
            pinned = True
        except OSError:
            pass
    torch.set_num_threads(1)
    print(
        f"# CPython {platform.python_version()}, torch {torch.__version__}, "
        f"{platform.machine()}, pinned to one core: {pinned}; aberto against random bots; "
        f"median of {args.rounds} PPO iterations after one warm-up"
    )
    for players in args.players:
        todo = cases(not args.no_discrete_defaults)
        models = [build(c, players, args.seed) for c in todo]
        runs: list[list[tuple[float, float]]] = [[] for _ in todo]
        for r in range(args.rounds + 1):
            for i, (case, model) in enumerate(zip(todo, models, strict=True)):
                speed = iteration(model, case, first=r == 0)
                if r:
                    runs[i].append(speed)
        print(f"\n## {players} players\n")
        print(
            "| case | envs | n_steps | batch | env steps/s, CPU clock (median) "
            "| rounds, CPU clock | wall clock (median) |"
        )
        print("|---|---|---|---|---|---|---|")
        rows: list[tuple[str, int, str, str, list[tuple[float, float]]]] = [
            (c.name, c.n_envs, str(c.n_steps), str(c.batch_size), r)
            for c, r in zip(todo, runs, strict=True)
        ]
        for env_id in ("buraco/AbertoFactored-v0", "buraco/Aberto-v0"):
            alone = [env_alone(env_id, players, 2.0, args.seed + k) for k in range(args.rounds)]
            rows.append((f"`{env_id}` alone, random allowed actions", 1, "", "", alone))
        for name, envs, n_steps, batch, speeds in rows:
            cpu = [s for s, _ in speeds]
            print(
                f"| {name} | {envs} | {n_steps} | {batch} | {statistics.median(cpu):,.0f} "
                f"| {', '.join(f'{s:,.0f}' for s in cpu)} "
                f"| {statistics.median(w for _, w in speeds):,.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
