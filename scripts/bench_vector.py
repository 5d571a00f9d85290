"""Agent steps per second of the batched environment on one core, beside the engine's own.

Prints the median of ``--rounds`` timed rounds (after one warm-up round; every measure
takes its turn in each round, so a change in the machine's load touches them alike) of:

- ``engine``: random play on the bare engine (``legal_actions`` and ``apply``, as
  ``buraco bench`` measures it), in engine actions per second: no observation, no mask;
- ``pettingzoo``: the wrapped single-game PettingZoo env (``buraco.rl.pettingzoo.env``) played
  with random masked indexes through ``agent_iter``/``last``/``step``, in env steps per
  second (a meld is one step per card plus one);
- ``batched``: :class:`buraco.rl.vector.BuracoVectorEnv` with ``N`` games, every seat an agent,
  in agent steps per second (the steps after an episode's end, which only reset it, are
  not counted, as Gymnasium's ``benchmark_vector_step`` does), with the observations and
  masks of every step produced in the ``dense`` form (``float32`` ``(N, 9316)`` and
  ``int8`` ``(N, 19868)`` arrays, copied as Gymnasium's vector envs do by default), the
  dense form with ``copy=False`` (the arrays kept between steps), or the ``index`` form
  (:class:`buraco.rl.vector.CSRBatch` of both). The random policy picks from the legal indexes
  (:func:`buraco.rl.vector.random_actions`, vectorised) in every form;
- ``gin_rummy_v4`` (with ``--gin-python``, a Python with ``pettingzoo[classic]<1.25``
  installed): PettingZoo's gin rummy played as ``pettingzoo`` above, in a subprocess on
  the same core.

Each batched figure is also given as a ratio to the engine's actions per second, and the
engine actions the batched env made as a share of the engine's (a step is an engine
action except a meld's card-by-card entry).

Usage: ``python scripts/bench_vector.py [--preset aberto --players 4] [--sizes 1,16,64,256]
[--seconds 2 --rounds 3] [--clock wall|cpu] [--gin-python /path/to/python]
[--opponents random] [--json]``.
Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from typing import Any

import numpy as np

from buraco.game import Game
from buraco.rl.encoding import MELD_CARD, MELD_END
from buraco.rl.pettingzoo import env as pz_env
from buraco.rl.vector import BuracoVectorEnv, CSRBatch, random_actions
from buraco.rules import PRESETS

FORMS = ("dense", "dense-nocopy", "index")

CLOCK = time.perf_counter
"""The clock of the timed rounds: wall time, or the process's CPU time (``--clock cpu``)."""

GIN_SNIPPET = """
import sys, time
import numpy as np
from pettingzoo.classic import gin_rummy_v4
seconds, seed = float(sys.argv[1]), int(sys.argv[2])
clock = time.process_time if sys.argv[3] == "cpu" else time.perf_counter
e = gin_rummy_v4.env()
rng = np.random.default_rng(seed)
steps = 0
start = clock()
while clock() - start < seconds:
    e.reset(seed=int(rng.integers(2**31)))
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
print(steps / (clock() - start))
"""


def engine_round(preset: str, players: int, seconds: float, seed: int) -> float:
    """Engine actions per second of random play."""
    rng = np.random.default_rng(seed)
    actions = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        g = Game(preset, players=players, seed=int(rng.integers(2**31)), match=False)
        while not g.is_hand_over():
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
            actions += 1
    return actions / (CLOCK() - start)


def pettingzoo_round(preset: str, players: int, seconds: float, seed: int) -> float:
    """Env steps per second of the wrapped single-game PettingZoo env."""
    e = pz_env(preset, players=players)
    rng = np.random.default_rng(seed)
    steps = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        e.reset(seed=int(rng.integers(2**31)))
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (CLOCK() - start)


