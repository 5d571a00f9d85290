r"""Train a small masked policy-gradient agent on Buraco and save it for the ``policy`` bot.

REINFORCE with a learned baseline (a value head), on the Gymnasium environment
(``buraco.rl.gymnasium.BuracoEnv``: the agent at seat 0, the opponents' bots at the other
seats: ``random`` by default, or a mix drawn episode by episode, ``--opponents
heuristic,hoarder,stocker,random``), ``aberto`` for 2 players by default. The network is
:class:`buraco.bots.policy.PolicyNet`: it scores only the legal indexes of the mask (masked
logits), and a new meld is chosen card by card as the environment enters it. The reward is
the hand-score difference / 1000 at the end of the hand; every decision of a hand gets that
return (no discount), minus the value head's estimate, normalised over a batch of episodes.
Forced decisions (one legal index) are played without being learned from. A small entropy
bonus keeps the policy exploring.

CPU, one thread, seeded; it stops after ``--minutes`` (or ``--episodes``), writes the model
(``--out``, read by ``make_bot("policy:path=...")``), the learning curve as CSV (episodes,
seconds, mean reward and win rate against the opponents over the last ``--log-every``
episodes of training, which sample from the policy) and, with matplotlib (the ``plot``
extra), as a PNG. Needs the ``rl`` and ``torch`` extras::

    .venv/bin/pip install -e '.[rl,torch,plot]'
    nice .venv/bin/python examples/train_policy.py --minutes 12 --out model.pt
    .venv/bin/buraco arena --preset aberto --players 2 --bots policy:path=model.pt,random \
        --deals 200 --seed 1
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import torch

    from buraco.bots import split_specs
    from buraco.bots.policy import PolicyNet
    from buraco.rl.gymnasium import BuracoEnv
except ImportError as missing:  # say which extra, not a traceback
    raise SystemExit(
        f"this example needs {missing.name or missing}: pip install -e '.[torch,rl]'"
    ) from None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line's options."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=12.0, help="time budget (default 12)")
    p.add_argument("--episodes", type=int, default=0, help="stop after this many (0: no limit)")
    p.add_argument("--out", default="model.pt", help="the model file to write")
    p.add_argument("--csv", default="", help="learning curve (default: OUT with .csv)")
    p.add_argument("--png", default="", help="plot of the curve (default: OUT with .png)")
    p.add_argument("--preset", default="aberto")
    p.add_argument("--players", type=int, default=2)
    p.add_argument(
        "--opponents",
        default="random",
        help="bot spec of the other seats; several, comma-separated, to train against a mix "
        "(each episode draws one), e.g. heuristic,hoarder,stocker,random",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--hidden", type=int, default=64, help="width of the network's body")
    p.add_argument("--batch", type=int, default=16, help="episodes per update")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    p.add_argument("--log-every", type=int, default=200, help="episodes per CSV row")
    args = p.parse_args(argv)
    if args.minutes > 30:
        p.error("--minutes is at most 30")
    return args


class Batch:
    """The learnable decisions of a batch of episodes."""

    def __init__(self) -> None:
        self.obs: list[np.ndarray[Any, Any]] = []
        self.legal: list[np.ndarray[Any, Any]] = []
        self.choice: list[int] = []
        self.ret: list[float] = []

    def tensors(
        self,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Observations, padded legal indexes, their validity, choices and returns."""
        width = max(len(x) for x in self.legal)
        legal = np.zeros((len(self.legal), width), dtype=np.int64)
        valid = np.zeros((len(self.legal), width), dtype=np.bool_)
        for i, x in enumerate(self.legal):
            legal[i, : len(x)] = x
            valid[i, : len(x)] = True
        return (
            torch.from_numpy(np.stack(self.obs)),
            torch.from_numpy(legal),
            torch.from_numpy(valid),
            torch.tensor(self.choice),
            torch.tensor(self.ret, dtype=torch.float32),
        )


def update(net: PolicyNet, opt: torch.optim.Optimizer, batch: Batch, entropy: float) -> float:
    """One policy-gradient step on a batch; the loss."""
    obs, legal, valid, choice, ret = batch.tensors()
    h = net.features(obs)
    logits = net.logits(h, legal).masked_fill(~valid, -1e9)
    logp = torch.log_softmax(logits, dim=-1)
    chosen = logp.gather(1, choice[:, None]).squeeze(1)
    value = net.value(h)
    adv = ret - value.detach()
    adv = (adv - adv.mean()) / (adv.std() + 1e-6) if len(adv) > 1 else adv
    ent = -(logp.exp() * logp).masked_fill(~valid, 0.0).sum(-1).mean()
    loss = -(adv * chosen).mean() + 0.5 * ((value - ret) ** 2).mean() - entropy * ent
    opt.zero_grad()
    loss.backward()  # type: ignore[no-untyped-call]
    torch.nn.utils.clip_grad_norm_(net.module.parameters(), 1.0)
    opt.step()
    return float(loss.detach())


