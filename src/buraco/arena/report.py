"""The arena's report as Rich tables: per bot, then per pair of bots."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from buraco.arena.gauntlet import (
    HOLDS,
    LOSES,
    NOT_SEPARATED,
    TOO_FEW,
    VERDICTS,
    GauntletResult,
)
from buraco.arena.result import ArenaResult
from buraco.arena.stats import MeanCI, Outcome


def duration(seconds: float) -> str:
    """A short time with a unit that fits it.

    >>> duration(0.0000065), duration(0.0123), duration(2.5)
    ('6.5 µs', '12.3 ms', '2.50 s')
    """
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def _signed(x: float) -> str:
    return f"{x:+.0f}".replace("-", "−")


def _ci(ci: MeanCI) -> str:
    if ci.low is None or ci.high is None:
        return "—"
    return f"{_signed(ci.low)}…{_signed(ci.high)}"


def _share(x: float | None) -> str:
    return "—" if x is None else f"{x:.0%}"


def _wlt(o: Outcome) -> str:
    return f"{o.wins}–{o.losses}–{o.ties}"


def headline(result: ArenaResult) -> Text:
    """Two lines: the rules, the bots, how many deals and games, the seed and the time."""
    spec = result.spec
    r = spec.rules
    games = sum(len(d.games) for d in result.deals)
    hands = sum(g.hands for g in result.games())
    per_deal = len(result.deals[0].games) if result.deals else 0
    what = "matches" if spec.matches else "games"
    options = ", ".join(f"{k}={v}" for k, v in r.overrides().items())
    where = (
        f"{result.workers} worker{'s' * (result.workers > 1)}"
        if result.cluster is None
        else result.cluster.describe()
    )
    line = (
        f", {r.players} players in {r.sides} sides"
        + (f" ({options})" if options else "")
        + f": {' vs '.join(spec.labels)}\n{spec.deals} duplicate deal{'s' * (spec.deals > 1)}"
        f" × {per_deal} {what}"
        f" = {games} {what}, {hands} hands; seed {spec.seed}; "
        f"{result.seconds:.1f} s, {where}"
    )
    return Text.assemble((r.preset, "bold"), line)


def _table(title: str) -> Table:
    return Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=(0, 1, 0, 0),
    )


def _number(table: Table, header: str) -> None:
    table.add_column(header, justify="right", no_wrap=True)


def bot_table(result: ArenaResult) -> Table:
    """Per bot: rating, deals won, mean score difference per deal, matches, decision time."""
    matches = result.spec.matches
    table = _table("bots, best first")
    table.add_column("bot", style="bold")
    _number(table, "rating")
    _number(table, "deals\nW–L–T")
    _number(table, "win\nrate")
    _number(table, "mean\ndiff")
    _number(table, "95% CI")
    if matches:
        _number(table, "match\nwins")
    _number(table, "pile\ntaken")
    _number(table, "went\nout")
    _number(table, "choose\nmedian")
    _number(table, "choose\np95")
    for s in sorted(result.bots(), key=lambda s: -s.rating):
        row = [
            s.label,
            f"{s.rating:.0f}",
            _wlt(s.outcome),
            f"{s.outcome.score:.0%}",
            _signed(s.diff.mean),
            _ci(s.diff),
        ]
        if matches:
            row.append(f"{s.matches_won}/{s.matches_played}")
        row += [_share(s.pile_share), _share(s.out_share)]
        row += [duration(s.times.quantile(0.5)), duration(s.times.quantile(0.95))]
        table.add_row(*row)
    return table


def pair_table(result: ArenaResult) -> Table:
    """Per pair: deals won by each, mean difference with its CI, matches, and a verdict."""
    labels = result.labels
    matches = result.spec.matches
    table = _table("pairs, from the first bot's side")
    table.add_column("pair", style="bold")
    _number(table, "deals\nW–L–T")
    _number(table, "mean\ndiff")
    _number(table, "95% CI")
    if matches:
        _number(table, "match\nwins")
    table.add_column("verdict")
    for p in result.pairs():
        x, y = labels[p.x], labels[p.y]
        verdict: str | Text
        if p.verdict:
            verdict = f"{x if p.verdict > 0 else y} stronger"
        elif p.diff.half_width is None:
            verdict = "too few deals"
        else:
            verdict = Text("not separated", style="yellow")
        row: list[str | Text] = [f"{x} vs {y}", _wlt(p.outcome), _signed(p.diff.mean), _ci(p.diff)]
        if matches:
            row.append(f"{p.x_matches}–{p.y_matches}")
        row.append(verdict)
        table.add_row(*row)
    return table


NOTE = (
    "A duplicate deal is one deal played with the bots in every seating. W–L–T: deals "
    "won, lost, tied. diff: the bot's score minus its opponent's, summed over the deal's "
    "games (won when positive); mean per deal. "
    "95% CI: Student's t over the deals. stronger: the CI excludes 0. rating: "
    "Bradley–Terry fit of the deals won, mean 1500 (+400: 10 deals won per 1 lost). "
    "pile taken: turns begun by taking the pile, of those begun when the rules let the "
    "pile be taken. "
    "went out: hands its side ended by going out. choose: wall time of one decision."
)


def print_report(result: ArenaResult, console: Console) -> None:
    """Print the headline, the bot table, the pair table and a note on the figures."""
    console.print(headline(result))
    console.print()
    console.print(bot_table(result))
    console.print()
    console.print(pair_table(result))
    console.print()
    console.print(Text(NOTE, style="dim"))


_VERDICT_STYLES = {HOLDS: "green", LOSES: "bold red", NOT_SEPARATED: "yellow", TOO_FEW: "dim"}


def gauntlet_table(result: GauntletResult) -> Table:
    """One row per preset, player count and exploit: the bot's deals, difference, verdict."""
    table = _table(f"{result.bot} against the exploits, from {result.bot}'s side")
    # names, a verdict's words and their headers are never cut short (a narrow terminal
    # squeezes the figures)
    presets = max((len(row.preset) for row in result.rows), default=0)
    exploits = max((len(row.exploit) for row in result.rows), default=0)
    words = max((len(w) for row in result.rows for w in row.verdict.split()), default=0)
    presets, exploits = max(presets, len("preset")), max(exploits, len("exploit"))
    words = max(words, len("verdict"))
    table.add_column("preset", style="bold", no_wrap=True, min_width=presets)
    _number(table, "players")
    table.add_column("exploit", no_wrap=True, min_width=exploits)
    _number(table, "deals\nW–L–T")
    _number(table, "win\nrate")
    _number(table, "mean\ndiff")
    _number(table, "95% CI")
    _number(table, "choose\nmedian")
    table.add_column("verdict", min_width=words)
    for row in result.rows:
        table.add_row(
            row.preset,
            str(row.players),
            row.exploit,
            _wlt(row.outcome),
            f"{row.outcome.score:.0%}",
            _signed(row.diff.mean),
            _ci(row.diff),
            duration(row.times.quantile(0.5)),
            Text(row.verdict, style=_VERDICT_STYLES[row.verdict]),
        )
    return table


