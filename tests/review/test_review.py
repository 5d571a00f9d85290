"""buraco.review: the decisions found, the result's form, the same seed the same grades."""

from __future__ import annotations

import copy
import json

import pytest

from buraco.actions import Add, Meld, MoveWild
from buraco.errors import RecordError
from buraco.review import GRADES, ReviewOptions, SeatReview, grade_of, review_seat
from buraco.review.steps import positions
from reviewkit import FAST, greedy_record


def test_every_step_of_the_seat_is_found_once_and_plans_are_grouped() -> None:
    record = greedy_record()
    found = list(positions(record, 0, 0))
    mine = [a for s, a in record["hands"][0]["actions"] if s == 0]
    assert [str(a) for p in found for a in p.played] == mine
    for p in found:
        assert p.view.seat == 0 and p.view.turn == 0
        if len(p.played) > 1:  # a plan: melds, adds and wild moves only
            assert all(isinstance(a, Meld | Add | MoveWild) for a in p.played)


def test_a_review_grades_every_choice_and_its_json_form_comes_back() -> None:
    review = review_seat(greedy_record(), 0, 1, FAST)
    assert review.summary.decisions == len(review.decisions) > 5
    assert sum(review.summary.grades.values()) == review.summary.decisions
    for d in review.decisions:
        assert d.grade in GRADES and d.grade == grade_of(d.loss)
        assert d.loss >= 0 and d.expected_best >= d.expected_played - 0.2
        assert d.options[0].source == "played" and d.options[0].step == d.played
        assert d.win_played is None  # a single hand: no match to win
    data = json.loads(json.dumps(review.to_dict()))
    assert data["format"] == "buraco-review"
    assert SeatReview.from_dict(data) == review


def test_the_same_seed_gives_the_same_review_and_another_seed_may_not() -> None:
    record = greedy_record()
    one = review_seat(record, 1, 1, FAST)
    assert review_seat(copy.deepcopy(record), 1, 1, FAST) == one
    other = review_seat(record, 1, 1, FAST.with_seed(7))
    assert [d.played for d in other.decisions] == [d.played for d in one.decisions]


def test_a_bad_seat_hand_or_record_is_refused_in_one_line() -> None:
    record = greedy_record()
    with pytest.raises(RecordError, match="no seat 5"):
        review_seat(record, 5, 1, FAST)
    with pytest.raises(RecordError, match="no hand 3"):
        review_seat(record, 0, 3, FAST)
    broken = copy.deepcopy(record)
    broken["hands"][0]["actions"][0][1] = "discard ZZ"
    with pytest.raises(RecordError):
        review_seat(broken, 0, 1, FAST)
    with pytest.raises(ValueError, match="rounds"):
        review_seat(record, 0, 1, ReviewOptions(min_rounds=5, max_rounds=2))


def test_the_quick_mode_looks_less_far_than_the_default() -> None:
    quick, default = ReviewOptions.quick(), ReviewOptions()
    assert quick.max_rounds < default.min_rounds * 2 and quick.width < default.width
    assert ReviewOptions.of_mode("quick", seed=3) == quick.with_seed(3)
    with pytest.raises(ValueError):
        ReviewOptions.of_mode("slow")
