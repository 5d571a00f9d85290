"""How hard a review looks: the modes, the search's depth and its rounds.

A *round* is one deal sampled from the seat's view with every candidate rolled out on it
(the same deal and the same playout seeds for each: common random numbers). A decision
gets at least ``min_rounds`` and at most ``max_rounds`` rounds; between the two it stops
once its grade is settled (:func:`buraco.review.search.settled`). Rounds, never time,
bound the work, so a review is the same on every machine for a seed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any


@dataclass(frozen=True)
class ReviewOptions:
    """The settings of a review (the defaults are the default mode)."""

    seed: int = 0
    """Seeds every decision's deals and playouts (with the hand and the step)."""
    depth: int = 2
    """Rounds of play (every player's turn once) in a rollout before the value scores it,
    as the ``expert`` bot searches; 0 plays each hand out."""
    min_rounds: int = 12
    max_rounds: int = 48
    width: int = 3
    """The policy's preferred discards weighed at a discard."""
    value: str = "learned"
    """What scores a cut rollout: ``learned`` (the value ``expert`` searches with) or
    ``fitted``."""
    policy: str = "heuristic"
    """The playout policy (and the source of the alternatives), as ``expert``'s."""
    z: float = 2.0
    """Standard errors on each side of a loss before its grade counts as settled."""
    mode: str = "default"

    @classmethod
    def quick(cls, seed: int = 0) -> ReviewOptions:
        """The quick mode: fewer rounds and alternatives (about a sixth of the work)."""
        return cls(seed=seed, min_rounds=6, max_rounds=10, width=2, mode="quick")

    @classmethod
    def of_mode(cls, mode: str, seed: int = 0) -> ReviewOptions:
        """The options of a mode, ``default`` or ``quick``."""
        if mode == "quick":
            return cls.quick(seed)
        if mode == "default":
            return cls(seed=seed)
        raise ValueError(f"a review's mode is default or quick, not {mode!r:.40}")

    def with_seed(self, seed: int) -> ReviewOptions:
        """The same options with another seed."""
        return replace(self, seed=seed)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return asdict(self)

    def check(self) -> None:
        """Raise :class:`ValueError` for options out of range."""
        if not 1 <= self.min_rounds <= self.max_rounds <= 10_000:
            raise ValueError("rounds: 1 <= min_rounds <= max_rounds <= 10000")
        if not 0 <= self.depth <= 1000 or not 1 <= self.width <= 50:
            raise ValueError("depth is from 0 to 1000 and width from 1 to 50")
        if self.value not in ("learned", "fitted"):
            raise ValueError(f"value is learned or fitted, not {self.value!r:.40}")
        if not 0 <= self.seed < 2**63:
            raise ValueError("the seed is a whole number from 0 to 2**63 - 1")
