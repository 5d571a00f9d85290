"""Players as stored: guests, accounts, sessions, devices, a player's export and deletion."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    delete,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncSession,
)

from buraco.server.accounts import NameKeys
from buraco.server.models import (
    ChatRow,
    DeviceRow,
    EntryRow,
    EventRow,
    GamePlayer,
    GameRow,
    Guest,
    SeatRow,
    SessionRow,
    TableRow,
)
from buraco.server.store.base import Forgotten, now
from buraco.server.store.games import GameStore


class PeopleStore(GameStore):
    """Guests, accounts, sessions and deletion."""

    # ----- guests ----------------------------------------------------------------------------
    async def add_guest(
        self,
        guest_id: str,
        token_hash: str,
        name: str,
        *,
        keys: NameKeys | None = None,
        password_hash: str | None = None,
    ) -> None:
        """Store a new guest, signed in with the token (its first session).

        Given its name's keys and a password hash, the guest is an account.
        """
        at = now()
        async with self.session.begin() as s:
            s.add(
                Guest(
                    id=guest_id,
                    token_hash=token_hash,
                    name=name,
                    created_at=at,
                    name_key=keys.folded if keys else None,
                    shape_key=keys.shaped if keys else None,
                    password_hash=password_hash,
                    registered_at=at if password_hash else None,
                )
            )
            await s.flush()
            s.add(SessionRow(token_hash=token_hash, guest_id=guest_id, created_at=at))

    async def guest_by_token(self, token_hash: str) -> Guest | None:
        """The player signed in with a token (a session), if any."""
        async with self.session() as s:
            q = (
                select(Guest)
                .join(SessionRow, SessionRow.guest_id == Guest.id)
                .where(SessionRow.token_hash == token_hash, Guest.deleted.is_(False))
            )
            return (await s.execute(q)).scalar_one_or_none()

    async def guest_by_id(self, guest_id: str) -> Guest | None:
        """A player by id."""
        async with self.session() as s:
            return await s.get(Guest, guest_id)

    async def account_by_keys(self, keys: NameKeys, name: str = "") -> Guest | None:
        """The account holding a name: one that has either of its keys, if any.

        With ``name``, the account of exactly that name comes first (two accounts that were
        made before names were compared as they are now may share a key).
        """
        async with self.session() as s:
            held = or_(Guest.name_key.in_(keys), Guest.shape_key.in_(keys))
            if name:
                exact = Guest.name == name
                q = select(Guest).where(
                    or_(held, exact & Guest.password_hash.is_not(None) & Guest.deleted.is_(False))
                )
                q = q.order_by(exact.desc(), Guest.registered_at, Guest.id)
            else:
                q = select(Guest).where(held).order_by(Guest.registered_at, Guest.id)
            return (await s.execute(q.limit(1))).scalar_one_or_none()

    async def add_session(self, guest_id: str, token_hash: str) -> None:
        """Sign a browser in: a new session of a player."""
        async with self.session.begin() as s:
            s.add(SessionRow(token_hash=token_hash, guest_id=guest_id, created_at=now()))

    async def add_device(self, guest_id: str, token_hash: str) -> None:
        """Note a browser (its device token's hash) as one that signed in to an account."""
        try:
            async with self.session.begin() as s:
                if await s.get(DeviceRow, (token_hash, guest_id)) is None:
                    s.add(DeviceRow(token_hash=token_hash, guest_id=guest_id, created_at=now()))
        except IntegrityError:  # noted by another request at the same moment
            pass

    async def is_device(self, guest_id: str, token_hash: str) -> bool:
        """Whether a browser has signed in to an account before."""
        async with self.session() as s:
            return await s.get(DeviceRow, (token_hash, guest_id)) is not None

    async def drop_session(self, token_hash: str) -> None:
        """Sign one browser out."""
        async with self.session.begin() as s:
            await s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    async def drop_sessions(self, guest_id: str, *, keep: str | None = None) -> list[str]:
        """Sign a player out everywhere (but the session ``keep``); the sessions dropped."""
        async with self.session.begin() as s:
            q = delete(SessionRow).where(SessionRow.guest_id == guest_id)
            if keep is not None:
                q = q.where(SessionRow.token_hash != keep)
            return list((await s.execute(q.returning(SessionRow.token_hash))).scalars())

    async def sessions_alive(self, token_hashes: Sequence[str]) -> set[str]:
        """Which of these sessions still sign a player in."""
        alive: set[str] = set()
        async with self.session() as s:
            for start in range(0, len(token_hashes), 500):
                q = (
                    select(SessionRow.token_hash)
                    .join(Guest, Guest.id == SessionRow.guest_id)
                    .where(
                        SessionRow.token_hash.in_(token_hashes[start : start + 500]),
                        Guest.deleted.is_(False),
                    )
                )
                alive.update((await s.execute(q)).scalars())
        return alive

    async def sessions_of(self, guest_id: str) -> list[SessionRow]:
        """A player's sessions, oldest first."""
        async with self.session() as s:
            q = select(SessionRow).where(SessionRow.guest_id == guest_id)
            return list((await s.execute(q.order_by(SessionRow.created_at))).scalars())

    async def claim_name(
        self, guest_id: str, name: str, keys: NameKeys, password_hash: str, session: str
    ) -> list[str] | None:
        """Make a guest an account, signed in with a new session only.

        The guest's sessions are ended (a guest's token may have been known to others) and
        their token hashes returned; None, and nothing changed, when a key of the name is
        already held.
        """
        try:
            async with self.session.begin() as s:
                ended = list(
                    (
                        await s.execute(
                            delete(SessionRow)
                            .where(SessionRow.guest_id == guest_id)
                            .returning(SessionRow.token_hash)
                        )
                    ).scalars()
                )
                s.add(SessionRow(token_hash=session, guest_id=guest_id, created_at=now()))
                await s.execute(
                    update(Guest)
                    .where(Guest.id == guest_id)
                    .values(
                        name=name,
                        name_key=keys.folded,
                        shape_key=keys.shaped,
                        password_hash=password_hash,
                        registered_at=now(),
                    )
                )
        except IntegrityError:
            return None
        return ended

    async def set_password(self, guest_id: str, password_hash: str) -> None:
        """Store an account's new password hash."""
        async with self.session.begin() as s:
            await s.execute(
                update(Guest).where(Guest.id == guest_id).values(password_hash=password_hash)
            )

    async def delete_account(self, guest_id: str, shown_as: str) -> Forgotten:
        """Forget a player: name, password, sessions and chat lines.

        Their games stay under ``shown_as``, which replaces their name wherever it is
        stored: seats (a stand-in's too, that kept the name of a player who left), the
        tables' logs (a match's first deal names every seat; a seat entry names its player),
        finished games' names and records, tournament entries and standings. Their chat lines
        are deleted.
        """
        async with self.session.begin() as s:
            guest = (
                await s.execute(select(Guest).where(Guest.id == guest_id).with_for_update())
            ).scalar_one_or_none()
            known = {guest.name} if guest is not None and not guest.deleted else set()
            ended = list(
                (
                    await s.execute(
                        delete(SessionRow)
                        .where(SessionRow.guest_id == guest_id)
                        .returning(SessionRow.token_hash)
                    )
                ).scalars()
            )
            await s.execute(
                update(Guest)
                .where(Guest.id == guest_id)
                .values(
                    name=shown_as,
                    name_key=None,
                    shape_key=None,
                    password_hash=None,
                    deleted=True,
                )
            )
            await s.execute(delete(ChatRow).where(ChatRow.guest_id == guest_id))
            await s.execute(delete(DeviceRow).where(DeviceRow.guest_id == guest_id))
            seats = await self._forget_in_tables(s, guest_id, shown_as, known)
            await self._forget_in_tournaments(s, guest_id, shown_as)
        return Forgotten(ended, known - {shown_as}, seats)

    async def _forget_in_tables(
        self, s: AsyncSession, guest_id: str, shown_as: str, known: set[str]
    ) -> dict[str, set[int]]:
        """A deleted player's name out of every table they sat at; those tables' seats.

        ``known`` (the names the player went by) grows with the names their seats and seat
        entries had: at a seat of theirs, each of those names becomes ``shown_as``.
        """
        seats: dict[str, set[int]] = {}
        mine = f'"guest":"{guest_id}"'
        q = select(EventRow).where(
            EventRow.kind == "seat", EventRow.data.contains(mine, autoescape=True)
        )
        for ev in (await s.execute(q)).scalars():
            data = json.loads(ev.data)
            if data.get("guest") == guest_id:
                seats.setdefault(ev.table_id, set()).add(int(data["seat"]))
                known.add(str(data.get("name")))
        for row in (await s.execute(select(SeatRow).where(SeatRow.guest_id == guest_id))).scalars():
            seats.setdefault(row.table_id, set()).add(row.seat)
            known.add(row.name)
        # a seat of theirs that the log does not name them at: the one they took making a
        # table (or a tournament seated them at), left since in play (a stand-in keeps the
        # name); there, the seats under one of their names
        entered = select(EntryRow.tournament_id).where(
            EntryRow.members.contains(f'"guest": "{guest_id}"', autoescape=True)
        )
        theirs = select(TableRow.id).where(
            or_(TableRow.created_by == guest_id, TableRow.tournament_id.in_(entered))
        )
        q_seats = select(SeatRow.table_id, SeatRow.seat).where(
            SeatRow.table_id.in_(theirs), SeatRow.name.in_(sorted(known))
        )
        for table_id, seat in (await s.execute(q_seats)).all():
            seats.setdefault(table_id, set()).add(seat)
        played = select(GamePlayer.game_id, GamePlayer.seat).where(GamePlayer.guest_id == guest_id)
        games: dict[int, set[int]] = {}
        for game_id, seat in (await s.execute(played)).all():
            games.setdefault(game_id, set()).add(seat)
        if seats:
            q2 = select(GameRow.id, GameRow.table_id).where(GameRow.table_id.in_(list(seats)))
            for game_id, table_id in (await s.execute(q2)).all():
                games.setdefault(game_id, set()).update(seats[table_id])
        for game_id, at in games.items():
            game = await s.get(GameRow, game_id)
            if game is None:
                continue
            names = json.loads(game.names)
            for i in at:
                if i < len(names) and names[i] in known:
                    names[i] = shown_as
            record = json.loads(game.record)
            if isinstance(record.get("names"), list):
                record["names"] = [
                    shown_as if i in at and n in known else n for i, n in enumerate(record["names"])
                ]
            game.names = json.dumps(names)
            game.record = json.dumps(record, separators=(",", ":"))
        for table_id, at in seats.items():
            await s.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat.in_(sorted(at)),
                    SeatRow.name.in_(sorted(known)),
                )
                .values(name=shown_as)
            )
            q3 = select(EventRow).where(
                EventRow.table_id == table_id, EventRow.kind.in_(("deal", "seat"))
            )
            for ev in (await s.execute(q3)).scalars():
                data = json.loads(ev.data)
                changed = False
                if ev.kind == "deal" and isinstance(data.get("names"), list):
                    for i in at:
                        if i < len(data["names"]) and data["names"][i] in known:
                            data["names"][i] = shown_as
                            changed = True
                elif ev.kind == "seat" and data.get("seat") in at and data.get("name") in known:
                    data["name"] = shown_as
                    changed = True
                if changed:
                    ev.data = json.dumps(data, separators=(",", ":"))
        return seats

    async def everything_about(self, guest_id: str) -> dict[str, Any]:
        """What is stored about a player, as JSON-ready data (no secret, no hash)."""
        async with self.session() as s:
            guest = await s.get(Guest, guest_id)
            assert guest is not None
            sessions = (
                await s.execute(select(SessionRow).where(SessionRow.guest_id == guest_id))
            ).scalars()
            made = (
                await s.execute(select(TableRow).where(TableRow.created_by == guest_id))
            ).scalars()
            seats = (await s.execute(select(SeatRow).where(SeatRow.guest_id == guest_id))).scalars()
            games = (
                await s.execute(select(GamePlayer).where(GamePlayer.guest_id == guest_id))
            ).scalars()
            chat = (await s.execute(select(ChatRow).where(ChatRow.guest_id == guest_id))).scalars()
            devices = (
                await s.execute(select(DeviceRow).where(DeviceRow.guest_id == guest_id))
            ).scalars()
            entries = (
                await s.execute(
                    select(EntryRow).where(
                        EntryRow.members.contains(f'"guest": "{guest_id}"', autoescape=True)
                    )
                )
            ).scalars()
            return {
                "id": guest.id,
                "name": guest.name,
                "account": guest.password_hash is not None,
                "created_at": guest.created_at.isoformat(),
                "registered_at": guest.registered_at.isoformat() if guest.registered_at else None,
                "sessions": [{"created_at": x.created_at.isoformat()} for x in sessions],
                "devices": [{"created_at": x.created_at.isoformat()} for x in devices],
                "tables_created": [t.id for t in made],
                "seats": [{"table": x.table_id, "seat": x.seat, "name": x.name} for x in seats],
                "games": [{"game": g.game_id, "seat": g.seat} for g in games],
                "tournament_entries": [
                    {"tournament": e.tournament_id, "entry": e.number} for e in entries
                ],
                "chat": [
                    {"table": c.table_id, "text": c.text, "at": c.created_at.isoformat()}
                    for c in chat
                ],
            }

    async def rename_guest(self, guest_id: str, name: str) -> None:
        """Change a guest's display name."""
        async with self.session.begin() as s:
            await s.execute(update(Guest).where(Guest.id == guest_id).values(name=name))

    async def count_tables_by(self, guest_id: str) -> int:
        """How many unfinished tables a guest has created (a tournament's are not counted)."""
        async with self.session() as s:
            q = select(func.count()).where(
                TableRow.created_by == guest_id,
                TableRow.status != "over",
                TableRow.tournament_id.is_(None),
            )
            return int((await s.execute(q)).scalar_one())
