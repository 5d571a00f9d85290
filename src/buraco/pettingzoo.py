"""A PettingZoo AEC environment of Buraco, following the classic card games' conventions.

``env(preset="aberto", players=4, **options)`` is the wrapped environment (illegal actions
end the game with a penalty, as in PettingZoo's classic environments), ``raw_env`` the bare
one. Agents are ``player_0`` ... ``player_{n-1}`` (the engine's seats). Needs the ``rl``
extra (``pip install 'buraco[rl]'``).

- Observation: a dict with ``"observation"`` (``float32``, :data:`buraco.encoding.OBS_SIZE`
  numbers from the seat's own view only, see :class:`buraco.encoding.ObservationEncoder`)
  and ``"action_mask"`` (``int8``, :data:`buraco.encoding.N_ACTIONS`; all zero for a seat
  not to move).
- Actions: ``Discrete(N_ACTIONS)`` (see :mod:`buraco.encoding`); a new meld is entered card
  by card then committed, each token one ``step`` of the same agent.
- Episode: one hand (``match=True``: a whole match, a reward at the end of every hand).
- Reward, at the end of a hand, to each seat: its side's hand score minus the best hand score
  of the other sides, divided by ``reward_scale`` (1000); zero on every other step.
- ``reset(seed=...)`` makes the deal (and everything after it) deterministic.
- ``render_mode="ansi"``: :meth:`raw_env.render` returns the table as the player to move
  sees it.

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

from buraco.encoding import (
    N_ACTIONS,
    OBS_SIZE,
    MeldEntry,
    ObservationEncoder,
    check_rules,
    hand_rewards,
)
from buraco.game import MAX_SEED, Game
from buraco.rules import make_rules
from buraco.views import SeatView, seat_view

__all__ = ["OBS_BOUND", "env", "hand_rewards", "raw_env", "render_view"]

OBS_BOUND = 1e4
"""Bound of the observation box (match totals / 1000 stay within it)."""


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
        "render_modes": ["ansi"],
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
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.match = match
        self.reward_scale = float(reward_scale)
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
        self.encoder = ObservationEncoder()
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
        obs = self.encoder.encode(seat_view(g, seat, full=True), pending)
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

    def render(self) -> str | None:
        """The table as the player to move sees it (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        g = self.game
        if g is None:
            return "(no hand dealt)"
        seat = g.turn if g.turn is not None else 0
        return render_view(seat_view(g, seat, full=False), self.entry.pending)

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
