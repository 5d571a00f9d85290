"""The ``mcts`` bot: Monte Carlo search over sampled deals (determinized search).

The bot sees only its seat's full view. At a decision worth searching it builds a
:class:`~buraco.determinize.Determinizer` from the view and repeats, within its
budget: deal the unseen cards at random consistently with everything the view
has shown (the other hands, the stock, the mortos), try one of the candidate
actions on that deal, and play the hand out with a fast policy bot in every
seat. Candidates are chosen by UCB1, so the promising ones get more playouts; the
action with the best mean result (its side's hand score minus the best other
side's) is played.

Searched decisions: drawing or taking the pile, and the discard. Melds, adds and
the other choices of a turn follow the policy bot (searching them too spends the
budget on many near-equal options). A decision with one candidate is immediate.

Budget: ``time`` seconds per decision (default 1.0) and/or ``iterations``
playouts. With ``iterations`` alone the bot is deterministic for a seed; a time
budget depends on the machine. Parameters are given by name:
``mcts:time=0.5``, ``mcts:iterations=200,policy=greedy``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import ClassVar

from buraco.actions import Action, Discard
from buraco.bots.base import Bot
from buraco.determinize import Determinizer
from buraco.game import Game
from buraco.views import SeatView, seat_view


class MctsBot(Bot):
    """Determinized Monte Carlo search with a policy bot for playouts."""

    name = "mcts"
    wants_full_view = True
    params: ClassVar[dict[str, type]] = {
        "time": float,
        "iterations": int,
        "policy": str,
        "explore": float,
        "depth": int,
    }

    def __init__(
        self,
        seed: int | None = None,
        time: float = 1.0,
        iterations: int = 0,
        policy: str = "heuristic",
        explore: float = 1.0,
        depth: int = 0,
    ) -> None:
        super().__init__(seed)
        if time <= 0 and iterations <= 0:
            raise ValueError("mcts needs a budget: time > 0 or iterations > 0")
        if iterations < 0 or depth < 0 or explore < 0:
            raise ValueError("mcts: iterations, depth and explore must not be negative")
        from buraco.bots import BOTS

        policy_cls = BOTS.get(policy)
        if policy_cls is None or policy_cls is MctsBot:
            choices = ", ".join(n for n, c in BOTS.items() if c is not MctsBot)
            raise ValueError(f"mcts: unknown playout policy {policy!r}; choose {choices}")
        self.time = time
        self.iterations = iterations
        self.policy_cls = policy_cls
        self.explore = explore
        self.depth = depth
        self.policy = policy_cls(seed=self.rng.randrange(2**31))
        self.last_iterations = 0
        """Playouts made for the last decision (for measurements)."""

    def new_hand(self) -> None:
        """Forget the previous hand (the policy bot too)."""
        self.policy.new_hand()

    # ----- deciding ------------------------------------------------------------------
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A searched choice when it matters, else the policy's."""
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        candidates = self._candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, candidates)

    def _candidates(self, view: SeatView, legal: Sequence[Action]) -> list[Action]:
        if view.phase == "draw":
            return list(legal)
        suggestion = self.policy.choose(view, legal)
        if view.phase != "play" or not isinstance(suggestion, Discard):
            return [suggestion]
        return [a for a in legal if isinstance(a, Discard)]

    def _search(self, view: SeatView, candidates: list[Action]) -> Action:
        sampler = Determinizer(view)
        side = view.side
        k = len(candidates)
        visits = [0] * k
        totals = [0.0] * k
        deadline = time.perf_counter() + self.time if self.time > 0 else math.inf
        limit = self.iterations or math.inf
        done = 0
        while done < limit and (done < k or time.perf_counter() < deadline):
            if done < k:
                i = done  # every candidate once first
            else:
                log_n = math.log(done)
                i = max(
                    range(k),
                    key=lambda j: (
                        totals[j] / visits[j] + self.explore * math.sqrt(log_n / visits[j])
                    ),
                )
            game = sampler.sample(self.rng)
            game.apply(candidates[i])
            totals[i] += self._playout(game, side)
            visits[i] += 1
            done += 1
        self.last_iterations = done
        best = max(range(k), key=lambda j: totals[j] / visits[j] if visits[j] else -math.inf)
        return candidates[best]

    def _playout(self, game: Game, side: int) -> float:
        """Play the sampled hand out with the policy; the result for ``side``, about -1..1."""
        bots = [self.policy_cls(seed=self.rng.randrange(2**31)) for _ in range(game.players)]
        turns = 0
        while not game.is_hand_over():
            seat = game.turn
            legal = game.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                bot = bots[seat]
                action = bot.choose(seat_view(game, seat, full=bot.wants_full_view), legal)
            if isinstance(action, Discard):
                turns += 1
                if self.depth and turns >= self.depth * game.players:
                    game.apply(action)
                    break
            game.apply(action)
        scores = [s.total for s in game.scores()]
        mine = scores[side]
        best_other = max(s for i, s in enumerate(scores) if i != side)
        return max(-1.0, min(1.0, (mine - best_other) / 1000))
