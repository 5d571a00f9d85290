"""``buraco tournament``: run a club's tournament over the board, from a file it keeps.

The director enters the pairs, then after each turn the tables' match points; the
command pairs the next turn by its movement and gives the VP and the standings
(a table in the terminal, CSV, or a page to print). See docs/tournaments.md.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from typer.core import TyperCommand

from buraco.cli.common import console, fail, printable, say
from buraco.errors import TournamentError, shown
from buraco.tournament.event import MAX_TURNS, MOVEMENTS, Tournament
from buraco.tournament.pairing import MAX_ENTRANTS, Pairing, mitchell_turns, round_robin_turns
from buraco.tournament.report import standings_csv, standings_html
from buraco.tournament.standings import BYE_VP, Result, datum
from buraco.tournament.vp import VPScale, load_scale, read_json

app = typer.Typer(
    help="Run a tournament over the board: pairings by movement, VP and standings.",
    no_args_is_help=True,
)

MAX_FILE = 10_000_000
"""The largest tournament file read, in bytes."""

HANDS = 3
"""The hands of a turn when neither --hands nor the --scale says."""

_NUMBER = re.compile(r"-\d")
"""An argument that starts so is a negative number, never an option."""


class NumbersCommand(TyperCommand):
    """A command whose arguments may be negative numbers: ``result t.json 2 -5 800``.

    Click would read ``-5`` as an option it does not know. Here an argument that starts
    with a dash and a digit is a value wherever it stands, the command's own options
    are options wherever they stand (after ``--`` too: no argument here is an option's
    name), and anything else that looks like an option is still refused as unknown.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse ``args`` with the positional arguments, negative numbers too, put last."""
        return super().parse_args(ctx, self._values_last(ctx, args))

    def _values_last(self, ctx: Any, args: list[str]) -> list[str]:
        takes: dict[str, int] = {}
        for param in self.get_params(ctx):
            if param.param_type_name == "option":
                flag = getattr(param, "is_flag", False) or getattr(param, "count", False)
                for opt in [*param.opts, *param.secondary_opts]:
                    takes[opt] = 0 if flag else param.nargs
        options: list[str] = []
        values: list[str] = []
        ended = False
        rest = list(args)
        while rest:
            arg = rest.pop(0)
            if arg == "--" and not ended:
                ended = True
            elif arg in takes:
                if len(rest) < takes[arg]:  # Click's words: the value would be the "--"
                    ctx.fail(f"Option {arg!r} requires an argument.")
                options += [arg, *rest[: takes[arg]]]
                del rest[: takes[arg]]
            elif arg.startswith("--") and arg.partition("=")[0] in takes:
                options.append(arg)
            elif ended or _NUMBER.match(arg) or not arg.startswith("-") or arg == "-":
                values.append(arg)
            else:
                options.append(arg)  # not an option of this command: Click says so
        return options + (["--", *values] if values else [])


FileArg = Annotated[Path, typer.Argument(help="the tournament's file (JSON, kept by this command)")]


def _load(path: Path) -> Tournament:
    try:
        data = read_json(path, "the tournament", MAX_FILE)
    except TournamentError as exc:
        fail(str(exc))
    try:
        return Tournament.from_dict(data)
    except (TournamentError, RecursionError) as exc:
        fail(f"{path}: {exc}")


def _save(t: Tournament, path: Path) -> None:
    """Write the file whole or not at all (a new file, then renamed over the old)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(t.to_dict(), indent=1, ensure_ascii=False) + "\n", "utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        fail(f"cannot write {path}: {exc.strerror}")


