"""The play app driven by Textual's pilot: real key presses and clicks."""

import json
import re
import time
from pathlib import Path

import pytest
from textual import events
from textual.geometry import Region
from textual.widgets import Input, OptionList

from buraco import make_rules
from buraco.actions import Discard, Draw, Meld
from buraco.bots import make_bot
from buraco.cards import CARD_NAMES, parse_cards
from buraco.errors import IllegalAction
from buraco.refusals import Refusal
from buraco.tui.app import MESSAGE_LINES, PlayApp
from buraco.tui.choice import ChoiceScreen, QuitScreen
from buraco.tui.controller import Controller
from buraco.tui.help import HelpScreen
from buraco.tui.render import card_label
from buraco.tui.results import HandOverScreen, MatchOverScreen
from buraco.tui.table import PILE, STOCK, PileView, TableView
from tui.driver import (
    Pilot_,
    choose,
    click_cards,
    footer_keys,
    keys_at_once,
    perform,
    play_hand_directly,
    screen_showing,
    screen_text,
    settle,
    short_rules,
    stacked,
)

HAND = "5H 6H 7H 8H 9H 3C 4C JK KS QD 9D"


def text_of(app: PlayApp, selector: str) -> str:
    """The plain text a widget shows now."""
    widget = app.screen.query_one(selector)
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(strip.text.rstrip() for strip in strips)


async def test_a_hand_is_played_to_its_end_with_keys_and_clicks(tmp_path: Path) -> None:
    c = Controller.new(short_rules(), ["greedy"], seed=1, save_path=tmp_path / "m.json")
    app = PlayApp(c, pace=0)
    me = make_bot("greedy", seed=1)
    done: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        while not c.hand_over:
            assert c.human_to_move
            action = me.choose(c.view(), c.view().legal)
            before = len(c.view().log)
            await perform(pilot, app, action, mouse=len(done) % 2 == 1)
            assert len(c.view().log) > before, (action, app.message)
            assert not app.message.startswith("refused"), app.message
            done.append(type(action).__name__)
            await settle(pilot, app)
        assert {"Draw", "Discard", "Meld"} <= set(done)
        # the end-of-hand screen: each side's score in parts
        assert isinstance(app.screen, HandOverScreen)
        breakdown = text_of(app, "#breakdown")
        for part in ("melds", "canastra bonuses", "cards left in hand", "morto", "hand total"):
            assert part in breakdown
        scores = c.view().scores
        assert scores is not None
        for side in scores:
            assert str(side["total"]) in breakdown
        title = text_of(app, "#hand-title")
        assert "Hand 1 over." in title and "Match: You" in title
        assert any(how in title.lower() for how in ("went out", "the stock ran out", "could draw"))
        assert (tmp_path / "m.json").exists()  # saved at the end of the hand
        await pilot.press("enter")
        await settle(pilot, app)
        assert c.view().hand_number == 1 and not c.hand_over
        assert "hand 2" in text_of(app, "#title")


async def test_an_illegal_attempt_shows_the_engines_reason_and_changes_nothing(
    tmp_path: Path,
) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    c.save_path = tmp_path / "missing" / "m.json"
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        before = c.record()
        hand_before = text_of(app, "#hand")
        await click_cards(pilot, app, parse_cards("9D"))
        await pilot.press("x")
        assert app.message == (
            "refused: start your turn by drawing from the stock or taking the pile"
        )
        assert c.record() == before and text_of(app, "#hand") != ""
        # typed notation: refused with the engine's reason too, the text kept to edit but
        # selected, so that the next action typed replaces it
        await pilot.press("colon", *"discard 1C", "enter")
        assert app.message.startswith("refused: unknown card '1C': a card is a rank")
        command = app.query_one("#command", Input)
        assert command.value == "discard 1C" and command.has_focus
        assert command.selection == (0, len("discard 1C"))
        assert c.record() == before
        await pilot.press(*"draw", "enter")  # not 'discard 1Cdraw'
        assert "you: draw 10♥" in app.message
        assert command.value == "" and app.hand.has_focus  # back to the board
        after_draw = c.record()
        await click_cards(pilot, app, parse_cards("5H 6H 9D"))
        await pilot.press("m")
        assert app.message == (
            "refused: not a valid meld: a run needs cards of one suit (a wild aside)"
        )
        await pilot.press("x")  # three cards selected
        assert app.message == "select one card to discard (Esc unselects)"
        assert c.record() == after_draw
        assert hand_before != text_of(app, "#hand")  # the drawn card is there
        assert len(app.hand.selected) == 3  # the selection is kept after a refusal
        await pilot.press("q", "y")  # the file cannot be written: the game stays open
        assert app.is_running and not isinstance(app.screen, QuitScreen)
        assert app.message.startswith("cannot save to ") and "No such file" in app.message


