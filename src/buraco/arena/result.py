"""An arena's results: per deal, per pair of bots and per bot, with their statistics.

The unit of comparison is the *duplicate deal*: one deal played by two bots in
every arrangement (:mod:`buraco.arena.pairing`). For a pair ``(x, y)`` its result is
``x``'s score minus ``y``'s, summed over the deal's games; ``x`` wins the deal when
that is positive, ``y`` when it is negative, and zero is a tie.

A bot's figure for a deal is the mean of its pair results on that deal against each
opponent (with two bots, simply its pair result); it wins the deal when that is
positive. Its mean per deal, with a 95% confidence interval over the deals (which
are independent: each has its own cards), says how many points the bot gains
against an average opponent of the arena on a duplicate deal.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from buraco.arena.cluster import ClusterInfo
from buraco.arena.duplicate import ArenaSpec, DealResult, GameResult
from buraco.arena.stats import MeanCI, Outcome, elo_ratings, mean_ci
from buraco.arena.timing import TimeSketch
from buraco.compiled import compiled_modules


def _outcome(values: list[float]) -> Outcome:
    return Outcome(
        wins=sum(v > 0 for v in values),
        losses=sum(v < 0 for v in values),
        ties=sum(v == 0 for v in values),
    )


@dataclass(frozen=True)
class PairSummary:
    """Two bots' duplicate deals, from the first one's side."""

    x: int
    y: int
    outcome: Outcome
    """``x``'s deals won, lost and tied against ``y``."""
    diff: MeanCI
    """``x``'s score minus ``y``'s per deal (summed over the deal's games), with its CI."""
    x_matches: int
    """Matches won by ``x``'s side in games with ``y`` (with ``matches``)."""
    y_matches: int
    games: int
    """Games in which both took part."""

    @property
    def verdict(self) -> int:
        """1 if ``x`` is stronger at 95% (its CI is above 0), -1 if ``y`` is, else 0."""
        if self.diff.low is not None and self.diff.low > 0:
            return 1
        if self.diff.high is not None and self.diff.high < 0:
            return -1
        return 0


@dataclass(frozen=True)
class BotSummary:
    """One bot's results against the field."""

    bot: int
    label: str
    spec: str
    outcome: Outcome
    """Deals won, lost and tied (by its mean result against its opponents)."""
    diff: MeanCI
    """Its mean score difference per deal against an opponent, with its CI."""
    rating: float
    """Elo-style rating (see :func:`buraco.arena.stats.elo_ratings`); the mean is 1500."""
    matches_won: int
    matches_played: int
    times: TimeSketch
    """Wall time of its ``choose`` calls."""
    pile_takes: int = 0
    """Turns its players began by taking the pile..."""
    pile_chances: int = 0
    """... and those they began with a pile to take."""
    hands: int = 0
    """Hands it played (a side of one game each)."""
    went_out: int = 0
    """Hands its side ended by going out."""

    @property
    def pile_share(self) -> float | None:
        """The share of the piles it could take that it took (None: never offered one)."""
        return self.pile_takes / self.pile_chances if self.pile_chances else None

    @property
    def out_share(self) -> float | None:
        """The share of its hands that its side ended by going out."""
        return self.went_out / self.hands if self.hands else None


