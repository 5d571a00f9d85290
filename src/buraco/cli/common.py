"""Helpers shared by the commands: option parsing, rules, error exits, progress bars."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from buraco.i18n import LANGUAGES, from_environment, language_of
from buraco.rules import Rules, coerce_option, make_rules
from buraco.text import safe

# markup off: text from users (names, options, actions, paths) is printed as it is written;
# styles come from Text objects
console = Console(highlight=False, markup=False)
err_console = Console(stderr=True, highlight=False, markup=False)


def printable(text: object) -> str:
    r"""Text made safe for a terminal: every control character shown as an escape.

    >>> printable("Ana\x1b[2J\tBia [bold]")
    'Ana\\x1b[2J\\x09Bia [bold]'
    """
    return safe(str(text))


def styled(*parts: str | tuple[str, str]) -> Text:
    """A line of parts, each plain (made printable) or ``(text, style)``."""
    out = Text()
    for part in parts:
        if isinstance(part, tuple):
            out.append(printable(part[0]), style=part[1])
        else:
            out.append(printable(part))
    return out


def say(*parts: str | tuple[str, str], err: bool = False) -> None:
    """Print one line of parts (see :func:`styled`), never wrapped."""
    (err_console if err else console).print(styled(*parts), soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one error line (user text escaped, never wrapped) and exit with ``code``."""
    say(("error:", "bold red"), " ", message, err=True)
    raise typer.Exit(code)


def progress_bar(disable: bool, auto_refresh: bool = True) -> Progress:
    """A transient bar with a count and the time elapsed, on the standard console."""
    return Progress(
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=disable,
        auto_refresh=auto_refresh,
    )


def check_range(flag: str, value: float, low: float, high: float) -> None:
    """Exit with an error unless ``low <= value <= high`` (a NaN is never in range)."""
    if not low <= value <= high:
        fail(f"{flag} must be from {_number(low)} to {_number(high)}, not {_number(value)}")


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def check_seed(flag: str, seed: int | None, games: int = 1) -> None:
    """Exit with an error unless ``seed`` (and the ``games - 1`` seeds after it) fit a game."""
    from buraco.game import MAX_SEED

    if seed is not None and not 0 <= seed <= MAX_SEED - (games - 1):
        fail(f"{flag} must be a whole number from 0 to {MAX_SEED - (games - 1)}, not {seed}")


def output_dir(flag: str, path: Path) -> Path:
    """Create the directory ``path`` (and its parents), or exit saying why it cannot be."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        if isinstance(exc, FileExistsError):
            reason = "a file of that name is in the way"
        fail(f"{flag} {str(path)!r}: cannot create the directory ({reason})")
    return path


def bot_specs(flag: str, text: str, seats: int | None = None) -> list[str]:
    """Bot specs from a comma-separated list, each checked; exits naming a bad one."""
    from buraco.bots import BOTS, make_bot, split_specs

    specs = split_specs(text)
    if not text.strip() or any(not s.strip() for s in specs):
        fail(f"{flag} {text!r}: name a bot between every pair of commas ({', '.join(BOTS)})")
    if seats is not None and len(specs) != seats:
        fail(f"{flag} names {len(specs)} bots but there are {seats} seats")
    for spec in specs:
        make_bot(spec)
    return specs


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``key=value`` strings into a dict (values stay strings; the rules check them)."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            fail(f"--option {pair!r}: write it as name=value, e.g. --option target=2000")
        if key.strip() in out:
            fail(f"--option {key.strip()!r} is given twice; give each option once")
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
LANG_HELP = (
    "the board's language: en, pt-BR, es or it (default: as the terminal's locale asks, "
    "LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en)"
)


def board_language(flag: str, value: str | None) -> str:
    """The language of the terminal's board: ``value`` when given, else the locale's."""
    if value is None:
        return from_environment(os.environ)
    tag = language_of(value)
    if tag is None:
        offered = ", ".join(LANGUAGES)
        fail(f"{flag} {printable(value[:40])!r}: not a language offered; give one of {offered}")
    return tag


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
