"""Steps per second of the learning environments on one core, beside the engine's own speed.

Prints, per preset and player count, the median of ``--rounds`` timed rounds (after one
warm-up round; the three measures take turns round by round) of:

- ``engine``: random play on the bare engine (``legal_actions`` and ``apply``, as
  ``buraco bench`` measures it), in engine actions per second;
- ``pettingzoo``: the wrapped PettingZoo env (``buraco.rl.pettingzoo.env``) played with random
  masked indexes through ``agent_iter``/``last``/``step``, in env steps per second (a meld
  is one step per card plus one), and the engine actions those steps made;
- ``gymnasium``: ``buraco/<Preset>-v0`` against ``random`` bots, random masked indexes, in
  agent steps per second.

With ``--openspiel``, instead, beside the engine's figure (needs the ``openspiel`` extra):

- ``openspiel``: ``python_buraco`` (:mod:`buraco.rl.openspiel`) played from its initial state
  with random legal indexes and random chance outcomes by their probabilities; at each
  player node ``legal_actions``, ``information_state_tensor`` of the player to move and
  ``apply_action``; at each chance node ``chance_outcomes`` and ``apply_action``. In player
  steps per second (the time of the chance nodes included) and chance steps per second.

Usage: ``python scripts/rl_speed.py [--preset aberto --players 4] [--seconds 2 --rounds 3]
[--openspiel]`` (without ``--preset``: every preset and player count). Needs the ``rl``
extra.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import gymnasium
import numpy as np

import buraco.rl.gymnasium
from buraco.game import Game
from buraco.rl.encoding import MELD_CARD, MELD_END
from buraco.rl.pettingzoo import env as pz_env
from buraco.rules import PRESETS


def engine_round(preset: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    """Engine actions per second of random play (and the same figure: no env steps)."""
    rng = np.random.default_rng(seed)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = Game(preset, players=players, seed=int(rng.integers(2**31)), match=False)
        while not g.is_hand_over():
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
            actions += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, actions / elapsed


def pettingzoo_round(preset: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    """Env steps and engine actions per second of the wrapped PettingZoo env."""
    e = pz_env(preset, players=players)
    rng = np.random.default_rng(seed)
    steps = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset(seed=int(rng.integers(2**31)))
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            index = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            e.step(index)
            steps += 1
            actions += not MELD_CARD <= index < MELD_END
    elapsed = time.perf_counter() - start
    return steps / elapsed, actions / elapsed


def gymnasium_round(preset: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    """Agent steps per second of the Gymnasium env against random bots."""
    e = gymnasium.make(buraco.rl.gymnasium.ENV_IDS[preset], players=players, opponents="random")
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, info = e.reset(seed=int(rng.integers(2**31)))
        done = False
        while not done:
            index = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, done, _, info = e.step(index)
            steps += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, steps / elapsed


def openspiel_round(preset: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    """Player steps and chance steps per second of the OpenSpiel game (see the docstring)."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    import buraco.rl.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game(f"python_buraco(preset={preset},players={players})")
    rng = np.random.default_rng(seed)
    steps = chance = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=np.array(probs))))
                chance += 1
                continue
            legal = state.legal_actions()
            state.information_state_tensor(state.current_player())
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, chance / elapsed


def measure_openspiel(
    preset: str, players: int, seconds: float, rounds: int
) -> tuple[float, float, float]:
    """Medians of engine actions/s, OpenSpiel player steps/s and chance steps/s (in turns)."""
    runs: list[tuple[float, float, float]] = []
    for i in range(rounds + 1):
        engine, _ = engine_round(preset, players, seconds, i)
        steps, chance = openspiel_round(preset, players, seconds, i)
        if i:
            runs.append((engine, steps, chance))
    e, s, c = (statistics.median(r[j] for r in runs) for j in range(3))
    return e, s, c


def measure_case(
    preset: str, players: int, seconds: float, rounds: int
) -> tuple[float, float, float, float]:
    """Medians of engine actions/s, PettingZoo steps/s and actions/s, Gymnasium steps/s.

    The three measures take turns round by round (after one warm-up round of each), so a
    change in the machine's load touches them alike.
    """
    runs: list[tuple[float, float, float, float]] = []
    for i in range(rounds + 1):
        engine, _ = engine_round(preset, players, seconds, i)
        pz_steps, pz_actions = pettingzoo_round(preset, players, seconds, i)
        gym_steps, _ = gymnasium_round(preset, players, seconds, i)
        if i:
            runs.append((engine, pz_steps, pz_actions, gym_steps))
    e, ps, pa, gs = (statistics.median(r[j] for r in runs) for j in range(4))
    return e, ps, pa, gs


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=list(PRESETS))
    parser.add_argument("--players", type=int)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--openspiel", action="store_true", help="measure the OpenSpiel game instead"
    )
    args = parser.parse_args()
    pinned = False
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # as buraco bench
            pinned = True
        except OSError:
            pass
    print(
        f"# CPython {platform.python_version()}, {platform.machine()}, pinned to one core: "
        f"{pinned}; median of {args.rounds} rounds of {args.seconds} s"
    )
    cases = [
        (p, n)
        for p, spec in PRESETS.items()
        for n in spec.players
        if (args.preset is None or p == args.preset) and (args.players is None or n == args.players)
    ]
    if args.openspiel:
        print(
            "| preset | players | engine: actions/s | OpenSpiel: player steps/s "
            "| OpenSpiel: chance steps/s |"
        )
        print("|---|---|---|---|---|")
        for preset, players in cases:
            engine, steps, chance = measure_openspiel(preset, players, args.seconds, args.rounds)
            print(
                f"| `{preset}` | {players} | {engine:,.0f} | {steps:,.0f} | {chance:,.0f} |",
                flush=True,
            )
        return
    print(
        "| preset | players | engine: actions/s | PettingZoo: steps/s | PettingZoo: actions/s "
        "| PettingZoo / engine actions | Gymnasium vs random: steps/s |"
    )
    print("|---|---|---|---|---|---|---|")
    for preset, players in cases:
        engine, pz_steps, pz_actions, gym_steps = measure_case(
            preset, players, args.seconds, args.rounds
        )
        print(
            f"| `{preset}` | {players} | {engine:,.0f} | {pz_steps:,.0f} | {pz_actions:,.0f} "
            f"| {pz_actions / engine:.0%} | {gym_steps:,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
