"""Small dialogs: pick one of a few options, and confirm quitting.

The options are a meld, a wild's end, a run's shape; quitting is confirmed while a
match is in progress.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList

from buraco.tui.render import literal
from buraco.tui.words import t, word_bindings


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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "tui.key.cancel")]

    def __init__(self, question: str, options: Sequence[Text | str], highlight: int = 0) -> None:
        super().__init__()
        word_bindings(self)
        self.question = question
        self.options = [literal(o) if isinstance(o, str) else o for o in options]
        """The options as text: a plain string is shown as written, never read as markup."""
        self.highlight = highlight

    def compose(self) -> ComposeResult:
        """The question and the options."""
        with Vertical():
            yield Label(literal(self.question, style="bold"))
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


class QuitScreen(ModalScreen[bool]):
    """Quit a match in progress? True to save and quit, False to keep playing.

    ``q``, ``y`` or Enter on the first option save and quit; ``n``, Escape or the second
    option keep playing.
    """

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Vertical {
        width: 76; max-width: 100%; height: auto;
        border: round $warning; background: $surface; padding: 0 1;
    }
    QuitScreen Label { width: 100%; margin-bottom: 1; }
    QuitScreen OptionList { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,y", "answer(True)", "tui.key.save-quit"),
        Binding("n,escape", "answer(False)", "tui.key.keep-playing"),
    ]

    OPTIONS = ("tui.quit.save", "tui.quit.keep")
    """The keys of the two answers."""

    def __init__(self, question: str) -> None:
        super().__init__()
        word_bindings(self)
        self.question = question

    def compose(self) -> ComposeResult:
        """The question and the two answers."""
        with Vertical():
            yield Label(literal(self.question, style="bold"))
            yield OptionList(*(t(key) for key in self.OPTIONS), compact=True)

    def on_mount(self) -> None:
        """Focus the answers, saving and quitting highlighted."""
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """An answer chosen with Enter or a click."""
        event.stop()
        self.dismiss(event.option_index == 0)

    def action_answer(self, quit_game: bool) -> None:
        """Answer by key."""
        self.dismiss(quit_game)
