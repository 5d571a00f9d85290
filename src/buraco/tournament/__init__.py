"""Tournaments as Italian clubs run them: movements, victory points and standings.

- :mod:`buraco.tournament.vp`: VP scales (match-point difference → 20–0), as data
  with their source;
- :mod:`buraco.tournament.pairing`: Mitchell, round robin, Danish (pure and modified)
  and Swiss pairings, and the Swiss of individual tournaments (a new partner each turn);
- :mod:`buraco.tournament.standings`: results in VP, and the standings with their
  tie-breaks;
- :mod:`buraco.tournament.event`: a tournament as a director runs it, saved as JSON
  (``buraco tournament``).

See ``docs/tournaments.md``.
"""

from buraco.tournament.event import MOVEMENTS, Tournament
from buraco.tournament.pairing import (
    Pairing,
    danish,
    individual,
    mitchell,
    partnered,
    round_robin,
    swiss,
)
from buraco.tournament.standings import Result, Standing, standings
from buraco.tournament.vp import SCALES, VPScale, load_scale, scale_for

__all__ = [
    "MOVEMENTS",
    "SCALES",
    "Pairing",
    "Result",
    "Standing",
    "Tournament",
    "VPScale",
    "danish",
    "individual",
    "load_scale",
    "mitchell",
    "partnered",
    "round_robin",
    "scale_for",
    "standings",
    "swiss",
]
