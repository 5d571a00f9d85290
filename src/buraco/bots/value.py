"""A learned value of a hand in progress: a small network over each side's facts.

The fitted :class:`~buraco.bots.evaluation.Evaluation` is linear in six facts a side.
:class:`LearnedValue` reads more of the position (:data:`SIDE_FEATURES` per side and
:data:`GLOBAL_FEATURES` of the table) and predicts, for each pair of sides, the
difference of their final hand scores with a network that is antisymmetric by
construction: ``d(a, b) = h(a, b) - h(b, a)``, ``h`` a multi-layer perceptron
(``relu`` layers, then one output). A side's result is its smallest difference to
another side (its estimate minus the best other's), plus the cut bonuses already
earned, as :meth:`~buraco.bots.evaluation.Evaluation.result` gives it; the real scores
once the hand is over.

A model names the preset and player count it was trained for; a search given a model
for other rules scores with the fitted evaluation instead (:meth:`LearnedValue.fits`).

Like the fitted evaluation, the features read the whole game, hands included: a search
computes them on the games it samples from its view, never on the real one. A model is
a NumPy ``.npz`` file (:func:`load_value`; ``scripts/fit_value.py`` trains one); playing
it needs NumPy (the ``fit`` extra).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buraco.bots.evaluation import features
from buraco.cards import WILD_CODES
from buraco.game import Game
from buraco.rules import Rules

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

SIDE_FEATURES = (
    "melds",
    "bonuses",
    "hand",
    "cards",
    "pot",
    "ready",
    "clean",
    "dirty",
    "near",
    "small",
    "near_clean",
    "wilds",
    "fewest",
    "next",
    "next_pile_cards",
    "next_pile_points",
    "pot_fewest",
    "ready_fewest",
)
"""Per side: card values melded; canastra bonuses; minus the card values in its hands;
cards in its hands; 1 once its morto is taken; 1 once it holds the canastra it needs to
go out; clean and dirty canastras; melds of 5 or 6 cards and of 3 or 4; clean melds of 6;
wild cards in its hands; the fewest cards a player of the side holds; 1 if a player of
the side moves next, and then the pile's cards and points; the fewest cards times the
morto taken, and times the canastra held (how near the side is to going out)."""

_MODELS = Path(__file__).with_name("models")

SHIPPED_VALUE = _MODELS / "aberto4_value.npz"
"""The model ``mcts:value=learned`` plays in ``aberto`` with 4 players."""

SHIPPED_TABLES = (("aberto", 4), ("italiano", 4), ("fechado", 4), ("us", 4), ("italiano", 2))
"""The tables (preset, players) a model is shipped for, each in the file
``{preset}{players}_value.npz`` that ``scripts/fit_value.py`` writes."""

SHIPPED_VALUES = tuple(
    _MODELS / f"{preset}{players}_value.npz" for preset, players in SHIPPED_TABLES
)
"""Every model ``mcts:value=learned`` may play, each at the table it was trained for
(:data:`SHIPPED_TABLES`; the first is :data:`SHIPPED_VALUE`)."""

GLOBAL_FEATURES = ("stock", "pile", "pots")
"""Of the table: cards in the stock, cards in the pile, mortos still to take."""


def side_features(game: Game, side: int) -> list[float]:
    """A side's values of :data:`SIDE_FEATURES` (reads its hands: see above).

    The first six are :func:`buraco.bots.evaluation.features`.
    """
    clean = dirty = near = small = near_clean = 0
    for m in game.melds[side]:
        if m.staged:  # toward an initial meld not yet reached: still cards in the hand
            continue
        if m.size >= 7:
            clean += m.wild < 0
            dirty += m.wild >= 0
        elif m.size >= 5:
            near += 1
            near_clean += m.size == 6 and m.wild < 0
        else:
            small += 1
    wilds = 0
    fewest = 1000
    for seat in game.rules.seats_of(side):
        fewest = min(fewest, game.sizes[seat])
        h = game.hands[seat]
        wilds += sum(h[c] for c in WILD_CODES)
    base = features(game, side)
    pot, ready = base[4], base[5]
    nxt = 1 if game.side_of[game.turn] == side else 0
    pile = game.pile
    pile_points = sum(game.values[c] for c in pile) if nxt else 0
    return [
        *base,
        clean,
        dirty,
        near,
        small,
        near_clean,
        wilds,
        fewest,
        nxt,
        nxt * len(pile),
        pile_points,
        pot * fewest,
        ready * fewest,
    ]


def global_features(game: Game) -> list[float]:
    """The table's values of :data:`GLOBAL_FEATURES`."""
    return [len(game.stock), len(game.pile), sum(1 for p in game.pots if p)]


