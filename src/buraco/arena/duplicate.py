"""Duplicate play: one deal played at every table in every arrangement.

Every game of a deal is built with the same game seed (:func:`deal_seed`), so each
hand's deck order, cut and dealer are the same in all of them (with ``matches``,
hand ``n`` of every match has the same cards too); only the bots' seats change
(:mod:`buraco.arena.pairing`). Each bot is seeded from the arena seed, the deal,
the table, the arrangement and the seat (:func:`bot_seed`), never from the clock,
so a deal's results depend on nothing else and deals can run in any process and
any order.

Only :meth:`~buraco.bots.Bot.choose` is timed, not the engine building the view or
applying the action.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from buraco.actions import Action, TakePile
from buraco.arena.pairing import Table, seat_bots
from buraco.arena.timing import TimeSketch
from buraco.bots import Bot, make_bot, play_match, seat_name
from buraco.game import Game
from buraco.record import save
from buraco.rules import Rules


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the parts' text (BLAKE2b; the same in every process and run)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal number ``deal`` (from 0) of an arena run with ``seed``.

    >>> deal_seed(0, 3) == deal_seed(0, 3) != deal_seed(1, 3)
    True
    """
    return derive_seed("buraco-arena-deal", seed, deal) % 2**31


def bot_seed(seed: int, deal: int, table: int, rotation: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of arrangement ``rotation`` of ``table`` at ``deal``."""
    return derive_seed("buraco-arena-bot", seed, deal, table, rotation, seat)


@dataclass(frozen=True)
class ArenaSpec:
    """Everything that decides an arena's games (picklable, sent to worker processes)."""

    rules: Rules
    bots: tuple[str, ...]
    """The bot specs (for :func:`buraco.bots.make_bot`), in the order given."""
    labels: tuple[str, ...]
    """Display names of the bots (specs, numbered when one repeats)."""
    tables: tuple[Table, ...]
    deals: int
    seed: int
    matches: bool
    """Whether each game is a full match rather than a single hand."""


@dataclass(frozen=True)
class GameResult:
    """One game of a deal: who held which side, and what each side scored."""

    deal: int
    table: int
    rotation: int
    """The arrangement's number at its table (see :class:`~buraco.arena.pairing.Table`)."""
    side_bots: tuple[int, ...]
    """Per side, the (arena) index of the bot playing it."""
    scores: tuple[int, ...]
    """Per side, the score: the hand's, or the match total with ``matches``."""
    hands: int
    ended_by: tuple[str, ...]
    """How each hand ended (``going-out``, ``stock``, ``blocked``)."""
    went_out: tuple[int | None, ...]
    """Per hand, the side that went out, if any."""
    winner: int | None
    """The side that won the match (``None`` for single hands)."""
    actions: int
    pile_takes: tuple[int, ...] = ()
    """Per side, the turns its players began by taking the pile..."""
    pile_chances: tuple[int, ...] = ()
    """... and those they began with a pile to take (taken or not)."""

    def bot_score(self, bot: int) -> float:
        """The mean score of the sides ``bot`` played (it may hold two of three sides)."""
        mine = [s for side, s in zip(self.side_bots, self.scores, strict=True) if side == bot]
        return sum(mine) / len(mine)

    def diff(self, x: int, y: int) -> float:
        """Bot ``x``'s score minus bot ``y``'s in this game."""
        return self.bot_score(x) - self.bot_score(y)

    def record_name(self) -> str:
        """File name of this game's record."""
        return f"deal-{self.deal:05d}-t{self.table}-r{self.rotation}.json"


@dataclass(frozen=True)
class PairDeal:
    """How one deal went between two bots (``x < y``), from ``x``'s side."""

    x: int
    y: int
    diff: float
    """``x``'s score minus ``y``'s, summed over the games of the deal where they met
    (averaged over tables when more than one seats them both)."""
    x_matches: int = 0
    """Matches of the deal won by ``x``'s side (with ``matches``)."""
    y_matches: int = 0

    @property
    def result(self) -> int:
        """1 if ``x`` won the duplicate deal, -1 if ``y`` did, 0 for a tie."""
        return (self.diff > 0) - (self.diff < 0)


@dataclass(frozen=True)
class DealResult:
    """Every game of one deal and the duplicate result of every pair of bots."""

    deal: int
    seed: int
    """The game seed shared by the deal's games."""
    games: tuple[GameResult, ...]
    pairs: tuple[PairDeal, ...]

    def pair(self, x: int, y: int) -> PairDeal:
        """The result of bots ``x`` and ``y`` (``x < y``)."""
        for p in self.pairs:
            if (p.x, p.y) == (x, y):
                return p
        raise KeyError((x, y))


def play_deal(
    spec: ArenaSpec, deal: int, records: Path | None = None
) -> tuple[DealResult, list[TimeSketch]]:
    """Play deal ``deal`` at every table in every arrangement.

    Returns the deal's result and, per bot, its decision times. Writes each game's
    record into ``records`` when given.
    """
    game_seed = deal_seed(spec.seed, deal)
    times = [TimeSketch() for _ in spec.bots]
    games = []
    for table in spec.tables:
        for rotation in range(len(table.arrangements)):
            side_bots = table.side_bots(rotation)
            seated = seat_bots(side_bots, spec.rules.players)
            bots = [
                make_bot(spec.bots[b], seed=bot_seed(spec.seed, deal, table.index, rotation, s))
                for s, b in enumerate(seated)
            ]
            names = [seat_name(spec.labels[b], s) for s, b in enumerate(seated)]
            game = Game(spec.rules, seed=game_seed, match=spec.matches, names=names)
            piles = PileCount(game.rules.sides)
            actions = play_game(game, bots, [times[b] for b in seated], piles)
            takes, chances = tuple(piles.takes), tuple(piles.chances)
            result = GameResult(
                deal=deal,
                table=table.index,
                rotation=rotation,
                side_bots=side_bots,
                scores=tuple(t - s for t, s in zip(game.totals, game.start_totals, strict=True)),
                hands=len(game.results),
                ended_by=tuple(r.ended_by for r in game.results),
                went_out=tuple(r.went_out for r in game.results),
                winner=game.winner,
                actions=actions,
                pile_takes=takes,
                pile_chances=chances,
            )
            games.append(result)
            if records is not None:
                save(game, records / result.record_name())
    return DealResult(deal, game_seed, tuple(games), _pairs(spec, games)), times


class PileCount:
    """Per side: turns begun by taking the pile, and turns begun when the rules let it.

    A turn counts as a chance only when taking the pile was one of the legal actions (a
    closed pile whose top card does not meld, or a draw forced by the streak limit, is
    not a chance).
    """

    def __init__(self, sides: int) -> None:
        self.sides = sides
        self.takes = [0] * sides
        self.chances = [0] * sides

    def __call__(self, seat: int, legal: Sequence[Action], action: Action) -> None:
        """One decision (see :data:`buraco.bots.play.Decision`)."""
        if any(type(a) is TakePile for a in legal):
            self.chances[seat % self.sides] += 1
            self.takes[seat % self.sides] += type(action) is TakePile


def play_game(
    game: Game, bots: list[Bot], times: list[TimeSketch], piles: PileCount | None = None
) -> int:
    """Play the game to its end (every hand of a match); returns the actions made.

    ``times[seat]`` counts the wall time of each of that seat's ``choose`` calls;
    ``piles`` the pile's chances and takes.
    """
    return play_match(game, bots, on_choose=lambda seat, s: times[seat].add(s), on_decision=piles)


def _pairs(spec: ArenaSpec, games: list[GameResult]) -> tuple[PairDeal, ...]:
    sums: dict[tuple[int, int], float] = {}
    tables: dict[tuple[int, int], set[int]] = {}
    wins: dict[tuple[int, int], list[int]] = {}
    for g in games:
        present = sorted(set(g.side_bots))
        for i, x in enumerate(present):
            for y in present[i + 1 :]:
                key = (x, y)
                sums[key] = sums.get(key, 0.0) + g.diff(x, y)
                tables.setdefault(key, set()).add(g.table)
                won = wins.setdefault(key, [0, 0])
                if g.winner is not None:
                    if g.side_bots[g.winner] == x:
                        won[0] += 1
                    elif g.side_bots[g.winner] == y:
                        won[1] += 1
    return tuple(
        PairDeal(x, y, sums[(x, y)] / len(tables[(x, y)]), *wins[(x, y)]) for x, y in sorted(sums)
    )
