"""The ``buraco`` command: rules, simulate, replay, bench.

Every command reports bad input (an unknown preset, option, bot or card, a
malformed record) as a one-line error and a non-zero exit, never a traceback.
"""

from __future__ import annotations

from buraco.cli.app import app, main

__all__ = ["app", "main"]