class LearnedValue:
    """An antisymmetric network's estimate of the hand's result (see the module)."""

    def __init__(self, arrays: dict[str, npt.NDArray[Any]]) -> None:
        import numpy as np

        n_side, n_global = len(SIDE_FEATURES), len(GLOBAL_FEATURES)
        self.mean = np.asarray(arrays["mean"], dtype=np.float64)
        self.scale = np.asarray(arrays["scale"], dtype=np.float64)
        self.global_mean = np.asarray(arrays["global_mean"], dtype=np.float64)
        self.global_scale = np.asarray(arrays["global_scale"], dtype=np.float64)
        self.points = float(arrays["points"])
        self.preset = str(arrays["preset"]) if "preset" in arrays else ""
        """The preset the model was trained for ("" if it does not say)."""
        self.players = int(arrays["players"]) if "players" in arrays else 0
        """The player count it was trained for (0 if it does not say)."""
        self.layers: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = []
        i = 0
        while f"w{i}" in arrays:
            w = np.asarray(arrays[f"w{i}"], dtype=np.float64)
            b = np.asarray(arrays[f"b{i}"], dtype=np.float64)
            self.layers.append((w.T.copy(), b))
            i += 1
        for w, b in self.layers:
            if w.ndim != 2 or b.shape != (w.shape[1],) or not np.isfinite(w).all():
                raise ValueError("a value model's layers are weights (out, in) and biases (out,)")
        if (
            self.mean.shape != (n_side,)
            or self.scale.shape != (n_side,)
            or self.global_mean.shape != (n_global,)
            or self.global_scale.shape != (n_global,)
            or not self.layers
            or self.layers[0][0].shape[0] != 2 * n_side + n_global
            or self.layers[-1][0].shape[1] != 1
        ):
            raise ValueError("a value model's arrays do not fit its features")
        for (w, _), (w2, _) in zip(self.layers, self.layers[1:], strict=False):
            if w.shape[1] != w2.shape[0]:
                raise ValueError("a value model's layers do not chain")

    def fits(self, rules: Rules) -> bool:
        """Whether the model was trained for these rules' preset and player count.

        A model that does not say is taken to fit any rules.
        """
        return (not self.preset or self.preset == rules.preset) and (
            not self.players or self.players == rules.players
        )

    def differences(self, game: Game) -> npt.NDArray[np.float64]:
        """``d[a, b]``: side ``a``'s estimated final hand score minus side ``b``'s."""
        import numpy as np

        k = game.k
        sides = (np.asarray([side_features(game, s) for s in range(k)]) - self.mean) / self.scale
        table = (np.asarray(global_features(game)) - self.global_mean) / self.global_scale
        pairs = [(a, b) for a in range(k) for b in range(k) if a != b]
        x = np.asarray([np.concatenate((sides[a], sides[b], table)) for a, b in pairs])
        for w, bias in self.layers[:-1]:
            x = np.maximum(x @ w + bias, 0.0)
        w, bias = self.layers[-1]
        h = (x @ w + bias)[:, 0]
        out = np.zeros((k, k))
        for (a, b), v in zip(pairs, h, strict=True):
            out[a, b] += v
            out[b, a] -= v
        return out * self.points

    def result(self, game: Game, side: int) -> float:
        """``side``'s estimated final score minus the best other side's.

        The real scores once the hand is over.
        """
        if game.is_hand_over():
            scores = [float(s.total) for s in game.scores()]
            return float(scores[side] - max(s for i, s in enumerate(scores) if i != side))
        d = self.differences(game)
        cut = game.cut_points
        return float(min(d[side, b] + cut[side] - cut[b] for b in range(game.k) if b != side))


def load_value(path: str | Path) -> LearnedValue:
    """A value model from an ``.npz`` file (:class:`ValueError` if it is not one)."""
    return _load(str(Path(path).resolve()))


@lru_cache(maxsize=8)
def _load(path: str) -> LearnedValue:
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: not a value model ({e})") from None
    try:
        return LearnedValue(arrays)
    except KeyError as e:
        raise ValueError(f"{path}: a value model needs the array {e}") from None
    except (TypeError, IndexError) as e:  # an array of the wrong kind or shape
        raise ValueError(f"{path}: not a value model ({e})") from None