def _movements(movement: str, turns: int | None, entrants: int) -> list[str]:
    kinds = [m.strip() for m in movement.split(",")[: MAX_TURNS + 1] if m.strip()]
    for kind in kinds:
        if kind not in MOVEMENTS:
            fail(f"no movement {kind!r}; movements: {', '.join(MOVEMENTS)}")
    if turns is not None and not 1 <= turns <= MAX_TURNS:
        fail(f"--turns is 1 to {MAX_TURNS}, not {turns}")
    if len(kinds) > 1:
        if turns is not None and turns != len(kinds):
            fail(f"--movement names {len(kinds)} turns but --turns says {turns}")
        return kinds
    kind = kinds[0] if kinds else ""
    if turns is None:
        if kind == "mitchell" and entrants >= 2:
            return [kind] * mitchell_turns(entrants)
        if kind == "round-robin" and entrants >= 2:
            return [kind] * round_robin_turns(entrants)
        fail(f"give --turns for a {kind or 'tournament'} (how many turns it has)")
    return [kind] * turns


@app.command("new")
def new(
    file: FileArg,
    entrant: Annotated[
        list[str] | None,
        typer.Option("--entrant", "-e", help="a pair ('Ana/Bia') or a player; repeat, in order"),
    ] = None,
    entrants_file: Annotated[
        Path | None, typer.Option("--entrants", help="a text file of entrants, one a line")
    ] = None,
    name: Annotated[str, typer.Option(help="the tournament's name")] = "Tournament",
    movement: Annotated[
        str | None,
        typer.Option(
            help=f"how turns are paired: one of {', '.join(MOVEMENTS)}, or one a turn "
            "separated by commas (mitchell,mitchell,mitchell,danish); default mitchell "
            "(swiss for --individual)"
        ),
    ] = None,
    turns: Annotated[
        int | None, typer.Option(help="turns (default: a full mitchell or round robin)")
    ] = None,
    hands: Annotated[
        int | None,
        typer.Option(
            help=f"hands a turn (its VP scale follows); default: the --scale's, or {HANDS}",
            show_default=False,
        ),
    ] = None,
    scale: Annotated[
        Path | None, typer.Option(help="a VP scale of your own (JSON, docs/tournaments.md)")
    ] = None,
    bye_vp: Annotated[int, typer.Option(help="VP of a bye")] = BYE_VP,
    duplicate: Annotated[
        bool,
        typer.Option(
            help="every table of a turn is dealt the same cards: a table's VP go by how "
            "its NS did against the other NS (the turn's datum)"
        ),
    ] = False,
    individual: Annotated[
        bool,
        typer.Option(
            help="the entrants are players, four to a table with a new partner each turn "
            "(paired swiss)"
        ),
    ] = False,
    force: Annotated[bool, typer.Option(help="overwrite an existing file")] = False,
) -> None:
    """Start a tournament file: its entrants, movement, turns and VP scale."""
    names = list(entrant or [])
    if entrants_file is not None:
        if not entrants_file.is_file():
            fail(f"cannot read the entrants {entrants_file}: no such file")
        try:
            with entrants_file.open("rb") as f:
                raw = f.read(MAX_FILE + 1)
            text = raw.decode("utf-8")
        except OSError as exc:
            fail(f"cannot read the entrants {entrants_file}: {exc.strerror}")
        except UnicodeDecodeError:
            fail(f"the entrants {entrants_file} are not UTF-8 text")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if len(raw) > MAX_FILE or len(names) + len(lines) > MAX_ENTRANTS:
            fail(f"a tournament has at most {MAX_ENTRANTS} entrants")
        names += lines
    if not individual:
        _check_pairs(names)
    if file.exists() and not force:
        fail(f"{file} exists: give another file, or --force to start it again")
    try:
        vp = load_scale(scale) if scale is not None else None
        t = Tournament.new(
            name,
            names,
            movements=_movements(
                movement or ("swiss" if individual else "mitchell"), turns, len(names)
            ),
            hands=_hands(hands, vp, scale),
            scale=vp,
            bye_vp=bye_vp,
            duplicate=duplicate,
            individual=individual,
        )
    except TournamentError as exc:
        fail(str(exc))
    _save(t, file)
    say(
        f"{t.name}: {len(t.entrants)} entrants, {len(t.movements)} turns "
        f"({', '.join(dict.fromkeys(t.movements))}), VP scale {t.scale.name}; "
        f"next: buraco tournament pair {file}"
    )


