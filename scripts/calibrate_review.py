"""Calibrate buraco review: the points each bot loses per decision, and what blunders cost.

For each bot named, plays hands with that bot at seat 0 and ``heuristic`` in the other
seats, reviews seat 0's whole hand (quick mode unless ``--mode default``) and reports the
mean expected points lost per decision with a 95% bootstrap interval over hands (the
decisions of a hand are not independent, so hands are resampled). Then the paired check
of blunders: every decision graded blunder is weighed again from its position with fresh
seeds, full playouts to the hand's end (depth 0) and ``--check-rounds`` deals, and the
loss re-measured there is set beside the graded one.

    .venv/bin/python scripts/calibrate_review.py --hands 30 random greedy heuristic mcts expert

Prints a Markdown table; ``--json FILE`` writes every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from buraco import Game
from buraco.bots import make_bot, play_hand
from buraco.bots.playout import PLAYOUT_BOTS
from buraco.determinize import rules_of
from buraco.review import ReviewOptions, review_seat
from buraco.review.rollout import value_for
from buraco.review.search import paired, weigh
from buraco.review.steps import positions


def bootstrap(hands: list[list[float]], rng: random.Random, n: int = 2000) -> tuple[float, float]:
    """A 95% interval of the mean loss per decision, resampling hands."""
    means = []
    for _ in range(n):
        pick = [hands[rng.randrange(len(hands))] for _ in hands]
        total = sum(len(h) for h in pick)
        means.append(sum(sum(h) for h in pick) / max(total, 1))
    means.sort()
    return means[int(0.025 * n)], means[int(0.975 * n) - 1]


def recheck(
    record: dict[str, Any], index: int, played: list[str], best: list[str], rounds: int
) -> float:
    """The best step's lead over the played one, measured again with full playouts."""
    position = next(p for p in positions(record, 0, 0) if p.index == index)
    view = position.view
    options = ReviewOptions(seed=99, depth=0, min_rounds=rounds, max_rounds=rounds, width=3)
    rng = random.Random(f"recheck:{index}")
    policy = PLAYOUT_BOTS[options.policy](seed=1)
    bots = [PLAYOUT_BOTS[options.policy](seed=s) for s in range(len(view.names))]
    w = weigh(view, position.played, options, rng, policy, bots, value_for(rules_of(view)))
    played_t = w.tallies[0]
    target = next((t for t in w.tallies if [str(a) for a in t.candidate.step] == best), None)
    if target is None:
        return float("nan")
    m, _, _ = paired(target, played_t)
    return m


def main() -> None:
    """Play, review, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="+")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--preset", default="aberto")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--mode", default="quick")
    parser.add_argument("--check-rounds", type=int, default=30)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rng = random.Random(0)
    out: dict[str, Any] = {"preset": args.preset, "players": args.players, "mode": args.mode}
    rows = []
    blunders: list[dict[str, Any]] = []
    for spec in args.bots:
        start = time.process_time()
        losses: list[list[float]] = []
        grades: dict[str, int] = {}
        for h in range(args.hands):
            game = Game(args.preset, players=args.players, seed=5000 + h, match=False)
            seats = [make_bot(spec, seed=h)] + [
                make_bot("heuristic", seed=h * 10 + s) for s in range(1, args.players)
            ]
            play_hand(game, seats)
            record = game.record()
            review = review_seat(record, 0, 1, ReviewOptions.of_mode(args.mode, seed=h))
            losses.append([d.loss for d in review.decisions])
            for d in review.decisions:
                grades[d.grade] = grades.get(d.grade, 0) + 1
                if d.grade == "blunder" and len(blunders) < 200:
                    blunders.append(
                        {
                            "bot": spec,
                            "record": record,
                            "index": d.index,
                            "loss": d.loss,
                            "played": d.played,
                            "best": d.best,
                        }
                    )
        n = sum(len(x) for x in losses)
        mean = sum(sum(x) for x in losses) / max(n, 1)
        low, high = bootstrap(losses, rng)
        cost = time.process_time() - start
        rows.append(
            {
                "bot": spec,
                "hands": args.hands,
                "decisions": n,
                "mean_loss": mean,
                "ci95": [low, high],
                "grades": grades,
                "cpu_seconds": cost,
            }
        )
        print(
            f"| {spec} | {args.hands} | {n} | {mean:.1f} | {low:.1f} – {high:.1f} | "
            f"{grades.get('blunder', 0)} | {cost:.0f} s |",
            flush=True,
        )
    out["bots"] = rows
    checked = []
    for b in blunders[: args.hands]:
        again = recheck(b["record"], b["index"], b["played"], b["best"], args.check_rounds)
        checked.append({"bot": b["bot"], "graded": b["loss"], "again": again})
    if checked:
        graded = statistics.mean(c["graded"] for c in checked)
        again = statistics.mean(c["again"] for c in checked if c["again"] == c["again"])
        print(
            f"blunders re-measured: {len(checked)}, graded loss {graded:.0f}, "
            f"full playouts {again:.0f}"
        )
    out["blunders"] = checked
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
