"""Bot specs: a bot's name, then its parameters (``"mcts:time=0.5,policy=greedy"``).

:func:`build` makes the bot a spec names among given classes, each parameter converted to
the type its class declares; :func:`buraco.bots.make_bot` is it with every bot. Nothing here
knows a bot: the bots that make other bots from specs (a search's playout policy, a
learned model's loader) use it without importing the package's list of bots.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from buraco.bots.base import Bot
from buraco.errors import BotError, shown

MAX_SPEC = 200
"""The longest bot spec accepted, in characters."""


def build(
    bots: Mapping[str, type[Bot]], spec: str, seed: int | None = None, also: tuple[str, ...] = ()
) -> Bot:
    """The bot a spec names among ``bots``, its parameters typed as its class declares.

    A spec is a name, optionally with ``:name=value,...`` parameters.

    Raises :class:`~buraco.errors.BotError` naming the bots (and the other names ``also``
    accepted), or the bot's parameters, for a spec that names neither.
    """
    known = ", ".join([*bots, *also])
    if not isinstance(spec, str) or not 0 < len(spec) <= MAX_SPEC:
        raise BotError(
            f"a bot spec is a name such as 'heuristic' or 'mcts:time=0.5' (1 to {MAX_SPEC} "
            f"characters), not {shown(spec)}; bots are: {known}"
        )
    if seed is not None and type(seed) is not int:
        raise BotError(f"a bot's seed is a whole number, not {shown(seed)}")
    name, _, text = spec.partition(":")
    name = name.strip().lower()
    cls = bots.get(name)
    if cls is None:
        raise BotError(f"unknown bot {shown(name)}; bots are: {known}")
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
