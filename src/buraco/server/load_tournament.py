"""A tournament of bots at scale, for ``buraco loadtest --tournament``.

Over the REST API of server processes already running (the command starts them): a
director makes a tournament of ``2 × tables`` entries of bots (tables of four), starts it
at the first process and times how long the first turn takes to be made and seated
(every table dealt, as the other process reads the database). ``kill`` (the command's:
SIGKILL to the first process, then starting it again) is called ``kill_after`` seconds
into the first turn; the other process takes the killed one's tables up when their
leases run out. At the end the standings are checked: every table of every turn has its
result, each table's VP share 20, the standings hold every VP handed out, and every
entrant played every turn. See docs/tournaments.md#scale.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import httpx

TIMEOUT = 3600.0
"""Seconds a tournament may take before the run gives up."""


class TournamentLoadError(RuntimeError):
    """The tournament was refused, or did not end as it should (the message says how)."""


def run_tournament(
    bases: list[str],
    tables: int,
    *,
    turns: int = 2,
    bot: str = "greedy",
    pace: float = 0.5,
    kill_after: float | None = None,
    kill: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Run a tournament of bots over ``bases`` (two servers on one database); its figures."""
    first, other = bases[0], bases[-1]
    client = httpx.Client(timeout=60)
    out: dict[str, Any] = {"tables": tables, "entries": 2 * tables, "turns": turns, "bot": bot}
    with client:
        r = client.post(f"{first}/api/guests", json={"name": f"Director {os.getpid()}"})
        r.raise_for_status()
        cookie = {"cookie": f"buraco_guest={r.cookies['buraco_guest']}"}
        body = {"name": "Load", "preset": "italiano", "players": 4, "pace": pace,
                "movements": ["mitchell"] * turns, "hands": 3, "break_seconds": 5}  # fmt: skip
        answer = client.post(f"{first}/api/tournaments", json=body, headers=cookie)
        if answer.status_code != 201:
            raise TournamentLoadError(f"the tournament was refused: {answer.text[:300]}")
        tid = answer.json()["tournament"]["id"]
        t0 = time.perf_counter()
        client.post(
            f"{first}/api/tournaments/{tid}/bots",
            json={"count": 2 * tables, "bot": bot},
            headers=cookie,
        ).raise_for_status()
        out["entries_added_s"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        r = client.post(f"{first}/api/tournaments/{tid}/start", headers=cookie)
        r.raise_for_status()
        out["turn_made_and_seated_s"] = round(time.perf_counter() - t0, 2)
        made = [x["table_id"] for x in r.json()["turns"][0]["tables"] if x["table_id"]]
        out["turn_tables"] = len(made)
        dealt = 0
        while dealt < len(made) and time.perf_counter() - t0 < 120:
            seen = client.get(f"{other}/api/tournaments/{tid}").json()["turns"][0]["tables"]
            dealt = sum(x["status"] in ("playing", "over") for x in seen if x["table_id"])
            time.sleep(0.2)
        out["turn_dealt_s"] = round(time.perf_counter() - t0, 2)
        out["turn_dealt_tables"] = dealt
        if kill is not None and kill_after is not None:
            time.sleep(max(0.0, kill_after - (time.perf_counter() - t0)))
            before = client.get(f"{other}/api/tournaments/{tid}").json()["turns"][0]["tables"]
            out["killed_at_s"] = round(time.perf_counter() - t0, 1)
            out["tables_over_when_killed"] = sum(x["vp"] is not None for x in before)
            kill()
        while True:
            view: dict[str, Any] = client.get(f"{other}/api/tournaments/{tid}").json()
            if view["status"] == "over":
                break
            if time.perf_counter() - t0 > TIMEOUT:
                raise TournamentLoadError(f"not over after {TIMEOUT:.0f} s: turn {view['turn']}")
            time.sleep(1)
        out["over_s"] = round(time.perf_counter() - t0, 1)
    out.update(check_standings(view, turns))
    return out


def check_standings(view: dict[str, Any], turns: int) -> dict[str, Any]:
    """The end's checks on a tournament's view: its figures, or the error that is wrong."""
    rows = [x for turn in view["turns"] for x in turn["tables"]]
    played = [x for x in rows if x["ew"] is not None]
    if any(x["vp"] is None or sum(x["vp"]) != 20 for x in played):
        raise TournamentLoadError("a table has no result, or its VP do not share 20")
    byes = sum(x["vp"][0] for x in rows if x["ew"] is None)
    handed = sum(s["vp"] for s in view["standings"])
    if handed != 20 * len(played) + byes:
        raise TournamentLoadError(f"the standings hold {handed} VP, not {20 * len(played) + byes}")
    missed = [s["name"] for s in view["standings"] if s["played"] != turns]
    if missed:
        raise TournamentLoadError(f"{len(missed)} entrants did not play every turn: {missed[:3]}")
    return {"tables_played": len(played), "standings_vp": handed}
