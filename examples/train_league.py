"""Self-play against a league: MaskablePPO on the factored actions, opponents drawn hand by hand.

Trains ``sb3-contrib``'s ``MaskablePPO`` (an ``MlpPolicy`` of ``--hidden`` layers) on
``buraco/AbertoFactored-v0`` for 4 players (:mod:`buraco.rl.factored`), in two stages.

**Imitation** (``--imitate-hands``, 0 to skip): ``heuristic`` plays that many hands in
every seat (:func:`buraco.rl.factored.demonstrate`) and the policy learns to choose its tokens
(cross-entropy over the allowed tokens), the value head the hand's reward, for
``--imitate-epochs`` passes; 5% of the hands are held out to report the accuracy. The
hands are dealt from ``--imitate-seed`` (the same for every training seed unless told),
and ``--demonstrations FILE`` keeps them for the next run.

**Self-play in a league.** The learner sits at seat 0; for every hand its partner and its
two opponents are drawn from the **league**:

- past versions of itself: a snapshot of the policy is saved every ``--snapshot-every``
  steps (the first before any training) and played by the ``learned`` bot, sampling its
  tokens as it did while it learned (the latest, as a partner, taking its likeliest);
- the shipped bots ``greedy`` and ``heuristic``;
- the exploit bots of ``docs/bots.md`` (``hoarder``, ``stocker``, ``holder``, ``rusher``,
  ``wildhoarder``, ``starver``, ``feeder``), each on ``greedy``.

The partner is the latest snapshot half the time (self-play) and any member of the league
otherwise; both opponents are the same member, drawn at random (a snapshot, uniformly among
them, a third of the time). ``random`` is left out: beating it teaches nothing the league
does not.

Every ``--eval-every`` steps (and at the start and the end) the policy, greedy, plays
``--eval-hands`` hands with its latest snapshot (greedy) as partner against ``heuristic``, the same
deals each time: a row of the curve (steps, CPU seconds of training, win rate, mean reward).
At the end the policy is written as a ``learned`` model (``--out``), with the curve
(``--csv``; its CPU seconds count the self-play training, neither the imitation, printed
apart, nor the evaluations).

Usage: ``python examples/train_league.py --seed 0 --out model.npz [--csv curve.csv]
[--demonstrations demo.npz] [--snapshots DIR]``; the defaults are the settings of
``docs/research.md`` (4,000 imitated hands, 500,000 steps). Needs the ``sb3`` extra. One
thread; the run is reproducible for a seed on one machine (PyTorch's CPU kernels may differ
elsewhere).
"""

from __future__ import annotations

import argparse
import csv
import random
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as missing:  # say which extra, not a traceback
    raise SystemExit(
        f"this example needs {missing.name or missing}: pip install -e '.[sb3]'"
    ) from None

from buraco.bots import make_bot
from buraco.bots.learned import save_model, sb3_layers
from buraco.game import Game
from buraco.rl.factored import COMPACT_SIZE, N_TOKENS, FactoredEnv, demonstrate

BOTS = ["greedy", "heuristic"]
EXPLOITS = ["hoarder", "stocker", "holder", "rusher", "wildhoarder", "starver", "feeder"]
EVAL_SEED = 2_000_000
"""Evaluation hand ``i`` is dealt by ``reset(seed=EVAL_SEED + i)``."""


class League:
    """The members opponents are drawn from: bots, exploits and the learner's snapshots."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.fixed = BOTS + EXPLOITS
        self.snapshots: list[str] = []

    def draw(self) -> list[str]:
        """Specs for seats 1, 2 (the partner) and 3."""
        if not self.snapshots:
            raise RuntimeError("the league has no past version yet: take a snapshot first")
        latest = self.snapshots[-1].replace("greedy=false", "greedy=true")
        partner = latest if self.rng.random() < 0.5 else self._member()
        other = self._member()
        return [other, partner, other]

    def _member(self) -> str:
        if self.snapshots and self.rng.random() < 1 / 3:
            return self.rng.choice(self.snapshots)
        return self.rng.choice(self.fixed)


class LeagueEnv(gymnasium.Wrapper[Any, Any, Any, Any]):
    """A factored env whose bots are drawn from the league at every reset."""

    def __init__(self, env: FactoredEnv, league: League) -> None:
        super().__init__(env)
        self.league = league

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """A new hand against newly drawn members."""
        options = dict(kwargs.pop("options", None) or {})
        options["opponents"] = self.league.draw()
        return self.env.reset(options=options, **kwargs)

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The allowed tokens (what MaskablePPO reads)."""
        env = self.env.unwrapped
        assert isinstance(env, FactoredEnv)
        return env.action_masks()


