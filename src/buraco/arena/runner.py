"""Running an arena: check the input, play every deal (in parallel if asked), collect.

Each deal is played by :func:`buraco.arena.duplicate.play_deal`, whose result
depends only on the arena's settings and the deal's number; the results are put
back in deal order, so a seed gives the same results with any number of workers,
or on a Ray cluster (:mod:`buraco.arena.cluster`).
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buraco.arena.duplicate import ArenaSpec, DealResult, play_deal
from buraco.arena.pairing import bot_labels, tables_for
from buraco.arena.result import ArenaResult
from buraco.arena.timing import TimeSketch
from buraco.bots import make_bot
from buraco.rules import Rules, make_rules

if TYPE_CHECKING:
    from buraco.arena.cluster import ClusterInfo


def make_spec(
    rules: Rules | str,
    bots: Sequence[str],
    deals: int,
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    matches: bool = False,
) -> ArenaSpec:
    """Check an arena's settings and fix its tables.

    Raises ``ValueError`` (or :class:`~buraco.errors.RulesError`) naming the problem:
    fewer than two bots, an unknown bot, fewer than one deal, bad rules.
    """
    if isinstance(rules, str):
        rules = make_rules(rules, players=players, **dict(options or {}))
    elif players is not None or options:
        changes = dict(options or {})
        if players is not None:
            changes["players"] = players
        rules = rules.replace(**changes)
    specs = tuple(b.strip() for b in bots)
    if any(not s for s in specs):
        raise ValueError("bot names must not be empty (write them as A,B[,C...])")
    if len(specs) < 2:
        raise ValueError(f"an arena needs at least two bots, e.g. greedy,random (got {len(specs)})")
    for s in specs:
        make_bot(s)  # unknown names and bad parameters raise here
    if type(deals) is not int or deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    if type(seed) is not int:
        raise ValueError(f"seed must be a whole number, not {seed!r}")
    tables = tuple(tables_for(specs, rules.sides))
    return ArenaSpec(rules, specs, tuple(bot_labels(specs)), tables, deals, seed, bool(matches))


def run_arena(
    rules: Rules | str,
    bots: Sequence[str],
    deals: int,
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    matches: bool = False,
    workers: int = 1,
    ray: bool | str = False,
    batch: int | None = None,
    records: Path | None = None,
    progress: Callable[[DealResult], None] | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals between ``bots`` and collect the results.

    ``rules`` is a :class:`~buraco.rules.Rules` or a preset name (completed by
    ``players`` and ``options``). Every pair of bots (every trio with three sides)
    plays every deal in every arrangement; ``matches`` makes each game a full match.
    ``workers`` processes play deals in parallel (forked on Linux; elsewhere they are
    spawned and re-import the caller's main module, so a script needs the usual
    ``if __name__ == "__main__":`` guard). ``ray`` plays the deals on a Ray cluster
    instead: ``True`` for a local one (or the Ray already started in this process, or
    the cluster in ``RAY_ADDRESS``), or the cluster's address (``HOST:PORT``), with
    ``batch`` deals per task (by default about eight tasks per CPU, at most 64 deals
    each); the results are the same. ``records`` is a directory for every
    game's record. ``progress`` is called with each deal's result as it finishes (in
    any order).

    >>> result = run_arena("aberto", ["greedy", "random"], 2, players=2, seed=1)
    >>> [len(d.games) for d in result.deals], result.labels
    ([2, 2], ('greedy', 'random'))
    """
    spec = make_spec(
        rules, bots, deals, players=players, options=options, seed=seed, matches=matches
    )
    if type(workers) is not int or workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if ray is not False and workers != 1:
        raise ValueError(
            "workers and ray do not go together: on Ray the cluster's CPUs play the deals"
        )
    if ray is False and batch is not None:
        raise ValueError("batch is the deals per Ray task: give it with ray")
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    done: dict[int, tuple[DealResult, list[TimeSketch]]] = {}
    cluster: ClusterInfo | None = None
    if ray is not False:
        from buraco.arena.cluster import run_on_ray

        address = None if ray is True else str(ray)
        cluster = run_on_ray(spec, address, batch, records, done, progress)
        workers = cluster.cpus
    elif workers == 1 or deals == 1:
        for d in range(deals):
            done[d] = play_deal(spec, d, records)
            if progress is not None:
                progress(done[d][0])
    else:
        _run_parallel(spec, min(workers, deals), records, done, progress)
    times = [TimeSketch() for _ in spec.bots]
    results = []
    for d in range(deals):
        result, deal_times = done[d]
        results.append(result)
        for total, part in zip(times, deal_times, strict=True):
            total.merge(part)
    return ArenaResult(spec, results, times, workers, time.perf_counter() - start, cluster)


def _context() -> BaseContext:
    # Linux: fork, which starts fast and needs no importable __main__ (scripts without a
    # main guard, notebooks, stdin all work); the executor forks every worker at the first
    # submit, before its own thread starts. Elsewhere fork is unsafe or missing: the
    # platform's default (spawn), which re-imports the caller's main module.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _run_parallel(
    spec: ArenaSpec,
    workers: int,
    records: Path | None,
    done: dict[int, tuple[DealResult, list[TimeSketch]]],
    progress: Callable[[DealResult], None] | None,
) -> None:
    # a few deals queued per worker at a time, so an interrupt stops soon
    pending: dict[Future[tuple[DealResult, list[TimeSketch]]], int] = {}
    upcoming = iter(range(spec.deals))
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
        try:
            for d in upcoming:
                pending[pool.submit(play_deal, spec, d, records)] = d
                if len(pending) >= 4 * workers:
                    break
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    d = pending.pop(future)
                    done[d] = future.result()
                    if progress is not None:
                        progress(done[d][0])
                    nxt = next(upcoming, None)
                    if nxt is not None:
                        pending[pool.submit(play_deal, spec, nxt, records)] = nxt
        except BaseException:
            for future in pending:
                future.cancel()
            raise
