"""``buraco play``: a whole match in the terminal, the human at seat 0 against bots.

The screen (80×24 is enough): the title bar; the stock and pile; each side's
melds; the status panel (turn, phase, mortos, card counts, scores, opening
owed) and the log; your hand; a message line; a command line for typed actions;
the keys. Every widget draws from the human seat's view
(:meth:`~buraco.tui.controller.Controller.view`); only the controller touches
the game.

Every handler of a key, a click, a dialog's answer or the command line runs
through :func:`guarded`: an exception is answered in the message line (a
refusal for the engine's :class:`~buraco.errors.BuracoError`, else an error with
the match saved as ``q`` saves it), never by leaving the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import ClassVar, Concatenate, ParamSpec

from rich.text import Text
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Input, Static
from textual.worker import Worker

from buraco.actions import (
    DRAW,
    TAKE_PILE,
    TURN_UP,
    Action,
    Add,
    Discard,
    Draw,
    Meld,
    MoveWild,
    Place,
    TakePile,
    TurnUp,
)
from buraco.cards import Card, parse_card
from buraco.errors import BuracoError
from buraco.i18n import DEFAULT
from buraco.refusals import Refusal
from buraco.rules import Rules
from buraco.text import safe
from buraco.tui.board import Board
from buraco.tui.choice import ChoiceScreen, QuitScreen
from buraco.tui.controller import AddPlan, Controller, Outcome
from buraco.tui.hand import HandView
from buraco.tui.help import HelpScreen
from buraco.tui.render import (
    Wrapped,
    action_text,
    card_label,
    event_words,
    meld_choice_text,
    meld_text,
    place_choice,
    use_colour,
)
from buraco.tui.results import (
    HandOverScreen,
    MatchOverScreen,
    breakdown_table,
    ending_words,
    hands_table,
)
from buraco.tui.table import STOCK, PileView, TableView, side_name, side_sizes, totals_text
from buraco.tui.words import count, refusal, t, use, word_bindings

PACES = (0.0, 0.1, 0.25, 0.5, 0.8, 1.2, 2.0)
"""Seconds between the bots' actions that ``+`` and ``-`` step through."""

CSS = """
Screen { layout: vertical; }
#title { height: 1; background: $primary; color: $text; padding: 0 1; }
#message { height: auto; padding: 0 1; }
#message.error { color: $error; text-style: bold; }
#message.hint { color: $success; text-style: bold; }
#command { height: 1; }
"""


MESSAGE_LIMIT = 1000
"""The most characters of one message shown (a typed action or an error may be longer)."""

MESSAGE_LINES = 4
"""The most lines the message line grows to for a long message (a refusal and its reason)."""

SUIT_LETTERS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
"""The suit symbols a typed card may end with (the board's, and their outlines), as letters."""

_WORD = re.compile(r"[^\s,]+")
_LEAD = re.compile(r"^[\s:]+")

_P = ParamSpec("_P")


def guarded(
    handler: Callable[Concatenate[PlayApp, _P], None],
) -> Callable[Concatenate[PlayApp, _P], None]:
    """Run a handler of the play app so that no exception leaves it.

    The exception is answered in the message line (:meth:`PlayApp.failed`); Textual's
    :class:`~textual.actions.SkipAction` passes, so a key can go on to the focused widget.
    """

    @functools.wraps(handler)
    def run(app: PlayApp, /, *args: _P.args, **kwargs: _P.kwargs) -> None:
        try:
            handler(app, *args, **kwargs)
        except SkipAction:
            raise
        except Exception as exc:  # any failure is reported, and the game saved
            app.failed(exc)

    run.guarded = True  # type: ignore[attr-defined]
    return run


class CommandInput(Input):
    """The command line: control characters, typed or pasted, are dropped from its text."""

    def validate_value(self, value: str) -> str:
        """The text without control characters (they would reach the terminal raw)."""
        return "".join(ch for ch in value if ch.isprintable() or ch == " ")

    def replace(self, text: str, start: int, end: int) -> None:
        """Replace a span of the text, dropping control characters from the new text."""
        super().replace(self.validate_value(text), start, end)


