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

A hand dealt online may also carry ``commitment`` and ``salt``: the proof that
its deck was fixed before play (see :mod:`buraco.fairness`, ``buraco verify``).
``seed`` is informative (the decks are what replays); ``result``, ``totals``
and ``winner`` are written by the engine and checked when present. A record is
parsed strictly: unknown fields and values of the wrong JSON type are refused. The deal of a
deck order is described in ``docs/records.md``.

Replaying a record (:func:`buraco.replays.replay`) checks every action against the rules:

>>> from buraco.game import Game
>>> from buraco.replays import replay
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

from buraco.cards import CARD_NAMES
from buraco.errors import RecordError, shown
from buraco.fairness import HASH_RE, SALT_RE

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
            hand["result"] = result_of(game.results[i])
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
        **({"stopped": True} if game.stopped else {}),
        **({"resigned": game.resigned} if game.resigned >= 0 else {}),
    }


def dumps(game: Game, indent: int | None = 1) -> str:
    """The record of a game as JSON text."""
    return json.dumps(record_of(game), indent=indent)


def save(game: Game, path: str | Path) -> None:
    """Write the record of a game to a file."""
    Path(path).write_text(dumps(game) + "\n", encoding="utf-8")


MAX_BYTES = 16 * 1024 * 1024
"""The largest record read, in bytes (a match of a thousand hands fits several times)."""

MAX_HANDS = 1000
"""The most hands a record may hold."""

_RECORD_KEYS = (
    "format",
    "version",
    "rules",
    "names",
    "match",
    "seed",
    "first_dealer",
    "start_scores",
    "hands",
    "totals",
    "winner",
    "stopped",
    "resigned",
    "play",
)
_RULES_KEYS = ("preset", "players", "options")
_HAND_KEYS = ("dealer", "cut", "deck", "actions", "result", "commitment", "salt")
_RESULT_KEYS = ("ended_by", "went_out", "scores", "totals")


def load(source: str | bytes | Path | dict[str, Any]) -> dict[str, Any]:
    """Read and check a record from a path, JSON text (str or bytes), or a dict.

    Raises :class:`RecordError` saying what is wrong: a file that cannot be read or
    is over ``MAX_BYTES``, text that is not JSON, or a structure that is not a record.
    """
    if isinstance(source, dict):
        data: Any = source
    elif isinstance(source, str | bytes | Path):
        data = _parse(_text_of(source))
    else:
        raise RecordError(f"a record is a path, JSON text or a dict, not {type(source).__name__}")
    try:
        _check(data)
    except RecursionError:
        raise RecordError("the record is nested too deeply") from None
    return data  # type: ignore[no-any-return]


