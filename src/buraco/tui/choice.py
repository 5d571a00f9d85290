"""A small dialog to pick one of a few options (a meld, a wild's end, a run's shape)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList


class ChoiceScreen(ModalScreen[int | None]):
    """Pick an option with the arrows and Enter, or a click; Escape cancels (None)."""

    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical {
        width: 76; max-width: 100%; height: auto; max-height: 20;
        border: round $accent; background: $surface; padding: 0 1;
    }
    ChoiceScreen Label { width: 100%; margin-bottom: 1; }
    ChoiceScreen OptionList { height: auto; max-height: 14; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, question: str, options: Sequence[Text | str], highlight: int = 0) -> None:
        super().__init__()
        self.question = question
        self.options = list(options)
        self.highlight = highlight

    def compose(self) -> ComposeResult:
        """The question and the options."""
        with Vertical():
            yield Label(Text(self.question, style="bold"))
            yield OptionList(*self.options, compact=True)

    def on_mount(self) -> None:
        """Focus the list with the suggested option highlighted."""
        options = self.query_one(OptionList)
        options.highlighted = self.highlight
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """The chosen option's index."""
        event.stop()
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        """Choose nothing."""
        self.dismiss(None)
