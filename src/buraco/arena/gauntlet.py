"""The gauntlet: a bot against every exploit bot, in every preset and player count.

An exploit (:mod:`buraco.bots.exploits`) is a simple plan a person might follow:
take the pile whenever it may, never take it, hold melds until they are canastras...
A bot worth shipping loses to none of them. The gauntlet plays the bot against each
exploit in each preset and player count by duplicate deals (the same deals for every
exploit of a table) and gives each row a verdict from the 95% confidence interval of
the bot's mean score difference per deal: **holds** (above zero), **loses** (below
zero: the exploit beats it) or **not separated**.

The ``minimum`` exploit (open with the least the minimum allows) is played only where a
single hand has an initial-meld minimum (``us``; elsewhere the minimum comes with
vulnerability in a match).

>>> rows = gauntlet_rows(tables=[("us", 4)], exploits=["hoarder", "minimum"])
>>> [(r.preset, r.players, r.exploit) for r in rows]
[('us', 4, 'hoarder'), ('us', 4, 'minimum')]
>>> result = run_gauntlet("greedy", 2, tables=[("aberto", 2)], exploits=["stocker"], seed=3)
>>> [(row.exploit, row.outcome.deals) for row in result.rows]
[('stocker', 2)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from buraco.arena.duplicate import ArenaSpec, DealResult, play_deal
from buraco.arena.result import ArenaResult
from buraco.arena.runner import _context, make_spec
from buraco.arena.stats import MeanCI, Outcome
from buraco.arena.timing import TimeSketch
from buraco.bots import EXPLOITS, make_bot
from buraco.game import Game
from buraco.rules import PRESETS, Rules, make_rules

TABLES: tuple[tuple[str, int], ...] = tuple(
    (preset, players) for preset in PRESETS for players in PRESETS[preset].players
)
"""Every preset with every player count it is played by."""

HOLDS, LOSES, NOT_SEPARATED = "holds", "loses", "not separated"
"""The verdicts of a row."""


@dataclass(frozen=True)
class GauntletRow:
    """One preset, player count and exploit, and how the bot fared."""

    preset: str
    players: int
    exploit: str
    outcome: Outcome
    """The bot's deals won, lost and tied."""
    diff: MeanCI
    """The bot's score minus the exploit's per duplicate deal, with its 95% CI."""
    times: TimeSketch
    """The bot's decision times."""
    seconds: float
    """Time spent playing the row's deals (summed over the workers)."""

    @property
    def verdict(self) -> str:
        """``holds``, ``loses`` or ``not separated`` (see the module docstring)."""
        if self.diff.low is not None and self.diff.low > 0:
            return HOLDS
        if self.diff.high is not None and self.diff.high < 0:
            return LOSES
        return NOT_SEPARATED

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "preset": self.preset,
            "players": self.players,
            "exploit": self.exploit,
            "deals": {
                "played": self.outcome.deals,
                "won": self.outcome.wins,
                "lost": self.outcome.losses,
                "tied": self.outcome.ties,
            },
            "score_diff_per_deal": self.diff.as_dict(),
            "verdict": self.verdict,
            "decision_time": self.times.summary(),
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class GauntletResult:
    """Every row of a gauntlet run."""

    bot: str
    deals: int
    seed: int
    rows: tuple[GauntletRow, ...]
    workers: int
    seconds: float
    """Wall time of the run."""

    def count(self, verdict: str) -> int:
        """Rows with this verdict."""
        return sum(r.verdict == verdict for r in self.rows)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "bot": self.bot,
            "deals": self.deals,
            "seed": self.seed,
            "workers": self.workers,
            "seconds": self.seconds,
            "verdicts": {v: self.count(v) for v in (HOLDS, NOT_SEPARATED, LOSES)},
            "rows": [r.to_dict() for r in self.rows],
        }


@dataclass(frozen=True)
class _Row:
    preset: str
    players: int
    exploit: str
    spec: ArenaSpec


def has_opening_minimum(rules: Rules) -> bool:
    """Whether a single hand under these rules starts with an initial-meld minimum."""
    return Game(rules, seed=0, match=False).requirement_left(0) > 0


