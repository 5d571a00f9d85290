"""Who is connected at each table, their sessions, and table chat."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from buraco.server.people import Guest
from buraco.server.service.state import ServiceState
from buraco.server.tables import LiveTable, Sender, dumps

log = logging.getLogger("buraco.server")


class Presence(ServiceState):
    """Who is connected at each table, their sessions, and table chat."""

    def connect(self, lt: LiveTable, conn: Sender) -> None:
        """A connection opened at a table."""
        lt.conns.add(conn)
        if conn.session is not None:
            self.session_conns.setdefault(conn.session, set()).add(conn)
            if conn.session in self._ended:  # ended while the socket was being opened
                conn.signed_out()
        self._idle.pop(lt.id, None)
        self._connections_changed(lt, conn)

    def disconnect(self, lt: LiveTable, conn: Sender) -> None:
        """A connection closed."""
        lt.conns.discard(conn)
        if conn.session is not None:
            mine = self.session_conns.get(conn.session, set())
            mine.discard(conn)
            if not mine:
                self.session_conns.pop(conn.session, None)
        self._connections_changed(lt, conn)

    def end_sessions(self, ended: Sequence[str], *, tell: bool = True) -> int:
        """Close the connections of sessions that have ended (code 4401); how many, here.

        Called once the sessions are deleted from the database; the other processes are told
        over the bus (``tell``), and each also checks its connections' sessions against the
        database every ``--lease``/4 seconds, in case a message is lost.
        """
        closed = 0
        at = time.monotonic()
        for session, when in list(self._ended.items()):
            if at - when > 60:
                del self._ended[session]
        for session in ended:
            self._ended[session] = at
            for conn in list(self.session_conns.get(session, ())):
                conn.signed_out()
                closed += 1
        if tell and ended and self.shared:
            self.bus.publish({"t": "sessions", "ended": list(ended)})
        return closed

    async def _check_sessions(self) -> None:
        """Close the connections whose session no longer signs anyone in (a lost message)."""
        held = list(self.session_conns)
        if held:
            alive = await self.store.sessions_alive(held)
            self.end_sessions([h for h in held if h not in alive], tell=False)

    def _connections_changed(self, lt: LiveTable, conn: Sender) -> None:
        # a player's connection: everyone is told who is connected (the player too, whose
        # state was made just before it joined)
        if self._recount(lt) or conn.seat is not None:
            self._presence(lt)
        if self.shared and conn.seat is not None:  # a watcher changes no one's presence
            self.bus.publish({"t": "presence", "table": lt.id, "seats": _seats_here(lt)})
        lt.changed.set()

    def _recount(self, lt: LiveTable) -> bool:
        """Note since when each player has had no connection, here or at another process.

        Returns whether that changed.
        """
        changed = False
        for s in lt.seats:
            if s.kind != "guest" or lt.connected(s.seat):
                if lt.left_at.pop(s.seat, None) is not None:
                    changed = True
            elif s.seat not in lt.left_at:
                lt.left_at[s.seat] = time.monotonic()
                changed = True
        return changed

    def _presence(self, lt: LiveTable) -> None:
        summary = lt.summary(self.settings.grace)
        lt.broadcast(lambda _seat: dumps({"type": "table", "table": summary}))

    async def chat(self, lt: LiveTable, guest: Guest, line: str) -> None:
        """Store a chat line and send it to everyone at the table (a deleted player's: not)."""
        row = await self.store.add_chat(lt.id, guest.id, line)
        if row is None:
            return
        said = chat_line(row.id, row.name, row.text, lt.seat_of(guest.id), row.created_at)
        message = dumps({"type": "chat", "line": said})
        lt.broadcast(lambda _seat: message)
        self.bus.publish({"t": "chat", "table": lt.id, "line": said})


def _seats_here(lt: LiveTable) -> list[int]:
    """The seats with a connection at this process."""
    return sorted({c.seat for c in lt.conns if c.seat is not None})


def chat_line(line_id: int, name: str, text: str, seat: int | None, at: datetime) -> dict[str, Any]:
    """A chat line as clients get it (rendered by them as text, never as HTML).

    Times are UTC; SQLite gives them back without their offset, which is put back.
    """
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return {"id": line_id, "name": name, "text": text, "seat": seat, "at": at.isoformat()}
