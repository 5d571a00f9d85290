"""The Typer application and its entry point."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from buraco.cli import bench, play, replay, review, rules, serve, simulate, tournament, verify
from buraco.cli.arena import arena
from buraco.cli.common import say
from buraco.cli.loadtest import loadtest


class _OneLineErrors(TyperGroup):
    """The command group, printing usage errors as one ``error:`` line.

    An unknown option or a value of the wrong type reads like every other error, not
    as a box over several lines.
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command; in standalone mode, exit with its status."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            status = super().main(
                args, prog_name, complete_var, False, windows_expand_args, **extra
            )
        except typer.Abort:
            say(("aborted", "bold red"), err=True)
            sys.exit(1)
        except typer.TyperException as exc:  # a usage error
            message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
            if message.strip():  # no message: the help was asked for by giving no arguments
                ctx = getattr(exc, "ctx", None)
                where = ctx.command_path if ctx is not None else self.command_path(args)
                say(("error:", "bold red"), f" {message} (see '{where} --help')", err=True)
            sys.exit(getattr(exc, "exit_code", 2))
        sys.exit(status if isinstance(status, int) else 0)

    def command_path(self, args: Sequence[str] | None) -> str:
        """The command the arguments name (``buraco tournament result``), for a help pointer."""
        path: list[str] = ["buraco"]
        group: object = self
        for arg in sys.argv[1:] if args is None else args:
            sub = group.commands.get(arg) if isinstance(group, TyperGroup) else None
            if sub is None:
                break
            path.append(arg)
            group = sub
        return " ".join(path)


app = typer.Typer(
    name="buraco",
    cls=_OneLineErrors,
    help="Buraco (Burraco): rules, simulation, game records, benchmarks and play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)


def _version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        say(f"buraco {version('buraco')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="print the version and exit"
        ),
    ] = False,
) -> None:
    """Buraco (Burraco): rules, simulation, game records, benchmarks and play."""


app.command("rules")(rules.rules)
app.command("simulate")(simulate.simulate)
app.command("replay")(replay.replay)
app.command("review")(review.review)
app.command("bench")(bench.bench)
app.command("arena")(arena)
app.command("play")(play.play)
app.command("verify")(verify.verify)
app.command("serve")(serve.serve)
app.command("loadtest")(loadtest)
app.add_typer(tournament.app, name="tournament")


def main() -> None:
    """Console-script entry point."""
    app()
