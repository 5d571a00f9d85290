"""Helpers of the server tests: guests, tables and sockets on the real app."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from buraco.server import accounts
from buraco.server.routes import COOKIE
from buraco.server.settings import Settings

SHIPPED_HASHER = accounts._HASHER
"""The server's own password hasher, as imported (the server tests' fixtures lighten it)."""


@dataclass
class Player:
    """A guest: their name and the cookie header that proves who they are."""

    name: str
    id: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"{COOKIE}={self.token}"}


@dataclass
class Server:
    """The app under a test client, with helpers to make guests and tables."""

    client: TestClient
    settings: Settings
    frames: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def guest(self, name: str) -> Player:
        r = self.client.post("/api/guests", json={"name": name})
        assert r.status_code == 200, r.text
        token = r.cookies[COOKIE]
        self.client.cookies.clear()
        return Player(name, r.json()["id"], token)

    def create(self, who: Player, seats: list[dict[str, Any]], **spec: Any) -> dict[str, Any]:
        body = {"preset": "aberto", "players": len(seats), "seats": seats, "pace": 0, **spec}
        r = self.client.post("/api/tables", json=body, headers=who.headers)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def ws(self, table: str, who: Player | None = None, query: str = "") -> WebSocketTestSession:
        headers = who.headers if who else {}
        return self.client.websocket_connect(f"/ws/tables/{table}{query}", headers=headers)


def make_settings(db: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "db_url": db,
        "bot_workers": 0,
        "hand_pause": 0.0,
        "grace": 60.0,
        "messages_per_second": 1000.0,
        # the test client is one address: the limits on ways in are tested on their own
        "guests_per_address": "100000/minute",
        "signin_per_address": "100000/minute",
        "accounts_per_address": "100000/minute",
    }
    values.update(overrides)
    return Settings(**values)


def receive(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next frame, parsed."""
    data: dict[str, Any] = json.loads(ws.receive_text())
    return data


def until(ws: WebSocketTestSession, pred: Any, limit: int = 5000) -> dict[str, Any]:
    """Read frames until one satisfies ``pred``; returns it."""
    for _ in range(limit):
        m = receive(ws)
        if pred(m):
            return m
    raise AssertionError("no such frame")


def my_turn(m: dict[str, Any]) -> bool:
    """A frame showing this seat a view with legal actions."""
    return m.get("type") in ("state", "event") and bool(m.get("view") and m["view"]["legal"])


def free_port() -> int:
    """A TCP port free on this machine now."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_serve(
    port: int, args: list[str], env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """``buraco serve`` on ``port`` as its own process, waited for until /healthz answers."""
    import httpx

    proc = subprocess.Popen(
        [sys.executable, "-m", "buraco", "serve", "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise AssertionError(f"buraco serve exited with {proc.returncode}: {err}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("buraco serve did not answer /healthz within 60 s")
        time.sleep(0.1)


def whole_view(before: dict[str, Any] | None, view: dict[str, Any]) -> dict[str, Any]:
    """The whole view a client has after an ``event`` frame's ``view`` (docs/protocol.md).

    An event's view leaves out the rules' options and holds only the log's new lines
    (and the feed's new entries), after the first ``log_from`` of the view before it; a
    deal's view is whole.
    """
    if "log_from" not in view:
        return view
    assert before is not None, "an event's view before any state"
    assert len(before["log"]) >= view["log_from"], "a gap in the log"
    whole = {k: x for k, x in view.items() if k != "log_from"}
    whole["log"] = before["log"][: view["log_from"]] + view["log"]
    whole["feed"] = before["feed"][: view["log_from"]] + view["feed"]
    whole["options"] = before["options"]
    return whole


def wait_for(check: Any, seconds: float = 30.0) -> Any:
    """Poll ``check`` until it returns something true; returns it."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("timed out")
