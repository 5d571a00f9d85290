"""Statistics of an arena: confidence intervals of a mean, and Elo-style ratings.

No SciPy: the one quantile needed (Student's t at 97.5%, for 95% intervals) comes
from a table for small samples and a series beyond it; the ratings are a
Bradley–Terry model fitted by a short fixed-point iteration.

>>> ci = mean_ci([10, 20, 30, 40])
>>> ci.mean, round(ci.low, 2), round(ci.high, 2)
(25.0, 4.46, 45.54)
>>> [round(r) for r in elo_ratings(2, {(0, 1): Outcome(wins=3, losses=1)})]
[1574, 1426]
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip
_Z975 = 1.959963984540054


def t_critical(df: int) -> float:
    """The two-sided 95% critical value of Student's t with ``df`` degrees of freedom.

    For 1 to 30 degrees of freedom it is read from a table (four decimals, as printed
    in statistics textbooks). Beyond, it is the Cornish–Fisher expansion of the t
    quantile around the normal one (Abramowitz & Stegun 26.7.5, terms to ``df**-4``),
    ``z + g1/df + g2/df**2 + g3/df**3 + g4/df**4`` with ``z = 1.95996`` and each ``g`` a
    polynomial in ``z``; from 31 degrees of freedom on it is within 1e-7 of the exact
    value, and it tends to ``z`` as ``df`` grows.

    >>> t_critical(1), t_critical(30), round(t_critical(1000), 4)
    (12.7062, 2.0423, 1.9623)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


@dataclass(frozen=True)
class MeanCI:
    """A sample's mean with its 95% confidence interval (None with fewer than two values)."""

    n: int
    mean: float
    sd: float | None
    """The sample standard deviation (``n - 1`` in the denominator)."""
    half_width: float | None
    """``t * sd / sqrt(n)``: the interval is ``mean ± half_width``."""

    @property
    def low(self) -> float | None:
        """Lower end of the interval."""
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def high(self) -> float | None:
        """Upper end of the interval."""
        return None if self.half_width is None else self.mean + self.half_width

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "n": self.n,
            "mean": self.mean,
            "sd": self.sd,
            "ci95": None if self.half_width is None else [self.low, self.high],
        }


def mean_ci(values: Sequence[float]) -> MeanCI:
    """The mean of ``values`` and its 95% confidence interval from Student's t.

    The interval assumes independent values (the deals are: each has its own cards)
    and a roughly normal mean, which sums of many hands' scores give.
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = statistics.fmean(values)
    if n < 2:
        return MeanCI(n, mean, None, None)
    sd = statistics.stdev(values)
    return MeanCI(n, mean, sd, t_critical(n - 1) * sd / math.sqrt(n))


@dataclass(frozen=True)
class Outcome:
    """Duplicate deals between two bots, from the first one's side."""

    wins: int = 0
    losses: int = 0
    ties: int = 0

    @property
    def deals(self) -> int:
        """Deals played."""
        return self.wins + self.losses + self.ties

    @property
    def score(self) -> float:
        """Wins plus half the ties, over the deals (0.5 when nothing was played)."""
        return (self.wins + self.ties / 2) / self.deals if self.deals else 0.5


PRIOR_TIES = 1.0
"""Virtual tied deals added to every pair that met (see :func:`elo_ratings`)."""


def elo_ratings(
    n_bots: int,
    outcomes: Mapping[tuple[int, int], Outcome],
    prior_ties: float = PRIOR_TIES,
    iterations: int = 10_000,
) -> list[float]:
    """Elo-style ratings of ``n_bots`` bots from their pairwise duplicate deals.

    ``outcomes[(i, j)]`` holds bot ``i``'s wins, losses and ties against bot ``j``.
    The model is Bradley–Terry: bot ``i`` has a strength ``g[i] > 0`` and wins a deal
    against ``j`` with probability ``g[i] / (g[i] + g[j])``; a tie counts as half a win
    for each. The strengths are the maximum-likelihood fit, found by the
    minorize–maximize iteration of Hunter (2004),
    ``g[i] = W[i] / sum over opponents j of N[i,j] / (g[i] + g[j])``, where ``W[i]`` is
    ``i``'s wins and ``N[i,j]`` the deals between ``i`` and ``j``; it converges whenever
    every bot has won and lost something.

    To keep a bot that won (or lost) every deal from an infinite rating, every pair
    that met gets ``prior_ties`` virtual tied deals, a mild prior that pulls ratings
    toward each other and fades as deals accumulate. A rating is ``400 * log10(g)``
    shifted so that the ratings average 1500: as with Elo, a 400-point gap means the
    stronger bot is expected to win ten deals for each one it loses. With two bots
    the gap is simply ``400 * log10((wins + ties/2 + prior/2) / (losses + ties/2 +
    prior/2))``.
    """
    if n_bots < 1:
        raise ValueError("no bots to rate")
    wins = [0.0] * n_bots
    games: dict[tuple[int, int], float] = {}
    for (i, j), o in outcomes.items():
        if i == j or not (0 <= i < n_bots and 0 <= j < n_bots):
            raise ValueError(f"bad pair {(i, j)} for {n_bots} bots")
        if not o.deals and not prior_ties:
            continue
        wins[i] += o.wins + (o.ties + prior_ties) / 2
        wins[j] += o.losses + (o.ties + prior_ties) / 2
        key = (min(i, j), max(i, j))
        games[key] = games.get(key, 0.0) + o.deals + prior_ties
    strength = [1.0] * n_bots
    for _ in range(iterations):
        new = []
        for i in range(n_bots):
            denom = 0.0
            for (a, b), n in games.items():
                if i in (a, b):
                    denom += n / (strength[a] + strength[b])
            new.append(max(wins[i], 1e-12) / denom if denom else 1.0)
        mean_log = statistics.fmean(math.log(g) for g in new)
        new = [g / math.exp(mean_log) for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    logs = [400 * math.log10(g) for g in strength]
    shift = 1500 - statistics.fmean(logs)
    return [x + shift for x in logs]