async def test_x_with_nothing_selected_selects_the_card_and_a_second_x_discards_it(
    tmp_path: Path,
) -> None:
    # 045 §Defects: x with nothing selected discarded the card under the cursor at once
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("d")
        after_draw = c.record()
        app.hand.focus()
        await pilot.press("escape")
        assert app.hand.selected == set()
        card = app.hand.cursor_card()
        assert card is not None
        await pilot.press("x")
        assert c.record() == after_draw  # nothing discarded yet
        assert app.hand.selected_cards() == [card]
        assert app.message == f"{card_label(card)} selected: x again discards it (Esc unselects)"
        await pilot.press("x")
        await settle(pilot, app)
        assert c.record() != after_draw
        assert f"you: discard {CARD_NAMES[card]}" in c.view().log


async def test_melding_asks_where_the_wild_stands_and_adding_asks_its_end(
    tmp_path: Path,
) -> None:
    c = stacked(tmp_path, hands=["5H 6H 7H 8H 9H 3C 4C JK KS QS 2D"], stock="JS")
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        pile = app.query_one(PileView)
        assert await pilot.click(PileView, offset=pile.item_offset(STOCK))  # draw by a click
        assert c.view().phase == "play"
        await click_cards(pilot, app, parse_cards("3C JK 4C"))
        await pilot.press("m")
        assert isinstance(app.screen, ChoiceScreen)
        before = c.record()
        await pilot.press("x", "d", "t")  # the board's keys are off under a dialog
        await pilot.press("escape")
        assert app.message == "cancelled" and c.record() == before
        await pilot.press("m")
        await choose(pilot, app, 1)  # the joker high, as 5C
        melds = c.view().melds[0]
        assert [m.cards for m in melds] == [tuple(parse_cards("3C 4C JK"))]
        assert "JK(5)" in text_of(app, "#table")
        # two naturals added to a run in one go, by clicking the meld
        await click_cards(pilot, app, parse_cards("5H 6H 7H"))
        await pilot.press("m")
        await click_cards(pilot, app, parse_cards("9H 8H"))
        table = app.query_one(TableView)
        assert await pilot.click(TableView, offset=table.meld_offset(1))
        assert c.view().melds[0][1].cards == tuple(parse_cards("5H 6H 7H 8H 9H"))
        assert "2 ♥ 5 6 7 8 9  clean" in text_of(app, "#table")
        await click_cards(pilot, app, parse_cards("JS QS KS"))
        await pilot.press("m")
        # a wild added to a run: which meld (only those it fits: not the dirty meld 1),
        # then which end
        await click_cards(pilot, app, parse_cards("2D"))
        await pilot.press("a")
        assert isinstance(app.screen, ChoiceScreen)
        options = app.screen.query_one(OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert [line.split()[0] for line in shown] == ["2", "3"], shown
        await choose(pilot, app, 0)  # meld 2
        assert isinstance(app.screen, ChoiceScreen)  # low (as 4H) or high (as 10H)
        await choose(pilot, app, 1)
        assert c.view().melds[0][1].cards == tuple(parse_cards("5H 6H 7H 8H 9H 2D"))
        table_text = text_of(app, "#table")
        assert "2 ♥ 5 6 7 8 9 2♦(10)  dirty" in table_text
        # aberto has no wild moves: said at once, no dialog asking which run
        await pilot.press("w")
        assert not isinstance(app.screen, ChoiceScreen)
        assert app.message == "refused: wilds do not move in aberto (the wild_moves option is off)"


async def test_the_hint_key_typed_actions_and_the_log(tmp_path: Path) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        assert app.message == "hint: draw   (typed: draw)"
        # typed in the notation; keys that come before ':' is handled go to the command line
        await keys_at_once(pilot, app, ":draw")
        command = app.query_one("#command", Input)
        assert command.value == "draw" and command.has_focus
        assert c.view().phase == "draw"  # the 'd' did not draw
        await pilot.press("enter")
        assert "you: draw 10♥" in app.message
        assert command.value == "" and app.hand.has_focus
        # the log names the cards as the hand does
        shown = " ".join(text_of(app, "#log").split())
        assert "— hand 1 —" in shown and "you: draw 10♥" in shown and "TH" not in shown
        assert "10♥" in text_of(app, "#hand")
        await pilot.press("h")
        hint = c.hint()
        assert hint is not None and app.message.endswith(f"(typed: {hint})")
        if isinstance(hint, Meld | Discard):
            cards = hint.cards if isinstance(hint, Meld) else (hint.card,)
            assert sorted(app.hand.selected_cards()) == sorted(cards)
        assert c.view().phase == "play"  # a hint plays nothing


async def test_save_on_quit_and_resume_reproduce_the_position(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    c = Controller.new(make_rules("aberto", players=4), ["greedy"], seed=4, save_path=path)
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for _ in range(2):
            await perform(pilot, app, Draw())
            await click_cards(pilot, app, [app.hand.cards[0]])
            await pilot.press("x")
            await settle(pilot, app)
        await pilot.press("d")
        view = c.view().to_dict()
        screen = {w: text_of(app, w) for w in ("#hand", "#table", "#pile", "#status")}
        await pilot.press("q")  # asks first
        assert isinstance(app.screen, QuitScreen) and not path.exists()
        await pilot.press("escape")
        assert app.is_running and app.message == "go on playing"
        await pilot.press("q", "q")
    assert app.return_value == path
    saved = json.loads(path.read_text())
    assert saved["play"]["bots"] == ["greedy"] * 3
    again = Controller.resume(path)
    assert again.view().to_dict() == view
    app2 = PlayApp(again, pace=0)
    async with app2.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app2)
        for widget, text in screen.items():
            assert text_of(app2, widget) == text, widget
        assert "m meld" in app2.message  # the human goes on mid-turn
        card = app2.hand.cards[0]
        await click_cards(pilot, app2, [card])
        await pilot.press("x")
        await settle(pilot, app2)
        assert f"you: discard {CARD_NAMES[card]}" in again.view().log


async def test_the_end_of_the_match_shows_the_winner_and_the_hands(tmp_path: Path) -> None:
    c = Controller.new(short_rules(match_hands=1), ["greedy"], 2, tmp_path / "m.json")
    play_hand_directly(c)
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, HandOverScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MatchOverScreen)
        title = text_of(app, "#hand-title")
        totals = c.view().totals
        assert c.winner is not None
        assert ("You win" in title) == (c.winner == 0)
        assert all(str(t) in title for t in totals)
        hands = text_of(app, "#breakdown")
        assert re.search(r"\b1\b", hands) and "You" in hands and "Ana" in hands
        await pilot.press("enter")
    assert app.return_value == tmp_path / "m.json"


