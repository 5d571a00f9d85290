"""Single-agent Gymnasium environments: one seat learns, bots play the other seats.

Importing this module registers one environment id per preset::

    buraco/Aberto-v0  buraco/Fechado-v0  buraco/Us-v0  buraco/Netcartas-v0  buraco/Italiano-v0

(``gymnasium.make("buraco.rl.gymnasium:buraco/Aberto-v0")`` imports it on the way.) It also
registers ``buraco/<Preset>Factored-v0``, the same environments with the factored actions
of :mod:`buraco.rl.factored` (:data:`FACTORED_IDS`).

``gymnasium.make("buraco/Aberto-v0", opponents="heuristic", players=4, seat=0, **options)``:
``opponents`` is a bot spec (:func:`buraco.bots.make_bot`) for every other seat, or a list
of specs, one per other seat in seat order (the agent's partners included); any other
keyword is a rule option. Needs the ``rl`` extra.

- Observation: the ``float32`` vector of :class:`buraco.rl.encoding.ObservationEncoder` (the
  agent's seat's view only); the action space ``Discrete(N_ACTIONS)`` of
  :mod:`buraco.rl.encoding`.
- Action mask: ``info["action_mask"]`` (``int8``) after ``reset`` and every ``step``, and
  the method :meth:`BuracoEnv.action_masks` (a boolean array, as ``sb3-contrib``'s
  ``MaskablePPO`` asks for). With ``mask_in_observation=True`` the observation is a dict of
  ``"observation"`` and ``"action_mask"`` instead, as PettingZoo's (for libraries such as
  RLlib that read the mask from the observation).
- An illegal action ends the episode (``terminated``) with reward ``illegal_reward`` (-1)
  and ``info["illegal_action"] = True``; the game is left untouched.
- Episode: one hand (``match=True``: a match). Reward at the end of a hand: the agent's
  side's hand score minus the best other side's, / ``reward_scale`` (1000).
- ``reset(seed=...)`` fixes the deal and the bots' seeds.
- Rendering, of the table as the agent sees it: ``render_mode="ansi"`` (text),
  ``"human"`` (that text printed after every ``reset`` and ``step``) or ``"rgb_array"``
  (a picture of the card counts, :func:`buraco.rl.pettingzoo.render_image`). The last is
  what ``stable_baselines3``'s ``make_vec_env`` asks for by default.

>>> import gymnasium, buraco.rl.gymnasium
>>> e = gymnasium.make("buraco/Aberto-v0", opponents="random", players=2)
>>> obs, info = e.reset(seed=3)
>>> obs.shape, info["action_mask"].dtype
((9316,), dtype('int8'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from buraco.bots import make_bot
from buraco.bots.base import Bot
from buraco.game import Game
from buraco.rl.encoding import N_ACTIONS, OBS_SIZE, MeldEntry, check_reward_scale, check_rules
from buraco.rl.index_encoding import IndexEncoder
from buraco.rl.pettingzoo import (
    OBS_BOUND,
    RENDER_MODES,
    check_render_mode,
    hand_rewards,
    render_table,
)
from buraco.rules import PRESETS, make_rules
from buraco.views import seat_view

__all__ = ["ENV_IDS", "FACTORED_IDS", "BuracoEnv", "opponent_specs", "register_envs"]

ENV_IDS = {preset: f"buraco/{preset.capitalize()}-v0" for preset in PRESETS}
"""The registered id of each preset's environment."""

FACTORED_IDS = {preset: f"buraco/{preset.capitalize()}Factored-v0" for preset in PRESETS}
"""The registered id of each preset's environment with factored actions
(:class:`buraco.rl.factored.FactoredEnv`)."""

_SEED_BOUND = 2**62


def opponent_specs(opponents: object, players: int) -> list[str]:
    """One bot spec per seat but the agent's: ``opponents`` is one spec, or one per seat.

    A bad spec is refused now (:class:`~buraco.errors.BotError`), not at the deal; the
    wrong number or kind of specs with ``ValueError`` saying what is wanted.
    """
    others = players - 1
    if isinstance(opponents, str):
        specs = [opponents] * others
    elif isinstance(opponents, list | tuple) and all(isinstance(x, str) for x in opponents):
        specs = list(opponents)
    else:
        specs = []
    if len(specs) != others:
        raise ValueError(
            f"opponents is a bot spec, or a list of {others} bot specs (one per other "
            f"seat), not {str(opponents)[:80]!r}"
        )
    for spec in specs:
        make_bot(spec)
    return specs