def _check_pairs(names: list[str]) -> None:
    """Refuse a pair with a name left out ('Ana/') or a player in two entrants ('A/B', 'A/C').

    An entrant with a slash is a pair, two players; one without, a player.
    """
    seen: dict[str, int] = {}
    for i, entrant in enumerate(names, 1):
        members = [m.strip() for m in entrant.split("/")]
        if len(members) > 1 and (len(members) != 2 or not all(members)):
            fail(
                f"entrant {i}: {shown(entrant)} is not a pair: a pair is two players' "
                "names with a slash between them, 'Ana/Bia'"
            )
        if len(members) == 2 and members[0].casefold() == members[1].casefold():
            fail(f"entrant {i}: {shown(entrant)} names one player twice")
        for member in members:
            other = seen.setdefault(member.casefold(), i)
            if other != i and names[other - 1].casefold() != entrant.casefold():
                fail(
                    f"entrant {i}: {shown(member)} plays in entrant {other} "
                    f"({shown(names[other - 1])}) too; a player is in one entrant only"
                )


def _hands(hands: int | None, vp: VPScale | None, path: Path | None) -> int:
    """A turn's hands: --hands, else the --scale's, else HANDS; a scale for others refused."""
    if vp is None or vp.hands is None:
        return HANDS if hands is None else hands
    if hands is not None and hands != vp.hands:
        fail(
            f"the VP scale {path} is for turns of {vp.hands} hands, not {hands} (--hands): "
            "leave --hands out, or give a scale for that many hands"
        )
    return vp.hands


def _show_turn(t: Tournament, number: int) -> None:
    results = {(r.turn, r.table): r for r in t.results}
    title = f"{t.name}: turn {number} ({t.movements[number - 1]})"
    if t.duplicate:
        done = [r for r in t.results if r.turn == number]
        title += f", duplicate: NS's datum {datum(done):+d}"
    table = Table(title=printable(title))
    for column in ("table", "NS", "EW", "MP", "VP"):
        table.add_column(column)
    for p in t.turns[number - 1]:
        table.add_row(*_row(t, p, results.get((number, p.table))))
    console.print(table)


def _row(t: Tournament, p: Pairing, r: Result | None) -> list[str]:
    ns = printable(t.side(p.ns_side()))
    if p.ew is None:
        vp = f"{t.bye_vp}" if r is None else f"{t.table_vp(r)[0]}"
        if r is not None and r.vp is not None:
            vp += f" (adjusted: {printable(r.note)})"
        return [str(p.table), ns, "bye", "", vp]
    ew = printable(t.side(p.ew_side()))
    if r is None:
        return [str(p.table), ns, ew, "", ""]
    a, b = t.table_vp(r)
    vp = f"{a}–{b}" + (f" (adjusted: {printable(r.note)})" if r.vp is not None else "")
    return [str(p.table), ns, ew, f"{r.ns_mp}–{r.ew_mp}", vp]


@app.command("pair")
def pair(file: FileArg) -> None:
    """Pair the next turn (every result of the turn before must be in)."""
    t = _load(file)
    try:
        t.pair()
    except TournamentError as exc:
        fail(str(exc))
    _save(t, file)
    _show_turn(t, t.turn)


