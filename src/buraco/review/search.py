"""Weighing a decision's candidates on deals sampled from the seat's view.

Each round samples the hidden cards anew with :class:`~buraco.determinize.Determinizer`
(consistently with everything the seat has seen, never the real cards) and rolls every
live candidate out on that deal with the same playout seeds
(:func:`buraco.review.rollout.rollout`), so the differences between candidates carry
little of the deal's luck. After ``min_rounds`` rounds a candidate other than the one
played that is more than three standard errors below the best is dropped, and the search
stops once the played step's loss is *settled*: its grade is the same at both ends of its
interval (``z`` standard errors each way), or at ``max_rounds``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from buraco.actions import Action
from buraco.bots.base import Bot
from buraco.bots.mcts import pile_habits
from buraco.determinize import Determinizer
from buraco.review.candidates import Candidate, Step, candidates
from buraco.review.grades import band
from buraco.review.options import ReviewOptions
from buraco.review.rollout import Outcome, Value, rollout
from buraco.views import SeatView

PRUNE = 3.0
"""Standard errors below the best that drop a candidate (never the one played)."""


@dataclass
class Tally:
    """One candidate's rollouts: its values by round and the facts counted."""

    candidate: Candidate
    values: list[float] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    """The rounds it was rolled out in (a dropped candidate stops)."""
    next_took: int = 0
    next_pile: int = 0
    ended: int = 0
    pot: int = 0
    canastra: int = 0

    def add(self, r: int, o: Outcome) -> None:
        """Count one rollout of round ``r``."""
        self.values.append(o.value)
        self.rounds.append(r)
        self.next_took += o.next_took
        self.next_pile += o.next_pile
        self.ended += o.ended
        self.pot += o.pot
        self.canastra += o.canastra

    @property
    def mean(self) -> float:
        """The mean value."""
        return sum(self.values) / len(self.values) if self.values else -math.inf

    def share(self, count: int) -> float:
        """A count's share of the rollouts."""
        return count / len(self.values) if self.values else 0.0


def paired(a: Tally, b: Tally) -> tuple[float, float, int]:
    """Mean of ``a − b`` over the rounds both were rolled out in, its standard error, n."""
    rb = dict(zip(b.rounds, b.values, strict=True))
    d = [v - rb[r] for r, v in zip(a.rounds, a.values, strict=True) if r in rb]
    n = len(d)
    if not n:
        return 0.0, math.inf, 0
    m = sum(d) / n
    if n < 2:
        return m, math.inf, n
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    return m, math.sqrt(var / n), n


@dataclass(frozen=True)
class Weighed:
    """A decision weighed: every candidate's tally, the rounds and the best found."""

    tallies: tuple[Tally, ...]
    """The played step's first."""
    rounds: int
    best: int
    """The index in ``tallies`` of the best found."""
    loss: float
    """The best's mean minus the played step's (0 when the played step is the best)."""
    se: float
    """The standard error of ``loss`` (paired over the rounds both were rolled out in)."""


def interval(tallies: Sequence[Tally], z: float) -> tuple[float, float, int, float, float]:
    """The played step's loss: (low end, high end, best index, loss, its standard error)."""
    played = tallies[0]
    best = max(range(len(tallies)), key=lambda i: tallies[i].mean)
    low = 0.0
    high = 0.0
    loss, se = 0.0, 0.0
    for i, t in enumerate(tallies[1:], start=1):
        m, s, _ = paired(t, played)
        low = max(low, m - z * s)
        high = max(high, m + z * s)
        if i == best:
            loss, se = m, s
    return low, high, best, max(loss, 0.0), se


def settled(low: float, high: float) -> bool:
    """Whether both ends of a loss's interval fall in one grade."""
    return band(max(low, 0.0)) == band(max(high, 0.0))


def weigh(
    view: SeatView,
    played: Step,
    options: ReviewOptions,
    rng: random.Random,
    policy: Bot,
    bots: Sequence[Bot],
    value: Value,
) -> Weighed:
    """Weigh the played step against the alternatives at ``view`` (see the module docstring).

    ``policy`` proposes the alternatives; ``bots`` (one per seat) play the rollouts.
    """
    sampler = Determinizer(view)
    habits: list[Action | None] = pile_habits(view)
    first = sampler.sample(rng)
    tallies = [Tally(c) for c in candidates(view, first, played, policy, options.width)]
    live = list(range(len(tallies)))
    rounds = 0
    deal = first
    while rounds < options.max_rounds and len(tallies) > 1:
        if rounds:
            deal = sampler.sample(rng)
        seed = rng.randrange(2**31)
        seat = view.seat
        for i in live:
            o = rollout(
                deal.clone(),
                tallies[i].candidate.step,
                seat,
                bots,
                seed,
                options.depth,
                value,
                habits,
            )
            tallies[i].add(rounds, o)
        rounds += 1
        if rounds < options.min_rounds:
            continue
        best = max(live, key=lambda j: tallies[j].mean)
        kept = []
        for j in live:
            if j in (0, best):
                kept.append(j)
                continue
            m, s, _ = paired(tallies[j], tallies[best])
            if m + PRUNE * s >= 0:
                kept.append(j)
        live = kept
        low, high, *_ = interval(tallies, options.z)
        if settled(low, high):
            break
    if len(tallies) == 1:
        return Weighed(tuple(tallies), 0, 0, 0.0, 0.0)
    _, _, best, loss, se = interval(tallies, options.z)
    if best == 0:
        loss, se = 0.0, 0.0
    return Weighed(tuple(tallies), rounds, best, loss, se)
