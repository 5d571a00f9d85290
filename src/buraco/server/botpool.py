"""Bots for online tables, run off the event loop in a pool of worker processes.

A decision is sent to a worker as the seat's view (never the game) and comes
back as action text, so a one-second ``mcts`` search runs beside the server,
not inside it. Each worker keeps the bots it made, by table, seat and hand, so a
bot with memory keeps it through a hand when its decisions land on the same
worker; one made afresh plays from the view alone, as every bot can.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from buraco.bots import make_bot
from buraco.bots.base import Bot
from buraco.views import SeatView

log = logging.getLogger(__name__)

_MAX_BOTS = 2000
_bots: OrderedDict[tuple[str, int, int, str], Bot] = OrderedDict()


def choose(table: str, seat: int, hand: int, spec: str, seed: int, view: SeatView) -> str:
    """The action (as text) that the bot of ``spec`` chooses from ``view`` (run in a worker)."""
    key = (table, seat, hand, spec)
    bot = _bots.get(key)
    if bot is None:
        bot = make_bot(spec, seed=seed)
        bot.new_hand()
        _bots[key] = bot
        while len(_bots) > _MAX_BOTS:
            _bots.popitem(last=False)
    else:
        _bots.move_to_end(key)
    return str(bot.choose(view, view.legal))


def _outlive_no_server(server: int) -> None:
    """In a worker: exit once the server process is gone (killed with SIGKILL, say).

    A worker waits on a queue whose other end it holds too, so it would not notice by
    itself; nor would the forkserver it came from.
    """

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # the pid now belongs to another user's process
                os._exit(0)

    threading.Thread(target=watch, name="server watch", daemon=True).start()


class BotPool:
    """Runs bot decisions in ``workers`` processes (0: in threads of this process).

    When a worker dies (killed, out of memory), the pool is broken for every later
    decision; it is then replaced by a new one, the decision asked again, and the restart
    logged and counted (``restarts``, shown by ``/healthz``).
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.restarts = 0
        """How many times a broken pool of workers was replaced."""
        self.executor: Executor = self._start()

    def _start(self) -> Executor:
        if self.workers > 0:
            return ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("forkserver"),
                initializer=_outlive_no_server,
                initargs=(os.getpid(),),
            )
        return ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")

    async def choose(
        self, table: str, seat: int, hand: int, spec: str, seed: int, view: SeatView
    ) -> str:
        """The bot's action text, computed in the pool (a new pool if this one broke)."""
        plain = dataclasses.replace(view, options=dict(view.options))  # picklable
        loop = asyncio.get_running_loop()
        executor = self.executor
        try:
            return await loop.run_in_executor(
                executor, choose, table, seat, hand, spec, seed, plain
            )
        except BrokenProcessPool:
            if self.executor is executor:  # the first to see it replaces it
                self.restarts += 1
                log.warning("a bot worker died: starting new workers (restart %d)", self.restarts)
                executor.shutdown(wait=False, cancel_futures=True)
                self.executor = self._start()
            return await loop.run_in_executor(
                self.executor, choose, table, seat, hand, spec, seed, plain
            )

    def close(self) -> None:
        """Stop the workers (decisions under way are dropped)."""
        self.executor.shutdown(wait=False, cancel_futures=True)
