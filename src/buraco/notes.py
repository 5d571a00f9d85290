"""What followed an action, as data: the notes of a hand's log.

Some entries of a hand's log (:class:`buraco.game.Event`) are not actions but their
consequences: a morto taken, a hand gone out, an opening short of its minimum. Each has
a ``code`` and ``params`` (values, never words: cards as codes, numbers), and the engine's
English wording of it in ``note``, from :data:`NOTES`; a front end words the code in its
own language, as it does the refusals (:mod:`buraco.refusals`).

>>> note("opening-short", value=40, need=75)["note"]
'opening short: 40 of 75; cards returned'
"""

from __future__ import annotations

from typing import Any

NOTES: dict[str, str] = {
    "pot-to-stock": "a morto became the stock",
    "turned-up": "turned up {card}",
    "opening-short": "opening short: {value} of {need}; cards returned",
    "opening-short-raised": (
        "opening short: {value} of {need}; cards returned; the minimum is now {now}"
    ),
    "pot-taken.discard": "took the morto by discarding",
    "pot-taken.meld": "took the morto by melding",
    "went-out": "went out",
    "pile-streak": (
        "must draw from the stock (pile_streak_limit): the pile was taken {streak} turns in a "
        "row with no card put on the table"
    ),
}
"""The engine's English wording of every note code; ``{name}`` is a parameter."""


def note(code: str, **params: int | str) -> dict[str, Any]:
    """An event's ``note``, ``code`` and ``params`` (as keyword arguments of an event)."""
    return {"note": NOTES[code].format(**params), "code": code, "params": tuple(params.items())}
