"""The ``learned`` bot: a policy trained by self-play, played with NumPy alone.

``make_bot("learned")`` plays the model shipped with the package (trained for ``aberto``
with 4 players by ``examples/train_league.py``); ``learned:path=FILE`` plays another
model saved by :func:`save_model`. The bot sees only its seat's view. It enters each
decision as the tokens of :mod:`buraco.rl.tokens` (kind and card, then meld, then
placement), each chosen by the network from the compact observation
(:func:`buraco.rl.tokens.compact_observation`) among the allowed tokens; a token that is
the only one allowed is entered without asking the network, as the environment does.

The network is a multi-layer perceptron (``tanh`` layers, then a linear head of
:data:`buraco.rl.tokens.N_TOKENS` logits): the policy of ``sb3-contrib``'s ``MaskablePPO``
with its default ``MlpPolicy``, its value head left out. Its weights are kept in a NumPy
``.npz`` file in ``float16`` with a JSON description (what it was trained for, and how);
playing it needs NumPy alone (a dependency of the package), not PyTorch or Gymnasium.

A model may instead score the flat action space of :mod:`buraco.rl.encoding` (description
``"actions": "flat"``): it reads :class:`~buraco.rl.encoding.ObservationEncoder`'s vector
(OpenSpiel's information-state tensor of ``python_buraco``) and gives one number per
action index (:data:`~buraco.rl.encoding.N_ACTIONS`), a new meld entered card by card
(:class:`~buraco.rl.encoding.MeldEntry`); the highest legal number is played (``greedy``) or
the numbers are taken as logits. A Q-network of OpenSpiel's DQN is such a model, with
``"activation": "relu"`` (``examples/train_openspiel_dqn.py`` writes one).

Parameters: ``path`` (a model file; the shipped model without it), ``greedy`` (``true``,
the default: the most likely token, deterministic; ``false``: sample each token from the
policy) and ``seed`` (the sampling's seed; otherwise the one ``make_bot`` is given).

>>> bot = make_learned("learned")
>>> bot.model.meta["preset"], bot.model.meta["players"], bot.model.sizes[0]
('aberto', 4, 1382)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from buraco.actions import Action, Discard
from buraco.bots.base import Bot, ModelFileError, enter_flat, load_model_file, sample_index
from buraco.errors import BotError, shown
from buraco.views import SeatView

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from buraco.rl.tokens import TokenEntry

SHIPPED_MODEL = Path(__file__).with_name("models") / "aberto4_league.npz"
"""The model ``learned`` plays when no path is given."""

FORMAT = "buraco-learned-policy"
"""The ``format`` of a model file's description."""

ACTIVATIONS = ("tanh", "relu")
"""The hidden layers' activations a model's description may name (``tanh`` by default)."""

ACTION_FORMS = ("factored", "flat")
"""What a model's head scores: :mod:`buraco.rl.tokens`'s tokens (the default) or
:mod:`buraco.rl.encoding`'s flat action indexes."""


