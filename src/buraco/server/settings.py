"""The server's settings, from ``buraco serve``'s options (or a test)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs


def default_data_dir() -> Path:
    """The per-user data folder the embedded database goes in (e.g. ~/.local/share/buraco)."""
    return Path(platformdirs.user_data_dir("buraco", appauthor=False))


@dataclass(frozen=True)
class Settings:
    """How a server runs. Every limit here is named in ``docs/online.md``."""

    db_url: str = ""
    """SQLAlchemy URL of the database; empty: SQLite in ``data_dir``."""
    data_dir: Path | None = None
    bot_workers: int = 1
    """Processes that run bots (0: threads of the server process, for tests)."""
    grace: float = 60.0
    """Seconds a disconnected player keeps the seat before a bot plays it."""
    hand_pause: float = 15.0
    """Seconds between the end of a hand and the next deal, unless every player is ready."""
    stand_in: str = "heuristic"
    """The bot that plays for a player who is away or out of time."""
    max_tables_per_guest: int = 5
    """Unfinished tables one guest may have created."""
    rated_guests: bool = False
    """Whether guests (players without an account) may make, sit at or enter rated play."""
    rated_min_turns: int = 10
    """Turns each side of a rated match must play itself (not a bot or stand-in) to be rated."""
    rated_same_opponents: int = 5
    """Rated matches a player may have against the same opponents in a rolling week (bots
    count as one opponent, whatever their spec); past it a match is played unrated."""
    chat_per_minute: int = 20
    """Chat lines one connection may send a minute."""
    messages_per_second: float = 20.0
    """Messages one connection may send a second, on average (bursts of twice that)."""
    send_queue: int = 256
    """Frames waiting for a slow client before it is disconnected."""
    secure_cookie: bool = False
    """Send the guest cookie only over HTTPS (behind a TLS proxy)."""
    bus_url: str = ""
    """Redis URL of the bus shared by several server processes; empty: this process alone."""
    lease: float = 10.0
    """Seconds a process holds a table it drives (deals, bots, timers) unless it renews;
    when a process dies, another takes its tables this long after its last renewal."""
    chat_per_table_minute: int = 60
    """Chat lines one table may receive a minute, from all its connections together."""
    connections_per_guest: int = 8
    """Connections one guest may have open at one server process."""
    connections_per_address: int = 64
    """Connections without a guest (watchers) one address may have open at one process."""
    guests_per_address: str = "20/minute"
    """New guests one address may make (``limits`` notation: so many per second, minute…)."""
    signin_per_address: str = "30/minute"
    """Sign-in tries one address may make."""
    signin_per_name: str = "10/minute"
    """Sign-in tries at one name from one address."""
    signin_failures_per_name: str = "20/10 minutes"
    """Failed sign-ins at one name, from everywhere, past which only the browsers that have
    signed in to the account before may still try (until the window has room again)."""
    accounts_per_address: str = "10/hour"
    """Accounts one address may register or claim."""
    tournaments_per_address: str = "10/hour"
    """Tournaments one address may make."""
    code_guesses_per_address: str = "20/minute"
    """Wrong codes (a table's invite, a tournament partner's place or director's secret) one
    address may give; past it, every code it gives is refused for a while."""
    hash_threads: int = 2
    """Passwords one process hashes or checks at once, each in a worker thread (the others
    wait their turn; the event loop never does the work)."""
    allowed_origins: tuple[str, ...] = ()
    """Other sites' origins (``https://example.org``) allowed to send state-changing requests
    and open sockets with a player's cookie; the server's own origin always is."""

    def url(self) -> str:
        """The database URL to open."""
        if self.db_url:
            return self.db_url
        folder = self.data_dir or default_data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{folder / 'buraco.db'}"
