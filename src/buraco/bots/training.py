"""Training rows from bot play, for the fitted evaluation (:mod:`buraco.bots.evaluation`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from buraco.actions import Discard
from buraco.bots import make_bot
from buraco.bots.evaluation import features
from buraco.bots.play import play_one
from buraco.game import Game


def samples(
    preset: str,
    players: int,
    hands: int,
    seed: int = 0,
    every: int = 1,
    mix: Sequence[str] = ("heuristic",),
) -> tuple[list[tuple[float, ...]], list[float]]:
    """Training rows from bot play: feature differences and final differences.

    Each hand, every side's players are one bot drawn from ``mix`` (bot specs; only
    ``heuristic`` by default, :data:`~buraco.bots.evaluation.MIX` for the shipped weights).
    For every ``every``-th turn of each hand and every pair of sides, one row: the first
    side's features minus the second's, and the same difference of their final hand scores
    less their cut bonuses (known from the deal, added by
    :meth:`~buraco.bots.evaluation.Evaluation.value` as they are). The players are shown
    full views, as a bot is in play (a search's playouts give them plain views by default).
    """
    rng = random.Random(seed)
    xs: list[tuple[float, ...]] = []
    ys: list[float] = []
    for _ in range(hands):
        game = Game(preset, players=players, seed=rng.randrange(2**31), match=False)
        # a mix of one draws nothing: self-play samples the hands it always did
        specs = [rng.choice(mix) if len(mix) > 1 else mix[0] for _ in range(game.k)]
        bots = [
            make_bot(specs[seat % game.k], seed=rng.randrange(2**31)) for seat in range(players)
        ]
        snaps: list[list[tuple[float, ...]]] = []
        turns = 0
        while not game.is_hand_over():
            action = play_one(game, bots, full=True)
            if isinstance(action, Discard) and not game.is_hand_over():
                turns += 1
                if turns % every == 0:
                    snaps.append([features(game, s) for s in range(game.k)])
        final = [s.total - s.cut for s in game.scores()]
        for snap in snaps:
            for a in range(game.k):
                for b in range(a + 1, game.k):
                    xs.append(tuple(p - q for p, q in zip(snap[a], snap[b], strict=True)))
                    ys.append(float(final[a] - final[b]))
    return xs, ys