GAUNTLET_NOTE = (
    "Each row: duplicate deals of single hands between the bot and one exploit (the same "
    "deals for every exploit of a table). diff: the bot's score minus the exploit's per "
    "deal. holds: the 95% CI is above 0; loses: below 0 (the exploit is stronger); not "
    "separated: it holds 0; too few deals: one deal, no CI. The exploits and their plans: "
    "docs/bots.md."
)


def print_gauntlet(result: GauntletResult, console: Console) -> None:
    """Print a headline, the gauntlet's table, the count of each verdict and a note."""
    tables = len({(r.preset, r.players) for r in result.rows})
    exploits = len({r.exploit for r in result.rows})
    workers = f"{result.workers} worker{'s' * (result.workers > 1)}"
    console.print(
        Text.assemble(
            ("gauntlet", "bold"),
            f": {result.bot} against {exploits} exploit{'s' * (exploits > 1)} at {tables} "
            f"table{'s' * (tables > 1)} (preset and players), {result.deals} duplicate "
            f"deal{'s' * (result.deals > 1)} a row; seed {result.seed}; "
            f"{result.seconds:.1f} s, {workers}",
        )
    )
    console.print()
    console.print(gauntlet_table(result))
    console.print()
    counts = [
        Text(f"{result.count(v)} {v}", style=_VERDICT_STYLES[v])
        for v in VERDICTS
        if v != TOO_FEW or result.count(v)
    ]
    rows = len(result.rows)
    console.print(Text.assemble(f"{rows} row{'s' * (rows != 1)}: ", *_joined(counts)))
    console.print()
    console.print(Text(GAUNTLET_NOTE, style="dim"))


def _joined(parts: list[Text]) -> list[Text | str]:
    out: list[Text | str] = []
    for i, part in enumerate(parts):
        if i:
            out.append(", ")
        out.append(part)
    return out
