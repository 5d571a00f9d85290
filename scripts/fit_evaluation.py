"""Fit the weights of ``buraco.bots.evaluation`` from heuristic self-play.

Prints the ``WEIGHTS`` table to paste into ``src/buraco/bots/evaluation.py``, with
how well each fit predicts held-out hands. Needs numpy::

    .venv/bin/pip install -e '.[fit]'
    .venv/bin/python scripts/fit_evaluation.py --hands 500

Every preset with every player count it is played by; a few minutes on one core
per 500 hands of each.
"""

from __future__ import annotations

import argparse
import statistics

from buraco.bots.evaluation import FEATURES, fit, samples
from buraco.rules import PRESETS


def main() -> None:
    """Fit and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="training hands per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", action="append", help="only these presets (repeatable)")
    args = parser.parse_args()
    unknown = sorted(set(args.preset or ()) - set(PRESETS))
    if unknown:
        parser.error(f"unknown preset {', '.join(unknown)}; choose from {', '.join(PRESETS)}")
    print(f"# weights of {', '.join(FEATURES)}")
    print("WEIGHTS: dict[tuple[str, int], tuple[float, ...]] = {")
    for preset, spec in PRESETS.items():
        if args.preset and preset not in args.preset:
            continue
        for players in spec.players:
            xs, ys = samples(preset, players, args.hands, seed=args.seed, every=2)
            weights = fit(xs, ys)
            tx, ty = samples(preset, players, max(args.hands // 4, 10), seed=args.seed + 1)
            resid = [
                y - sum(w * f for w, f in zip(weights, x, strict=True))
                for x, y in zip(tx, ty, strict=True)
            ]
            mean = statistics.fmean(ty)
            r2 = 1 - sum(e * e for e in resid) / sum((y - mean) ** 2 for y in ty)
            print(f"    ({preset!r}, {players}): {weights!r},  # held-out R² {r2:.2f}")
    print("}")


if __name__ == "__main__":
    main()
