"""Helpers of the server tests: guests, tables and sockets on the real app."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
        "tournaments_per_address": "100000/minute",
        "code_guesses_per_address": "100000/minute",
    }
    values.update(overrides)
    return Settings(**values)


@contextmanager
def serving(db_url: str, **overrides: Any) -> Iterator[Server]:
    """The real app on ``db_url`` with some settings of the test's own (``make_settings``)."""
    from buraco.server.app import create_app

    settings = make_settings(db_url, **overrides)
    with TestClient(create_app(settings)) as client:
        yield Server(client, settings)


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


def play_turns(server: Server, table: str, players: dict[int, Player], turns: int) -> None:
    """The players (by seat) each play ``turns`` turns of their own: draw, then discard.

    Over their own sockets, at a table in play; bots at the table move by themselves.
    """
    from contextlib import ExitStack

    with ExitStack() as stack:
        sockets = {seat: stack.enter_context(server.ws(table, p)) for seat, p in players.items()}
        frames = {seat: until(ws, lambda m: m["type"] == "state") for seat, ws in sockets.items()}
        version = max(f["version"] for f in frames.values())
        for seat, ws in sockets.items():  # every socket at the same version
            if frames[seat]["version"] < version:
                frames[seat] = until(ws, lambda m, v=version: m.get("version") == v and "view" in m)
        made = dict.fromkeys(players, 0)
        while min(made.values()) < turns:
            mover = next((s for s, f in frames.items() if f["view"]["legal"]), None)
            if mover is not None:
                view = frames[mover]["view"]
                legal = view["legal"]
                if view["phase"] == "draw":
                    action = "draw" if "draw" in legal else legal[0]
                else:
                    action = next((a for a in legal if a.startswith("discard")), legal[0])
                    made[mover] += 1
                sockets[mover].send_text(
                    json.dumps({"type": "action", "version": version, "action": action})
                )
            version += 1
            for seat, ws in sockets.items():
                frames[seat] = until(
                    ws, lambda m, v=version: m["type"] == "event" and m["version"] == v
                )
            assert not frames[seat]["event"].get("match_over"), "the match ended first"


def account(server: Server, name: str, password: str = "a long password") -> Player:
    """A new account (a name kept with a password), signed in: the player and their cookie."""
    r = server.client.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    token = r.cookies[COOKIE]
    server.client.cookies.clear()
    return Player(name, r.json()["id"], token)


PASSWORD = "correct horse battery"
"""The tests' accounts' password."""


class Browser:
    """A browser of its own on the test's client: it keeps its own cookies (the session's,
    and the device cookie of a browser that signed in to an account)."""

    def __init__(self, client: TestClient, address: str | None = None) -> None:
        self.client = client
        self.token: str | None = None
        self.device: str | None = None
        self.address = address
        """The address it comes from, as a proxy on this machine forwards it (None: the
        test client's own)."""

    def request(self, method: str, path: str, **kw: Any) -> Any:
        headers = dict(kw.pop("headers", None) or {})
        if "cookie" not in headers:
            jar = [f"{COOKIE}={self.token}"] if self.token else []
            jar += [f"buraco_device={self.device}"] if self.device else []
            if jar:
                headers["cookie"] = "; ".join(jar)
        if self.address is not None:
            headers["x-forwarded-for"] = self.address
        self.client.cookies.clear()
        r = self.client.request(method, path, headers=headers, **kw)
        self.client.cookies.clear()
        for line in r.headers.get_list("set-cookie"):
            value = line.split(";", 1)[0].split("=", 1)[1].strip('"')
            gone = "Max-Age=0" in line or not value
            if line.startswith(f"{COOKIE}="):
                self.token = None if gone else value
            elif line.startswith("buraco_device="):
                self.device = None if gone else value
        return r

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Any:
        return self.request("POST", path, **kw)

    @property
    def cookies(self) -> dict[str, str]:
        return {COOKIE: self.token} if self.token else {}

    def websocket_connect(self, path: str, headers: dict[str, str]) -> Any:
        return self.client.websocket_connect(path, headers=headers)


def client_of(server: Server) -> Browser:
    """Another browser: the same app, a cookie of its own."""
    return Browser(server.client)


def register(c: Browser, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = c.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def sign_in(c: Browser, name: str, password: str = PASSWORD) -> Any:
    return c.post("/api/account/signin", json={"name": name, "password": password})


def as_player(c: Browser, name: str) -> Player:
    me = c.get("/api/me").json()
    return Player(name, me["id"], c.cookies[COOKIE])
