"""The arena: measure bots' strength by duplicate play.

Each deal is played again with the bots in the other seats so that the luck of
the cards cancels (:mod:`buraco.arena.pairing`, :mod:`buraco.arena.duplicate`);
the results are summed per deal and reported with confidence intervals and
Elo-style ratings (:mod:`buraco.arena.stats`, :mod:`buraco.arena.result`), as a
table, CSV files and a plot (:mod:`buraco.arena.report`, :mod:`buraco.arena.export`).
The command line is ``buraco arena``; from Python:

>>> from buraco.arena import run_arena
>>> result = run_arena("aberto", ["greedy", "random"], deals=3, players=2, seed=5)
>>> [s.label for s in result.bots()], result.bots()[0].outcome.deals
(['greedy', 'random'], 3)
"""

from __future__ import annotations

from buraco.arena.duplicate import ArenaSpec, DealResult, GameResult, PairDeal, play_deal
from buraco.arena.pairing import Table, tables_for
from buraco.arena.result import ArenaResult, BotSummary, PairSummary
from buraco.arena.runner import make_spec, run_arena
from buraco.arena.stats import MeanCI, Outcome, elo_ratings, mean_ci, t_critical

__all__ = [
    "ArenaResult",
    "ArenaSpec",
    "BotSummary",
    "DealResult",
    "GameResult",
    "MeanCI",
    "Outcome",
    "PairDeal",
    "PairSummary",
    "Table",
    "elo_ratings",
    "make_spec",
    "mean_ci",
    "play_deal",
    "run_arena",
    "t_critical",
    "tables_for",
]
