"""The Typer application and its entry point."""

from __future__ import annotations

import typer

from buraco.cli import bench, play, replay, rules, simulate
from buraco.cli.arena import arena

app = typer.Typer(
    name="buraco",
    help="Buraco (Burraco): rules, simulation, game records, benchmarks and play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)
app.command("rules")(rules.rules)
app.command("simulate")(simulate.simulate)
app.command("replay")(replay.replay)
app.command("bench")(bench.bench)
app.command("arena")(arena)
app.command("play")(play.play)


def main() -> None:
    """Console-script entry point."""
    app()
