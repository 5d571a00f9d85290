"""The WebSocket endpoint: one connection per client at one table (``docs/protocol.md``).

This layer only moves frames: it reads a client's messages (bounded in size and
rate, parsed strictly), hands them to the table service, and writes the
service's frames from a bounded queue. A client that stops reading is
disconnected when its queue fills, so it cannot grow the server's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from buraco.server.errors import ServiceError
from buraco.server.protocol import (
    MAX_FRAME,
    PROTOCOL,
    ActionMessage,
    ChatMessage,
    Hello,
    Ping,
    Ready,
    client_message,
)
from buraco.server.service import Guest, TableService, chat_line
from buraco.server.settings import Settings
from buraco.server.tables import Bucket, LiveTable, Sender, dumps
from buraco.text import has_control

CLOSE_NOT_FOUND = 4404
CLOSE_HELD = 4409
"""A duplicate tournament's table whose turn other tables still play: only its players see it."""
"""Close code: no such table (or a private one without its invite code)."""
CLOSE_SLOW = 4408
"""Close code: the client did not read its frames (its queue filled)."""
CLOSE_TOO_MANY = 4429
"""Close code: the guest has too many connections open at this server process."""
CLOSE_SIGNED_OUT = 4401
"""Close code: the session the connection was opened with has ended (signed out, signed out
everywhere, a new password, the account deleted, or the name claimed with a new session)."""


class Connection(Sender):
    """One client's connection: its seat (None: a spectator) and its queue of frames."""

    def __init__(
        self,
        ws: WebSocket,
        guest: Guest | None,
        seat: int | None,
        size: int,
        session: str | None = None,
    ) -> None:
        self.ws = ws
        self.guest = guest
        self.guest_id = guest.id if guest else None
        self.session = session if guest else None
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=size)
        self.closing: tuple[int, str] | None = None
        """Why the connection is being closed (its code and reason), once it is."""

    def send(self, frame: str) -> None:
        """Queue a frame; a full queue marks the client as too slow and ends the connection."""
        if self.closing is not None:
            return
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.closing = (CLOSE_SLOW, "too slow: frames were not read")
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def signed_out(self) -> None:
        """Close with code 4401: nothing more is sent, and what the client sends is ignored."""
        if self.closing is not None and self.closing[0] == CLOSE_SIGNED_OUT:
            return
        self.closing = (CLOSE_SIGNED_OUT, "signed out")
        while not self.queue.empty():  # what was queued is not for a signed-out client
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    async def writer(self) -> None:
        """Send queued frames in order until the queue says stop."""
        while True:
            frame = await self.queue.get()
            if frame is None:
                code, reason = self.closing or (CLOSE_SLOW, "")
                await self.ws.close(code=code, reason=reason)
                return
            await self.ws.send_text(frame)


def error(refused: ServiceError, version: int | None = None, **extra: Any) -> str:
    """An ``error`` frame: the refusal (:mod:`buraco.server.errors`), the table's version."""
    out: dict[str, Any] = {"type": "error", **refused.as_dict()}
    if version is not None:
        out["version"] = version
    out.update({k: v for k, v in extra.items() if v is not None})
    return dumps(out)


async def serve_table(
    ws: WebSocket,
    service: TableService,
    settings: Settings,
    lt: LiveTable,
    guest: Guest | None,
    since: int | None,
    session: str | None = None,
) -> None:
    """Run one accepted connection at a table until it closes.

    A player may have ``connections_per_guest`` connections open at this process, and an
    address ``connections_per_address`` without a player (watchers).
    """
    if guest is not None:
        key, limit = guest.id, settings.connections_per_guest
        refused = ServiceError("connections", most=limit)
    else:
        host = ws.client.host if ws.client else "unknown"
        key, limit = f"address {host}", settings.connections_per_address
        refused = ServiceError("limit.sockets", most=limit)
    if service.guest_conns[key] >= limit:
        await ws.send_text(error(refused))
        await ws.close(code=CLOSE_TOO_MANY, reason="too many connections")
        return
    service.guest_conns[key] += 1
    try:
        await _serve(ws, service, settings, lt, guest, since, session)
    finally:
        service.guest_conns[key] -= 1
        if service.guest_conns[key] <= 0:
            del service.guest_conns[key]


