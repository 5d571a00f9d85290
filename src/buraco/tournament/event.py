"""A tournament as a director runs it: entrants, turns, pairings, results, standings.

A :class:`Tournament` is plain data (saved as JSON by ``buraco tournament``): each turn
is paired by its movement when the turn before is complete, each table's result is
entered (and may be corrected, or its VP adjusted by the director with a note), and
the standings follow from the results.

>>> t = Tournament.new("Club", ["Ana/Bia", "Caio/Duda", "Eva/Fabio", "Gil/Hugo"],
...                    movements=["mitchell", "mitchell"], hands=3)
>>> [(p.table, p.ns, p.ew) for p in t.pair()]
[(1, 0, 2), (2, 1, 3)]
>>> t.record(1, 1500, 900); t.record(2, 800, 1000)
>>> [(s.place, t.entrants[s.entrant], s.vp) for s in t.standings()]
[(1, 'Ana/Bia', 15), (2, 'Gil/Hugo', 12), (3, 'Caio/Duda', 8), (4, 'Eva/Fabio', 5)]
>>> [(p.table, p.ns, p.ew) for p in t.pair()]
[(1, 0, 3), (2, 1, 2)]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from buraco.errors import TournamentError, shown
from buraco.game import MAX_NAME
from buraco.text import has_control
from buraco.tournament.pairing import (
    MAX_ENTRANTS,
    Pairing,
    danish,
    individual,
    met,
    mitchell,
    mitchell_turns,
    partnered,
    round_robin,
    round_robin_turns,
    swiss,
)
from buraco.tournament.standings import BYE_VP, Result, Standing, datum, standings
from buraco.tournament.vp import FULL, VPScale, scale_for, scale_from_dict

MOVEMENTS = ("mitchell", "danish", "danish-modified", "swiss", "round-robin")
"""The movements a turn may be paired by."""

MAX_TURNS = 50
"""The most turns a tournament may have."""

FORMAT = "buraco-tournament"
"""The ``format`` key of a saved tournament."""

VERSION = 1
"""The version of the saved form."""


@dataclass
class Tournament:
    """A tournament of pairs (or of players, in a game of two), or an individual one.

    ``individual``: the entrants are players, seated four to a table with a new
    partner each turn (:func:`~buraco.tournament.pairing.individual`); each scores
    their side's VP and MP.
    """

    name: str
    entrants: list[str]
    movements: list[str]
    """One a turn: how that turn is paired."""
    hands: int
    scale: VPScale
    bye_vp: int = BYE_VP
    duplicate: bool = False
    """Every table of a turn is dealt the same cards: VP go against the turn's datum."""
    individual: bool = False
    """Players, four to a table, a new partner each turn (only Swiss turns)."""
    turns: list[list[Pairing]] = field(default_factory=list)
    """The pairings of the turns paired so far."""
    results: list[Result] = field(default_factory=list)

    # ----- making one ----------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        name: str,
        entrants: list[str],
        *,
        movements: list[str],
        hands: int,
        scale: VPScale | None = None,
        bye_vp: int = BYE_VP,
        duplicate: bool = False,
        individual: bool = False,
    ) -> Tournament:
        """A tournament before its first turn; every argument checked."""
        t = cls(
            name,
            list(entrants),
            list(movements),
            hands,
            scale or scale_for(hands),
            bye_vp,
            duplicate,
            individual,
        )
        t.check()
        return t

    def check(self) -> None:
        """Refuse a tournament that contradicts itself, saying what is wrong."""
        _check_text("the tournament's name", self.name)
        if not isinstance(self.entrants, list) or not isinstance(self.movements, list):
            raise TournamentError("a tournament's entrants and movements are lists")
        n = len(self.entrants)
        if not 2 <= n <= MAX_ENTRANTS:
            raise TournamentError(f"a tournament has 2 to {MAX_ENTRANTS} entrants, not {n}")
        seen: set[str] = set()
        for i, e in enumerate(self.entrants):
            _check_text(f"entrant {i + 1}'s name", e)
            if e.casefold() in seen:
                raise TournamentError(f"entrant {i + 1}: {e!r} is entered twice")
            seen.add(e.casefold())
        if not 1 <= len(self.movements) <= MAX_TURNS:
            raise TournamentError(f"a tournament has 1 to {MAX_TURNS} turns")
        for i, m in enumerate(self.movements):
            if m not in MOVEMENTS:
                raise TournamentError(
                    f"turn {i + 1}: no movement {shown(m)}; movements: {', '.join(MOVEMENTS)}"
                )
        for kind, most in (
            ("mitchell", mitchell_turns(n)),
            ("round-robin", round_robin_turns(n)),
        ):
            count = self.movements.count(kind)
            if count > most:
                raise TournamentError(
                    f"{n} entrants have {most} {kind} turns before pairs meet again, not {count}",
                    f"{kind}-turns",
                    entrants=n,
                    most=most,
                    count=count,
                )
        if self.individual:
            if n < 4:
                raise TournamentError(f"an individual tournament has 4 or more players, not {n}")
            other = next((m for m in self.movements if m != "swiss"), None)
            if other is not None:
                raise TournamentError(
                    "an individual tournament is paired 'swiss' every turn (a new partner "
                    f"each turn), not {other!r}"
                )
        if type(self.hands) is not int or not 1 <= self.hands <= 20:
            raise TournamentError(f"a turn has 1 to 20 hands, not {shown(self.hands)}")
        if self.scale.hands is not None and self.scale.hands != self.hands:
            raise TournamentError(
                f"the VP scale {self.scale.name!r} is for turns of {self.scale.hands} hands, "
                f"not {self.hands}"
            )
        if type(self.bye_vp) is not int or not 0 <= self.bye_vp <= FULL:
            raise TournamentError(f"a bye scores 0 to {FULL} VP, not {shown(self.bye_vp)}")

    # ----- turns ---------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        """The turn in play (from 1; 0 before the first is paired)."""
        return len(self.turns)

    def missing(self) -> list[int]:
        """The tables of the turn in play whose result is not in yet."""
        if not self.turns:
            return []
        have = {r.table for r in self.results if r.turn == self.turn}
        return [p.table for p in self.turns[-1] if p.ew is not None and p.table not in have]

    def pair(self) -> list[Pairing]:
        """Pair the next turn by its movement (the turn before must be complete).

        Danish and Swiss turns pair by the standings then; a turn's pairings, once
        made, stay (a result corrected later changes the standings, not the pairings).
        """
        if self.turn >= len(self.movements):
            raise TournamentError(f"all {len(self.movements)} turns are paired")
        if self.missing():
            tables = ", ".join(str(t) for t in self.missing())
            raise TournamentError(f"turn {self.turn} still needs the result of table {tables}")
        kind = self.movements[self.turn]
        n = len(self.entrants)
        earlier = self.movements[: self.turn].count(kind)
        order = [s.entrant for s in self.standings()]
        byes = [p.ns for turn in self.turns for p in turn if p.ew is None]
        last = self.turn + 1 == len(self.movements)
        if self.individual:
            history = partnered(p for turn in self.turns for p in turn)
            rows = individual(order, history, byes=byes)
        elif kind == "mitchell":
            rows = mitchell(n, earlier)
        elif kind == "round-robin":
            rows = round_robin(n, earlier)
        elif kind in ("danish", "danish-modified"):
            previous = met(self.turns[-1]) if self.turns and not last else set()
            rows = danish(order, previous, modified=kind == "danish-modified", byes=byes)
        else:
            history = met(p for turn in self.turns for p in turn)
            ns = {
                e: sum(p.ns == e and p.ew is not None for t in self.turns for p in t)
                for e in range(n)
            }
            rows = swiss(order, history, ns_turns=ns, byes=byes)
        self.turns.append(rows)
        for p in rows:
            if p.ew is None:
                self.results.append(Result(self.turn, p.table, p.ns, None))
        return rows

    def _pairing(self, turn: int, table: int) -> Pairing:
        if not 1 <= turn <= self.turn:
            raise TournamentError(
                f"turn {turn} is not paired (turns paired: 1 to {self.turn})",
                "no-turn",
                turn=turn,
                turns=self.turn,
            )
        for p in self.turns[turn - 1]:
            if p.table == table:
                return p
        tables = len(self.turns[turn - 1])
        raise TournamentError(
            f"turn {turn} has tables 1 to {tables}, not {table}",
            "no-table",
            turn=turn,
            tables=tables,
            table=table,
        )

    def record(
        self,
        table: int,
        ns_mp: int,
        ew_mp: int,
        turn: int | None = None,
        resigned: str | None = None,
    ) -> None:
        """Enter (or correct) a table's MP, NS's then EW's, in ``turn`` (default: this one).

        ``resigned``: ``"ns"`` or ``"ew"``, the side that conceded the table, which loses
        it (:meth:`~buraco.tournament.standings.Result.vps`). A director's adjustment of
        the table stays (:meth:`adjust` changes or clears it).

        >>> t = Tournament.new("Club", ["A", "B"], movements=["mitchell"], hands=3)
        >>> _ = t.pair(); t.record(1, -95, -100, resigned="ns")
        >>> t.table_vp(t.results[0])
        (0, 12)
        """
        turn = self.turn if turn is None else turn
        p = self._pairing(turn, table)
        if p.ew is None:
            raise TournamentError(f"table {table} of turn {turn} is a bye: it has no result")
        old = self._result(turn, table)
        vp, note = (old.vp, old.note) if old is not None else (None, "")
        self._put(
            Result(
                turn, table, p.ns, p.ew, ns_mp, ew_mp, vp, note, *_partners(p), resigned=resigned
            )
        )

    def adjust(
        self,
        table: int,
        ns_vp: int | None,
        ew_vp: int | None,
        note: str = "",
        turn: int | None = None,
    ) -> None:
        """The director sets a table's VP (NS's, EW's; a bye's too), with the reason.

        The MP stay. ``None`` for both clears the adjustment (the scale's VP again).
        """
        turn = self.turn if turn is None else turn
        p = self._pairing(turn, table)
        old = self._result(turn, table)
        base = old or Result(
            turn, table, p.ns, p.ew, ns_partner=p.ns_partner, ew_partner=p.ew_partner
        )
        if ns_vp is None and ew_vp is None:
            if old is None or old.vp is None:
                raise TournamentError(
                    f"table {table} of turn {turn} has no adjustment to clear",
                    "no-adjustment",
                    table=table,
                    turn=turn,
                )
            self._put(replace(base, vp=None, note=""))
            return
        _check_text("the reason for an adjustment", note, most=200, case="note")
        if type(ns_vp) is not int or type(ew_vp) is not int:
            raise TournamentError("an adjustment gives both sides' VP", "both-vp")
        self._put(replace(base, vp=(ns_vp, ew_vp), note=note))

    def _result(self, turn: int, table: int) -> Result | None:
        return next((r for r in self.results if (r.turn, r.table) == (turn, table)), None)

    def _put(self, result: Result) -> None:
        self.results = [
            r for r in self.results if (r.turn, r.table) != (result.turn, result.table)
        ] + [result]
        self.results.sort(key=lambda r: (r.turn, r.table))

    def standings(self, after: int | None = None) -> list[Standing]:
        """The standings after turn ``after`` (default: every result in)."""
        results = [r for r in self.results if after is None or r.turn <= after]
        return standings(
            len(self.entrants), results, self.scale, self.bye_vp, duplicate=self.duplicate
        )

    def side(self, members: tuple[int, ...]) -> str:
        """A side's name: the entrant's, or the two players' ("Ana & Bia")."""
        return " & ".join(self.entrants[e] for e in members)

    def table_vp(self, result: Result) -> tuple[int, int]:
        """A table's VP, NS's and EW's (against the turn's datum when duplicate)."""
        base = 0
        if self.duplicate:
            base = datum([r for r in self.results if r.turn == result.turn])
        return result.vps(self.scale, self.bye_vp, base)

    # ----- saved form ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The tournament as JSON data (read back by :meth:`from_dict`)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "entrants": self.entrants,
            "movements": self.movements,
            "hands": self.hands,
            "scale": self.scale.to_dict(),
            "bye_vp": self.bye_vp,
            "duplicate": self.duplicate,
            **({"individual": True} if self.individual else {}),
            "turns": [[_saved_row(p) for p in turn] for turn in self.turns],
            "results": [
                {
                    "turn": r.turn,
                    "table": r.table,
                    "ns_mp": r.ns_mp,
                    "ew_mp": r.ew_mp,
                    **({"resigned": r.resigned} if r.resigned is not None else {}),
                    **({"vp": list(r.vp), "note": r.note} if r.vp is not None else {}),
                }
                for r in self.results
                if r.ew is not None or r.vp is not None
            ],
        }

    @classmethod
    def from_dict(cls, data: object) -> Tournament:
        """A tournament from its saved form, every field checked (a clear error if not)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TournamentError(f"not a saved tournament (its 'format' is not {FORMAT!r})")
        if data.get("version") != VERSION:
            raise TournamentError(
                f"a saved tournament of version {shown(data.get('version'))}; this is {VERSION}"
            )
        optional = {"duplicate", "individual"}
        keys = {
            "format",
            "version",
            "name",
            "entrants",
            "movements",
            "hands",
            "scale",
            "bye_vp",
            "turns",
            "results",
        }
        if not keys <= set(data) <= keys | optional:
            odd = sorted((set(data) - optional) ^ keys)[0]
            every = ", ".join(sorted(keys | optional))
            raise TournamentError(f"a saved tournament has the keys {every} ({odd!r})")
        duplicate, alone = data.get("duplicate", False), data.get("individual", False)
        for key, flag in (("duplicate", duplicate), ("individual", alone)):
            if not isinstance(flag, bool):
                raise TournamentError(
                    f"a saved tournament's {key} is true or false, not {shown(flag)}"
                )
        entrants, movements = data["entrants"], data["movements"]
        if not isinstance(entrants, list) or not isinstance(movements, list):
            raise TournamentError("a saved tournament's entrants and movements are lists")
        t = cls(
            _text(data["name"], "name"),
            [_text(e, "entrant") for e in entrants],
            [_text(m, "movement") for m in movements],
            _whole(data["hands"], "hands"),
            scale_from_dict(data["scale"]),
            _whole(data["bye_vp"], "bye_vp"),
            duplicate,
            alone,
        )
        t.check()
        turns, results = data["turns"], data["results"]
        if not isinstance(turns, list) or len(turns) > len(t.movements):
            raise TournamentError("a saved tournament's turns are a list, one per turn paired")
        if not isinstance(results, list):
            raise TournamentError("a saved tournament's results are a list")
        for i, saved in enumerate(turns):
            t.turns.append(_load_turn(i + 1, saved, len(t.entrants), individual=t.individual))
            for p in t.turns[-1]:
                if p.ew is None:
                    t.results.append(Result(i + 1, p.table, p.ns, None))
        for r in results:
            if not isinstance(r, dict):
                raise TournamentError(f"a result is an object, not {shown(r)}")
            _load_result(t, r)
        return t


def _saved_row(p: Pairing) -> list[int | None]:
    """A pairing as saved: [table, NS, EW], in an individual tournament with the partners."""
    row = [p.table, p.ns, p.ew]
    return row if p.ns_partner is None or p.ew is None else [*row, p.ns_partner, p.ew_partner]


def _partners(p: Pairing) -> tuple[int | None, int | None]:
    return p.ns_partner, p.ew_partner


def _load_turn(turn: int, saved: object, n: int, *, individual: bool = False) -> list[Pairing]:
    """A turn's saved pairings, checked: tables 1, 2, …, each entrant at one at most."""
    shape = "[table, NS, EW, NS's partner, EW's partner]" if individual else "[table, NS, EW]"
    if not isinstance(saved, list):
        raise TournamentError(f"turn {turn}'s pairings are a list of {shape}")
    rows: list[Pairing] = []
    seated: set[int] = set()
    for i, row in enumerate(saved):
        bye = isinstance(row, list) and len(row) == 3 and row[2] is None
        size = 5 if individual and not bye else 3
        ok = isinstance(row, list) and len(row) == size and row[0] == i + 1
        ok = ok and all(type(e) is int for e in row if e is not None) and row[1] is not None
        ok = ok and (size == 3 or None not in row)
        if not ok:
            raise TournamentError(
                f"turn {turn}, table {i + 1}: a pairing is {shape} (EW null for a bye), not "
                f"{shown(row)}"
            )
        here = [e for e in row[1:] if e is not None]
        if any(not 0 <= e < n or e in seated for e in here) or len(set(here)) != len(here):
            raise TournamentError(
                f"turn {turn}, table {i + 1}: entrants are 0 to {n - 1}, each at one table"
            )
        seated.update(here)
        rows.append(Pairing(*row))
    if len(seated) != n:
        missing = min(set(range(n)) - seated)
        raise TournamentError(f"turn {turn} seats no table for entrant {missing}")
    return rows


