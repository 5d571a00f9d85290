"""``buraco bench``: engine throughput on one core (random and greedy play)."""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import time
from typing import Annotated, Any

import typer
from rich.table import Table

from buraco.bots import GreedyBot, make_bot, play_hand
from buraco.cli.common import (
    OPTION_HELP,
    PRESET_HELP,
    bot_specs,
    build_rules,
    check_range,
    console,
    fail,
    printable,
    say,
    user_errors,
)
from buraco.game import Game
from buraco.rules import Rules


def bench(
    preset: Annotated[str, typer.Option(help=PRESET_HELP)] = "aberto",
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seconds: Annotated[float, typer.Option(help="length of each timed round")] = 1.0,
    rounds: Annotated[int, typer.Option(help="timed rounds per measure (median reported)")] = 5,
    json_out: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            help="also time this bot's decisions, the bot in every seat (repeatable), "
            "e.g. --bot heuristic --bot mcts",
        ),
    ] = None,
) -> None:
    """Measure random-play actions and hands per second, and greedy-play hands per second.

    Runs on one core (the process is pinned when the system allows it). Random
    play enumerates the legal actions at every step and picks one uniformly;
    greedy play goes through the bot interface (a view per decision). Each
    measure runs --rounds timed rounds after one warm-up round and reports the
    median. With --bot, the bot plays every seat and its decisions are timed
    (``choose`` alone, the engine left out): decisions per second and the median
    time of one.
    """
    with user_errors():
        check_range("--seconds", seconds, 0.01, 600)
        check_range("--rounds", rounds, 1, 100)
        r = build_rules(preset, players, option)
        specs = []
        for text in bot or []:
            named = bot_specs("--bot", text)
            if len(named) != 1:
                fail(f"--bot {text!r:.60} names {len(named)} bots: repeat --bot for each")
            specs.append(named[0])
        pinned = _pin_one_core()
        figures: dict[str, Any] = {
            "preset": r.preset,
            "players": r.players,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "pinned_to_one_core": pinned,
            "seconds_per_round": seconds,
            "rounds": rounds,
        }
        rand = [_random_round(r, seconds, 10_000 * i) for i in range(rounds + 1)][1:]
        greedy = [_greedy_round(r, seconds, 10_000 * i) for i in range(rounds + 1)][1:]
        figures["random"] = {
            "actions_per_second": statistics.median(x[0] for x in rand),
            "hands_per_second": statistics.median(x[1] for x in rand),
            "rounds": [{"actions_per_second": a, "hands_per_second": h} for a, h in rand],
        }
        figures["greedy"] = {
            "hands_per_second": statistics.median(x[1] for x in greedy),
            "actions_per_second": statistics.median(x[0] for x in greedy),
            "rounds": [{"actions_per_second": a, "hands_per_second": h} for a, h in greedy],
        }
        for spec in specs:
            timed = [_bot_round(r, spec, seconds, 10_000 * i) for i in range(rounds + 1)][1:]
            figures.setdefault("bots", {})[spec] = {
                "decisions_per_second": statistics.median(x[0] for x in timed),
                "median_decision_ms": statistics.median(x[1] for x in timed) * 1000,
                "rounds": [
                    {"decisions_per_second": d, "median_decision_ms": m * 1000} for d, m in timed
                ],
            }
        if json_out:
            console.print_json(json.dumps(figures))
        else:
            _print(figures)


def _pin_one_core() -> bool:
    if not hasattr(os, "sched_setaffinity"):
        return False
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
    except OSError:
        return False
    return True


def _random_round(rules: Rules, seconds: float, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    actions = hands = 0
    start = time.perf_counter()
    while True:
        game = Game(rules, seed=seed + hands, match=False)
        while not game.is_hand_over():
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            actions += 1
        hands += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return actions / elapsed, hands / elapsed


def _greedy_round(rules: Rules, seconds: float, seed: int) -> tuple[float, float]:
    actions = hands = 0
    start = time.perf_counter()
    while True:
        game = Game(rules, seed=seed + hands, match=False)
        bots = [GreedyBot(seed=seed + hands * 10 + s) for s in range(rules.players)]
        actions += play_hand(game, bots)
        hands += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return actions / elapsed, hands / elapsed


def _bot_round(rules: Rules, spec: str, seconds: float, seed: int) -> tuple[float, float]:
    """Decisions per second of ``choose`` time, and the median decision (seconds)."""
    times: list[float] = []
    start = time.perf_counter()
    hands = 0
    while True:
        game = Game(rules, seed=seed + hands, match=False)
        bots = [make_bot(spec, seed=seed + hands * 10 + s) for s in range(rules.players)]
        play_hand(game, bots, on_choose=lambda _seat, t: times.append(t))
        hands += 1
        if time.perf_counter() - start >= seconds:
            return len(times) / sum(times), statistics.median(times)


def _print(f: dict[str, Any]) -> None:
    core = "one core (pinned)" if f["pinned_to_one_core"] else "one process"
    say(
        (f["preset"], "bold"),
        f", {f['players']} players — Python {f['python']} on "
        f"{f['machine']}, {core}; median of {f['rounds']} rounds of "
        f"{f['seconds_per_round']:g} s after a warm-up round",
    )
    table = Table()
    table.add_column("measure")
    table.add_column("median", justify="right")
    table.add_column("min", justify="right")
    table.add_column("max", justify="right")
    for label, key, field in (
        ("random play: actions/s", "random", "actions_per_second"),
        ("random play: hands/s", "random", "hands_per_second"),
        ("greedy play: hands/s", "greedy", "hands_per_second"),
        ("greedy play: actions/s", "greedy", "actions_per_second"),
    ):
        values = [r[field] for r in f[key]["rounds"]]
        table.add_row(label, f"{f[key][field]:,.0f}", f"{min(values):,.0f}", f"{max(values):,.0f}")
    for spec, figures in f.get("bots", {}).items():
        for label, field, form in (
            ("decisions/s", "decisions_per_second", "{:,.0f}"),
            ("median decision, ms", "median_decision_ms", "{:,.3f}"),
        ):
            values = [r[field] for r in figures["rounds"]]
            table.add_row(
                f"{printable(spec)}: {label}",
                form.format(figures[field]),
                form.format(min(values)),
                form.format(max(values)),
            )
    console.print(table)