class Model:
    """A policy network's weights: hidden layers, then a linear head of logits.

    ``layers`` are ``(weight, bias)`` pairs, weights ``(out, in)`` as PyTorch keeps them;
    ``meta`` describes the model (``format``, ``preset``, ``players``, ``observation``,
    ``activation`` (:data:`ACTIVATIONS`), ``actions`` (:data:`ACTION_FORMS`) and whatever
    the trainer adds).
    """

    def __init__(
        self,
        layers: Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]],
        meta: Mapping[str, Any],
    ) -> None:
        import numpy as np

        if not layers:
            raise ValueError("a model has at least its head layer")
        self.layers = [
            (np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in layers
        ]
        for i, (w, b) in enumerate(self.layers):
            if w.ndim != 2 or b.shape != (w.shape[0],):
                raise ValueError(f"layer {i}: a weight (out, in) and a bias (out,) are needed")
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise ValueError(f"layer {i}: the weights are not all finite numbers")
        for i, ((w, _), (w2, _)) in enumerate(zip(self.layers, self.layers[1:], strict=False)):
            if w2.shape[1] != w.shape[0]:
                raise ValueError(f"layers {i} and {i + 1}: the shapes do not chain")
        self.meta = dict(meta)
        self.activation = str(self.meta.get("activation", "tanh"))
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation {self.activation!r} is not one of {ACTIVATIONS}")
        self.actions = str(self.meta.get("actions", "factored"))
        if self.actions not in ACTION_FORMS:
            raise ValueError(f"actions {self.actions!r} is not one of {ACTION_FORMS}")
        self.sizes = [self.layers[0][0].shape[1], *(w.shape[0] for w, _ in self.layers)]

    def logits(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The head's logits for one observation (or a batch, one row each)."""
        import numpy as np

        x = obs
        for w, b in self.layers[:-1]:
            x = x @ w.T + b
            x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0)
        w, b = self.layers[-1]
        out: npt.NDArray[np.float32] = x @ w.T + b
        return out


def save_model(
    path: str | os.PathLike[str],
    layers: Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]],
    meta: Mapping[str, Any],
) -> None:
    """Write a model file: the layers in ``float16`` and ``meta`` as JSON."""
    import numpy as np

    Model(layers, meta)  # refuse what would not load
    arrays: dict[str, Any] = {}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(w, dtype=np.float16)
        arrays[f"b{i}"] = np.asarray(b, dtype=np.float16)
    described = {**meta, "format": FORMAT}
    arrays["meta"] = np.frombuffer(json.dumps(described).encode(), dtype=np.uint8)
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)


def sb3_layers(model: Any) -> list[tuple[npt.NDArray[Any], npt.NDArray[Any]]]:
    """The policy layers of an ``sb3-contrib`` ``MaskablePPO`` (its ``MlpPolicy``).

    The hidden layers of ``mlp_extractor.policy_net`` then ``action_net``, as NumPy arrays,
    ready for :func:`save_model`. Its value network is left out (play does not need it).
    """
    state = {k: v.detach().cpu().numpy() for k, v in model.policy.state_dict().items()}
    prefix = "mlp_extractor.policy_net."
    hidden = sorted({int(k[len(prefix) :].split(".")[0]) for k in state if k.startswith(prefix)})
    layers = [(state[f"{prefix}{i}.weight"], state[f"{prefix}{i}.bias"]) for i in hidden]
    return [*layers, (state["action_net.weight"], state["action_net.bias"])]


def load_model(path: str | os.PathLike[str]) -> Model:
    """Read a model file written by :func:`save_model` (``ValueError`` if it is not one)."""
    import numpy as np

    try:
        try:
            archive = np.load(path, allow_pickle=False)
        except Exception:  # whatever a file that is not an archive raises
            raise ValueError("not an .npz archive") from None
        if not isinstance(archive, np.lib.npyio.NpzFile):
            raise ValueError("not an .npz archive")
        with archive as data:
            if "meta" not in data.files:
                raise ValueError("no description (meta)")
            try:
                meta = json.loads(bytes(data["meta"]).decode())
            except ValueError:  # not UTF-8, not JSON
                raise ValueError("its description is not JSON") from None
            count = sum(1 for k in data.files if k.startswith("w"))
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ValueError(f"its description's format is not {FORMAT!r}")
        return Model(layers, meta)
    except ValueError as e:
        raise ModelFileError(str(e)[:200]) from None
    except Exception as e:  # whatever a damaged archive raises (EOFError, BadZipFile, ...)
        raise ModelFileError(f"unreadable ({type(e).__name__})") from None


@lru_cache(maxsize=32)
def _cached(path: str, stamp: tuple[int, int]) -> Model:
    return load_model(path)


