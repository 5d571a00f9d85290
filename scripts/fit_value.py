r"""Train the learned value ``mcts:value=learned`` plays (``buraco.bots.value``).

Plays hands of ``aberto`` for 4 (by default) with bots, half of them ``heuristic``
self-play and half with each side's players drawn from
``buraco.bots.evaluation.MIX`` (as ``scripts/fit_evaluation.py`` does), and keeps, after
every discard, both sides' :data:`~buraco.bots.value.SIDE_FEATURES` and the table's
:data:`~buraco.bots.value.GLOBAL_FEATURES` with the final difference of the two sides'
hand scores (less their cut bonuses). A tenth of the hands is held out; the script
prints the held-out R² of the fitted linear evaluation shipped for the table, of a
linear fit on the new features, and of the network after each pass, then writes the
model. Needs the ``torch`` extra (training only; playing the model needs NumPy)::

    .venv/bin/pip install -e '.[torch]'
    .venv/bin/python scripts/fit_value.py --hands 20000 --seed 1 --train-seed 0 \
        --passes 1 --data positions.npz --out first.npz
    .venv/bin/python scripts/fit_value.py --hands 20000 --seed 1 --train-seed 0 \
        --passes 1 --data positions.npz --league 800 --league-data league.npz --weight 4 \
        --agent mcts:value=first.npz,time=0,iterations=9,depth=2,futile=0 \
        --out src/buraco/bots/models/aberto4_value.npz

write the shipped model: the first fits the 20,000 hands alone, one pass, the one that
predicts the held-out hands best (403 s of play on two cores, then 30 s in all on one),
and the second adds 800 hands of that model's own league (2,149 s of play on two
cores). ``--hands 20000 --seed 1 --train-seed 0`` with the default 6 passes and
``--preset P`` write the others shipped, ``P4_value.npz``; their play on two cores:
``italiano`` 138 s, ``fechado`` 92 s, ``us`` 329 s; and with ``--preset italiano
--players 2``, ``italiano2_value.npz`` (504 s of play on one core).
``--data FILE`` keeps the positions (about 500 MB for 20,000 hands) and reads them
back on the next run, so fits of other ``--train-seed`` skip the play.

``--league N`` adds a step of expert iteration: N hands in which one side is the agent
(``--agent``, by default :data:`AGENT`, the shipped value's search at a fixed number of
rounds) and the other is drawn from :data:`LEAGUE` (the agent itself, its version before
the learned value, ``heuristic`` and the exploit bots' plans); ``--league-data FILE``
keeps their positions, ``--weight W`` goes over them W times a pass, and the held-out
R² is printed for them apart. Without ``--league`` the script trains as before.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from buraco.bots.evaluation import MIX, Evaluation
from buraco.bots.exploits import EXPLOITS
from buraco.bots.value import GLOBAL_FEATURES, SIDE_FEATURES, global_features, side_features
from buraco.game import Game


def rows(
    preset: str,
    players: int,
    hands: int,
    seed: int,
    mix: tuple[str, ...],
    agent: str | None = None,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Features (side 0, side 1, table), final differences and hand numbers.

    Each side's players are drawn from ``mix``; with ``agent``, one side (drawn) is
    ``agent`` and the other is drawn from ``mix``.
    """
    from buraco.actions import Discard
    from buraco.bots import make_bot
    from buraco.bots.play import play_one

    rng = random.Random(seed)
    xs: list[list[float]] = []
    ys: list[float] = []
    hs: list[int] = []
    for number in range(hands):
        game = Game(preset, players=players, seed=rng.randrange(2**31), match=False)
        if game.k != 2:
            raise SystemExit("fit_value.py fits tables of two sides")
        specs = [rng.choice(mix) for _ in range(game.k)]
        if agent is not None:
            specs[rng.randrange(game.k)] = agent
        bots = [
            make_bot(specs[seat % game.k], seed=rng.randrange(2**31)) for seat in range(players)
        ]
        snaps: list[list[float]] = []
        while not game.is_hand_over():
            action = play_one(game, bots, full=True)
            if isinstance(action, Discard) and not game.is_hand_over():
                snaps.append(
                    side_features(game, 0) + side_features(game, 1) + global_features(game)
                )
        final = [s.total - s.cut for s in game.scores()]
        xs.extend(snaps)
        ys.extend([float(final[0] - final[1])] * len(snaps))
        hs.extend([number] * len(snaps))
    return np.asarray(xs), np.asarray(ys), np.asarray(hs)


