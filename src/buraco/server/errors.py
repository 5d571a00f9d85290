"""The server's refusals of a request: a key naming the case, its parameters, and the English.

Every refusal the server sends (a REST error or an ``error`` frame) carries ``code`` (what
kind of refusal: ``"taken"``, ``"name"``), ``key`` (the case: ``"taken.offer"``), ``params``
(its values, never words: numbers, names as typed, lists of identifiers) and ``message``,
its English wording from :data:`MESSAGES`. A ``seat`` parameter is a seat's index as
the protocol counts them, from 0 (the page shows it from 1); a ``row`` is a line of the
create form's ``seats``, from 1. The page words the key from its catalogs
(``error.<key>``), in its player's language; a refusal of the engine also carries the
engine's :class:`~buraco.refusals.Refusal`, worded from ``refusal.<code>``.

>>> e = ServiceError("taken.offer", status=409, seat=1, name="Ana")
>>> e.code, e.message
('taken', "seat 1 is kept for Ana's answer")
>>> e.as_dict()["params"]
{'seat': 1, 'name': 'Ana'}
"""

from __future__ import annotations

from typing import Any

from buraco.refusals import Refusal

Param = int | float | str | list[str]
"""A parameter's value: a number, a name or identifier, or a list of identifiers."""

MESSAGES: dict[str, str] = {
    # who you are
    "guest": "choose a name first (POST /api/guests)",
    "guest.chat": "choose a name to chat",
    "name.length": "a name is 1 to {most} characters",
    "name.visible": "a name needs a letter, digit or sign that can be seen",
    "name.printable": "a name is 1 to {most} printable characters",
    "name.taken": "this name, or one that looks like it, belongs to an account: choose another",
    "name.account": "an account keeps its name (its capitals and accents may change)",
    # accounts
    "password.length": "a password is {least} to {most} characters",
    "signin": "no account has this name and password",
    "password.wrong": "the current password is not this one",
    "account.none": "you have no account: claim your name with a password first",
    "account.already": "you already have an account",
    "limit.tries": (
        "too many tries ({what}): at most {most} in {seconds} seconds; try again in {wait} seconds"
    ),
    "limit.sockets": "at most {most} connections from one address; close one",
    "origin": "a request from another site ({origin}) is refused",
    # what there is
    "not-found.table": "no table {table}",
    "not-found.game": "no game {game}",
    "not-found.hand": "the game has {hands} hands",
    "not-found.player": "no such player",
    "not-found.tournament": "no tournament {tournament}",
    "game.held": (
        "this game's record is shown once every table of its tournament turn is over (they "
        "play the same cards)"
    ),
    # tournaments
    "tournament": "{text}",
    "tournament.players": "a tournament is played at tables of 4 (pairs) or of 2 its preset takes",
    "tournament.movements": "give 1 to {most} turns, each one of {movements}",
    "tournament.break": "a break between turns is 0 to {most} seconds",
    "tournament.many": "at most {most} tournaments are open or played at once; try later",
    "tournament.many-guests": (
        "guests have {most} tournaments open or being played, as many as guests may: keep "
        "your name with a password to make one, or try later"
    ),
    "tournament.entered": "you are entered in this tournament already",
    "tournament.no-place": "entry {entry} keeps no place for a partner",
    "tournament.no-entry": "there is no entry {entry}",
    "tournament.rematch": "a tournament's table has no rematch: the tournament goes on",
    "tournament.code": "this place is kept for the partner who has its code",
    "tournament.in-play": "table {table} is still being played: its result comes with its end",
    "tournament.duplicate-timed": (
        "duplicate deals need the hands played out (timed tables play different numbers)"
    ),
    "tournament.yours": "you have {most} tournaments open or being played already",
    "seats.bot-offline": "seat {row}: the bot {bot} plays only on its own machine, not online",
    "tournament.bots": "add 1 to {most} entries of bots",
    "tournament.full": "the tournament has its {most} entries",
    "tournament.started": "the tournament has started: entries are closed",
    "tournament.few": "a tournament needs two entries or more to start",
    "tournament.few-players": "an individual tournament needs four players or more to start",
    "tournament.mitchell-turns": (
        "{entrants} entrants have {most} Mitchell turns before pairs meet again, not {count}"
    ),
    "tournament.round-robin-turns": (
        "{entrants} entrants have {most} round-robin turns before pairs meet again, not {count}"
    ),
    "tournament.no-turn": "turn {turn} is not paired (turns paired: 1 to {turns})",
    "tournament.no-table": "turn {turn} has tables 1 to {tables}, not {table}",
    "tournament.no-adjustment": "table {table} of turn {turn} has no adjustment to clear",
    "tournament.both-vp": "an adjustment gives both sides' VP, or neither to clear it",
    "tournament.note": "the reason for an adjustment is 1 to {most} characters",
    "tournament.starts": "a tournament's start time is in the next {days} days",
    "tournament.alone": "in an individual tournament each player enters alone, with no partner",
    "tournament.individual": (
        "an individual tournament is played at tables of 4, every turn swiss (a new partner "
        "each turn)"
    ),
    "tournament.not-started": "the tournament has not started",
    "tournament.director": "only the tournament's director may do this",
    # a new table
    "rules": "{text}",
    "rules.players": "give the player count as players, not as an option",
    "rules.preset": "no such preset; presets are: {presets}",
    "rules.target": "target must be at most {most} online",
    "rules.replay": "this game's record cannot be replayed by this version: {text}",
    "seats.count": "give {players} seats, one per player",
    "seats.kind": "seat {row}: a seat is one of {kinds}",
    "seats.bot": "seat {row}: {text}",
    "seats.bot-seconds": (
        "seat {row}: online, a bot thinks at most {most} seconds a decision, not {seconds}"
    ),
    "seats.bot-rounds": (
        "seat {row}: online, a bot searches at most {most} rounds a decision, not {rounds}"
    ),
    "seats.one": "take at most one seat yourself",
    "pace": "pace is {low} to {high} seconds",
    "minutes": "a timed match lasts one of {minutes} minutes (0: not timed)",
    "turn_timer": "the turn timer is one of {timers} seconds",
    "limit": "a guest may have {most} unfinished tables; finish or leave one first",
    "rated.guest": (
        "rated play is for accounts: keep your name with a password first, or play unrated"
    ),
    # seats
    "started": "the match has started; watch it instead",
    "seat": "seats are 0 to {last}",
    "seated": "you already have a seat at this table",
    "taken": "seat {seat} is taken",
    "taken.offer": "seat {seat} is kept for {name}'s answer",
    "invite": "this table is private",
    "invite.seat": "this seat is kept for the invite link",
    "not-seated": "you have no seat at this table",
    "not-seated.hint": "only a player gets a hint",
    "not-seated.rematch": "only the players may ask for a rematch",
    "not-offered": "no seat is offered to you here",
    "spectator": "you have no seat at this table",
    # playing
    "not-playing": "the match is not being played",
    "not-playing.here": "no match is being played here",
    "over": "the match is over",
    "not-over": "the match is not over yet",
    "not-over.hand": "the hand is not over",
    "stale": "the table is at version {version}, not {sent}: here is what changed",
    "stale.moment": (
        "the table moved on to version {version} at the same moment: here is what changed"
    ),
    "hand-over": "the hand is over; the next is dealt soon",
    "turn": "it is {name}'s turn (seat {seat})",
    "turn.hint": "a hint is for the player to move",
    "back": "{name} is back",
    "notation": "{text}",
    "illegal": "{text}",
    # the connection
    "unavailable": "the database is not answering: nothing was done; try again in a moment",
    "request": "{text}",
    "request.utf-8": "the body is not JSON (not UTF-8 text)",
    "not-found": "{text}",
    "method": "this path takes {allowed} only",
    "too-large": "a request body is at most {most} bytes",
    "connections": "a guest may have {most} connections open; close one",
    "too-large.frame": "a frame is at most {most} bytes",
    "rate": "at most {most} messages a second; this one was dropped",
    "rate.chat": "at most {most} chat lines a minute",
    "rate.table-chat": (
        "this table takes at most {most} chat lines a minute from everyone together"
    ),
    "chat": "a chat line is printable text",
    "message": (
        "not a message of this protocol; types are hello, action, chat, ready, ping (see "
        "docs/protocol.md)"
    ),
    "message.field": (
        "not a message of this protocol ({where}: {text}); types are hello, action, chat, "
        "ready, ping (see docs/protocol.md)"
    ),
    "protocol": "this server speaks protocol {protocol} only",
}
"""The English of every refusal the server sends, by key; ``{name}`` is a parameter.

``{text}`` carries text the server does not word itself (the engine's English, a parser's
message); the page shows the refusal's own words instead wherever it has them.
"""


