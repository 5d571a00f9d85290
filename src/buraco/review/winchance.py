"""The match-win chance: a logistic curve of the lead, fitted on played matches.

Where a match to a target is on, a side's chance of winning it is modelled from two
numbers known at a decision: its lead ``d`` (its match total minus the best other
side's, plus the hand's expected lead after the step) and the points still to go ``r``
(the target minus the highest total, at least 0):

    P(win) = 1 / (1 + exp(-β · d / sqrt(r + c)))

with ``c`` a third of the target (so that a lead still counts when the target is near)
and ``β`` fitted by maximum likelihood per preset and player count on matches of the
``heuristic`` bot in every seat (``scripts/fit_match_win.py``: at the start of every hand,
the lead after that hand, the points to go before it, and whether the side won the
match). The fit and its sample are in ``docs/review.md``. A table without a fitted curve
uses the mean of the fitted ones. A match of a fixed number of hands, or a single hand,
has no chance: None.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from buraco.rules import Rules

BETAS: dict[tuple[str, int], float] = {
    # scripts/fit_match_win.py --matches 200 (seed 1): matches, rows, mean log loss
    ("aberto", 4): 0.148,  # 200 matches, 1636 rows, log loss 0.432
    ("aberto", 2): 0.145,  # 200 matches, 1464 rows, log loss 0.410
    ("fechado", 4): 0.142,  # 200 matches, 2662 rows, log loss 0.475
    ("fechado", 2): 0.135,  # 200 matches, 2538 rows, log loss 0.482
    ("italiano", 4): 0.211,  # 200 matches, 1670 rows, log loss 0.343
    ("italiano", 2): 0.151,  # 200 matches, 1588 rows, log loss 0.422
    ("us", 4): 0.163,  # 200 matches, 1114 rows, log loss 0.388
    ("netcartas", 4): 0.128,  # 200 matches, 2120 rows, log loss 0.480
}
"""β of each preset and player count (``scripts/fit_match_win.py``)."""

DEFAULT_BETA = 0.15
"""β where no fit is at hand (about the fitted ones)."""


def beta_of(rules: Rules) -> float:
    """The fitted β of a table."""
    if (rules.preset, rules.players) in BETAS:
        return BETAS[(rules.preset, rules.players)]
    return sum(BETAS.values()) / len(BETAS) if BETAS else DEFAULT_BETA


def feature(rules: Rules, totals: Sequence[int], side: int, lead: float) -> float:
    """``d / sqrt(r + c)`` for a side whose hand ends ``lead`` points ahead of the best other.

    ``totals``: the match totals before the hand's score is added.
    """
    others = max(t for i, t in enumerate(totals) if i != side)
    d = totals[side] - others + lead
    r = max(rules.target - max(totals), 0)
    return d / math.sqrt(r + rules.target / 3)


def win_chance(
    rules: Rules, totals: Sequence[int], side: int, lead: float, match: bool
) -> float | None:
    """The side's chance of winning the match if its hand ends ``lead`` points ahead.

    None when no match to a target is on.

    >>> from buraco.rules import make_rules
    >>> r = make_rules("aberto", players=4)
    >>> round(win_chance(r, [1000, 1000], 0, 0.0, True), 2)
    0.5
    >>> win_chance(r, [1000, 1000], 0, 0.0, False) is None
    True
    """
    if not match or rules.match_hands:
        return None
    z = beta_of(rules) * feature(rules, totals, side, lead)
    return 1 / (1 + math.exp(-max(min(z, 50.0), -50.0)))
