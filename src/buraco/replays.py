"""Replaying a game record: every action checked against the rules (:mod:`buraco.record`).

>>> from buraco.game import Game
>>> g = Game("fechado", players=2, seed=5, match=False)
>>> g.apply("draw"); g.apply(g.legal_actions()[-1])
>>> replay(g.record()).events == g.events
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from buraco.cards import parse_cards
from buraco.errors import BuracoError, RecordError, RulesError, shown
from buraco.game import Game
from buraco.record import ReplayError, load, result_of
from buraco.rules import rules_from_json


def replay(source: str | bytes | Path | dict[str, Any], check_results: bool = True) -> Game:
    """Replay a record, checking every action against the rules.

    Returns the game at its end. Raises :class:`ReplayError` at the first
    illegal action, or :class:`RecordError` when the record is malformed or its
    written results (each hand's ``result``, ``totals``, ``winner``) differ from
    the replay.
    """
    data = load(source)
    try:
        return _replay(data, check_results)
    except RecursionError:
        raise RecordError("the record is nested too deeply") from None


def _replay(data: dict[str, Any], check_results: bool) -> Game:
    rules_data = data["rules"]
    try:
        rules = rules_from_json(
            rules_data["preset"], rules_data["players"], rules_data.get("options", {})
        )
    except RulesError as exc:
        raise RecordError(f"record rules: {exc}") from None
    decks = []
    for i, hand in enumerate(data["hands"]):
        try:
            deck = hand["deck"]
            decks.append(parse_cards(deck))
        except BuracoError as exc:
            raise RecordError(f"record hands[{i}].deck: {exc}") from None
    first_dealer = data.get("first_dealer", data["hands"][0]["dealer"])
    try:
        game = Game(
            rules,
            seed=data.get("seed"),
            stacked=decks,
            cuts=[hand.get("cut", 1) for hand in data["hands"]],
            match=data.get("match", True),
            first_dealer=first_dealer,
            scores=data.get("start_scores"),
            names=data.get("names"),
        )
    except BuracoError as exc:
        raise RecordError(f"record: {exc}") from None
    for i, hand in enumerate(data["hands"]):
        if i > 0:
            if not game.is_hand_over():
                raise RecordError(f"record hands[{i - 1}]: its actions end before the hand does")
            if game.is_over():
                raise RecordError(f"record hands[{i}]: the match was over before this hand")
            game.next_hand()
        if hand["dealer"] != game.dealer:
            raise RecordError(
                f"record hands[{i}].dealer: {shown(hand['dealer'])} but the deal passes to seat "
                f"{game.dealer}"
            )
        for j, (seat, text) in enumerate(hand["actions"]):
            try:
                game.apply(text, seat=seat)
            except BuracoError as exc:
                raise ReplayError(i, j, seat, text, str(exc)) from None
        if "resigned" in data and i == len(data["hands"]) - 1:
            try:  # the match conceded, in this hand or after it
                game.resign(data["resigned"])
            except BuracoError as exc:
                raise RecordError(f"record resigned: {exc}") from None
        if check_results and "result" in hand:
            if not game.is_hand_over():
                raise RecordError(f"record hands[{i}]: has a result but the hand is not over")
            _compare(f"hands[{i}].result", hand["result"], result_of(game.results[i]))
    if data.get("stopped"):
        try:
            game.stop_match()
        except BuracoError as exc:
            raise RecordError(f"record stopped: {exc}") from None
    if check_results:
        if "totals" in data and data["totals"] != game.totals:
            raise RecordError(
                f"record totals: {shown(data['totals'], 60)} but the replay gives {game.totals}"
            )
        if "winner" in data and data["winner"] != game.winner:
            raise RecordError(
                f"record winner: {shown(data['winner'])} but the replay gives {game.winner}"
            )
    return game


def _compare(where: str, written: Any, got: Any) -> None:
    """Raise naming the first field where a written result differs from the replay's."""
    if isinstance(got, dict) and isinstance(written, dict):
        for key in written:
            if key not in got:
                raise RecordError(f"record {where}: unknown field {shown(key)}")
            _compare(f"{where}.{key}", written[key], got[key])
        return
    if (
        isinstance(got, list)
        and isinstance(written, list)
        and len(got) == len(written)
        and all(isinstance(x, dict) for x in got)
    ):
        for k, (w, g) in enumerate(zip(written, got, strict=True)):
            _compare(f"{where}[{k}]", w, g)
        return
    if written != got or type(written) is not type(got):
        raise RecordError(f"record {where}: {shown(written, 60)} but the replay gives {got!r}")


__all__ = ["ReplayError", "replay"]