NOTICES: dict[str, str] = {
    "rated.turns": (
        "this match was not rated: a side made fewer than {least} turns itself (rated play "
        "needs play)"
    ),
    "rated.cap": (
        "this match is not rated: {most} rated matches against the same opponents in "
        "{days} days count, and no more"
    ),
}
"""The English of every notice the server gives about a table (its summary's ``unrated``),
by key; the page words ``notice.<key>`` in its player's language."""


def notice(key: str, **params: Param) -> dict[str, Any]:
    """A notice as a table's summary carries it: its key, parameters and English.

    >>> notice("rated.turns", least=10)["message"]
    'this match was not rated: a side made fewer than 10 turns itself (rated play needs play)'
    """
    english = NOTICES[key].format(**{k: _english(v) for k, v in params.items()})
    return {"key": key, "params": dict(params), "message": english}


class ServiceError(Exception):
    """A refused request: its case (:data:`MESSAGES`), its parameters, and an HTTP status.

    ``code`` is the key up to its first dot; ``message`` the English wording. ``refusal``
    is the engine's reason when the engine refused (an illegal action, a rule option).
    """

    def __init__(
        self,
        key: str,
        *,
        status: int = 400,
        field: str | None = None,
        rule: str | None = None,
        refusal: Refusal | None = None,
        **params: Param,
    ) -> None:
        message = MESSAGES[key].format(**{k: _english(v) for k, v in params.items()})
        super().__init__(message)
        self.key = key
        self.code = key.partition(".")[0]
        self.params = params
        self.message = message
        self.status = status
        self.field = field
        self.rule = rule
        self.refusal = refusal
        """The engine's refusal as data, for a client to word in its language."""

    def as_dict(self) -> dict[str, Any]:
        """The error as the protocol and the REST API send it."""
        out: dict[str, Any] = {
            "code": self.code,
            "key": self.key,
            "params": dict(self.params),
            "message": self.message,
        }
        if self.field is not None:
            out["field"] = self.field
        if self.rule is not None:
            out["rule"] = self.rule
        if self.refusal is not None:
            out["refusal"] = self.refusal.to_dict()
        return out


def _english(value: Param) -> str:
    if isinstance(value, list):
        return ", ".join(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
