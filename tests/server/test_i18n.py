"""The page's languages: complete catalogs, the engine's refusals worded, the choice of language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from buraco.notes import NOTES
from buraco.refusals import ENGLISH, placeholders
from buraco.rules import OPTION_TOPICS, PRESETS, option_choices
from buraco.server import i18n
from buraco.server.app import create_app
from buraco.server.errors import MESSAGES, NOTICES
from buraco.server.settings import Settings
from buraco.tournament.event import MOVEMENTS
from catalogkit import assert_translated, placeholders_of

WEB = Path(str(files("buraco.server").joinpath("web")))
KEY = re.compile(r'"([a-z]+(?:\.[a-z0-9@-]+)+)"')
PLURAL = re.compile(r'\btn\(\s*"([a-z0-9.-]+)"')


def page_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(WEB.glob("*.js")))


def test_every_language_translates_every_key_with_the_same_parameters() -> None:
    assert_translated("messages", 300)


def test_every_key_the_page_asks_for_is_in_the_catalog() -> None:
    words = i18n.messages("en")
    namespaces = {key.split(".")[0] for key in words}
    asked = {k for k in KEY.findall(page_source()) if k.split(".")[0] in namespaces}
    assert len(asked) > 150  # the pattern still finds them
    plural = set(PLURAL.findall(page_source()))
    missing = {k for k in asked - plural if k not in words}
    assert missing == set()
    for key in plural:
        assert {f"{key}.one", f"{key}.other"} <= set(words), key
    # the keys the page builds from values
    built = [f"preset.{p}" for p in PRESETS]
    built += [f"card.rank.{r}" for r in "A23456789TJQK"] + [
        f"card.rank.{r}.short" for r in "A23456789TJQK"
    ]
    built += [f"card.suit.{s}" for s in "CDHS"] + [f"card.suit.{s}.symbol" for s in "CDHS"]
    built += [f"create.seat-kind.{k}" for k in ("me", "bot", "open", "invite")]
    built += [
        f"score.{k}"
        for k in ("melds", "bonuses", "hand", "pot", "going_out", "cut", "rounding", "total")
    ]
    built += [f"end.{e}" for e in ("low", "high", "wild-low", "wild-high")]
    built += [f"action.add.{e}" for e in ("low", "high", "wild-low", "wild-high")]
    built += [f"action.move.{e}" for e in ("low", "high")]
    # a note of its own (turned-up goes with its action, worded by feed.turn-up)
    built += [f"feed.note.{code}" for code in NOTES if code != "turned-up"]
    built += [f"over.ended.{how}" for how in ("going-out", "stock", "blocked", "resigned")]
    built += [f"option.{name}" for name in OPTION_TOPICS]
    built += [f"option.{name}.help" for name in OPTION_TOPICS]
    choices = {name: option_choices(name) or () for name in OPTION_TOPICS}
    built += [f"option.{name}.value.{v}" for name, values in choices.items() for v in values]
    built += [f"rules.runs.{aces}" for aces in ("both", "low", "high")]
    built += [f"topic.{topic}" for topic in set(OPTION_TOPICS.values())]
    built += [f"tour.status.{status}" for status in ("open", "playing", "over")]
    built += [f"tour.movement.{movement}" for movement in MOVEMENTS]
    assert [k for k in built if k not in words] == []


def test_every_refusal_of_the_engine_is_worded_and_english_says_what_the_engine_says() -> None:
    words = i18n.messages("en")
    for code, english in ENGLISH.items():
        text = words[f"refusal.{code}"]
        assert placeholders_of(text) == placeholders(english), code
        # the English page words a refusal as the engine does (its terms as in aberto)
        shown = text.replace("{@pot}", words["term.pot"]).replace(
            "{@canastra}", words["term.canastra"]
        )
        assert shown == english, code
    assert not {k for k in words if k.startswith("refusal.")} - {f"refusal.{c}" for c in ENGLISH}


def test_every_refusal_of_the_server_is_worded_with_its_own_parameters() -> None:
    # a REST error or an error frame carries key and params (buraco.server.errors); the page
    # words error.<key> and may leave a parameter out, never ask for one the server lacks
    words = i18n.messages("en")
    assert len(MESSAGES) > 40
    for key, english in MESSAGES.items():
        text = words[f"error.{key}"]
        assert placeholders_of(text) <= placeholders(english), key
    known = {f"error.{k}" for k in MESSAGES}
    assert not {k for k in words if k.startswith("error.")} - known


def test_every_notice_of_the_server_is_worded_with_its_own_parameters() -> None:
    # a table's summary may carry a notice (its unrated: key and params); the page words
    # notice.<key>, with no parameter the server does not send
    words = i18n.messages("en")
    assert NOTICES
    for key, english in NOTICES.items():
        text = words[f"notice.{key}"]
        assert placeholders_of(text) <= placeholders(english), key
        assert text.rstrip(".").lower() == english.lower(), key


def test_a_refused_request_is_worded_from_its_key_and_params(client: TestClient) -> None:
    client.post("/api/guests", json={"name": "Ana"})
    made = client.post(
        "/api/tables",
        json={
            "preset": "italiano",
            "players": 6,
            "seats": [{"kind": "me"}] + [{"kind": "open"}] * 5,
        },
    )
    error = made.json()["error"]
    assert (made.status_code, error["code"], error["field"]) == (400, "rules", "players")
    assert error["refusal"] == {
        "code": "preset.players",
        "params": {"preset": "italiano", "counts": ["2", "3", "4"], "players": 6},
    }
    long = client.post("/api/guests", json={"name": "x" * 99})
    assert long.json()["error"]["key"] == "name.printable"
    assert long.json()["error"]["params"] == {"most": 40}
    assert "{most}" in i18n.messages("it")["error.name.printable"]


def test_italiano_has_its_own_terms_in_every_language() -> None:
    # the pot is a pozzetto and a canastra a burraco in italiano, whatever the language
    for tag in i18n.LANGUAGES:
        words = i18n.messages(tag)
        assert words["term.pot@italiano"] == "pozzetto"
        assert words["term.canastra@italiano"] == "burraco"
    assert i18n.messages("pt-BR")["term.pot"] == "morto"
    assert i18n.messages("es")["term.pot"] == "muerto"


@pytest.mark.parametrize(
    ("query", "cookie", "accept", "chosen"),
    [
        (None, None, None, "en"),
        (None, None, "pt-BR,pt;q=0.9,en;q=0.8", "pt-BR"),
        (None, None, "pt-PT", "pt-BR"),
        (None, None, "es-AR,es;q=0.9", "es"),
        (None, None, "es-UY", "es"),
        (None, None, "it-IT", "it"),
        (None, None, "fr-FR,de;q=0.8", "en"),
        (None, None, "fr-FR,it;q=0.5", "it"),
        (None, "es", "it-IT", "es"),
        ("it", "es", "pt-BR", "it"),
        ("xx", "zz", "es", "es"),  # unknown choices are ignored
        ("x" * 100, None, "de," * 1000, "en"),
    ],
)
def test_a_request_gets_the_language_it_asks_for(
    query: str | None, cookie: str | None, accept: str | None, chosen: str
) -> None:
    assert i18n.negotiate(query, cookie, accept) == chosen


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path, bot_workers=0))) as c:
        yield c


def test_the_catalog_endpoint_and_the_page_follow_the_browser(client: TestClient) -> None:
    r = client.get("/api/i18n", headers={"accept-language": "it-IT,it;q=0.9"})
    assert r.status_code == 200
    body = r.json()
    assert body["language"] == "it" and body["messages"]["act.draw"] == "Pesca"
    assert [x["tag"] for x in body["languages"]] == ["en", "pt-BR", "es", "it"]
    assert {x["name"] for x in body["languages"]} >= {"Português (Brasil)", "Italiano"}
    assert client.get("/api/i18n?lang=es").json()["messages"]["act.take"] == "Tomar el pozo"
    client.cookies.set("lang", "pt-BR")
    page = client.get("/", headers={"accept-language": "it"}).text
    assert '<html lang="pt-BR">' in page and "Carregando…" in page and "__" not in page
    assert client.get("/api/i18n?lang=" + "a" * 21).status_code == 422
