"""``buraco serve``: start the online server (needs ``pip install 'buraco[server]'``)."""

from __future__ import annotations

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
) -> None:
    """Play online: start a server with an embedded database, print its URL.

    Friends open the URL in a browser, choose a name, and sit at a table with bots
    in the empty seats. See docs/online.md.
    """
    try:
        import uvicorn

        from buraco.server.app import create_app
        from buraco.server.settings import Settings, default_data_dir
    except ImportError as exc:
        fail(f"the server needs its extra: pip install 'buraco[server]' ({exc.name} is missing)")
    if data is not None and db is not None:
        fail("--data and --db do not go together: --data is for the embedded SQLite database")
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
    )
    if db is not None and not db.startswith(("sqlite", "postgresql", "postgres:")):
        fail(
            f"--db takes a PostgreSQL URL (postgresql://user@host/db) or an SQLite one "
            f"(sqlite:///path), not {db.split(':', 1)[0]!r}"
        )
    _check_address(host, port)
    _check_database(settings)
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    where = "the database at --db" if db else f"{folder / 'buraco.db'}"
    say(("buraco server", "bold"), f" on http://{shown_host}:{port}/  (games kept in {where})")
    say("open that address in a browser; Ctrl+C stops the server")
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=16 * 1024,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        proxy_headers=True,
    )
    uvicorn.Server(config).run()


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
