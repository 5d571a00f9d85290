"""Reviewing a seat's hand: its decisions found, weighed, graded and explained.

:func:`review_seat` is a pure function of a record, a seat, a hand and the options: it
reads nothing else (no clock, no global state), so the same call gives the same result
anywhere, a worker process included, and its result's JSON form can be stored and shown
later.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from buraco.bots.base import Bot
from buraco.bots.playout import PLAYOUT_BOTS
from buraco.determinize import rules_of
from buraco.errors import RecordError
from buraco.record import load
from buraco.review.candidates import kind_of
from buraco.review.explain import explain, notation
from buraco.review.grades import grade_of
from buraco.review.hindsight import hand_result, hindsight
from buraco.review.options import ReviewOptions
from buraco.review.report import Decision, Option, SeatReview, summarize
from buraco.review.rollout import value_for
from buraco.review.search import Weighed, weigh
from buraco.review.steps import Position, positions
from buraco.review.winchance import win_chance
from buraco.views import SeatView

Progress = Callable[[int, int], None]
"""Told the decisions weighed so far and how many there are."""


def review_seat(
    record: str | bytes | dict[str, Any],
    seat: int,
    hand: int = 1,
    options: ReviewOptions | None = None,
    progress: Progress | None = None,
) -> SeatReview:
    """Every decision ``seat`` made in hand ``hand`` (from 1) of ``record``, reviewed.

    ``record``: a record's JSON text or dict (or a path). Raises
    :class:`~buraco.errors.RecordError` for a record that does not replay or lacks the
    seat or the hand, :class:`ValueError` for options out of range.
    """
    options = options or ReviewOptions()
    options.check()
    data = load(record)
    if type(hand) is not int or not 1 <= hand <= len(data["hands"]):
        raise RecordError(f"the record has {len(data['hands'])} hand(s): no hand {hand}")
    if type(seat) is not int:
        raise RecordError(f"a seat is a whole number, not {seat!r:.20}")
    found = list(positions(data, seat, hand - 1))
    todo = [p for p in found if not p.forced]
    first = found[0].view if found else None
    policy_cls = PLAYOUT_BOTS[options.policy]
    decisions: list[Decision] = []
    bots: list[Bot] = []
    for done, position in enumerate(todo):
        if progress is not None:
            progress(done, len(todo))
        view = position.view
        rules = rules_of(view)
        if len(bots) != len(view.names):
            bots = [policy_cls(seed=s) for s in range(len(view.names))]
        rng = random.Random(f"buraco-review:{options.seed}:{hand}:{seat}:{position.index}")
        policy = policy_cls(seed=rng.randrange(2**31))
        policy.new_hand()
        w = weigh(
            view, position.played, options, rng, policy, bots, value_for(rules, options.value)
        )
        decisions.append(_decision(position, w, data.get("match", True)))
    if progress is not None:
        progress(len(todo), len(todo))
    if first is None:
        game_names = list(data.get("names") or [])
        raise RecordError(f"seat {seat} made no decision in hand {hand} ({game_names})")
    return SeatReview(
        first.preset,
        len(first.names),
        list(first.names),
        seat,
        first.side,
        hand,
        bool(data.get("match", True)),
        options.to_dict(),
        decisions,
        summarize(decisions, len(found) - len(todo)),
        hand_result(found[0]),
    )


def _decision(position: Position, w: Weighed, match: bool) -> Decision:
    view = position.view
    kind = kind_of(position.played, view.phase)
    played = w.tallies[0]
    best = w.tallies[w.best]
    top = best.mean if w.rounds else 0.0
    rules = rules_of(view)
    options = [
        Option(
            notation(t),
            t.candidate.source,
            round(t.mean, 1) if t.values else 0.0,
            round(t.mean - top, 1) if t.values else 0.0,
            len(t.values),
            round(t.share(t.next_took), 3),
            round(t.share(t.ended), 3),
            round(t.share(t.pot), 3),
            round(t.share(t.canastra), 3),
        )
        for t in w.tallies
    ]
    totals = list(view.totals)
    mean_played = played.mean if played.values else 0.0
    return Decision(
        position.index,
        position.action_index,
        _turn(view),
        kind,
        notation(played),
        notation(best),
        grade_of(w.loss),
        round(w.loss, 1),
        round(w.se, 1),
        w.rounds,
        round(mean_played, 1),
        round(top if w.rounds else mean_played, 1),
        _chance(win_chance(rules, totals, view.side, mean_played, match)),
        _chance(win_chance(rules, totals, view.side, top, match)),
        options,
        explain(view, kind, w),
        hindsight(position),
    )


def _turn(view: SeatView) -> int:
    """The seat's turn of the hand (from 1): a draw begins the next one."""
    started = view.detail.turns_started[view.seat] if view.detail else 0
    return started + 1 if view.phase == "draw" else max(started, 1)


def _chance(p: float | None) -> float | None:
    return None if p is None else round(p, 3)


def review_record(
    record: str | bytes | dict[str, Any],
    seats: list[int] | None = None,
    hands: list[int] | None = None,
    options: ReviewOptions | None = None,
    progress: Progress | None = None,
) -> list[SeatReview]:
    """:func:`review_seat` for each hand (from 1; all by default) and each seat (all).

    ``progress`` counts every decision of every review together.
    """
    data = load(record)
    n = int(data["rules"]["players"])
    seats = list(range(n)) if seats is None else seats
    hands = list(range(1, len(data["hands"]) + 1)) if hands is None else hands
    out: list[SeatReview] = []
    totals: dict[tuple[int, int], int] = {}
    done: dict[tuple[int, int], int] = {}

    def tell(key: tuple[int, int]) -> Progress:
        def told(d: int, t: int) -> None:
            totals[key], done[key] = t, d
            if progress is not None:
                progress(sum(done.values()), max(sum(totals.values()), 1))

        return told

    for h in hands:
        for s in seats:
            out.append(review_seat(data, s, h, options, tell((h, s))))
    return out
