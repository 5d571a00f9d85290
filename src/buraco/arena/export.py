"""The arena's files: CSV tables (per game, per deal), a summary and a plot.

``--out DIR`` gets ``records/`` (every game's record, written while playing),
``games.csv``, ``deals.csv``, ``summary.json`` and ``arena.png``. The plot needs
matplotlib, an optional extra (``pip install 'buraco[plot]'``); without it the other
files are still written.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from buraco.arena.result import ArenaResult

PLOT_HINT = "pip install 'buraco[plot]'"
"""How to install what the plot needs."""


def game_rows(result: ArenaResult) -> list[dict[str, str | int | float]]:
    """One row per game: deal, seats, scores, the table's first bot's difference, how it ended.

    ``diff`` is the score of the table's first bot (in ``--bots`` order) minus the other
    bot's (with three bots, minus the mean of the other two).
    """
    labels = result.labels
    sides = result.spec.rules.sides
    tables = result.spec.tables
    rows: list[dict[str, str | int | float]] = []
    for d in result.deals:
        for g in d.games:
            first = tables[g.table].bots[0]
            others = [b for b in tables[g.table].bots[1:]]
            row: dict[str, str | int | float] = {
                "deal": g.deal,
                "deal_seed": d.seed,
                "table": g.table,
                "rotation": g.rotation,
            }
            for s in range(sides):
                row[f"bot_side{s}"] = labels[g.side_bots[s]]
            for s in range(sides):
                row[f"score_side{s}"] = g.scores[s]
            row["first_bot"] = labels[first]
            row["diff"] = _num(
                g.bot_score(first) - sum(g.bot_score(o) for o in others) / len(others)
            )
            row["went_out"] = ";".join(
                "" if w is None else labels[g.side_bots[w]] for w in g.went_out
            )
            row["ended_by"] = ";".join(g.ended_by)
            row["hands"] = g.hands
            row["winner"] = "" if g.winner is None else labels[g.side_bots[g.winner]]
            row["actions"] = g.actions
            row["record"] = g.record_name()
            rows.append(row)
    return rows


def deal_rows(result: ArenaResult) -> list[dict[str, str | int | float]]:
    """One row per deal and pair of bots: the summed difference and who won the deal."""
    labels = result.labels
    rows: list[dict[str, str | int | float]] = []
    for d in result.deals:
        for p in d.pairs:
            x, y = labels[p.x], labels[p.y]
            row: dict[str, str | int | float] = {
                "deal": d.deal,
                "deal_seed": d.seed,
                "bot_x": x,
                "bot_y": y,
                "diff": _num(p.diff),
                "won_by": x if p.result > 0 else y if p.result < 0 else "tie",
            }
            if result.spec.matches:
                row["matches_x"] = p.x_matches
                row["matches_y"] = p.y_matches
            rows.append(row)
    return rows


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def write_csv(rows: list[dict[str, str | int | float]], path: Path) -> None:
    """Write rows (dicts with the same keys) as a CSV file with a header."""
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else [])
        writer.writeheader()
        writer.writerows(rows)


def write_plot(result: ArenaResult, path: Path) -> bool:
    """Plot each pair's per-deal differences and running duplicate win rate.

    Returns False, writing nothing, when matplotlib is not installed.
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return False
    labels = result.labels
    fig = Figure(figsize=(11, 4.5), layout="constrained")
    hist, running = fig.subplots(1, 2)
    pairs = result.pairs()
    every = [v for p in pairs for v in result.pair_values(p.x, p.y)]
    lo, hi = min(every), max(every)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    n_bins = min(40, max(5, len(result.deals) // 3))
    edges = [lo + (hi - lo) * i / n_bins for i in range(n_bins + 1)]
    for p in pairs:
        name = f"{labels[p.x]} − {labels[p.y]}"
        values = result.pair_values(p.x, p.y)
        hist.hist(values, bins=edges, histtype="step", label=name)
        score = 0.0
        rates = []
        for n, v in enumerate(values, 1):
            score += 1.0 if v > 0 else 0.5 if v == 0 else 0.0
            rates.append(score / n)
        running.plot(range(1, len(rates) + 1), rates, label=f"{labels[p.x]} vs {labels[p.y]}")
    hist.axvline(0, color="grey", linewidth=0.8)
    hist.set_title("score difference per duplicate deal")
    hist.set_xlabel("first bot's score minus second's, summed over the deal's games")
    hist.set_ylabel("deals")
    hist.legend(fontsize="small")
    running.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    running.set_ylim(0, 1)
    running.set_title("running duplicate win rate of the first bot")
    running.set_xlabel("deals played")
    running.set_ylabel("(won + tied / 2) / deals")
    running.legend(fontsize="small")
    r = result.spec.rules
    fig.suptitle(f"buraco arena: {r.preset}, {r.players} players, seed {result.spec.seed}")
    fig.savefig(path, dpi=100)
    return True


def write_files(result: ArenaResult, out: Path) -> list[Path]:
    """Write the CSVs, the summary and (with matplotlib) the plot into ``out``.

    Returns the files written; the plot is missing from them without matplotlib.
    """
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, rows in (("games.csv", game_rows(result)), ("deals.csv", deal_rows(result))):
        write_csv(rows, out / name)
        written.append(out / name)
    summary = out / "summary.json"
    summary.write_text(json.dumps(result.to_dict(games=False), indent=1) + "\n", encoding="utf-8")
    written.append(summary)
    plot = out / "arena.png"
    if write_plot(result, plot):
        written.append(plot)
    return written
