"""Crash points: where a test may have a server process die, to see what it leaves behind.

With ``BURACO_CRASH_AT=<point>`` in its environment, a server process kills itself with
SIGKILL (nothing flushed, no lease given up, nobody told) when it reaches that point:

- ``finish``: a match's last action is committed; its end (the stored game, the table
  marked over, the ratings) is not;
- ``finished``: the match's end is committed; no one has been told of it.

Another process takes the table up once the lease runs out and finishes what was left,
once (``tests/server/test_cluster_processes.py``). Unset, as it always is outside those
tests, a crash point does nothing.
"""

from __future__ import annotations

import os
import signal

CRASH_ENV = "BURACO_CRASH_AT"
"""The environment variable naming the crash point."""

POINTS = ("finish", "finished")
"""The crash points, in the order a match's end reaches them."""


def crash_point(point: str) -> None:
    """Die here (SIGKILL) if the environment names this point."""
    assert point in POINTS, point
    if os.environ.get(CRASH_ENV) == point:
        os.kill(os.getpid(), signal.SIGKILL)
