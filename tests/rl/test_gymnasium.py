"""The single-agent Gymnasium environments pass Gymnasium's checker and play whole hands."""

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from buraco.rl.encoding import N_ACTIONS, OBS_SIZE
from buraco.rl.gymnasium import ENV_IDS, BuracoEnv
from buraco.rl.pettingzoo import IMAGE_ROWS, RENDER_MODES, hand_rewards, render_view
from buraco.rules import PRESETS
from buraco.views import seat_view


def test_one_id_per_preset_is_registered() -> None:
    assert set(ENV_IDS.values()) == {
        "buraco/Aberto-v0",
        "buraco/Fechado-v0",
        "buraco/Us-v0",
        "buraco/Netcartas-v0",
        "buraco/Italiano-v0",
    }
    for env_id in ENV_IDS.values():
        assert env_id in gymnasium.registry


@pytest.mark.parametrize(
    ("preset", "players"), [(p, n) for p, spec in PRESETS.items() for n in spec.players]
)
def test_check_env(preset: str, players: int) -> None:
    e = gymnasium.make(ENV_IDS[preset], players=players, opponents="heuristic")
    check_env(e.unwrapped, skip_render_check=False)


def play(e: gymnasium.Env[Any, Any], seed: int) -> tuple[int, float]:
    obs, info = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, total, done = 0, 0.0, False
    while not done:
        assert obs.shape == (OBS_SIZE,)
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (N_ACTIONS,) and mask.any()
        obs, reward, done, truncated, info = e.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated and "illegal_action" not in info
        total += float(reward)
        steps += 1
    return steps, total


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("buraco/Aberto-v0", {"opponents": "greedy"}),
        ("buraco/Us-v0", {"players": 6, "opponents": "random", "seat": 3}),
        ("buraco/Italiano-v0", {"players": 3, "opponents": ["heuristic", "greedy"]}),
        (
            "buraco/Fechado-v0",
            {"players": 2, "opponents": "heuristic", "match": True, "match_hands": 2},
        ),
    ],
)
def test_a_hand_against_bots_ends_with_the_score_difference(
    env_id: str, kwargs: dict[str, Any]
) -> None:
    e = gymnasium.make(env_id, **kwargs)
    steps, total = play(e, seed=7)
    env = e.unwrapped
    assert isinstance(env, BuracoEnv) and env.game is not None
    assert steps > 5
    side = env.game.side_of[env.seat]
    expected = 0.0
    for result in env.game.results:  # one hand, or each hand of a match
        scores = [s.total for s in result.scores]
        expected += (scores[side] - max(t for i, t in enumerate(scores) if i != side)) / 1000
    assert total == pytest.approx(expected)
    assert len(env.game.results) == (2 if env.match else 1)
    assert expected != 0 or hand_rewards(env.game)[env.seat] == 0
    assert not env.action_masks().any()
    assert play(gymnasium.make(env_id, **kwargs), seed=7) == (steps, total)


@pytest.mark.parametrize("preset", ["aberto", "us"])
def test_the_mask_can_be_in_the_observation(preset: str) -> None:
    e = gymnasium.make(ENV_IDS[preset], opponents="random", mask_in_observation=True)
    check_env(e.unwrapped)
    obs, info = e.reset(seed=3)
    rng = np.random.default_rng(3)
    done = False
    while not done:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert obs["observation"].shape == (OBS_SIZE,)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, done, _, info = e.step(action)
    assert not obs["action_mask"].any()


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    e = gymnasium.make("buraco/Netcartas-v0", players=2, opponents="random", illegal_reward=-2)
    _, info = e.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = e.step(bad)
    assert reward == -2 and terminated and info["illegal_action"]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        BuracoEnv("aberto", players=4, opponents=["random"])
    with pytest.raises(ValueError):
        BuracoEnv("aberto", players=2, seat=2)
    with pytest.raises(Exception, match="unknown bot"):
        BuracoEnv("aberto", opponents="nobody")


def test_an_id_with_the_module_imports_it() -> None:
    e = gymnasium.make("buraco.rl.gymnasium:buraco/Us-v0", players=2, opponents="random")
    obs, _ = e.reset(seed=1)
    assert obs.shape == (OBS_SIZE,)


def test_render_ansi() -> None:
    e = gymnasium.make("buraco/Aberto-v0", players=2, opponents="random", render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "hand:" in text


@pytest.mark.parametrize("mode", RENDER_MODES)
def test_every_render_mode(mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    e = gymnasium.make("buraco/Fechado-v0", players=2, opponents="random", render_mode=mode)
    env = e.unwrapped
    assert isinstance(env, BuracoEnv) and env.render_mode == mode
    check_env(env, skip_render_check=False)
    capsys.readouterr()  # the checker tries every mode, "human" included
    _, info = e.reset(seed=4)
    e.step(int(np.flatnonzero(info["action_mask"])[0]))
    out = e.render()
    printed = capsys.readouterr().out
    assert env.game is not None
    hand = [c for c, k in enumerate(seat_view(env.game, env.seat).counts) if k]
    if mode == "ansi":
        assert isinstance(out, str) and "hand:" in out and printed == ""
    elif mode == "human":  # printed at reset, at every step and by render()
        assert out is None and printed.count("hand:") >= 3
        assert printed.split("\n\n")[-2] == render_view(seat_view(env.game, env.seat, False))
    else:
        assert isinstance(out, np.ndarray) and out.dtype == np.uint8 and printed == ""
        assert out.shape == (len(IMAGE_ROWS) * 8, 53 * 8, 3)
        row = out[:7].reshape(7, 53, 8, 3)[:, :, :7]  # the agent's hand
        assert [c for c in range(53) if row[:, c].max() > 40] == hand


def test_a_bad_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode is None or one of"):
        BuracoEnv("aberto", players=2, render_mode="rgb")
