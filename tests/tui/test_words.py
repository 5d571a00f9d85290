"""The terminal in four languages: complete catalogs, worded boards, the choice of language."""

import re
from importlib.resources import files
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets import Footer, Static

from buraco import make_rules
from buraco.cards import parse_cards
from buraco.cli import app as cli
from buraco.cli.play import make_app
from buraco.i18n import LANGUAGES, Words, from_environment, messages
from buraco.rules import PRESETS
from buraco.tui import app as app_module
from buraco.tui import board, choice, hand, results, watch, words
from buraco.tui import help as help_module
from buraco.tui.app import PlayApp
from buraco.tui.controller import Controller
from buraco.tui.help import HelpScreen
from catalogkit import assert_translated, catalog
from clikit import CliRunner
from tui.driver import footer_keys, screen_showing, screen_text, settle, stacked

TUI = Path(str(files("buraco.tui")))
LITERAL_KEY = re.compile(
    r'"((?:tui|score|over|table|side|meld|action|refusal|term|card|cards|'
    r'hand|rules|preset|option)\.[a-z0-9@.-]+)"'
)


def source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(TUI.glob("*.py")))


def test_every_language_translates_every_terminal_key_with_the_same_parameters() -> None:
    assert_translated("terminal", 200)


def test_every_key_the_terminal_asks_for_is_in_every_language() -> None:
    asked = set(LITERAL_KEY.findall(source()))
    assert len(asked) > 120  # the pattern still finds them
    # the keys built from values
    asked |= {f"tui.phase.{p}" for p in ("draw", "play", "top-meld", "over")}
    asked |= {
        f"tui.bonus.{b}"
        for b in ("clean", "dirty", "semi-clean", "clean-13", "clean-14", "twos", "clean-8-set")
    }
    asked |= {
        f"score.{p}" for p in ("melds", "bonuses", "hand", "pot", "going_out", "cut", "rounding")
    }
    asked |= {f"over.ended.{e}" for e in ("going-out", "stock", "blocked", "resigned")}
    asked |= {f"preset.{p}" for p in PRESETS}
    asked |= {
        f"tui.note.{n}"
        for n in (
            "pot-to-stock",
            "turned-up",
            "opening-short",
            "opening-short-raised",
            "pot-taken.discard",
            "pot-taken.meld",
            "went-out",
            "pile-streak",
        )
    }
    asked |= {f"rules.runs.{a}" for a in ("both", "low", "high")}
    asked |= {
        f"tui.rules.{k}" for k in ("semi-clean", "clean-13", "clean-14", "twos", "clean-8-set")
    }
    for tag in LANGUAGES:
        for preset in (None, *PRESETS):
            w = Words(tag, preset, ("messages", "terminal"))
            missing = {k for k in asked if w.lookup(k) is None and w.lookup(f"{k}.other") is None}
            assert missing == set(), (tag, preset)


def test_every_terminal_key_is_used() -> None:
    text = source()
    families = (
        "tui.phase.",
        "tui.bonus.",
        "tui.note.",
        "tui.rules.",
        "tui.help.play.",
        "tui.help.watch.",
        "tui.goal.hands.",
        "tui.hand.selected.",
        "tui.key.",
    )
    for key in catalog("en", "terminal"):
        bare = key.split("@")[0]
        if bare.endswith((".one", ".other")):  # asked for by count(), without the form
            bare = bare.rsplit(".", 1)[0]
        if bare.startswith(families):
            family = bare.rsplit(".", 1)[0] if bare.count(".") > 2 else bare
            assert family.split(".")[1] in text or f'"{bare}"' in text, key
            continue
        assert f'"{bare}"' in text, f"{key} is never asked for"


def test_every_key_binding_of_the_terminal_is_named_from_the_catalog() -> None:
    template = catalog("en", "terminal")
    found = 0
    for module in (app_module, board, choice, hand, help_module, results, watch):
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                for binding in value.__dict__.get("BINDINGS", []):  # its own, not Textual's
                    assert isinstance(binding, Binding)
                    assert binding.description in template, (value, binding)
                    found += 1
    assert found > 40


def test_italiano_has_its_own_terms_in_every_language() -> None:
    for tag in LANGUAGES:
        aberto = Words(tag, "aberto", ("messages", "terminal"))
        italiano = Words(tag, "italiano", ("messages", "terminal"))
        terms = messages(tag)
        assert terms["term.pots"] in aberto("tui.status.pots", sizes="11")
        assert terms["term.pots@italiano"] in italiano("tui.status.pots", sizes="11")
        assert "pozzett" in italiano("tui.status.pots", sizes="11")


@pytest.mark.parametrize(
    ("environ", "tag"),
    [
        ({"LANG": "pt_BR.UTF-8"}, "pt-BR"),
        ({"LANG": "pt_PT.UTF-8"}, "pt-BR"),
        ({"LC_ALL": "es_UY.UTF-8", "LANG": "en_US.UTF-8"}, "es"),
        ({"LANGUAGE": "it:en", "LANG": "pt_BR.UTF-8"}, "it"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "POSIX", "LANG": "es_AR.UTF-8"}, "es"),
        ({}, "en"),
    ],
)
def test_the_terminal_speaks_as_its_locale_asks(environ: dict[str, str], tag: str) -> None:
    assert from_environment(environ) == tag


