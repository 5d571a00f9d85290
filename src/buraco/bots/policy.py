"""The ``policy`` bot: plays a trained policy network from a file (PyTorch, optional).

``make_bot("policy:path=model.pt")`` loads a network saved by :meth:`PolicyNet.save` (as
``examples/train_policy.py`` does) and plays from the seat's view only: the view is encoded
with :class:`buraco.rl.encoding.ObservationEncoder`, the legal actions are masked with the
action codec, and a new meld is entered card by card (one network decision per token,
as in the learning environments) within one engine decision, through
:class:`buraco.rl.encoding.MeldEntry`, until it makes an engine action.

Parameters: ``path`` (the model file, required), ``greedy`` (``false``, the default: sample
each index from the policy, as it was trained; ``true``: the most likely index, which is
deterministic) and ``seed`` (the sampling's seed; otherwise the one ``make_bot`` is given,
as the arena gives each seat's bot its own).

PyTorch is imported only when the bot is made; without it the spec fails with one line
naming the extra to install (``pip install 'buraco[torch]'``).

The network (:class:`PolicyNet`) scores only the legal indexes: a shared body turns the
observation into a vector ``h``; each action index is the sum of embeddings of its parts
(kind, card, meld slot, place) and its logit is that sum's dot product with ``h``, plus a
bias per kind and card. A value head (the training baseline) reads ``h`` too.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from buraco.actions import Action
from buraco.bots.base import Bot, enter_flat, load_model_file
from buraco.cards import Card
from buraco.errors import BotError
from buraco.views import SeatView

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import torch

N_CODES = 53
"""Card codes (52 cards and the joker)."""

KINDS = ("draw", "turn-up", "take-pile", "discard", "meld-card", "meld-end", "add", "move")
"""The kinds of action index, in the order of :func:`action_parts`' first column."""

TORCH_HINT = "pip install 'buraco[torch]'"
"""How to install PyTorch for the ``policy`` bot."""


def action_parts() -> npt.NDArray[np.int64]:
    """Every action index's parts: an ``(N_ACTIONS, 4)`` array of kind, card, meld, place.

    The card is 53 and the meld slot ``MAX_MELDS`` when the index has none; a wild move's
    place is its end (1 low, 2 high).

    >>> from buraco.rl.encoding import DISCARD, MELD_END
    >>> parts = action_parts()
    >>> parts[DISCARD + 52].tolist(), parts[MELD_END].tolist()
    ([3, 52, 74, 0], [5, 53, 74, 0])
    """
    import numpy as np

    from buraco.rl.encoding import (
        ADD,
        DISCARD,
        DRAW,
        MAX_MELDS,
        MELD_CARD,
        MELD_END,
        MOVE,
        N_ACTIONS,
        N_PLACES,
        TAKE_PILE,
        TURN_UP,
    )

    parts = np.zeros((N_ACTIONS, 4), dtype=np.int64)
    parts[:, 1] = N_CODES
    parts[:, 2] = MAX_MELDS
    for index, kind in ((DRAW, 0), (TURN_UP, 1), (TAKE_PILE, 2), (MELD_END, 5)):
        parts[index, 0] = kind
    cards = np.arange(N_CODES)
    parts[DISCARD + cards, 0] = 3
    parts[DISCARD + cards, 1] = cards
    parts[MELD_CARD + cards, 0] = 4
    parts[MELD_CARD + cards, 1] = cards
    adds = np.arange(ADD, MOVE)
    rest, place = np.divmod(adds - ADD, N_PLACES)
    meld, card = np.divmod(rest, N_CODES)
    parts[adds, 0] = 6
    parts[adds, 1] = card
    parts[adds, 2] = meld
    parts[adds, 3] = place
    moves = np.arange(MOVE, N_ACTIONS)
    meld, end = np.divmod(moves - MOVE, 2)
    parts[moves, 0] = 7
    parts[moves, 2] = meld
    parts[moves, 3] = end + 1
    return parts


def require_torch() -> Any:
    """The ``torch`` module, or :class:`~buraco.errors.BotError` saying how to install it.

    NumPy is checked too (the observation needs it).
    """
    try:
        import torch
    except ImportError:
        raise BotError(f"bot 'policy' needs PyTorch: {TORCH_HINT}") from None
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise BotError(f"bot 'policy' needs NumPy: {TORCH_HINT} numpy") from None
    return torch


