"""A fitted evaluation of a hand in progress, for search bots that stop playouts early.

A playout to the end of a hand is long (hundreds of turns with heuristic players)
and its result swings by hundreds of points on luck that comes after the decision
being judged. Stopping a few rounds in and scoring the position with an estimate of
the hand's final result keeps most of what the decision changed and drops most of
that noise.

The estimate is linear in a few facts per side (:data:`FEATURES`): what is melded,
canastra bonuses, cards and points still in the hands, the morto, whether the side
may go out yet; a cut bonus already earned is added as it stands. The features read
the whole game, hands included: a search computes them on the games it samples from
its view, never on the real one. The weights are fitted by least squares on
positions from games the ``heuristic`` bot played against itself, one set per preset
and player count (:data:`WEIGHTS`), predicting each pair of sides' difference in
final hand score from the difference in their features. Other options of a preset
use its table as it is; so does ``us`` for 6 players in two sides of three (fitted
for three sides of two).

>>> from buraco import Game
>>> game = Game("aberto", players=4, seed=4, match=False)
>>> features(game, 0), features(game, 1)  # at the deal: only the hands differ
((0, 0, -175, 22, 0, 0), (0, 0, -240, 22, 0, 0))
>>> evaluation = Evaluation.for_rules(game.rules)
>>> round(evaluation.result(game, 0))  # side 0's estimate minus side 1's
-56

To fit again (after the heuristic changes), see :func:`fit`, the rows of
:func:`buraco.bots.training.samples` and ``scripts/fit_evaluation.py``; fitting needs numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from buraco.game import Game
from buraco.rules import Rules

FEATURES = ("melds", "bonuses", "hand", "cards", "pot", "ready")
"""Per side: card values melded; canastra bonuses; minus the card values in its hands;
cards in its hands; 1 once its morto is taken; 1 once it holds the canastra it needs to
go out."""


def features(game: Game, side: int) -> tuple[float, ...]:
    """A side's values of :data:`FEATURES` in a game (reads its hands: see above).

    Melds staged toward an initial meld not yet reached count as cards in the hand,
    as :meth:`buraco.game.Game.scores` counts them.
    """
    r = game.rules
    melds = bonuses = ready = 0
    need_clean = r.go_out_canastra == "clean"
    hand = cards = 0
    for m in game.melds[side]:
        if m.staged:
            hand -= m.value
            cards += m.size
            continue
        melds += m.value
        if m.size >= 7:
            b = m.bonus(r)
            if b is not None:
                bonuses += b.points
            if not need_clean or m.wild < 0:
                ready = 1
    values = game.values
    for seat in r.seats_of(side):
        h = game.hands[seat]
        cards += game.sizes[seat]
        hand -= sum(values[c] * n for c, n in enumerate(h) if n)
    pot = 1 if game.pot_taken[side] else 0
    return (melds, bonuses, hand, cards, pot, ready)


@dataclass(frozen=True)
class Evaluation:
    """Weights of :data:`FEATURES`: a side's value is their weighted sum."""

    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"an evaluation needs {len(FEATURES)} weights, one per feature")

    @classmethod
    def for_rules(cls, rules: Rules) -> Evaluation:
        """The fitted weights for the rules' preset and player count.

        Tables are fitted for every preset and player count it is played by; should one
        be missing, the preset's nearest player count, else ``aberto`` for 4.
        """
        key = (rules.preset, rules.players)
        if key in WEIGHTS:
            return cls(WEIGHTS[key])
        same = sorted((abs(p - rules.players), p) for (name, p) in WEIGHTS if name == rules.preset)
        if same:
            return cls(WEIGHTS[(rules.preset, same[0][1])])
        return cls(WEIGHTS[("aberto", 4)])

    def value(self, game: Game, side: int) -> float:
        """The side's estimated worth in the hand (comparable between sides).

        The weighted features plus the cut bonus or penalty the side already has.
        """
        weighted = sum(w * f for w, f in zip(self.weights, features(game, side), strict=True))
        return weighted + game.cut_points[side]

    def result(self, game: Game, side: int) -> float:
        """``side``'s estimated final score minus the best other side's.

        The real scores once the hand is over.
        """
        scores: list[float]
        if game.is_hand_over():
            scores = [float(s.total) for s in game.scores()]
        else:
            scores = [self.value(game, s) for s in range(game.k)]
        mine = scores[side]
        return float(mine - max(s for i, s in enumerate(scores) if i != side))


