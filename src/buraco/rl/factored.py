"""The factored action environment: one seat against bots, each action entered as tokens.

The tokens are those of :mod:`buraco.rl.tokens` (``Discrete(243)``: an action's kind and
card first, then the meld, then the placement), re-exported here.

:class:`FactoredEnv` is the Gymnasium environment of :mod:`buraco.rl.gymnasium` with these
actions (``Discrete(243)``, mask ``action_masks()``) and, by default, a compact observation
(:data:`COMPACT_LAYOUT`, :data:`COMPACT_SIZE` numbers), both small enough for
``sb3-contrib``'s ``MaskablePPO`` with its default ``MlpPolicy``. Its ids are
``buraco/<Preset>Factored-v0``, registered by :mod:`buraco.rl.gymnasium`. Needs the ``rl`` extra.

>>> from buraco.actions import parse_action
>>> action_tokens(parse_action("add 2 6H wild-high"))
(141, 165, 242)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from buraco.actions import (
    Action,
)
from buraco.bots.base import Bot
from buraco.bots.play import play_hand
from buraco.game import Game
from buraco.rl.encoding import (
    OBS_SIZE,
    hand_rewards,
)
from buraco.rl.gymnasium import BuracoEnv
from buraco.rl.index_encoding import IndexEncoder
from buraco.rl.pettingzoo import OBS_BOUND
from buraco.rl.tokens import (
    ADD,
    COMPACT_LAYOUT,
    COMPACT_SIZE,
    DISCARD,
    DRAW,
    ENTRY_LAYOUT,
    ENTRY_SIZE,
    MELD,
    MELD_END,
    MELD_INDEX,
    MOVE,
    N_TOKENS,
    OBSERVATIONS,
    OWN_MELD_SLOTS,
    PLACE,
    TAKE_PILE,
    TURN_UP,
    TokenEntry,
    action_tokens,
    compact_observation,
    entry_block,
    first_token,
    known_groups,
    token_name,
    tokens_action,
)

__all__ = [
    "ADD",
    "COMPACT_LAYOUT",
    "COMPACT_SIZE",
    "DISCARD",
    "DRAW",
    "ENTRY_LAYOUT",
    "ENTRY_SIZE",
    "MELD",
    "MELD_END",
    "MELD_INDEX",
    "MOVE",
    "N_TOKENS",
    "OBSERVATIONS",
    "OWN_MELD_SLOTS",
    "PLACE",
    "TAKE_PILE",
    "TURN_UP",
    "Demonstration",
    "FactoredEnv",
    "TokenEntry",
    "action_tokens",
    "compact_observation",
    "demonstrate",
    "first_token",
    "known_groups",
    "token_choices",
    "token_name",
    "tokens_action",
]


class FactoredEnv(BuracoEnv):
    """One seat against bots with the factored actions (see the module docstring).

    The keywords of :class:`buraco.rl.gymnasium.BuracoEnv` (``players``, ``opponents``,
    ``seat``, ``match``, ``reward_scale``, ``illegal_reward``, ``mask_in_observation``,
    ``render_mode`` and rule options), and ``observation``: ``"compact"`` (the default,
    :data:`COMPACT_SIZE` numbers) or ``"full"`` (the :data:`~buraco.rl.encoding.OBS_SIZE`
    numbers of :class:`~buraco.rl.encoding.ObservationEncoder`, with a new meld's cards in
    its ``pending`` block, then the entry block). A step is one token; the bots play when
    it completes the agent's action. Episodes, rewards, seeding, illegal tokens and
    rendering are as in :class:`~buraco.rl.gymnasium.BuracoEnv`.
    """

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
        observation: str = "compact",
        **options: Any,
    ) -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation is 'compact' or 'full', not {observation!r}")
        super().__init__(
            preset,
            players=players,
            opponents=opponents,
            seat=seat,
            render_mode=render_mode,
            match=match,
            reward_scale=reward_scale,
            illegal_reward=illegal_reward,
            mask_in_observation=mask_in_observation,
            **options,
        )
        self.observation = observation
        self.tokens = TokenEntry()
        self.entry = self.tokens
        size = COMPACT_SIZE if observation == "compact" else OBS_SIZE + ENTRY_SIZE
        box = spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32)
        self.observation_space = box
        if mask_in_observation:
            self.observation_space = spaces.Dict(
                {"observation": box, "action_mask": spaces.Box(0, 1, (N_TOKENS,), np.int8)}
            )
        self.action_space = spaces.Discrete(N_TOKENS)
        n = self.rules.players
        self._groups = known_groups(n, [self.rules.side_of(s) for s in range(n)], seat)

    def _obs(self) -> Any:
        g = self._game()
        prefix = self.tokens.prefix if g.turn == self.seat else ()
        pending = self.tokens.pending if prefix else ()
        full = self.encoder.dense(g, self.seat, pending)
        if self.observation == "full":
            obs = np.zeros(OBS_SIZE + ENTRY_SIZE, dtype=np.float32)
            obs[:OBS_SIZE] = full
            entry_block(obs[OBS_SIZE:], prefix)
        else:
            obs = compact_observation(full, prefix, self._groups)
        if self.mask_in_observation:
            return {"observation": obs, "action_mask": self.action_masks(np.int8)}
        return obs

    def action_masks(self, dtype: Any = np.bool_) -> np.ndarray[Any, Any]:
        """The allowed tokens now, as booleans (all false once the hand is over)."""
        g = self._game()
        if g.is_hand_over() or g.turn != self.seat:
            return np.zeros(N_TOKENS, dtype=dtype)
        return self.tokens.mask(g.legal_actions(), dtype)


# ----------------------------------------------------------------------------------------
# demonstrations: a bot's play as token decisions, for a policy to imitate
# ----------------------------------------------------------------------------------------


class Demonstration(NamedTuple):
    """One token decision of a bot's play, as :class:`FactoredEnv` would have asked it."""

    seat: int
    """The seat that chose."""
    observation: npt.NDArray[np.float32]
    """The seat's compact observation then (:func:`compact_observation`)."""
    allowed: list[int]
    """The tokens allowed (more than one: a decision with one token teaches nothing)."""
    token: int
    """The token of the action the bot chose."""


