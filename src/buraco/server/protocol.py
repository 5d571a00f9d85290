"""The WebSocket protocol: every message a client may send, parsed strictly, and the limits.

Documented with examples in ``docs/protocol.md``. A client connects to
``/ws/tables/{table}`` (with its guest cookie, or as a spectator without one)
and receives ``state``; it then sends the messages below, one JSON object per
frame. The server's messages are built in :mod:`buraco.server.tables`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

PROTOCOL = 2
"""The protocol's version, sent in ``welcome``; a client asks for it in ``hello``."""

MAX_FRAME = 4096
"""The largest frame a client may send, in bytes."""

MAX_CHAT = 300
"""The longest chat line, in characters."""

MAX_ACTION = 500
"""The longest action text, in characters (as the engine's notation allows)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    """Sent first (optional): the protocol the client speaks and the last version it saw.

    With ``since``, the server answers with the events missed since that version
    when it still has them, else with a full ``state``.
    """

    type: Literal["hello"]
    protocol: int = PROTOCOL
    since: Annotated[int, Field(ge=0)] | None = None


class ActionMessage(_Message):
    """Make an action at the sender's seat, in the engine's notation (``docs/notation.md``).

    ``version`` is the table version the sender's view showed: an action sent
    from an older view is refused as ``stale`` with the current state.
    """

    type: Literal["action"]
    version: Annotated[int, Field(ge=0)]
    action: Annotated[str, StringConstraints(min_length=1, max_length=MAX_ACTION)]


class ChatMessage(_Message):
    """Say something at the table (players and spectators with a guest name)."""

    type: Literal["chat"]
    text: Annotated[str, StringConstraints(min_length=1, max_length=MAX_CHAT)]


class Ready(_Message):
    """Ready for the next hand (it is dealt when every player is ready, or after a pause)."""

    type: Literal["ready"]


class Ping(_Message):
    """Ask for a ``pong`` (liveness)."""

    type: Literal["ping"]


ClientMessage = Annotated[
    Hello | ActionMessage | ChatMessage | Ready | Ping, Field(discriminator="type")
]
"""Any message a client may send."""

client_message: TypeAdapter[Hello | ActionMessage | ChatMessage | Ready | Ping] = TypeAdapter(
    ClientMessage
)
"""Parses one client frame (JSON text) into its message."""

KINDS = ("hello", "action", "chat", "ready", "ping")
"""The ``type`` of every client message."""
