"""Ratings of rated matches: openskill's Plackett–Luce model, per preset and player count.

A player's skill is a normal belief N(μ, σ²); everyone starts at μ = 25, σ = 25/3. After a
rated match each side is ranked (the higher total first, equal totals tied; a side that
resigned or was away at the end, last), and the model updates every player of every side at
once: partnerships (2 or 3 sides of 2 or 3), ``italiano`` for 3 and ``us`` for 6 alike. The
rating shown is conservative, μ − 3σ (rounded), and *provisional* for a player's first
:data:`PROVISIONAL` rated matches. Bots are fixed reference players (:data:`BOT_ANCHORS`):
they take part in the update with their anchor, which never moves, so a newcomer's rating
is measured against known strengths.

>>> after = rate([[("ana", None), ("bia", None)], [("bot", "greedy"), ("caio", None)]],
...              ranks=[0, 1], current={})
>>> round(after["ana"][0], 2) > 25 > round(after["caio"][0], 2)
True
>>> "bot" in after
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The model: Plackett–Luce with openskill's defaults (μ 25, σ 25/3, β 25/6, τ 25/300)."""

START = (MODEL.mu, MODEL.sigma)
"""A new player's (μ, σ)."""

PROVISIONAL = 10
"""Rated matches before a rating is no longer provisional."""

BOT_ANCHORS: dict[str, tuple[float, float]] = {
    "random": (10.0, 1.0),
    "greedy": (20.0, 1.0),
    "heuristic": (25.0, 1.0),
    "mcts": (28.0, 1.0),
    "expert": (30.0, 1.0),
}
"""Each bot's fixed (μ, σ) by its name (the part of its spec before ``:``): anchors ordered
as the bots rank against each other in ``buraco arena`` (expert beats mcts beats heuristic
beats greedy beats random; docs/bots.md), the default player's μ at ``heuristic``. A bot
not named here counts as ``heuristic``."""


def anchor(spec: str) -> tuple[float, float]:
    """A bot's fixed (μ, σ)."""
    return BOT_ANCHORS.get(spec.split(":", 1)[0], BOT_ANCHORS["heuristic"])


def shown(mu: float, sigma: float) -> int:
    """The rating shown for (μ, σ): μ − 3σ, scaled by 40 so it reads like other ratings.

    >>> shown(*START)
    0
    >>> shown(30.0, 2.0)
    960
    """
    return round((mu - 3 * sigma) * 40)


@dataclass(frozen=True)
class Change:
    """One player's rating before and after a rated match."""

    player: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


Entrant = tuple[str, str | None]
"""A seat in a rated match: a player's id (rated), or a key and a bot's spec (fixed)."""


def rate(
    sides: Sequence[Sequence[Entrant]],
    ranks: Sequence[int],
    current: Mapping[str, tuple[float, float]],
) -> dict[str, tuple[float, float]]:
    """Every rated player's new (μ, σ) after a match; ``ranks``: 0 for the best side.

    ``current`` holds the players' (μ, σ) before it (a player not in it starts at
    :data:`START`); bots keep their anchors and are not in the answer.
    """
    teams = []
    for side in sides:
        team = []
        for key, bot in side:
            mu, sigma = anchor(bot) if bot is not None else current.get(key, START)
            team.append(MODEL.rating(mu=mu, sigma=sigma, name=key))
        teams.append(team)
    updated = MODEL.rate(teams, ranks=list(ranks))
    out: dict[str, tuple[float, float]] = {}
    for side, team in zip(sides, updated, strict=True):
        for (key, bot), rating in zip(side, team, strict=True):
            if bot is None:
                out[key] = (float(rating.mu), float(rating.sigma))
    return out


WEEK = 7 * 86400
"""The rolling window of the cap on rated matches against the same opponents, in seconds."""

BOTS = "*bots"
"""Every bot of a match, as one opponent in :func:`opponents_key` (no player's id has ``*``)."""


def opponents_key(sides: Sequence[Sequence[Entrant]], side: int) -> str:
    """Who a side's players played in a match: the other sides' players, and bots as one.

    Partners are not opponents; every bot on the other sides, whatever its spec, is
    :data:`BOTS`, so all matches against bots count as matches against one opponent.

    >>> sides = [[("ana", None), ("seat 2", "greedy")], [("bia", None), ("seat 3", "random")]]
    >>> opponents_key(sides, 0), opponents_key(sides, 1)
    ('*bots bia', '*bots ana')
    >>> opponents_key([[("ana", None)], [("seat 1", "mcts:time=1")]], 0)
    '*bots'
    """
    who = {BOTS if bot is not None else key for i, s in enumerate(sides) if i != side
           for key, bot in s}  # fmt: skip
    return " ".join(sorted(who))


def ranks_of(totals: Sequence[int], last: Sequence[int] = ()) -> list[int]:
    """Each side's rank from its total (0: the best; equal totals share a rank).

    The sides in ``last`` (resigned, or away at the end) come after every other.

    >>> ranks_of([1200, 800])
    [0, 1]
    >>> ranks_of([500, 900, 500])
    [1, 0, 1]
    >>> ranks_of([1200, 800], last=[0])
    [1, 0]
    """
    key = [(side in last, -total) for side, total in enumerate(totals)]
    distinct = sorted(set(key))
    return [distinct.index(k) for k in key]
