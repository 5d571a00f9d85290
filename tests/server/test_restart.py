"""A real ``buraco serve`` killed with SIGKILL mid-match and started again on the same data.

Every action a client was told of was committed first, so the restarted server resumes
the table at exactly the last version the client saw, with the same view, and the
client reconnects with ``since`` and plays on.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from buraco.cli.loadtest import process_tree
from buraco.server.routes import COOKIE
from serverkit import free_port, start_serve, whole_view


@contextmanager
def _serve(data: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``buraco serve`` as its own process, waited for until /healthz answers."""
    proc = start_serve(port, ["--data", str(data), "--hand-pause", "0"])
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _frames_until_my_turn(ws: ClientConnection, shown: dict[str, Any]) -> dict[str, Any]:
    """Read frames until one shows this seat legal actions; returns it, its view whole.

    ``shown`` keeps the last whole view (an event's view holds only what changed).
    """
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if m["type"] in ("state", "event") and m.get("view"):
            if m["type"] == "event":
                m["view"] = whole_view(shown.get("view"), m["view"])
            shown["view"] = m["view"]
            if m["view"]["legal"]:
                return m


@pytest.mark.services  # a server process of its own, killed
def test_a_killed_server_resumes_every_table_at_its_last_committed_action(
    tmp_path: Path,
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    ws_base = f"ws://127.0.0.1:{port}"
    with _serve(tmp_path, port) as proc:
        r = httpx.post(f"{base}/api/guests", json={"name": "Ana"})
        token = r.cookies[COOKIE]
        cookie = {"cookie": f"{COOKIE}={token}"}
        body = {
            "preset": "aberto",
            "players": 2,
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}],
            "pace": 0,
        }
        table = httpx.post(f"{base}/api/tables", json=body, headers=cookie).json()["table"]["id"]
        with connect(f"{ws_base}/ws/tables/{table}", additional_headers=cookie) as ws:
            shown: dict[str, Any] = {}
            m = _frames_until_my_turn(ws, shown)
            for _ in range(8):  # four turns of Ana's, with the bot's between them
                action = m["view"]["legal"][-1]
                ws.send(json.dumps({"type": "action", "version": m["version"], "action": action}))
                m = _frames_until_my_turn(ws, shown)
            seen_version, seen_view = m["version"], m["view"]
        assert seen_version > 10
        helpers = process_tree(proc.pid)[1:]  # the bot worker and the processes that made it
        assert helpers, "the server started no bot worker"
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        # with the server gone, its bot worker exits, and so do the rest: nothing is left
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{p}").exists() for p in helpers):
            assert time.monotonic() < deadline, f"left running: {helpers}"
            time.sleep(0.1)
    # nothing was shut down cleanly: the log is all there is
    with _serve(tmp_path, port):
        summary = httpx.get(f"{base}/api/tables/{table}").json()["table"]
        assert summary["version"] == seen_version
        assert summary["status"] == "playing"
        with connect(
            f"{ws_base}/ws/tables/{table}?since={seen_version}", additional_headers=cookie
        ) as ws:
            state = json.loads(ws.recv(timeout=30))
            assert state["type"] == "state" and state["version"] == seen_version
            assert state["view"] == seen_view
            # play on from there: the next action is accepted at the next version
            action = state["view"]["legal"][0]
            ws.send(json.dumps({"type": "action", "version": seen_version, "action": action}))
            while True:
                ev = json.loads(ws.recv(timeout=30))
                if ev["type"] == "event":
                    break
                assert ev["type"] != "error", ev
            assert ev["version"] == seen_version + 1
            assert ev["event"] == {"kind": "action", "seat": 0, "action": action, "by": "player"}


def test_serve_refuses_contradictory_options_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "buraco",
            "serve",
            "--data",
            str(tmp_path),
            "--db",
            "postgresql://nobody@127.0.0.1/none",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "--data and --db" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("db", "words"),
    [
        ("postgresql://nobody@127.0.0.1:1/none", "cannot open the database"),
        ("sqlite:////nonexistent/folder/b.db", "cannot open the database"),
        ("mysql://u@h/d", "--db takes a PostgreSQL URL"),
    ],
)
def test_serve_reports_a_database_it_cannot_use_in_one_line(db: str, words: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "buraco", "serve", "--db", db, "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert words in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
