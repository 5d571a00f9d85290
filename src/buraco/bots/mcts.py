"""The ``mcts`` bot: Monte Carlo search over sampled deals (determinized search).

The bot sees only its seat's full view. At a decision worth searching it builds a
:class:`~buraco.determinize.Determinizer` from the view and repeats, within its
budget, a *round*: deal the unseen cards at random consistently with everything the
view has shown (the other hands, the stock, the mortos), then try every candidate
action on that same deal and play the hand out with the policy bot in every seat,
the same playout seeds for each candidate. A playout stops after ``depth`` rounds
(every player's turn once) and the position is scored by the fitted
:class:`~buraco.bots.evaluation.Evaluation` (``depth=0``: played to the end of the
hand). A candidate's result is its side's (estimated) hand score minus the best other
side's; comparing candidates on the same deals (common random numbers) cancels most
of the luck of the sampled cards.

Why stop early: with heuristic players a hand lasts hundreds of turns, and one
paired full playout's difference between two candidates has a standard deviation of
about 510 points in ``aberto`` with 4 players, against differences of tens of points
between good candidates. Four rounds and the evaluation bring it to about 125, at a
sixth of the cost of a playout, so a tenth of a second separates what a second of
full playouts could not.

Candidates (see :meth:`MctsBot.candidates`): drawing or taking the pile (when the
pile holds at least ``pile`` cards), the policy's ``width`` preferred discards and,
with ``melds``, the meld or add it would make instead, and for an opened side a meld
or add against discarding now. A candidate falls out of the search once its mean
difference to the best is more than ``prune`` standard errors below zero; the search
ends when one is left, when no other candidate is on course to overrule the policy in
the budget left (``futile``), or when the budget is spent. The policy's own choice is
kept unless another beats it by ``margin`` standard errors, so the search changes
only decisions it has evidence about. With ``habits``, a seat seen to take (or leave)
nearly every pile plays that habit in the playouts (:func:`pile_habits`).

Budget: ``time`` seconds per decision (default 0.1) and/or ``iterations`` rounds.
With ``iterations`` alone the bot is deterministic for a seed; a time budget depends
on the machine. ``time`` bounds when a round may start (after the first 3); ``limit``
bounds the whole search at that many times ``time`` (default 2): a round is not begun
when one as long as the mean of those played so far would end past it, a round still
going then is dropped unfinished (its playouts would compare the candidates on different
deals), and with no round finished the policy's choice stands. Parameters are given by
name: ``mcts:time=0.5``, ``mcts:iterations=20,policy=greedy``, ``mcts:depth=0`` (full playouts).

``value`` chooses what scores a cut playout: ``fitted`` (the default, the linear
:class:`~buraco.bots.evaluation.Evaluation`), ``learned`` (the networks of
:mod:`buraco.bots.value` shipped for ``aberto``, ``italiano``, ``fechado`` and ``us``
with 4 players and ``italiano`` with 2) or a value model's file; at a table no model was
trained for, the fitted evaluation scores.
The strongest bot, ``expert`` (``buraco.bots.NAMED``, ``docs/bots.md``), is
``mcts:value=learned,time=0.05,depth=2,futile=0,limit=1``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import ClassVar

from buraco.actions import (
    DRAW,
    TAKE_PILE,
    Action,
    Add,
    Discard,
    Meld,
    MoveWild,
    TurnUp,
)
from buraco.bots.base import Bot, pile_choices
from buraco.bots.evaluation import Evaluation
from buraco.bots.play import play_one
from buraco.bots.value import SHIPPED_VALUES, LearnedValue, load_value
from buraco.determinize import Determinizer
from buraco.errors import BotError
from buraco.game import Game
from buraco.rules import Rules
from buraco.views import SeatView

_MIN_ROUNDS = 3
"""Rounds before a candidate may be pruned or the search stopped."""


MAX_TIME = 3600.0
"""The longest search time a decision may be given, in seconds."""


class MctsBot(Bot):
    """Determinized Monte Carlo search with a policy bot for playouts."""

    name = "mcts"
    wants_full_view = True
    params: ClassVar[dict[str, type]] = {
        "time": float,
        "iterations": int,
        "policy": str,
        "width": int,
        "pile": int,
        "prune": float,
        "margin": float,
        "depth": int,
        "full": bool,
        "melds": bool,
        "habits": bool,
        "futile": float,
        "limit": float,
        "value": str,
    }

    def __init__(
        self,
        seed: int | None = None,
        time: float = 0.1,
        iterations: int = 0,
        policy: str = "heuristic",
        width: int = 3,
        pile: int = 1,
        prune: float = 2.0,
        margin: float = 1.0,
        depth: int = 4,
        full: bool = False,
        melds: bool = True,
        habits: bool = True,
        futile: float = 0.5,
        limit: float = 2.0,
        value: str = "fitted",
    ) -> None:
        super().__init__(seed)
        if not time > 0 and iterations <= 0:
            raise BotError("mcts needs a budget: time > 0 or iterations > 0")
        for name, number, low, high in (
            ("time", time, 0, MAX_TIME),
            ("iterations", iterations, 0, 10**7),
            ("depth", depth, 0, 1000),
            ("pile", pile, 0, 1000),
            ("width", width, 1, 100),
            ("prune", prune, 0, 10**9),
            ("margin", margin, 0, 10**9),
            ("futile", futile, 0, 10**9),
            ("limit", limit, 0, 10**9),
        ):
            if not low <= number <= high:  # also refuses nan
                raise BotError(f"mcts: {name} must be from {low} to {high}, not {number}")
        if 0 < limit < 1:
            raise BotError(
                f"mcts: limit is 0 (none) or at least 1 (a multiple of time), not {limit}"
            )
        from buraco.bots.playout import PLAYOUT_BOTS

        policy_cls = PLAYOUT_BOTS.get(policy)
        if policy_cls is None:
            choices = ", ".join(PLAYOUT_BOTS)
            raise BotError(f"mcts: unknown playout policy {policy!r:.40}; choose {choices}")
        try:  # a policy that cannot be made (one that needs a file) fails here, not mid-search
            policy_cls(seed=0)
        except BotError as e:
            raise BotError(f"mcts: the playout policy cannot be made: {e}") from None
        self.time = time
        self.iterations = iterations
        self.policy_cls = policy_cls
        self.width = width
        self.pile = pile
        self.prune = prune
        self.margin = margin
        self.depth = depth
        self.full = full
        self.melds = melds
        self.habits = habits
        self.futile = futile
        self.limit = limit
        self.policy = policy_cls(seed=self.rng.randrange(2**31))
        self.value = value
        self._learned: list[LearnedValue] = []
        """The models that may score a playout, the first that fits the table chosen."""
        if value != "fitted":
            try:
                files = SHIPPED_VALUES if value == "learned" else (value,)
                self._learned = [load_value(f) for f in files]
            except ImportError:
                raise BotError(
                    "mcts: a learned value needs numpy: pip install 'buraco[fit]'"
                ) from None
            except ValueError as e:
                raise BotError(
                    f"mcts: value is fitted, learned or a value model's file: {e}"
                ) from None
        self.last_rounds = 0
        """Rounds searched for the last decision (0: not searched)."""
        self._evaluation: tuple[Rules, Evaluation | LearnedValue] | None = None
        """What scores a cut playout at the rules last searched: the first learned model
        that fits them, else the fitted evaluation."""
        self._playout_bots: list[Bot] = []
        """The playouts' bots, one per seat, made once (building one is not free)."""

    def new_hand(self) -> None:
        """Forget the previous hand (the policy bot too)."""
        self.policy.new_hand()

    # ----- deciding ------------------------------------------------------------------
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A searched choice when it matters, else the policy's."""
        self.last_rounds = 0
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()  # the budget counts choosing the candidates too
        candidates = self.candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, candidates, started)

    def candidates(self, view: SeatView, legal: Sequence[Action]) -> list[Action]:
        """The actions the search compares, the policy's choice first (one: no search).

        Drawing: the stock against the pile. Discarding: the policy's ``width`` preferred
        discards and, with ``melds``, the play the policy would choose among the melds
        and adds alone (melding what it would hold). Melding (``melds``, a side that has
        opened): the policy's play, its discard instead (holding the rest) and its next
        preferred play. Where the policy would turn the first card up, its choice among
        the rest; in ``fechado`` the ways to meld the pile's top card.
        """
        policy = self.policy
        suggestion = policy.choose(view, legal)
        phase = view.phase
        if phase == "draw":
            if view.pile_size < max(self.pile, 1) or not (DRAW in legal and TAKE_PILE in legal):
                return [suggestion]
            return [suggestion, TAKE_PILE if suggestion == DRAW else DRAW]
        if not self.melds and not isinstance(suggestion, Discard):
            return [suggestion]
        if phase == "top-meld":
            return [suggestion, *[a for a in legal if a != suggestion][: self.width - 1]]
        if phase != "play":
            return [suggestion]
        discards: list[Action] = [a for a in legal if isinstance(a, Discard)]
        opened = not view.requirement[view.side]
        plays = [a for a in legal if isinstance(a, Meld | Add | MoveWild)]
        if isinstance(suggestion, Discard):
            ranked = policy.ranked_discards(view, legal)
            out = [suggestion, *[a for a in ranked if a != suggestion][: self.width - 1]]
            if self.melds and opened and plays:
                out.append(policy.choose(view, plays))
            return out
        if isinstance(suggestion, TurnUp):
            return [suggestion, policy.choose(view, [a for a in legal if a != suggestion])]
        if not opened:
            return [suggestion]  # the policy's opening plan is followed as a whole
        out = [suggestion]
        if discards:
            out.append(policy.choose(view, discards))
        rest = [a for a in plays if a != suggestion]
        if rest:
            out.append(policy.choose(view, rest))
        return out

    def _search(self, view: SeatView, candidates: list[Action], started: float) -> Action:
        sampler = Determinizer(view)
        side = view.side
        rules = sampler.rules
        if self._evaluation is None or self._evaluation[0] is not rules:
            fitting = next((m for m in self._learned if m.fits(rules)), None)
            evaluation = fitting if fitting is not None else Evaluation.for_rules(rules)
            self._evaluation = (rules, evaluation)
        evaluation = self._evaluation[1]
        k = len(candidates)
        live = list(range(k))
        results: list[list[float]] = [[] for _ in range(k)]
        habits = pile_habits(view) if self.habits else [None] * len(view.hand_sizes)
        deadline = started + self.time if self.time > 0 else math.inf
        hard = started + self.limit * self.time if self.time > 0 and self.limit else math.inf
        most_rounds = self.iterations or math.inf
        rounds = 0
        while rounds < most_rounds and len(live) > 1:
            if rounds and (deadline < math.inf or hard < math.inf):
                now = time.perf_counter()
                if rounds >= _MIN_ROUNDS and now >= deadline:
                    break
                if now + (now - started) / rounds > hard:
                    break  # a round as long as the mean would be dropped at the hard limit
            deal = sampler.sample(self.rng)
            seed = self.rng.randrange(2**31)
            played = []
            for i in live:
                game = deal.clone()
                game.apply(candidates[i])
                result = self._playout(game, side, seed, evaluation, habits, hard)
                if result is None:
                    break
                played.append(result)
            if len(played) < len(live):
                break  # past the hard limit: the unfinished round is not used
            for i, result in zip(live, played, strict=True):
                results[i].append(result)
            rounds += 1
            if rounds >= _MIN_ROUNDS and self.prune > 0:
                best = max(live, key=lambda j: _mean(results[j]))
                live = [
                    j
                    for j in live
                    if j == best or _gap(results[j], results[best], rounds) > -self.prune
                ]
            if rounds >= _MIN_ROUNDS and self.futile > 0 and 0 in live and len(live) > 1:
                # stop when no other candidate is on course to overrule the policy's
                possible = most_rounds
                if self.time > 0:
                    elapsed = max(time.perf_counter() - started, 1e-9)
                    possible = min(possible, rounds * self.time / elapsed)
                lead = max(_gap(results[j], results[0], rounds) for j in live if j != 0)
                if futile(lead, rounds, possible, self.futile * self.margin):
                    break
        self.last_rounds = rounds
        if not rounds:
            return candidates[0]  # no evidence to overrule the policy
        best = max(live, key=lambda j: _mean(results[j]))
        if best != 0 and _gap(results[best], results[0], rounds) < self.margin:
            return candidates[0]
        return candidates[best]

    def _playout(
        self,
        game: Game,
        side: int,
        seed: int,
        evaluation: Evaluation | LearnedValue,
        habits: Sequence[Action | None],
        hard: float = math.inf,
    ) -> float | None:
        """Play the sampled hand on with the policy: ``side``'s score minus the best other.

        Up to ``depth`` rounds (0: to the end), then the evaluation's estimate. A seat
        with a pile habit (see :func:`pile_habits`) draws as it has been seen to. None
        when the clock passes ``hard`` (a :func:`time.perf_counter` reading) first.
        """
        bots = self._playout_bots
        if len(bots) != game.players:
            bots = self._playout_bots = [self.policy_cls(seed=s) for s in range(game.players)]
        for s, bot in enumerate(bots):  # the same bots, as if new: reseeded, no memory
            bot.rng.seed(seed + s)
            bot.new_hand()
        full = self.full
        turns = 0
        while not game.is_hand_over():
            if hard < math.inf and time.perf_counter() >= hard:
                return None
            habit = habits[game.turn]
            if habit is not None and DRAW in (legal := game.legal_actions()) and TAKE_PILE in legal:
                action = habit
                game.apply(action)
            else:
                action = play_one(game, bots, full)
            if isinstance(action, Discard):
                turns += 1
                if self.depth and turns >= self.depth * game.players:
                    break
        return evaluation.result(game, side)


