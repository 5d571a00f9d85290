r"""Where a running server's memory goes: ``buraco serve`` under :mod:`tracemalloc`.

Starts the server in this process with allocation tracing on (every frame of 6 kept) and
takes a snapshot of what is held each time it receives ``SIGUSR1``, and at its end; each
snapshot after the first is written beside the first as the lines and files whose holdings
grew most, with the growth per accepted action when ``--actions-from`` names the server's
log of actions (the events of its tables in the database, counted at each snapshot)::

    python scripts/profile_server.py --out /tmp/mem -- --port 8802 --data /tmp/prof \
        --hand-pause 0 --guests-per-address 1000000/minute &
    buraco loadtest --url http://127.0.0.1:8802 --tables 200 --seconds 60 --think 1.25 &
    sleep 30; kill -USR1 %1; sleep 30; kill -USR1 %1

For where the time goes, sample the same server without tracing (tracing slows it about
threefold): ``py-spy record --pid PID --duration 30 --format raw -o stacks.txt``.
docs/online.md (Load: where one process's time goes at 500 tables) gives this machine's figures.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sqlite3
import tracemalloc
from pathlib import Path
from types import FrameType


def _actions(db: Path | None) -> int | None:
    """The table log entries the server has written so far (SQLite), or None."""
    if db is None or not db.exists():
        return None
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return int(con.execute("SELECT count(*) FROM events").fetchone()[0])


def main() -> None:
    """Run the server with tracing; write snapshots' growth to ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the reports")
    parser.add_argument("--top", type=int, default=25, help="lines in each report")
    parser.add_argument("--actions-from", type=Path, help="the server's SQLite file")
    parser.add_argument("serve", nargs=argparse.REMAINDER, help="-- buraco serve's options")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    tracemalloc.start(6)
    first: list[tuple[tracemalloc.Snapshot, int | None]] = []

    def snapshot(_signum: int = 0, _frame: FrameType | None = None) -> None:
        gc.collect()
        snap = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )
        actions = _actions(args.actions_from)
        if not first:
            first.append((snap, actions))
            return
        base, base_actions = first[0]
        n = len(list(args.out.glob("growth-*.txt"))) + 1
        held = sum(s.size for s in snap.statistics("filename"))
        lines = [f"held {held / 1e6:.1f} MB traced; rss {_rss_mb():.1f} MB"]
        if actions is not None and base_actions is not None and actions > base_actions:
            grown = held - sum(s.size for s in base.statistics("filename"))
            per = grown / (actions - base_actions)
            lines.append(
                f"{actions - base_actions} actions logged since the first: {per:.0f} B each"
            )
        for key in ("filename", "lineno"):
            lines.append(f"\n-- grown most, by {key}")
            lines.extend(str(diff) for diff in snap.compare_to(base, key)[: args.top])
        lines.append("\n-- held most, by traceback (6 frames)")
        for held_at in snap.statistics("traceback")[:8]:
            lines.append(f"{held_at.size / 1e6:.1f} MB in {held_at.count} blocks")
            lines.extend("    " + line for line in held_at.traceback.format())
        (args.out / f"growth-{n}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")

    signal.signal(signal.SIGUSR1, snapshot)
    from buraco.cli.app import app

    serve = [a for a in args.serve if a != "--"]
    try:
        app(["serve", *serve], standalone_mode=False)
    finally:
        snapshot()


def _rss_mb() -> float:
    for line in Path(f"/proc/{os.getpid()}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


if __name__ == "__main__":
    main()
