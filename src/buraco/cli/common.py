"""Helpers shared by the commands: option parsing, rules, error exits, progress bars."""

from __future__ import annotations

from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from buraco.rules import Rules, coerce_option, make_rules

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print an error line and exit with ``code``."""
    err_console.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(code)


def progress_bar(disable: bool, auto_refresh: bool = True) -> Progress:
    """A transient bar with a count and the time elapsed, on the standard console."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=disable,
        auto_refresh=auto_refresh,
    )


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``key=value`` strings into a dict (values stay strings; the rules check them)."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            fail(f"--option {pair!r}: write it as name=value, e.g. --option target=2000")
        out[key.strip()] = value.strip()
    return out


def build_rules(preset: str, players: int | None, options: list[str] | None) -> Rules:
    """Rules from command-line values (errors exit with a message)."""
    opts = parse_options(options)
    if "players" in opts:
        value = opts.pop("players")
        if players is not None and str(players) != value:
            fail(f"--players {players} and --option players={value} disagree; give one")
        players = coerce_option("players", value)
    return make_rules(preset, players=players, **opts)


PRESET_HELP = "rule preset: aberto, fechado, us, netcartas or italiano"
OPTION_HELP = "override a rule option, as name=value (repeatable); see 'buraco rules PRESET'"


class user_errors:
    """Turn engine and value errors raised inside the block into an error line and exit 2."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: object
    ) -> None:
        from buraco.errors import BuracoError

        if exc is not None and isinstance(exc, BuracoError | ValueError):
            fail(str(exc))