def token_choices(
    action: Action, legal: Sequence[Action]
) -> Iterator[tuple[TokenEntry, list[int], int]]:
    """The token decisions of entering ``action`` that had an alternative, in order.

    Each is the entry as it stands before the token (its ``prefix`` and ``pending``; the
    same object moves on once the next decision is asked for), the tokens allowed then
    (more than one) and the action's token. A token that is the only one allowed is
    entered without being yielded, as :class:`FactoredEnv` enters it.
    """
    tokens = action_tokens(action)
    entry = TokenEntry()
    done: Action | None = None
    while done is None:
        allowed = entry.allowed(legal)
        token = tokens[len(entry.prefix)]
        if len(allowed) > 1:
            yield entry, allowed, token
        done = entry.step(token, legal)


def demonstrate(game: Game, bots: Sequence[Bot]) -> tuple[list[Demonstration], list[float]]:
    """Play ``game``'s hand to its end with ``bots`` (one per seat); every token decision.

    Each bot chooses from its seat's view; its action is entered token by token, and every
    token that had an alternative is kept with the seat's compact observation at that
    point (what the environment would have shown a learner in that seat). Returns the
    decisions and each seat's reward for the hand (:func:`buraco.rl.encoding.hand_rewards`).
    The hand is played by :func:`buraco.bots.play_hand` (one bot per seat, or
    ``ValueError``), as it would be without the recording.
    """
    n = game.n
    groups = [known_groups(n, game.side_of, s) for s in range(n)]
    encoder = IndexEncoder()
    out: list[Demonstration] = []

    def record(seat: int, legal: Sequence[Action], action: Action) -> None:
        for entry, allowed, token in token_choices(action, legal):
            full = encoder.dense(game, seat, entry.pending)
            observation = compact_observation(full, entry.prefix, groups[seat])
            out.append(Demonstration(seat, observation, allowed, token))

    play_hand(game, bots, on_decision=record)
    return out, hand_rewards(game)