async def _serve(
    ws: WebSocket,
    service: TableService,
    settings: Settings,
    lt: LiveTable,
    guest: Guest | None,
    since: int | None,
    session: str | None,
) -> None:
    seat = lt.seat_of(guest.id if guest else None)
    conn = Connection(ws, guest, seat, settings.send_queue, session)
    you = {"id": guest.id, "name": guest.name} if guest else None
    chat = await service.store.chat(lt.id)
    # no await from here to connect(): the state sent and the events that follow it
    # are one unbroken sequence of versions, and the seat is the one held now
    conn.seat = lt.seat_of(conn.guest_id)
    _catch_up(conn, lt, since, you, settings)
    conn.send(
        dumps(
            {
                "type": "chat",
                "lines": [chat_line(c.id, c.name, c.text, None, c.created_at) for c in chat],
            }
        )
    )
    service.connect(lt, conn)
    writer = asyncio.create_task(conn.writer())
    messages = Bucket(settings.messages_per_second, 2 * settings.messages_per_second)
    chats = Bucket(settings.chat_per_minute / 60, settings.chat_per_minute / 4)
    try:
        while True:
            receive = asyncio.create_task(ws.receive())
            done, _ = await asyncio.wait({receive, writer}, return_when=asyncio.FIRST_COMPLETED)
            if writer in done:
                receive.cancel()
                return
            raw = receive.result()
            if raw["type"] == "websocket.disconnect":
                return
            text = raw.get("text")
            if text is None:
                data = raw.get("bytes") or b""
                text = data.decode("utf-8", "replace") if len(data) <= MAX_FRAME else None
                if text is None:
                    conn.send(error(ServiceError("too-large.frame", most=MAX_FRAME)))
                    continue
            if len(text) > MAX_FRAME // 4 and len(text.encode()) > MAX_FRAME:
                conn.send(error(ServiceError("too-large.frame", most=MAX_FRAME)))
                continue
            if not messages.take():
                conn.send(error(ServiceError("rate", most=settings.messages_per_second)))
                continue
            await _handle(conn, lt, service, settings, text, chats, you)
    except WebSocketDisconnect:
        return
    finally:
        service.disconnect(lt, conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


def _catch_up(
    conn: Connection,
    lt: LiveTable,
    since: int | None,
    you: dict[str, Any] | None,
    settings: Settings,
) -> None:
    """Send what a client missed since a version (when still kept), then the full state."""
    if since is not None:
        missed = lt.missed(since)
        if missed:
            conn.send(dumps({"type": "missed", "since": since, "events": missed}))
    conn.send(lt.state_frame(conn.seat, you, settings.grace))


async def _handle(
    conn: Connection,
    lt: LiveTable,
    service: TableService,
    settings: Settings,
    text: str,
    chats: Bucket,
    you: dict[str, Any] | None,
) -> None:
    if conn.closing is not None:  # signed out (or too slow): nothing more is done for it
        return
    try:
        msg = client_message.validate_json(text)
    except ValidationError as exc:
        errors = exc.errors()
        where = ".".join(str(p) for p in errors[0]["loc"]) if errors else ""
        what = errors[0]["msg"] if errors else ""
        refused = (
            ServiceError("message.field", where=where, text=what)
            if where
            else ServiceError("message")
        )
        conn.send(error(refused))
        return
    if isinstance(msg, Ping):
        conn.send(dumps({"type": "pong", "version": lt.version}))
    elif isinstance(msg, Hello):
        if msg.protocol != PROTOCOL:
            conn.send(error(ServiceError("protocol", protocol=PROTOCOL)))
            return
        _catch_up(conn, lt, msg.since, you, settings)
    elif isinstance(msg, ActionMessage | Ready) and lt.seat_of(conn.guest_id) is None:
        conn.send(error(ServiceError("spectator"), lt.version))
    elif isinstance(msg, ActionMessage):
        seat = lt.seat_of(conn.guest_id)
        assert seat is not None
        try:
            await service.act(lt, seat, msg.version, msg.action)
        except ServiceError as exc:
            conn.send(error(exc, lt.version, action=msg.action[:100]))
            if exc.code == "stale":
                conn.send(lt.state_frame(seat, you, settings.grace))
    elif isinstance(msg, ChatMessage):
        if conn.guest is None:
            conn.send(error(ServiceError("guest.chat")))
            return
        line = " ".join(msg.text.split())
        if not line or has_control(line):
            conn.send(error(ServiceError("chat")))
            return
        if not chats.take():
            conn.send(error(ServiceError("rate.chat", most=settings.chat_per_minute)))
            return
        if lt.chat_rate is None:
            per_table = settings.chat_per_table_minute
            lt.chat_rate = Bucket(per_table / 60, per_table / 4)
        if not lt.chat_rate.take():
            most = settings.chat_per_table_minute
            conn.send(error(ServiceError("rate.table-chat", most=most)))
            return
        await service.chat(lt, conn.guest, line)
    elif isinstance(msg, Ready):
        seat = lt.seat_of(conn.guest_id)
        assert seat is not None
        try:
            await service.ready(lt, seat)
        except ServiceError as exc:
            conn.send(error(exc, lt.version))
