"""A PettingZoo AEC environment of Buraco, following the classic card games' conventions.

``env(preset="aberto", players=4, **options)`` is the wrapped environment (illegal actions
end the game with a penalty, as in PettingZoo's classic environments), ``raw_env`` the bare
one. Agents are ``player_0`` ... ``player_{n-1}`` (the engine's seats). Needs the ``rl``
extra (``pip install 'buraco[rl]'``).

- Observation: a dict with ``"observation"`` (``float32``, :data:`buraco.rl.encoding.OBS_SIZE`
  numbers from the seat's own view only, see :class:`buraco.rl.encoding.ObservationEncoder`)
  and ``"action_mask"`` (``int8``, :data:`buraco.rl.encoding.N_ACTIONS`; all zero for a seat
  not to move).
- Actions: ``Discrete(N_ACTIONS)`` (see :mod:`buraco.rl.encoding`); a new meld is entered card
  by card then committed, each token one ``step`` of the same agent.
- Episode: one hand (``match=True``: a whole match, a reward at the end of every hand).
- Reward, at the end of a hand, to each seat: its side's hand score minus the best hand score
  of the other sides, divided by ``reward_scale`` (1000); zero on every other step.
- ``reset(seed=...)`` makes the deal (and everything after it) deterministic.
- Rendering, always of the table as the player to move sees it: ``render_mode="ansi"``,
  :meth:`raw_env.render` returns it as text (:func:`render_view`); ``"human"`` prints that
  text after every ``reset`` and ``step`` (and on ``render()``, which returns None);
  ``"rgb_array"`` returns a picture of the card counts (:func:`render_image`).

>>> e = env("fechado", players=2)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((9316,), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from buraco.cards import N_CODES
from buraco.game import MAX_SEED, Game
from buraco.rl.encoding import (
    MAX_SIDES,
    N_ACTIONS,
    OBS_SIZE,
    MeldEntry,
    check_reward_scale,
    check_rules,
    hand_rewards,
)
from buraco.rl.index_encoding import IndexEncoder
from buraco.rules import make_rules
from buraco.views import SeatView, seat_view

__all__ = [
    "IMAGE_ROWS",
    "OBS_BOUND",
    "RENDER_MODES",
    "check_render_mode",
    "env",
    "hand_rewards",
    "raw_env",
    "render_image",
    "render_table",
    "render_view",
]

OBS_BOUND = 1e4
"""Bound of the observation box (match totals / 1000 stay within it)."""

RENDER_MODES = ("ansi", "human", "rgb_array")
"""The render modes of the PettingZoo and Gymnasium environments (or None: no rendering)."""


def env(preset: str = "aberto", players: int = 4, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (illegal action: -1 and the end)."""
    e: AECEnv = raw_env(preset, players, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc]
    """Buraco as a PettingZoo AEC environment (see the module docstring).

    ``options`` are rule options (:func:`buraco.make_rules`); ``match`` plays a whole match
    instead of one hand; ``reward_scale`` divides the hand-score difference.
    """

    metadata = {  # noqa: RUF012 - PettingZoo's convention
        "render_modes": list(RENDER_MODES),
        "name": "buraco_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        preset: str = "aberto",
        players: int = 4,
        render_mode: str | None = None,
        match: bool = False,
        reward_scale: float = 1000.0,
        **options: Any,
    ) -> None:
        super().__init__()
        self.rules = make_rules(preset, players=players, **options)
        check_rules(self.rules)
        self.render_mode = check_render_mode(render_mode)
        self.match = match
        self.reward_scale = check_reward_scale(reward_scale)
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = list(self.possible_agents)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self.encoder = IndexEncoder()
        self.entry = MeldEntry()
        self._rng = np.random.default_rng()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of every agent (a Dict of observation and mask)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(N_ACTIONS)`` for every agent."""
        return self.action_spaces[agent]

    # ----- episode -----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; with ``seed`` the deal and the whole episode are deterministic."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, min(MAX_SEED, 2**63 - 1)))
        self.game = Game(self.rules, seed=game_seed, match=self.match)
        self.entry.reset()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        g = self.game
        assert g is not None
        if g.turn is not None and not g.is_hand_over():
            self.agent_selection = self.possible_agents[g.turn]

    def view(self, agent: str) -> SeatView:
        """The full view of an agent's seat."""
        assert self.game is not None, "call reset() first"
        return seat_view(self.game, self._index[agent], full=True)

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The agent's observation: its view encoded, and its action mask."""
        g = self.game
        assert g is not None, "call reset() first"
        seat = self._index[agent]
        mine = seat == g.turn and not g.is_hand_over() and agent == self.agent_selection
        pending = self.entry.pending if mine else ()
        obs = self.encoder.dense(g, seat, pending)
        if mine:
            mask = self.entry.mask(g.legal_actions(), np.int8)
        else:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent takes one action index (a meld card, or a whole action)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        assert g is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        act = self.entry.step(int(action), g.legal_actions())
        if act is not None:
            g.apply(act)
            if g.is_hand_over():
                for seat, r in enumerate(hand_rewards(g, self.reward_scale)):
                    self.rewards[self.possible_agents[seat]] = r
                if self.match and not g.is_over():
                    g.next_hand()
                else:
                    self.terminations = dict.fromkeys(self.agents, True)
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray[Any, Any] | None:
        """The table as the player to move sees it, in ``render_mode`` (:func:`render_table`)."""
        g = self.game
        if g is None:
            return render_table(None, (), self.render_mode)
        seat = g.turn if g.turn is not None else 0
        return render_table(seat_view(g, seat, full=False), self.entry.pending, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def render_view(view: SeatView, pending: list[int] | tuple[int, ...] = ()) -> str:
    """A seat's view as a few lines of text."""
    from buraco.cards import format_cards

    lines = [
        f"{view.preset}, hand {view.hand_number + 1}, seat {view.seat} to see, "
        f"turn {view.turn}, phase {view.phase}",
        f"hand: {format_cards(view.hand)}"
        + (f" (+{view.hidden_pot} unseen)" if view.hidden_pot else ""),
        f"pile ({view.pile_size}): {format_cards(view.pile)}   stock {view.stock}   "
        f"mortos {list(view.pots)}",
        f"hand sizes: {list(view.hand_sizes)}   totals: {list(view.totals)}",
    ]
    for side, melds in enumerate(view.melds):
        for mv in melds:
            lines.append(f"side {side} meld {mv.number}: {format_cards(mv.cards)}")
    if pending:
        lines.append(f"meld being entered: {format_cards(pending)}")
    return "\n".join(lines)


def check_render_mode(mode: str | None) -> str | None:
    """``mode`` if it is None or one of :data:`RENDER_MODES`; otherwise a ``ValueError``."""
    if mode is not None and mode not in RENDER_MODES:
        allowed = ", ".join(repr(m) for m in RENDER_MODES)
        raise ValueError(f"render_mode is None or one of {allowed}, not {mode!r}")
    return mode


IMAGE_ROWS = ("hand", "meld being entered", "pile", *(f"side {i} melds" for i in range(MAX_SIDES)))
"""The rows of :func:`render_image`, top to bottom."""

_CELL = 8
"""Pixels of a cell's side in :func:`render_image` (one pixel of it is the grid)."""

_BACKGROUND = np.array([40, 40, 40], np.float64)
_SUIT_COLOURS = np.array(  # a four-colour pack on a dark table, and the joker
    [[40, 200, 40], [40, 130, 255], [235, 40, 40], [235, 235, 235], [240, 200, 0]], np.float64
)
_CODE_COLOURS = np.vstack([np.repeat(_SUIT_COLOURS[:4], 13, axis=0), _SUIT_COLOURS[4:]])
"""The colour of every card code (53 × 3)."""


def render_image(
    view: SeatView | None, pending: list[int] | tuple[int, ...] = ()
) -> np.ndarray[Any, Any]:
    """A seat's view as a picture: the card counts of its hand, prefix, pile and melds.

    One row of cells per zone (:data:`IMAGE_ROWS`: the seat's hand, the meld prefix it is
    entering, the discard pile as the seat sees it, then each side's melds), one column per
    card code (clubs, diamonds, hearts and spades ace to king, then the joker). A cell is
    dark when the zone holds no copy of the card, else the suit's colour (clubs green,
    diamonds blue, hearts red, spades white, joker yellow), the brighter the more copies
    (full at four). ``uint8``, ``(len(IMAGE_ROWS) * 8, 53 * 8, 3)`` in every preset; a
    table before the deal (``view`` None) is all dark.
    """
    counts = np.zeros((len(IMAGE_ROWS), N_CODES), np.int64)
    if view is not None:
        counts[0] = view.counts
        for c in pending:
            counts[1, c] += 1
        for c in view.pile:
            counts[2, c] += 1
        for side, melds in enumerate(view.melds):
            for mv in melds:
                for c in mv.cards:
                    counts[3 + side, c] += 1
    shade = np.where(counts > 0, 0.4 + 0.6 * (np.minimum(counts, 4) - 1) / 3, 0.0)[..., None]
    cells = _BACKGROUND + shade * (_CODE_COLOURS[None] - _BACKGROUND)  # (rows, 53, 3)
    image = np.repeat(np.repeat(cells, _CELL, axis=0), _CELL, axis=1)
    image[_CELL - 1 :: _CELL] = 0  # the grid
    image[:, _CELL - 1 :: _CELL] = 0
    return np.ascontiguousarray(image.round().astype(np.uint8))


def render_table(
    view: SeatView | None, pending: list[int] | tuple[int, ...], mode: str | None
) -> str | np.ndarray[Any, Any] | None:
    """A view rendered in a mode: text (``ansi``), printed (``human``) or a picture.

    ``ansi`` returns :func:`render_view`'s text, ``human`` prints it and returns None,
    ``rgb_array`` returns :func:`render_image`; None returns None. ``view`` None is a table
    before the deal.
    """
    if mode is None:
        return None
    if mode == "rgb_array":
        return render_image(view, pending)
    text = "(no hand dealt)" if view is None else render_view(view, pending)
    if mode == "human":
        print(text, end="\n\n")
        return None
    return text
