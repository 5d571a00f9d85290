"""The index encoder behind every research wrapper gives the single-game encoding."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from buraco.game import Game
from buraco.rl.encoding import OBS_SIZE, ObservationEncoder
from buraco.rl.gymnasium import BuracoEnv
from buraco.rl.index_encoding import IndexEncoder
from buraco.rl.pettingzoo import raw_env
from buraco.rules import PRESETS, make_rules
from buraco.views import seat_view

CASES = [(preset, n) for preset, spec in PRESETS.items() for n in spec.players]


def reference(g: Game, seat: int, pending: tuple[int, ...] = ()) -> npt.NDArray[np.float32]:
    """The encoding of a seat's full view by a fresh ObservationEncoder (no memory)."""
    return ObservationEncoder().encode(seat_view(g, seat, full=True), pending)


def test_dense_writes_into_the_given_array_and_clears_it() -> None:
    """``dense(out=...)`` fills the caller's vector, leaving nothing of what was there."""
    g = Game(make_rules("aberto", players=4), seed=3)
    out = np.full(OBS_SIZE, 7.0, dtype=np.float32)
    got = IndexEncoder().dense(g, 2, (), out=out)
    assert got is out
    assert np.array_equal(out, reference(g, 2))


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_pettingzoo_observes_every_agent_as_the_encoder(preset: str, players: int) -> None:
    """Every agent's observation, at every step of a hand, the one to move or not."""
    env = raw_env(preset=preset, players=players)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    for _ in range(120):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        g = env.game
        assert g is not None
        for other in env.agents:
            seat = env.possible_agents.index(other)
            pending = tuple(env.entry.pending) if other == agent else ()
            obs = env.observe(other)["observation"]
            assert np.array_equal(obs, reference(g, seat, pending)), (preset, other)
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_gymnasium_observes_as_the_encoder_through_resets() -> None:
    """The agent's observation after bots' turns and across new hands (the encoder restarts)."""
    env = BuracoEnv(preset="us", players=4, opponents="greedy")
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    hands = 0
    while hands < 2:
        g = env.game
        assert g is not None
        assert np.array_equal(obs, reference(g, env.seat, tuple(env.entry.pending)))
        obs, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        if terminated or truncated:
            hands += 1
            obs, info = env.reset()


def test_openspiel_tensors_follow_states_that_take_turns() -> None:
    """One observer asked about a state and its clone in turn: each gets its own tensor."""
    pyspiel = pytest.importorskip("pyspiel")
    import buraco.rl.openspiel  # noqa: F401  (registers python_buraco)

    game = pyspiel.load_game("python_buraco(preset=aberto,players=4)")
    rng = np.random.default_rng(8)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    other = state.clone()
    for step in range(80):
        for s in (state, other):
            if s.is_terminal():
                continue
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            for player in range(4):
                tensor = np.asarray(s.information_state_tensor(player), dtype=np.float32)
                pending = tuple(s.pending_for(player))
                assert np.array_equal(tensor, reference(s.game, player, pending)), step
            s.apply_action(int(rng.choice(s.legal_actions())))