async def test_the_help_screen_has_the_keys_and_the_presets_rules(tmp_path: Path) -> None:
    c = Controller.new(make_rules("fechado", players=2), ["greedy"], 1, tmp_path / "m.json")
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = text_of(app, "#help-keys")
        assert "hint" in keys and "discard" in keys
        rules = text_of(app, "#help-rules")
        assert "Buraco Fechado" in rules and "The pile is closed: only its top card" in rules
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_the_bots_pace_is_adjustable_and_skippable(tmp_path: Path) -> None:
    c = stacked(tmp_path, players=4, hands=[HAND], stock="TH")
    app = PlayApp(c, pace=0.5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("plus")
        assert app.pace == 0.8 and "pace 0.8s" in text_of(app, "#title")
        await pilot.press("minus", "minus")
        assert app.pace == 0.25
        app.pace = 30.0  # a bot action every 30 seconds, unless skipped
        await pilot.press("d")
        await click_cards(pilot, app, parse_cards("9D"))
        await pilot.press("x")
        assert app.bots_running
        start = time.monotonic()
        await pilot.press("s")
        await settle(pilot, app)
        assert c.human_to_move and time.monotonic() - start < 10
        assert "your turn" in app.message


async def test_the_pile_shows_every_card_when_open_and_the_top_when_closed(
    tmp_path: Path,
) -> None:
    for preset, shown in (("aberto", 4), ("fechado", 1)):
        c = stacked(tmp_path, preset, hands=["AC 3C 4C", "AD 3D 4D"], stock="KS KH")
        for card in ("AC", "AD", "3C", "3D"):
            c.game.apply("draw", seat=c.game.to_move)
            c.game.apply(f"discard {card}", seat=c.game.to_move)
        app = PlayApp(c, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            pile = text_of(app, "#pile")
            assert "Pile 4" in pile
            assert sum(label in pile for label in ("A♣", "A♦", "3♣", "3♦")) == shown, pile
            assert "3♦" in pile  # the top card
            if preset == "aberto":  # a click on the pile takes it
                assert await pilot.click(PileView, offset=app.query_one(PileView).item_offset(PILE))
                assert c.view().log[-1] == "you: take-pile (AC AD 3C 3D)"
                log = " ".join(text_of(app, "#log").split())
                assert "you: take the pile (A♣ A♦ 3♣ 3♦)" in log


@pytest.mark.parametrize(("preset", "players", "sides"), [("italiano", 3, 3), ("us", 6, 3)])
async def test_three_sides_fit_an_80_by_24_terminal(
    tmp_path: Path, preset: str, players: int, sides: int
) -> None:
    c = Controller.new(make_rules(preset, players=players), ["greedy"], 3, tmp_path / "m.json")
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        table = app.query_one(TableView)
        assert len(table.sides_in_order()) == sides
        heads = [line for line in text_of(app, "#table").splitlines() if "table " in line]
        assert len(heads) == sides and heads[0].strip().startswith("You")
        for selector in ("#title", "#pile", "#status", "#log", "#hand", "#message", "#command"):
            region = app.screen.query_one(selector).region
            assert region.height >= 1 and region.right <= 80 and region.bottom <= 24, selector
        text = await screen_showing(pilot, app, ("Your hand", "Quit"))
        assert "Your hand" in text and "Quit" in text
        hand = app.hand
        assert hand.region.height >= len(hand.lay_out(hand.content_size.width).lines)


def _glyph_colours(svg: str, glyph: str) -> set[tuple[int, int, int]]:
    """The fill colours of the screenshot's text runs that hold ``glyph``."""
    fills = dict(re.findall(r"\.(terminal-[0-9a-z]+-r[0-9]+) \{ fill: #([0-9a-f]{6})", svg))
    runs = re.findall(r'<text class="([^"]+)"[^>]*>([^<]*)</text>', svg)
    return {
        tuple(int(fills[cls][i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[misc]
        for cls, text in runs
        if glyph in text and cls in fills
    }


async def test_no_color_draws_every_card_plain_and_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for no_color in (False, True):
        if no_color:
            monkeypatch.setenv("NO_COLOR", "1")
        c = stacked(tmp_path, hands=[HAND], stock="TH")
        app = PlayApp(c, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            svg = app.export_screenshot()
            hearts = _glyph_colours(svg, "♥")
            spades = _glyph_colours(svg, "♠")
            assert hearts and spades
            for r, g, b in hearts | spades:
                grey = max(r, g, b) - min(r, g, b) <= 8
                if no_color:  # grey, and light on the dark background
                    assert grey and min(r, g, b) >= 0x90, (r, g, b)
            if not no_color:  # hearts in red
                assert any(r > 2 * max(g, b) for r, g, b in hearts), hearts
            text = screen_text(app)
            assert "5♥" in text and "3♣" in text and "K♠" in text and "JK" in text


async def test_the_move_key_moves_a_wild_and_footer_keys_are_buttons(tmp_path: Path) -> None:
    c = stacked(tmp_path, "us", hands=["JK 5H 6H 7H AS AD AC KS QD 8S 3C"], stock="TH")
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        draw = (await footer_keys(pilot, app))["d"]
        assert await pilot.click(draw)  # the footer's keys are buttons
        assert c.view().phase == "play"
        await perform(pilot, app, Meld(tuple(parse_cards("JK 5H 6H 7H"))))
        assert "you: meld JK 5♥ 6♥ 7♥" in app.message
        assert "opening 50 owed" in text_of(app, "#table")
        assert "staged" in text_of(app, "#table")
        await click_cards(pilot, app, parse_cards("AS AD AC"))
        await pilot.press("m")
        await pilot.press("w")
        assert c.view().melds[0][0].cards == tuple(parse_cards("5H 6H 7H JK"))
        assert "JK(8)" in text_of(app, "#table")
        await pilot.press("w")  # once a turn
        assert app.message == "refused: a wild moves at most once a turn"


async def test_typed_actions_give_the_keys_back_and_the_next_hand_comes_after_esc(
    tmp_path: Path,
) -> None:
    # a short hand (a stock of 6) whose last action is the human's typed discard
    c = stacked(tmp_path, hands=[HAND], stock="TH", decks=1, pot_sizes="13,13", pot_to_stock=False)
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        command = app.query_one("#command", Input)
        typed = 0
        while not c.hand_over:
            assert c.human_to_move
            legal = c.view().legal
            action = next(a for a in legal if isinstance(a, Draw | Discard))
            await pilot.press("colon", *str(action), "enter")
            typed += 1
            if not c.hand_over:
                assert command.value == "" and app.hand.has_focus, app.focused
            await settle(pilot, app)
        assert typed >= 4 and isinstance(c.game.events[-1].action, Discard)
        assert c.game.events[-1].seat == 0  # the hand ended on a typed action
        assert isinstance(app.screen, HandOverScreen)
        await pilot.press("escape")  # look at the table first
        assert app.message.startswith("the hand is over: n for the next hand")
        app.pace = 30.0  # the bots wait: what the message says at the new hand shows
        await pilot.press("n")
        assert c.view().hand_number == 1 and not c.hand_over
        assert app.message == "hand 2 dealt"  # the last hand's message is gone
        assert app.hand.has_focus
        # quitting a match in progress asks first
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")
        assert app.is_running and app.message == "go on playing"
        assert not isinstance(app.screen, QuitScreen)
        await pilot.press("q", "y")
    assert app.return_value == c.save_path and c.save_path.exists()


async def test_bad_typed_actions_and_any_failure_are_answered_in_the_message_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        before = c.record()
        command = app.query_one("#command", Input)
        await pilot.press("colon")
        bad = ["add ² 3S", "move ² low", "add " + "9" * 5000 + " 3S", "x" * 10_000]
        for text in bad:
            command.value = text
            await pilot.press("enter")
            assert app.is_running and app.message.startswith("refused: "), app.message
            assert "\n" not in app.message and len(app.message) <= 1000
            assert command.has_focus and command.selection == (0, len(text))
        assert c.record() == before and not c.save_path.exists()

        # anything else that goes wrong in a handler: said, the match saved, the app goes on
        def broken(text: object) -> object:
            raise RuntimeError(f"parser broke on [bold]{text}[/] \x1b[2J")

        monkeypatch.setattr(c.game, "parse", broken)
        command.value = "draw"
        await pilot.press("enter")
        assert app.is_running
        assert app.message == (
            "error: RuntimeError: parser broke on [bold]draw[/] \\x1b[2J — the match is saved "
            f"to {c.save_path}"
        )
        assert Controller.resume(c.save_path).record()["hands"] == before["hands"]
        monkeypatch.undo()
        c.save_path.unlink()
        monkeypatch.setattr(c, "hint", lambda: 1 // 0)  # a key's handler
        await pilot.press("escape", "h")
        assert app.message.startswith("error: ZeroDivisionError: ") and c.save_path.exists()

        def refuse() -> None:  # the engine's own error, unforeseen by the handler: a refusal
            raise IllegalAction(Refusal("notation", {"text": "not now, [b]Ana[/b]\x07"}))

        monkeypatch.setattr(c, "hint", refuse)
        await pilot.press("h")
        assert app.message == "refused: not now, [b]Ana[/b]\\x07"
        monkeypatch.undo()
        # a bot that fails
        bot = c.bots[1]
        assert bot is not None
        monkeypatch.setattr(bot, "choose", lambda view, legal: [][0])
        await pilot.press("d")
        await click_cards(pilot, app, parse_cards("9D"))
        await pilot.press("x")
        await settle(pilot, app)
        assert app.is_running and app.message.startswith("error: IndexError: ")
        assert app.message.endswith(f"the match is saved to {c.save_path}")
        assert len(Controller.resume(c.save_path).record()["hands"][0]["actions"]) == 2


def test_every_handler_of_the_play_app_is_guarded() -> None:
    """Keys, clicks, the command line and dialogs' answers all run through ``guarded``."""
    handlers = [
        name
        for name, value in vars(PlayApp).items()
        if callable(value)
        and (name.startswith(("action_", "on_")) or name.endswith(("_closed", "_answered")))
    ]
    assert len(handlers) > 25
    # action_quit (Ctrl+Q) is Textual's own, made safe by save() catching everything
    unguarded = [n for n in handlers if not getattr(vars(PlayApp)[n], "guarded", False)]
    assert unguarded == ["action_quit"]


RAW = ("\x1b", "\x07", "\r", "\x9b")
"""Control characters that must never reach the terminal raw."""


async def test_names_and_typed_text_are_shown_as_written_never_as_markup(
    tmp_path: Path,
) -> None:
    c = Controller.new(make_rules("aberto", players=4), ["greedy"], 6, tmp_path / "m.json")
    # names as a record could bring them (the engine refuses control characters in new
    # games; the screen is safe on its own)
    c.game.names = ("You", "[bold red]x[/]", "[/]", "Bia\x1b[2J\x07\r\x9b")
    shown = ("[bold red]x[/]", "[/]", "Bia\\x1b[2J\\x07\\x0d\\x9b")
    play_hand_directly(c)
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, HandOverScreen)  # the sides' names in the breakdown
        breakdown = text_of(app, "#breakdown") + text_of(app, "#hand-title")
        assert all(name in " ".join(breakdown.split()) for name in shown), breakdown
        seen = [app.export_screenshot()]
        await pilot.press("escape")  # the board: status, melds' sides, log
        board = screen_text(app)
        assert "You & [/]" in board and f"{shown[0]} & {shown[2]}" in board, board
        status = " ".join(text_of(app, "#status").split())
        assert all(f"{name} " in status for name in shown), status
        log = " ".join(text_of(app, "#log").split())
        assert any(f"{name}:" in log for name in shown), log
        seen.append(app.export_screenshot())
        await pilot.press("r")  # the table of hands
        hands = " ".join(text_of(app, "#breakdown").split())
        assert all(name in hands for name in shown) and "You & [/] out" in hands, hands
        seen.append(app.export_screenshot())
        await pilot.press("escape", "colon")
        # typed or pasted control characters never get into the command line
        command = app.query_one("#command", Input)
        command.value = "draw\x1b[2J"
        app.post_message(events.Paste(" \x07[b]x[/b]\r"))
        await pilot.pause()
        assert command.value == "draw[2J [b]x[/b]"
        seen.append(app.export_screenshot())
        for svg in seen:
            assert not any(ch in svg for ch in RAW)


async def type_action(pilot: Pilot_, app: PlayApp, keys: str) -> None:
    """Type ``keys`` as a terminal sends them (the suit symbols too), then Enter."""
    await keys_at_once(pilot, app, keys)
    await pilot.press("enter")


async def test_typed_cards_may_have_the_boards_suit_symbols_and_a_leading_colon(
    tmp_path: Path,
) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("colon", *"draw", "enter")
        assert c.view().phase == "play"
        command = app.query_one("#command", Input)
        # a card that is none with its suit's letter either is quoted as typed
        await type_action(pilot, app, ":meld 5♥ 6♥ 1♥")
        assert app.message.startswith("refused: unknown card '1♥': a card is a rank")
        assert command.has_focus and command.selection == (0, len(command.value))
        # ':' typed again over the refused action, out of habit, then the cards as shown
        await type_action(pilot, app, ":meld 5♥ 6♥ 7♥")
        assert app.message.startswith("you: meld 5♥ 6♥ 7♥"), app.message
        assert app.hand.has_focus and command.value == ""
        view = c.view()
        assert [m.cards for m in view.melds[view.side]] == [tuple(parse_cards("5H 6H 7H"))]
        # the ten as the board writes it, with its suit's symbol, in an add
        await type_action(pilot, app, ":add 1 8♥")
        await type_action(pilot, app, ": :: add 1 9♥ ")
        await type_action(pilot, app, ":add 1 10♥")
        assert app.message.startswith("you: 10♥ on meld 1"), app.message
        view = c.view()
        assert view.melds[view.side][0].cards == tuple(parse_cards("5H 6H 7H 8H 9H TH"))


def message_lines(app: PlayApp) -> list[str]:
    """The message bar's lines as the screen shows them, padding and all."""
    bar = app.screen.query_one("#message")
    size = bar.outer_size
    return [strip.text.rstrip() for strip in bar.render_lines(Region(0, 0, *size))]


async def test_a_long_refusal_is_read_whole_at_80_columns(tmp_path: Path) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("colon", *"discard 1C", "enter")
        shown = message_lines(app)
        assert len(shown) == 2 and all(len(line) <= 79 for line in shown), shown
        assert " ".join(" ".join(shown).split()) == app.message
        assert "followed by a suit (C D H S)" in " ".join(shown) and "JK" in shown[-1]
        # the command line and the keys are still on screen below it
        screen = await screen_showing(pilot, app, ("discard 1C", "Help"))
        assert "discard 1C" in screen and "Help" in screen
        # a short message takes one line again; one longer than the bar ends in '…'
        await pilot.press("escape", "d")
        assert len(message_lines(app)) == 1
        app.say("refused: " + "x " * 1000, "error")
        await pilot.pause()
        shown = message_lines(app)
        assert len(shown) == MESSAGE_LINES and shown[-1].endswith("…"), shown