class PolicyNet:
    """A masked policy over the action space, with a value head (PyTorch modules).

    ``hidden`` is the width of the body. :meth:`features` turns observations into vectors,
    :meth:`logits` scores given action indexes, :meth:`value` estimates the return.
    """

    def __init__(self, hidden: int = 64) -> None:
        th = require_torch()
        from buraco.rl.encoding import MAX_MELDS, N_PLACES, OBS_SIZE

        nn = th.nn
        self.hidden = hidden
        self.module: torch.nn.ModuleDict = nn.ModuleDict(
            {
                "body1": nn.Linear(OBS_SIZE, hidden),
                "body2": nn.Linear(hidden, hidden),
                "kind": nn.Embedding(len(KINDS), hidden),
                "card": nn.Embedding(N_CODES + 1, hidden),
                "meld": nn.Embedding(MAX_MELDS + 1, hidden),
                "place": nn.Embedding(N_PLACES, hidden),
                "bias": nn.Embedding(len(KINDS) * (N_CODES + 1), 1),
                "value": nn.Linear(hidden, 1),
            }
        )
        nn.init.zeros_(self.module["bias"].weight)
        self.parts: torch.Tensor = th.from_numpy(action_parts())

    def features(self, obs: torch.Tensor) -> torch.Tensor:
        """The body's vectors ``(B, hidden)`` of observations ``(B, OBS_SIZE)``."""
        m = self.module
        th = require_torch()
        h = th.relu(m["body1"](obs))
        out: torch.Tensor = th.relu(m["body2"](h))
        return out

    def logits(self, h: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
        """Logits ``(B, L)`` of action indexes ``legal`` ``(B, L)`` for body vectors ``h``."""
        m = self.module
        p = self.parts[legal]
        e = m["kind"](p[..., 0]) + m["card"](p[..., 1]) + m["meld"](p[..., 2])
        e = e + m["place"](p[..., 3])
        bias = m["bias"](p[..., 0] * (N_CODES + 1) + p[..., 1]).squeeze(-1)
        out: torch.Tensor = (e * h.unsqueeze(-2)).sum(-1) + bias
        return out

    def value(self, h: torch.Tensor) -> torch.Tensor:
        """The value estimates ``(B,)`` for body vectors ``h``."""
        out: torch.Tensor = self.module["value"](h).squeeze(-1)
        return out

    def save(self, path: str | os.PathLike[str], **info: Any) -> None:
        """Write the network to ``path`` (weights in float16, to keep the file small).

        ``info``: plain values stored beside the weights (how it was trained).
        """
        th = require_torch()
        state = {k: v.detach().to(th.float16) for k, v in self.module.state_dict().items()}
        th.save({"format": 1, "hidden": self.hidden, "state": state, "info": info}, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PolicyNet:
        """A network read from a file :meth:`save` wrote (``ValueError`` for another file)."""
        th = require_torch()
        try:
            data = th.load(path, map_location="cpu", weights_only=True)
            net = cls(int(data["hidden"]))
            state = {k: v.to(th.float32) for k, v in data["state"].items()}
            net.module.load_state_dict(state)
        except (KeyError, TypeError, RuntimeError, EOFError) as e:
            raise ValueError(f"{os.fspath(path)!r} is not a policy network file") from e
        except Exception as e:  # unpickling errors of files that are not torch's
            if type(e).__name__ != "UnpicklingError":
                raise
            raise ValueError(f"{os.fspath(path)!r} is not a policy network file") from e
        net.module.eval()
        return net


@lru_cache(maxsize=8)
def _cached(path: str, stamp: tuple[int, int]) -> PolicyNet:
    return PolicyNet.load(path)


class PolicyBot(Bot):
    """Plays a :class:`PolicyNet` from a file, from the seat's view and legal actions only."""

    name = "policy"
    params: ClassVar[dict[str, type]] = {"path": str, "greedy": bool, "seed": int}
    wants_full_view = True
    needs_full_view = True

    def __init__(self, seed: int | None = None, path: str = "", greedy: bool = False) -> None:
        super().__init__(seed)
        th = require_torch()
        # a decision is a few small products: one thread is fastest, and it keeps torch from
        # starting a thread pool that the arena's forked workers would inherit and hang on
        th.set_num_threads(1)
        if not path:
            raise BotError("bot 'policy' needs the model file: policy:path=FILE")
        self.net = load_model_file("policy", path, _cached)
        self.torch = th
        self.path = path
        self.greedy = greedy
        from buraco.rl.encoding import ObservationEncoder

        self.encoder = ObservationEncoder()

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The policy's action: a meld entered token by token, each token masked."""
        th = self.torch

        def scores(pending: list[Card], indexes: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
            h = self.net.features(th.from_numpy(self.encoder.encode(view, pending))[None])
            logits = self.net.logits(h, th.from_numpy(indexes)[None])
            out: npt.NDArray[np.float32] = logits[0].numpy()
            return out

        with th.no_grad():
            return enter_flat(legal, scores, self.rng, self.greedy)

    def __repr__(self) -> str:
        return f"<PolicyBot path={self.path!r} greedy={self.greedy} seed={self.seed}>"


__all__ = ["KINDS", "TORCH_HINT", "PolicyBot", "PolicyNet", "action_parts", "require_torch"]
