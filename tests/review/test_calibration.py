"""Calibration on a small sample (slow): a weaker bot loses more points per decision.

The full table (random, greedy, heuristic, mcts, expert over many hands, with intervals)
is ``scripts/calibrate_review.py``'s, in docs/review.md; here a few hands check its order
at the ends, and that a blunder re-measured with full playouts still loses points.
"""

from __future__ import annotations

import pytest

from buraco import Game
from buraco.bots import make_bot, play_hand
from buraco.review import ReviewOptions, review_seat
from reviewkit import feeding

pytestmark = pytest.mark.slow


def mean_loss(spec: str, hands: int) -> float:
    """Mean points lost per decision at seat 0 (heuristic elsewhere), in a review of 3 to 4
    rounds a decision (the quick mode's 6 to 10 took five minutes on a loaded machine)."""
    losses: list[float] = []
    for h in range(hands):
        game = Game("aberto", players=4, seed=7000 + h, match=False)
        bots = [make_bot(spec, seed=h)] + [make_bot("heuristic", seed=s) for s in range(1, 4)]
        play_hand(game, bots)
        options = ReviewOptions(seed=h, min_rounds=3, max_rounds=4, width=2, mode="quick")
        review = review_seat(game.record(), 0, 1, options)
        losses += [d.loss for d in review.decisions]
    return sum(losses) / len(losses)


def test_weaker_bots_lose_more_per_decision_than_the_heuristic() -> None:
    # Over 3 hands a single hand moves the mean by 15 points (docs/review.md, calibration:
    # intervals 12 points wide at 6 hands), so the order is asked over 6 deals, the same for
    # each bot, with a margin of 5 points (measured: heuristic 37.4, random 48.4, greedy
    # 56.5 points a decision; in the quick mode 29.0, 36.6 and 43.9).
    heuristic = mean_loss("heuristic", 6)
    weaker = {spec: mean_loss(spec, 6) for spec in ("random", "greedy")}
    assert all(loss > heuristic + 5 for loss in weaker.values()), (heuristic, weaker)


@pytest.mark.xfail(
    reason="measured: with full heuristic playouts (depth 0) the hand that goes on after the "
    "safe discard ends worse for seat 0 (-1280) than the opponent going out at once (-925), "
    "against the depth-2 learned value's -580 and -925; docs/review.md, what a review cannot tell",
    strict=False,
)
def test_a_blunder_re_measured_with_full_playouts_still_loses() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "scripts" / "calibrate_review.py"
    spec = importlib.util.spec_from_file_location("calibrate_review", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)

    record = feeding("aberto", "QD").record()
    review = review_seat(record, 0, 1, ReviewOptions())
    d = review.decisions[-1]
    assert d.grade == "blunder"
    again = script.recheck(record, d.index, d.played, d.best, 12)
    assert again > 250 / 2, again
