"""Standings and turns written out: CSV for a spreadsheet, HTML to print or publish.

Names come from outside: the CSV guards cells a spreadsheet would run as a formula,
and the HTML escapes every one.

>>> from buraco.tournament.event import MOVEMENTS, Tournament
>>> t = Tournament.new("Club", ["=A/B", "<C>/D"], movements=["round-robin"], hands=3)
>>> _ = t.pair(); t.record(1, 800, 700)
>>> print(standings_csv(t), end="")
place,entrant,vp,mp_for,mp_against,mp_difference,played,byes
1,'=A/B,11,800,700,100,1,0
2,<C>/D,9,700,800,-100,1,0
>>> "&lt;C&gt;/D" in standings_html(t) and "<C>" not in standings_html(t)
True
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Mapping

from buraco.tournament.event import MOVEMENTS, Tournament

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text (not run as a formula)."""
    return "'" + text if text.startswith(_FORMULA) else text


def standings_csv(t: Tournament, after: int | None = None) -> str:
    """The standings as CSV, one row an entrant, best first."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        ["place", "entrant", "vp", "mp_for", "mp_against", "mp_difference", "played", "byes"]
    )
    for s in t.standings(after):
        w.writerow(
            [
                s.place,
                _cell(t.entrants[s.entrant]),
                s.vp,
                s.mp_for,
                s.mp_against,
                s.mp_difference,
                s.played,
                s.byes,
            ]
        )
    return out.getvalue()


WORDS: dict[str, str] = {
    "tour.print.summary": "{entrants} entrants, turns of {hands} hands, VP scale {scale}",
    "tour.col.place": "Place",
    "tour.print.entrant": "Entrant",
    "tour.col.vp": "VP",
    "tour.print.mp-for": "MP for",
    "tour.print.mp-against": "MP against",
    "tour.col.difference": "Points difference",
    "tour.col.turns-played": "Turns played",
    "tour.turn": "Turn {turn} ({movement})",
    "tour.col.table": "Table",
    "tour.col.ns": "North–South",
    "tour.col.ew": "East–West",
    "tour.col.mp": "Points",
    "tour.bye": "bye",
    "tour.resigned-ns": "North–South resigned",
    "tour.resigned-ew": "East–West resigned",
    "tour.side": "{first} & {second}",
    **{f"tour.movement.{m}": m for m in MOVEMENTS},
}
"""The printed page's words in English, by key: a server gives its own catalog's instead."""


def standings_html(
    t: Tournament, after: int | None = None, words: Mapping[str, str] = WORDS, lang: str = "en"
) -> str:
    """A page of the standings and of every turn's tables, to print or publish.

    ``words`` (keys of :data:`WORDS`) and ``lang`` give the page's language.
    """
    e = html.escape

    def say(key: str, **params: object) -> str:
        return e(words.get(key, WORDS[key]).format(**params))

    def side(members: tuple[int, ...]) -> str:
        if len(members) == 1:
            return e(t.entrants[members[0]])
        first, second = (t.entrants[m] for m in members)
        return say("tour.side", first=first, second=second)

    rows = "".join(
        f"<tr><td>{s.place}</td><td>{e(t.entrants[s.entrant])}</td><td>{s.vp}</td>"
        f"<td>{s.mp_for}</td><td>{s.mp_against}</td><td>{s.mp_difference:+d}</td>"
        f"<td>{s.played}</td></tr>"
        for s in t.standings(after)
    )
    turns = []
    results = {(r.turn, r.table): r for r in t.results}
    for number, pairings in enumerate(t.turns, start=1):
        if after is not None and number > after:
            break
        lines = []
        for p in pairings:
            r = results.get((number, p.table))
            ns = side(p.ns_side())
            if p.ew is None:
                lines.append(
                    f"<tr><td>{p.table}</td><td>{ns}</td><td>{say('tour.bye')}</td><td></td>"
                    "<td></td></tr>"
                )
                continue
            ew = side(p.ew_side())
            if r is None:
                score = vps = ""
            else:
                score = f"{r.ns_mp}–{r.ew_mp}"
                a, b = t.table_vp(r)
                vps = f"{a}–{b}" + (f" ({e(r.note)})" if r.vp is not None else "")
                if r.vp is None and r.resigned is not None:
                    vps += f" ({say(f'tour.resigned-{r.resigned}')})"
            lines.append(
                f"<tr><td>{p.table}</td><td>{ns}</td><td>{ew}</td><td>{score}</td><td>{vps}</td></tr>"
            )
        movement = words.get(f"tour.movement.{t.movements[number - 1]}", t.movements[number - 1])
        head = "".join(
            f"<th>{say(k)}</th>"
            for k in ("tour.col.table", "tour.col.ns", "tour.col.ew", "tour.col.mp", "tour.col.vp")
        )
        turns.append(
            f"<h2>{say('tour.turn', turn=number, movement=movement)}</h2>"
            f"<table><tr>{head}</tr>{''.join(lines)}</table>"
        )
    columns = ("tour.col.place", "tour.print.entrant", "tour.col.vp", "tour.print.mp-for",
               "tour.print.mp-against", "tour.col.difference", "tour.col.turns-played")  # fmt: skip
    summary = say("tour.print.summary", entrants=len(t.entrants), hands=t.hands, scale=t.scale.name)
    return (
        f'<!doctype html><html lang="{e(lang)}"><head><meta charset="utf-8">'
        f"<title>{e(t.name)}</title><style>body{{font-family:sans-serif}}"
        "table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #999;"
        "padding:2px 8px;text-align:left}</style></head><body>"
        f"<h1>{e(t.name)}</h1><p>{summary}</p><table><tr>"
        f"{''.join(f'<th>{say(k)}</th>' for k in columns)}</tr>{rows}</table>"
        f"{''.join(turns)}</body></html>\n"
    )