def _load_result(t: Tournament, r: dict[str, Any]) -> None:
    allowed = {"turn", "table", "ns_mp", "ew_mp", "vp", "note", "resigned"}
    if not set(r) <= allowed or not {"turn", "table", "ns_mp", "ew_mp"} <= set(r):
        raise TournamentError(f"a result has the keys {', '.join(sorted(allowed))}")
    turn, table = _whole(r["turn"], "a result's turn"), _whole(r["table"], "a result's table")
    p = t._pairing(turn, table)
    if p.ew is not None:
        ns_mp, ew_mp = _whole(r["ns_mp"], "a result's ns_mp"), _whole(r["ew_mp"], "ew_mp")
        resigned = r.get("resigned")
        if resigned is not None and resigned not in ("ns", "ew"):
            raise TournamentError(f"a result's resigned side is ns or ew, not {shown(resigned)}")
        t.record(table, ns_mp, ew_mp, turn=turn, resigned=str(resigned) if resigned else None)
    if "vp" in r:
        vp = r["vp"]
        if not isinstance(vp, list) or len(vp) != 2:
            raise TournamentError(f"an adjusted result's vp is [NS, EW], not {shown(vp)}")
        note = _text(r.get("note", ""), "an adjusted result's note")
        t.adjust(table, _whole(vp[0], "vp"), _whole(vp[1], "vp"), note, turn=turn)


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TournamentError(f"a saved tournament's {what} is text, not {shown(value)}")
    return value


def _whole(value: object, what: str) -> int:
    if type(value) is not int:
        raise TournamentError(f"{what} is a whole number, not {shown(value)}")
    return value


def _check_text(what: str, text: object, most: int = MAX_NAME, case: str | None = None) -> None:
    if not isinstance(text, str) or not text.strip() or len(text) > most or has_control(text):
        raise TournamentError(
            f"{what} is 1 to {most} characters with no control characters, not {shown(text)}",
            case,
            most=most,
        )
