"""The terminal's words: the language in use, and the texts of its keys.

Every text the terminal game shows comes from the catalogs of :mod:`buraco.i18n` (the
shared ``messages`` and the terminal's own ``terminal``, keys ``tui.*``), in the language
the player chose (``buraco play --lang``) or their terminal's locale asks for, with the
terms of the preset in play (``morto`` or ``pozzetto``). Cards are shown as the board
draws them (``10♥``, ``JK``) in every language, as they are typed.

>>> use("it", "italiano")
>>> t("side.pot-taken"), count("cards.count", 2)
('pozzetto preso', '2 carte')
>>> use("en")
>>> t("tui.goal.target", n=3000)
'Match to 3000'
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode

from buraco.cards import parse_card
from buraco.i18n import DEFAULT, DOMAINS, Words
from buraco.refusals import Refusal
from buraco.tui.glyphs import card_label


def _card(code: str) -> str:
    return card_label(parse_card(code))  # the board's way of drawing a card


def _words(tag: str, preset: str | None) -> Words:
    return Words(tag, preset, DOMAINS, card=_card)


_current = _words(DEFAULT, None)


def use(tag: str, preset: str | None = None) -> None:
    """Show everything in language ``tag`` with the terms of ``preset``."""
    global _current
    _current = _words(tag, preset)


def words() -> Words:
    """The words in use."""
    return _current


def t(key: str, **params: object) -> str:
    """The text of ``key`` in the language in use (see :meth:`buraco.i18n.Words.__call__`)."""
    return _current(key, **params)


def count(key: str, n: int, **params: object) -> str:
    """The text of ``key`` for the count ``n`` (see :meth:`buraco.i18n.Words.count`)."""
    return _current.count(key, n, **params)


def sentence(text: str) -> str:
    """The text with its first letter a capital (a line that starts with a term: "mortos")."""
    return text[:1].upper() + text[1:]


def refusal(r: Refusal) -> str:
    """An engine's refusal in the language in use."""
    return _current.refusal(r)


def action(notation: str) -> str:
    """An action of the notation in words (``discard 9C``: discard 9♣)."""
    return _current.action(notation)


def word_bindings(node: DOMNode) -> None:
    """Word a widget's or an app's key bindings, whose descriptions are catalog keys.

    Called from each ``__init__``: the footer then names the keys in the language in use.
    """
    worded: dict[str, list[Binding]] = {}
    for key, binding in node._bindings:
        text = t(binding.description) if binding.description.startswith("tui.") else ""
        worded.setdefault(key, []).append(replace(binding, description=text or binding.description))
    node._bindings = BindingsMap.from_keys(worded)
