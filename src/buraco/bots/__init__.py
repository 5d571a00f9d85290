"""Bots: players that see only their own seat's view.

Bots are chosen by name, with optional parameters after a colon
(``"greedy"``, ``"heuristic"``, ``"mcts:time=0.5,policy=greedy"``):

>>> make_bot("mcts:iterations=50", seed=1).iterations
50
>>> make_bot("grumpy")
Traceback (most recent call last):
...
buraco.errors.BotError: unknown bot 'grumpy'; bots are: random, greedy, heuristic, mcts, policy, \
learned, hoarder, stocker, holder, rusher, wildhoarder, starver, feeder, minimum, expert
>>> make_bot("mcts:depth=deep")
Traceback (most recent call last):
...
buraco.errors.BotError: bot 'mcts': parameter depth must be a whole number, not 'deep'
"""

from __future__ import annotations

from buraco.bots.base import Bot
from buraco.bots.exploits import EXPLOITS, Exploit
from buraco.bots.greedy import GreedyBot
from buraco.bots.heuristic import HeuristicBot
from buraco.bots.learned import LearnedBot
from buraco.bots.mcts import MctsBot
from buraco.bots.play import play_hand, play_match, play_one
from buraco.bots.policy import PolicyBot
from buraco.bots.randombot import RandomBot
from buraco.bots.spec import MAX_SPEC, build
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
"""Bot classes by name: the search, and the bots it may play its playouts with
(:data:`buraco.bots.playout.PLAYOUT_BOTS`)."""


NAMED: dict[str, str] = {
    "expert": "mcts:value=learned,time=0.05,depth=2,futile=0,limit=1",
}
"""Short names of bots that are a spec of another: ``expert`` is the strongest bot, the
search with the learned value (``docs/bots.md``). Parameters given after the name replace
the spec's own (``expert:time=0.1``)."""


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec: a name, optionally with ``:name=value,...`` parameters.

    A name of :data:`NAMED` stands for its spec, with the parameters given after it in place
    of the spec's own:

    >>> bot = make_bot("expert:time=0.1")
    >>> type(bot).__name__, bot.time, bot.depth
    ('MctsBot', 0.1, 2)

    Raises :class:`~buraco.errors.BotError` naming the bots, or the bot's
    parameters, for a spec that names neither.
    """
    if isinstance(spec, str) and len(spec) <= MAX_SPEC:
        name, _, given = spec.partition(":")
        named = NAMED.get(name.strip().lower())
        if named is not None:
            spec = _merged(named, given)
    return build(BOTS, spec, seed, also=tuple(NAMED))


def _merged(spec: str, given: str) -> str:
    """A spec with the ``name=value`` parameters of ``given`` in place of its own."""
    name, _, own = spec.partition(":")
    params = dict(p.split("=", 1) for p in own.split(",") if p)
    for item in filter(None, (p.strip() for p in given.split(","))):
        key, sep, value = item.partition("=")
        if not sep:  # refused by the spec's parser, naming the item
            return f"{name}:{given}"
        params[key.strip()] = value.strip()
    return f"{name}:" + ",".join(f"{k}={v}" for k, v in params.items())


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


__all__ = [
    "BOTS",
    "EXPLOITS",
    "MAX_SPEC",
    "NAMED",
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
