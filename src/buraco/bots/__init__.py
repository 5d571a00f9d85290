"""Bots: players that see only their own seat's view.

Bots are chosen by name, with optional parameters after a colon
(``"greedy"``, ``"heuristic"``, ``"mcts:time=0.5,policy=greedy"``):

>>> make_bot("mcts:iterations=50", seed=1).iterations
50
>>> make_bot("grumpy")
Traceback (most recent call last):
...
buraco.errors.BotError: unknown bot 'grumpy'; bots are: random, greedy, heuristic, mcts, policy, \
learned, hoarder, stocker, holder, rusher, wildhoarder, starver, feeder, minimum
>>> make_bot("mcts:depth=deep")
Traceback (most recent call last):
...
buraco.errors.BotError: bot 'mcts': parameter depth must be a whole number, not 'deep'
"""

from __future__ import annotations

from typing import cast

from buraco.bots.base import Bot
from buraco.bots.exploits import EXPLOITS, Exploit
from buraco.bots.greedy import GreedyBot
from buraco.bots.heuristic import HeuristicBot
from buraco.bots.learned import LearnedBot
from buraco.bots.mcts import MctsBot
from buraco.bots.play import play_hand, play_match, play_one
from buraco.bots.policy import PolicyBot
from buraco.bots.randombot import RandomBot
from buraco.errors import BotError, shown
from buraco.game import MAX_NAME

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "mcts": MctsBot,
    "policy": PolicyBot,
    "learned": LearnedBot,
    **EXPLOITS,
}
"""Bot classes by name."""


MAX_SPEC = 200
"""The longest bot spec accepted, in characters."""


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec: a name, optionally with ``:name=value,...`` parameters.

    Raises :class:`~buraco.errors.BotError` naming the bots, or the bot's
    parameters, for a spec that names neither.
    """
    if not isinstance(spec, str) or not 0 < len(spec) <= MAX_SPEC:
        raise BotError(
            f"a bot spec is a name such as 'heuristic' or 'mcts:time=0.5' (1 to {MAX_SPEC} "
            f"characters), not {shown(spec)}; bots are: {', '.join(BOTS)}"
        )
    if seed is not None and type(seed) is not int:
        raise BotError(f"a bot's seed is a whole number, not {shown(seed)}")
    name, _, text = spec.partition(":")
    name = name.strip().lower()
    cls = BOTS.get(name)
    if cls is None:
        raise BotError(f"unknown bot {shown(name)}; bots are: {', '.join(BOTS)}")
    kwargs: dict[str, object] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep:
            raise BotError(f"bot {name!r}: write parameters as name=value, not {shown(item)}")
        kind = cls.params.get(key)
        if key in kwargs:
            raise BotError(f"bot {name!r}: parameter {key} is given twice; give it once")
        if kind is None:
            allowed = ", ".join(cls.params) or "none"
            raise BotError(f"bot {name!r} has no parameter {shown(key)}; parameters: {allowed}")
        kwargs[key] = _convert(name, key, value.strip(), kind)
    if "seed" in kwargs:  # a spec's own seed wins
        seed = cast(int, kwargs.pop("seed"))
    return cls(seed=seed, **kwargs)


def seat_name(spec: str, seat: int) -> str:
    """A player name for a bot at a seat (counted from 0), short enough for a game.

    >>> seat_name("heuristic", 0)
    'heuristic 1'
    >>> seat_name("mcts:time=0.25,iterations=100,policy=greedy", 2)
    'mcts:time=0.25,iterations=100,policy=… 3'
    """
    suffix = f" {seat + 1}"
    room = MAX_NAME - len(suffix)
    return (spec if len(spec) <= room else spec[: room - 1] + "…") + suffix


def split_specs(text: str) -> list[str]:
    """Bot specs from a comma-separated list, keeping each bot's own parameters.

    A bot's ``name=value`` parameters are comma-separated too, so a piece that is a
    parameter stays with the bot before it.

    >>> split_specs("mcts:time=0.5,policy=greedy,heuristic, random")
    ['mcts:time=0.5,policy=greedy', 'heuristic', 'random']
    """
    specs: list[str] = []
    for piece in text.split(","):
        name = piece.strip()
        if "=" in name and ":" not in name and specs and ":" in specs[-1]:
            specs[-1] += "," + name
        else:
            specs.append(name)
    return specs


def _convert(bot: str, key: str, value: str, kind: type) -> object:
    if kind is str:
        return value
    if kind is bool:
        words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
        if value.lower() not in words:
            raise BotError(
                f"bot {bot!r}: parameter {key} must be true or false, not {shown(value)}"
            )
        return words[value.lower()]
    try:
        if len(value) > 20:
            raise ValueError
        if kind is int:
            return int(value)
        if kind is float:
            number = float(value)
            if number != number or number in (float("inf"), float("-inf")):
                raise ValueError
            return number
    except ValueError:
        what = "a whole number" if kind is int else "a finite number"
        raise BotError(f"bot {bot!r}: parameter {key} must be {what}, not {shown(value)}") from None
    return value


__all__ = [
    "BOTS",
    "EXPLOITS",
    "Bot",
    "Exploit",
    "GreedyBot",
    "HeuristicBot",
    "LearnedBot",
    "MctsBot",
    "PolicyBot",
    "RandomBot",
    "make_bot",
    "play_hand",
    "play_match",
    "play_one",
    "seat_name",
    "split_specs",
]
