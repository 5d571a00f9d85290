"""Stable-Baselines3 builds and trains on the Gymnasium environments with its own defaults."""

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

import buraco.rl.gymnasium  # noqa: F401 - registers the environments
from buraco.rl.encoding import N_ACTIONS, OBS_SIZE
from buraco.rl.pettingzoo import IMAGE_ROWS

FAST = {"players": 2, "opponents": "random"}


def play_until_every_env_ends_a_hand(vec: VecEnv, seed: int) -> list[dict[str, Any]]:
    """Random legal actions until each env has finished one hand; their last infos."""
    rng = np.random.default_rng(seed)
    ended: dict[int, dict[str, Any]] = {}
    for _ in range(5000):
        masks = get_action_masks(vec)
        assert masks.shape == (vec.num_envs, N_ACTIONS) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, dones, infos = vec.step(actions)
        assert isinstance(obs, np.ndarray) and obs.shape == (vec.num_envs, OBS_SIZE)
        for i, done in enumerate(dones):
            if done and i not in ended:
                ended[i] = infos[i]
        if len(ended) == vec.num_envs:
            return [ended[i] for i in range(vec.num_envs)]
    pytest.fail("a hand did not end in 5000 steps")


def test_make_vec_env_with_its_defaults() -> None:
    vec = make_vec_env("buraco/Aberto-v0", n_envs=2, seed=1, env_kwargs=FAST)
    assert isinstance(vec, DummyVecEnv)
    assert vec.render_mode == "rgb_array"  # what make_vec_env asks of an env id
    obs = vec.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (2, OBS_SIZE)
    image = vec.render()
    assert image is not None and image.dtype == np.uint8 and image.ndim == 3
    for frame in vec.get_images():
        assert frame is not None and frame.shape == (len(IMAGE_ROWS) * 8, 53 * 8, 3)
    infos = play_until_every_env_ends_a_hand(vec, seed=1)
    for info in infos:  # the Monitor wrapper make_vec_env adds saw whole hands
        assert info["episode"]["l"] > 5 and "terminal_observation" in info
    vec.close()


def test_make_vec_env_in_subprocesses() -> None:
    # "module:id" makes each worker import the module that registers the ids, wherever
    # the parent runs (here pytest, whose main module the workers do not load)
    vec = make_vec_env(
        "buraco.rl.gymnasium:buraco/Aberto-v0",
        n_envs=2,
        seed=2,
        env_kwargs=FAST,
        vec_env_cls=SubprocVecEnv,
    )
    try:
        assert vec.render_mode == "rgb_array"
        obs = vec.reset()
        assert isinstance(obs, np.ndarray) and obs.shape == (2, OBS_SIZE)
        infos = play_until_every_env_ends_a_hand(vec, seed=2)
        assert all(info["episode"]["l"] > 5 for info in infos)
        assert all(f is not None and f.dtype == np.uint8 for f in vec.get_images())
    finally:
        vec.close()


SCRIPT = """
import numpy as np
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv

import buraco.rl.gymnasium  # registers the environments

if __name__ == "__main__":
    vec = make_vec_env("buraco/Fechado-v0", n_envs=2, seed=0, vec_env_cls=SubprocVecEnv,
                       env_kwargs={"players": 2, "opponents": "random"})
    obs = vec.reset()
    masks = np.stack(vec.env_method("action_masks"))
    obs, rewards, dones, infos = vec.step([int(np.flatnonzero(m)[0]) for m in masks])
    print(vec.render_mode, obs.shape, vec.get_images()[0].dtype)
    vec.close()
"""


def test_make_vec_env_in_subprocesses_from_a_script(tmp_path: Path) -> None:
    # a script that imports buraco.rl.gymnasium: the workers load it as their main module
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["rgb_array", "(2,", f"{OBS_SIZE})", "uint8"]


def test_maskable_ppo_trains_on_make_vec_env() -> None:
    vec = make_vec_env("buraco/Aberto-v0", n_envs=2, seed=3, env_kwargs=FAST)
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=16,
        batch_size=16,
        n_epochs=1,
        policy_kwargs={"net_arch": [16]},
        seed=3,
        device="cpu",
    )
    model.learn(total_timesteps=32)
    assert model.num_timesteps == 32
    obs = vec.reset()
    assert isinstance(obs, np.ndarray)
    masks = get_action_masks(vec)
    actions, _ = model.predict(obs, action_masks=masks)
    assert all(masks[i, a] for i, a in enumerate(actions))
    vec.close()
