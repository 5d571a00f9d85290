"""``buraco rules [PRESET]``: the presets, or one preset's rules and options."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from buraco.cli.common import OPTION_HELP, build_rules, console, say, styled, user_errors
from buraco.rules import PRESETS, describe

_SUMMARY = {
    "aberto": "runs only; open pile always taken whole; clean canastra, morto and a final "
    "discard to go out; 75 to open once vulnerable",
    "fechado": "sets of any rank too; closed pile, taken only to meld its top card; any "
    "canastra to go out; a canastra of 2s scores 1000",
    "us": "sets of J Q K A; initial meld 50/75 (+15 after a failed try); wilds may move; "
    "pot kept hidden until the partner has played; target 2000",
    "netcartas": "104 cards, no jokers; sets of any rank; half royal 500, royal 1000; the "
    "hand ends when the stock runs out",
    "italiano": "one card turned up; sets of any rank but 2s; the taken top card may not be "
    "discarded; final discard not wild; ends with 2 cards in the stock; 3 players",
}


def rules(
    preset: Annotated[str | None, typer.Argument(help="a preset to describe")] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
) -> None:
    """List the presets, or show one preset's rules and every option's value."""
    with user_errors():
        if preset is None:
            table = Table(title="Buraco presets", show_lines=False)
            table.add_column("preset", style="bold")
            table.add_column("players")
            table.add_column("source")
            table.add_column("in short")
            for name, spec in PRESETS.items():
                table.add_row(name, ", ".join(map(str, spec.players)), spec.source, _SUMMARY[name])
            console.print(table)
            say(
                "Show one with ",
                ("buraco rules PRESET", "bold"),
                " (options: --players N, --option name=value).",
            )
            return
        r = build_rules(preset, players, option)
        spec = PRESETS[preset]
        say((spec.title, "bold"), " — preset ", (preset, "bold"), f", source {spec.source}")
        console.print(
            f"{r.players} players in {r.sides} sides; {r.deck_size} cards; {_SUMMARY[preset]}."
        )
        table = Table(show_lines=False)
        table.add_column("option", style="bold")
        table.add_column("value")
        table.add_column("meaning")
        changed = set(r.overrides())
        for name, value, meaning in describe(r):
            cell = styled(value, (" (changed)", "yellow") if name in changed else "")
            table.add_row(name, cell, meaning)
        console.print(table)
