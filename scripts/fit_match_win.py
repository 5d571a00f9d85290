"""Fit the match-win curve of buraco.review.winchance on matches of the heuristic bot.

For every preset and player count asked, plays matches with ``heuristic`` in every seat
and records, at the start of each hand, each side's lead after the hand, the points to
go before it and whether that side won the match; then fits β of
``P(win) = σ(β · d / sqrt(r + c))`` by maximum likelihood (Newton's method) and prints
the table for ``BETAS`` with each fit's sample size and log loss.

    .venv/bin/python scripts/fit_match_win.py --matches 200 aberto:4 fechado:4 italiano:2
"""

from __future__ import annotations

import argparse
import math
import time

from buraco import Game
from buraco.bots import make_bot, play_hand
from buraco.review.winchance import feature
from buraco.rules import make_rules


def rows(preset: str, players: int, matches: int, seed: int) -> list[tuple[float, int]]:
    """(feature, won) for every side at the start of every hand of ``matches`` matches."""
    rules = make_rules(preset, players=players)
    out: list[tuple[float, int]] = []
    for m in range(matches):
        game = Game(rules, seed=seed + m, match=True)
        bots = [make_bot("heuristic", seed=(seed + m) * 10 + s) for s in range(players)]
        starts: list[tuple[list[int], list[int]]] = []
        while True:
            before = list(game.totals)
            play_hand(game, bots)
            lead = [game.results[-1].scores[s].total for s in range(game.k)]
            starts.append((before, lead))
            if game.is_over():
                break
            game.next_hand()
        for before, hand in starts:
            for side in range(game.k):
                best = max(h for i, h in enumerate(hand) if i != side)
                out.append((feature(rules, before, side, hand[side] - best), game.winner == side))
    return out


def sigmoid(z: float) -> float:
    """The logistic function, safe from overflow."""
    return 1 / (1 + math.exp(-max(min(z, 50.0), -50.0)))


def fit(data: list[tuple[float, int]]) -> tuple[float, float]:
    """β by Newton's method (steps of at most 1), and the mean log loss at it."""
    beta = 1.0
    for _ in range(100):
        g = h = 0.0
        for x, y in data:
            p = sigmoid(beta * x)
            g += (y - p) * x
            h += p * (1 - p) * x * x
        if h == 0:
            break
        step = max(min(g / h, 1.0), -1.0)
        beta += step
        if abs(step) < 1e-6:
            break
    loss = 0.0
    for x, y in data:
        p = min(max(sigmoid(beta * x), 1e-12), 1 - 1e-12)
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return beta, loss / len(data)


def main() -> None:
    """Play, fit and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="+", help="preset:players, e.g. aberto:4")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for table in args.tables:
        preset, _, players = table.partition(":")
        start = time.perf_counter()
        data = rows(preset, int(players or 4), args.matches, args.seed)
        beta, loss = fit(data)
        print(
            f'    ("{preset}", {int(players or 4)}): {beta:.3f},  '
            f"# {args.matches} matches, {len(data)} rows, log loss {loss:.3f}, "
            f"{time.perf_counter() - start:.0f} s"
        )


if __name__ == "__main__":
    main()
