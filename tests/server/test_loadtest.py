"""``buraco loadtest``: a short real run against one process and against two with the bus."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from buraco.cli import app
from buraco.server.store import Store
from clikit import CliRunner
from serverkit import free_port, start_serve

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def figures(output: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(output[output.index("{") :])
    return data


def two_processes(db: str, bus: str, *args: str) -> dict[str, Any]:
    """The figures of a short run of 4 tables against two processes over ``db`` and ``bus``."""
    code, out = run(
        "loadtest", "--tables", "4", "--processes", "2", "--db", db, "--bus", bus, "--json", *args
    )
    assert code == 0, out
    return figures(out)


def test_a_short_load_run_against_one_process_gives_its_figures() -> None:
    code, out = run("loadtest", "--tables", "3", "--seconds", "3", "--json")
    assert code == 0, out
    got = figures(out)
    assert got["tables"] == 3 and got["errors"] == []
    assert got["refused"] == 0, got["refused_codes"]
    # clients with no think time: each accepted action answered by its event, timed
    assert got["actions"] > 20 and got["actions_per_second"] > 5
    assert 0 < got["latency_ms_p50"] <= got["latency_ms_p99"] <= got["latency_ms_max"]
    assert got["server_rss_mb_after"] > 0 and got["server"].startswith("buraco serve, one")


def test_a_short_load_run_against_two_processes_over_postgresql_and_redis(
    fresh_pg: str, redis_url: str
) -> None:
    got = two_processes(fresh_pg, redis_url, "--seconds", "4")
    assert got["errors"] == [] and got["actions"] > 20
    assert got["refused"] == 0, got["refused_codes"]
    assert "2 processes" in got["server"]
    assert got["server_cpu_ms_per_action"] > 0 and 0 < got["server_cpu_share"] <= 2.5


def test_a_load_run_with_each_table_at_one_of_two_processes(fresh_pg: str, redis_url: str) -> None:
    got = two_processes(fresh_pg, redis_url, "--seconds", "3", "--by-table")
    assert got["errors"] == [] and got["actions"] > 20 and "each table at one" in got["server"]


def test_a_tournament_of_bots_survives_a_kill_of_the_process_that_made_its_tables(
    fresh_pg: str, redis_url: str
) -> None:
    # issue 21, Scale: "runs its turns with the existing load tooling on two processes over
    # PostgreSQL and Redis … standings consistent after a kill -9 of either process mid-turn"
    # A pace of 0.05 s a bot move keeps a table going well past the kill at 2 s on any
    # machine (some 180 moves a table); at pace 0 a fast machine ends both tables first.
    code, out = run(
        "loadtest", "--tournament", "--tables", "2", "--turns", "1", "--pace", "0.05",
        "--kill-after", "2", "--db", fresh_pg, "--bus", redis_url, "--json",
    )  # fmt: skip
    assert code == 0, out
    got = figures(out)
    assert got["turn_tables"] == got["turn_dealt_tables"] == 2
    assert got["killed_at_s"] >= 2 and got["tables_over_when_killed"] < 2
    assert got["tables_played"] == 2 and got["standings_vp"] == 40


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--processes", "2"], "PostgreSQL"),
        (["--processes", "2", "--db", "sqlite:///x.db"], "PostgreSQL"),
        (["--url", "http://example.org:8000"], "only targets this machine"),
        (["--url", "http://127.0.0.1:8000", "--processes", "2"], "do not go together"),
        (["--processes", "40"], "--processes"),
        (["--by-table"], "--by-table"),
        (["--tournament"], "give --db postgresql"),
        (["--kill-after", "3"], "--kill-after is for --tournament"),
        (["--turns", "3"], "--turns is for --tournament"),
        (["--pace", "0.1"], "--pace is for --tournament"),
    ],
)
def test_loadtest_refuses_what_it_cannot_do_in_one_line(args: list[str], says: str) -> None:
    code, out = run("loadtest", *args)
    assert code == 2 and says in out and "Traceback" not in out


@pytest.fixture(params=["sqlite", "postgresql"])
def own_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database of this test alone: an SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'load.db'}"
    url: str = request.getfixturevalue("fresh_pg")
    return url


def unfinished(db: str) -> list[str]:
    """The tables of a database that a server starting on it would resume."""

    async def read() -> list[str]:
        store = await Store.open(db)
        try:
            found = await store.tables(("waiting", "playing"), public_only=False)
            return [t.row.id for t in found]
        finally:
            await store.close()

    return asyncio.run(read())


def test_a_load_run_ends_its_tables_so_the_next_server_resumes_none(own_db: str) -> None:
    # the issue: a run left its tables unfinished in the database it was given, and the next
    # run's server resumed them (1,399 found)
    code, out = run("loadtest", "--tables", "3", "--seconds", "2", "--db", own_db, "--json")
    assert code == 0, out
    assert unfinished(own_db) == []
    assert figures(out)["tables_ended"] == 3


_WITH_CTRL_C = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'buraco'; runpy.run_module('buraco', run_name='__main__')"
)


def test_an_interrupted_load_run_ends_its_tables_too(own_db: str) -> None:
    port = free_port()
    args = ["--db", own_db, "--bot-workers", "0", "--hand-pause", "0"]
    server = start_serve(port, [*args, "--guests-per-address", "1000000/minute"])
    base = f"http://127.0.0.1:{port}"
    load = None
    try:
        command = ["loadtest", "--url", base, "--tables", "3", "--seconds", "300"]
        # as a terminal's Ctrl-C finds it: with Python's own SIGINT handler, even when the
        # tests run as a shell's background job (which starts with SIGINT ignored)
        load = subprocess.Popen(
            [sys.executable, "-c", _WITH_CTRL_C, *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            tables = httpx.get(f"{base}/api/tables").json()["tables"]
            if sum(t["status"] == "playing" for t in tables) == 3:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the load run's tables were not dealt")
        assert len(unfinished(own_db)) == 3
        time.sleep(1)  # its clients playing
        load.send_signal(signal.SIGINT)  # Ctrl-C
        _out, err = load.communicate(timeout=60)
        assert load.returncode == 130, err
        assert b"interrupted" in err and b"Traceback" not in err
        assert unfinished(own_db) == []
    finally:
        if load is not None and load.poll() is None:
            load.kill()
        server.terminate()
        server.wait(15)