class LearnedBot(Bot):
    """Plays a :class:`Model` token by token from the seat's view (see the module docstring)."""

    name = "learned"
    params: ClassVar[dict[str, type]] = {"path": str, "greedy": bool, "seed": int}
    wants_full_view = True
    needs_full_view = True

    def __init__(self, seed: int | None = None, path: str = "", greedy: bool = True) -> None:
        super().__init__(seed)
        from buraco.rl.encoding import N_ACTIONS, OBS_SIZE, ObservationEncoder
        from buraco.rl.tokens import COMPACT_SIZE, N_TOKENS

        file = path or str(SHIPPED_MODEL)
        self.model = load_model_file("learned", file, _cached)
        if self.model.actions == "flat":
            want = (OBS_SIZE, N_ACTIONS, "the observation", "a number per action index")
        else:
            want = (COMPACT_SIZE, N_TOKENS, "the compact observation", "a logit per token")
        if (self.model.sizes[0], self.model.sizes[-1]) != want[:2]:
            raise BotError(
                f"bot 'learned': {shown(file)} reads {self.model.sizes[0]} numbers and gives "
                f"{self.model.sizes[-1]}; a model of {self.model.actions} actions must read "
                f"{want[2]} ({want[0]}) and give {want[3]} ({want[1]})"
            )
        self.path = path
        self.greedy = greedy
        self.encoder = ObservationEncoder()

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The policy's action, entered token by token."""
        from buraco.rl.tokens import TokenEntry

        _need_full(view)
        if self.model.actions == "flat":
            encode, score = self.encoder.encode, self.model.logits
            return enter_flat(legal, lambda p, i: score(encode(view, p))[i], self.rng, self.greedy)
        entry = TokenEntry()
        while True:
            allowed = entry.allowed(legal)
            token = allowed[0]
            if len(allowed) > 1:
                logits = self.model.logits(self.observation(view, entry))
                token = allowed[sample_index(logits[allowed], self.rng, self.greedy)]
            action = entry.step(token, legal)
            if action is not None:
                return action

    def ranked_discards(self, view: SeatView, legal: Sequence[Action]) -> list[Action]:
        """The legal discards by the network's score for each, highest first.

        The score of ``discard c`` is its first token's logit (factored models) or its
        index's number (flat models), read at the decision's start, where the network
        weighs every legal action's first step together; ties keep ``legal``'s order.
        """
        from buraco.rl.encoding import ActionCodec
        from buraco.rl.tokens import TokenEntry, first_token

        discards: list[Action] = [a for a in legal if type(a) is Discard]
        if len(discards) < 2:
            return discards
        _need_full(view)
        if self.model.actions == "flat":
            scores = self.model.logits(self.encoder.encode(view))
            index = ActionCodec().index
        else:
            scores = self.model.logits(self.observation(view, TokenEntry()))
            index = first_token
        order = sorted(range(len(discards)), key=lambda i: -float(scores[index(discards[i])]))
        return [discards[i] for i in order]

    def observation(self, view: SeatView, entry: TokenEntry) -> npt.NDArray[np.float32]:
        """What the network reads: the compact observation of the view and the entry."""
        from buraco.rl.tokens import compact_observation, known_groups

        players = len(view.hand_sizes)
        side_of = [0] * players
        for side, seats in enumerate(view.sides):
            for s in seats:
                side_of[s] = side
        groups = known_groups(players, side_of, view.seat)
        full = self.encoder.encode(view, entry.pending)
        return compact_observation(full, entry.prefix, groups)

    def __repr__(self) -> str:
        return f"<LearnedBot path={self.path!r} greedy={self.greedy} seed={self.seed}>"


def _need_full(view: SeatView) -> None:
    """Refuse a plain view: the network reads what only the full view holds."""
    if view.detail is None:
        raise BotError("bot 'learned' reads the seat's full view: seat_view(..., full=True)")


def make_learned(spec: str, seed: int | None = None) -> LearnedBot:
    """``make_bot`` for a ``learned`` spec, typed (for doctests and scripts)."""
    from buraco.bots.spec import build

    bot = build({"learned": LearnedBot}, spec, seed)
    if not isinstance(bot, LearnedBot):
        raise BotError(f"{shown(spec)} is not a learned bot")
    return bot


__all__ = [
    "ACTION_FORMS",
    "ACTIVATIONS",
    "FORMAT",
    "SHIPPED_MODEL",
    "LearnedBot",
    "Model",
    "load_model",
    "make_learned",
    "save_model",
    "sb3_layers",
]
