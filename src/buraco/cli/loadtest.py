"""``buraco loadtest``: tables of bot clients against a ``buraco serve`` on this machine."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from buraco.cli.common import check_range, console, fail, say


def loadtest(
    tables: Annotated[int, typer.Option(help="concurrent 4-player tables")] = 100,
    seconds: Annotated[float, typer.Option(help="length of the measured run")] = 30.0,
    think: Annotated[
        float, typer.Option(help="seconds a client waits before each action (0: at once)")
    ] = 0.0,
    db: Annotated[
        str | None,
        typer.Option(help="database URL for the server it starts [default: a new SQLite file]"),
    ] = None,
    url: Annotated[
        str | None,
        typer.Option(help="a server already running on this machine, e.g. http://127.0.0.1:8000"),
    ] = None,
    processes: Annotated[
        int,
        typer.Option(help="server processes it starts (above 1: needs --db with PostgreSQL)"),
    ] = 1,
    bus: Annotated[
        str | None,
        typer.Option(help="Redis URL of the bus for the server it starts (several processes)"),
    ] = None,
    by_table: Annotated[
        bool,
        typer.Option(
            "--by-table",
            help="several processes each on its own port, every table's clients at one of "
            "them (as a proxy routing by table does); default: one port shared by all",
        ),
    ] = False,
    seed: Annotated[int, typer.Option(help="seed of the clients' choices")] = 0,
    tournament: Annotated[
        bool,
        typer.Option(
            "--tournament",
            help="a tournament of bots instead: 2 × --tables entries of pairs, Mitchell turns, "
            "on 2 processes (--db PostgreSQL, --bus), docs/tournaments.md#scale",
        ),
    ] = False,
    turns: Annotated[
        int | None, typer.Option(help="--tournament: its turns of 3 hands (default 2)")
    ] = None,
    kill_after: Annotated[
        float | None,
        typer.Option(
            help="--tournament: SIGKILL the first process so many seconds into turn 1, "
            "then start it again"
        ),
    ] = None,
    pace: Annotated[
        float | None, typer.Option(help="--tournament: seconds a bot waits to move (default 0.5)")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Load a server with tables of bot clients over real WebSockets; print the figures.

    Starts its own `buraco serve` on a free loopback port (SQLite in a temporary folder,
    or --db), makes --tables tables of four guests, each guest a client with its own
    connection playing a random legal action on its turn, and measures for --seconds:
    the actions accepted per second, the time from sending an action to receiving one's
    own new view (p50, p90, p99), and the server's memory. Only this machine is a target.
    At its end, or when interrupted (Ctrl-C), it ends the tables it made (resigned, or left
    before they started), so a server of --db or --url has none of them to resume.
    """
    check_range("--tables", tables, 1, 2000)
    check_range("--seconds", seconds, 1, 3600)
    check_range("--think", think, 0, 60)
    check_range("--processes", processes, 1, 16)
    if url is not None and (db is not None or bus is not None or processes > 1):
        fail(
            "--url and --db, --bus or --processes do not go together: "
            "those are for the server this command starts"
        )
    if processes > 1 and bus is None:
        bus = "redis://127.0.0.1:6379/0"
    if bus is not None and (db is None or db.startswith("sqlite")):
        fail("several server processes share a PostgreSQL database: give --db postgresql://...")
    try:
        from buraco.server.load import check_loopback
    except ImportError as exc:
        fail(f"the load test needs the server extra: pip install 'buraco[server]' ({exc.name})")
    if by_table and processes == 1:
        fail("--by-table is for several processes: give --processes 2 or more")
    if tournament:
        turns_, pace_ = 2 if turns is None else turns, 0.5 if pace is None else pace
        _tournament(tables, turns_, db, bus, kill_after, pace_, json_out)
        return
    for flag, value in (("--kill-after", kill_after), ("--turns", turns), ("--pace", pace)):
        if value is not None:
            fail(f"{flag} is for --tournament")
    if url is not None:
        try:
            check_loopback(url)
        except ValueError as exc:
            fail(str(exc))
        figures = _run(url.rstrip("/"), tables, seconds, think, seed)
        out: dict[str, Any] = figures.summary()
        out["server"] = url
    else:
        with tempfile.TemporaryDirectory() as folder:
            procs: list[subprocess.Popen[bytes]] = []
            try:
                if by_table:  # one process per port, each with one worker
                    ports = [_free_port() for _ in range(processes)]
                    for p in ports:
                        procs.append(_start(Path(folder), p, db, 1, bus))
                else:
                    ports = [_free_port()]
                    procs.append(_start(Path(folder), ports[0], db, processes, bus))
                bases = [f"http://127.0.0.1:{p}" for p in ports]
                pids = [p.pid for p in procs]
                rss0 = sum(_rss(pid) for pid in pids)
                cpu: list[float] = []
                figures = _run(
                    bases, tables, seconds, think, seed, lambda _on: cpu.append(_cpu(pids))
                )
                rss1 = sum(_rss(pid) for pid in pids)
            finally:
                for proc in procs:
                    proc.terminate()
                for proc in procs:
                    try:
                        proc.wait(15)
                    except subprocess.TimeoutExpired:
                        proc.kill()
            out = figures.summary()
            shown = "one process" if processes == 1 else f"{processes} processes and --bus"
            if by_table:
                shown += ", each table at one"
            out["server"] = f"buraco serve, {shown}, " + ("--db" if db else "SQLite")
            if rss0 and rss1:
                out["server_rss_mb_before"] = round(rss0 / 1e6, 1)
                out["server_rss_mb_after"] = round(rss1 / 1e6, 1)
                out["server_kb_per_table"] = round((rss1 - rss0) / 1e3 / tables, 1)
            if len(cpu) == 2 and figures.actions:
                busy = cpu[1] - cpu[0]
                out["server_cpu_share"] = round(busy / figures.seconds, 2)
                out["server_cpu_ms_per_action"] = round(1000 * busy / figures.actions, 2)
    out["think_seconds"] = think
    if json_out:
        console.print_json(json.dumps(out))
        return
    t = Table(title=f"buraco loadtest: {tables} tables of 4 clients, {out['server']}")
    t.add_column("figure")
    t.add_column("value", justify="right")
    for key, value in out.items():
        if key not in ("errors", "server"):
            t.add_row(key.replace("_", " "), str(value))
    console.print(t)
    for e in out["errors"]:
        say(("client error: ", "bold red"), e)