def evaluate(model: MaskablePPO, partner: str, hands: int) -> tuple[float, float]:
    """Win rate and mean reward of the greedy policy with ``partner`` against heuristic."""
    env = FactoredEnv("aberto", players=4, opponents=["heuristic", partner, "heuristic"])
    rewards = []
    for i in range(hands):
        obs, _ = env.reset(seed=EVAL_SEED + i)
        done = False
        reward = 0.0
        while not done:
            token, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, done, _, _ = env.step(int(token))
        rewards.append(float(reward))
    r = np.array(rewards)
    return float((r > 0).mean()), float(r.mean())


class Demonstrations:
    """``heuristic``'s token decisions in self-play, kept sparse (observations as CSR)."""

    def __init__(self, hands: int, seed: int) -> None:
        indptr = [0]
        indices: list[npt.NDArray[np.int16]] = []
        values: list[npt.NDArray[np.float32]] = []
        masks: list[npt.NDArray[np.uint8]] = []
        tokens: list[int] = []
        returns: list[float] = []
        hand_of: list[int] = []
        for hand in range(hands):
            deal = seed * 1_000_003 + hand
            game = Game("aberto", players=4, seed=deal, match=False)
            bots = [make_bot("heuristic", seed=deal * 4 + s) for s in range(4)]
            decisions, rewards = demonstrate(game, bots)
            for d in decisions:
                nz = np.flatnonzero(d.observation)
                indices.append(nz.astype(np.int16))
                values.append(d.observation[nz])
                indptr.append(indptr[-1] + len(nz))
                mask = np.zeros(N_TOKENS, dtype=np.uint8)
                mask[d.allowed] = 1
                masks.append(np.packbits(mask))
                tokens.append(d.token)
                returns.append(rewards[d.seat])
                hand_of.append(hand)
        self.indptr = np.array(indptr, dtype=np.int64)
        self.indices = np.concatenate(indices)
        self.values = np.concatenate(values).astype(np.float32)
        self.masks = np.stack(masks)
        self.tokens = np.array(tokens, dtype=np.int64)
        self.returns = np.array(returns, dtype=np.float32)
        self.hand_of = np.array(hand_of, dtype=np.int64)

    def __len__(self) -> int:
        return len(self.tokens)

    FIELDS = ("indptr", "indices", "values", "masks", "tokens", "returns", "hand_of")
    VERSION = 1
    """Changes when what is kept changes (with the observation's and tokens' sizes)."""

    @classmethod
    def cached(cls, path: Path | None, hands: int, seed: int) -> Demonstrations:
        """The demonstrations of ``hands`` hands, from ``path`` when it holds those."""
        key = np.array([cls.VERSION, COMPACT_SIZE, N_TOKENS, hands, seed])
        if path is not None and path.exists():
            with np.load(path) as f:
                if "key" in f.files and np.array_equal(f["key"], key):
                    data = cls.__new__(cls)
                    for name in cls.FIELDS:
                        setattr(data, name, f[name])
                    return data
        data = cls(hands, seed)
        if path is not None:
            with path.open("wb") as out:  # as named (np.savez would add .npz)
                np.savez(out, key=key, **{name: getattr(data, name) for name in cls.FIELDS})
        return data

    def batch(self, rows: npt.NDArray[np.int64]) -> tuple[torch.Tensor, ...]:
        """Dense observations, allowed-token masks, tokens and returns of these rows."""
        obs = np.zeros((len(rows), COMPACT_SIZE), dtype=np.float32)
        for i, r in enumerate(rows):
            a, b = self.indptr[r], self.indptr[r + 1]
            obs[i, self.indices[a:b]] = self.values[a:b]
        masks = np.unpackbits(self.masks[rows], axis=1)[:, :N_TOKENS].astype(bool)
        return (
            torch.from_numpy(obs),
            torch.from_numpy(masks),
            torch.from_numpy(self.tokens[rows]),
            torch.from_numpy(self.returns[rows]),
        )


