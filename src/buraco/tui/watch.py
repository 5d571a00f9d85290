"""``buraco replay FILE --watch``: step through a game record on the board, action by action.

The board shows one seat's view at a time (Tab passes to the next seat), so a
finished record can be followed from any player's chair. The record's names and
actions are shown as written, never read as markup, control characters escaped.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static
from textual.worker import Worker

from buraco.actions import parse_action
from buraco.errors import BuracoError
from buraco.game import Game
from buraco.i18n import DEFAULT
from buraco.replays import replay
from buraco.text import safe
from buraco.tui.app import goal_text
from buraco.tui.board import Board
from buraco.tui.help import HelpScreen
from buraco.tui.render import action_text, use_colour
from buraco.tui.results import HandOverScreen, breakdown_table, hands_table
from buraco.tui.table import side_name, side_sizes, totals_text
from buraco.tui.words import t, use, word_bindings
from buraco.views import SeatView, seat_view

WATCH_KEYS: tuple[str, ...] = tuple(
    f"tui.help.watch.{name}"
    for name in ("step", "back", "hands", "ends", "seat", "auto", "pace", "scores", "quit")
)
"""The keys of the watcher (catalog keys, as :data:`~buraco.tui.help.PLAY_KEYS`)."""


class Stepper:
    """A record's position: hand ``hand`` (0-based) with its first ``done`` actions made.

    Stepping forward applies the next action; stepping back replays the record up to
    the position before.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.actions: list[list[Any]] = [h["actions"] for h in data["hands"]]
        self.hand = 0
        self.done = 0
        self.game = self._build(0, 0)

    def _build(self, hand: int, done: int) -> Game:
        data = copy.deepcopy(self.data)
        data["hands"] = data["hands"][: hand + 1]
        last = data["hands"][-1]
        last["actions"] = last["actions"][:done]
        last.pop("result", None)
        data.pop("totals", None)
        data.pop("winner", None)
        return replay(data, check_results=False)

    def goto(self, hand: int, done: int) -> None:
        """Go to a position (clamped to the record)."""
        hand = max(0, min(hand, len(self.actions) - 1))
        done = max(0, min(done, len(self.actions[hand])))
        self.game = self._build(hand, done)
        self.hand, self.done = hand, done

    @property
    def at_end(self) -> bool:
        """Whether the last action of the record has been made."""
        return self.hand == len(self.actions) - 1 and self.done == len(self.actions[-1])

    def forward(self) -> bool:
        """Make the next action (or deal the next hand); False at the end."""
        if self.done < len(self.actions[self.hand]):
            seat, text = self.actions[self.hand][self.done]
            self.game.apply(text, seat=seat)
            self.done += 1
            return True
        if self.hand + 1 < len(self.actions):
            self.game.next_hand()
            self.hand += 1
            self.done = 0
            return True
        return False

    def back(self) -> bool:
        """Undo the last action (back to the end of the previous hand at a hand's start)."""
        if self.done > 0:
            self.goto(self.hand, self.done - 1)
            return True
        if self.hand > 0:
            self.goto(self.hand - 1, len(self.actions[self.hand - 1]))
            return True
        return False

    def last_action(self) -> str:
        """The action just made, as ``seat: action`` in words, its cards as in the hand."""
        if self.done == 0:
            return t("tui.say.dealt", n=self.hand + 1)
        seat, text = self.actions[self.hand][self.done - 1]
        try:
            shown = action_text(parse_action(text))
        except BuracoError:
            shown = safe(str(text))
        return t("tui.line", who=safe(self.game.names[seat]), what=shown)

    def view(self, seat: int) -> SeatView:
        """A seat's full view of the position."""
        return seat_view(self.game, seat, full=True)