class BuracoEnv(gymnasium.Env[Any, np.int64]):
    """One seat against bots (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012 - Gymnasium

    def __init__(
        self,
        preset: str = "aberto",
        players: int = 4,
        opponents: str | Sequence[str] = "heuristic",
        seat: int = 0,
        render_mode: str | None = None,
        match: bool = False,
        reward_scale: float = 1000.0,
        illegal_reward: float = -1.0,
        mask_in_observation: bool = False,
        **options: Any,
    ) -> None:
        self.rules = make_rules(preset, players=players, **options)
        check_rules(self.rules)
        n = self.rules.players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat is a number from 0 to {n - 1}, not {seat!r}")
        self.seat = seat
        self.specs = opponent_specs(opponents, n)
        self.render_mode = check_render_mode(render_mode)
        self.match = match
        self.reward_scale = check_reward_scale(reward_scale)
        self.illegal_reward = float(illegal_reward)
        self.mask_in_observation = mask_in_observation
        box = spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_SIZE,), np.float32)
        self.observation_space: spaces.Space[Any] = box
        if mask_in_observation:
            self.observation_space = spaces.Dict(
                {"observation": box, "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8)}
            )
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.encoder = IndexEncoder()
        self.entry = MeldEntry()
        self.game: Game | None = None
        self.bots: dict[int, Bot] = {}

    # ----- helpers -----------------------------------------------------------------------
    def _game(self) -> Game:
        assert self.game is not None, "call reset() first"
        return self.game

    def _obs(self) -> Any:
        g = self._game()
        pending = self.entry.pending if g.turn == self.seat else ()
        obs = self.encoder.dense(g, self.seat, pending)
        if self.mask_in_observation:
            return {"observation": obs, "action_mask": self.action_masks(np.int8)}
        return obs

    def action_masks(self, dtype: Any = np.bool_) -> np.ndarray[Any, Any]:
        """The legal action indexes now, as booleans (all false once the hand is over)."""
        g = self._game()
        if g.is_hand_over() or g.turn != self.seat:
            return np.zeros(N_ACTIONS, dtype=dtype)
        return self.entry.mask(g.legal_actions(), dtype)

    def _info(self, **more: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(np.int8), **more}

    def _run_bots(self) -> float:
        """Bots play until the agent is to move or the episode ends; the agent's reward."""
        g = self._game()
        reward = 0.0
        while True:
            if g.is_hand_over():
                reward += hand_rewards(g, self.reward_scale)[self.seat]
                if self.match and not g.is_over():
                    g.next_hand()
                    for b in self.bots.values():
                        b.new_hand()
                    continue
                return reward
            turn = g.turn
            assert turn is not None
            if turn == self.seat:
                return reward
            bot = self.bots[turn]
            view = seat_view(g, turn, full=bot.wants_full_view)
            g.apply(bot.choose(view, view.legal))

    # ----- API ---------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a new hand and let the bots play up to the agent's first turn.

        ``options={"opponents": spec}`` (one bot spec, or one per other seat) seats other
        bots from this hand on, as a league of opponents drawn hand by hand asks.
        """
        if options and "opponents" in options:  # checked before anything changes
            self.specs = opponent_specs(options["opponents"], self.rules.players)
        super().reset(seed=seed)
        while True:
            game_seed = int(self.np_random.integers(0, _SEED_BOUND))
            self.game = Game(self.rules, seed=game_seed, match=self.match)
            others = [s for s in range(self.rules.players) if s != self.seat]
            self.bots = {
                s: make_bot(spec, seed=int(self.np_random.integers(0, _SEED_BOUND)))
                for s, spec in zip(others, self.specs, strict=True)
            }
            for b in self.bots.values():
                b.new_hand()
            self.entry.reset()
            self._run_bots()
            if not self.game.is_hand_over():  # the hand (rarely) ended before the agent's turn
                if self.render_mode == "human":
                    self.render()
                return self._obs(), self._info()

    def step(self, action: int | np.integer[Any]) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent takes one action index; bots answer until its next decision."""
        g = self._game()
        if g.is_hand_over():
            raise RuntimeError("the episode is over: call reset()")
        legal = g.legal_actions()
        try:
            act = self.entry.step(int(action), legal)
        except ValueError:
            return self._obs(), self.illegal_reward, True, False, self._info(illegal_action=True)
        reward = 0.0
        if act is not None:
            g.apply(act)
            reward = self._run_bots()
        done = g.is_hand_over()
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, done, False, self._info()

    def render(self) -> str | np.ndarray[Any, Any] | None:
        """The table as the agent sees it, in ``render_mode`` (see the module docstring)."""
        if self.game is None:
            return render_table(None, (), self.render_mode)
        view = seat_view(self.game, self.seat, full=False)
        return render_table(view, self.entry.pending, self.render_mode)


def register_envs() -> None:
    """Register ``buraco/<Preset>-v0`` and ``buraco/<Preset>Factored-v0`` (done on import)."""
    for preset, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="buraco.rl.gymnasium:BuracoEnv",
                kwargs={"preset": preset},
            )
    for preset, env_id in FACTORED_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="buraco.rl.factored:FactoredEnv",
                kwargs={"preset": preset},
            )


register_envs()
