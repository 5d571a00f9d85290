"""A review's result: plain data with a JSON form, for a terminal, a page or a store.

:meth:`SeatReview.to_dict` is the stored form (``format: buraco-review``); it is built from
numbers, strings and lists alone, so a worker process can hand it over as JSON and a page
can word it later (:mod:`buraco.review.words`) in any language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from buraco.review.explain import Line
from buraco.review.grades import GRADES, THRESHOLDS

FORMAT = "buraco-review"
VERSION = 1


@dataclass(frozen=True)
class Option:
    """One candidate of a decision as the review weighed it."""

    step: list[str]
    """Its actions, in the notation."""
    source: str
    """``played``, ``policy``, ``plan``, ``discard``, ``draw`` or ``take-pile``."""
    expected: float
    """Mean hand points (the side's lead over the best other side) over its rollouts."""
    delta: float
    """``expected`` minus the best found's (0 for the best; never positive)."""
    rollouts: int
    next_took: float
    """Share of the rollouts in which the next player, an opponent, took the pile at once."""
    ended: float
    """Share in which the step ended the hand (went out)."""
    pot: float
    """Share in which the step took the seat's morto."""
    canastra: float
    """Share in which the side completed a canastra before the turn passed."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class Decision:
    """One reviewed decision of the seat."""

    index: int
    """The step's place among the seat's steps of the hand (from 0)."""
    action: int
    """The index in the hand's actions of the step's first action."""
    turn: int
    """The seat's turn of the hand (from 1)."""
    kind: str
    """``pile``, ``turn-up``, ``plan`` or ``discard``."""
    played: list[str]
    best: list[str]
    grade: str
    loss: float
    """Expected points lost against the best found (0: the best)."""
    se: float
    """The standard error of ``loss``."""
    rounds: int
    """Deals sampled."""
    expected_played: float
    expected_best: float
    win_played: float | None
    """The match-win chance after the step played (None: no match to a target)."""
    win_best: float | None
    options: list[Option]
    why: list[Line]
    """Explanations from what the search measured."""
    hindsight: list[Line] = field(default_factory=list)
    """What the record shows happened next: hindsight, never used to grade."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        out = dict(self.__dict__)
        out["options"] = [o.to_dict() for o in self.options]
        out["why"] = [x.to_dict() for x in self.why]
        out["hindsight"] = [x.to_dict() for x in self.hindsight]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        """From the JSON form."""
        d = dict(data)
        d["options"] = [Option(**o) for o in d["options"]]
        d["why"] = [Line.from_dict(x) for x in d["why"]]
        d["hindsight"] = [Line.from_dict(x) for x in d.get("hindsight", [])]
        return cls(**d)


@dataclass(frozen=True)
class Summary:
    """A seat's figures over the decisions reviewed."""

    decisions: int
    forced: int
    """Steps with a single legal action, not reviewed."""
    grades: dict[str, int]
    mean_loss: float
    """Expected points lost per decision."""
    accuracy: float
    """Percent of decisions graded best or good."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return dict(self.__dict__)


def summarize(decisions: list[Decision], forced: int) -> Summary:
    """The summary of a list of decisions."""
    grades = {g: sum(1 for d in decisions if d.grade == g) for g in GRADES}
    n = len(decisions)
    mean = sum(d.loss for d in decisions) / n if n else 0.0
    accurate = 100 * (grades["best"] + grades["good"]) / n if n else 100.0
    return Summary(n, forced, grades, round(mean, 1), round(accurate, 1))


@dataclass(frozen=True)
class SeatReview:
    """Every decision of one seat in one hand of a record."""

    preset: str
    players: int
    names: list[str]
    seat: int
    side: int
    hand: int
    """The hand, from 1."""
    match: bool
    options: dict[str, Any]
    decisions: list[Decision]
    summary: Summary
    result: list[Line] = field(default_factory=list)
    """The hand's real score (hindsight)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``format: buraco-review``)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "preset": self.preset,
            "players": self.players,
            "names": list(self.names),
            "seat": self.seat,
            "side": self.side,
            "hand": self.hand,
            "match": self.match,
            "options": dict(self.options),
            "thresholds": dict(zip(GRADES, [*THRESHOLDS, None], strict=True)),
            "decisions": [d.to_dict() for d in self.decisions],
            "summary": self.summary.to_dict(),
            "result": [x.to_dict() for x in self.result],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatReview:
        """From the JSON form."""
        if data.get("format") != FORMAT:
            raise ValueError("not a review (format buraco-review)")
        return cls(
            data["preset"],
            data["players"],
            list(data["names"]),
            data["seat"],
            data["side"],
            data["hand"],
            data["match"],
            dict(data["options"]),
            [Decision.from_dict(d) for d in data["decisions"]],
            Summary(**data["summary"]),
            [Line.from_dict(x) for x in data.get("result", [])],
        )
