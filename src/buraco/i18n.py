"""The game's words in each language: gettext catalogs read with Babel, and who gets which.

The catalogs are in ``buraco/locales``: ``messages.pot`` (English, the template) and one
``.po`` file per other language (``pt_BR.po``, ``es.po``, ``it.po``) hold the words the web
page and the terminal share (the game's terms, cards, actions, the rules in words, the
engine's refusals) and the page's own; ``locales/terminal`` holds the terminal game's own
words in the same four files. Each message's ``msgctxt`` is its key (``"action.draw"``),
its ``msgid`` the English text and its ``msgstr`` the translation. In a text, ``{name}``
is a parameter and ``{@name}`` a term of the game worded per preset: ``term.pot`` is
"morto", ``term.pot@italiano`` "pozzetto". A key may have a preset's own text the same way
(``key@italiano``).

>>> words = Words("it", preset="italiano")
>>> words("rules.pot", n=100)
'Il pozzetto si prende quando la mano si svuota; la coppia che non lo prende perde 100.'
>>> Words("pt-BR").count("cards.count", 1), Words("pt-BR").count("cards.count", 0)
('1 carta', '0 carta')
>>> negotiate(None, None, "it-IT,it;q=0.9,en;q=0.5"), negotiate(None, None, "pt")
('it', 'pt-BR')
>>> from_environment({"LANG": "es_AR.UTF-8"}), from_environment({"LANG": "C.UTF-8"})
('es', 'en')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from importlib.resources import files

from babel import Locale, negotiate_locale
from babel.messages.pofile import read_po

from buraco.refusals import Refusal

LANGUAGES: dict[str, str] = {"en": "", "pt-BR": "pt_BR", "es": "es", "it": "it"}
"""The languages offered, as BCP 47 tags, each with its catalog's locale (English: the template)."""

DEFAULT = "en"
"""The language of whoever asks for none of :data:`LANGUAGES`."""

DOMAINS = ("messages", "terminal")
"""The catalogs: the shared and the page's words (``messages``), the terminal's own."""

_ALIASES = {"pt": "pt_BR", "pt_PT": "pt_BR"}
"""Locales asked for that another catalog serves (Portuguese of Portugal reads Brazil's)."""

_FIELD = re.compile(r"\{(@?)(\w+)\}")


def _catalog_path(tag: str, domain: str) -> str:
    locale = LANGUAGES[tag]
    name = f"{locale}.po" if locale else "messages.pot"
    return name if domain == "messages" else f"{domain}/{name}"


@cache
def messages(tag: str, domain: str = "messages") -> dict[str, str]:
    """Every key's text in a language (one of :data:`LANGUAGES`) from one catalog.

    A message not yet translated reads as its English text.
    """
    if tag not in LANGUAGES:
        raise ValueError(f"unknown language {tag!r}; the languages are {', '.join(LANGUAGES)}")
    if domain not in DOMAINS:
        raise ValueError(f"unknown catalog {domain!r}; the catalogs are {', '.join(DOMAINS)}")
    path = files("buraco").joinpath("locales", *_catalog_path(tag, domain).split("/"))
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
    """The languages offered, each named in itself (for a menu)."""
    out = []
    for tag, locale in LANGUAGES.items():
        name = Locale.parse(locale or "en").get_display_name(locale or "en") or tag
        out.append({"tag": tag, "name": name[:1].upper() + name[1:]})
    return out


def language_of(value: str | None) -> str | None:
    """A language asked for by name (``pt-BR``, ``pt_br``, ``it``), if it is offered."""
    if not value or len(value) > 20:
        return None
    wanted = value.strip().replace("_", "-").lower()
    for tag in LANGUAGES:
        if tag.lower() == wanted:
            return tag
    return None


def best_match(asked: list[str]) -> str | None:
    """The offered language closest to locales asked for in order (``pt_BR``, ``es_AR``).

    A locale not offered as it is falls back to its language (``es_AR`` reads ``es``).
    """
    asked = [_ALIASES.get(name, name) for name in asked if name and name != "*"]
    available = [locale or "en" for locale in LANGUAGES.values()]
    found = negotiate_locale(asked, available, sep="_")
    if found is None:
        bare = [_ALIASES.get(a.split("_")[0], a.split("_")[0]) for a in asked]
        found = negotiate_locale(bare, available, sep="_")
    for tag, locale in LANGUAGES.items():
        if found is not None and (locale or "en") == found:
            return tag
    return None


def negotiate(query: str | None, cookie: str | None, accept: str | None) -> str:
    """A web request's language.

    ``query`` (``?lang=``), else ``cookie``, else the best match of its ``Accept-Language``
    header, else :data:`DEFAULT`.
    """
    for value in (query, cookie):
        tag = language_of(value)
        if tag is not None:
            return tag
    if accept:
        asked = [part.split(";")[0].strip().replace("-", "_") for part in accept[:500].split(",")]
        return best_match(asked) or DEFAULT
    return DEFAULT


def from_environment(environ: Mapping[str, str]) -> str:
    """The language a terminal's locale asks for, as gettext reads it.

    ``LANGUAGE`` (a list, ``pt_BR:es``) first, then ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``
    (``pt_BR.UTF-8``); the ``C`` and ``POSIX`` locales, or none offered: :data:`DEFAULT`.
    """
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")[:200]
        asked = [v.split(".")[0].split("@")[0] for v in value.split(":") if v]
        asked = [a for a in asked if a not in ("C", "POSIX")]
        if asked:
            return best_match(asked) or DEFAULT
    return DEFAULT


