"""Who plays online: a guest or an account, their display name, and how secrets are kept."""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass

from buraco.game import MAX_NAME
from buraco.server.accounts import visible
from buraco.server.errors import ServiceError
from buraco.text import has_control


def token_hash(token: str) -> str:
    """The stored form of a secret (a guest token or an invite code)."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: object) -> str:
    """A display name: 1 to 40 printable characters, trimmed."""
    if not isinstance(name, str) or not name.strip():
        raise ServiceError("name.length", field="name", most=MAX_NAME)
    name = name.strip()
    # what is shown: a name of fillers and zero-width characters reads as no name at all
    if not any(unicodedata.category(c)[0] in "LNPS" for c in visible(name)):
        raise ServiceError("name.visible", field="name")
    if len(name) > MAX_NAME or has_control(name):
        raise ServiceError("name.printable", field="name", most=MAX_NAME)
    return name


@dataclass(frozen=True)
class Guest:
    """A player as the service knows them: a guest, or an account (a claimed name)."""

    id: str
    name: str
    account: bool = False