def imitate(model: MaskablePPO, data: Demonstrations, epochs: int, seed: int) -> float | None:
    """Fit the policy to the demonstrations; the held-out accuracy (5% of the hands).

    None when no hand is held out (fewer than 20 hands).
    """
    policy = model.policy
    held = data.hand_of % 20 == 19
    train_rows = np.flatnonzero(~held)
    test_rows = np.flatnonzero(held)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    rng = np.random.default_rng(seed)

    def forward(rows: npt.NDArray[np.int64]) -> tuple[torch.Tensor, ...]:
        obs, masks, tokens, returns = data.batch(rows)
        latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(obs))
        logits = policy.action_net(latent_pi).masked_fill(~masks, -1e8)
        return logits, policy.value_net(latent_vf).squeeze(1), tokens, returns

    accuracy = None
    for epoch in range(epochs):
        order = rng.permutation(train_rows)
        total = 0.0
        for start in range(0, len(order), 512):
            logits, value, tokens, returns = forward(order[start : start + 512])
            loss = torch.nn.functional.cross_entropy(logits, tokens)
            loss = loss + 0.5 * torch.nn.functional.mse_loss(value, returns)
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            total += float(loss.detach()) * len(tokens)
        with torch.no_grad():
            right = sum(
                int(
                    (
                        forward(test_rows[s : s + 4096])[0].argmax(1)
                        == data.batch(test_rows[s : s + 4096])[2]
                    ).sum()
                )
                for s in range(0, len(test_rows), 4096)
            )
        accuracy = right / len(test_rows) if len(test_rows) else None
        shown = "none held out" if accuracy is None else f"{accuracy:.3f}"
        print(
            f"imitation epoch {epoch + 1}: loss {total / len(order):.3f}, held-out accuracy "
            f"{shown} ({len(train_rows):,} decisions, {len(test_rows):,} held out)",
            flush=True,
        )
    return accuracy


class Snapshots(BaseCallback):
    """Adds a snapshot to the league and evaluates the policy at fixed step counts."""

    def __init__(self, args: argparse.Namespace, league: League, folder: Path) -> None:
        super().__init__()
        self.args = args
        self.league = league
        self.folder = folder
        self.rows: list[list[float]] = []
        self.cpu = 0.0
        self.started = time.process_time()
        self.next_snapshot = args.snapshot_every
        self.next_eval = args.eval_every

    def snapshot(self) -> None:
        """Save the policy now and let the league play it."""
        path = self.folder / f"seed{self.args.seed}_{self.model.num_timesteps}.npz"
        save_model(path, sb3_layers(self.learner), {"preset": "aberto", "players": 4})
        self.league.snapshots.append(f"learned:path={path},greedy=false")

    def evaluate(self) -> None:
        """A row of the curve (training CPU time only)."""
        self.cpu += time.process_time() - self.started
        partner = self.league.snapshots[-1].replace("greedy=false", "greedy=true")
        win, reward = evaluate(self.learner, partner, self.args.eval_hands)
        row = [self.args.seed, self.model.num_timesteps, round(self.cpu, 1), win, reward]
        self.rows.append(row)
        print(
            f"seed {row[0]} steps {row[1]:>8} cpu {row[2]:>7.0f} s  vs heuristic: "
            f"win {win:.3f} reward {reward:+.3f}  league {len(self.league.snapshots)}",
            flush=True,
        )
        self.started = time.process_time()

    @property
    def learner(self) -> MaskablePPO:
        """The model being trained."""
        assert isinstance(self.model, MaskablePPO)
        return self.model

    def _on_step(self) -> bool:
        steps = self.model.num_timesteps
        if steps >= self.next_snapshot:
            self.snapshot()
            self.next_snapshot += self.args.snapshot_every
        if steps >= self.next_eval:
            self.evaluate()
            self.next_eval += self.args.eval_every
        return True


