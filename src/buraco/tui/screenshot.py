"""The README's screenshot of a game in progress: ``python -m buraco.tui.screenshot [FILE]``.

A seeded match is played for some turns (the human's moves are the heuristic
bot's hints), the human draws and asks for a hint (its cards are selected), and
Textual's SVG screenshot of the 80×24 screen is written (default
``docs/play.svg``).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from buraco.actions import Meld
from buraco.rules import make_rules
from buraco.tui.app import PlayApp
from buraco.tui.controller import Controller


def advance(c: Controller, human_turns: int) -> None:
    """Play on: the bots as usual, the human by the hints, for ``human_turns`` turns."""
    turns = 0
    while not c.hand_over:
        turn = c.bot_turn()
        if turn is not None:
            seat, bot, view, legal = turn
            c.apply_bot(seat, bot.choose(view, legal))
            continue
        if c.view().phase == "draw":
            if turns == human_turns:
                return
            turns += 1
        hint = c.hint()
        assert hint is not None
        c.play(hint)


async def shoot(path: Path, seed: int = 51, human_turns: int = 3) -> None:
    """Write the screenshot to ``path``."""
    c = Controller.new(make_rules("aberto", players=4), ["heuristic"], seed, Path("/dev/null"))
    advance(c, human_turns)
    app = PlayApp(c, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("d")
        hint = c.hint()
        await pilot.press("h")
        if isinstance(hint, Meld):
            app.say(f"hint: {hint} — press m to meld the selected cards", "hint")
        await pilot.pause()
        app.save_screenshot(path.name, str(path.parent))


def main() -> None:
    """Command-line entry: the output file is the only argument."""
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/play.svg")
    asyncio.run(shoot(path))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
