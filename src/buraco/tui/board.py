"""The board: stock and pile, each side's melds, the status panel, the log and a hand.

All of it is drawn from one seat's :class:`~buraco.views.SeatView`; the log from its
events, with the cards named as in the hand (:func:`~buraco.tui.render.event_text`).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import RichLog

from buraco.tui.hand import HandView
from buraco.tui.render import event_text
from buraco.tui.status import StatusPanel
from buraco.tui.table import PileView, TableView
from buraco.tui.words import count, t
from buraco.views import SeatView


class Board(Vertical):
    """Table, status and log side by side, the hand below."""

    DEFAULT_CSS = """
    Board { height: 1fr; }
    Board #main { height: 1fr; }
    Board #left { width: 1fr; }
    Board #melds { height: 1fr; }
    Board #right { width: 30; border-left: vkey $primary; }
    Board #log { height: 1fr; padding: 0 0 0 1; overflow-x: hidden; }
    """

    def __init__(self, hand_title: str | None = None, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hand_title = hand_title
        self._log_key: tuple[int, int] = (-1, -1)
        self._log_count = 0

    def compose(self) -> ComposeResult:
        """The widgets."""
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield PileView(id="pile")
                with VerticalScroll(id="melds"):
                    yield TableView(id="table")
            with Vertical(id="right"):
                yield StatusPanel(id="status")
                log = RichLog(id="log", wrap=True, markup=False, max_lines=2000, min_width=10)
                log.can_focus = False
                yield log
        yield HandView(self.hand_title, id="hand")

    @property
    def hand(self) -> HandView:
        """The hand widget."""
        return self.query_one("#hand", HandView)

    def show(self, view: SeatView, goal: str, hand_title: str | None = None) -> None:
        """Draw every part from ``view``; ``goal`` says how the game ends (``Match to 3000``)."""
        self.query_one("#pile", PileView).show(view)
        self.query_one("#table", TableView).show(view)
        self.query_one("#status", StatusPanel).show(view, goal)
        note = ""
        if view.hidden_pot:
            note = count("hand.hidden-pot", view.hidden_pot)
        hand = self.hand
        if hand_title is not None:
            hand.title = hand_title
        hand.set_cards(view.hand, note)
        log = self.query_one("#log", RichLog)
        events = view.events
        key = (view.hand_number, view.seat)
        if key != self._log_key or len(events) < self._log_count:
            log.clear()
            self._log_key = key
            self._log_count = 0
            log.write(Text(t("tui.log.hand", n=view.hand_number + 1), style="bold"))
        for event in events[self._log_count :]:
            log.write(event_text(view, event))
        self._log_count = len(events)
