"""``buraco serve``: start the online server (needs ``pip install 'buraco[server]'``)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from buraco.cli.common import fail, say


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    data: Annotated[
        Path | None,
        typer.Option(help="folder of the embedded SQLite database [default: per-user data folder]"),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            help="database URL instead of SQLite, e.g. postgresql+asyncpg://user@host/db",
            envvar="BURACO_DB",
        ),
    ] = None,
    bot_workers: Annotated[
        int, typer.Option(min=0, max=64, help="processes that run bots (0: inside the server)")
    ] = 1,
    grace: Annotated[
        float, typer.Option(min=0, max=3600, help="seconds a disconnected player keeps the seat")
    ] = 60.0,
    hand_pause: Annotated[
        float, typer.Option(min=0, max=600, help="seconds between hands unless all are ready")
    ] = 15.0,
    secure_cookie: Annotated[
        bool, typer.Option(help="send the guest cookie over HTTPS only (behind a TLS proxy)")
    ] = False,
    bus: Annotated[
        str | None,
        typer.Option(
            help="Redis URL shared by several server processes, e.g. redis://127.0.0.1:6379/0 "
            "(needs --db with PostgreSQL)",
            envvar="BURACO_BUS",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(min=1, max=64, help="server processes on this machine (above 1: needs --bus)"),
    ] = 1,
    lease: Annotated[
        float,
        typer.Option(
            min=1,
            max=300,
            help="seconds before another process takes the tables of one that died (with --bus)",
        ),
    ] = 10.0,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="another site allowed to send requests and open sockets with a player's "
            "cookie, e.g. https://club.example (repeatable; the server's own always is)",
        ),
    ] = None,
    guests_per_address: Annotated[
        str,
        typer.Option(help="new guests one address may make, e.g. 20/minute or 500/hour"),
    ] = "20/minute",
    tournaments_per_address: Annotated[
        str,
        typer.Option(help="tournaments one address may make, e.g. 10/hour"),
    ] = "10/hour",
    rated_guests: Annotated[
        bool,
        typer.Option(
            help="let guests (players without an account) make, sit at and enter rated play"
        ),
    ] = False,
    rated_min_turns: Annotated[
        int,
        typer.Option(
            min=0, max=1000, help="turns each side of a rated match must play itself to be rated"
        ),
    ] = 10,
    rated_same_opponents: Annotated[
        int,
        typer.Option(
            min=0,
            max=1000,
            help="rated matches a week against the same opponents (bots: one); 0: no cap",
        ),
    ] = 5,
) -> None:
    """Play online: start a server with an embedded database, print its URL.

    Friends open the URL in a browser, choose a name, and sit at a table with bots
    in the empty seats. A bigger site runs several processes (--workers, or several
    machines) over one PostgreSQL database (--db) and Redis (--bus). See docs/online.md.
    """
    try:
        import uvicorn

        from buraco.server.app import create_app
        from buraco.server.settings import Settings, default_data_dir
    except ImportError as exc:
        fail(f"the server needs its extra: pip install 'buraco[server]' ({exc.name} is missing)")
    if data is not None and db is not None:
        fail("--data and --db do not go together: --data is for the embedded SQLite database")
    if workers > 1 and not bus:
        fail(
            "--workers above 1 needs --bus (redis://...) so the processes hear each other's "
            "moves, and --db with PostgreSQL"
        )
    if bus and (db is None or db.startswith("sqlite")):
        fail(
            "--bus is for several processes sharing a database server: "
            "give --db postgresql://user@host/db (SQLite is for one process)"
        )
    folder = data or default_data_dir()
    if db is None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"cannot make the data folder {str(folder)!r}: {exc.strerror}")
        if not os.access(folder, os.W_OK):
            fail(f"the data folder {str(folder)!r} is not writable")
    settings = Settings(
        db_url=db or "",
        data_dir=folder,
        bot_workers=bot_workers,
        grace=grace,
        hand_pause=hand_pause,
        secure_cookie=secure_cookie,
        bus_url=bus or "",
        lease=lease,
        allowed_origins=tuple(allowed_origin or ()),
        guests_per_address=guests_per_address,
        tournaments_per_address=tournaments_per_address,
        rated_guests=rated_guests,
        rated_min_turns=rated_min_turns,
        rated_same_opponents=rated_same_opponents,
    )
    if db is not None and not db.startswith(("sqlite", "postgresql", "postgres:")):
        fail(
            f"--db takes a PostgreSQL URL (postgresql://user@host/db) or an SQLite one "
            f"(sqlite:///path), not {db.split(':', 1)[0]!r}"
        )
    for origin in settings.allowed_origins:
        if not origin.startswith(("http://", "https://")) or len(origin) > 200:
            fail(f"--allowed-origin takes an origin like https://club.example, not {origin!r}")
    try:
        from limits import parse

        parse(guests_per_address)
    except ValueError:
        fail(
            "--guests-per-address takes a rate like 20/minute or 500/hour, "
            f"not {guests_per_address!r}"
        )
    try:
        parse(tournaments_per_address)
    except ValueError:
        fail(
            "--tournaments-per-address takes a rate like 10/hour or 100/day, "
            f"not {tournaments_per_address!r}"
        )
    if bus:
        _check_bus(bus)
    _check_address(host, port)
    _check_database(settings)
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    where = "the database at --db" if db else f"{folder / 'buraco.db'}"
    say(("buraco server", "bold"), f" on http://{shown_host}:{port}/  (games kept in {where})")
    if bus:
        say(f"{workers} process{'es' if workers > 1 else ''} here, sharing the bus at --bus")
    say("open that address in a browser; Ctrl+C stops the server")
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "ws_max_size": 16 * 1024,
        "ws_ping_interval": PING_INTERVAL,
        "ws_ping_timeout": PING_TIMEOUT,
        "timeout_keep_alive": 5,
        "proxy_headers": True,
    }
    if workers == 1:
        uvicorn.Server(uvicorn.Config(create_app(settings), **common)).run()
        return
    from dataclasses import asdict

    from buraco.server.app import SETTINGS_ENV

    given = asdict(settings)
    given["data_dir"] = str(given["data_dir"]) if given["data_dir"] else None
    os.environ[SETTINGS_ENV] = json.dumps(given)
    uvicorn.run("buraco.server.app:app_from_env", factory=True, workers=workers, **common)


PING_INTERVAL = float(os.environ.get("BURACO_WS_PING", "20"))
"""Seconds between the server's WebSocket pings to each client."""
PING_TIMEOUT = PING_INTERVAL
"""Seconds a client has to answer a ping before its connection is closed."""


