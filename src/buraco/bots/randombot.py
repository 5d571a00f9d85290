"""The ``random`` bot: uniform among the legal actions."""

from __future__ import annotations

from collections.abc import Sequence

from buraco.actions import Action
from buraco.bots.base import Bot
from buraco.views import SeatView


class RandomBot(Bot):
    """Picks uniformly among the legal actions (a baseline)."""

    name = "random"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A uniformly random legal action."""
        return legal[self.rng.randrange(len(legal))]
