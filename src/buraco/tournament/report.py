"""Standings and turns written out: CSV for a spreadsheet, HTML to print or publish.

Names come from outside: the CSV guards cells a spreadsheet would run as a formula,
and the HTML escapes every one.

>>> from buraco.tournament.event import Tournament
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

from buraco.tournament.event import Tournament

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


def standings_html(t: Tournament, after: int | None = None) -> str:
    """A page of the standings and of every turn's tables, to print or publish."""
    e = html.escape
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
            ns = e(t.side(p.ns_side()))
            if p.ew is None:
                lines.append(
                    f"<tr><td>{p.table}</td><td>{ns}</td><td>bye</td><td></td><td></td></tr>"
                )
                continue
            ew = e(t.side(p.ew_side()))
            if r is None:
                score = vps = ""
            else:
                score = f"{r.ns_mp}–{r.ew_mp}"
                a, b = t.table_vp(r)
                vps = f"{a}–{b}" + (f" ({e(r.note)})" if r.vp is not None else "")
            lines.append(
                f"<tr><td>{p.table}</td><td>{ns}</td><td>{ew}</td><td>{score}</td><td>{vps}</td></tr>"
            )
        turns.append(
            f"<h2>Turn {number} ({e(t.movements[number - 1])})</h2><table><tr><th>table</th>"
            f"<th>NS</th><th>EW</th><th>MP</th><th>VP</th></tr>{''.join(lines)}</table>"
        )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{e(t.name)}</title><style>body{{font-family:sans-serif}}"
        "table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #999;"
        "padding:2px 8px;text-align:left}</style></head><body>"
        f"<h1>{e(t.name)}</h1><p>{len(t.entrants)} entrants, turns of {t.hands} hands, "
        f"VP scale {e(t.scale.name)}</p><table><tr><th>place</th><th>entrant</th><th>VP</th>"
        f"<th>MP for</th><th>MP against</th><th>difference</th><th>played</th></tr>{rows}</table>"
        f"{''.join(turns)}</body></html>\n"
    )
