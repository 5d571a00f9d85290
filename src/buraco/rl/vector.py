"""Batched Buraco: many games stepped together, observations and masks encoded in batch.

:class:`BuracoBatch` holds ``N`` games of one rule set and steps them all at once, one
action index each (the fixed action space of :mod:`buraco.rl.encoding`). After every step it
gives, for each game, the observation of one seat and that seat's legal actions, in two
forms:

- **dense**: a ``float32`` array ``(N, OBS_SIZE)`` and a mask ``(N, N_ACTIONS)``, equal
  row for row to what :class:`buraco.rl.encoding.ObservationEncoder` and
  :meth:`buraco.rl.encoding.ActionCodec.mask` give for the same seat and state;
- **index**: a :class:`CSRBatch` per batch: the non-zero entries of each row (column
  indexes in ascending order, and their values), as a compressed-sparse-row matrix. An
  observation has one or two hundred non-zero numbers out of 9,316 and a position a few
  dozen legal actions out of 19,868, so this form is much smaller; ``scipy.sparse.csr_array(
  (b.values, b.indices, b.indptr), shape=b.shape)`` and ``torch.sparse_csr_tensor(
  b.indptr, b.indices, b.values, b.shape)`` take it as it is.

The index form is built straight from the game state, without a
:class:`~buraco.views.SeatView`, and the dense form is scattered from it.

Two ways to seat the learners:

- **every seat an agent** (``opponents=None``, the default): each step is one decision
  of the seat to move in each game, and the observation is that seat's (as in
  :mod:`buraco.rl.pettingzoo`, where the agent to move is the one observed). Game ``i`` of
  ``reset(seed=s)`` plays the same deal as ``buraco.rl.pettingzoo.raw_env`` reset with seed
  ``s + i``.
- **one seat against bots** (``opponents`` a bot spec, or one per other seat): seat
  ``seat`` learns and bots play the others between its decisions, as in
  :class:`buraco.rl.gymnasium.BuracoEnv`; game ``i`` of ``reset(seed=s)`` is that
  environment reset with seed ``s + i``.

:class:`BuracoVectorEnv` is the same batch as a Gymnasium vector environment
(``gymnasium.vector.VectorEnv``), with Gymnasium's three autoreset modes.

>>> batch = BuracoBatch(3, players=4)
>>> batch.reset(seed=0)
>>> obs, legal = batch.observations("index"), batch.legal_actions()
>>> obs.shape, legal.shape
((3, 9316), (3, 19868))
>>> rewards, terminated, illegal = batch.step(random_actions(legal, np.random.default_rng(0)))
>>> bool(terminated.any()), bool(illegal.any())
(False, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from buraco.actions import (
    Action,
    Add,
    Discard,
    Draw,
    Meld,
    MoveWild,
    TakePile,
    TurnUp,
)
from buraco.bots import make_bot
from buraco.bots.base import Bot
from buraco.cards import N_CODES, Card
from buraco.game import MAX_SEED, Game, Phase
from buraco.rl.encoding import (
    ADD,
    DISCARD,
    DRAW,
    MELD_CARD,
    MELD_END,
    MOVE,
    N_ACTIONS,
    N_PLACES,
    OBS_SIZE,
    TAKE_PILE,
    TURN_UP,
    check_reward_scale,
    check_rules,
    hand_rewards,
)
from buraco.rl.gymnasium import opponent_specs
from buraco.rl.index_encoding import IndexEncoder, Parts, join_parts
from buraco.rules import Rules, make_rules
from buraco.views import seat_view

__all__ = [
    "BuracoBatch",
    "BuracoVectorEnv",
    "CSRBatch",
    "IndexEncoder",
    "random_actions",
]

Form = Literal["dense", "index"]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float32]

_OVER = int(Phase.OVER)
_EMPTY_I = np.zeros(0, dtype=np.int32)
_EMPTY_F = np.zeros(0, dtype=np.float32)

OBS_BOUND = 1e4
"""Bound of the observation box (as :data:`buraco.rl.pettingzoo.OBS_BOUND`)."""

_PZ_SEED_BOUND = min(MAX_SEED, 2**63 - 1)  # game seeds as buraco.rl.pettingzoo draws them
_GYM_SEED_BOUND = 2**62  # game and bot seeds as buraco.rl.gymnasium draws them


class CSRBatch(NamedTuple):
    """Rows of a sparse batch in compressed-sparse-row form.

    Row ``i`` holds the entries ``indices[indptr[i]:indptr[i+1]]`` (ascending column
    indexes) with values ``values[indptr[i]:indptr[i+1]]``; every other entry is zero.
    """

    indptr: npt.NDArray[np.int32]
    """``N + 1`` offsets into ``indices`` and ``values`` (the same type as ``indices``, as
    PyTorch's sparse CSR tensors ask)."""
    indices: npt.NDArray[np.int32]
    """Column indexes of the non-zero entries, row after row, ascending within a row."""
    values: npt.NDArray[Any]
    """The entries' values (``float32`` observations; ``int8`` ones for legal actions)."""
    shape: tuple[int, int]
    """The dense shape ``(N, width)``."""

    def row(self, i: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[Any]]:
        """Row ``i``'s column indexes and values."""
        a, b = int(self.indptr[i]), int(self.indptr[i + 1])
        return self.indices[a:b], self.values[a:b]

    def counts(self) -> npt.NDArray[np.int32]:
        """Non-zero entries per row."""
        return np.diff(self.indptr)

    def to_dense(self, dtype: npt.DTypeLike | None = None) -> npt.NDArray[Any]:
        """The dense ``(N, width)`` array (of ``dtype``, by default the values' type)."""
        out = np.zeros(self.shape, dtype=self.values.dtype if dtype is None else dtype)
        rows = np.repeat(np.arange(self.shape[0]), self.counts())
        out[rows, self.indices] = self.values
        return out


def _indptr(counts: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """The row offsets of rows of these lengths."""
    out = np.zeros(len(np.asarray(counts)) + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    if out[-1] >= 2**31:
        raise ValueError("a batch holds fewer than 2**31 entries: use fewer games")
    return out.astype(np.int32)


def random_actions(legal: CSRBatch, rng: np.random.Generator) -> IntArray:
    """One legal action index per row of ``legal``, uniformly at random (0 for an empty row).

    ``legal`` is :meth:`BuracoBatch.legal_actions` (or ``info["legal_actions"]`` of
    :class:`BuracoVectorEnv`).
    """
    counts = legal.counts()
    pick = legal.indptr[:-1] + (rng.random(len(counts)) * counts).astype(np.int64)
    out = np.zeros(len(counts), dtype=np.int64)
    has = counts > 0
    out[has] = legal.indices[pick[has]]
    return out


# ----------------------------------------------------------------------------------------
# legal actions: index form, and meld entry
# ----------------------------------------------------------------------------------------


class _Entry:
    """One game's legal action indexes and the meld being entered card by card.

    The same mask as :meth:`buraco.rl.encoding.MeldEntry.mask`, as sorted indexes, and the
    same steps as :meth:`buraco.rl.encoding.MeldEntry.step`.
    """

    __slots__ = ("actions", "indices", "pending", "tokens")

    def __init__(self) -> None:
        self.actions: dict[int, Action] = {}
        self.tokens: dict[int, list[Meld]] = {}
        self.pending: list[Card] = []
        self.indices: list[int] = []

    def clear(self) -> None:
        """No legal action (not this seat's turn, or the hand is over)."""
        self.actions = {}
        self.tokens = {}
        self.pending = []
        self.indices = []

    def load(self, legal: Sequence[Action]) -> None:
        """A new position: its legal actions, no meld pending."""
        actions: dict[int, Action] = {}
        melds: list[Meld] = []
        for a in legal:
            if isinstance(a, Discard):
                actions[DISCARD + a.card] = a
            elif isinstance(a, Add):
                actions[ADD + (a.meld * N_CODES + a.card) * N_PLACES + a.place] = a
            elif isinstance(a, Meld):
                melds.append(a)
            elif isinstance(a, Draw):
                actions[DRAW] = a
            elif isinstance(a, TakePile):
                actions[TAKE_PILE] = a
            elif isinstance(a, TurnUp):
                actions[TURN_UP] = a
            elif isinstance(a, MoveWild):
                actions[MOVE + a.meld * 2 + a.to - 1] = a
            else:
                raise ValueError(f"not an action: {a!r}")
        self.actions = actions
        self.pending = []
        self._group(melds)
        self.indices = sorted([*actions, *self.tokens])

    def _group(self, melds: list[Meld]) -> None:
        """The melds that extend the pending prefix, grouped by their next token."""
        k = len(self.pending)
        tokens: dict[int, list[Meld]] = {}
        for m in melds:
            cards = m.cards
            if len(cards) == k:
                tokens[MELD_END] = [m]
            else:
                t = MELD_CARD + cards[k]
                group = tokens.get(t)
                if group is None:
                    tokens[t] = [m]
                else:
                    group.append(m)
        self.tokens = tokens

    def step(self, index: int) -> Action | None:
        """Take one index: the action it completes, or None while a meld is being entered.

        Raises ``ValueError`` for an index that is not legal now.
        """
        if not self.pending:
            a = self.actions.get(index)
            if a is not None:
                return a
        group = self.tokens.get(index)
        if group is None:
            raise ValueError(f"action index {index} is not legal now")
        if index == MELD_END:
            self.pending = []
            return group[0]
        self.pending.append(index - MELD_CARD)
        self.actions = {}
        self._group(group)
        self.indices = sorted(self.tokens)
        return None


# ----------------------------------------------------------------------------------------
# the batch
# ----------------------------------------------------------------------------------------


class _Slot:
    """One game of a batch and what goes with it."""

    __slots__ = ("bots", "encoder", "entry", "game", "obs", "rng", "seat")

    def __init__(self) -> None:
        self.game: Game | None = None
        self.rng = np.random.default_rng()
        self.bots: dict[int, Bot] = {}
        self.entry = _Entry()
        self.encoder = IndexEncoder()
        self.seat = 0
        self.obs: Parts = ([], [], (_EMPTY_I, _EMPTY_F), [], [])
        """The observation's pieces (see :meth:`IndexEncoder.parts`)."""


def _seeds(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    """Per-game seeds: ``seed + i`` for an int (as Gymnasium's vector environments)."""
    if seed is None:
        return [None] * n
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer | Sequence):
        raise ValueError(f"a seed is a whole number from 0, a list of them, or None; not {seed!r}")
    if isinstance(seed, int | np.integer):
        if seed < 0:
            raise ValueError(f"a seed is a whole number from 0, not {seed}")
        return [int(seed) + i for i in range(n)]
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"give one seed per game ({n}), not {len(seeds)}")
    for s in seeds:
        if s is not None and (type(s) is not int or s < 0):
            raise ValueError(f"a seed is a whole number from 0 or None, not {s!r}")
    return seeds


class BuracoBatch:
    """``num_games`` games of one rule set, stepped together (see the module docstring).

    ``opponents``: None (every seat an agent), a bot spec for every other seat, or one
    spec per other seat in seat order; ``seat``: the learning seat when there are
    opponents. ``match``: an episode is a whole match instead of one hand. Rewards: at the
    end of a hand, each seat's side's hand score minus the best other side's, divided by
    ``reward_scale``. An illegal action index ends that game's episode with
    ``illegal_reward`` for the seat that gave it. ``options`` are rule options.
    """

    def __init__(
        self,
        num_games: int,
        preset: str = "aberto",
        players: int = 4,
        opponents: str | Sequence[str] | None = None,
        seat: int = 0,
        match: bool = False,
        reward_scale: float = 1000.0,
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        if type(num_games) is not int or num_games < 1:
            raise ValueError(f"num_games is a whole number from 1, not {num_games!r}")
        self.rules: Rules = make_rules(preset, players=players, **options)
        check_rules(self.rules)
        n = self.rules.players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat is a number from 0 to {n - 1}, not {seat!r}")
        self.specs: list[str] | None = None
        if opponents is not None:
            self.specs = opponent_specs(opponents, n)
        if type(match) is not bool:
            raise ValueError(f"match is True or False, not {match!r}")
        self.num_games = num_games
        self.agent_seat = seat
        self.match = match
        self.reward_scale = check_reward_scale(reward_scale)
        self.illegal_reward = float(illegal_reward)
        self.players = n
        self._slots = [_Slot() for _ in range(num_games)]
        self.seats: IntArray = np.zeros(num_games, dtype=np.int64)
        """The seat each game's observation is of: the seat to move (every seat an agent;
        at the end of an episode, the seat that acted last), or the learning seat."""
        self.done: npt.NDArray[np.bool_] = np.ones(num_games, dtype=np.bool_)
        """Games whose episode is over (they take no step until reset)."""
        self._obs_buf: FloatArray | None = None
        self._obs_prev: IntArray = np.zeros(0, dtype=np.int64)
        self._mask_buf: npt.NDArray[np.int8] | None = None
        self._mask_prev: IntArray = np.zeros(0, dtype=np.int64)
        self._kinds = np.tile(np.array([True, False, True]), num_games)

    @property
    def games(self) -> list[Game]:
        """The games (after :meth:`reset`)."""
        out = []
        for slot in self._slots:
            assert slot.game is not None, "call reset() first"
            out.append(slot.game)
        return out

    @property
    def pending(self) -> list[tuple[Card, ...]]:
        """Each game's meld prefix being entered (empty when none)."""
        return [tuple(slot.entry.pending) for slot in self._slots]

    # ----- episodes ----------------------------------------------------------------------
    def reset(
        self,
        seed: int | Sequence[int | None] | None = None,
        games: npt.NDArray[np.bool_] | None = None,
    ) -> None:
        """Deal a new episode in every game, or in the games where ``games`` is true.

        ``seed``: an int (game ``i`` takes ``seed + i``), one seed per game, or None (go
        on with each game's own random stream, or fresh entropy the first time).
        """
        seeds = _seeds(seed, self.num_games)
        if games is not None:
            games = np.asarray(games)
            if games.shape != (self.num_games,) or games.dtype != np.bool_:
                raise ValueError(f"games is a boolean array of shape ({self.num_games},)")
        for i, slot in enumerate(self._slots):
            if games is None or games[i]:
                self._reset_slot(i, slot, seeds[i])

    def _reset_slot(self, i: int, slot: _Slot, seed: int | None) -> None:
        if seed is not None:
            slot.rng = np.random.default_rng(seed)
        slot.entry.pending = []
        if self.specs is None:
            slot.game = g = Game(
                self.rules, seed=int(slot.rng.integers(0, _PZ_SEED_BOUND)), match=self.match
            )
            slot.bots = {}
            assert g.turn is not None
            slot.seat = g.turn
        else:
            me = self.agent_seat
            while True:  # as buraco.rl.gymnasium: deal again if the hand ends before the agent
                game_seed = int(slot.rng.integers(0, _GYM_SEED_BOUND))
                slot.game = g = Game(self.rules, seed=game_seed, match=self.match)
                others = [s for s in range(self.players) if s != me]
                slot.bots = {
                    s: make_bot(spec, seed=int(slot.rng.integers(0, _GYM_SEED_BOUND)))
                    for s, spec in zip(others, self.specs, strict=True)
                }
                for b in slot.bots.values():
                    b.new_hand()
                self._run_bots(slot, None)
                if not g.is_hand_over():
                    break
            slot.seat = me
        self.done[i] = False
        self.seats[i] = slot.seat
        self._observe(slot)

    def _run_bots(self, slot: _Slot, rewards: npt.NDArray[np.float64] | None) -> None:
        """Bots play until the learning seat is to move or the episode ends."""
        g = slot.game
        assert g is not None
        me = self.agent_seat
        while True:
            if g.is_hand_over():
                if rewards is not None:
                    rewards += hand_rewards(g, self.reward_scale)
                if self.match and not g.is_over():
                    g.next_hand()
                    for b in slot.bots.values():
                        b.new_hand()
                    continue
                return
            turn = g.turn
            if turn == me:
                return
            bot = slot.bots[turn]
            view = seat_view(g, turn, full=bot.wants_full_view)
            g.apply(bot.choose(view, view.legal))

    def _observe(self, slot: _Slot) -> None:
        """Encode the observed seat's observation and legal actions."""
        g = slot.game
        assert g is not None
        entry = slot.entry
        if not entry.pending:
            if g.phase == _OVER or g.turn != slot.seat:
                entry.clear()
            else:
                entry.load(g.legal_actions())
        slot.obs = slot.encoder.parts(g, slot.seat, entry.pending)

    def step(
        self, actions: npt.ArrayLike, skip: npt.NDArray[np.bool_] | None = None
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Each game takes one action index (the observed seat's); games in ``skip`` don't.

        Returns per game: every seat's reward from this step (``(N, players)``), whether
        its episode ended, and whether its action was illegal (which ends it). Raises
        ``RuntimeError`` for a game whose episode is over and is not skipped.
        """
        acts = np.asarray(actions)
        if acts.shape != (self.num_games,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"give one whole action index per game: an integer array of shape "
                f"({self.num_games},), not {acts.dtype} {acts.shape}"
            )
        n = self.num_games
        rewards = np.zeros((n, self.players), dtype=np.float64)
        ended_now: list[int] = []
        illegal_now: list[int] = []
        done = self.done
        if skip is not None:
            stepped = np.flatnonzero(~np.asarray(skip, dtype=np.bool_)).tolist()
        else:
            stepped = list(range(n))
        if done[stepped].any():
            late = [i for i in stepped if done[i]]
            raise RuntimeError(f"games {late}: the episode is over; reset them first")
        bots = self.specs is not None
        scale = self.reward_scale
        slots = self._slots
        indexes = acts.tolist()
        for i in stepped:
            slot = slots[i]
            g = slot.game
            assert g is not None
            entry = slot.entry
            try:
                act = entry.step(indexes[i])
            except ValueError:
                rewards[i, slot.seat] = self.illegal_reward
                ended_now.append(i)
                illegal_now.append(i)
                entry.clear()
                slot.obs = slot.encoder.parts(g, slot.seat, ())
                continue
            if act is None:  # one more card of a meld: only the prefix changed
                slot.obs = IndexEncoder.with_pending(slot.obs, entry.pending)
                continue
            g.apply(act)
            if bots:
                self._run_bots(slot, rewards[i])
                ended = g.phase == _OVER
            else:
                ended = g.phase == _OVER
                if ended:
                    rewards[i] = hand_rewards(g, scale)
                    if self.match and not g.is_over():
                        g.next_hand()
                        ended = False
                if not ended:
                    slot.seat = g.turn
            if ended:
                ended_now.append(i)
            self._observe(slot)
        terminated = np.zeros(n, dtype=np.bool_)
        terminated[ended_now] = True
        illegal = np.zeros(n, dtype=np.bool_)
        illegal[illegal_now] = True
        done |= terminated
        if not bots:
            self.seats[stepped] = [slots[i].seat for i in stepped]
        return rewards, terminated, illegal

    # ----- observations --------------------------------------------------------------------
    def observations(self, form: Form = "dense", copy: bool = True) -> Any:
        """Every game's observation: ``(N, OBS_SIZE)`` ``float32``, or a :class:`CSRBatch`.

        The dense array is kept from step to step and only its changed entries rewritten;
        with ``copy=False`` it is returned itself (valid until the next step, not to be
        written to).
        """
        if form not in ("dense", "index"):
            raise ValueError(f"form is 'dense' or 'index', not {form!r}")
        counts, indices, values = self._gather()
        if form == "index":
            indptr = _indptr(counts)
            return CSRBatch(indptr, indices, values, (self.num_games, OBS_SIZE))
        if self._obs_buf is None:
            self._obs_buf = np.zeros((self.num_games, OBS_SIZE), dtype=np.float32)
        flat = np.repeat(self._row_starts(OBS_SIZE), counts)
        flat += indices
        buf = self._obs_buf.reshape(-1)
        buf[self._obs_prev] = 0
        buf[flat] = values
        self._obs_prev = flat
        return self._obs_buf.copy() if copy else self._obs_buf

    def _row_starts(self, width: int) -> IntArray:
        return np.arange(self.num_games, dtype=np.int64) * width

    def _gather(self) -> tuple[IntArray, npt.NDArray[np.int32], FloatArray]:
        """Every game's observation entries, row after row: counts, indexes, values.

        A game's entries come in three pieces, lists, arrays, lists (see
        :meth:`IndexEncoder.parts`): the lists of all games are converted at once and put
        in place around the arrays with one mask.
        """
        ix: list[int] = []
        vx: list[float] = []
        pieces_i: list[npt.NDArray[np.int32]] = []
        pieces_v: list[FloatArray] = []
        seg: list[int] = []
        for slot in self._slots:
            ia, va, (ti, tv), ib, vb = slot.obs
            ix += ia
            ix += ib
            vx += va
            vx += vb
            pieces_i.append(ti)
            pieces_v.append(tv)
            seg += (len(ia), len(ti), len(ib))
        sizes = np.array(seg, dtype=np.int64)
        counts = sizes.reshape(-1, 3).sum(axis=1)
        listed = np.repeat(self._kinds, sizes)
        indices = np.empty(len(listed), dtype=np.int32)
        values = np.empty(len(listed), dtype=np.float32)
        indices[listed] = np.fromiter(ix, np.int32, len(ix))
        values[listed] = np.fromiter(vx, np.float32, len(vx))
        rest = ~listed
        indices[rest] = np.concatenate(pieces_i)
        values[rest] = np.concatenate(pieces_v)
        return counts, indices, values

    def legal_actions(self) -> CSRBatch:
        """Every game's legal action indexes (ascending; none once its episode is over)."""
        rows = [s.entry.indices for s in self._slots]
        indptr = _indptr([len(r) for r in rows])
        flat: list[int] = []
        for r in rows:
            flat += r
        indices = np.fromiter(flat, np.int32, len(flat))
        return CSRBatch(
            indptr, indices, np.ones(len(indices), dtype=np.int8), (self.num_games, N_ACTIONS)
        )

    def action_masks(self, dtype: npt.DTypeLike = np.int8, copy: bool = True) -> npt.NDArray[Any]:
        """Every game's action mask ``(N, N_ACTIONS)``: 1 where legal.

        Kept from step to step like :meth:`observations`; ``copy=False`` returns the
        ``int8`` array itself (then ``dtype`` is ignored).
        """
        if self._mask_buf is None:
            self._mask_buf = np.zeros((self.num_games, N_ACTIONS), dtype=np.int8)
        rows = [s.entry.indices for s in self._slots]
        lens = [len(r) for r in rows]
        flat: list[int] = []
        for r in rows:
            flat += r
        pos = np.fromiter(flat, np.int64, len(flat))
        pos += np.repeat(np.arange(self.num_games, dtype=np.int64) * N_ACTIONS, lens)
        buf = self._mask_buf.reshape(-1)
        buf[self._mask_prev] = 0
        buf[pos] = 1
        self._mask_prev = pos
        if not copy:
            return self._mask_buf
        return self._mask_buf.astype(dtype, copy=True)

    def observation_of(self, i: int) -> tuple[npt.NDArray[np.int32], FloatArray]:
        """Game ``i``'s observation as (ascending indexes, values) of its non-zero entries."""
        return join_parts(self._slots[i].obs)


# ----------------------------------------------------------------------------------------
# Gymnasium
# ----------------------------------------------------------------------------------------


class BuracoVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """A :class:`BuracoBatch` as a Gymnasium vector environment.

    ``num_envs`` games; the other arguments as :class:`BuracoBatch`, plus:

    - ``observation_form``: ``"dense"`` (an ``(N, OBS_SIZE)`` ``float32`` array, as the
      observation space says) or ``"index"`` (a :class:`CSRBatch` of the same rows);
    - ``mask_form``: ``"dense"`` puts ``info["action_mask"]`` (``(N, N_ACTIONS)``
      ``int8``) in every info; ``"index"`` puts ``info["legal_actions"]`` (a
      :class:`CSRBatch`) instead; :meth:`action_masks` gives the boolean mask either way;
    - ``autoreset_mode``: Gymnasium's (``metadata["autoreset_mode"]``): ``NEXT_STEP``
      (default: the step after an episode ends resets that game and ignores its action),
      ``SAME_STEP`` (the ending step resets it at once; its last observation and info are
      in ``info["final_obs"]`` and ``info["final_info"]``) or ``DISABLED`` (call
      ``reset(options={"reset_mask": done})``);
    - ``copy``: return a copy of the dense arrays (True) or the arrays kept between steps.

    Every info has ``"seat"`` (the seat each observation is of) and ``"rewards"``
    (``(N, players)``, every seat's reward from the step: with every seat an agent, the
    step's reward is only that of the seat that acted, the one the last observation was
    of, and the others' hand rewards are here), and
    ``"illegal_action"`` when an action was illegal; each key ``k`` has its ``"_k"`` mask,
    as Gymnasium's vector infos do.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's convention
        "render_modes": ["ansi"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int,
        preset: str = "aberto",
        players: int = 4,
        opponents: str | Sequence[str] | None = None,
        seat: int = 0,
        match: bool = False,
        reward_scale: float = 1000.0,
        illegal_reward: float = -1.0,
        observation_form: Form = "dense",
        mask_form: Form = "dense",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if observation_form not in ("dense", "index"):
            raise ValueError(f"observation_form is 'dense' or 'index', not {observation_form!r}")
        if mask_form not in ("dense", "index"):
            raise ValueError(f"mask_form is 'dense' or 'index', not {mask_form!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            modes = ", ".join(repr(m.value) for m in AutoresetMode)
            raise ValueError(f"autoreset_mode is one of {modes}, not {autoreset_mode!r}") from None
        self.batch = BuracoBatch(
            num_envs,
            preset,
            players,
            opponents=opponents,
            seat=seat,
            match=match,
            reward_scale=reward_scale,
            illegal_reward=illegal_reward,
            **options,
        )
        self.num_envs = num_envs
        self.observation_form = observation_form
        self.mask_form = mask_form
        self.autoreset_mode = mode
        self.copy = copy
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.single_observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_SIZE,), np.float32)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._all = np.ones(num_envs, dtype=np.bool_)

    # ----- helpers -----------------------------------------------------------------------
    def _obs(self) -> Any:
        return self.batch.observations(self.observation_form, copy=self.copy)

    def _info(
        self, rewards: npt.NDArray[np.float64], illegal: npt.NDArray[np.bool_]
    ) -> dict[str, Any]:
        b = self.batch
        info: dict[str, Any] = {"seat": b.seats.copy(), "_seat": self._all.copy()}
        info["rewards"] = rewards
        info["_rewards"] = self._all.copy()
        if self.mask_form == "dense":
            info["action_mask"] = b.action_masks(copy=self.copy)
            info["_action_mask"] = self._all.copy()
        else:
            info["legal_actions"] = b.legal_actions()
            info["_legal_actions"] = self._all.copy()
        if illegal.any():
            info["illegal_action"] = illegal
            info["_illegal_action"] = illegal.copy()
        return info

    def _row(self, i: int) -> Any:
        """Game ``i``'s observation alone (a final observation)."""
        ix, vx = self.batch.observation_of(i)
        if self.observation_form == "index":
            return ix, vx
        out = np.zeros(OBS_SIZE, dtype=np.float32)
        out[ix] = vx
        return out

    # ----- API ---------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a new episode in every game (or those of ``options["reset_mask"]``).

        ``seed``: an int (game ``i`` takes ``seed + i``) or one seed per game.
        """
        mask: npt.NDArray[np.bool_] | None = None
        if options and "reset_mask" in options:
            mask = options["reset_mask"]
            if (
                not isinstance(mask, np.ndarray)
                or mask.shape != (self.num_envs,)
                or mask.dtype != np.bool_
                or not mask.any()
            ):
                raise ValueError(
                    f"options['reset_mask'] is a boolean numpy array of shape "
                    f"({self.num_envs},) with at least one True"
                )
        if seed is not None and isinstance(seed, int):
            super().reset(seed=seed)
        self.batch.reset(seed, mask)
        if mask is None:
            self._autoreset[:] = False
        else:
            self._autoreset[mask] = False
        zero = np.zeros((self.num_envs, self.batch.players), dtype=np.float64)
        return self._obs(), self._info(zero, np.zeros(self.num_envs, dtype=np.bool_))

    def step(self, actions: npt.ArrayLike) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Every game takes its action index; see the class docstring for the autoreset."""
        b = self.batch
        mode = self.autoreset_mode
        skip: npt.NDArray[np.bool_] | None = None
        if mode == AutoresetMode.NEXT_STEP and self._autoreset.any():
            skip = self._autoreset.copy()
        elif mode == AutoresetMode.DISABLED and b.done.any():
            raise RuntimeError(
                "some games' episodes are over: reset them with "
                "reset(options={'reset_mask': ...}) (autoreset_mode DISABLED)"
            )
        actors = b.seats.copy()  # the seat each action is for (the last observations')
        rewards, terminated, illegal = b.step(actions, skip)
        if skip is not None:
            b.reset(None, skip)
        seats = b.seats
        reward = rewards[np.arange(self.num_envs), actors]
        final: dict[str, Any] | None = None
        if mode == AutoresetMode.SAME_STEP and terminated.any():
            final = {
                "final_obs": np.array([None] * self.num_envs, dtype=object),
                "_final_obs": terminated.copy(),
            }
            final_info = {
                "seat": seats.copy(),
                "_seat": terminated.copy(),
                "rewards": rewards,
                "_rewards": terminated.copy(),
            }
            if illegal.any():
                final_info["illegal_action"] = illegal
                final_info["_illegal_action"] = illegal.copy()
            for i in np.flatnonzero(terminated).tolist():
                final["final_obs"][i] = self._row(i)
            final["final_info"] = final_info
            final["_final_info"] = terminated.copy()
            b.reset(None, terminated)
        obs = self._obs()
        info = self._info(rewards, illegal)
        if final is not None:
            info.update(final)
        self._autoreset = terminated.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal actions now, as booleans ``(N, N_ACTIONS)``."""
        return self.batch.action_masks(np.bool_)

    def render(self) -> tuple[str, ...] | None:
        """Each game's table as its observed seat sees it (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        from buraco.rl.pettingzoo import render_view

        b = self.batch
        return tuple(
            render_view(seat_view(g, int(b.seats[i]), full=False), list(b.pending[i]))
            for i, g in enumerate(b.games)
        )
