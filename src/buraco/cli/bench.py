"""``buraco bench``: throughput on one core (random and greedy play, bots, the batched env)."""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import time
from typing import TYPE_CHECKING, Annotated, Any

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
    parse_options,
    printable,
    say,
    user_errors,
)
from buraco.compiled import compiled_modules
from buraco.game import Game
from buraco.rules import Rules

if TYPE_CHECKING:
    import numpy as np

    from buraco.rl.vector import BuracoBatch


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
    batched: Annotated[
        int,
        typer.Option(
            help="also time the batched environment (buraco.rl.vector) with this many games, "
            "every seat an agent, observations and masks in index form (0: not)",
        ),
    ] = 64,
    review: Annotated[
        int,
        typer.Option(
            help="also time buraco review of seat 0's whole hand, in the default and the quick "
            "mode, on this many hands of expert bots (0: not)",
        ),
    ] = 0,
) -> None:
    """Measure random-play actions and hands per second, and greedy-play hands per second.

    Runs on one core (the process is pinned when the system allows it). Random
    play enumerates the legal actions at every step and picks one uniformly;
    greedy play goes through the bot interface (a view per decision). Each
    measure runs --rounds timed rounds after one warm-up round and reports the
    median. With --bot, the bot plays every seat and its decisions are timed
    (``choose`` alone, the engine left out): decisions per second and the median
    time of one. With --batched N (64 unless 0), the batched environment steps N
    games with random legal indexes and produces every step's observations and masks:
    agent steps per second (it needs the rl extra: pip install 'buraco[rl]'). With
    --review N, N hands of ``expert`` in every seat are recorded and seat 0's whole hand
    reviewed in each mode: seconds per hand and per decision (the budget: 60 s a hand by
    default, 10 s quick).
    """
    with user_errors():
        check_range("--seconds", seconds, 0.01, 600)
        check_range("--rounds", rounds, 1, 100)
        check_range("--batched", batched, 0, 4096)
        check_range("--review", review, 0, 100)
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
            "compiled": compiled_modules(),
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
        if batched:
            figures["batched"] = _batched_figures(r, option, batched, seconds, rounds)
        if review:
            figures["review"] = _review_figures(r, review)
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


def _batched_figures(
    rules: Rules, option: list[str] | None, n: int, seconds: float, rounds: int
) -> dict[str, Any]:
    """Agent steps per second of ``n`` batched games (or why they were not timed)."""
    try:
        import numpy as np

        from buraco.rl.vector import BuracoBatch
    except ImportError:
        return {"games": n, "skipped": "needs the rl extra: pip install 'buraco[rl]'"}
    opts = parse_options(option)
    opts.pop("players", None)
    batch = BuracoBatch(n, rules.preset, rules.players, **opts)
    batch.reset(seed=n)
    rng = np.random.default_rng(n)
    steps = [_batched_round(batch, rng, seconds) for _ in range(rounds + 1)][1:]
    return {
        "games": n,
        "form": "index",
        "agent_steps_per_second": statistics.median(steps),
        "rounds": [{"agent_steps_per_second": x} for x in steps],
    }


def _batched_round(batch: BuracoBatch, rng: np.random.Generator, seconds: float) -> float:
    """Random legal indexes for every game, observations and masks after each step."""
    from buraco.rl.vector import random_actions

    steps = 0
    start = time.perf_counter()
    while True:
        chosen = random_actions(batch.legal_actions(), rng)
        _, ended, _ = batch.step(chosen)
        batch.observations("index")
        steps += batch.num_games
        if ended.any():
            batch.reset(None, ended)  # a reset is not a step
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def _review_figures(rules: Rules, hands: int) -> dict[str, Any]:
    """Seconds to review seat 0's whole hand, per mode, over ``hands`` hands of expert bots."""
    from buraco.review import ReviewOptions, review_seat

    records = []
    for h in range(hands):
        game = Game(rules, seed=1000 + h, match=False)
        play_hand(game, [make_bot("expert", seed=h * 10 + s) for s in range(rules.players)])
        records.append(game.record())
    out: dict[str, Any] = {"hands": hands, "bots": "expert"}
    for mode in ("default", "quick"):
        seconds, decisions = [], 0
        for record in records:
            start = time.process_time()
            done = review_seat(record, 0, 1, ReviewOptions.of_mode(mode))
            seconds.append(time.process_time() - start)
            decisions += done.summary.decisions
        out[mode] = {
            "median_seconds_per_hand": statistics.median(seconds),
            "max_seconds_per_hand": max(seconds),
            "decisions_per_hand": decisions / hands,
            "ms_per_decision": 1000 * sum(seconds) / max(decisions, 1),
        }
    return out


def _print(f: dict[str, Any]) -> None:
    core = "one core (pinned)" if f["pinned_to_one_core"] else "one process"
    built = f["compiled"]
    say(
        (f["preset"], "bold"),
        f", {f['players']} players — Python {f['python']} on "
        f"{f['machine']}, {core}; median of {f['rounds']} rounds of "
        f"{f['seconds_per_round']:g} s after a warm-up round; "
        + (f"compiled with mypyc: {', '.join(built)}" if built else "no module compiled"),
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
    b = f.get("batched")
    if b and "skipped" in b:
        table.add_row(f"batched env, {b['games']} games", b["skipped"], "", "")
    elif b:
        values = [r["agent_steps_per_second"] for r in b["rounds"]]
        table.add_row(
            f"batched env, {b['games']} games: agent steps/s",
            f"{b['agent_steps_per_second']:,.0f}",
            f"{min(values):,.0f}",
            f"{max(values):,.0f}",
        )
    rv = f.get("review")
    if rv:
        for mode in ("default", "quick"):
            m = rv[mode]
            table.add_row(
                f"review of a hand ({mode}, {m['decisions_per_hand']:.0f} decisions): s, CPU",
                f"{m['median_seconds_per_hand']:.1f}",
                "",
                f"{m['max_seconds_per_hand']:.1f}",
            )
    console.print(table)
