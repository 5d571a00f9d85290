"""The database tables (SQLAlchemy 2): guests, tables and their seats, the table log, games, chat.

A live table is rebuilt from its **log** (``events``): the deal of each hand
(its deck, cut, salt and commitment) and every accepted action, each with the
table's version. The log's primary key (table, version) also makes sure two
writers can never both commit the same version of a table.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy import false as sa_false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of every table."""


class Guest(Base):
    """A player: a guest (a name), or an account (a name claimed with a password).

    ``token_hash`` is the hash of the first browser's token (kept for old cookies; every
    browser signed in is a :class:`SessionRow`). An account has its name's two keys,
    ``name_key`` and ``shape_key`` (its name without ignorable characters, normalised,
    case-folded and reduced to its confusable skeleton, in both orders:
    :func:`buraco.server.accounts.name_keys`; each unique, and no other account or guest may
    take a name sharing either) and ``password_hash`` (Argon2id). A deleted account keeps
    its row, for its games, as "deleted player" with none of them.
    """

    __tablename__ = "guests"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    name_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    shape_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    registered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())

    __table_args__ = (
        Index("uq_guests_name_key", "name_key", unique=True),
        Index("uq_guests_shape_key", "shape_key", unique=True),
    )


class SessionRow(Base):
    """A signed-in browser: the hash of its cookie's token, and whose it is (revocable)."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    guest_id: Mapped[str] = mapped_column(ForeignKey("guests.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_sessions_guest", "guest_id"),)


class DeviceRow(Base):
    """A browser that has signed in to an account: the hash of its device cookie's token.

    It stays when the browser signs out; while a name's failed sign-ins are past their limit,
    only its known browsers may still try (``docs/online.md``, limits).
    """

    __tablename__ = "devices"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    guest_id: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_devices_guest", "guest_id"),)


class TableRow(Base):
    """A table: its rules, who created it, how it is played, and its current version."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_by: Mapped[str] = mapped_column(ForeignKey("guests.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    preset: Mapped[str] = mapped_column(String(20))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)
    """The rule options that differ from the preset, as JSON."""
    public: Mapped[bool] = mapped_column(Boolean)
    invite_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the invite code that opens the seats kept for invited friends."""
    pace: Mapped[float] = mapped_column(Float)
    """Seconds a bot waits before it moves."""
    turn_timer: Mapped[int] = mapped_column(Integer)
    minutes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """A timed match: minutes after its first deal, the match ends with the hand in play
    (0: played to the target or the number of hands of its rules)."""
    """Seconds a player has for a turn before a bot moves for them (0: no timer)."""
    status: Mapped[str] = mapped_column(String(10))
    """``waiting`` for players, ``playing``, or ``over``."""
    version: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    """A rated match: its end updates the players' ratings."""
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    tournament_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The tournament whose table this is (with its turn and table number), if any."""
    tournament_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tournament_table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    holds_decks: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    """A duplicate tournament's table: the other tables of its turn play the same decks,
    so a hand's deck and salt are shown only once the turn is over (in its games' records)."""

    __table_args__ = (
        Index("ix_tables_status", "status"),
        Index("ix_tables_tournament", "tournament_id"),
    )


class Lease(Base):
    """Which server process drives an unfinished table (deals, bots, timers), until when.

    Kept only when several processes share the database (``buraco serve --bus``); the
    owner renews it, or another process takes the table once it has run out. Apart from
    the tables' rows, so renewing every lease of a process never waits for, nor blocks,
    the commits of actions.
    """

    __tablename__ = "leases"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(40))
    until: Mapped[float] = mapped_column(Float)
    """Seconds since the epoch."""

    __table_args__ = (Index("ix_leases_owner", "owner"),)


class SeatRow(Base):
    """Who sits at one seat: open, a bot, kept for an invited friend, or a guest."""

    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    """``open``, ``invite`` (kept for the invite link), ``bot`` or ``guest``."""
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest_id: Mapped[str | None] = mapped_column(ForeignKey("guests.id"), nullable=True)
    invited: Mapped[bool] = mapped_column(Boolean)
    """Kept for the invite link when it was created (stays true once a friend sits)."""
    name: Mapped[str] = mapped_column(String(40))


class EventRow(Base):
    """One entry of a table's log, at one version of the table."""

    __tablename__ = "events"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    """``deal``, ``action``, ``seat`` or ``stop`` (a timed match ended)."""
    data: Mapped[str] = mapped_column(Text)
    """The entry as JSON (see ``buraco.server.tables``)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    """A finished match, kept as its game record."""

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), unique=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    preset: Mapped[str] = mapped_column(String(20))
    players: Mapped[int] = mapped_column(Integer)
    names: Mapped[str] = mapped_column(Text)
    totals: Mapped[str] = mapped_column(Text)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hands: Mapped[int] = mapped_column(Integer)
    record: Mapped[str] = mapped_column(Text)
    unrated: Mapped[str | None] = mapped_column(String(20), nullable=True)
    """A rated table's match that was not rated, and why: ``rated.turns`` (a side played
    too few turns itself) or ``rated.cap`` (too many rated matches against the same
    opponents that week); None otherwise."""


class GamePlayer(Base):
    """Which guest played which seat of a finished game (for a player's list of games)."""

    __tablename__ = "game_players"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    guest_id: Mapped[str] = mapped_column(ForeignKey("guests.id"))

    __table_args__ = (Index("ix_game_players_guest", "guest_id"),)


class ChatRow(Base):
    """One chat line at a table."""

    __tablename__ = "chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    guest_id: Mapped[str] = mapped_column(ForeignKey("guests.id"))
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_chat_table", "table_id", "id"),)


class RatingRow(Base):
    """A player's rating in one preset and player count (openskill: μ and σ)."""

    __tablename__ = "ratings"
    guest_id: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    preset: Mapped[str] = mapped_column(String(20), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_ratings_board", "preset", "players"),)


class RatingChange(Base):
    """A rating before and after one rated game.

    One row per player and game, so a game's update is never applied twice.
    """

    __tablename__ = "rating_changes"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    guest_id: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    opponents: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """Who the player played (:func:`buraco.server.ratings.opponents_key`), for the cap on
    rated matches against the same opponents (None: rated before it was kept)."""

    __table_args__ = (Index("ix_rating_changes_guest", "guest_id"),)


class TournamentRow(Base):
    """A tournament: who directs it, its games' rules, and its state as the library keeps it.

    ``state`` is :meth:`buraco.tournament.Tournament.to_dict` as JSON (entrants, movements,
    VP scale, pairings, results); ``version`` rises with each change, so two processes
    never both advance a turn. ``next_turn_at`` is when the next turn starts (seconds
    since the epoch), once the turn before is complete.
    """

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_by: Mapped[str] = mapped_column(ForeignKey("guests.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    secret_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the director's secret link."""
    preset: Mapped[str] = mapped_column(String(20))
    players: Mapped[int] = mapped_column(Integer)
    """Players at a table: 4 (entrants are pairs) or 2 (entrants are players)."""
    pace: Mapped[float] = mapped_column(Float)
    break_seconds: Mapped[int] = mapped_column(Integer)
    minutes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """A turn's time: its tables end with the hand in play after so many minutes (0: none)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    """Its tables are rated: each table's end updates its players' ratings."""
    status: Mapped[str] = mapped_column(String(10))
    """``open`` for entries, ``playing``, or ``over``."""
    state: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer)
    next_turn_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (Index("ix_tournaments_status", "status"),)


class EntryRow(Base):
    """An entrant of a tournament: a pair (two members) or a player.

    Each member is a guest or a bot, or a place kept for a partner who has not joined.
    """

    __tablename__ = "tournament_entries"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The entrant's number in the tournament's state, from 0."""
    members: Mapped[str] = mapped_column(Text)
    """JSON: one or two of ``{"guest": id, "name": …}``, ``{"bot": spec, "name": …}`` or
    ``{"open": true}``."""


class TournamentDeal(Base):
    """A duplicate tournament's deck order for one hand of one turn (every table's).

    Committed to when the turn starts (its commitment is in every table's log), its
    deck and salt shown once the turn is over, as every online deal's are.
    """

    __tablename__ = "tournament_deals"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    turn: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    deck: Mapped[str] = mapped_column(Text)
    cut: Mapped[int] = mapped_column(Integer)
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
