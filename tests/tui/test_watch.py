"""``buraco replay FILE --watch``: stepping through a record on the board."""

from pathlib import Path
from typing import Any

from textual.geometry import Region

from buraco import Game
from buraco.bots import make_bot, play_match
from buraco.record import load, save
from buraco.tui.help import HelpScreen
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
        assert f"{['Ana', 'Bia'][seat]}: {text}" in text_of(app, "#message")
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
