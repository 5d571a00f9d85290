"""The web page's languages: its catalog, and which language a request gets.

The catalogs are :mod:`buraco.i18n`'s ``messages`` (shared with the terminal game): each
message's ``msgctxt`` is the key the page asks for (``"act.draw"``), its ``msgid`` the
English text and its ``msgstr`` the translation; ``{name}`` is a parameter and ``{@name}``
a term of the game that the page words per preset (``term.pot`` is "morto",
``term.pot@italiano`` "pozzetto"). The engine's refusals are the keys
``refusal.<code>`` (:data:`buraco.refusals.ENGLISH`).

A request's language: the ``lang`` query parameter, else the ``lang`` cookie the page sets
when a player chooses one, else the best match of its ``Accept-Language`` header, else
English.

>>> negotiate(None, None, "it-IT,it;q=0.9,en;q=0.5")
'it'
>>> negotiate(None, None, "pt")  # Portuguese: the Brazilian catalog
'pt-BR'
>>> negotiate("es", "it", "pt-BR")
'es'
>>> messages("pt-BR")["act.take"]
'Pegar o lixo'
"""

from __future__ import annotations

from buraco import i18n
from buraco.i18n import DEFAULT, LANGUAGES, language_names, negotiate

__all__ = ["COOKIE", "DEFAULT", "LANGUAGES", "language_names", "messages", "negotiate"]

COOKIE = "lang"
"""The cookie that keeps a player's choice of language."""


def messages(tag: str) -> dict[str, str]:
    """Every key's text in a language (one of :data:`LANGUAGES`): the page's catalog."""
    return i18n.messages(tag, "messages")
