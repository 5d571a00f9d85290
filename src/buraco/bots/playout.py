"""The bots a search may play its playouts with: every bot that does not search itself."""

from __future__ import annotations

from buraco.bots.base import Bot
from buraco.bots.exploits import EXPLOITS
from buraco.bots.greedy import GreedyBot
from buraco.bots.heuristic import HeuristicBot
from buraco.bots.learned import LearnedBot
from buraco.bots.policy import PolicyBot
from buraco.bots.randombot import RandomBot

PLAYOUT_BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "policy": PolicyBot,
    "learned": LearnedBot,
    **EXPLOITS,
}
"""Bot classes by name, as :data:`buraco.bots.BOTS` gives them, but for the search."""
