"""A stop never waits for ever on a task whose cancellation was lost."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from buraco.server.stopping import cancel_and_wait


async def _stubborn(until: asyncio.Event) -> None:
    """A loop that takes a cancellation for a failure and goes on (as a client may)."""
    while not until.is_set():
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            continue


async def _fails() -> None:
    raise RuntimeError("boom")


async def test_tasks_that_end_when_cancelled_are_waited_for() -> None:
    tasks = [asyncio.create_task(asyncio.sleep(3600)) for _ in range(3)]
    assert await cancel_and_wait([*tasks, None], timeout=5) == 0
    assert all(t.cancelled() for t in tasks)


async def test_a_task_that_swallows_its_cancellation_is_left_after_the_wait(
    caplog: pytest.LogCaptureFixture,
) -> None:
    done = asyncio.Event()
    stubborn = asyncio.create_task(_stubborn(done), name="stubborn")
    polite = asyncio.create_task(asyncio.sleep(3600))
    await asyncio.sleep(0)
    start = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="buraco.server"):
        assert await cancel_and_wait([stubborn, polite], timeout=0.2) == 1
    assert time.monotonic() - start < 2
    assert polite.cancelled() and not stubborn.done()
    assert "'stubborn' did not stop" in caplog.text
    done.set()  # let it end, so the test leaves nothing running
    stubborn.cancel()
    await stubborn


async def test_a_task_that_already_failed_counts_as_stopped() -> None:
    task = asyncio.create_task(_fails())
    await asyncio.sleep(0)
    assert await cancel_and_wait([task], timeout=1) == 0
    assert isinstance(task.exception(), RuntimeError)


async def test_no_tasks_no_wait() -> None:
    assert await cancel_and_wait([None, None]) == 0
