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

PLAY_KEYS: tuple[tuple[str, str], ...] = (
    ("← → Home End", "move along your hand"),
    ("Space / click", "select or unselect a card"),
    ("Esc", "unselect all (or leave the command line)"),
    ("d / click Stock", "draw from the stock"),
    ("t / click Pile", "take the discard pile"),
    ("u", "turn the first card up and draw again (first turn only)"),
    ("m", "meld the selected cards (you choose where a wild stands when it could go two ways)"),
    ("a / click a meld", "add the selected cards to one of your side's melds"),
    ("w", "move the wild of a run to its other end (us)"),
    ("x", "discard the selected card (or the one under the cursor)"),
    ("h", "hint: what the heuristic bot would do now"),
    (":", "type an action in the engine's notation (Enter plays it; Esc back to the hand)"),
    ("s", "skip: show the bots' moves at once until your turn"),
    ("+ / -", "bots play slower / faster"),
    ("n", "next hand (after closing the end-of-hand scores)"),
    ("r", "the scores of the hands so far"),
    ("Ctrl+S", "save the match now"),
    (
        "q",
        "quit (asks first: q again or y); the match is saved, `buraco play --resume FILE` goes on",
    ),
    ("PgUp / PgDn", "scroll the melds (or the mouse wheel)"),
    ("? / F1", "this help"),
)
"""The keys of ``buraco play``."""

NOTATION = (
    "Typed actions (after ':'): draw · take-pile · turn-up · meld 3H 4H JK 6H · add 2 7H · "
    "add 2 AH low|high · add 2 6H wild-low|wild-high · move 2 low|high · discard 9C. "
    "Cards are a rank (A 2-9 T J Q K, or 10) and a suit, its letter or its symbol (C or ♣, "
    "D or ♦, H or ♥, S or ♠); JK is a joker. A run is written low to high with the wild where "
    "it stands. Melds are numbered from 1 as the table shows them."
)


def keys_table(keys: Sequence[tuple[str, str]]) -> Table:
    """Keys and what they do."""
    table = Table(show_header=False, show_edge=False, pad_edge=False, box=None)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, what in keys:
        table.add_row(Text(key), Text(what))
    return table


def options_table(rules: Rules) -> Table:
    """Every rule option with its value and meaning."""
    table = Table(show_edge=False, pad_edge=False, box=None)
    table.add_column("option", style="bold")
    table.add_column("value")
    table.add_column("meaning")
    for name, value, meaning in describe(rules):
        table.add_row(literal(name), literal(value), literal(meaning))
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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,f1", "close", "close")]

    def __init__(self, rules: Rules, keys: Sequence[tuple[str, str]] = PLAY_KEYS) -> None:
        super().__init__()
        self.rules = rules
        self.keys = keys

    def compose(self) -> ComposeResult:
        """Keys, notation, the rules in words, and every option."""
        with VerticalScroll():
            yield Static(Text("Keys  (Esc closes this help)", style="bold underline"))
            yield Static(keys_table(self.keys), id="help-keys")
            yield Static(Text(NOTATION))
            yield Static(Text("Rules", style="bold underline"))
            yield Static(
                literal("\n".join(rules_summary(self.rules)), newlines=True), id="help-rules"
            )
            yield Static(Text("Every option", style="bold underline"))
            yield Static(options_table(self.rules))

    def on_mount(self) -> None:
        """Focus the scroller, so the arrows scroll."""
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
