"""One decision's digest of the view: the hand, the side's melds, the threat, the horizon."""

from __future__ import annotations

from buraco.bots.heuristic.memory import _Memory
from buraco.bots.heuristic.reading import _Rules, _SideTable
from buraco.bots.heuristic.weights import _FUTURE, _NO_POT_TURNS, _RISK_K, _TEMPO, _TEMPO_RACING
from buraco.cards import JOKER
from buraco.views import SeatView

# ----- the bot ---------------------------------------------------------------------------


class _Turn:
    """One decision's digest of the view."""

    __slots__ = (
        "counts",
        "end_near",
        "horizon",
        "imminent",
        "mem",
        "own",
        "r",
        "risk",
        "side",
        "size",
        "tables",
        "tempo",
        "threat",
        "view",
        "wilds",
    )

    def __init__(
        self, view: SeatView, r: _Rules, tables: list[_SideTable], mem: _Memory | None
    ) -> None:
        self.view = view
        self.r = r
        self.tables = tables
        self.own = tables[view.side]
        self.mem = mem
        self.side = view.side
        self.counts = view.counts
        self.size = sum(view.counts)
        counts = view.counts
        self.wilds = counts[JOKER] + counts[1] + counts[14] + counts[27] + counts[40]
        self.threat = _threat(view, r)
        """How close the opponents are to going out (see :func:`_threat`)."""
        self.end_near = view.last_turn or _stock_left(view, r) <= 2 * r.players
        self.imminent = self.end_near or self.threat >= 1.0
        """The hand may well end before this seat's next turn."""
        racing = not view.pot_taken[view.side] and bool(view.pots)
        self.horizon = 1.0 if view.last_turn else _horizon(view, r)
        """This seat's turns the hand is likely to last."""
        self.risk = min(0.95, max(0.05, _RISK_K / self.horizon))
        """Share of a junk card's points it is likely to cost when the hand ends."""
        self.tempo = (_TEMPO_RACING if racing else _TEMPO) - _FUTURE * self.horizon / (
            self.horizon + 8.0
        )
        """What a junk card costs beyond its points: the morto race, less its chances."""


def _side_of(view: SeatView, seat: int) -> int:
    for side, seats in enumerate(view.sides):
        if seat in seats:
            return side
    return -1


def _stock_left(view: SeatView, r: _Rules) -> int:
    """Cards still to be drawn before the hand ends by the stock."""
    if r.pot_to_stock:
        return view.stock + sum(view.pots)
    return view.stock


def _horizon(view: SeatView, r: _Rules) -> float:
    """How many more turns this seat is likely to play.

    Until the stock runs out, or until an opponent goes out: sooner when they hold
    their morto and a canastra, and when any canastra will do.
    """
    turns = _stock_left(view, r) / r.players
    side = view.side
    slow = 2.0 if r.clean_out else 1.0
    for o, melds in enumerate(view.melds):
        if o == side:
            continue
        smallest = min(view.hand_sizes[s] for s in view.sides[o])
        if not view.pot_taken[o]:
            out = smallest / 3.0 + _NO_POT_TURNS * slow
        elif any(m.canastra and (m.clean or not r.clean_out) and not m.staged for m in melds):
            out = 1.0 + smallest / 3.0
        else:
            out = 3.0 * slow
        turns = min(turns, out)
    return max(1.0, turns)


def _ready_to_go_out(view: SeatView, r: _Rules) -> bool:
    """Whether the seat's side holds its morto and a canastra that lets it go out."""
    if not view.pot_taken[view.side]:
        return False
    clean = r.clean_out
    return any(
        m.canastra and (m.clean or not clean) and not m.staged for m in view.melds[view.side]
    )


def _threat(view: SeatView, r: _Rules) -> float:
    """How close the opponents are to going out, from 0 to 1.

    1: a side with its morto and a canastra that counts, one of its players holding
    three cards or fewer; 0.6: the same with bigger hands; 0.3: a side with its morto
    but no such canastra yet.
    """
    side = view.side
    level = 0.0
    for o, melds in enumerate(view.melds):
        if o == side or not view.pot_taken[o]:
            continue
        ready = False
        for m in melds:
            if m.canastra and (m.clean or not r.clean_out) and not m.staged:
                ready = True
                break
        if not ready:
            level = max(level, 0.3)
            continue
        smallest = min(view.hand_sizes[s] for s in view.sides[o])
        level = max(level, 1.0 if smallest <= 3 else 0.6)
    return level
