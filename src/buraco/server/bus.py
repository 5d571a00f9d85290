"""The message bus between the server processes of one site (``buraco serve --bus``).

Several processes share one database; a player connected to one process must
see at once what a player connected to another did. After committing a change,
a process publishes it on the bus; every other process applies it to its copy
of the table and sends it on to its own connections.

The bus is only fast, never the truth: the database is. Pub/sub may drop a
message (a lost connection, a restart of Redis); a process that sees a gap in a
table's versions, or that reconnects to the bus, reads what it missed from the
database (:meth:`buraco.server.service.TableService.resync`).

:class:`Bus` is the bus of a lone process (messages go nowhere); :class:`RedisBus`
publishes on a Redis channel through redis-py.

Messages are JSON objects with ``"p"``, the process that sent them, and ``"t"``,
their kind: ``event`` (a committed log entry), ``chat``, ``ready``, ``table``
(something outside the log changed: finished, closed, a rematch), ``presence``
(which seats have a connection at the sender), ``sessions`` (sessions that ended: their
connections are closed everywhere), ``forget`` (a deleted player's name to replace) and
``alive`` (every few seconds: the sender is up, with its presence at every table).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from buraco.server.stopping import cancel_and_wait

log = logging.getLogger("buraco.server.bus")

Handler = Callable[[dict[str, Any]], Awaitable[None]]
"""What a process does with a message from another."""

Resync = Callable[[], Awaitable[None]]
"""What a process does after (re)joining the bus: read what it may have missed."""

CHANNEL = "buraco:tables"
"""The Redis channel every process publishes on and listens to (followed by ``:`` and a
digest of the database's address, so sites with different databases never mix)."""

MAX_OUTBOX = 10_000
"""Messages waiting to be published; past that they are dropped (the others read the
database instead), so a Redis that is away cannot grow a process's memory."""


class Bus:
    """The bus of one process alone: nothing to tell, nothing to hear."""

    shared = False
    """Whether other processes share this site (and its database)."""

    def __init__(self) -> None:
        self.proc = f"{socket.gethostname()[:20]}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process's name on the bus and in the tables' leases: host, pid and a nonce."""
        self.connected = True
        """Whether the bus is reachable now."""
        self.dropped = 0
        """Messages that could not be published."""

    async def start(self, handler: Handler, resync: Resync) -> None:
        """Start listening; ``handler`` gets every other process's messages, in order."""

    def publish(self, message: dict[str, Any]) -> None:
        """Send a message to every other process (never blocks; may be lost)."""

    async def close(self) -> None:
        """Stop listening and publishing."""


class RedisBus(Bus):
    """Fan-out through a Redis pub/sub channel, reconnecting whenever the connection drops."""

    shared = True

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        super().__init__()
        self.url = url
        self.channel = channel
        self.connected = False
        self._outbox: asyncio.Queue[str] = asyncio.Queue(maxsize=MAX_OUTBOX)
        self._tasks: list[asyncio.Task[None]] = []
        self._client: Any = None
        self._closing = False

    async def start(self, handler: Handler, resync: Resync) -> None:
        """Connect (failing at once when Redis is not there), then listen and publish."""
        import redis.asyncio as redis

        self._client = redis.from_url(
            self.url, socket_connect_timeout=5, socket_timeout=10, health_check_interval=5
        )
        await self._client.ping()
        ready = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._listen(handler, resync, ready), name="bus listener"),
            asyncio.create_task(self._publisher(), name="bus publisher"),
        ]
        await asyncio.wait_for(ready.wait(), 10)

    def publish(self, message: dict[str, Any]) -> None:
        """Queue a message for the channel; dropped when the queue is full."""
        message["p"] = self.proc
        try:
            self._outbox.put_nowait(json.dumps(message, separators=(",", ":")))
        except asyncio.QueueFull:
            self.dropped += 1

    async def _publisher(self) -> None:
        while not self._closing:
            data = await self._outbox.get()
            try:
                await self._client.publish(self.channel, data)
            except Exception as exc:  # Redis away: the others read the database instead
                self.dropped += 1
                log.warning("bus: a message was not published (%s)", exc)
                await asyncio.sleep(0.1)

    async def _listen(self, handler: Handler, resync: Resync, ready: asyncio.Event) -> None:
        import redis.asyncio as redis

        backoff = 0.1
        while not self._closing:
            client = redis.from_url(self.url, socket_connect_timeout=5, health_check_interval=5)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                self.connected = True
                backoff = 0.1
                ready.set()
                await resync()  # what was committed while this process was not listening
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        body = json.loads(message["data"])
                    except (ValueError, TypeError):
                        log.warning("bus: a message that is not JSON was ignored")
                        continue
                    if not isinstance(body, dict) or body.get("p") == self.proc:
                        continue
                    try:
                        await handler(body)
                    except Exception:
                        log.exception("bus: a message could not be handled: %.200s", body)
                    if self._closing:  # told to stop while handling it
                        break
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.connected and not self._closing:
                    log.warning("bus: the connection to Redis was lost (%s); reconnecting", exc)
                self.connected = False
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(backoff)
            backoff = min(2.0, backoff * 2)

    async def close(self) -> None:
        """Stop the listener and the publisher, and close the connection.

        Neither loop starts again once told to stop, even if a cancellation is lost inside
        the client (seen as a failed read); the wait for them is bounded
        (:func:`~buraco.server.stopping.cancel_and_wait`).
        """
        self._closing = True
        await cancel_and_wait(self._tasks)
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()


def make_bus(url: str, database: str = "") -> Bus:
    """The bus a server runs with: none (one process) or Redis (``redis://...``).

    The processes of one site (one ``database``) share a channel.

    >>> make_bus("").shared
    False
    >>> make_bus("redis://127.0.0.1:6379/0", "postgresql://db/a").channel.startswith(CHANNEL)
    True
    """
    if not url:
        return Bus()
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"--bus takes a Redis URL (redis://host:6379/0), not {url!r}")
    site = hashlib.sha256(database.encode()).hexdigest()[:12]
    return RedisBus(url, f"{CHANNEL}:{site}")
