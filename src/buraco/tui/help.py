"""The help screen: the keys, how to type actions, and the rules of the preset in play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from buraco.rules import Rules, describe
from buraco.tui.render import literal
from buraco.tui.rulestext import rules_summary
from buraco.tui.words import t, word_bindings, words

PLAY_KEYS: tuple[str, ...] = tuple(
    f"tui.help.play.{name}"
    for name in (
        "cursor",
        "select",
        "escape",
        "draw",
        "take",
        "turn-up",
        "meld",
        "add",
        "move-wild",
        "discard",
        "hint",
        "type",
        "skip",
        "pace",
        "next-hand",
        "scores",
        "save",
        "quit",
        "scroll",
        "help",
    )
)
"""The keys of ``buraco play``, as catalog keys: ``<key>`` says what it does, ``<key>.key``
names the keys."""


def keys_table(keys: Sequence[str]) -> Table:
    """Keys and what they do, from the catalog keys of :data:`PLAY_KEYS`'s kind."""
    table = Table(show_header=False, show_edge=False, pad_edge=False, box=None)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key in keys:
        table.add_row(Text(t(f"{key}.key")), Text(t(key)))
    return table


def options_table(rules: Rules) -> Table:
    """Every rule option with its value and meaning."""
    table = Table(show_edge=False, pad_edge=False, box=None)
    table.add_column(t("tui.help.option"), style="bold")
    table.add_column(t("tui.help.value"))
    table.add_column(t("tui.help.meaning"))
    known = words().lookup
    for name, value, meaning in describe(rules):
        if name == "players":  # not a rule option of the page's: the terminal words it
            label = f"{name}: " + t("tui.help.players")
            meaning = t("tui.help.players.help")
        else:
            label = f"{name}: {t(f'option.{name}')}" if known(f"option.{name}") else name
            meaning = words().get(f"option.{name}.help", meaning)
        shown = {"True": t("tui.value.true"), "False": t("tui.value.false")}.get(value, value)
        table.add_row(literal(label), literal(shown), literal(meaning))
    return table


class HelpScreen(ModalScreen[None]):
    """Keys, notation and rules; Escape, q or ? closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100%; height: 100%; border: round $accent; background: $surface; padding: 0 1;
    }
    HelpScreen Static { margin-bottom: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "tui.key.close")
    ]

    def __init__(self, rules: Rules, keys: Sequence[str] = PLAY_KEYS) -> None:
        super().__init__()
        word_bindings(self)
        self.rules = rules
        self.keys = keys

    def compose(self) -> ComposeResult:
        """Keys, notation, the rules in words, and every option."""
        with VerticalScroll():
            yield Static(Text(t("tui.help.keys"), style="bold underline"))
            yield Static(keys_table(self.keys), id="help-keys")
            yield Static(Text(t("tui.help.notation")))
            yield Static(Text(t("tui.help.rules"), style="bold underline"))
            yield Static(
                literal("\n".join(rules_summary(self.rules)), newlines=True), id="help-rules"
            )
            yield Static(Text(t("tui.help.options"), style="bold underline"))
            yield Static(options_table(self.rules))

    def on_mount(self) -> None:
        """Focus the scroller, so the arrows scroll."""
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
