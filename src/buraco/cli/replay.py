"""``buraco replay FILE``: check a game record action by action."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from buraco.cli.common import LANG_HELP, board_language, console, fail, say, styled
from buraco.errors import RecordError
from buraco.game import Game
from buraco.record import ReplayError, load
from buraco.replays import replay as replay_record


def replay(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    json_out: Annotated[bool, typer.Option("--json", help="print the outcome as JSON")] = False,
    watch: Annotated[
        bool, typer.Option("--watch", help="step through the record on the board in the terminal")
    ] = False,
    seat: Annotated[
        int | None, typer.Option(help="with --watch: the seat watched first (default 0)")
    ] = None,
    lang: Annotated[str | None, typer.Option(help="with --watch: " + LANG_HELP)] = None,
) -> None:
    """Replay a record, checking every action; print the final state and scores.

    Exits 1 at the first illegal action (saying which and why), 2 for a malformed record.
    With --watch, step through it instead (arrows, Tab for another seat, ? for the keys).
    """
    if watch and json_out:
        fail("--watch and --json do not go together; give one")
    if seat is not None and not watch:
        fail("--seat is for --watch: the seat watched first")
    if lang is not None and not watch:
        fail("--lang is for --watch: the board's language")
    language = board_language("--lang", lang)
    seat = 0 if seat is None else seat
    try:
        game = replay_record(file)
    except ReplayError as exc:
        if json_out:
            console.print_json(
                json.dumps(
                    {
                        "ok": False,
                        "hand": exc.hand + 1,
                        "action": exc.index + 1,
                        "seat": exc.seat,
                        "text": exc.action,
                        "reason": exc.reason,
                    }
                )
            )
        else:
            say(
                ("illegal action", "bold red"),
                f" in hand {exc.hand + 1}, action {exc.index + 1} "
                f"(seat {exc.seat}: {exc.action[:100]!r}): {exc.reason}",
                err=True,
            )
        raise typer.Exit(1) from None
    except RecordError as exc:
        if json_out:
            console.print_json(json.dumps({"ok": False, "error": str(exc)}))
        else:
            fail(str(exc))
        raise typer.Exit(2) from None
    if watch:
        if not 0 <= seat < game.players:
            fail(f"--seat must be a seat from 0 to {game.players - 1}, not {seat}")
        from buraco.cli.play import need_terminal
        from buraco.tui.watch import WatchApp

        need_terminal(
            "buraco replay --watch",
            "without one, buraco replay FILE (no --watch) checks the record and prints its scores",
        )
        WatchApp(load(file), seat=seat, lang=language).run()
    elif json_out:
        console.print_json(json.dumps(outcome(game)))
    else:
        show(game)


def outcome(game: Game) -> dict[str, Any]:
    """The replayed game's results as a JSON-friendly dict."""
    return {
        "ok": True,
        "preset": game.rules.preset,
        "players": game.players,
        "hands": [r.as_dict() for r in game.results],
        "hand_over": game.is_hand_over(),
        "totals": list(game.totals),
        "winner": game.winner,
        "actions": sum(1 for events in game.hand_events for e in events if e.action),
    }


def show(game: Game) -> None:
    """Print the final state of a replayed game and its scores."""
    r = game.rules
    n_actions = sum(1 for events in game.hand_events for e in events if e.action)
    say(
        ("record replays", "green"),
        f": {r.preset}, {game.players} players, "
        f"{len(game.deals)} hand(s), {n_actions} actions, all legal.",
    )
    for side in range(game.k):
        seats = ", ".join(game.names[s] for s in r.seats_of(side))
        melds = "; ".join(m.describe() for m in game.melds[side]) or "no melds"
        console.print(styled(f"side {side} ({seats}): {melds}"))
    if not game.is_hand_over():
        say(
            f"the last hand is not over: {game.names[game.turn]} to "
            f"{game.phase.name.lower().replace('_', '-')}"
        )
    if game.results:
        table = Table(title="scores")
        table.add_column("hand", justify="right")
        table.add_column("side", justify="right")
        for col in ("melds", "bonuses", "hand", "morto", "going out", "cut", "total", "match"):
            table.add_column(col, justify="right")
        for res in game.results:
            for sc in res.scores:
                table.add_row(
                    str(res.number + 1),
                    str(sc.side),
                    str(sc.melds),
                    str(sc.bonuses),
                    str(sc.hand),
                    str(sc.pot),
                    str(sc.going_out),
                    str(sc.cut),
                    str(sc.total),
                    str(res.totals[sc.side]),
                )
        console.print(table)
    if game.winner is not None:
        say((f"side {game.winner} wins the match", "bold"), f" with {game.totals[game.winner]}")