def _run(
    base: str | list[str],
    tables: int,
    seconds: float,
    think: float,
    seed: int,
    clock: Any = None,
) -> Any:
    import httpx

    from buraco.server.load import run_load

    try:
        return asyncio.run(run_load(base, tables, seconds, think=think, seed=seed, clock=clock))
    except (httpx.HTTPError, OSError) as exc:
        fail(f"the server at {base} failed the load test: {exc}")
    except KeyboardInterrupt:
        # run_load ended its tables on the way out (asyncio.run cancelled it)
        fail("interrupted: the tables it made were ended", 130)


def _tournament(
    tables: int,
    turns: int,
    db: str | None,
    bus: str | None,
    kill_after: float | None,
    pace: float,
    json_out: bool,
) -> None:
    """``--tournament``: two processes, one tournament of bots, an optional SIGKILL."""
    from buraco.server.load_tournament import TournamentLoadError, run_tournament

    check_range("--turns", turns, 1, 10)
    check_range("--pace", pace, 0, 5)
    if kill_after is not None:
        check_range("--kill-after", kill_after, 0, 3600)
    if db is None or not db.startswith("postgresql"):
        fail("--tournament runs two processes on one database: give --db postgresql://...")
    bus = bus or "redis://127.0.0.1:6379/0"
    extra = ["--lease", "5", "--bot-workers", "1"]
    with tempfile.TemporaryDirectory() as folder:
        ports = [_free_port(), _free_port()]
        procs = [_start(Path(folder), p, db, 1, bus, extra) for p in ports]

        def kill() -> None:
            procs[0].kill()
            procs[0].wait()
            procs[0] = _start(Path(folder), ports[0], db, 1, bus, extra)

        try:
            out = run_tournament(
                [f"http://127.0.0.1:{p}" for p in ports],
                tables,
                turns=turns,
                pace=pace,
                kill_after=kill_after,
                kill=kill if kill_after is not None else None,
            )
        except TournamentLoadError as exc:
            fail(str(exc))
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
    out["server"] = "buraco serve, 2 processes, --db and --bus"
    if json_out:
        console.print_json(json.dumps(out))
        return
    t = Table(title=f"buraco loadtest --tournament: {tables} tables, {out['server']}")
    t.add_column("figure")
    t.add_column("value", justify="right")
    for key, value in out.items():
        if key != "server":
            t.add_row(key.replace("_", " "), str(value))
    console.print(t)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(
    folder: Path,
    port: int,
    db: str | None,
    processes: int,
    bus: str | None,
    extra: list[str] | None = None,
) -> subprocess.Popen[bytes]:
    import httpx

    args = [sys.executable, "-m", "buraco", "serve", "--port", str(port), "--hand-pause", "0"]
    args += extra or []
    args += ["--guests-per-address", "1000000/minute"]  # every client comes from loopback
    args += ["--db", db] if db else ["--data", str(folder)]
    if bus:
        args += ["--bus", bus, "--workers", str(processes)]
    # a session of its own: Ctrl-C stops the load run, which ends its tables on this server
    # before the server is stopped (see the callers' finally)
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            fail(f"buraco serve exited with code {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    fail("buraco serve did not answer within 60 s")


def process_tree(pid: int) -> list[int]:
    """A process and all its children, and theirs (empty without /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += children.get(p, [])
    return found


def _cpu(pids: list[int]) -> float:
    """CPU seconds used so far by processes and all their children (0 without /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in [q for pid in pids for q in process_tree(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def _rss(pid: int) -> int:
    """Resident memory of a process and all its children in bytes (0 without /proc)."""
    total = 0
    for p in process_tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total