def r_squared(pred: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> float:
    """The share of the variance of ``y`` the predictions explain."""
    return float(1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())


Arrays = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]
"""Positions' features, their hands' final differences and the hands' numbers."""


def play_parts(
    preset: str,
    players: int,
    workers: int,
    parts: Sequence[tuple[int, int, tuple[str, ...], str | None]],
) -> Arrays:
    """:func:`rows` of each part (hands, seed, mix, agent) on up to two processes, joined."""
    with ProcessPoolExecutor(max_workers=max(1, min(workers, 2))) as pool:
        jobs = [pool.submit(rows, preset, players, *part) for part in parts]
        done = [job.result() for job in jobs]
    x = np.concatenate([d[0] for d in done]).astype(np.float32)
    y = np.concatenate([d[1] for d in done]).astype(np.float32)
    offsets = np.cumsum([0] + [part[0] for part in parts])
    h = np.concatenate([d[2] + offset for d, offset in zip(done, offsets, strict=False)])
    return x, y, h


def play_positions(preset: str, players: int, hands: int, seed: int, workers: int) -> Arrays:
    """Half the hands ``heuristic`` self-play (seed ``seed``), half the mix (``seed + 1``)."""
    first = hands // 2
    parts = [(first, seed, ("heuristic",), None), (hands - first, seed + 1, MIX, None)]
    return play_parts(preset, players, workers, parts)


AGENT = "mcts:value=learned,time=0,iterations=6,depth=2"
"""The agent of the league hands: the shipped value's agent at a fixed number of rounds,
so the hands replay from their seed on any machine."""

LEAGUE: tuple[str, ...] = (
    AGENT,
    AGENT,
    "mcts:time=0,iterations=6,depth=2",
    "heuristic",
    *(f"{name}:base=heuristic" for name in EXPLOITS),
)
"""The agent's opponents: itself (twice as often), its version before the learned value
(the fitted evaluation), ``heuristic`` and each exploit bot's plan."""


def league_of(agent: str) -> tuple[str, ...]:
    """:data:`LEAGUE` with ``agent`` in the places of the shipped value's agent."""
    return tuple(agent if spec == AGENT else spec for spec in LEAGUE)


def play_league(
    preset: str, players: int, hands: int, seed: int, workers: int, agent: str
) -> Arrays:
    """``hands`` hands of ``agent`` against its :func:`league_of` (seeds ``seed``, ``seed + 1``)."""
    league = league_of(agent)
    first = hands // 2
    parts = [(first, seed, league, agent), (hands - first, seed + 1, league, agent)]
    return play_parts(preset, players, workers, parts)


def positions(path: str | None, play: Callable[[], Arrays], what: str) -> Arrays:
    """The positions kept in ``path`` if it exists, else ``play()``'s (kept if named)."""
    if path and Path(path).exists():
        with np.load(path) as data:
            print(f"{len(data['x'])} {what} read from {path}")
            return data["x"], data["y"], data["h"]
    started = time.perf_counter()
    x, y, h = play()
    print(f"{h.max() + 1} hands, {len(x)} {what}, {time.perf_counter() - started:.0f} s")
    if path:
        np.savez(path, x=x, y=y, h=h)
    return x, y, h


