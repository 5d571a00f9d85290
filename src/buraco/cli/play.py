"""``buraco play``: a match in the terminal against bots (the human sits at seat 0)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from buraco.bots import BOTS
from buraco.cli.common import (
    LANG_HELP,
    OPTION_HELP,
    board_language,
    bot_specs,
    build_rules,
    check_range,
    check_seed,
    fail,
    say,
    user_errors,
)
from buraco.errors import RecordError
from buraco.tui import words
from buraco.tui.app import PlayApp
from buraco.tui.controller import Controller

MAX_PACE = 60.0
"""The longest pause between the bots' actions, in seconds."""


def need_terminal(command: str, instead: str) -> None:
    """Exit with a one-line error unless the keys and the screen are a terminal's.

    The board reads the keys from standard input and is drawn on standard error (standard
    output only gets the closing line); without a terminal there, it would wait for keys
    that never come. ``instead`` says what to use without a terminal.
    """
    missing = [
        name
        for name, stream in (("standard input", sys.stdin), ("standard error", sys.stderr))
        if stream is None or not stream.isatty()
    ]
    if missing:
        fail(
            f"{command} needs a terminal (it reads the keys from standard input and draws "
            f"on standard error), and {' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not one; {instead}"
        )


WITHOUT_TERMINAL = "without one, buraco simulate or buraco arena plays bots against each other"
"""What ``buraco play`` points to when there is no terminal."""


def farewell(controller: Controller, saved: Path) -> str:
    """The line printed after the game: where the match is saved, and what goes on from it."""
    if controller.match_over:
        return (
            f"match over, saved to {saved}; watch it again with: buraco replay {saved} --watch; "
            f"review your decisions with: buraco review {saved} --seat 0 --quick"
        )
    return f"match saved to {saved}; go on with: buraco play --resume {saved}"


def make_app(
    preset: str | None = None,
    players: int | None = None,
    bots: str | None = None,
    seed: int | None = None,
    pace: float = 0.5,
    resume: Path | None = None,
    save: Path | None = None,
    option: list[str] | None = None,
    lang: str | None = None,
) -> PlayApp:
    """The app for these command-line values; bad input exits with a one-line error."""
    check_range("--pace", pace, 0, MAX_PACE)
    language = board_language("--lang", lang)
    words.use(language)  # the human's seat is named in it
    check_seed("--seed", seed)
    if save is not None and (not save.parent.is_dir() or save.is_dir()):
        fail(f"--save {str(save)!r}: not a file in an existing directory")
    with user_errors():
        specs = bot_specs("--bots", bots) if bots is not None else None
        if resume is not None:
            if preset is not None or players is not None or option or seed is not None:
                fail(
                    "--resume takes the rules, players and seed from the file; "
                    "drop --preset, --players, --seed and --option"
                )
            try:
                controller = Controller.resume(resume, specs, save)
            except RecordError as exc:
                fail(f"cannot resume {str(resume)!r}: {exc}")
        else:
            rules = build_rules(preset or "aberto", players, option)
            controller = Controller.new(rules, specs or ["heuristic"], seed, save)
    return PlayApp(controller, pace=pace, lang=language)


def play(
    preset: Annotated[
        str | None,
        typer.Option(help="rule preset: aberto (default), fechado, us, netcartas or italiano"),
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="players at the table (as the preset allows: 2, 3, 4, 6)")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="the bots, one for every seat or one per seat after yours, comma-separated: "
            + ", ".join(BOTS)
            + " (default heuristic)"
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="seed of the deals and the bots (default: random)")
    ] = None,
    pace: Annotated[
        float, typer.Option(help="seconds between the bots' actions (0 = instant)")
    ] = 0.5,
    resume: Annotated[
        Path | None, typer.Option(help="go on with a match saved by an earlier game")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="where to save the match (default buraco-PRESET-SEED.json, or FILE)"),
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Play a whole match in the terminal against bots; you sit at seat 0.

    The match is saved as a game record when you quit; --resume FILE goes on.
    Press ? in the game for the keys and the rules. It needs a terminal.
    """
    app = make_app(preset, players, bots, seed, pace, resume, save, option, lang)
    need_terminal("buraco play", WITHOUT_TERMINAL)
    saved = app.run()
    if saved is not None:
        say(farewell(app.controller, saved))
