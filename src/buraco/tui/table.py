"""The table: each side's melds, grouped by side, and the stock and discard pile.

Both render from a :class:`~buraco.views.SeatView` only. A click on one of your
side's melds asks to add the selected cards to it; a click on the stock draws and
one on the pile takes it.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from buraco.text import safe
from buraco.tui.render import Flow, card_text, meld_marks, meld_tokens
from buraco.tui.words import t
from buraco.views import SeatView


def side_name(view: SeatView, side: int) -> str:
    """A side by its players, the viewer first (``You & Bia``).

    The names are made safe to draw (:func:`~buraco.tui.render.safe`).
    """
    seats = sorted(view.sides[side], key=lambda s: s != view.seat)
    return " & ".join(safe(view.names[s]) for s in seats)


def totals_text(view: SeatView) -> str:
    """Each side's match total, ``You & Bia 120 · Ana & Caio 90``."""
    return " · ".join(f"{side_name(view, s)} {total}" for s, total in enumerate(view.totals))


def side_sizes(view: SeatView) -> list[int]:
    """How many players each side has."""
    return [len(view.sides[s]) for s in range(len(view.totals))]


class _ViewWidget(Widget):
    """A widget drawn from the latest view it was shown."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: SeatView | None = None

    def show(self, view: SeatView) -> None:
        """Draw from a new view."""
        self.view = view
        self.refresh(layout=True)


class TableView(_ViewWidget):
    """Every side's melds, the viewer's side first, with clean/dirty and canastra marks."""

    DEFAULT_CSS = "TableView { height: auto; padding: 0 1; }"

    class MeldClicked(Message):
        """One of the viewer's side's melds was clicked."""

        def __init__(self, meld: int) -> None:
            super().__init__()
            self.meld = meld
            """The meld's index (0-based)."""

    def sides_in_order(self) -> list[int]:
        """The viewer's side first, then the others in turn order."""
        if self.view is None:
            return []
        own = self.view.side
        count = len(self.view.melds)
        return sorted(range(count), key=lambda s: (s - own) % count)

    def lay_out(self, width: int) -> Flow:
        """The melds laid out at ``width``; item keys are ``side * 1000 + meld index``."""
        flow = Flow(width)
        v = self.view
        if v is None:
            return flow
        for side in self.sides_in_order():
            head = Text(side_name(v, side), style="bold underline")
            head.append(t("tui.side.table", n=v.table_points[side]), style="")
            if v.requirement[side]:
                head.append(t("tui.side.owed", n=v.requirement[side]), style="italic")
            if v.vulnerable[side]:
                head.append("  " + t("side.vulnerable"), style="bold")
            if v.pot_taken[side]:
                head.append("  " + t("side.pot-taken"), style="")
            flow.newline(head)
            melds = v.melds[side]
            if not melds:
                flow.newline(Text("  " + t("side.no-melds"), style="dim"))
            for i, m in enumerate(melds):
                key = side * 1000 + i
                flow.newline()
                flow.item(Text(f"{m.number:>2}", style="bold"), key, gap=0)
                for token in meld_tokens(m):
                    flow.item(token, key, indent=4)
                flow.item(meld_marks(m), key, gap=2, indent=4)
        return flow

    def meld_offset(self, meld: int) -> tuple[int, int]:
        """Where the viewer side's meld ``meld`` is drawn, relative to the widget."""
        assert self.view is not None
        spot = self.lay_out(self.content_size.width).spot_of(self.view.side * 1000 + meld)
        if spot is None:
            raise IndexError(meld)
        return (self.styles.padding.left + spot.x0, self.styles.padding.top + spot.line)

    def on_click(self, event: events.Click) -> None:
        """A click on one of the viewer's side's melds."""
        offset = event.get_content_offset(self)
        if offset is None or self.view is None:
            return
        key = self.lay_out(self.content_size.width).key_at(offset.x, offset.y, whole_line=True)
        if key is not None and key // 1000 == self.view.side:
            self.post_message(self.MeldClicked(key % 1000))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the melds need."""
        return max(len(self.lay_out(width).lines), 1)

    def render(self) -> Text:
        """The sides and their melds."""
        return self.lay_out(self.content_size.width).text()


STOCK, PILE = 0, 1


class PileView(_ViewWidget):
    """The stock's size and the discard pile: every card when open, the top when closed."""

    DEFAULT_CSS = "PileView { height: auto; padding: 0 1; }"

    class Clicked(Message):
        """The stock (``STOCK``) or the pile (``PILE``) was clicked."""

        def __init__(self, what: int) -> None:
            super().__init__()
            self.what = what

    MAX_LINES = 4

    def lay_out(self, width: int) -> Flow:
        """The stock then the pile, bottom to top; keys ``STOCK`` and ``PILE``.

        A long open pile shows its top cards and how many are below them.
        """
        skip = 0
        flow = self._layout(width, skip)
        while len(flow.lines) > self.MAX_LINES and self.view and skip < len(self.view.pile):
            skip += 1
            flow = self._layout(width, skip)
        return flow

    def _layout(self, width: int, skip: int) -> Flow:
        flow = Flow(width)
        v = self.view
        if v is None:
            return flow
        flow.newline()
        flow.item(Text(t("table.stock", n=v.stock), style="bold"), STOCK, gap=0)
        kind = "tui.pile.open" if v.pile_open else "tui.pile.closed"
        flow.item(Text(t(kind, n=v.pile_size), style="bold"), PILE, gap=3)
        if not v.pile:
            flow.item(Text(t("table.empty"), style="dim"), PILE)
        if not v.pile_open and v.pile_size > 1:
            flow.item(Text(t("tui.pile.hidden", n=v.pile_size - 1), style="dim"), PILE)
        if skip:
            flow.item(Text(t("tui.pile.below", n=skip), style="dim"), PILE)
        for i, c in enumerate(v.pile):
            if i < skip:
                continue
            text = card_text(c)
            if i == len(v.pile) - 1:
                text.stylize("reverse")
            flow.item(text, PILE, indent=2)
        return flow

    def on_click(self, event: events.Click) -> None:
        """A click on the stock or on the pile."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        key = self.lay_out(self.content_size.width).key_at(offset.x, offset.y)
        if key is not None:
            self.post_message(self.Clicked(key))

    def item_offset(self, what: int) -> tuple[int, int]:
        """Where the stock or the pile label is drawn, relative to the widget."""
        spot = self.lay_out(self.content_size.width).spot_of(what)
        if spot is None:
            raise IndexError(what)
        return (self.styles.padding.left + spot.x0, self.styles.padding.top + spot.line)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the pile needs."""
        return max(len(self.lay_out(width).lines), 1)

    def render(self) -> Text:
        """The stock and the pile."""
        return self.lay_out(self.content_size.width).text()
