"""A tournament of bots at scale on two server processes, with a ``kill -9`` mid-turn.

    python scripts/tournament_load.py --tables 100 --db postgresql://postgres@127.0.0.1/test \
        --bus redis://127.0.0.1:6379/0

Starts two ``buraco serve`` processes over the database and Redis, makes a tournament of
``2 × tables`` entries of bots (tables of four), starts it at the first process and times
how long its first turn takes to be made and seated (every table dealt). Midway through
the turn it kills the first process with SIGKILL and starts it again; the second process
takes up its tables when their leases run out. At the end it checks the standings: every
table of every turn has its result, each table's VP share 20, and the standings hold
every VP handed out. Prints the figures (docs/tournaments.md#scale).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import httpx


def free_port() -> int:
    """A port free on this machine now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(port: int, db: str, bus: str, lease: float) -> subprocess.Popen[bytes]:
    """A ``buraco serve`` process, once it answers /healthz."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "buraco", "serve", "--port", str(port), "--db", db, "--bus", bus,
         "--lease", str(lease), "--hand-pause", "0", "--bot-workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("buraco serve did not start")


def main() -> None:
    """Run the tournament and print its figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--turns", type=int, default=2)
    p.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    p.add_argument("--bus", default="redis://127.0.0.1:6379/0")
    p.add_argument("--bot", default="greedy")
    p.add_argument("--pace", type=float, default=0.5)
    p.add_argument("--lease", type=float, default=5.0)
    p.add_argument("--kill-after", type=float, default=20.0, help="seconds into turn 1")
    a = p.parse_args()
    ports = [free_port(), free_port()]
    procs = [serve(port, a.db, a.bus, a.lease) for port in ports]
    base = [f"http://127.0.0.1:{port}" for port in ports]
    client = httpx.Client(timeout=60)
    try:
        r = client.post(f"{base[0]}/api/guests", json={"name": f"Director {os.getpid()}"})
        cookie = {"cookie": f"buraco_guest={r.cookies['buraco_guest']}"}
        body = {"name": "Load", "preset": "italiano", "players": 4, "pace": a.pace,
                "movements": ["mitchell"] * a.turns, "hands": 3, "break_seconds": 5}  # fmt: skip
        answer = client.post(f"{base[0]}/api/tournaments", json=body, headers=cookie)
        if answer.status_code != 201:
            raise SystemExit(f"the tournament was refused: {answer.text}")
        tid = answer.json()["tournament"]["id"]
        t0 = time.perf_counter()
        client.post(
            f"{base[0]}/api/tournaments/{tid}/bots",
            json={"count": 2 * a.tables, "bot": a.bot},
            headers=cookie,
        ).raise_for_status()
        print(f"{2 * a.tables} entries of bots added in {time.perf_counter() - t0:.1f} s")
        t0 = time.perf_counter()
        r = client.post(f"{base[0]}/api/tournaments/{tid}/start", headers=cookie)
        r.raise_for_status()
        answered = time.perf_counter() - t0
        tables = [x["table_id"] for x in r.json()["turns"][0]["tables"] if x["table_id"]]
        dealt = 0
        while dealt < len(tables):
            # as the database has it, read at the other process
            seen = client.get(f"{base[1]}/api/tournaments/{tid}").json()["turns"][0]["tables"]
            dealt = sum(x["status"] in ("playing", "over") for x in seen if x["table_id"])
            if time.perf_counter() - t0 > 120:
                break
            time.sleep(0.2)
        print(
            f"turn 1: {len(tables)} tables made and seated in {answered:.2f} s (the start's "
            f"answer); {dealt} dealt and playing after {time.perf_counter() - t0:.2f} s"
        )
        time.sleep(max(0.0, a.kill_after - (time.perf_counter() - t0)))
        before = client.get(f"{base[1]}/api/tournaments/{tid}").json()
        done_before = sum(x["vp"] is not None for x in before["turns"][0]["tables"])
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait()
        killed_at = time.perf_counter()
        print(f"killed process 1 (SIGKILL) {killed_at - t0:.1f} s into turn 1, "
              f"{done_before} of {len(before['turns'][0]['tables'])} tables over")  # fmt: skip
        procs[0] = serve(ports[0], a.db, a.bus, a.lease)
        while True:
            view: dict[str, Any] = client.get(f"{base[1]}/api/tournaments/{tid}").json()
            if view["status"] == "over":
                break
            if time.perf_counter() - t0 > 3600:
                raise SystemExit(f"not over after an hour: turn {view['turn']}")
            time.sleep(1)
        total = time.perf_counter() - t0
        results = [x for turn in view["turns"] for x in turn["tables"]]
        played = [x for x in results if x["ew"] is not None]
        assert all(x["vp"] is not None and sum(x["vp"]) == 20 for x in played), "a table's VP"
        byes = sum(x["vp"][0] for x in results if x["ew"] is None)
        handed = sum(s["vp"] for s in view["standings"])
        assert handed == 20 * len(played) + byes, (handed, len(played), byes)
        assert all(s["played"] == a.turns for s in view["standings"]), "someone missed a turn"
        print(f"over after {total:.0f} s: {len(played)} tables in {a.turns} turns, each with "
              f"its result; {handed} VP in the standings = 20 × {len(played)} tables")  # fmt: skip
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(15)


if __name__ == "__main__":
    main()
