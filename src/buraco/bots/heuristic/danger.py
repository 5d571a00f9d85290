"""The danger of a discard: what it gives an opponent, scaled by the pile it lands on."""

from __future__ import annotations

from buraco.bots.heuristic.reading import _RANK, _SUIT, _WILD
from buraco.bots.heuristic.turn import _Turn
from buraco.bots.heuristic.weights import _DANGER_FIT, _DANGER_KNOWN, _DANGER_PILE, _SAFE_DISCARDED
from buraco.cards import Card

# ----- the danger of a discard -------------------------------------------------------------


class _Danger:
    """How much a discard would help the next players."""

    __slots__ = (
        "fit",
        "known_masks",
        "known_ranks",
        "mult",
        "pile_masks",
        "pile_ranks",
        "positions",
        "safe",
    )

    def __init__(self, t: _Turn) -> None:
        view, r = t.view, t.r
        seat = view.seat
        n = r.players
        self.positions = r.positions
        self.fit: dict[Card, float] = {}
        nxt = (seat + 1) % n
        weights: dict[int, float] = {}
        for step in range(1, n):
            other = (seat + step) % n
            side = other % r.sides
            if side == t.side or side in weights:
                continue
            weights[side] = 1.0 if other == nxt else 0.6
        for side, w in weights.items():
            if not view.melds[side]:
                continue
            mine = self.fit
            for c, f in t.tables[side].fit.items():
                mine[c] = mine.get(c, 0.0) + w * f * _DANGER_FIT
        self.known_masks = [0, 0, 0, 0]
        self.known_ranks = 0
        self.safe: set[Card] = set()
        mem = t.mem
        if mem is not None:
            for c in mem.known[nxt]:
                if not _WILD[c]:
                    for p in r.positions[c]:
                        self.known_masks[_SUIT[c]] |= 1 << p
                    self.known_ranks |= 1 << _RANK[c]
            self.safe = mem.discarded[nxt]
        self.known_ranks &= r.set_mask
        self.pile_masks = [0, 0, 0, 0]
        self.pile_ranks: dict[int, int] = {}
        if view.pile_open and not r.top_meld:
            for c in view.pile:
                if not _WILD[c]:
                    for p in r.positions[c]:
                        self.pile_masks[_SUIT[c]] |= 1 << p
                    if r.set_mask >> _RANK[c] & 1:
                        self.pile_ranks[_RANK[c]] = self.pile_ranks.get(_RANK[c], 0) + 1
        self.mult = 1.0 + view.pile_size / 8.0

    def of(self, c: Card) -> float:
        """The danger of discarding the natural card ``c``."""
        d = self.fit.get(c, 0.0)
        s = _SUIT[c]
        km, pm = self.known_masks[s], self.pile_masks[s]
        links = 0
        pile_links = 0
        for p in self.positions[c]:
            near = _NEAR_BITS[p]
            links += (km & near).bit_count()
            pile_links += (pm & near).bit_count()
        rank = _RANK[c]
        if self.known_ranks >> rank & 1:
            links += 1
        pile_links += self.pile_ranks.get(rank, 0)
        d += links * _DANGER_KNOWN + pile_links * _DANGER_PILE
        if c in self.safe:
            d -= _SAFE_DISCARDED
        return d * self.mult


_NEAR_BITS = tuple(
    sum(1 << q for q in (p - 2, p - 1, p + 1, p + 2) if 0 <= q <= 13) for p in range(14)
)
