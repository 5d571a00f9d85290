"""The grades: bands of points lost against the best step found.

A decision's *loss* is the best candidate's expected hand points minus the played step's
(0 when the played step is the best found). Bands, in points of the hand:

=============  ===============  ===========================================================
grade          loss             why there
=============  ===============  ===========================================================
best           up to 20         within the noise: two steps of equal value come out this far
                                apart (docs/review.md, noise)
good           20 to 50         a loss the search sees, smaller than a card held too long
inaccuracy     50 to 120        about a meld's worth or a canastra delayed
mistake        120 to 250       a canastra's bonus or a pile of ordinary size handed over
blunder        over 250         a big pile handed over, the morto or the hand thrown away
=============  ===============  ===========================================================

The thresholds are justified by the measured noise and the calibration in
``docs/review.md``.
"""

from __future__ import annotations

GRADES: tuple[str, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The grades, from the best."""

THRESHOLDS: tuple[float, ...] = (20.0, 50.0, 120.0, 250.0)
"""The largest loss of each grade but the last, in points of the hand."""


def grade_of(loss: float) -> str:
    """The grade of a loss in points.

    >>> grade_of(0), grade_of(35), grade_of(80), grade_of(200), grade_of(400)
    ('best', 'good', 'inaccuracy', 'mistake', 'blunder')
    """
    for grade, most in zip(GRADES, THRESHOLDS, strict=False):
        if loss <= most:
            return grade
    return GRADES[-1]


def band(loss: float) -> int:
    """The index of a loss's grade in :data:`GRADES`."""
    return GRADES.index(grade_of(loss))
