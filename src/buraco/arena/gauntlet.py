"""The gauntlet: a bot against every exploit bot, in every preset and player count.

An exploit (:mod:`buraco.bots.exploits`) is a simple plan a person might follow:
take the pile whenever it may, never take it, hold melds until they are canastras...
A bot worth shipping loses to none of them. The gauntlet plays the bot against each
exploit in each preset and player count by duplicate deals (the same deals for every
exploit of a table) and gives each row a verdict from the 95% confidence interval of
the bot's mean score difference per deal: **holds** (above zero), **loses** (below
zero: the exploit beats it) or **not separated**; a row of one deal has no interval
(**too few deals**).

A long gauntlet (hours for a search bot) can be kept in a file (``save``): each row is
written to it, a JSON line, as soon as its deals are played, and a run with the same
file plays only the rows it does not hold yet, so a run stopped midway loses only the
rows in play.

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

import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
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

HOLDS, LOSES, NOT_SEPARATED, TOO_FEW = "holds", "loses", "not separated", "too few deals"
"""The verdicts of a row."""
VERDICTS = (HOLDS, NOT_SEPARATED, LOSES, TOO_FEW)
"""Every verdict, in the order a summary counts them."""


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
        """``holds``, ``loses``, ``not separated`` or ``too few deals`` (module docstring)."""
        if self.diff.half_width is None:
            return TOO_FEW
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

    def saved(self, key: dict[str, Any]) -> dict[str, Any]:
        """The row as :func:`run_gauntlet` keeps it in its file: all it needs to read it back."""
        t = self.times
        return {
            "key": key,
            **self.to_dict(),
            "kept": {
                "sd": self.diff.sd,
                "half_width": self.diff.half_width,
                "times": [sorted(t.buckets.items()), t.count, t.total, t.maximum],
            },
        }

    @classmethod
    def from_saved(cls, data: dict[str, Any]) -> GauntletRow:
        """A row read back from :meth:`saved` (``KeyError``/``TypeError`` if malformed)."""
        deals, diff, kept = data["deals"], data["score_diff_per_deal"], data["kept"]
        buckets, count, total, maximum = kept["times"]
        times = TimeSketch({int(i): int(n) for i, n in buckets}, int(count), total, maximum)
        return cls(
            str(data["preset"]),
            int(data["players"]),
            str(data["exploit"]),
            Outcome(int(deals["won"]), int(deals["lost"]), int(deals["tied"])),
            MeanCI(int(diff["n"]), float(diff["mean"]), kept["sd"], kept["half_width"]),
            times,
            float(data["seconds"]),
        )


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
            "verdicts": {v: self.count(v) for v in VERDICTS},
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
    save: Path | None = None,
) -> GauntletResult:
    """Play ``bot`` against every exploit at every table (see the module docstring).

    ``tables`` are (preset, players) pairs (default :data:`TABLES`); ``exploits`` the
    exploit names (default all of them). Every row plays ``deals`` duplicate deals from
    the same ``seed``. ``workers`` processes play the deals of all rows in parallel;
    the results depend only on the seed. ``progress`` is called after every deal (and
    for each deal of a row the file already holds).
    ``save``: the file that keeps the finished rows (see the module docstring).
    """
    make_bot(bot)
    if type(workers) is not int or workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    rows = gauntlet_rows(bot, deals, tables=tables, exploits=exploits, seed=seed, base=base)
    start = time.perf_counter()

    def key(row: _Row) -> dict[str, Any]:
        return {"bot": bot, "base": base, "deals": deals, "seed": seed,
                "preset": row.preset, "players": row.players, "exploit": row.exploit}  # fmt: skip

    finished: dict[int, GauntletRow] = {}
    kept = load_saved(save) if save is not None else {}
    for i, row in enumerate(rows):
        found = kept.get(json.dumps(key(row), sort_keys=True))
        if found is not None:
            finished[i] = found
            for _ in range(deals if progress is not None else 0):
                progress()  # type: ignore[misc]
    tasks = [(i, d) for i in range(len(rows)) if i not in finished for d in range(deals)]
    done: dict[Task, tuple[DealResult, list[TimeSketch], float]] = {}

    def played(task: Task) -> None:
        i = task[0]
        if all((i, d) in done for d in range(deals)):
            finished[i] = _finish(rows[i], [done[(i, d)] for d in range(deals)], workers)
            if save is not None:
                _append(save, finished[i].saved(key(rows[i])))
        if progress is not None:
            progress()

    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            done[task] = _play(rows[task[0]].spec, task[1])
            played(task)
    else:
        _parallel(rows, tasks, min(workers, len(tasks)), done, played)
    out = tuple(finished[i] for i in range(len(rows)))
    return GauntletResult(bot, deals, seed, out, workers, time.perf_counter() - start)


def _finish(
    row: _Row, results: list[tuple[DealResult, list[TimeSketch], float]], workers: int
) -> GauntletRow:
    """A row from its deals' results."""
    times = [TimeSketch() for _ in row.spec.bots]
    for _, deal_times, _ in results:
        for total, part in zip(times, deal_times, strict=True):
            total.merge(part)
    arena = ArenaResult(row.spec, [r[0] for r in results], times, workers, 0.0)
    (pair,) = arena.pairs()
    return GauntletRow(
        row.preset,
        row.players,
        row.exploit,
        pair.outcome,
        pair.diff,
        times[0],
        sum(r[2] for r in results),
    )


def load_saved(path: Path) -> dict[str, GauntletRow]:
    """The rows a gauntlet's file keeps, by their key (none if there is no file yet).

    Raises ``ValueError`` naming the line of a file that is not a gauntlet's.
    """
    out: dict[str, GauntletRow] = {}
    if not path.exists():
        return out
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                out[json.dumps(data["key"], sort_keys=True)] = GauntletRow.from_saved(data)
            except (ValueError, KeyError, TypeError, IndexError) as exc:
                raise ValueError(
                    f"{path}: line {number} is not a gauntlet row ({type(exc).__name__}); "
                    "give a file this command wrote, or a new one"
                ) from None
    return out


def _append(path: Path, data: dict[str, Any]) -> None:
    """One row added to the file, on disk before the next row is played."""
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(data, separators=(",", ":")) + "\n")
        f.flush()
        os.fsync(f.fileno())


def _play(spec: ArenaSpec, deal: int) -> tuple[DealResult, list[TimeSketch], float]:
    start = time.perf_counter()
    result, times = play_deal(spec, deal)
    return result, times, time.perf_counter() - start


def _parallel(
    rows: Sequence[_Row],
    tasks: list[Task],
    workers: int,
    done: dict[Task, tuple[DealResult, list[TimeSketch], float]],
    played: Callable[[Task], None],
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
                    played(task)
                    nxt = next(upcoming, None)
                    if nxt is not None:
                        pending[pool.submit(_play, rows[nxt[0]].spec, nxt[1])] = nxt
        except BaseException:
            for future in pending:
                future.cancel()
            raise
