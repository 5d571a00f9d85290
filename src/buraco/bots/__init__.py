"""Bots: players that see only their own seat's view.

Bots are chosen by name, with optional parameters after a colon
(``"greedy"``, ``"random"``, later ``"mcts:time=0.5"``):

>>> bot = make_bot("greedy", seed=1)
>>> bot.name
'greedy'
>>> make_bot("grumpy")
Traceback (most recent call last):
...
ValueError: unknown bot 'grumpy'; bots are: random, greedy
"""

from __future__ import annotations

from buraco.bots.base import Bot
from buraco.bots.greedy import GreedyBot
from buraco.bots.play import play_hand, play_match
from buraco.bots.randombot import RandomBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}
"""Bot classes by name."""


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a name such as ``greedy`` (parameters after ``:`` are for later bots)."""
    name, _, params = spec.partition(":")
    cls = BOTS.get(name.strip().lower())
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(BOTS)}")
    if params.strip():
        raise ValueError(f"bot {name!r} takes no parameters (got {params!r})")
    return cls(seed=seed)


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot", "play_hand", "play_match"]
