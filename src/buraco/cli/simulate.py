"""``buraco simulate``: play hands or matches with bots and summarize them."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from buraco.bots import BOTS, make_bot, play_hand, seat_name
from buraco.cli.common import (
    OPTION_HELP,
    PRESET_HELP,
    bot_specs,
    build_rules,
    check_range,
    check_seed,
    console,
    fail,
    output_dir,
    progress_bar,
    say,
    user_errors,
)
from buraco.game import STREAK_NOTE, Game
from buraco.record import save

MAX_GAMES = 1_000_000
"""The most hands or matches one simulation plays."""


def simulate(
    preset: Annotated[str, typer.Option(help=PRESET_HELP)] = "aberto",
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    hands: Annotated[
        int | None, typer.Option(help="independent hands to play (default 10)")
    ] = None,
    matches: Annotated[int, typer.Option(help="play this many full matches instead")] = 0,
    bot: Annotated[
        str | None,
        typer.Option(help="bot for every seat (greedy if not given): " + ", ".join(BOTS)),
    ] = None,
    bots: Annotated[str | None, typer.Option(help="one bot per seat, comma-separated")] = None,
    seed: Annotated[int, typer.Option(help="seed of the first game (then seed+1, ...)")] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    records: Annotated[Path | None, typer.Option(help="write each game record here")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
) -> None:
    """Play hands (or matches) with bots and print how they went."""
    with user_errors():
        if hands is not None and matches:
            fail("give --hands or --matches, not both")
        check_range("--hands", 10 if hands is None else hands, 1, MAX_GAMES)
        check_range("--matches", matches, 0, MAX_GAMES)
        games = matches or (10 if hands is None else hands)
        check_seed("--seed", seed, games)
        r = build_rules(preset, players, option)
        if bots is not None and bot is not None:
            fail("give --bot (one bot for every seat) or --bots (one per seat), not both")
        if bots is not None:
            names = bot_specs("--bots", bots, r.players)
        else:
            names = bot_specs("--bot", "greedy" if bot is None else bot) * r.players
            if len(names) != r.players:
                fail("--bot names one bot for every seat; give one per seat with --bots")
        if records is not None:
            output_dir("--records", records)
        stats = _Stats(r.sides)
        with progress_bar(json_out) as progress:
            task = progress.add_task("matches" if matches else "hands", total=games)
            for i in range(games):
                game = Game(
                    r,
                    seed=seed + i,
                    match=bool(matches),
                    names=[seat_name(n, s) for s, n in enumerate(names)],
                )
                seat_bots = [make_bot(n, seed=(seed + i) * 100 + s) for s, n in enumerate(names)]
                actions = play_hand(game, seat_bots)
                while not game.is_over():
                    game.next_hand()
                    actions += play_hand(game, seat_bots)
                stats.add(game, actions)
                if records is not None:
                    save(game, records / f"game-{seed + i:06d}.json")
                progress.advance(task)
        summary = stats.summary(r.preset, r.players, names, seed, bool(matches))
        if json_out:
            console.print_json(json.dumps(summary))
        else:
            _print(summary)


class _Stats:
    def __init__(self, sides: int) -> None:
        self.sides = sides
        self.ended: Counter[str] = Counter()
        self.scores: list[list[int]] = [[] for _ in range(sides)]
        self.canastras: Counter[str] = Counter()
        self.actions: list[int] = []
        self.hands = 0
        self.wins: Counter[int] = Counter()
        self.match_hands: list[int] = []
        self.games = 0
        self.hand_actions: list[int] = []
        self.streak_hands = 0

    def add(self, game: Game, actions: int) -> None:
        self.games += 1
        self.actions.append(actions)
        for events in game.hand_events:
            self.hand_actions.append(sum(1 for e in events if e.action is not None))
            if any(e.note.startswith(STREAK_NOTE) for e in events):
                self.streak_hands += 1
        for res in game.results:
            self.hands += 1
            self.ended[res.ended_by] += 1
            for sc in res.scores:
                self.scores[sc.side].append(sc.total)
                self.canastras.update(sc.canastras)
        if game.match:
            self.match_hands.append(len(game.results))
            if game.winner is not None:
                self.wins[game.winner] += 1

    def summary(
        self, preset: str, players: int, bots: list[str], seed: int, matches: bool
    ) -> dict[str, Any]:
        out: dict[str, Any] = {
            "preset": preset,
            "players": players,
            "bots": bots,
            "seed": seed,
            "games": self.games,
            "hands": self.hands,
            "ended_by": dict(self.ended),
            "going_out_rate": self.ended["going-out"] / self.hands if self.hands else 0.0,
            "mean_score": [statistics.fmean(s) if s else 0.0 for s in self.scores],
            "canastras_per_hand": {k: v / self.hands for k, v in sorted(self.canastras.items())},
            "mean_actions_per_game": statistics.fmean(self.actions),
            "median_actions_per_hand": statistics.median(self.hand_actions),
            "streak_limit_hands": self.streak_hands,
        }
        if matches:
            out["wins"] = [self.wins[s] for s in range(self.sides)]
            out["mean_hands_per_match"] = statistics.fmean(self.match_hands)
        return out


def _print(s: dict[str, Any]) -> None:
    what = f"{s['games']} matches ({s['hands']} hands)" if "wins" in s else f"{s['hands']} hands"
    say(
        (s["preset"], "bold"),
        f", {s['players']} players, bots "
        f"{', '.join(s['bots'])}: {what}, seeds {s['seed']}–{s['seed'] + s['games'] - 1}",
    )
    table = Table(show_header=True)
    table.add_column("how hands ended")
    table.add_column("hands", justify="right")
    table.add_column("share", justify="right")
    for how, n in sorted(s["ended_by"].items()):
        table.add_row(how, str(n), f"{n / s['hands']:.0%}")
    console.print(table)
    sides = Table(show_header=True)
    sides.add_column("side")
    sides.add_column("mean hand score", justify="right")
    if "wins" in s:
        sides.add_column("matches won", justify="right")
    for side, mean in enumerate(s["mean_score"]):
        row = [str(side), f"{mean:.1f}"]
        if "wins" in s:
            row.append(str(s["wins"][side]))
        sides.add_row(*row)
    console.print(sides)
    kinds = ", ".join(f"{k} {v:.2f}" for k, v in s["canastras_per_hand"].items()) or "none"
    console.print(f"canastras per hand: {kinds}")
    console.print(
        f"going-out rate: {s['going_out_rate']:.0%}; mean actions per game: "
        f"{s['mean_actions_per_game']:.0f}; median actions per hand: "
        f"{s['median_actions_per_hand']:g}"
    )
    if s["streak_limit_hands"]:
        console.print(
            f"hands where pile_streak_limit forced a draw from the stock: {s['streak_limit_hands']}"
        )
    if "wins" in s:
        console.print(f"mean hands per match: {s['mean_hands_per_match']:.1f}")
