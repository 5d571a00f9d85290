"""The hindsight line: what the record shows happened after a decision, marked as such.

Everything else in a review comes from the seat's view at the decision. This line alone
reads the record after it (the next player's real choice, the hand's real score), and it
is kept apart (:attr:`buraco.review.report.Decision.hindsight`) so that nothing graded
depends on it.
"""

from __future__ import annotations

from buraco.actions import TAKE_PILE, Discard, parse_action
from buraco.review.explain import Line
from buraco.review.steps import Position


def hindsight(position: Position) -> list[Line]:
    """What the next player did with the pile after a discard (empty otherwise)."""
    step = position.played
    if not isinstance(step[-1], Discard):
        return []
    game = position.game.clone()
    seat = position.view.seat
    after = position.after
    for who, text in after[: len(step)]:
        game.apply(text, seat=who)
    if game.is_hand_over() or len(after) <= len(step):
        return []
    nxt, text = after[len(step)]
    if game.side_of[nxt] == game.side_of[seat]:
        return []
    name = game.names[nxt]
    if parse_action(text) == TAKE_PILE:
        return [Line("review.hindsight.took", {"name": name, "pile": len(game.pile)})]
    return [Line("review.hindsight.left", {"name": name})]


def hand_result(position: Position) -> list[Line]:
    """The hand's real score for the seat's side and the best other (when the record ends it)."""
    game = position.game.clone()
    for who, text in position.after:
        game.apply(text, seat=who)
    if not game.is_hand_over():
        return []
    scores = [s.total for s in game.scores()]
    side = game.side_of[position.view.seat]
    theirs = max(x for i, x in enumerate(scores) if i != side)
    return [Line("review.hindsight.hand", {"mine": scores[side], "theirs": theirs})]