def gauntlet_rows(
    bot: str = "greedy",
    deals: int = 1,
    *,
    tables: Iterable[tuple[str, int]] | None = None,
    exploits: Iterable[str] | None = None,
    seed: int = 0,
    base: str | None = None,
) -> list[_Row]:
    """The rows a gauntlet plays, checked: every table with every exploit that applies.

    ``base`` gives the exploits another base bot (``base=heuristic``). Raises
    ``ValueError`` naming an unknown exploit, and what :func:`make_spec` raises for
    bad bots, tables or deals.
    """
    names = list(EXPLOITS) if exploits is None else [e.strip().lower() for e in exploits]
    for name in names:
        if name not in EXPLOITS:
            raise ValueError(f"unknown exploit {name!r:.40}; exploits are: {', '.join(EXPLOITS)}")
    if not names:
        raise ValueError(f"name at least one exploit: {', '.join(EXPLOITS)}")
    rows = []
    for preset, players in TABLES if tables is None else tables:
        rules = make_rules(preset, players=players)
        minimum = has_opening_minimum(rules)
        for name in names:
            if name == "minimum" and not minimum:
                continue
            spec_name = name if base is None else f"{name}:base={base}"
            spec = make_spec(rules, [bot, spec_name], deals, seed=seed)
            rows.append(_Row(preset, players, name, spec))
    if not rows:
        raise ValueError(
            "no row to play: minimum is played only where a single hand has an opening "
            "minimum (us); add another exploit or table"
        )
    return rows


Task = tuple[int, int]
"""A row's index and a deal's number."""


def run_gauntlet(
    bot: str,
    deals: int,
    *,
    tables: Iterable[tuple[str, int]] | None = None,
    exploits: Iterable[str] | None = None,
    seed: int = 0,
    base: str | None = None,
    workers: int = 1,
    progress: Callable[[], None] | None = None,
) -> GauntletResult:
    """Play ``bot`` against every exploit at every table (see the module docstring).

    ``tables`` are (preset, players) pairs (default :data:`TABLES`); ``exploits`` the
    exploit names (default all of them). Every row plays ``deals`` duplicate deals from
    the same ``seed``. ``workers`` processes play the deals of all rows in parallel;
    the results depend only on the seed. ``progress`` is called after every deal.
    """
    make_bot(bot)
    if type(workers) is not int or workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    rows = gauntlet_rows(bot, deals, tables=tables, exploits=exploits, seed=seed, base=base)
    start = time.perf_counter()
    tasks = [(i, d) for i in range(len(rows)) for d in range(deals)]
    done: dict[Task, tuple[DealResult, list[TimeSketch], float]] = {}
    if workers == 1 or len(tasks) == 1:
        for task in tasks:
            done[task] = _play(rows[task[0]].spec, task[1])
            if progress is not None:
                progress()
    else:
        _parallel(rows, tasks, min(workers, len(tasks)), done, progress)
    out = []
    for i, row in enumerate(rows):
        results = [done[(i, d)] for d in range(deals)]
        times = [TimeSketch() for _ in row.spec.bots]
        for _, deal_times, _ in results:
            for total, part in zip(times, deal_times, strict=True):
                total.merge(part)
        arena = ArenaResult(row.spec, [r[0] for r in results], times, workers, 0.0)
        (pair,) = arena.pairs()
        out.append(
            GauntletRow(
                row.preset,
                row.players,
                row.exploit,
                pair.outcome,
                pair.diff,
                times[0],
                sum(r[2] for r in results),
            )
        )
    return GauntletResult(bot, deals, seed, tuple(out), workers, time.perf_counter() - start)


def _play(spec: ArenaSpec, deal: int) -> tuple[DealResult, list[TimeSketch], float]:
    start = time.perf_counter()
    result, times = play_deal(spec, deal)
    return result, times, time.perf_counter() - start


def _parallel(
    rows: Sequence[_Row],
    tasks: list[Task],
    workers: int,
    done: dict[Task, tuple[DealResult, list[TimeSketch], float]],
    progress: Callable[[], None] | None,
) -> None:
    pending: dict[Future[tuple[DealResult, list[TimeSketch], float]], Task] = {}
    upcoming = iter(tasks)
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
        try:
            for task in upcoming:
                pending[pool.submit(_play, rows[task[0]].spec, task[1])] = task
                if len(pending) >= 4 * workers:
                    break
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    task = pending.pop(future)
                    done[task] = future.result()
                    if progress is not None:
                        progress()
                    nxt = next(upcoming, None)
                    if nxt is not None:
                        pending[pool.submit(_play, rows[nxt[0]].spec, nxt[1])] = nxt
        except BaseException:
            for future in pending:
                future.cancel()
            raise
