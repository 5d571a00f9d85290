"""Stopping a process's background tasks within a bounded time.

A server stops its table drivers, its bus and its database writer by cancelling
their tasks. A cancellation can be lost inside a client library (taken for a failed
read, say), and a task that loops on failures would then never end: a stop that
waits for it would hang. :func:`cancel_and_wait` cancels, waits at most a few
seconds, and says which tasks were left running instead of waiting for ever.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

log = logging.getLogger("buraco.server")

STOP_WAIT = 5.0
"""Seconds a stop waits for cancelled tasks to end before it goes on without them."""


async def cancel_and_wait(
    tasks: Iterable[asyncio.Task[None] | None], *, timeout: float | None = None
) -> int:
    """Cancel ``tasks`` (``None`` ones skipped) and wait a bounded time for them to end.

    The wait is ``timeout`` seconds, :data:`STOP_WAIT` unless given. Returns how many
    are still running then (each named in a warning). The ones that ended have their
    outcome read, so a failure is never reported as unretrieved.
    """
    wait = STOP_WAIT if timeout is None else timeout
    running = {t for t in tasks if t is not None}
    for task in running:
        task.cancel()
    if not running:
        return 0
    done, pending = await asyncio.wait(running, timeout=wait)
    for task in done:
        if not task.cancelled():
            task.exception()
    for task in pending:
        log.warning("task %r did not stop %.0f s after being cancelled", task.get_name(), wait)
    return len(pending)