def main() -> None:
    """Play (or read), fit, report, write."""
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="aberto")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1, help="the hands' seed")
    parser.add_argument("--train-seed", type=int, default=0, help="the split's and fit's seed")
    parser.add_argument("--hidden", type=int, default=64, help="units in each of 2 layers")
    parser.add_argument("--passes", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2, help="processes playing the hands")
    parser.add_argument("--data", help="keep the positions in this .npz (read it if it exists)")
    parser.add_argument("--out", required=True, help="the model file to write (.npz)")
    parser.add_argument("--league", type=int, default=0, help="hands of the agent's league")
    parser.add_argument("--agent", default=AGENT, help="the league's agent (a bot spec)")
    parser.add_argument("--league-data", help="keep the league's positions in this .npz")
    parser.add_argument(
        "--weight", type=int, default=1, help="times a pass goes over the league's positions"
    )
    args = parser.parse_args()
    if args.weight < 1:
        parser.error(f"--weight is a number of times, at least 1, not {args.weight}")
    if args.league:
        from buraco.bots import make_bot
        from buraco.errors import BotError

        try:
            make_bot(args.agent, seed=0)
        except BotError as e:
            parser.error(f"--agent: {e}")
    torch.manual_seed(args.train_seed)
    rules = Game(args.preset, players=args.players, seed=0, match=False).rules
    started = time.perf_counter()
    x, y, h = positions(
        args.data,
        lambda: play_positions(args.preset, args.players, args.hands, args.seed, args.workers),
        "positions",
    )
    league = np.zeros(len(x), dtype=bool)
    if args.league:
        lx, ly, lh = positions(
            args.league_data,
            lambda: play_league(
                args.preset, args.players, args.league, args.seed + 2, args.workers, args.agent
            ),
            "league positions",
        )
        x, y = np.concatenate([x, lx]), np.concatenate([y, ly])
        h = np.concatenate([h, lh + h.max() + 1])
        league = np.concatenate([league, np.ones(len(lx), dtype=bool)])

    n = len(SIDE_FEATURES)
    a, b, table = x[:, :n], x[:, n : 2 * n], x[:, 2 * n :]
    rng = np.random.default_rng(args.train_seed)
    held = rng.random(h.max() + 1) < 0.1
    test = held[h]
    train = ~test
    kinds = {"": test & ~league, ", league": test & league} if args.league else {"": test}

    def report(what: str, pred: np.ndarray[Any, Any]) -> None:
        for kind, part in kinds.items():
            fit = r_squared(pred[part[test]], y[part])
            print(f"held-out R²{kind}, {what}: {fit:.3f}", flush=True)

    shipped = np.asarray(Evaluation.for_rules(rules).weights)
    report("shipped linear evaluation", (a - b)[test, :6] @ shipped)
    w, *_ = np.linalg.lstsq((a - b)[train], y[train], rcond=None)
    report("linear on the new features", (a - b)[test] @ w)

    sides = np.concatenate([a[train], b[train]])
    mean, scale = sides.mean(0), sides.std(0) + 1e-6
    gmean, gscale = table[train].mean(0), table[train].std(0) + 1e-6
    points = y[train].std()

    def inputs(first: np.ndarray[Any, Any], second: np.ndarray[Any, Any]) -> torch.Tensor:
        parts = [(first - mean) / scale, (second - mean) / scale, (table - gmean) / gscale]
        return torch.tensor(np.concatenate(parts, 1).astype(np.float32))

    xa, xb = inputs(a, b), inputs(b, a)
    target = torch.tensor(y / points, dtype=torch.float32)
    width = args.hidden
    net = torch.nn.Sequential(
        torch.nn.Linear(2 * n + len(GLOBAL_FEATURES), width),
        torch.nn.ReLU(),
        torch.nn.Linear(width, width),
        torch.nn.ReLU(),
        torch.nn.Linear(width, 1),
    )
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)
    extra = np.flatnonzero(train & league)
    order = np.concatenate([np.flatnonzero(train), *[extra] * (args.weight - 1)])
    held_rows = torch.tensor(np.flatnonzero(test))
    for number in range(args.passes):
        rng.shuffle(order)
        for i in range(0, len(order), 1024):
            batch = torch.tensor(order[i : i + 1024])
            pred = (net(xa[batch]) - net(xb[batch])).squeeze(1)
            loss = ((pred - target[batch]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            pred = (net(xa[held_rows]) - net(xb[held_rows])).squeeze(1).numpy() * points
        report(f"network after pass {number + 1}", pred)
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    arrays = {
        "mean": mean,
        "scale": scale,
        "global_mean": gmean,
        "global_scale": gscale,
        "points": np.asarray(points),
        "preset": np.asarray(args.preset),
        "players": np.asarray(args.players),
    }
    for i, layer in enumerate(linear):
        arrays[f"w{i}"] = layer.weight.detach().numpy()
        arrays[f"b{i}"] = layer.bias.detach().numpy()
    np.savez(args.out, **arrays)
    print(f"wrote {args.out} ({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