def curve_row(
    episodes: int, start: float, steps: int, window: list[float], loss: float
) -> list[float | int]:
    """One line of the learning curve: the hands of ``window`` (their rewards) summed up."""
    return [
        episodes,
        round(time.monotonic() - start, 1),
        steps,
        round(float(np.mean(window)), 5),
        round(float(np.mean([r > 0 for r in window])), 4),
        round(loss, 5),
    ]


def plot(csv_path: Path, png_path: Path, title: str) -> bool:
    """Plot the learning curve's CSV to a PNG; False without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    with csv_path.open() as f:
        rows = list(csv.DictReader(f))
    x = [int(r["episodes"]) for r in rows]
    fig, ax1 = plt.subplots(figsize=(6, 3.2), dpi=80)
    ax1.plot(x, [float(r["mean_reward"]) * 1000 for r in rows], color="tab:blue")
    ax1.set_xlabel("training episodes (hands)")
    ax1.set_ylabel("mean score difference", color="tab:blue")
    ax1.axhline(0, color="grey", linewidth=0.5)
    ax2 = ax1.twinx()
    ax2.plot(x, [float(r["win_rate"]) for r in rows], color="tab:orange")
    ax2.set_ylabel("win rate", color="tab:orange")
    ax2.set_ylim(0, 1)
    ax1.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(png_path)
    plt.close(fig)
    return True


def train(args: argparse.Namespace) -> PolicyNet:
    """Train until the budget is spent; writes the model, the CSV and the PNG."""
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    out = Path(args.out)
    csv_path = Path(args.csv) if args.csv else out.with_suffix(".csv")
    png_path = Path(args.png) if args.png else out.with_suffix(".png")
    net = PolicyNet(args.hidden)
    opt = torch.optim.Adam(net.module.parameters(), lr=args.lr)
    mix = split_specs(args.opponents)
    envs = [BuracoEnv(args.preset, players=args.players, opponents=spec) for spec in mix]
    env = envs[0]
    start = time.monotonic()
    deadline = start + args.minutes * 60
    episodes = steps = 0
    window: list[float] = []
    info_text = (
        f"{args.preset} {args.players} players vs {args.opponents}, seed {args.seed}, "
        f"REINFORCE with baseline"
    )
    with csv_path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["episodes", "seconds", "steps", "mean_reward", "win_rate", "loss"])
        for i, other in enumerate(envs[1:], 1):  # each opponent's games from its own seed
            other.reset(seed=args.seed + i)
        obs, info = env.reset(seed=args.seed)
        loss = 0.0
        while time.monotonic() < deadline and not (args.episodes and episodes >= args.episodes):
            batch = Batch()
            for _ in range(args.batch):
                start_of_episode = len(batch.choice)
                done = False
                reward = 0.0
                while not done:
                    legal = np.flatnonzero(info["action_mask"])
                    if len(legal) == 1:
                        index = int(legal[0])
                    else:
                        with torch.no_grad():
                            h = net.features(torch.from_numpy(obs)[None])
                            logits = net.logits(h, torch.from_numpy(legal)[None])[0]
                        p = torch.softmax(logits, 0).numpy().astype(np.float64)
                        k = int(rng.choice(len(legal), p=p / p.sum()))
                        index = int(legal[k])
                        batch.obs.append(obs)
                        batch.legal.append(legal)
                        batch.choice.append(k)
                    obs, reward, done, _, info = env.step(index)
                    steps += 1
                batch.ret.extend([float(reward)] * (len(batch.choice) - start_of_episode))
                window.append(float(reward))
                episodes += 1
                env = envs[int(rng.integers(len(envs)))]
                obs, info = env.reset()
                if len(window) >= args.log_every:
                    writer.writerow(curve_row(episodes, start, steps, window, loss))
                    f.flush()
                    print(
                        f"{episodes} episodes, {time.monotonic() - start:.0f} s: mean reward "
                        f"{np.mean(window):+.4f}, win rate {np.mean([r > 0 for r in window]):.3f}",
                        flush=True,
                    )
                    window = []
                    net.save(out, trained=info_text, episodes=episodes)
            if batch.choice:
                loss = update(net, opt, batch, args.entropy)
        if window:
            writer.writerow(curve_row(episodes, start, steps, window, loss))
    net.save(out, trained=info_text, episodes=episodes)
    plotted = plot(
        csv_path, png_path, f"{args.preset}, {args.players} players, vs {args.opponents}"
    )
    minutes = (time.monotonic() - start) / 60
    print(
        f"{episodes} episodes ({steps} steps) in {minutes:.1f} min; model {out}, curve {csv_path}"
        + (f", plot {png_path}" if plotted else "")
    )
    return net


def main(argv: list[str] | None = None) -> None:
    """Run the training from the command line."""
    train(parse_args(argv))


if __name__ == "__main__":
    main()