class WatchApp(App[None]):
    """Steps through a record on the board."""

    TITLE = "buraco replay"
    AUTO_FOCUS = None
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #message { height: 1; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space", "step(1)", "tui.key.next", priority=True),
        Binding("left", "step(-1)", "tui.key.back", priority=True),
        Binding("n", "hand(1)", "tui.key.next-hand"),
        Binding("p", "hand(-1)", "tui.key.prev-hand"),
        Binding("tab", "seat", "tui.key.seat", priority=True),
        Binding("a", "auto", "tui.key.auto"),
        Binding("question_mark,f1", "help", "tui.key.help"),
        Binding("q", "quit", "tui.key.quit"),
        Binding("home", "ends(0)", "tui.key.start", show=False, priority=True),
        Binding("end", "ends(1)", "tui.key.end", show=False, priority=True),
        Binding("r", "scores", "tui.key.scores", show=False),
        Binding("plus,equals_sign", "pace(2)", "tui.key.slower", show=False),
        Binding("minus", "pace(0.5)", "tui.key.faster", show=False),
    ]
    """The keys; each description is a catalog key, worded in the language in use."""

    def __init__(
        self, data: dict[str, Any], seat: int = 0, pace: float = 0.5, lang: str = DEFAULT
    ) -> None:
        stepper = Stepper(data)
        use(lang, stepper.game.rules.preset)
        super().__init__()
        word_bindings(self)
        use_colour(not self.no_color)
        self.stepper = stepper
        self.seat = seat % self.stepper.game.players
        self.pace = pace
        self._auto: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        """Title, board, position line, keys."""
        yield Static(id="title")
        yield Board(id="board")
        yield Static(id="message")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        """Draw the start of the record."""
        self.redraw()

    def redraw(self) -> None:
        """Draw the position from the watched seat's view."""
        st = self.stepper
        g = st.game
        r = g.rules
        view = st.view(self.seat)
        name = safe(g.names[self.seat])
        title = t("tui.title.replay", preset=r.preset, players=r.players, name=name)
        self.query_one("#title", Static).update(
            Text(safe(title), no_wrap=True, overflow="ellipsis")
        )
        goal = goal_text(r, g.match)
        self.query_one(Board).show(view, goal, t("tui.hand.of", name=name))
        where = t(
            "tui.replay.where",
            hand=st.hand + 1,
            hands=len(st.actions),
            step=st.done,
            steps=len(st.actions[st.hand]),
        )
        if st.at_end:
            where += t("tui.replay.end")
        where += f" · {st.last_action()}"
        if g.is_hand_over():
            where += t("tui.replay.over", totals=totals_text(view))
        self.query_one("#message", Static).update(
            Text(safe(where), overflow="ellipsis", no_wrap=True)
        )

    @property
    def position(self) -> tuple[int, int]:
        """(hand, actions done in it)."""
        return (self.stepper.hand, self.stepper.done)

    def action_step(self, step: int) -> None:
        """One action forward or back."""
        if step > 0:
            self.stepper.forward()
        else:
            self.stepper.back()
        self.redraw()

    def action_hand(self, step: int) -> None:
        """The start of the next hand, or of this (then the previous) hand."""
        st = self.stepper
        if step > 0:
            if st.hand + 1 < len(st.actions):
                st.goto(st.hand + 1, 0)
            else:
                st.goto(st.hand, len(st.actions[st.hand]))
        elif st.done > 0:
            st.goto(st.hand, 0)
        else:
            st.goto(st.hand - 1, 0)
        self.redraw()

    def action_ends(self, end: int) -> None:
        """The start or the end of the record."""
        st = self.stepper
        if end:
            st.goto(len(st.actions) - 1, len(st.actions[-1]))
        else:
            st.goto(0, 0)
        self.redraw()

    def action_seat(self) -> None:
        """Watch from the next seat."""
        self.seat = (self.seat + 1) % self.stepper.game.players
        self.redraw()

    def action_auto(self) -> None:
        """Play on by itself at the pace, or stop."""
        if self._auto is not None and self._auto.is_running:
            self._auto.cancel()
            return
        self._auto = self.run_worker(self._play_on(), group="auto", exclusive=True)

    async def _play_on(self) -> None:
        while self.stepper.forward():
            self.redraw()
            await asyncio.sleep(self.pace)

    def action_pace(self, factor: float) -> None:
        """Slower (×2) or faster (×½)."""
        self.pace = min(5.0, max(0.05, self.pace * factor))

    def action_scores(self) -> None:
        """The finished hands so far, or this hand's breakdown when it is over."""
        g = self.stepper.game
        view = self.stepper.view(self.seat)
        sides = [side_name(view, s) for s in range(len(view.totals))]
        if g.is_hand_over() and view.scores:
            table = breakdown_table(view.scores, sides)
            title = t("table.hand-number", n=view.hand_number + 1)
        else:
            table = hands_table(g.results, sides, side_sizes(view))
            title = t("tui.scores.hands")
        foot = t("tui.replay.foot")
        screen = HandOverScreen(title, table, button=t("tui.button.close"), foot=foot)
        self.push_screen(screen, self._scores_closed)

    def _scores_closed(self, result: str | None) -> None:
        if result == "quit":
            self.exit()

    def action_help(self) -> None:
        """Keys and the rules of the record's preset."""
        self.push_screen(HelpScreen(self.stepper.game.rules, WATCH_KEYS))
