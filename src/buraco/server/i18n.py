"""The web page's languages: gettext catalogs, and which language a request gets.

The catalogs are ``locales/messages.pot`` (English, the template) and one ``.po`` file per
other language (``pt_BR.po``, ``es.po``, ``it.po``), read with Babel. Each message's
``msgctxt`` is the key the page asks for (``"act.draw"``), its ``msgid`` the English text
and its ``msgstr`` the translation; ``{name}`` is a parameter and ``{@name}`` a term of the
game that the page words per preset (``term.pot`` is "morto", ``term.pot@italiano``
"pozzetto"). The engine's refusals are the keys ``refusal.<code>``
(:data:`buraco.refusals.ENGLISH`).

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

from functools import cache
from importlib.resources import files

from babel import Locale, negotiate_locale
from babel.messages.pofile import read_po

LANGUAGES: dict[str, str] = {"en": "", "pt-BR": "pt_BR", "es": "es", "it": "it"}
"""The page's languages as BCP 47 tags, each with its catalog's locale (English: the template)."""

DEFAULT = "en"
"""The language of a request that asks for none of :data:`LANGUAGES`."""

COOKIE = "lang"
"""The cookie that keeps a player's choice of language."""

_ALIASES = {"pt": "pt_BR", "pt_PT": "pt_BR"}
"""Requested locales served by another catalog (Portuguese of Portugal reads Brazil's)."""


def _catalog_file(tag: str) -> str:
    locale = LANGUAGES[tag]
    return f"{locale}.po" if locale else "messages.pot"


@cache
def messages(tag: str) -> dict[str, str]:
    """Every key's text in a language (one of :data:`LANGUAGES`)."""
    path = files("buraco.server").joinpath("locales", _catalog_file(tag))
    with path.open("rb") as f:
        catalog = read_po(f)
    out: dict[str, str] = {}
    for message in catalog:
        if not message.context or not isinstance(message.id, str):
            continue
        text = message.string if isinstance(message.string, str) and message.string else message.id
        out[message.context] = text
    return out


def language_names() -> list[dict[str, str]]:
    """The languages offered, each named in itself (for the page's menu)."""
    out = []
    for tag, locale in LANGUAGES.items():
        name = Locale.parse(locale or "en").get_display_name(locale or "en") or tag
        out.append({"tag": tag, "name": name[:1].upper() + name[1:]})
    return out


def _tag_of(value: str | None) -> str | None:
    """A language asked for by name (``pt-BR``, ``pt_br``, ``it``), if it is offered."""
    if not value or len(value) > 20:
        return None
    wanted = value.strip().replace("_", "-").lower()
    for tag in LANGUAGES:
        if tag.lower() == wanted:
            return tag
    return None


def negotiate(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The language of a request: see the module docstring."""
    for value in (query, cookie):
        tag = _tag_of(value)
        if tag is not None:
            return tag
    if accept:
        asked = []
        for part in accept[:500].split(","):
            name = part.split(";")[0].strip().replace("-", "_")
            if name and name != "*":
                asked.append(_ALIASES.get(name, name))
        available = [locale or "en" for locale in LANGUAGES.values()]
        found = negotiate_locale(asked, available, sep="_")
        if found is None:  # "pt_PT" or "es_AR" asked: the language alone
            found = negotiate_locale(
                [_ALIASES.get(a.split("_")[0], a.split("_")[0]) for a in asked], available, sep="_"
            )
        if found is not None:
            for tag, locale in LANGUAGES.items():
                if (locale or "en") == found:
                    return tag
    return DEFAULT