def _check_bus(url: str) -> None:
    """Fail in one line when the bus cannot be reached."""
    import asyncio

    from buraco.server.bus import make_bus

    try:
        make_bus(url)
    except ValueError as exc:
        fail(str(exc))

    async def check() -> None:
        import redis.asyncio as redis

        client = redis.from_url(url, socket_connect_timeout=5)
        try:
            await client.ping()
        finally:
            await client.aclose()

    try:
        asyncio.run(asyncio.wait_for(check(), 10))
    except Exception as exc:
        safe = url.split("@")[-1]
        fail(f"cannot reach the bus at {safe!r}: {str(exc).splitlines()[0] if str(exc) else exc}")


def _check_address(host: str, port: int) -> None:
    """Fail in one line when the address cannot be listened on (in use, or not this machine's)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        fail(f"cannot listen on {host}:{port}: {exc}")
    family, kind, proto, _, where = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(where)
        except OSError as exc:
            fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


def _check_database(settings: Any) -> None:
    """Open the database once (applying its migrations) so a bad --db fails in one line."""
    import asyncio

    from buraco.server.store import Store, database_url

    url = database_url(settings.url())
    if url.startswith("sqlite+aiosqlite:///"):
        # a file SQLite cannot make is said at once (its driver's thread is not started)
        path = Path(url[len("sqlite+aiosqlite:///") :])
        folder = path.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            fail(f"cannot open the database {str(path)!r}: its folder is missing or not writable")

    async def check() -> None:
        store = await Store.open(settings.url())
        try:
            if not await store.healthy():
                raise OSError("it cannot be written")
        finally:
            await store.close()

    try:
        asyncio.run(asyncio.wait_for(check(), 30))
    except Exception as exc:
        where = database_url(settings.db_url) if settings.db_url else settings.url()
        safe_where = where.split("@")[-1] if "@" in where else where  # no password shown
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        fail(f"cannot open the database {safe_where!r}: {reason}")
