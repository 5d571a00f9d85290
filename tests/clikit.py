"""The command line run in-process by typer's test runner, its command built once per app.

typer's :class:`typer.testing.CliRunner` builds the click command of the whole app at
every ``invoke`` (reading every command's annotations: some 0.1 s), which made a test of
some 700 replays spend most of its time on it. Importing this module makes the runner
build each app's command once; a test imports ``CliRunner`` from here.
"""

from __future__ import annotations

from typing import Any

import typer
import typer.testing
from typer.main import get_command
from typer.testing import CliRunner

__all__ = ["CliRunner", "command_of"]

# typer's own click (vendored in newer releases), so the command is left untyped here
_commands: dict[int, tuple[typer.Typer, Any]] = {}


def command_of(app: typer.Typer) -> Any:
    """The click command of ``app``, built the first time it is asked for."""
    got = _commands.get(id(app))
    if got is None or got[0] is not app:
        got = _commands[id(app)] = (app, get_command(app))
    return got[1]


# the runner looks the builder up in its module at each invoke
typer.testing._get_command = command_of  # type: ignore[attr-defined, assignment]