def typed_card(word: str) -> str:
    """A card as the board shows it (``7♦``, ``10♥``) as its code (``7D``, ``10H``).

    Any other word is returned as it is, so that a refusal quotes what was typed.

    >>> typed_card("7♦"), typed_card("10♥"), typed_card("q♠"), typed_card("1♦"), typed_card("JK")
    ('7D', '10H', 'qS', '1♦', 'JK')
    """
    bare = word.replace("\ufe0f", "")  # the emoji form of a symbol, as some pastes bring it
    letter = SUIT_LETTERS.get(bare[-1:])
    if letter is None:
        return word
    code = bare[:-1] + letter
    try:
        parse_card(code)
    except BuracoError:
        return word
    return code


def typed_action(text: str) -> str:
    """A typed action as the engine's notation reads it.

    Spaces around it and any ``:`` before it are dropped (the ``:`` that opens the command
    line, typed again over a refused action), and cards written with the board's suit
    symbols are turned into codes (:func:`typed_card`).

    >>> typed_action(" : meld 7♦ 8♦ 9♦ ")
    'meld 7D 8D 9D'
    >>> typed_action("::meld 10♥,J♥,Q♥")
    'meld 10H,JH,QH'
    >>> typed_action("add 1 K♠ high")
    'add 1 KS high'
    """
    text = _LEAD.sub("", text).rstrip()
    return _WORD.sub(lambda m: typed_card(m.group()), text)


def goal_text(r: Rules, match: bool = True) -> str:
    """The status panel's line on how the game ends.

    ``Match to 3000``, ``Match of 2 hands``, or ``Single hand`` for a game of one hand
    (``match`` false, as a record of one hand is).
    """
    if not match:
        return t("tui.goal.single")
    if r.match_hands:
        return count("tui.goal.hands", r.match_hands)
    return t("tui.goal.target", n=r.target)


