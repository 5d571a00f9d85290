"""Victory points: a table's match-point difference turned into points out of 20.

In Italian tournaments each table's result over a turn (its match points, MP, summed
over the turn's hands) is converted into **victory points** (VP) by a published
scale that depends on the hands a turn has: the larger the difference, the more of
the 20 VP the winner takes; the two sides' VP always add up to 20.

A scale is data: the inclusive upper bound of each band of differences and the
winner's VP in it, with the source it was taken from. Differences in burraco are
multiples of 5 (every card and bonus is), and the published bands are written so
("0–50, 55–150, …"); a band here runs up to its bound inclusive, so a difference
between two printed bands (51) falls in the next band (11–9).

>>> three = SCALES["fibur-3"]
>>> three.vp(0), three.vp(50), three.vp(55), three.vp(-160), three.vp(1505)
((10, 10), (10, 10), (11, 9), (8, 12), (20, 0))
>>> SCALES["fibur-4"].vp(2000), SCALES["fibur-4"].vp(2005)
((19, 1), (20, 0))
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buraco.errors import TournamentError, shown
from buraco.text import has_control

FULL = 20
"""The VP of a table: winner and loser share them."""


@dataclass(frozen=True)
class VPScale:
    """A conversion of MP difference into VP: ``bands[i] = (upto, winner_vp)``.

    Bands rise: each ``upto`` larger than the last, each winner's VP larger than the
    last, the first at 10 (an even table), the last below 20; a difference above the
    last band's bound is 20–0.
    """

    name: str
    hands: int | None
    """Hands per turn the scale is for (None: any)."""
    bands: tuple[tuple[int, int], ...]
    source: str

    def __post_init__(self) -> None:
        check_bands(self.name, self.bands)

    def vp(self, difference: int) -> tuple[int, int]:
        """The VP of the side with ``difference`` more MP than the other, and the other's."""
        size = abs(difference)
        won = FULL
        for upto, winner in self.bands:
            if size <= upto:
                won = winner
                break
        return (won, FULL - won) if difference >= 0 else (FULL - won, won)

    def to_dict(self) -> dict[str, Any]:
        """The scale as JSON data (what :func:`load_scale` reads)."""
        return {
            "name": self.name,
            "hands": self.hands,
            "bands": [list(b) for b in self.bands],
            "source": self.source,
        }


def check_bands(name: str, bands: tuple[tuple[int, int], ...]) -> None:
    """Refuse bands that are not a scale (see :class:`VPScale`), naming what is wrong."""
    if not bands:
        raise TournamentError(f"VP scale {shown(name)}: give at least one band")
    last_upto, last_vp = -1, FULL // 2 - 1
    for i, band in enumerate(bands):
        if not isinstance(band, tuple) or len(band) != 2 or not all(type(x) is int for x in band):
            raise TournamentError(
                f"VP scale {shown(name)}: band {i + 1} is (upto, vp), two whole numbers"
            )
        upto, vp = band
        if i == 0 and vp != FULL // 2:
            raise TournamentError(
                f"VP scale {shown(name)}: the first band is an even table, {FULL // 2}–"
                f"{FULL // 2}, not {vp}–{FULL - vp}"
            )
        if upto <= last_upto or vp <= last_vp or vp >= FULL:
            raise TournamentError(
                f"VP scale {shown(name)}: band {i + 1} ({upto}, {vp}) must reach past "
                f"{last_upto} and give more than {last_vp} and less than {FULL} VP"
            )
        last_upto, last_vp = upto, vp


_PUNTIBURRACO = (
    "FIBUR score-sheet table as reproduced by puntiburraco.it, 'Partite e punti vittoria "
    "burraco nei tornei' (https://www.puntiburraco.it/"
    "partite_e_punti_vittoria_burraco_nei_tornei.html)"
)

