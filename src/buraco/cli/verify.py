"""``buraco verify FILE``: check that every hand of an online game was dealt fairly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from buraco.cli.common import console, fail, say
from buraco.errors import RecordError
from buraco.fairness import verify as verify_hands
from buraco.record import ReplayError, load
from buraco.replays import replay


def verify(
    file: Annotated[Path, typer.Argument(help="a game record downloaded from a server (JSON)")],
    json_out: Annotated[bool, typer.Option("--json", help="print the outcome as JSON")] = False,
) -> None:
    """Check each hand's deal commitment (SHA-256 of salt, deck and cut) and replay the record.

    Exits 0 when every hand's commitment matches and every action is legal, 1 when one
    does not, 2 for a malformed record. See docs/online.md, "Provably fair deals".
    """
    try:
        data = load(file)
        replay(data)
    except ReplayError as exc:
        _refuse(f"the record does not replay: {exc}", 1, json_out)
    except RecordError as exc:
        _refuse(str(exc), 2, json_out)
    checks = verify_hands(data)
    ok = all(c.ok for c in checks)
    if json_out:
        console.print_json(
            json.dumps(
                {
                    "ok": ok,
                    "hands": [{"hand": c.hand, "ok": c.ok, "message": c.message} for c in checks],
                }
            )
        )
    else:
        for c in checks:
            say(
                f"hand {c.hand}: ",
                ("ok" if c.ok else "FAILED", "green" if c.ok else "bold red"),
                f" {c.message}",
            )
        total = len(checks)
        passed = sum(c.ok for c in checks)
        say(f"{passed} of {total} hands verified; every action replays legally")
    if not ok:
        raise typer.Exit(1)


def _refuse(message: str, code: int, json_out: bool) -> NoReturn:
    """Exit ``code`` saying why: an error line, or ``{"ok": false, "error": ...}`` with --json."""
    if json_out:
        console.print_json(json.dumps({"ok": False, "error": message}))
        raise typer.Exit(code)
    fail(message, code)
