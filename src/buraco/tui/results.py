"""End of a hand (each side's score in parts) and end of the match (winner, hands)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from buraco.game import HandResult
from buraco.tui.render import literal
from buraco.tui.words import count, t, word_bindings, words


def _bonus_words(kind: object) -> str:
    return words().get(f"tui.bonus.{kind}", str(kind))


PARTS = ("melds", "bonuses", "hand", "pot", "going_out", "cut", "rounding")
"""The parts of a hand's score, in the order shown (each worded by ``score.<part>``)."""

ENDINGS = ("going-out", "stock", "blocked", "resigned")
"""How a hand may end (each worded by ``over.ended.<ending>``)."""


def ending_words(ended_by: str, went_out: str | None = None) -> str:
    """How a hand ended, in words; ``went_out`` names the side that went out."""
    if ended_by not in ENDINGS:
        return ended_by
    return t(f"over.ended.{ended_by}", names=went_out or "")


def breakdown_table(scores: Sequence[Mapping[str, Any]], sides: Sequence[str]) -> Table:
    """A hand's score per side: one column per side, one row per part, then the total.

    Every cell is text, so a side's name is shown as written, never read as markup.
    """
    table = Table(show_edge=False, pad_edge=False, expand=False)
    table.add_column("")
    for name in sides:
        table.add_column(literal(name), justify="right")
    for key in PARTS:
        values = [int(s[key]) for s in scores]
        if key in ("cut", "rounding") and not any(values):
            continue
        table.add_row(Text(t(f"score.{key}")), *(Text(str(v)) for v in values))
    kinds = [", ".join(_bonus_words(k) for k in s.get("canastras", [])) or "-" for s in scores]
    table.add_row(
        Text(t("tui.score.canastras"), style="dim"), *(literal(k, style="dim") for k in kinds)
    )
    table.add_section()
    table.add_row(
        Text(t("score.total"), style="bold"),
        *(Text(str(s["total"]), style="bold") for s in scores),
    )
    return table


def hands_table(results: Sequence[HandResult], sides: Sequence[str], sizes: Sequence[int]) -> Table:
    """Every hand of the match: how it ended, each side's score and the running totals.

    ``sides`` are the sides' names and ``sizes`` their numbers of players.

    Every cell is text, so a side's name is shown as written, never read as markup.
    """
    table = Table(show_edge=False, pad_edge=False)
    table.add_column(t("tui.hands.hand"), justify="right")
    table.add_column(t("tui.hands.ended"))
    for name in sides:
        table.add_column(literal(name), justify="right")
    for res in results:
        if res.went_out is not None:
            ended = count("tui.hands.out", sizes[res.went_out], names=sides[res.went_out])
        else:
            ended = ending_words(res.ended_by)
        table.add_row(
            Text(str(res.number + 1)),
            literal(ended),
            *(Text(f"{sc.total:+d} = {res.totals[sc.side]}") for sc in res.scores),
        )
    return table


class HandOverScreen(ModalScreen[str]):
    """The hand's score breakdown. Enter (or the button) goes on; q quits."""

    DEFAULT_CSS = """
    HandOverScreen { align: center middle; }
    HandOverScreen > Vertical {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    HandOverScreen VerticalScroll { height: auto; max-height: 16; }
    HandOverScreen Button { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n,space", "go_on", "tui.key.go-on"),
        Binding("q", "quit_game", "tui.key.quit"),
        Binding("escape", "look", "tui.key.look"),
    ]

    FOOT = "tui.over.foot"
    """The key of the keys line under the button, unless another line is given."""

    def __init__(
        self, title: str, table: Table, button: str | None = None, foot: str | None = None
    ) -> None:
        super().__init__()
        word_bindings(self)
        self.title_text = title
        self.table = table
        self.button = t("tui.button.next-hand") if button is None else button
        self.foot = t(self.FOOT) if foot is None else foot

    def compose(self) -> ComposeResult:
        """The title, the breakdown and the button."""
        with Vertical():
            yield Static(literal(self.title_text, "bold", newlines=True), id="hand-title")
            with VerticalScroll():
                yield Static(self.table, id="breakdown")
            yield Button(t("tui.button.enter", label=self.button), id="go-on", variant="primary")
            yield Static(Text(self.foot, style="dim"), id="foot")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The button goes on."""
        event.stop()
        self.dismiss("next")

    def action_go_on(self) -> None:
        """Go on to the next hand."""
        self.dismiss("next")

    def action_look(self) -> None:
        """Close, to look at the table (the next hand starts with ``n``)."""
        self.dismiss("look")

    def action_quit_game(self) -> None:
        """Quit the game (saving it)."""
        self.dismiss("quit")


class MatchOverScreen(HandOverScreen):
    """The winner and the table of hands; the only way on is to quit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,q", "quit_game", "tui.key.quit"),
        Binding("escape", "look", "tui.key.look"),
    ]

    FOOT = "tui.over.foot-match"

    def __init__(self, title: str, table: Table) -> None:
        super().__init__(title, table, button=t("tui.button.quit"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The button quits."""
        event.stop()
        self.dismiss("quit")

    def action_go_on(self) -> None:
        """Quit: the match is over."""
        self.dismiss("quit")
