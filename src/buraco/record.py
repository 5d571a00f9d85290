"""Game records: a JSON document that replays a game exactly (the PGN of Buraco).

A record holds the rules (a preset, the player count and the options that
differ from the preset), the players' names, and for every hand its dealer, its
cut, its deck order (top card first) and every action in order with the seat
that made it::

    {
      "format": "buraco-record",
      "version": 1,
      "rules": {"preset": "aberto", "players": 4, "options": {"target": 2000}},
      "names": ["Ana", "Bia", "Caio", "Duda"],
      "match": true,
      "seed": 7,
      "first_dealer": 3,
      "start_scores": [0, 0],
      "hands": [
        {"dealer": 3, "cut": 1, "deck": "7H QS ... JK",
         "actions": [[0, "draw"], [0, "discard 7H"], [1, "take-pile"], ...],
         "result": {"ended_by": "going-out", "scores": [...], "totals": [...]}}
      ],
      "totals": [1230, 870],
      "winner": null
    }

``seed`` is informative (the decks are what replays); ``result``, ``totals``
and ``winner`` are written by the engine and checked when present. The deal of a
deck order is described in ``docs/records.md``.

>>> from buraco.game import Game
>>> g = Game("aberto", players=2, seed=3, match=False)
>>> g.apply("draw"); g.apply(g.legal_actions()[-1])
>>> again = replay(g.record())
>>> again.events == g.events
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buraco.cards import CARD_NAMES, parse_cards
from buraco.errors import BuracoError, RecordError, RulesError
from buraco.rules import make_rules

if TYPE_CHECKING:
    from buraco.game import Game, HandResult

FORMAT = "buraco-record"
VERSION = 1


class ReplayError(RecordError):
    """An action of a record that the rules refuse: where it is and why."""

    def __init__(self, hand: int, index: int, seat: int, action: str, reason: str) -> None:
        super().__init__(f"hand {hand + 1}, action {index + 1} ({seat} {action!r}): {reason}")
        self.hand = hand
        self.index = index
        self.seat = seat
        self.action = action
        self.reason = reason


def record_of(game: Game) -> dict[str, Any]:
    """The record of a game as a JSON-serializable dict."""
    r = game.rules
    hands = []
    for i, deal in enumerate(game.deals):
        events = game.hand_events[i]
        hand: dict[str, Any] = {
            "dealer": deal.dealer,
            "cut": deal.cut,
            "deck": " ".join(CARD_NAMES[c] for c in deal.deck),
            "actions": [[e.seat, str(e.action)] for e in events if e.action is not None],
        }
        if i < len(game.results):
            hand["result"] = _result_of(game.results[i])
        hands.append(hand)
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": {"preset": r.preset, "players": r.players, "options": r.overrides()},
        "names": list(game.names),
        "match": game.match,
        "seed": game.seed,
        "first_dealer": game.first_dealer,
        "start_scores": list(game.start_totals),
        "hands": hands,
        "totals": list(game.totals),
        "winner": game.winner,
    }


def dumps(game: Game, indent: int | None = 1) -> str:
    """The record of a game as JSON text."""
    return json.dumps(record_of(game), indent=indent)


def save(game: Game, path: str | Path) -> None:
    """Write the record of a game to a file."""
    Path(path).write_text(dumps(game) + "\n", encoding="utf-8")


def load(source: str | Path | dict[str, Any]) -> dict[str, Any]:
    """Read and check a record from a path, JSON text, or a dict."""
    if isinstance(source, dict):
        data: Any = source
    else:
        text = str(source)
        if isinstance(source, Path) or not text.lstrip().startswith("{"):
            try:
                text = Path(source).read_text(encoding="utf-8")
            except OSError as exc:
                raise RecordError(f"cannot read record {str(source)!r}: {exc.strerror}") from None
            except UnicodeDecodeError:
                raise RecordError(f"record {str(source)!r} is not UTF-8 text") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"the record is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
            ) from None
    _check(data)
    return data  # type: ignore[no-any-return]


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise RecordError(f"record {where}: {what}")


def _check(data: Any) -> None:
    _need(isinstance(data, dict), "", "must be a JSON object")
    _need(data.get("format") == FORMAT, "format", f"must be {FORMAT!r}")
    _need(data.get("version") == VERSION, "version", f"must be {VERSION}")
    rules = data.get("rules")
    _need(isinstance(rules, dict), "rules", "must be an object with preset, players, options")
    _need(isinstance(rules.get("preset"), str), "rules.preset", "must be a preset name")
    _need(isinstance(rules.get("players"), int), "rules.players", "must be a number")
    _need(isinstance(rules.get("options", {}), dict), "rules.options", "must be an object")
    _need(
        "players" not in rules.get("options", {}),
        "rules.options",
        "must not hold players (give the player count as rules.players)",
    )
    hands = data.get("hands")
    _need(isinstance(hands, list) and len(hands) > 0, "hands", "must be a non-empty list")
    for i, hand in enumerate(hands):
        where = f"hands[{i}]"
        _need(isinstance(hand, dict), where, "must be an object with dealer, cut, deck, actions")
        _need(isinstance(hand.get("dealer"), int), f"{where}.dealer", "must be a seat number")
        _need(isinstance(hand.get("cut", 1), int), f"{where}.cut", "must be a whole number")
        deck = hand.get("deck")
        _need(
            isinstance(deck, str)
            or (isinstance(deck, list) and all(isinstance(c, str) for c in deck)),
            f"{where}.deck",
            "must be the deck order as card names (a string or a list), top card first",
        )
        actions = hand.get("actions")
        _need(isinstance(actions, list), f"{where}.actions", "must be a list")
        for j, item in enumerate(actions):
            _need(
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], int)
                and isinstance(item[1], str),
                f"{where}.actions[{j}]",
                'must be [seat, "action"], e.g. [0, "draw"]',
            )
    if "names" in data:
        _need(
            isinstance(data["names"], list) and all(isinstance(x, str) for x in data["names"]),
            "names",
            "must be a list of player names",
        )
    if "start_scores" in data:
        scores = data["start_scores"]
        _need(
            isinstance(scores, list) and all(type(x) is int for x in scores),
            "start_scores",
            "must be a list of whole numbers, one per side",
        )
    for key in ("first_dealer", "seed"):
        if data.get(key) is not None:
            _need(type(data[key]) is int, key, "must be a whole number")
    if "match" in data:
        _need(isinstance(data["match"], bool), "match", "must be true or false")
    for i, hand in enumerate(hands):
        if "result" in hand:
            _need(isinstance(hand["result"], dict), f"hands[{i}].result", "must be an object")


def replay(source: str | Path | dict[str, Any], check_results: bool = True) -> Game:
    """Replay a record, checking every action against the rules.

    Returns the game at its end. Raises :class:`ReplayError` at the first
    illegal action, or :class:`RecordError` when the record is malformed or its
    written results differ from the replay.
    """
    from buraco.game import Game

    data = load(source)
    rules_data = data["rules"]
    try:
        rules = make_rules(
            rules_data["preset"], players=rules_data["players"], **rules_data.get("options", {})
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
            match=bool(data.get("match", True)),
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
                f"record hands[{i}].dealer: {hand['dealer']} but the deal passes to seat "
                f"{game.dealer}"
            )
        for j, (seat, text) in enumerate(hand["actions"]):
            try:
                game.apply(text, seat=seat)
            except BuracoError as exc:
                raise ReplayError(i, j, seat, text, str(exc)) from None
        if check_results and "result" in hand:
            if not game.is_hand_over():
                raise RecordError(f"record hands[{i}]: has a result but the hand is not over")
            got = _result_of(game.results[i])
            for key, value in hand["result"].items():
                if got.get(key) != value:
                    raise RecordError(
                        f"record hands[{i}].result.{key}: {value!r} but the replay gives "
                        f"{got.get(key)!r}"
                    )
    if check_results and "totals" in data and data["totals"] != game.totals:
        raise RecordError(f"record totals: {data['totals']} but the replay gives {game.totals}")
    if check_results and "winner" in data and data["winner"] != game.winner:
        raise RecordError(f"record winner: {data['winner']} but the replay gives {game.winner}")
    return game


def _result_of(res: HandResult) -> dict[str, Any]:
    return {
        "ended_by": res.ended_by,
        "went_out": res.went_out,
        "scores": [s.as_dict() for s in res.scores],
        "totals": list(res.totals),
    }
