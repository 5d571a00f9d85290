"""How a tournament's entrant is named: its members' names (below the store and the service)."""

from __future__ import annotations

from typing import Any


def entry_name(members: list[dict[str, Any]]) -> str:
    """An entrant's name: its members' names, ``Ana/Bia`` (a place still open: ``Ana/…``).

    >>> entry_name([{"name": "Ana"}, {"name": "", "open": True}])
    'Ana/…'
    """
    return "/".join(m["name"] if not m.get("open") else "…" for m in members)[:40]