def main() -> None:
    """Train one seed; write the model and the curve."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=500_000)
    parser.add_argument("--snapshot-every", type=int, default=50_000)
    parser.add_argument("--eval-every", type=int, default=100_000)
    parser.add_argument("--eval-hands", type=int, default=100)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--hidden", default="256,256", help="the policy's layer widths")
    parser.add_argument("--learning-rate", type=float, default=1e-4)
    parser.add_argument("--imitate-hands", type=int, default=4000)
    parser.add_argument("--imitate-epochs", type=int, default=4)
    parser.add_argument(
        "--imitate-seed", type=int, default=0, help="the seed of the imitated hands' deals"
    )
    parser.add_argument(
        "--demonstrations",
        type=Path,
        help="keep the imitation data in this file (read it if there, else write it)",
    )
    parser.add_argument("--out", type=Path, required=True, help="the model file to write")
    parser.add_argument("--csv", type=Path, help="write the curve to this CSV file")
    parser.add_argument("--snapshots", type=Path, help="keep the snapshots here")
    args = parser.parse_args()
    if min(args.steps, args.snapshot_every, args.eval_every, args.eval_hands, args.envs) < 1:
        parser.error("--steps, --snapshot-every, --eval-every, --eval-hands, --envs are from 1")
    if min(args.imitate_hands, args.imitate_epochs) < 0:
        parser.error("--imitate-hands and --imitate-epochs are from 0")
    if args.snapshots is not None and (
        "," in str(args.snapshots) or len(str(args.snapshots)) > 120
    ):
        parser.error("--snapshots is a folder whose path has no comma and at most 120 characters")
    torch.set_num_threads(1)
    if args.snapshots is not None:
        args.snapshots.mkdir(parents=True, exist_ok=True)
        train(args, parser, args.snapshots)
    else:
        with tempfile.TemporaryDirectory(prefix="league-") as folder:
            train(args, parser, Path(folder))


def train(args: argparse.Namespace, parser: argparse.ArgumentParser, folder: Path) -> None:
    """Imitate, then train in the league, keeping the snapshots in ``folder``."""
    league = League(args.seed)

    def make(i: int) -> Any:
        def build() -> LeagueEnv:
            return LeagueEnv(FactoredEnv("aberto", players=4, opponents="greedy"), league)

        return build

    vec = DummyVecEnv([make(i) for i in range(args.envs)])
    vec.seed(args.seed)
    try:
        hidden = [int(x) for x in args.hidden.split(",")]
    except ValueError:
        parser.error(f"--hidden is widths with commas (e.g. 256,256), not {args.hidden!r}")
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=128,
        batch_size=512,
        gamma=0.995,
        learning_rate=args.learning_rate,
        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}},
        seed=args.seed,
        verbose=0,
    )
    accuracy = None
    imitation_cpu = 0.0
    if args.imitate_hands:
        started = time.process_time()
        data = Demonstrations.cached(args.demonstrations, args.imitate_hands, args.imitate_seed)
        accuracy = imitate(model, data, args.imitate_epochs, args.seed)
        imitation_cpu = time.process_time() - started
        print(f"imitation: {imitation_cpu:.0f} s of CPU", flush=True)
    callback = Snapshots(args, league, folder)
    callback.init_callback(model)
    callback.snapshot()  # the untrained policy is the league's first past version
    callback.evaluate()
    model.learn(args.steps, callback=callback)
    if not callback.rows or callback.rows[-1][1] != model.num_timesteps:
        callback.evaluate()
    meta = {
        "preset": "aberto",
        "players": 4,
        "observation": "compact",
        "trained_by": "examples/train_league.py",
        "seed": args.seed,
        "steps": model.num_timesteps,
        "league": BOTS + EXPLOITS + ["past versions"],
        "imitated": {
            "bot": "heuristic",
            "hands": args.imitate_hands,
            "accuracy": accuracy,
            "cpu_seconds": round(imitation_cpu),
        },
        "league_cpu_seconds": round(callback.cpu),
        "hidden": hidden,
    }
    save_model(args.out, sb3_layers(model), meta)
    if args.csv:
        with args.csv.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["seed", "steps", "cpu_seconds", "win_vs_heuristic", "reward"])
            writer.writerows(callback.rows)


if __name__ == "__main__":
    main()