class PlayApp(App[Path | None]):
    """A match against bots. Returns the path the match was saved to."""

    TITLE = "buraco"
    CSS = CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", "tui.key.draw"),
        Binding("t", "take", "tui.key.take"),
        Binding("m", "meld", "tui.key.meld"),
        Binding("a", "add", "tui.key.add"),
        Binding("x", "discard", "tui.key.discard"),
        Binding("h", "hint", "tui.key.hint"),
        Binding("colon", "command", "tui.key.type", show=False, priority=True),
        Binding("s", "skip", "tui.key.skip"),
        Binding("question_mark,f1", "help", "tui.key.help"),
        Binding("q", "quit_game", "tui.key.quit"),
        Binding("u", "turn_up", "tui.key.turn-up", show=False),
        Binding("w", "move_wild", "tui.key.move-wild", show=False),
        Binding("plus,equals_sign", "pace(1)", "tui.key.slower", show=False),
        Binding("minus", "pace(-1)", "tui.key.faster", show=False),
        Binding("n", "next_hand", "tui.key.next-hand", show=False),
        Binding("r", "scores", "tui.key.scores", show=False),
        Binding("ctrl+s", "save", "tui.key.save", show=False),
        Binding("escape", "escape", "tui.key.back", show=False),
        Binding("pageup", "scroll_melds(-1)", "tui.key.melds-up", show=False),
        Binding("pagedown", "scroll_melds(1)", "tui.key.melds-down", show=False),
    ]
    """The keys; each description is a catalog key, worded in the language in use."""

    def __init__(self, controller: Controller, pace: float = 0.5, lang: str = DEFAULT) -> None:
        use(lang, controller.rules.preset)
        super().__init__()
        word_bindings(self)
        use_colour(not self.no_color)
        self.controller = controller
        self.pace = max(0.0, pace)
        self.fast = False
        """Skipping: the bots' moves are shown at once until the human's turn."""
        self.saved_to: Path | None = None
        self._wake = asyncio.Event()
        self._bots: Worker[None] | None = None
        self._shown_over = -1
        self._last = ""
        """What was just done, shown before the next prompt."""
        self._message = ""

    # ----- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Title, table, status and log, hand, message, command line, keys."""
        yield Static(id="title")
        yield Board(id="board")
        yield Static(id="message")
        yield CommandInput(
            id="command",
            placeholder=t("tui.command.placeholder"),
            compact=True,
        )
        yield Footer(compact=True, show_command_palette=False)

    @guarded
    def on_mount(self) -> None:
        """Draw the table and start play (the bots first if they are to move)."""
        self.refresh_all()
        self.hand.focus()
        self.proceed()

    @property
    def hand(self) -> HandView:
        """The human's hand widget."""
        return self.query_one("#hand", HandView)

    # ----- drawing -----------------------------------------------------------------------
    def refresh_all(self) -> None:
        """Redraw every widget from the human's view."""
        c = self.controller
        v = c.view()
        bots = sorted(set(c.bot_specs))
        title = t(
            "tui.title.play",
            preset=c.rules.preset,
            players=c.rules.players,
            hand=v.hand_number + 1,
            seed=c.seed,
            bots=",".join(bots),
            pace=f"{self.pace:g}",
        )
        self.query_one("#title", Static).update(
            Text(safe(title), overflow="ellipsis", no_wrap=True)
        )
        self.query_one(Board).show(v, goal_text(c.rules, c.game.match))

    def say(self, text: str, kind: str = "") -> None:
        """Show a message in the message bar (``error`` and ``hint`` stand out).

        The text is shown as written (never read as markup), as one line (newlines
        become spaces, other control characters are escaped) cut to
        :data:`MESSAGE_LIMIT` characters. A line wider than the screen wraps, the bar
        growing to at most :data:`MESSAGE_LINES` lines.
        """
        bar = self.query_one("#message", Static)
        bar.set_classes(kind)
        if len(text) > MESSAGE_LIMIT:
            text = text[: MESSAGE_LIMIT - 1] + "…"
        self._message = safe(text.replace("\n", " "))
        bar.update(Wrapped(Text(self._message), MESSAGE_LINES))

    def failed(self, exc: BaseException) -> None:
        """Answer an exception from a handler in the message line; the app goes on.

        The match is saved first, as ``q`` saves it. The engine's
        :class:`~buraco.errors.BuracoError` is a refusal, shown with its reason; anything
        else is an error, and the message says where the match was saved.
        """
        try:
            why = getattr(exc, "refusal", None) if isinstance(exc, BuracoError) else None
            what = refusal(why) if isinstance(why, Refusal) else str(exc)
        except Exception:  # a message that cannot be made
            what = ""
        try:
            path = self.save(quiet=True)
        except Exception:  # save() reports its own failures: this is belt and braces
            path = None
        if isinstance(exc, BuracoError):
            self.say(t("tui.refused", reason=what), "error")
            return
        self.log.error("".join(traceback.format_exception(exc)))
        saved = t("tui.error.saved", path=path) if path else t("tui.error.not-saved")
        self.say(t("tui.error", kind=type(exc).__name__, what=what, saved=saved), "error")

    @property
    def message(self) -> str:
        """The message bar's text, on one line (as it would be shown on a wide screen)."""
        return self._message

    def prompt(self) -> str:
        """What the human may do now, in a few words."""
        v = self.controller.view()
        if v.phase == "draw":
            if TAKE_PILE in v.legal:
                return t("tui.prompt.draw-or-take")
            return t("tui.prompt.draw")
        if v.phase == "top-meld" and v.taken_top is not None:
            return t("tui.prompt.top-meld", card=card_label(v.taken_top))
        if TURN_UP in v.legal:
            return t("tui.prompt.play-turn-up")
        return t("tui.prompt.play")

    # ----- the flow of play ----------------------------------------------------------------
    def proceed(self) -> None:
        """After any action: end the hand, run the bots, or hand over to the human."""
        c = self.controller
        if c.hand_over:
            self.fast = False
            hand = c.view().hand_number
            if self._shown_over != hand:
                self._shown_over = hand
                self.save()
                self.show_hand_over()
            return
        if c.human_to_move:
            self.fast = False
            self.say(f"{self._last} · {self.prompt()}" if self._last else self.prompt())
            self._last = ""
            return
        if self._bots is None or not self._bots.is_running:
            self._bots = self.run_worker(self._run_bots(), group="bots", exclusive=True)

    @property
    def bots_running(self) -> bool:
        """Whether the bots are playing (or about to)."""
        return self._bots is not None and self._bots.is_running

    async def _run_bots(self) -> None:
        c = self.controller
        try:
            while (turn := c.bot_turn()) is not None:
                await self._wait()
                seat, bot, view, legal = turn
                action = await asyncio.to_thread(bot.choose, view, legal)
                c.apply_bot(seat, action)
                self.refresh_all()
                self._last = t("tui.line", who=c.names[seat], what=action_text(action))
                self.say(self._last)
            self.proceed()
        except Exception as exc:  # a bot's failure is reported, the game saved
            self.failed(exc)

    async def _wait(self) -> None:
        if self.fast or self.pace <= 0:
            await asyncio.sleep(0)
            return
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), self.pace)

    # ----- human actions -----------------------------------------------------------------
    def act(self, action: Action | str) -> bool:
        """Play one human action; show the engine's reason when it is refused."""
        outcome = self.controller.play(action)
        return self.done(outcome, action_text(outcome.action) if outcome.action else "")

    def done(self, outcome: Outcome, text: str) -> bool:
        """Show what became of a human action (``text``, in words) and go on."""
        if not outcome.ok:
            self.say(t("tui.refused", reason=outcome.message), "error")
            return False
        self.hand.clear_selection()
        self.refresh_all()
        v = self.controller.view()
        if isinstance(outcome.action, Draw | TakePile | TurnUp):  # what was drawn or taken
            mine = [e for e in v.events if e.action is not None and e.seat == v.seat]
            if mine:
                text = event_words(mine[-1])
        self._last = t("tui.line", who=t("tui.you"), what=text)
        self.say(self._last)
        self.proceed()
        return True

    @guarded
    def action_draw(self) -> None:
        """Draw from the stock."""
        self.act(DRAW)

    @guarded
    def action_take(self) -> None:
        """Take the discard pile."""
        self.act(TAKE_PILE)

    @guarded
    def action_turn_up(self) -> None:
        """Turn the first card up and draw again."""
        self.act(TURN_UP)

    @guarded
    def action_discard(self) -> None:
        """Discard the selected card, or select the one under the cursor for a second ``x``.

        A discard is not taken back, so with nothing selected ``x`` only selects.
        """
        cards = self.hand.selected_cards()
        if len(cards) > 1:
            self.say(t("tui.say.one-to-discard"), "error")
            return
        card = cards[0] if cards else self.hand.cursor_card()
        if card is None:
            self.say(t("tui.say.no-card"), "error")
            return
        if not cards and self.controller.view().phase != "draw":
            self.hand.toggle(self.hand.cursor)
            self.say(t("tui.say.discard-again", card=card_label(card)))
            return
        self.act(Discard(card))

    @guarded
    def action_meld(self) -> None:
        """Meld the selected cards, asking where a wild stands when it could go two ways."""
        cards = self.hand.selected_cards()
        if not cards:
            self.say(t("tui.say.select-to-meld"), "error")
            return
        choices = self.controller.meld_choices(cards)
        if len(choices) == 1:
            self.act(choices[0])
        elif choices:
            self.ask(
                t("tui.ask.which-meld"),
                [meld_choice_text(m.cards) for m in choices],
                lambda i: self.meld_chosen(choices[i]),
            )
        else:
            self.say(t("tui.refused", reason=self.controller.meld_refusal(cards)), "error")

    def meld_chosen(self, meld: Meld) -> None:
        """Meld as chosen in the dialog."""
        self.act(meld)

    @guarded
    def action_add(self) -> None:
        """Add the selected cards (or the one under the cursor) to a meld of your side."""
        cards = self.hand.selected_cards()
        if not cards:
            card = self.hand.cursor_card()
            cards = [card] if card is not None else []
        if not cards:
            self.say(t("tui.say.select-to-add"), "error")
            return
        v = self.controller.view()
        melds = v.melds[v.side]
        if len(melds) <= 1:
            self.add_to(0, cards)
            return
        plans = [self.controller.plan_adds(i, cards) for i in range(len(melds))]
        fits = [i for i, plan in enumerate(plans) if not plan.refusal]
        what = " ".join(card_label(c) for c in cards)
        if not fits:
            self.say(t("tui.refused", reason=self._no_meld_takes(what, plans)), "error")
        elif len(fits) == 1:
            self.add_to(fits[0], cards)
        else:
            labels = [
                Text.assemble((f"{melds[i].number:>2}  ", "bold"), meld_text(melds[i]))
                for i in fits
            ]
            question = t("tui.ask.add-which-meld", cards=what)
            self.ask(question, labels, lambda k: self.add_to(fits[k], cards))

    @staticmethod
    def _no_meld_takes(what: str, plans: Sequence[AddPlan]) -> str:
        """Why no meld takes the cards: the engine's reason when it is the same for all."""
        reasons = {plan.refusal for plan in plans}
        if len(reasons) == 1:
            return reasons.pop()
        return t("tui.say.no-meld-takes", cards=what)

    def add_to(
        self, meld: int, cards: Sequence[Card], chosen: Mapping[Card, Place] | None = None
    ) -> None:
        """Add cards to meld ``meld`` (0-based), asking where a card goes when it matters."""
        plan = self.controller.plan_adds(meld, cards, chosen)
        if plan.refusal:
            self.say(t("tui.refused", reason=plan.refusal), "error")
            return
        if plan.ask:
            options = plan.ask
            card = options[0].card
            self.ask(
                t("tui.ask.add-which-way", card=card_label(card), meld=meld + 1),
                [place_choice(card, meld, a.place) for a in options],
                lambda i: self.add_to(meld, cards, {**(chosen or {}), card: options[i].place}),
            )
            return
        text = "; ".join(action_text(a) for a in plan.actions)
        self.done(self.controller.play_all(plan.actions), text)

    @guarded
    def action_move_wild(self) -> None:
        """Move the wild of one of your side's runs to its other end (``us``)."""
        rules = self.controller.rules
        if not rules.wild_moves:
            reason = t("tui.say.no-wild-moves", preset=rules.preset)
            self.say(t("tui.refused", reason=reason), "error")
            return
        v = self.controller.view()
        runs = [m for m in v.melds[v.side] if m.run and m.wild is not None]
        if not runs:
            self.act(MoveWild(0, Place.LOW))
            return

        def move(i: int) -> None:
            m = runs[i]
            choices = self.controller.move_choices(m.number - 1)
            if choices:
                self.act(choices[0])
            else:
                to = Place.HIGH if m.wild == 0 else Place.LOW
                self.act(MoveWild(m.number - 1, to))

        if len(runs) == 1:
            move(0)
        else:
            labels = [Text.assemble((f"{m.number:>2}  ", "bold"), meld_text(m)) for m in runs]
            self.ask(t("tui.ask.move-which-run"), labels, move)

    @guarded
    def action_hint(self) -> None:
        """Show (and select the cards of) what the heuristic bot would do now."""
        hint = self.controller.hint()
        if hint is None:
            self.say(t("tui.say.hint-not-turn"), "error")
            return
        cards: list[Card] = []
        if isinstance(hint, Meld):
            cards = list(hint.cards)
        elif isinstance(hint, Add | Discard):
            cards = [hint.card]
        self.hand.select_cards(cards)
        self.say(t("tui.say.hint", action=action_text(hint), typed=hint), "hint")

    @guarded
    def action_command(self) -> None:
        """Go to the command line, at once: a key sent straight after ``:`` goes to it.

        The binding has priority (it is seen before the keys are passed to the hand), and
        the focus moves before the next key is handled. Under a dialog, or on the command
        line itself, the key is passed on.
        """
        command = self.query_one("#command", CommandInput)
        if self.screen is not command.screen or command.has_focus:
            raise SkipAction
        command.screen.set_focus(command)

    @guarded
    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Play a typed action: done, back to the board; refused, its text selected to retype.

        The text is read as :func:`typed_action` reads it: a ``:`` before it is dropped, and
        the board's suit symbols are suit letters.
        """
        text = typed_action(event.value)
        if not text:
            self.focus_board()
            return
        if self.act(text):
            event.input.value = ""
            self.focus_board()
        else:
            event.input.select_all()

    def focus_board(self) -> None:
        """Give the keys back to the hand (at once when its screen is showing)."""
        hand = self.hand
        if self.screen is hand.screen:
            hand.screen.set_focus(hand)
        else:
            hand.focus()

    @guarded
    def action_escape(self) -> None:
        """Back to the hand from the command line (or elsewhere), else unselect every card."""
        if self.focused is self.hand:
            self.hand.clear_selection()
        else:
            self.hand.focus()

    @guarded
    def action_scroll_melds(self, direction: int) -> None:
        """Scroll the melds a page up or down."""
        melds = self.query_one("#melds", VerticalScroll)
        if direction > 0:
            melds.scroll_page_down()
        else:
            melds.scroll_page_up()

    @guarded
    def on_table_view_meld_clicked(self, event: TableView.MeldClicked) -> None:
        """A click on a meld of your side adds the selected cards to it."""
        cards = self.hand.selected_cards()
        if not cards:
            self.say(t("tui.say.select-then-click"), "error")
            return
        self.add_to(event.meld, cards)

    @guarded
    def on_pile_view_clicked(self, event: PileView.Clicked) -> None:
        """A click on the stock draws; on the pile takes it."""
        self.act(DRAW if event.what == STOCK else TAKE_PILE)

    def ask(
        self,
        question: str,
        options: Sequence[Text | str],
        then: Callable[[int], None],
        highlight: int = 0,
    ) -> None:
        """Ask to pick one option, then call ``then`` with its index (nothing on Escape)."""

        @guarded
        def answered(app: PlayApp, index: int | None) -> None:
            if index is None:
                app.say(t("tui.say.cancelled"))
            else:
                then(index)

        self.push_screen(ChoiceScreen(question, options, highlight), lambda i: answered(self, i))

    # ----- pace, hands, saving -------------------------------------------------------------
    @guarded
    def action_skip(self) -> None:
        """Show the bots' moves at once until the human's turn."""
        self.fast = True
        self._wake.set()

    @guarded
    def action_pace(self, step: int) -> None:
        """Step the bots' pace up (slower) or down (faster)."""
        slower = [p for p in PACES if p > self.pace]
        faster = [p for p in PACES if p < self.pace]
        if step > 0 and slower:
            self.pace = slower[0]
        elif step < 0 and faster:
            self.pace = faster[-1]
        self.refresh_all()
        self.say(t("tui.say.pace", pace=f"{self.pace:g}"))

    def show_hand_over(self) -> None:
        """The hand's score breakdown."""
        c = self.controller
        v = c.view()
        sides = [side_name(v, s) for s in range(len(v.totals))]
        res = c.results()[-1]
        went_out = sides[res.went_out] if res.went_out is not None else None
        ended = ending_words(res.ended_by, went_out)
        totals = totals_text(v)
        title = t("tui.over.hand", n=v.hand_number + 1, ended=ended, totals=totals)
        button = t("tui.button.result" if c.match_over else "tui.button.next-hand")
        table = breakdown_table(v.scores or (), sides)
        self.push_screen(HandOverScreen(title, table, button), self._hand_closed)

    @guarded
    def _hand_closed(self, result: str | None) -> None:
        self.focus_board()  # n, r and q are the board's keys again
        if result == "quit":
            self.action_quit_game()
        elif result == "look":
            self.say(t("tui.say.look"))
        else:
            self.action_next_hand()

    @guarded
    def action_next_hand(self) -> None:
        """Deal the next hand (or show the match's result when it is over)."""
        c = self.controller
        if not c.hand_over:
            self.say(t("tui.say.hand-not-over"), "error")
            return
        if c.match_over:
            self.show_match_over()
            return
        c.next_hand()
        self.hand.clear_selection()
        self._last = ""  # the last hand's news is old
        self.refresh_all()
        self.focus_board()
        self.say(t("tui.say.dealt", n=c.view().hand_number + 1))
        self.proceed()

    def show_match_over(self) -> None:
        """The winner and the table of hands."""
        c = self.controller
        v = c.view()
        sides = [side_name(v, s) for s in range(len(v.totals))]
        totals = totals_text(v)
        if c.winner is None:
            title = t("tui.over.game", totals=totals)
        elif c.winner == v.side:
            title = t("tui.over.you-win", totals=totals)
        else:
            size = side_sizes(v)[c.winner]
            title = count("tui.over.they-win", size, names=sides[c.winner], totals=totals)
        table = hands_table(c.results(), sides, side_sizes(v))
        self.push_screen(MatchOverScreen(title, table), self._match_closed)

    @guarded
    def _match_closed(self, result: str | None) -> None:
        self.focus_board()
        if result == "quit":
            self.action_quit_game()
        else:
            self.say(t("tui.say.match-over"))

    @guarded
    def action_scores(self) -> None:
        """The hands played so far."""
        c = self.controller
        v = c.view()
        sides = [side_name(v, s) for s in range(len(v.totals))]
        table = hands_table(c.results(), sides, side_sizes(v))
        title = t("tui.scores.title" if c.results() else "tui.scores.none")
        foot = t("tui.scores.foot")
        screen = HandOverScreen(title, table, button=t("tui.button.close"), foot=foot)
        self.push_screen(screen, self._scores_closed)

    @guarded
    def _scores_closed(self, result: str | None) -> None:
        if result == "quit":
            self.action_quit_game()

    @guarded
    def action_help(self) -> None:
        """Keys and the rules of the preset."""
        self.push_screen(HelpScreen(self.controller.rules))

    def save(self, quiet: bool = False) -> Path | None:
        """Save the match; on failure say why (unless ``quiet``) and return None."""
        try:
            self.saved_to = self.controller.save()
        except Exception as exc:  # a file that cannot be written, or worse
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else repr(exc)
            if not quiet:
                self.say(t("tui.say.cannot-save", path=self.controller.save_path, why=why), "error")
            return None
        return self.saved_to

    @guarded
    def action_save(self) -> None:
        """Save the match now."""
        path = self.save()
        if path is not None:
            self.say(t("tui.say.saved", path=path))

    @guarded
    def action_quit_game(self) -> None:
        """Quit, saving the match; a match in progress asks first (``q`` again or ``y``).

        A match that cannot be saved stays open.
        """
        if isinstance(self.screen, QuitScreen):
            return
        if self.controller.match_over:
            self._quit_answered(True)
            return
        path = self.controller.save_path
        question = t("tui.ask.quit", path=path)
        self.push_screen(QuitScreen(question), self._quit_answered)

    @guarded
    def _quit_answered(self, quit_game: bool | None) -> None:
        if not quit_game:
            self.say(t("tui.say.go-on"))
            return
        path = self.save()
        if path is not None:
            self.exit(path)

    async def action_quit(self) -> None:
        """Ctrl+Q: save the match if it can be saved, and quit anyway."""
        self.exit(self.save())
