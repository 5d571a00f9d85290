"""Decision times: a compact histogram of how long each ``bot.choose`` call took.

An arena makes millions of decisions, so the times are not kept one by one: each is
counted in a logarithmic bucket 1% wide (bucket ``i`` holds times in
``[FLOOR * 1.01**i, FLOOR * 1.01**(i+1))``). A quantile is read from the buckets and
is within 1% of the exact one; the count, mean and maximum are exact. Sketches from
several processes merge by adding their counts.

>>> sketch = TimeSketch()
>>> for ms in range(1, 101):
...     sketch.add(ms / 1000)
>>> sketch.count, round(sketch.quantile(0.5) * 1000), round(sketch.quantile(0.95) * 1000)
(100, 50, 95)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

FLOOR = 1e-7
"""Times below 0.1 µs count as 0.1 µs."""
_STEP = math.log(1.01)


@dataclass
class TimeSketch:
    """Counts of decision times (seconds) in 1%-wide logarithmic buckets."""

    buckets: dict[int, int] = field(default_factory=dict)
    count: int = 0
    total: float = 0.0
    """Sum of the times (seconds)."""
    maximum: float = 0.0
    """The longest time (seconds)."""

    def add(self, seconds: float) -> None:
        """Count one decision that took ``seconds``."""
        i = int(math.log(max(seconds, FLOOR) / FLOOR) / _STEP)
        self.buckets[i] = self.buckets.get(i, 0) + 1
        self.count += 1
        self.total += seconds
        self.maximum = max(self.maximum, seconds)

    def merge(self, other: TimeSketch) -> None:
        """Add another sketch's counts to this one."""
        for i, n in other.buckets.items():
            self.buckets[i] = self.buckets.get(i, 0) + n
        self.count += other.count
        self.total += other.total
        self.maximum = max(self.maximum, other.maximum)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile (0 to 1) in seconds, within 1%; 0.0 when nothing was counted."""
        if not self.count:
            return 0.0
        rank = max(1, math.ceil(q * self.count))
        seen = 0
        for i in sorted(self.buckets):
            seen += self.buckets[i]
            if seen >= rank:
                # the bucket's geometric middle, never past the exact maximum
                return min(FLOOR * math.exp((i + 0.5) * _STEP), self.maximum)
        return self.maximum

    @property
    def mean(self) -> float:
        """Mean time (seconds); 0.0 when nothing was counted."""
        return self.total / self.count if self.count else 0.0

    def summary(self) -> dict[str, float | int]:
        """Count, median, p95, mean and maximum, in milliseconds (JSON-friendly)."""
        return {
            "decisions": self.count,
            "median_ms": self.quantile(0.5) * 1000,
            "p95_ms": self.quantile(0.95) * 1000,
            "mean_ms": self.mean * 1000,
            "max_ms": self.maximum * 1000,
        }
