"""``buraco replay FILE --watch``: stepping through a record on the board."""

import re
from pathlib import Path
from typing import Any

from textual.geometry import Region

from buraco import Game
from buraco.actions import parse_action
from buraco.bots import make_bot, play_match
from buraco.record import load, record_of, save
from buraco.tui.help import HelpScreen
from buraco.tui.render import action_text
from buraco.tui.results import HandOverScreen
from buraco.tui.watch import Stepper, WatchApp
from tui.driver import short_rules


def two_hands(tmp_path: Path) -> Path:
    game = Game(short_rules(match_hands=2), seed=5, names=["Ana", "Bia"])
    play_match(game, [make_bot("greedy", seed=1), make_bot("greedy", seed=2)])
    assert len(game.results) == 2
    path = tmp_path / "two.json"
    save(game, path)
    return path


def text_of(app: WatchApp, selector: str) -> str:
    widget = app.screen.query_one(selector)
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(strip.text.rstrip() for strip in strips)


def test_stepping_back_and_forth_gives_the_same_positions(tmp_path: Path) -> None:
    data: dict[str, Any] = load(two_hands(tmp_path))
    st = Stepper(data)
    seen = []
    while True:
        seen.append((st.hand, st.done, st.view(0).to_dict()))
        if not st.forward():
            break
    assert st.at_end and st.game.is_hand_over() and len(st.game.results) == 2
    assert len(seen) == sum(len(h["actions"]) for h in data["hands"]) + 2
    for hand, done, view in reversed(seen[:-1]):
        assert st.back()
        assert (st.hand, st.done) == (hand, done)
        assert st.view(0).to_dict() == view
    assert not st.back()
    assert st.last_action() == "hand 1 dealt"


async def test_the_watcher_steps_with_the_keys(tmp_path: Path) -> None:
    data = load(two_hands(tmp_path))
    first = data["hands"][0]["actions"]
    app = WatchApp(data)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.position == (0, 0)
        assert "hand 1/2 · action 0/" in text_of(app, "#message")
        await pilot.press("right", "right", "space")
        assert app.position == (0, 3)
        seat, text = first[2]
        shown = action_text(parse_action(text))  # in words, cards named as in the hand
        assert f"{['Ana', 'Bia'][seat]}: {shown}" in text_of(app, "#message")
        await pilot.press("left")
        assert app.position == (0, 2)
        assert "Ana's hand" in text_of(app, "#hand")
        await pilot.press("tab")
        assert "Bia's hand" in text_of(app, "#hand") and app.seat == 1
        await pilot.press("n")
        assert app.position == (1, 0) and "hand 2/2" in text_of(app, "#message")
        await pilot.press("end")
        assert app.stepper.at_end and "end of the record" in text_of(app, "#message")
        await pilot.press("r")
        assert isinstance(app.screen, HandOverScreen)
        await pilot.press("escape")
        await pilot.press("p")
        assert app.position == (1, 0)
        await pilot.press("home")
        assert app.position == (0, 0)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "q")
    assert app.return_code == 0


async def test_auto_play_runs_to_the_end_at_its_pace(tmp_path: Path) -> None:
    data = load(two_hands(tmp_path))
    app = WatchApp(data, pace=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        for _ in range(500):
            await pilot.pause()
            if app.stepper.at_end:
                break
        assert app.stepper.at_end


async def test_the_watcher_shows_names_and_cards_as_the_board_does(tmp_path: Path) -> None:
    game = Game(short_rules(match_hands=1), seed=5, names=["[bold red]x[/]", "[/]"])
    play_match(game, [make_bot("greedy", seed=1), make_bot("greedy", seed=2)])
    data = load(record_of(game))
    app = WatchApp(data)
    async with app.run_test(size=(80, 24)) as pilot:
        # names a record cannot hold (control characters), set on the game directly
        app.stepper.game.names = ("[bold red]x[/]", "[/]\x1b[2J\x07\r")
        await pilot.press("right", "right")
        seat = data["hands"][0]["actions"][1][0]
        name = ["[bold red]x[/]", "[/]\\x1b[2J\\x07\\x0d"][seat]
        message = text_of(app, "#message")
        assert f"{name}: " in message, message
        assert "[bold red]x[/]'s hand" in text_of(app, "#hand")
        assert "watching [bold red]x[/]" in text_of(app, "#title")
        await pilot.press("tab")
        assert "watching [/]\\x1b[2J\\x07\\x0d" in text_of(app, "#title")
        assert "[/]\\x1b[2J\\x07\\x0d's hand" in text_of(app, "#hand")
        svg = app.export_screenshot()
        assert not any(ch in svg for ch in ("\x1b", "\x07", "\r"))
        await pilot.press("end")  # the record replayed again: its own names
        log = " ".join(text_of(app, "#log").split())
        assert re.findall(r"\b[A2-9TJQK][CDHS]\b", log) == [], log  # 10♦, not TD, as the hand
        assert any(suit in log for suit in "♣♦♥♠") and "[bold red]x[/]: " in log


async def test_the_watcher_says_a_single_hand_is_no_match_and_saves_nothing(
    tmp_path: Path,
) -> None:
    game = Game(short_rules(), seed=5, names=["Ana", "Bia"], match=False)
    play_match(game, [make_bot("greedy", seed=1), make_bot("greedy", seed=2)])
    app = WatchApp(load(record_of(game)))
    async with app.run_test(size=(80, 24)) as pilot:
        status = text_of(app, "#status")
        assert "Single hand" in status and "Match" not in status, status
        await pilot.press("end", "r")
        assert isinstance(app.screen, HandOverScreen)
        foot = text_of(app, "#foot")
        assert "saved" not in foot and "q: quit the replay" in foot, foot
    match = WatchApp(load(two_hands(tmp_path)))
    async with match.run_test(size=(80, 24)):
        assert "Match of 2 hands" in text_of(match, "#status")
