"""The human's hand: sorted by suit and rank with the wild cards apart.

It has a cursor and a selection made with the keyboard (arrows, space) or the
mouse (click a card).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from buraco.cards import Card, is_wild_capable
from buraco.text import safe
from buraco.tui import words
from buraco.tui.render import Flow, card_text
from buraco.tui.words import t, word_bindings

CARD_CELLS = 3
"""Cells a card takes (``10♥``); cards are a space apart, the wild cards two."""


class HandView(Widget, can_focus=True):
    """The cards of one hand with a cursor and a selection."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; max-height: 6; padding: 0 1; }
    HandView:focus { background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "tui.key.left", show=False),
        Binding("right", "cursor(1)", "tui.key.right", show=False),
        Binding("home", "cursor_to(0)", "tui.key.first", show=False),
        Binding("end", "cursor_to(-1)", "tui.key.last", show=False),
        Binding("space", "select", "tui.key.select", show=False),
        Binding("escape", "clear", "tui.key.clear", show=False),
    ]

    class Changed(Message):
        """The selection or the cursor changed."""

    def __init__(self, title: str | None = None, id: str | None = None) -> None:
        super().__init__(id=id)
        word_bindings(self)
        self.title = t("tui.hand.mine") if title is None else title
        self.cards: tuple[Card, ...] = ()
        self.selected: set[int] = set()
        self.cursor = 0
        self.note = ""
        """Shown after the title (a hidden morto, ...)."""

    # ----- state -----------------------------------------------------------------------
    def set_cards(self, cards: Sequence[Card], note: str = "") -> None:
        """Show a new hand, keeping as much of the selection as is still held."""
        cards = tuple(cards)
        self.note = note
        if cards != self.cards:
            keep = Counter(self.cards[i] for i in self.selected)
            self.selected = set()
            for i, c in enumerate(cards):
                if keep[c] > 0:
                    keep[c] -= 1
                    self.selected.add(i)
            self.cards = cards
            self.cursor = min(self.cursor, max(len(cards) - 1, 0))
        self.refresh(layout=True)

    def selected_cards(self) -> list[Card]:
        """The selected cards, in hand order."""
        return [self.cards[i] for i in sorted(self.selected)]

    def cursor_card(self) -> Card | None:
        """The card under the cursor."""
        return self.cards[self.cursor] if self.cards else None

    def select_cards(self, cards: Sequence[Card]) -> None:
        """Select exactly these cards (by value)."""
        want = Counter(cards)
        self.selected = set()
        for i, c in enumerate(self.cards):
            if want[c] > 0:
                want[c] -= 1
                self.selected.add(i)
        self._changed()

    def clear_selection(self) -> None:
        """Select nothing."""
        self.selected = set()
        self._changed()

    def toggle(self, index: int) -> None:
        """Select or unselect the card at ``index`` and put the cursor on it."""
        if not 0 <= index < len(self.cards):
            return
        self.cursor = index
        self.selected ^= {index}
        self._changed()

    def _changed(self) -> None:
        self.refresh()
        self.post_message(self.Changed())

    # ----- actions ---------------------------------------------------------------------
    def action_cursor(self, step: int) -> None:
        """Move the cursor."""
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self._changed()

    def action_cursor_to(self, index: int) -> None:
        """Put the cursor on the first (0) or last (-1) card."""
        if self.cards:
            self.cursor = index % len(self.cards)
            self._changed()

    def action_select(self) -> None:
        """Select or unselect the card under the cursor."""
        self.toggle(self.cursor)

    def action_clear(self) -> None:
        """Unselect every card."""
        self.clear_selection()

    def on_click(self, event: events.Click) -> None:
        """A click on a card selects or unselects it."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.lay_out(self.content_size.width).key_at(offset.x, offset.y)
        if index is not None:
            self.toggle(index)

    # ----- drawing -----------------------------------------------------------------------
    def lay_out(self, width: int) -> Flow:
        """The hand laid out at ``width`` cells: a title line, then the cards."""
        flow = Flow(width)
        count = len(self.cards)
        picked = len(self.selected)
        title = Text.assemble(
            (safe(self.title), "bold"),
            " · " + words.count("cards.count", count),
            " · " + words.count("tui.hand.selected", picked) if picked else "",
            f" · {safe(self.note)}" if self.note else "",
        )
        flow.newline(title)
        flow.newline()
        focused = self.has_focus
        for i, c in enumerate(self.cards):
            text = card_text(c, CARD_CELLS)
            if i in self.selected:
                text.stylize("reverse")
            if i == self.cursor and focused:
                text.stylize("underline")
            gap = 1
            if i and is_wild_capable(c) and not is_wild_capable(self.cards[i - 1]):
                gap = 3
            flow.item(text, i, gap=gap)
        return flow

    def card_offset(self, index: int) -> tuple[int, int]:
        """Where card ``index`` is drawn, relative to the widget (for clicks in tests)."""
        spot = self.lay_out(self.content_size.width).spot_of(index)
        if spot is None:
            raise IndexError(index)
        left, top = self.styles.padding.left, self.styles.padding.top
        return (left + spot.x0 + 1, top + spot.line)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the layout needs."""
        return len(self.lay_out(width).lines)

    def render(self) -> Text:
        """The title and the cards."""
        return self.lay_out(self.content_size.width).text()

    def on_focus(self) -> None:
        """Show the cursor."""
        self.refresh()

    def on_blur(self) -> None:
        """Hide the cursor."""
        self.refresh()
