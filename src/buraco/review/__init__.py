"""A review of each decision of a hand by the strongest bot's search.

Given a game record and a seat, :func:`review_seat` finds every decision the seat made in
a hand (:mod:`~buraco.review.steps`: drawing or taking the pile, a turn's plan of melds and
adds, each discard, going out or not, taking the morto), weighs the step played against
the search's alternatives on deals sampled from *the seat's own view*
(:mod:`~buraco.review.search`, :mod:`~buraco.review.rollout`: the hidden cards dealt anew
by :class:`~buraco.determinize.Determinizer`, never read from the record), grades the
points it lost in bands (:mod:`~buraco.review.grades`), puts a match-win chance on it
where a match is on (:mod:`~buraco.review.winchance`) and says why from what the search
measured (:mod:`~buraco.review.explain`), with a hindsight line kept apart
(:mod:`~buraco.review.hindsight`). The result (:mod:`~buraco.review.report`) is plain
data with a JSON form; :mod:`~buraco.review.words` words it in a language.

>>> from buraco import Game
>>> from buraco.bots import make_bot, play_hand
>>> game = Game("aberto", players=2, seed=4, match=False)
>>> _ = play_hand(game, [make_bot("greedy", seed=1), make_bot("greedy", seed=2)])
>>> review = review_seat(game.record(), seat=0, options=ReviewOptions(min_rounds=2, max_rounds=2))
>>> review.summary.decisions > 0 and all(d.grade in GRADES for d in review.decisions)
True

The same record, seat, hand and options give the same review, on any machine; see
``docs/review.md`` for the method, the bands and the calibration.
"""

from __future__ import annotations

from buraco.review.core import review_record, review_seat
from buraco.review.grades import GRADES, THRESHOLDS, grade_of
from buraco.review.options import ReviewOptions
from buraco.review.report import Decision, Option, SeatReview, Summary

__all__ = [
    "GRADES",
    "THRESHOLDS",
    "Decision",
    "Option",
    "ReviewOptions",
    "SeatReview",
    "Summary",
    "grade_of",
    "review_record",
    "review_seat",
]