HABIT_CHANCES = 6
"""Piles a player must have been offered before a habit is read from their choices."""
HABIT_RATE = 0.9
"""The share of those they took (or left) that makes a habit."""


def pile_habits(view: SeatView) -> list[Action | None]:
    """Per seat, ``take-pile`` or ``draw`` if the hand's history shows it a habit, else None.

    A habit: the seat was offered the pile (it held cards) at least
    :data:`HABIT_CHANCES` times and took it, or left it, in :data:`HABIT_RATE` of them
    or more. The viewing seat has none. A search's playouts model such a player by the
    habit rather than by the policy bot, which would judge each pile on its merits.
    """
    n = len(view.hand_sizes)
    upcard = view.detail is not None and view.detail.upcard is not None
    takes, chances = pile_choices(view.events, n, upcard)
    out: list[Action | None] = []
    for seat in range(n):
        habit: Action | None = None
        if seat != view.seat and chances[seat] >= HABIT_CHANCES:
            rate = takes[seat] / chances[seat]
            if rate >= HABIT_RATE:
                habit = TAKE_PILE
            elif rate <= 1 - HABIT_RATE:
                habit = DRAW
        out.append(habit)
    return out


def futile(lead: float, rounds: int, possible: float, bar: float) -> bool:
    """Whether a search should stop, its best lead staying under ``bar`` in its budget.

    ``lead``: the best candidate's lead over the policy's choice, in standard errors
    after ``rounds`` rounds; it is projected to ``possible`` rounds (the budget's), a
    true lead growing as the root of the rounds.

    >>> futile(0.4, 4, 16, 1.0), futile(0.6, 4, 16, 1.0)
    (True, False)
    """
    return lead * math.sqrt(max(possible, rounds) / rounds) < bar


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else -math.inf


def _gap(a: Sequence[float], b: Sequence[float], rounds: int) -> float:
    """Mean of ``a − b`` over the rounds both were played, in standard errors."""
    n = min(len(a), len(b), rounds)
    if n < 2:
        return 0.0
    d = [a[i] - b[i] for i in range(n)]
    m = sum(d) / n
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    if var == 0:
        return math.copysign(math.inf, m) if m else 0.0
    return m / math.sqrt(var / n)
