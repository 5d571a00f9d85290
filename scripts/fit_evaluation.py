"""Fit the weights of ``buraco.bots.evaluation`` from bot play.

Prints the ``WEIGHTS`` table to paste into ``src/buraco/bots/evaluation.py``, with
how well each fit predicts held-out hands: hands of the same mix of players, and
hands of ``heuristic`` self-play, beside the fit of the shipped weights on the same hands.
Needs numpy::

    .venv/bin/pip install -e '.[fit]'
    .venv/bin/python scripts/fit_evaluation.py --hands 500

Half the training hands are ``heuristic`` self-play; in the other half each side's
players are drawn from ``buraco.bots.evaluation.MIX`` (``heuristic`` and the exploit
bots' plans on top of it: takes of every pile, rushes out, melds held...);
``--mix heuristic`` fits on self-play alone. Every preset with every player
count it is played by; ``--workers`` fits several tables at once.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from buraco.bots.evaluation import FEATURES, MIX, WEIGHTS, fit, r_squared
from buraco.bots.training import samples
from buraco.rules import PRESETS


def fit_table(preset: str, players: int, hands: int, seed: int, mix: tuple[str, ...]) -> str:
    """One line of the table: the weights and their held-out fits."""
    # half the hands heuristic self-play, half the mix
    xs, ys = samples(preset, players, hands // 2, seed=seed, every=2)
    mx, my = samples(preset, players, hands - hands // 2, seed=seed + 3, every=2, mix=mix)
    xs, ys = xs + mx, ys + my
    weights = fit(xs, ys)
    held = max(hands // 4, 10)
    tx, ty = samples(preset, players, held, seed=seed + 1, mix=mix)
    hx, hy = samples(preset, players, held, seed=seed + 2)
    shipped = WEIGHTS.get((preset, players))
    fits = f"held-out R² {r_squared(weights, tx, ty):.2f}"
    if mix != ("heuristic",):
        fits += f" (mix), {r_squared(weights, hx, hy):.2f} (heuristic self-play)"
        if shipped is not None:
            fits += (
                f"; shipped weights {r_squared(shipped, tx, ty):.2f}"
                f" / {r_squared(shipped, hx, hy):.2f}"
            )
    elif shipped is not None:
        fits += f"; shipped weights {r_squared(shipped, tx, ty):.2f}"
    return f"    ({preset!r}, {players}): {weights!r},  # {fits}"


def main() -> None:
    """Fit and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="training hands per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", action="append", help="only these presets (repeatable)")
    parser.add_argument(
        "--mix", choices=("exploits", "heuristic"), default="exploits", help="training players"
    )
    parser.add_argument("--workers", type=int, default=1, help="tables fitted at once")
    args = parser.parse_args()
    unknown = sorted(set(args.preset or ()) - set(PRESETS))
    if unknown:
        parser.error(f"unknown preset {', '.join(unknown)}; choose from {', '.join(PRESETS)}")
    mix = MIX if args.mix == "exploits" else ("heuristic",)
    tables = [
        (preset, players)
        for preset, spec in PRESETS.items()
        if not args.preset or preset in args.preset
        for players in spec.players
    ]
    print(f"# weights of {', '.join(FEATURES)}")
    print(f"# {args.hands} training hands per table, seed {args.seed}, players: {args.mix}")
    print("WEIGHTS: dict[tuple[str, int], tuple[float, ...]] = {")
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        futures = [
            pool.submit(fit_table, preset, players, args.hands, args.seed, mix)
            for preset, players in tables
        ]
        for future in futures:
            print(future.result(), flush=True)
    print("}")


if __name__ == "__main__":
    main()
