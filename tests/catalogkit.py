"""The catalogs' files as they are written, and the checks every catalog must pass."""

import re
from importlib.resources import files

from babel.messages.pofile import read_po

from buraco.i18n import LANGUAGES, messages
from buraco.refusals import placeholders

TERM = re.compile(r"\{@(\w+)\}")


def catalog(tag: str, domain: str = "messages") -> dict[str, tuple[str, str]]:
    """key -> (English, translation) as a catalog file holds them (an empty translation kept)."""
    locale = LANGUAGES[tag]
    name = f"{locale}.po" if locale else "messages.pot"
    parts = ("locales", name) if domain == "messages" else ("locales", domain, name)
    with files("buraco").joinpath(*parts).open("rb") as f:
        return {
            m.context: (str(m.id), str(m.string or ""))
            for m in read_po(f)
            if m.context and isinstance(m.id, str)
        }


def placeholders_of(text: str) -> set[str]:
    """A text's parameters, its terms (``{@pot}``) aside."""
    return {name for name in placeholders(text) if not name.startswith("@")}


def assert_translated(domain: str, least: int) -> None:
    """Every language of ``domain`` has the template's keys, each translated with the same
    parameters and only terms the shared catalog words."""
    template = catalog("en", domain)
    assert len(template) > least
    terms = messages("en")
    for tag in LANGUAGES:
        if tag == "en":
            continue
        translated = catalog(tag, domain)
        assert set(translated) == set(template), f"{tag}: keys differ from {domain}'s template"
        for key, (english, text) in translated.items():
            assert english == template[key][0], f"{tag} {key}: msgid is not the template's"
            assert text, f"{tag} has no translation of {key}"
            assert placeholders_of(text) == placeholders_of(english), f"{tag} {key}: {text!r}"
            for term in TERM.findall(text):
                assert f"term.{term}" in terms, f"{tag} {key}: no term.{term}"
