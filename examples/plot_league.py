"""Plot the curves of several ``train_league.py`` seeds: each seed, their mean and spread.

Reads the CSV files ``train_league.py --csv`` wrote (one per seed; rows: seed, steps,
cpu_seconds, win_vs_heuristic, reward) and draws the win rate against ``heuristic`` by
training steps: a thin line per seed, the mean across seeds thick, the band from the lowest
to the highest seed. Prints the table of the mean and spread at each step count.

Usage: ``python examples/plot_league.py seed0.csv seed1.csv ... --png curve.png``.
Needs matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as missing:  # say which extra, not a traceback
    raise SystemExit(
        f"this example needs {missing.name or missing}: pip install -e '.[plot]'"
    ) from None


def main() -> None:
    """Read the curves, print the table, draw the plot."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("csv", type=Path, nargs="+", help="one curve per seed")
    parser.add_argument("--png", type=Path, required=True)
    args = parser.parse_args()
    curves: dict[int, dict[int, float]] = {}
    for path in args.csv:
        with path.open() as f:
            for row in csv.DictReader(f):
                curve = curves.setdefault(int(row["seed"]), {})
                curve[int(row["steps"])] = float(row["win_vs_heuristic"])
    if not curves:
        parser.error("the CSV files hold no rows")
    common = sorted(set.intersection(*(set(c) for c in curves.values())))
    if not common:
        parser.error("the curves share no step count")
    print("| steps | mean win rate vs heuristic | lowest seed | highest seed |")
    print("|---|---|---|---|")
    means, lows, highs = [], [], []
    for step in common:
        values = [c[step] for c in curves.values()]
        means.append(sum(values) / len(values))
        lows.append(min(values))
        highs.append(max(values))
        print(f"| {step:,} | {means[-1]:.3f} | {lows[-1]:.2f} | {highs[-1]:.2f} |")
    fig, ax = plt.subplots(figsize=(7, 4))
    for seed, curve in sorted(curves.items()):
        steps = sorted(curve)
        ax.plot(steps, [curve[s] for s in steps], linewidth=0.8, alpha=0.6, label=f"seed {seed}")
    ax.fill_between(common, lows, highs, alpha=0.15, color="black")
    ax.plot(common, means, color="black", linewidth=2, label="mean")
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("training steps (after imitation)")
    ax.set_ylabel("hands won against heuristic")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)


if __name__ == "__main__":
    main()