def _text_of(source: str | bytes | Path) -> str | bytes:
    """The JSON text of a source: itself when it is JSON text, else the file it names."""
    if isinstance(source, bytes):
        raw = source
    elif isinstance(source, str) and source.lstrip().startswith("{"):
        if len(source) > MAX_BYTES:
            raise RecordError(f"the record is larger than {MAX_BYTES // 2**20} MiB")
        return source
    else:
        name = str(source)
        try:
            with open(source, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise RecordError(f"cannot read record {name!r:.200}: {reason}") from None
        except ValueError:  # a NUL character in the path
            raise RecordError(f"cannot read record {name!r:.200}: not a file name") from None
    if len(raw) > MAX_BYTES:
        raise RecordError(f"the record is larger than {MAX_BYTES // 2**20} MiB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("the record is not UTF-8 text") from None


def _no_constant(name: str) -> Any:
    raise RecordError(f"the record is not valid JSON: {name} is not a JSON number")


def _parse(text: str | bytes) -> Any:
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"the record is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise RecordError("the record is nested too deeply") from None
    except ValueError:  # a number with more digits than Python converts
        raise RecordError("the record holds a number too long to read") from None


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise RecordError(f"record {where}: {what}" if where else f"record: {what}")


def _keys(obj: dict[Any, Any], where: str, allowed: tuple[str, ...]) -> None:
    for key in obj:
        if key not in allowed:
            at = f"record {where}" if where else "record"
            raise RecordError(f"{at}: unknown field {shown(key)}; fields are: {', '.join(allowed)}")


def _whole(value: Any) -> bool:
    return type(value) is int


def _check(data: Any) -> None:
    _need(isinstance(data, dict), "", "must be a JSON object")
    _keys(data, "", _RECORD_KEYS)
    _need(data.get("format") == FORMAT, "format", f"must be {FORMAT!r}")
    _need(
        _whole(data.get("version")) and data["version"] == VERSION, "version", f"must be {VERSION}"
    )
    rules = data.get("rules")
    _need(isinstance(rules, dict), "rules", "must be an object with preset, players, options")
    _keys(rules, "rules", _RULES_KEYS)
    _need(isinstance(rules.get("preset"), str), "rules.preset", "must be a preset name")
    _need(_whole(rules.get("players")), "rules.players", "must be a whole number")
    _need(isinstance(rules.get("options", {}), dict), "rules.options", "must be an object")
    _need(
        "players" not in rules.get("options", {}),
        "rules.options",
        "must not hold players (give the player count as rules.players)",
    )
    hands = data.get("hands")
    _need(
        isinstance(hands, list) and 0 < len(hands) <= MAX_HANDS,
        "hands",
        f"must be a list of 1 to {MAX_HANDS} hands",
    )
    for i, hand in enumerate(hands):
        where = f"hands[{i}]"
        _need(isinstance(hand, dict), where, "must be an object with dealer, cut, deck, actions")
        _keys(hand, where, _HAND_KEYS)
        _need(_whole(hand.get("dealer")), f"{where}.dealer", "must be a seat number")
        _need(_whole(hand.get("cut", 1)), f"{where}.cut", "must be a whole number")
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
                and _whole(item[0])
                and isinstance(item[1], str),
                f"{where}.actions[{j}]",
                'must be [seat, "action"], e.g. [0, "draw"]',
            )
        for key, pattern, what in (
            ("commitment", HASH_RE, "a SHA-256 digest as 64 lowercase hex digits"),
            ("salt", SALT_RE, "32 to 128 lowercase hex digits"),
        ):
            if key in hand:
                value = hand[key]
                _need(
                    isinstance(value, str) and pattern.fullmatch(value) is not None,
                    f"{where}.{key}",
                    f"must be {what}",
                )
        if "result" in hand:
            _need(isinstance(hand["result"], dict), f"{where}.result", "must be an object")
            _keys(hand["result"], f"{where}.result", _RESULT_KEYS)
    if "names" in data:
        _need(
            isinstance(data["names"], list) and all(isinstance(x, str) for x in data["names"]),
            "names",
            "must be a list of player names",
        )
    for key in ("start_scores", "totals"):
        if key in data:
            _need(
                isinstance(data[key], list) and all(_whole(x) for x in data[key]),
                key,
                "must be a list of whole numbers, one per side",
            )
    for key in ("first_dealer", "seed", "winner"):
        if data.get(key) is not None:
            _need(_whole(data[key]), key, "must be a whole number")
    if "match" in data:
        _need(isinstance(data["match"], bool), "match", "must be true or false")
    if "stopped" in data:
        _need(isinstance(data["stopped"], bool), "stopped", "must be true or false")
    if "resigned" in data:
        _need(_whole(data["resigned"]), "resigned", "must be the seat of the player who resigned")
    if "play" in data:  # written by `buraco play`: who plays each seat; not replayed
        play = data["play"]
        _need(
            isinstance(play, dict)
            and set(play) <= {"human", "bots"}
            and (play.get("human") is None or _whole(play["human"]))
            and isinstance(play.get("bots", []), list)
            and all(isinstance(b, str) and len(b) <= 200 for b in play.get("bots", [])),
            "play",
            'must be {"human": SEAT, "bots": ["heuristic", ...]}',
        )


def result_of(res: HandResult) -> dict[str, Any]:
    """A hand's result as a record writes it."""
    return {
        "ended_by": res.ended_by,
        "went_out": res.went_out,
        "scores": [s.as_dict() for s in res.scores],
        "totals": list(res.totals),
    }