SCALES: dict[str, VPScale] = {
    "fibur-3": VPScale(
        "fibur-3",
        3,
        (
            (50, 10),
            (150, 11),
            (250, 12),
            (350, 13),
            (500, 14),
            (650, 15),
            (800, 16),
            (1000, 17),
            (1250, 18),
            (1500, 19),
        ),
        _PUNTIBURRACO + "; the same bands at https://eburraco.com/victory-points-burraco",
    ),
    "fibur-4": VPScale(
        "fibur-4",
        4,
        (
            (100, 10),
            (300, 11),
            (500, 12),
            (700, 13),
            (900, 14),
            (1100, 15),
            (1300, 16),
            (1500, 17),
            (1700, 18),
            (2000, 19),
        ),
        _PUNTIBURRACO,
    ),
}
"""The scales shipped, by name: turns of 3 and of 4 hands (FIBUR's 20–0 tables).

The FIBUR code (Codice di Gara, art. 17) has tables for 2-hand turns and for teams
as well; they are not shipped, for want of a source that gives their bands: give
them with :func:`load_scale`.
"""


def scale_for(hands: int) -> VPScale:
    """The shipped scale for turns of ``hands`` hands."""
    for scale in SCALES.values():
        if scale.hands == hands:
            return scale
    shipped = ", ".join(f"{s.hands} ({s.name})" for s in SCALES.values())
    raise TournamentError(
        f"no VP scale is shipped for turns of {shown(hands)} hands (shipped: {shipped}); "
        "give one as a file (docs/tournaments.md#vp-scales)"
    )


def scale_from_dict(data: object) -> VPScale:
    """A scale from JSON data: ``{"name", "hands", "bands": [[upto, vp], …], "source"}``.

    ``hands`` may be left out (or null): a scale for turns of any number of hands.
    """
    if not isinstance(data, dict):
        raise TournamentError(f"a VP scale is a JSON object, not {shown(data)}")
    unknown = set(data) - {"name", "hands", "bands", "source"}
    if unknown:
        raise TournamentError(
            f"a VP scale has no key {shown(sorted(unknown)[0])}; keys: name, hands, bands, source"
        )
    missing = [k for k in ("name", "bands", "source") if k not in data]
    if missing:
        raise TournamentError(
            f"a VP scale's {missing[0]!r} is missing: give its name, bands and source "
            "(hands is optional)"
        )
    name, hands, bands, source = (data.get(k) for k in ("name", "hands", "bands", "source"))
    if not isinstance(name, str) or not 0 < len(name) <= 40 or has_control(name):
        raise TournamentError(
            f"a VP scale's name is 1 to 40 characters, no control characters, not {shown(name)}"
        )
    if hands is not None and (type(hands) is not int or not 1 <= hands <= 20):
        raise TournamentError(f"a VP scale's hands is 1 to 20 or null, not {shown(hands)}")
    if not isinstance(source, str) or len(source) > 500 or has_control(source):
        raise TournamentError(
            "a VP scale's source is text of at most 500 characters, no control characters"
        )
    if not isinstance(bands, list) or not 0 < len(bands) <= 20:
        raise TournamentError("a VP scale's bands are a list of 1 to 20 [upto, vp] pairs")
    pairs: list[tuple[int, int]] = []
    for band in bands:
        if (
            not isinstance(band, list)
            or len(band) != 2
            or not all(type(x) is int and 0 <= x <= 100_000 for x in band)
        ):
            raise TournamentError(
                f"a VP band is [upto, vp], two whole numbers from 0 to 100000, not {shown(band)}"
            )
        pairs.append((band[0], band[1]))
    return VPScale(name, hands, tuple(pairs), source)


def load_scale(path: Path) -> VPScale:
    """A scale from a JSON file (see :func:`scale_from_dict`)."""
    return scale_from_dict(read_json(path, "the VP scale", 100_000))


def read_json(path: Path, what: str, most: int) -> object:
    """A JSON file of at most ``most`` bytes, or a :class:`TournamentError` saying why not."""
    if not path.is_file():
        raise TournamentError(f"cannot read {what} {path}: no such file")
    try:
        with path.open("rb") as f:
            raw = f.read(most + 1)
    except OSError as exc:
        raise TournamentError(f"cannot read {what} {path}: {exc.strerror}") from None
    if len(raw) > most:
        raise TournamentError(f"{what} {path} is over {most:,} bytes")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise TournamentError(f"{what} {path} is not UTF-8 text") from None
    except (ValueError, RecursionError) as exc:
        reason = "nested too deep" if isinstance(exc, RecursionError) else str(exc)
        raise TournamentError(f"{what} {path} is not JSON: {reason}") from None
