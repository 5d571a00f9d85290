"""How well a policy imitates ``heuristic`` from the compact observation, with and without history.

The ``learned`` agent starts by imitating ``heuristic`` (``examples/train_league.py``) and
reaches three quarters of its choices. ``heuristic`` also reads the hand's history, which
the compact observation (:data:`buraco.rl.factored.COMPACT_LAYOUT`) keeps only in part: the
cards each seat discarded, and how often each seat took the pile. This script measures what
that history is worth to imitation: ``heuristic`` plays ``--hands`` hands of aberto for 4
in every seat, each token decision with an alternative is kept (as
:func:`buraco.rl.factored.demonstrate` keeps them), and two policies of the same shape (two
``tanh`` layers of 256, as the agent's) learn to pick its token among those allowed:

- ``compact``: from the compact observation alone;
- ``compact+history``: the same and, for the next seat, the partner and the previous seat,
  the cards each discarded this hand (53 each), its pile takes (tenths) and the share of
  the piles it was offered that it took (0.5 before any).

Both learn on the same decisions in the same order (5% of the hands held out, the same
hands for both) and the held-out accuracy is printed after every pass.

Usage: ``python scripts/imitation_observation.py [--hands 1000] [--epochs 4] [--seed 5]``
(one thread; about 2.5 minutes for 1,000 hands). Needs the ``sb3`` extra (PyTorch).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import torch

from buraco.actions import Action, Discard
from buraco.bots import Bot, make_bot, play_hand
from buraco.bots.base import pile_choices
from buraco.game import Game
from buraco.rl.factored import (
    COMPACT_SIZE,
    N_TOKENS,
    compact_observation,
    known_groups,
    token_choices,
)
from buraco.rl.index_encoding import IndexEncoder
from buraco.views import SeatView, seat_view

RELATIVE = (1, 2, 3)
"""The seats whose history is read, counted from the viewer: next, partner, previous."""
HISTORY_SIZE = len(RELATIVE) * (53 + 2)


def history(view: SeatView) -> npt.NDArray[np.float32]:
    """The history features of a seat's view (see the module docstring)."""
    n = len(view.hand_sizes)
    out = np.zeros(HISTORY_SIZE, np.float32)
    upcard = view.detail is not None and view.detail.upcard is not None
    takes, chances = pile_choices(view.events, n, upcard)
    for k, r in enumerate(RELATIVE):
        seat = (view.seat + r) % n
        base = k * 55
        for e in view.events:
            if e.seat == seat and isinstance(e.action, Discard):
                out[base + e.action.card] = 1
        out[base + 53] = takes[seat] / 10
        out[base + 54] = takes[seat] / chances[seat] if chances[seat] else 0.5
    return out


class Decisions:
    """Token decisions of ``heuristic``: observations, history, allowed tokens, choices."""

    def __init__(self) -> None:
        self.compact: list[npt.NDArray[np.float16]] = []
        self.history: list[npt.NDArray[np.float32]] = []
        self.allowed: list[list[int]] = []
        self.token: list[int] = []
        self.hand: list[int] = []

    def play(self, hands: int, seed: int) -> None:
        """Play ``hands`` hands of aberto for 4 and keep every decision with an alternative."""
        rng = random.Random(seed)
        encoder = IndexEncoder()
        for number in range(hands):
            game = Game("aberto", players=4, seed=rng.randrange(2**31), match=False)
            bots = [make_bot("heuristic", seed=rng.randrange(2**31)) for _ in range(game.n)]
            self._hand(game, number, bots, encoder)

    def _hand(self, game: Game, number: int, bots: list[Bot], encoder: IndexEncoder) -> None:
        groups = [known_groups(game.n, game.side_of, s) for s in range(game.n)]

        def record(seat: int, legal: Sequence[Action], action: Action) -> None:
            past: npt.NDArray[np.float32] | None = None  # read once, if a token is chosen
            for entry, allowed, token in token_choices(action, legal):
                if past is None:
                    past = history(seat_view(game, seat, full=True))
                full = encoder.dense(game, seat, entry.pending)
                obs = compact_observation(full, entry.prefix, groups[seat])
                self.compact.append(obs.astype(np.float16))
                self.history.append(past)
                self.allowed.append(allowed)
                self.token.append(token)
                self.hand.append(number)

        play_hand(game, bots, on_decision=record)


def accuracy_curve(data: Decisions, with_history: bool, epochs: int, seed: int) -> list[float]:
    """Train a policy on the decisions; its held-out accuracy after each pass."""
    torch.manual_seed(seed)
    width = COMPACT_SIZE + (HISTORY_SIZE if with_history else 0)
    net = torch.nn.Sequential(
        torch.nn.Linear(width, 256),
        torch.nn.Tanh(),
        torch.nn.Linear(256, 256),
        torch.nn.Tanh(),
        torch.nn.Linear(256, N_TOKENS),
    )
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    compact = np.stack(data.compact)
    past = np.stack(data.history)
    tokens = np.asarray(data.token)
    masks = np.zeros((len(tokens), N_TOKENS), bool)
    for i, allowed in enumerate(data.allowed):
        masks[i, allowed] = True
    held = np.asarray(data.hand) % 20 == 19
    train, test = np.flatnonzero(~held), np.flatnonzero(held)

    def batch(rows: npt.NDArray[np.int64]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x = torch.from_numpy(compact[rows].astype(np.float32))
        if with_history:
            x = torch.cat([x, torch.from_numpy(past[rows])], 1)
        return x, torch.from_numpy(masks[rows]), torch.from_numpy(tokens[rows])

    rng = np.random.default_rng(seed)
    curve = []
    for _ in range(epochs):
        order = rng.permutation(train)
        for start in range(0, len(order), 512):
            x, mask, y = batch(order[start : start + 512])
            loss = torch.nn.functional.cross_entropy(net(x).masked_fill(~mask, -1e8), y)
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
        with torch.no_grad():
            x, mask, y = batch(test)
            right = net(x).masked_fill(~mask, -1e8).argmax(1) == y
            curve.append(float(right.float().mean()))
    return curve


def main() -> None:
    """Play, train both policies, print their curves."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands heuristic plays")
    parser.add_argument("--epochs", type=int, default=4, help="passes over the decisions")
    parser.add_argument("--seed", type=int, default=5, help="the hands' and training's seed")
    args = parser.parse_args()
    if args.hands < 20 or args.epochs < 1:
        parser.error("give at least 20 hands (one in 20 is held out) and 1 epoch")
    torch.set_num_threads(1)
    start = time.process_time()
    data = Decisions()
    data.play(args.hands, args.seed)
    print(
        f"{len(data.token):,} token decisions in {args.hands:,} hands "
        f"({time.process_time() - start:.0f} s of CPU)"
    )
    for with_history in (False, True):
        name = "compact+history" if with_history else "compact"
        curve = accuracy_curve(data, with_history, args.epochs, args.seed)
        shown = ", ".join(f"{a:.3f}" for a in curve)
        print(f"{name:>16}: held-out accuracy by pass {shown}")


if __name__ == "__main__":
    main()
