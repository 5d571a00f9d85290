"""Explanations from what the search measured: catalog keys with parameters.

An explanation never reads the real hidden cards: each :class:`Line` words a number the
rollouts measured on deals sampled from the seat's view (a share of the deals, a mean
pile size, a difference of expected points) or a fact of the view itself (the partner's
cards). The words are in the catalogs (``review.why.*``), worded in the reader's language
by :func:`buraco.review.words.worded`.

Parameters: ``card`` a card's code, ``step``/``best``/``played`` a step as a list of
notations, ``delta`` a signed difference of expected points, ``points`` a positive one,
``pct`` a share of the deals in percent, ``pile`` and ``n`` counts, ``name`` a player's
name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from buraco.actions import TAKE_PILE, Discard
from buraco.review.search import Tally, Weighed
from buraco.views import SeatView

FEEDS = 0.25
"""The share of deals in which the next player takes the pile that makes a discard worth
a warning."""


@dataclass(frozen=True)
class Line:
    """One sentence: a catalog key and its parameters (JSON values)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"key": self.key, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Line:
        """From the JSON form."""
        return cls(str(data["key"]), dict(data.get("params", {})))


def notation(t: Tally) -> list[str]:
    """A tally's step as notations."""
    return [str(a) for a in t.candidate.step]


def _pct(x: float) -> int:
    return round(100 * x)


def explain(view: SeatView, kind: str, w: Weighed) -> list[Line]:
    """The lines that say why the best found beats the step played (or why it was best)."""
    tallies = w.tallies
    if len(tallies) < 2 or not w.rounds:
        return []
    played = tallies[0]
    best = tallies[w.best]
    top = best.mean
    lines: list[Line] = []
    if kind == "pile":
        take = next((t for t in tallies if t.candidate.step == (TAKE_PILE,)), None)
        draw = next((t for t in tallies if t.candidate.step != (TAKE_PILE,)), None)
        if take is not None and draw is not None and take.values and draw.values:
            if played is take:
                delta = round(take.mean - draw.mean)
                lines.append(Line("review.why.pile.taken", {"delta": delta}))
            else:
                delta = round(draw.mean - take.mean)
                lines.append(Line("review.why.pile.left", {"delta": delta, "pile": view.pile_size}))
            if take.share(take.canastra) >= 0.5 and (played is take or best is take):
                lines.append(
                    Line("review.why.pile.canastra", {"pct": _pct(take.share(take.canastra))})
                )
        return lines
    if played.share(played.ended) >= 0.5 and best.share(best.ended) < 0.5:
        partner = [s for s in view.sides[view.side] if s != view.seat]
        n = sum(view.hand_sizes[s] for s in partner)
        delta = round(played.mean - top)
        if partner and n:
            lines.append(
                Line("review.why.out.early", {"n": n, "delta": delta, "best": notation(best)})
            )
        else:
            lines.append(Line("review.why.out.alone", {"delta": delta, "best": notation(best)}))
    elif best.share(best.ended) >= 0.5 and played.share(played.ended) < 0.5:
        lines.append(
            Line(
                "review.why.out.missed",
                {"best": notation(best), "points": round(top - played.mean)},
            )
        )
    elif played.share(played.pot) >= 0.5 and best.share(best.pot) < 0.5 and best is not played:
        lines.append(
            Line(
                "review.why.pot.early", {"delta": round(played.mean - top), "best": notation(best)}
            )
        )
    elif best.share(best.pot) >= 0.5 and played.share(played.pot) < 0.5:
        lines.append(
            Line(
                "review.why.pot.missed",
                {"best": notation(best), "points": round(top - played.mean)},
            )
        )
    step = played.candidate.step
    feeds = played.share(played.next_took)
    if (
        isinstance(step[-1], Discard)
        and best is not played
        and feeds >= FEEDS
        and feeds >= best.share(best.next_took) + 0.15
    ):
        took = played.next_took
        lines.append(
            Line(
                "review.why.feeds",
                {
                    "card": str(step[-1]).split()[1],
                    "pile": round(played.next_pile / took),
                    "pct": _pct(played.share(took)),
                    "delta": round(played.mean - top),
                },
            )
        )
        safer = [
            t
            for t in tallies
            if t is not played
            and t.values
            and isinstance(t.candidate.step[-1], Discard)
            and t.share(t.next_took) <= played.share(took) - 0.15
        ]
        if safer:
            safe = max(safer, key=lambda t: t.mean)
            lines.append(
                Line(
                    "review.why.safe",
                    {
                        "card": str(safe.candidate.step[-1]).split()[1],
                        "pct": _pct(safe.share(safe.next_took)),
                        "delta": round(safe.mean - top),
                    },
                )
            )
    if best is not played and not lines:
        lines.append(
            Line("review.why.better", {"best": notation(best), "points": round(top - played.mean)})
        )
    if best is played and not lines:
        others = [t for t in tallies if t is not played and t.values]
        runner = max(others, key=lambda t: t.mean) if others else None
        if runner is not None:
            lines.append(
                Line(
                    "review.why.best",
                    {"next": notation(runner), "points": round(top - runner.mean)},
                )
            )
    return lines