@dataclass
class ArenaResult:
    """Everything an arena run produced (see :func:`buraco.arena.run_arena`)."""

    spec: ArenaSpec
    deals: list[DealResult]
    """Per deal, in deal order; the same for a seed whatever the worker count."""
    times: list[TimeSketch]
    """Per bot, its decision times (these vary from run to run)."""
    workers: int
    """Worker processes, or on Ray the cluster's CPUs."""
    seconds: float
    """Wall time of the run."""
    cluster: ClusterInfo | None = None
    """Where the deals were played on Ray (``None`` without Ray)."""

    @property
    def labels(self) -> tuple[str, ...]:
        """The bots' display names."""
        return self.spec.labels

    def games(self) -> Iterator[GameResult]:
        """Every game, deal by deal."""
        for d in self.deals:
            yield from d.games

    def pair_values(self, x: int, y: int) -> list[float]:
        """Per deal, ``x``'s score minus ``y``'s (``x < y``)."""
        return [d.pair(x, y).diff for d in self.deals]

    def bot_values(self, bot: int) -> list[float]:
        """Per deal, ``bot``'s mean result against its opponents."""
        out = []
        for d in self.deals:
            mine = [p.diff if p.x == bot else -p.diff for p in d.pairs if bot in (p.x, p.y)]
            out.append(statistics.fmean(mine) if mine else 0.0)
        return out

    def pairs(self) -> list[PairSummary]:
        """Every pair of bots that met, in order."""
        if not self.deals:
            return []
        out = []
        for p in self.deals[0].pairs:
            x, y = p.x, p.y
            values = self.pair_values(x, y)
            games = [g for g in self.games() if x in g.side_bots and y in g.side_bots]
            out.append(
                PairSummary(
                    x,
                    y,
                    _outcome(values),
                    mean_ci(values),
                    sum(d.pair(x, y).x_matches for d in self.deals),
                    sum(d.pair(x, y).y_matches for d in self.deals),
                    len(games),
                )
            )
        return out

    def ratings(self) -> list[float]:
        """Elo-style ratings of the bots from their pairwise duplicate deals."""
        outcomes = {(p.x, p.y): p.outcome for p in self.pairs()}
        return elo_ratings(len(self.spec.bots), outcomes)

    def bots(self) -> list[BotSummary]:
        """Every bot's summary, in the order given."""
        ratings = self.ratings()
        out = []
        for b, label in enumerate(self.labels):
            values = self.bot_values(b)
            played = [g for g in self.games() if b in g.side_bots]
            won = sum(g.winner is not None and g.side_bots[g.winner] == b for g in played)
            sides = [(g, side) for g in played for side, x in enumerate(g.side_bots) if x == b]
            out.append(
                BotSummary(
                    b,
                    label,
                    self.spec.bots[b],
                    _outcome(values),
                    mean_ci(values),
                    ratings[b],
                    won,
                    len(played),
                    self.times[b],
                    pile_takes=sum(g.pile_takes[side] for g, side in sides if g.pile_takes),
                    pile_chances=sum(g.pile_chances[side] for g, side in sides if g.pile_chances),
                    hands=sum(g.hands for g, _ in sides),
                    went_out=sum(w == side for g, side in sides for w in g.went_out),
                )
            )
        return out

    def to_dict(self, games: bool = True) -> dict[str, Any]:
        """Everything as JSON-friendly data (``games=False`` leaves out each game)."""
        spec = self.spec
        r = spec.rules
        labels = self.labels
        out: dict[str, Any] = {
            "preset": r.preset,
            "players": r.players,
            "sides": r.sides,
            "options": r.overrides(),
            "bots": list(spec.bots),
            "labels": list(labels),
            "deals": spec.deals,
            "seed": spec.seed,
            "matches": spec.matches,
            "games_per_deal": len(self.deals[0].games) if self.deals else 0,
            "games": sum(len(d.games) for d in self.deals),
            "hands": sum(g.hands for g in self.games()),
            "workers": self.workers,
            "seconds": self.seconds,
            "compiled": compiled_modules(),  # a budget in seconds buys more rounds compiled
        }
        if self.cluster is not None:
            out["ray"] = self.cluster.as_dict()
        bots = []
        for s in self.bots():
            item: dict[str, Any] = {
                "bot": s.label,
                "spec": s.spec,
                "rating": s.rating,
                "deals": _outcome_dict(s.outcome),
                "score_diff_per_deal": s.diff.as_dict(),
            }
            if spec.matches:
                item["matches"] = {"won": s.matches_won, "played": s.matches_played}
            item["decision_time"] = s.times.summary()
            item["pile_taken"] = {
                "takes": s.pile_takes,
                "chances": s.pile_chances,
                "share": s.pile_share,
            }
            item["went_out"] = {"hands": s.hands, "out": s.went_out, "share": s.out_share}
            bots.append(item)
        out["per_bot"] = bots
        pairs = []
        for p in self.pairs():
            item = {
                "bots": [labels[p.x], labels[p.y]],
                "deals": _outcome_dict(p.outcome),
                "score_diff_per_deal": p.diff.as_dict(),
                "stronger": None if not p.verdict else labels[p.x if p.verdict > 0 else p.y],
            }
            if spec.matches:
                item["matches"] = {labels[p.x]: p.x_matches, labels[p.y]: p.y_matches}
                item["matches"]["played"] = p.games
            pairs.append(item)
        out["per_pair"] = pairs
        out["per_deal"] = [
            {
                "deal": d.deal,
                "seed": d.seed,
                "pairs": [
                    {"bots": [labels[p.x], labels[p.y]], "diff": p.diff, "result": p.result}
                    | ({"matches": [p.x_matches, p.y_matches]} if spec.matches else {})
                    for p in d.pairs
                ],
            }
            for d in self.deals
        ]
        if games:
            out["per_game"] = [game_dict(g, labels) for g in self.games()]
        return out


def _outcome_dict(o: Outcome) -> dict[str, Any]:
    return {
        "played": o.deals,
        "won": o.wins,
        "lost": o.losses,
        "tied": o.ties,
        "win_rate": o.score,
    }


def game_dict(g: GameResult, labels: tuple[str, ...]) -> dict[str, Any]:
    """One game as JSON-friendly data, bots by their labels."""
    return {
        "deal": g.deal,
        "table": g.table,
        "rotation": g.rotation,
        "bots": [labels[b] for b in g.side_bots],
        "scores": list(g.scores),
        "hands": g.hands,
        "ended_by": list(g.ended_by),
        "went_out": list(g.went_out),
        "pile_takes": list(g.pile_takes),
        "pile_chances": list(g.pile_chances),
        "winner": g.winner,
        "record": g.record_name(),
    }
