"""What a new table may be: its seats, bots, pace, timers, and the row it is stored as."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from buraco.bots import make_bot
from buraco.errors import RulesError
from buraco.server.errors import ServiceError
from buraco.server.models import TableRow
from buraco.server.store import now
from buraco.server.tables import Seat

SEAT_KINDS = ("open", "invite", "bot", "me")
"""What a seat may be when a table is created: open to anyone, kept for the invite link,
a bot, or the creator's own."""

PACES = (0.0, 5.0)
"""The shortest and longest bot pace a table may set, in seconds."""

TURN_TIMERS = (0, 30, 60, 120)
"""The turn timers a table may set, in seconds (0: none)."""

OFFLINE_BOTS = ("policy", "learned")
"""Bots not offered online (they read a model file of the machine, named by the spec)."""

ONLINE_VALUES = ("fitted", "learned")
"""The values an ``mcts`` bot may score with online (not a file of the machine)."""


def offline_bot(spec: str) -> bool:
    """Whether a bot spec names a file of the machine to read: not offered online.

    >>> offline_bot("learned"), offline_bot("mcts:value=/etc/passwd"), offline_bot("mcts")
    (True, True, False)
    """
    name, _, text = spec.partition(":")
    if name.strip().lower() in OFFLINE_BOTS:
        return True
    for item in text.split(","):
        key, _, value = item.partition("=")
        if key.strip() == "value" and value.strip() not in ONLINE_VALUES:
            return True
    return False


MATCH_MINUTES = (0, 15, 30, 60, 90)
"""The lengths a timed match may have, in minutes (0: not timed)."""


BRAZIL_NAMES = ("Tião", "Cida", "Dona Lurdes", "Zeca", "Dalva", "Seu Jorge", "Neide", "Bebel")
"""Bots' names as players of Brazil are called."""

PLATA_NAMES = ("Chela", "Pocho", "Tano", "Mirta", "Cacho", "Lola", "Ruso", "Rosita")
"""Bots' names as players of Argentina and Uruguay are called."""

ITALY_NAMES = ("Nonna Pina", "Gigi", "Carmela", "Beppe", "Totò", "Peppino", "Rosaria", "Franco")
"""Bots' names as players of Italy are called."""

PRESET_NAMES: dict[str, tuple[str, ...]] = {
    "aberto": BRAZIL_NAMES,
    "fechado": BRAZIL_NAMES,
    "netcartas": BRAZIL_NAMES,
    "us": BRAZIL_NAMES + PLATA_NAMES,
    "italiano": ITALY_NAMES,
}
"""The names the bots of a preset's table are given: where the preset is played (the
Brazilian rules among Brazilians, Burraco among Italians; the American rules, played by
Brazilians and Argentines abroad, among both)."""

BOT_NAMES = tuple(dict.fromkeys(n for names in PRESET_NAMES.values() for n in names))
"""Every name a bot may be given (the seat says it is a bot, and which)."""


def name_bots(seats: list[Seat], table_id: str, preset: str = "aberto") -> None:
    """Give each bot seat a name of its preset's that no guest at the table has.

    The names are the preset's :data:`PRESET_NAMES` (all of :data:`BOT_NAMES` if those are
    too few), chosen by the table's id (compared case-folded with the guests').

    >>> gigi = Seat(0, "guest", None, "g", False, "Gigi")
    >>> seats = [gigi, Seat(1, "bot", "random", None, False, "")]
    >>> name_bots(seats, "t1", "italiano")
    >>> seats[1].name in ITALY_NAMES and seats[1].name != "Gigi"
    True
    """
    taken = {s.name.casefold() for s in seats if s.kind == "guest"}
    wanted = sum(s.kind == "bot" for s in seats)
    names = [n for n in PRESET_NAMES.get(preset, BOT_NAMES) if n.casefold() not in taken]
    if len(names) < wanted:
        names = [n for n in BOT_NAMES if n.casefold() not in taken]
    random.Random(table_id).shuffle(names)
    for s in seats:
        if s.kind == "bot":
            s.name = names.pop()


@dataclass(frozen=True)
class TableSpec:
    """What a new table is to be: checked by :meth:`TableService.create`."""

    preset: str
    players: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    """One per seat: ``{"kind": "open" | "invite" | "bot" | "me", "bot": spec}``."""
    public: bool = True
    pace: float = 1.0
    turn_timer: int = 0
    minutes: int = 0
    rated: bool = False


MAX_BOT_SECONDS = 2.0
"""The longest a bot may think for one decision at an online table."""

MAX_BOT_ITERATIONS = 2000
"""The most search rounds a bot may take for one decision at an online table."""


def check_budget(spec: str, index: int) -> None:
    """Refuse a bot whose search budget would hold the bot workers every table shares."""
    bot = make_bot(spec, seed=0)
    seconds = getattr(bot, "time", 0)
    rounds = getattr(bot, "iterations", 0)
    if isinstance(seconds, int | float) and seconds > MAX_BOT_SECONDS:
        raise ServiceError(
            "seats.bot-seconds",
            field="seats",
            row=index + 1,
            most=MAX_BOT_SECONDS,
            seconds=seconds,
        )
    if isinstance(rounds, int) and rounds > MAX_BOT_ITERATIONS:
        raise ServiceError(
            "seats.bot-rounds",
            field="seats",
            row=index + 1,
            most=MAX_BOT_ITERATIONS,
            rounds=rounds,
        )


def table_row(
    table_id: str,
    creator: str,
    preset: str,
    players: int,
    options: dict[str, Any],
    *,
    public: bool,
    invite_hash: str,
    pace: float,
    turn_timer: int,
    minutes: int,
    rated: bool = False,
    rematch_of: str | None = None,
) -> TableRow:
    """The database row of a new table, waiting for its players."""
    return TableRow(
        id=table_id,
        created_by=creator,
        created_at=now(),
        preset=preset,
        players=players,
        options=json.dumps(options),
        public=public,
        invite_hash=invite_hash,
        pace=pace,
        turn_timer=turn_timer,
        minutes=minutes,
        status="waiting",
        version=0,
        rated=rated,
        rematch_of=rematch_of,
        rematch=None,
    )


def field_of(exc: RulesError, spec: TableSpec) -> str | None:
    """The field of the create form a rules error is about, when it is about one."""
    refusal = exc.refusal
    if refusal is not None:
        if refusal.code == "preset.players":
            return "players"
        if refusal.rule == "preset":
            return "preset"
        option = refusal.params.get("option")
        if isinstance(option, str):
            return option
    message = str(exc)
    for key in sorted(spec.options, key=len, reverse=True):
        if key in message:
            return key
    return "players" if "players" in message else None