def test_a_language_not_offered_is_refused_in_one_line() -> None:
    result = CliRunner().invoke(cli, ["play", "--lang", "klingon"])
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    assert "--lang 'klingon': not a language offered; give one of en, pt-BR, es, it" in out
    assert "Traceback" not in result.output
    result = CliRunner().invoke(cli, ["replay", "x.json", "--lang", "it"])
    assert result.exit_code == 2 and "--lang is for --watch" in result.output


def test_the_locale_chooses_the_boards_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "es_AR.UTF-8")
    app = make_app(seed=3, save=tmp_path / "m.json")
    assert words.words().tag == "es" and app.controller.names[0] == "Vos"
    app = make_app(seed=3, save=tmp_path / "m.json", lang="pt-br")
    assert words.words().tag == "pt-BR" and app.controller.names[0] == "Você"


async def test_a_game_in_portuguese_is_worded_in_portuguese(tmp_path: Path) -> None:
    words.use("pt-BR")
    rules = make_rules("aberto", players=2)
    c = Controller.new(rules, ["greedy"], seed=2, save_path=tmp_path / "m.json")
    app = PlayApp(c, pace=0, lang="pt-BR")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        shown = (
            "Sua mão",
            "Mortos restantes",
            "Monte",
            "Lixo",
            "Comprar",
            "Sair",
            "sua vez: d comprar",
        )
        text = await screen_showing(pilot, app, shown)
        for said in shown:
            assert said in text, said
        assert c.human_to_move
        await pilot.press("x")  # a discard before drawing: the engine's refusal, in Portuguese
        assert app.message.startswith("recusado: "), app.message
        assert app.message == "recusado: " + messages("pt-BR")["refusal.phase.draw-first"]
        # typed text that is no action: the notation's refusal, in Portuguese too
        await pilot.press("colon", *"discard 1C", "enter")
        said = messages("pt-BR")["refusal.notation.card"].format(given="'1C'")
        assert said.startswith("carta desconhecida '1C': uma carta é um valor")
        assert " ".join(app.message.split()) == "recusado: " + said
        await pilot.press("colon", *"dance", "enter")
        assert app.message.startswith("recusado: jogada desconhecida 'dance'; as jogadas são: draw")
        await pilot.press("escape")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = screen_text(app)
        assert "Teclas" in help_text and "comprar do monte" in help_text
        summary = str(app.screen.query_one("#help-rules", Static).render())
        assert messages("pt-BR")["rules.pile-open"] in summary, summary


async def test_a_game_of_italiano_in_italian_says_pozzetto_and_burraco(tmp_path: Path) -> None:
    c = stacked(tmp_path, "italiano", 2, hands=["5H 6H 7H 8H 9H TH JH 3C 4D 8S QS"])
    app = PlayApp(c, pace=0, lang="it")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        shown = ("Le tue carte", "Pozzetti rimasti", "Tallone", "Scarti", "Pesca", "Esci")
        text = await screen_showing(pilot, app, shown)
        for said in shown:
            assert said in text, said
        assert "morto" not in text.lower()
        footer = app.query_one(Footer)
        assert footer.region.height == 1
        await pilot.press("d")
        await settle(pilot, app)
        assert c.play("meld 5H 6H 7H 8H 9H TH JH").ok  # seven in a run: a burraco
        app.refresh_all()
        await pilot.pause()
        assert "BURRACO pulito" in screen_text(app)


def test_refusals_and_actions_are_worded_with_the_boards_cards(tmp_path: Path) -> None:
    words.use("es")
    assert words.action("discard 9C") == "descartar 9♣"
    low = messages("es")["action.add.low"]
    assert words.action("add 1 JK low") == low.format(card="JK", meld="1")
    assert words.count("cards.count", 1) == "1 carta"
    assert words.count("cards.count", 3) == "3 cartas"
    c = stacked(tmp_path, hands=["5H 6H 7H 8H 9H 3C 4C JK KS QD 9D"])
    c.play("draw")
    said = c.meld_refusal(parse_cards("5S 6S 7S"))
    assert said == messages("es")["refusal.not-held.meld"].format(cards="5♠ 6♠ 7♠")


@pytest.mark.parametrize("tag", list(LANGUAGES))
async def test_the_keys_at_the_bottom_fit_an_80_column_terminal(tmp_path: Path, tag: str) -> None:
    words.use(tag)
    c = Controller.new(make_rules("aberto", players=4), ["greedy"], 5, tmp_path / "m.json")
    app = PlayApp(c, pace=0, lang=tag)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        keys = list((await footer_keys(pilot, app)).values())
        assert len(keys) == 9  # draw, take, meld, add, discard, hint, skip, help, quit
        assert max(k.region.right for k in keys) <= 80