class Words:
    """The words of one language, for one preset's terms (``morto`` or ``pozzetto``).

    Called with a key and parameters it gives the text (:meth:`__call__`); it also words
    counts (:meth:`count`), actions (:meth:`action`) and the engine's refusals
    (:meth:`refusal`). ``domains`` are the catalogs read, the later ones over the earlier;
    ``card`` shows a card's code (``"KH"``) as the front end draws it.
    """

    def __init__(
        self,
        tag: str = DEFAULT,
        preset: str | None = None,
        domains: tuple[str, ...] = ("messages",),
        card: Callable[[str], str] | None = None,
    ) -> None:
        self.tag = tag
        self.preset = preset
        self.texts: dict[str, str] = {}
        for domain in domains:
            self.texts.update(messages(tag, domain))
        self.card = card or self.card_text
        self._plural = Locale.parse(LANGUAGES[tag] or "en").plural_form

    def lookup(self, key: str) -> str | None:
        """A key's text as the catalog holds it (the preset's own first), or None."""
        if self.preset is not None:
            own = self.texts.get(f"{key}@{self.preset}")
            if own is not None:
                return own
        return self.texts.get(key)

    def __call__(self, key: str, **params: object) -> str:
        """The text of ``key`` with its parameters and terms filled in.

        A key the catalogs lack is a mistake of the program: :class:`KeyError` (a test
        keeps every key the front ends ask for in every catalog).
        """
        text = self.lookup(key)
        if text is None:
            raise KeyError(f"no text for {key!r} in the {self.tag} catalogs")

        def fill(match: re.Match[str]) -> str:
            if match.group(1):
                return self(f"term.{match.group(2)}")
            name = match.group(2)
            return str(params[name]) if name in params else match.group()

        return _FIELD.sub(fill, text)

    def get(self, key: str, default: str, **params: object) -> str:
        """The text of ``key`` with its parameters, or ``default`` when the catalogs lack it.

        For keys built from a value the catalogs may not word (an option, a code).
        """
        return self(key, **params) if self.lookup(key) is not None else default

    def preset_name(self, name: str) -> str:
        """A preset's name in this language (``buraco aberto (Brasil)``), else its identifier."""
        return self.get(f"preset.{name}", name)

    def count(self, key: str, n: int, **params: object) -> str:
        """A text that depends on a count, with ``{n}`` the count.

        The key's plural form for the language (``key.one``, ``key.other``, ...).
        """
        form = f"{key}.{self._plural(abs(n))}"
        return self(form if self.lookup(form) is not None else f"{key}.other", n=n, **params)

    def card_text(self, code: str) -> str:
        """A card's short text in this language (``10♦``, ``K♠``, the joker's name)."""
        if code == "JK":
            return self("card.joker")
        return self(f"card.rank.{code[0]}.short") + self(f"card.suit.{code[1]}.symbol")

    def action(self, text: str) -> str:
        """An action of the notation in words (``add 1 JK low``: joker on meld 1, low end)."""
        p = text.split(" ")
        if p[0] in ("draw", "take-pile", "turn-up") and len(p) == 1:
            return self(f"action.{p[0]}")
        if p[0] == "discard" and len(p) == 2:
            return self("action.discard", card=self.card(p[1]))
        if p[0] == "meld" and len(p) > 1:
            return self("action.meld", cards=" ".join(self.card(c) for c in p[1:]))
        if p[0] == "add" and len(p) in (3, 4):
            key = f"action.add.{p[3]}" if len(p) == 4 else "action.add"
            return self(key, meld=p[1], card=self.card(p[2]))
        if p[0] == "move" and len(p) == 3:
            return self(f"action.move.{p[2]}", meld=p[1])
        return text

    def refusal(self, refusal: Refusal) -> str:
        """An engine's refusal (a code and parameters) worded in this language."""
        shown: dict[str, object] = {}
        for name, value in refusal.params.items():
            shown[name] = self._param(name, value)
        return self.get(f"refusal.{refusal.code}", refusal.message, **shown)

    def _param(self, name: str, value: object) -> object:
        if isinstance(value, list):
            items = [str(v) for v in value]
            if name in ("cards", "meld_cards"):
                return " ".join(self.card(c) for c in items)
            if name == "choices":
                return " · ".join(self.action(c) for c in items)
            if name == "allowed":
                return " ".join(self(f"card.rank.{r}.short") for r in "".join(items))
            if name == "presets":
                return ", ".join(self.preset_name(p) for p in items)
            return (" / " if name == "counts" else ", ").join(items)
        if name in ("card", "top"):
            return self.card(str(value))
        if name in ("place", "end"):
            return self(f"end.{value}")
        if name == "rank":
            return self(f"card.rank.{value}.short")
        if name == "allowed":
            return " ".join(self(f"card.rank.{r}.short") for r in str(value))
        if name == "option":
            known = self.lookup(f"option.{value}") is not None
            return f"“{self(f'option.{value}')}”" if known else value
        if name == "preset":
            return self.preset_name(str(value))
        return value