@app.command("result", cls=NumbersCommand)
def result(
    file: FileArg,
    table: Annotated[int, typer.Argument(help="the table's number")],
    ns_mp: Annotated[int, typer.Argument(help="NS's match points over the turn")],
    ew_mp: Annotated[int, typer.Argument(help="EW's match points over the turn")],
    turn: Annotated[int | None, typer.Option(help="an earlier turn (a correction)")] = None,
) -> None:
    """Enter (or correct) a table's match points; prints its VP."""
    t = _load(file)
    before = next((r for r in t.results if (r.turn, r.table) == (turn or t.turn, table)), None)
    try:
        t.record(table, ns_mp, ew_mp, turn=turn)
    except TournamentError as exc:
        fail(str(exc))
    _save(t, file)
    if before is not None and before.ew is not None:
        say(f"(this replaces the result entered before: {before.ns_mp}–{before.ew_mp})")
    if ns_mp % 5 or ew_mp % 5:
        say("(note: Buraco scores are multiples of 5; check the score sheet)")
    r = next(r for r in t.results if (r.turn, r.table) == (turn or t.turn, table))
    a, b = t.table_vp(r)
    missing = t.missing()
    say(
        f"turn {r.turn}, table {table}: {ns_mp}–{ew_mp}, VP {a}–{b}; "
        + (f"still to come: table {', '.join(map(str, missing))}" if missing else "turn complete")
    )


@app.command("adjust", cls=NumbersCommand)
def adjust(
    file: FileArg,
    table: Annotated[int, typer.Argument(help="the table's number")],
    ns_vp: Annotated[int | None, typer.Argument(help="NS's VP")] = None,
    ew_vp: Annotated[int | None, typer.Argument(help="EW's VP")] = None,
    note: Annotated[str, typer.Option(help="why (kept with the result)")] = "",
    turn: Annotated[int | None, typer.Option(help="an earlier turn")] = None,
    clear: Annotated[bool, typer.Option(help="clear the adjustment: the scale's VP again")] = False,
) -> None:
    """Set a table's VP as the director decides (a penalty, an incident), with the reason."""
    t = _load(file)
    if clear and (ns_vp is not None or ew_vp is not None):
        fail("--clear takes no VP: give NS's and EW's VP and --note, or --clear alone")
    if not clear and (ns_vp is None or ew_vp is None):
        fail("give NS's and EW's VP and --note, or --clear")
    try:
        t.adjust(table, ns_vp, ew_vp, note, turn=turn)
    except TournamentError as exc:
        fail(str(exc))
    _save(t, file)
    if clear:
        say(f"turn {turn or t.turn}, table {table}: adjustment cleared")
    else:
        say(f"turn {turn or t.turn}, table {table}: VP {ns_vp}–{ew_vp} ({note})")


@app.command("standings")
def standings(
    file: FileArg,
    after: Annotated[int | None, typer.Option(help="after this turn (default: all)")] = None,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", help="write CSV here ('-': to the terminal)")
    ] = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="write a page to print")] = None,
) -> None:
    """The standings: VP, then MP difference, then head to head."""
    t = _load(file)
    if after is not None and not 1 <= after <= t.turn:
        fail(f"--after is a turn from 1 to {t.turn}, not {after}")
    if html_out is not None:
        _write(html_out, standings_html(t, after))
    if csv_out is not None:
        text = standings_csv(t, after)
        if str(csv_out) == "-":
            sys.stdout.write(text)
        else:
            _write(csv_out, text)
    if csv_out is not None or html_out is not None:
        return
    when = f"after turn {after or t.turn}"
    if after is None and t.missing():
        when = f"with turn {t.turn} in play"
    table = Table(title=printable(f"{t.name}: standings {when}"))
    for column in ("place", "entrant", "VP", "MP for", "MP against", "diff", "played"):
        table.add_column(column, justify="left" if column == "entrant" else "right")
    for s in t.standings(after):
        table.add_row(
            str(s.place),
            printable(t.entrants[s.entrant]),
            str(s.vp),
            str(s.mp_for),
            str(s.mp_against),
            f"{s.mp_difference:+d}",
            str(s.played),
        )
    console.print(table)


@app.command("show")
def show(file: FileArg) -> None:
    """Every turn's tables and results so far."""
    t = _load(file)
    if not t.turns:
        say(f"{t.name}: no turn paired yet; next: buraco tournament pair {file}")
    for number in range(1, t.turn + 1):
        _show_turn(t, number)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror}")
    say(f"wrote {path}")