MIX: tuple[str, ...] = (
    "heuristic",
    "heuristic",
    "heuristic",
    "heuristic",
    "hoarder:base=heuristic",
    "hoarder",
    "stocker:base=heuristic",
    "rusher:base=heuristic",
    "holder:base=heuristic",
    "wildhoarder:base=heuristic",
)
"""The players of the training hands: each side draws one (``heuristic`` for four in ten,
else an exploit bot's plan: takes of every pile, none, a rush out, melds held...)."""


def r_squared(
    weights: Sequence[float], xs: Sequence[Sequence[float]], ys: Sequence[float]
) -> float:
    """The share of the variance of ``ys`` that the weights' predictions explain.

    >>> r_squared((2.0,), [(1,), (2,), (3,)], [2.0, 4.0, 6.0])
    1.0
    """
    mean = sum(ys) / len(ys)
    total = sum((y - mean) ** 2 for y in ys)
    resid = sum(
        (y - sum(w * f for w, f in zip(weights, x, strict=True))) ** 2
        for x, y in zip(xs, ys, strict=True)
    )
    return 1 - resid / total if total else 0.0


def fit(xs: Sequence[Sequence[float]], ys: Sequence[float]) -> tuple[float, ...]:
    """Least-squares weights (no intercept: the rows are differences between sides)."""
    try:
        import numpy as np
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("fitting an evaluation needs numpy: pip install 'buraco[fit]'") from exc
    a = np.asarray(xs, dtype=float)
    b = np.asarray(ys, dtype=float)
    w, *_ = np.linalg.lstsq(a, b, rcond=None)
    return tuple(round(float(x), 3) for x in w)


WEIGHTS: dict[tuple[str, int], tuple[float, ...]] = {
    # scripts/fit_evaluation.py (500 training hands per table, seed 1; 125 held out)
    ("aberto", 2): (2.156, 0.539, -0.826, 10.0, 126.217, 119.816),  # held-out R² 0.47
    ("aberto", 4): (2.143, 0.455, -0.868, 11.564, 57.944, 82.198),  # held-out R² 0.29
    ("fechado", 2): (1.867, 0.736, -2.852, -12.557, -71.742, 82.718),  # held-out R² 0.39
    ("fechado", 4): (1.177, 0.808, -2.092, -20.866, 114.682, 14.827),  # held-out R² 0.28
    ("us", 2): (2.144, 0.519, -0.726, 13.957, 24.226, 113.693),  # held-out R² 0.45
    ("us", 4): (1.898, 0.457, -0.536, 14.818, -11.891, 132.943),  # held-out R² 0.21
    ("us", 6): (2.075, 0.492, -1.048, 3.456, -15.289, 105.894),  # held-out R² 0.37
    ("netcartas", 2): (2.408, 0.335, -1.767, 11.134, -141.854, 165.295),  # held-out R² 0.24
    ("netcartas", 4): (1.874, 0.476, -0.604, 8.193, -80.195, 174.094),  # held-out R² 0.20
    ("italiano", 2): (1.843, 0.712, 1.583, 34.119, -111.077, 94.163),  # held-out R² 0.45
    ("italiano", 3): (1.688, 0.702, -2.569, -16.967, 113.876, 23.254),  # held-out R² 0.51
    ("italiano", 4): (1.519, 0.891, -1.407, -7.436, 63.009, -15.332),  # held-out R² 0.30
}
"""Fitted weights per (preset, players), in the order of :data:`FEATURES`.

Features move together (a morto taken brings cards and points into the hands), so one
weight alone says little; the sum is what predicts."""