class Batched:
    """One batched env, kept from round to round."""

    def __init__(self, preset: str, players: int, n: int, form: str, opponents: str | None):
        index = form == "index"
        self.env = BuracoVectorEnv(
            n,
            preset,
            players,
            opponents=opponents,
            observation_form="index" if index else "dense",
            mask_form="index" if index else "dense",
            copy=form == "dense",
        )
        self.rng = np.random.default_rng(n)
        _, self.info = self.env.reset(seed=n)
        self.fresh = np.zeros(n, dtype=np.bool_)

    def round(self, seconds: float) -> tuple[float, float]:
        """Agent steps and engine actions per second."""
        env = self.env
        steps = actions = 0
        start = CLOCK()
        while CLOCK() - start < seconds:
            legal = self.info.get("legal_actions")
            if not isinstance(legal, CSRBatch):
                legal = env.batch.legal_actions()
            chosen = random_actions(legal, self.rng)
            _, _, terminated, _, self.info = env.step(chosen)
            counted = ~self.fresh
            steps += int(counted.sum())
            tokens = (chosen >= MELD_CARD) & (chosen < MELD_END)
            actions += int((counted & ~tokens).sum())
            self.fresh = terminated
        elapsed = CLOCK() - start
        return steps / elapsed, actions / elapsed


def gin_round(python: str, seconds: float, seed: int, clock: str) -> float:
    """Steps per second of PettingZoo's gin_rummy_v4, in a subprocess (same core)."""
    out = subprocess.run(
        [python, "-c", GIN_SNIPPET, str(seconds), str(seed), clock],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--preset", choices=list(PRESETS), default="aberto")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sizes", default="1,16,64,256", help="numbers of games, with commas")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--opponents", help="a bot spec: one seat learns, bots play the rest")
    parser.add_argument("--gin-python", help="a Python with pettingzoo[classic]<1.25")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time the rounds by the wall clock, or by the process's CPU time (which a "
        "busy machine's other processes touch less)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    try:
        sizes = [int(x) for x in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes is numbers of games with commas (e.g. 1,16,64), not {args.sizes!r}")
    if not sizes or min(sizes) < 1 or args.seconds <= 0 or args.rounds < 1:
        parser.error("--sizes are from 1, --seconds above 0, --rounds from 1")
    pinned = False
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # as buraco bench
            pinned = True
        except OSError:
            pass
    preset, players = args.preset, args.players
    batched = {
        (n, form): Batched(preset, players, n, form, args.opponents)
        for n in sizes
        for form in FORMS
    }
    runs: dict[str, list[float]] = {}
    for i in range(args.rounds + 1):
        measured = {
            "engine": engine_round(preset, players, args.seconds, i),
            "pettingzoo": pettingzoo_round(preset, players, args.seconds, i),
        }
        if args.gin_python:
            measured["gin_rummy_v4"] = gin_round(args.gin_python, args.seconds, i, args.clock)
        for (n, form), b in batched.items():
            steps, actions = b.round(args.seconds)
            measured[f"{form} N={n}"] = steps
            measured[f"{form} N={n} actions"] = actions
        if i:  # the first round warms up
            for key, value in measured.items():
                runs.setdefault(key, []).append(value)
    med = {key: statistics.median(values) for key, values in runs.items()}
    figures: dict[str, Any] = {
        "preset": preset,
        "players": players,
        "opponents": args.opponents,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "pinned_to_one_core": pinned,
        "seconds_per_round": args.seconds,
        "rounds": args.rounds,
        "clock": args.clock,
        "median": med,
        "runs": runs,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"# {preset}, {players} players"
        + (f", one seat against {args.opponents}" if args.opponents else ", every seat an agent")
        + f" — CPython {platform.python_version()}, {platform.machine()}, pinned to one core: "
        f"{pinned}; median of {args.rounds} rounds of {args.seconds:g} s ({args.clock} clock) "
        "after a warm-up round"
    )
    engine = med["engine"]
    print(f"engine alone (random play, no encoding): {engine:,.0f} actions/s")
    print(f"single env (buraco.rl.pettingzoo, wrapped): {med['pettingzoo']:,.0f} steps/s")
    if "gin_rummy_v4" in med:
        print(f"PettingZoo gin_rummy_v4: {med['gin_rummy_v4']:,.0f} steps/s")
    print()
    head = "| N | form | agent steps/s | / engine actions/s | engine actions, share |"
    rule = "|---|---|---|---|---|"
    if "gin_rummy_v4" in med:
        head += " / gin_rummy_v4 |"
        rule += "---|"
    print(head)
    print(rule)
    for n in sizes:
        for form in FORMS:
            steps = med[f"{form} N={n}"]
            actions = med[f"{form} N={n} actions"]
            row = f"| {n} | {form} | {steps:,.0f} | {steps / engine:.2f} | {actions / engine:.0%} |"
            if "gin_rummy_v4" in med:
                row += f" {steps / med['gin_rummy_v4']:.1f} |"
            print(row)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
