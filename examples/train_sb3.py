"""MaskablePPO learns the factored actions: its win rate against bots before and after.

Trains ``sb3-contrib``'s ``MaskablePPO`` (``"MlpPolicy"``, its default network) on
``buraco/AbertoFactored-v0`` (:mod:`buraco.rl.factored`) against ``random`` bots (``--opponents``;
in a game for 4 the partner is one of them), with the settings ``docs/research.md`` gives
(16 envs, ``n_steps=128``, ``batch_size=512``, SB3's defaults otherwise), on one thread.

For each seed of ``--seeds``, the policy plays ``--eval-hands`` evaluation hands before
training and after each of ``--chunks`` equal parts of ``--steps`` env steps: the same
deals (and the same bots' seeds) every time, the policy sampling its tokens (``sampled``)
and taking the most likely token (``greedy``). A row per evaluation: the seed, env steps
trained, seconds of training so far (CPU time of the process: on one thread, the time it
ran, whatever else shares the core; evaluations not counted), and for each way of playing
the win rate (hands whose score difference is above zero) and the mean reward (the hand's
score difference / 1000).
A summary per seed follows (first and last evaluation), and the time of the whole run.

Usage: ``python examples/train_sb3.py [--players 4] [--seeds 0 1 2] [--steps 131072]
[--chunks 4] [--eval-hands 200] [--opponents random] [--csv FILE] [--save DIR]``;
``--save`` writes each seed's model for SB3 (``.zip``) and for the ``learned`` bot (``.npz``).
Needs the ``sb3`` extra.
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
except ImportError as missing:  # say which extra, not a traceback
    raise SystemExit(
        f"this example needs {missing.name or missing}: pip install -e '.[sb3]'"
    ) from None

from buraco.bots.learned import save_model, sb3_layers
from buraco.rl.factored import FactoredEnv
from buraco.rl.gymnasium import FACTORED_IDS

EVAL_SEED = 1_000_000
"""Evaluation hand ``i`` is dealt by ``reset(seed=EVAL_SEED + i)``."""


def evaluate(
    model: MaskablePPO, env_kwargs: dict[str, Any], hands: int, deterministic: bool
) -> tuple[float, float]:
    """Win rate and mean reward over the evaluation hands (16 played side by side)."""
    envs = [FactoredEnv("aberto", **env_kwargs) for _ in range(min(16, hands))]
    todo = list(range(hands))
    obs: list[Any] = [None] * len(envs)
    rewards: list[float] = []
    active = []
    for i, e in enumerate(envs):
        if todo:
            obs[i], _ = e.reset(seed=EVAL_SEED + todo.pop(0))
            active.append(i)
    while active:
        masks = np.stack([envs[i].action_masks() for i in active])
        tokens, _ = model.predict(
            np.stack([obs[i] for i in active]), action_masks=masks, deterministic=deterministic
        )
        still = []
        for i, token in zip(active, tokens, strict=True):
            obs[i], reward, done, _, _ = envs[i].step(int(token))
            if done:
                rewards.append(float(reward))
                if not todo:
                    continue
                obs[i], _ = envs[i].reset(seed=EVAL_SEED + todo.pop(0))
            still.append(i)
        active = still
    r = np.array(rewards)
    return float((r > 0).mean()), float(r.mean())


def main() -> None:
    """Train and evaluate each seed; print the rows and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=[2, 4])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--steps", type=int, default=131_072)
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--eval-hands", type=int, default=200)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--csv", type=Path, help="write the rows to this CSV file")
    parser.add_argument("--save", type=Path, help="save each seed's model in this directory")
    args = parser.parse_args()
    if args.steps < args.chunks or args.chunks < 1 or args.eval_hands < 1:
        parser.error("give --chunks >= 1, --steps >= --chunks and --eval-hands >= 1")
    torch.set_num_threads(1)
    cpu, wall = time.process_time(), time.perf_counter()
    env_kwargs = {"players": args.players, "opponents": args.opponents}
    print(
        f"# aberto for {args.players} against {args.opponents}; {args.eval_hands} evaluation "
        f"hands; pinned to cores {sorted(os.sched_getaffinity(0))}"
    )
    header = [
        "seed",
        "steps",
        "cpu_seconds",
        "win_sampled",
        "reward_sampled",
        "win_greedy",
        "reward_greedy",
    ]
    print(" ".join(f"{h:>14}" for h in header), flush=True)
    rows: list[list[float]] = []
    for seed in args.seeds:
        vec = make_vec_env(FACTORED_IDS["aberto"], n_envs=16, seed=seed, env_kwargs=env_kwargs)
        model = MaskablePPO("MlpPolicy", vec, n_steps=128, batch_size=512, seed=seed)
        trained = 0.0
        for chunk in range(args.chunks + 1):
            if chunk:
                start = time.process_time()
                model.learn(args.steps // args.chunks, reset_num_timesteps=chunk == 1)
                trained += time.process_time() - start
            sampled = evaluate(model, env_kwargs, args.eval_hands, deterministic=False)
            greedy = evaluate(model, env_kwargs, args.eval_hands, deterministic=True)
            row = [seed, model.num_timesteps, round(trained, 1), *sampled, *greedy]
            rows.append(row)
            print(" ".join(f"{v:>14.3f}" if isinstance(v, float) else f"{v:>14}" for v in row))
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            name = f"aberto{args.players}_factored_seed{seed}"
            model.save(args.save / f"{name}.zip")
            meta = {"preset": "aberto", "players": args.players, "seed": seed}
            meta |= {"steps": model.num_timesteps, "opponents": args.opponents}
            save_model(args.save / f"{name}.npz", sb3_layers(model), meta)  # learned:path=
        vec.close()
    print(
        "\n| seed | steps | training CPU s | win rate sampled | win rate greedy "
        "| mean reward greedy |"
    )
    print("|---|---|---|---|---|---|")
    for seed in args.seeds:
        mine = [r for r in rows if r[0] == seed]
        first, last = mine[0], mine[-1]
        print(
            f"| {seed} | {last[1]:,} | {last[2]:.0f} | {first[3]:.2f} → {last[3]:.2f} "
            f"| {first[5]:.2f} → {last[5]:.2f} | {first[6]:+.3f} → {last[6]:+.3f} |"
        )
    print(
        f"\nwhole run, evaluations included: {time.process_time() - cpu:.0f} s of CPU, "
        f"{time.perf_counter() - wall:.0f} s of wall clock"
    )
    if args.csv:
        with args.csv.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(header)
            writer.writerows(rows)


if __name__ == "__main__":
    main()
