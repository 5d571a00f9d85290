"""``buraco loadtest``: tables of bot clients against a ``buraco serve`` on this machine."""

from __future__ import annotations

import asyncio
import json
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
    seed: Annotated[int, typer.Option(help="seed of the clients' choices")] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Load a server with tables of bot clients over real WebSockets; print the figures.

    Starts its own `buraco serve` on a free loopback port (SQLite in a temporary folder,
    or --db), makes --tables tables of four guests, each guest a client with its own
    connection playing a random legal action on its turn, and measures for --seconds:
    the actions accepted per second, the time from sending an action to receiving one's
    own new view (p50, p90, p99), and the server's memory. Only this machine is a target.
    """
    check_range("--tables", tables, 1, 2000)
    check_range("--seconds", seconds, 1, 3600)
    check_range("--think", think, 0, 60)
    check_range("--processes", processes, 1, 16)
    if processes > 1 and bus is None:
        bus = "redis://127.0.0.1:6379/0"
    if bus is not None and (db is None or db.startswith("sqlite")):
        fail("several server processes share a PostgreSQL database: give --db postgresql://...")
    try:
        from buraco.server.load import check_loopback
    except ImportError as exc:
        fail(f"the load test needs the server extra: pip install 'buraco[server]' ({exc.name})")
    if url is not None and (db is not None or bus is not None or processes > 1):
        fail(
            "--url and --db, --bus or --processes do not go together: "
            "those are for the server this command starts"
        )
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
            port = _free_port()
            proc = _start(Path(folder), port, db, processes, bus)
            try:
                base = f"http://127.0.0.1:{port}"
                rss0 = _rss(proc.pid)
                figures = _run(base, tables, seconds, think, seed)
                rss1 = _rss(proc.pid)
            finally:
                proc.terminate()
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
            out = figures.summary()
            shown = "one process" if processes == 1 else f"{processes} processes and --bus"
            out["server"] = f"buraco serve, {shown}, " + ("--db" if db else "SQLite")
            if rss0 and rss1:
                out["server_rss_mb_before"] = round(rss0 / 1e6, 1)
                out["server_rss_mb_after"] = round(rss1 / 1e6, 1)
                out["server_kb_per_table"] = round((rss1 - rss0) / 1e3 / tables, 1)
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


def _run(base: str, tables: int, seconds: float, think: float, seed: int) -> Any:
    import httpx

    from buraco.server.load import run_load

    try:
        return asyncio.run(run_load(base, tables, seconds, think=think, seed=seed))
    except (httpx.HTTPError, OSError) as exc:
        fail(f"the server at {base} failed the load test: {exc}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(
    folder: Path, port: int, db: str | None, processes: int, bus: str | None
) -> subprocess.Popen[bytes]:
    import httpx

    args = [sys.executable, "-m", "buraco", "serve", "--port", str(port), "--hand-pause", "0"]
    args += ["--db", db] if db else ["--data", str(folder)]
    if bus:
        args += ["--bus", bus, "--workers", str(processes)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
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


def _rss(pid: int) -> int:
    """Resident memory of a process and all its children in bytes (0 without /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo += children.get(p, [])
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total
