"""The ``policy`` bot plays a saved network from its view; the training example runs."""

import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import examplekit

pytest.importorskip("torch")
pytest.importorskip("gymnasium")

import random

from buraco import Game
from buraco.actions import Action
from buraco.bots import PolicyBot, make_bot
from buraco.bots.policy import PolicyNet
from buraco.determinize import Determinizer
from buraco.errors import BotError
from buraco.rules import PRESETS
from buraco.views import SeatView, seat_view


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch

    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("policy") / "tiny.pt"
    PolicyNet(hidden=8).save(path)
    return path


def play(game: Game, bots: dict[int, Any], limit: int = 3000) -> list[Action]:
    """Play the hand; every bot's choice is checked to be legal before it is made."""
    made: list[Action] = []
    while not game.is_hand_over() and len(made) < limit:
        seat = game.turn
        assert seat is not None
        bot = bots[seat]
        view = seat_view(game, seat, full=bot.wants_full_view)
        action = bot.choose(view, view.legal)
        assert action in game.legal_actions()
        game.apply(action)
        made.append(action)
    return made


@pytest.mark.parametrize(
    ("preset", "players"), [(p, n) for p, spec in PRESETS.items() for n in spec.players]
)
def test_plays_legal_actions_in_every_preset(model: Path, preset: str, players: int) -> None:
    game = Game(preset, players=players, seed=players, match=False)
    bots: dict[int, Any] = {
        s: make_bot(f"policy:path={model},greedy={'true' if s % 2 else 'false'}", seed=s)
        for s in range(players)
    }
    made = play(game, bots, limit=150)  # every choice is checked legal
    assert len(made) == 150 or game.is_hand_over()
    assert {type(a).__name__ for a in made} >= {"Draw", "Discard"}


def test_greedy_is_deterministic_and_sampling_follows_the_seed(model: Path) -> None:
    def run(spec: str, seed: int) -> list[Action]:
        game = Game("fechado", players=2, seed=11, match=False)
        return play(game, {0: make_bot(spec, seed=seed), 1: make_bot(spec, seed=seed + 1)})

    greedy = f"policy:path={model},greedy=true"
    assert run(greedy, 1) == run(greedy, 5)
    sampled = f"policy:path={model},greedy=false"
    assert run(sampled, 1) == run(sampled, 1)
    assert run(f"{sampled},seed=3", 1) == run(f"{sampled},seed=3", 9)


def test_sees_only_the_view(model: Path) -> None:
    bot = make_bot(f"policy:path={model},greedy=true")
    assert isinstance(bot, PolicyBot) and bot.wants_full_view
    rng = random.Random(4)
    checked = 0
    for seed in range(3):
        game = Game("aberto", players=4, seed=seed, match=False)
        while not game.is_hand_over() and checked < 40 * (seed + 1):
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat, full=True)
            choice = bot.choose(view, view.legal)
            # the hidden cards dealt again consistently with the view: the same choice
            sample = Determinizer(view).sample(rng)
            sample.events = list(game.events)
            sample.seen_cache = [None] * (game.n + 1)
            again = seat_view(sample, seat, full=True)
            assert isinstance(again, SeatView)
            assert bot.choose(again, again.legal) == choice
            assert not any(isinstance(v, Game) for v in vars(bot).values())
            game.apply(choice)
            checked += 1
    assert checked > 40


def test_spec_errors_are_one_line(
    model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a model")
    specs = {
        "policy": "needs the model file",
        f"policy:path={tmp_path / 'missing.pt'}": "no model file",
        f"policy:path={junk}": "is not a model file",
        f"policy:path={model},greedy=maybe": "must be true or false",
        f"policy:path={model},temperature=2": "has no parameter",
    }
    for spec, words in specs.items():
        with pytest.raises(BotError) as e:
            make_bot(spec)
        assert words in str(e.value) and "\n" not in str(e.value), spec
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(BotError) as e:
        make_bot(f"policy:path={model}")
    assert str(e.value) == "bot 'policy' needs PyTorch: pip install 'buraco[torch]'"


def load_example() -> ModuleType:
    return examplekit.load_example("train_policy")


def test_training_smoke(tmp_path: Path) -> None:
    out = tmp_path / "m.pt"
    args = ["--episodes", "2", "--batch", "1", "--log-every", "1", "--hidden", "8"]
    load_example().main([*args, "--out", str(out), "--png", str(tmp_path / "c.png")])
    rows = (tmp_path / "m.csv").read_text().splitlines()
    assert rows[0] == "episodes,seconds,steps,mean_reward,win_rate,loss"
    assert [r.split(",")[0] for r in rows[1:]] == ["1", "2"]
    assert (tmp_path / "c.png").stat().st_size > 0
    game = Game("aberto", players=2, seed=1, match=False)
    bots: dict[int, Any] = {0: make_bot(f"policy:path={out}"), 1: make_bot("random", seed=1)}
    play(game, bots)
    assert game.is_hand_over()


def test_arena_workers_play_the_policy(model: Path) -> None:
    # forked workers inherit the loaded network: they must not hang on torch's thread pool
    from buraco.arena import run_arena

    bots = [f"policy:path={model}", "random"]
    one = run_arena("aberto", bots, 2, players=2, seed=1, workers=1)
    two = run_arena("aberto", bots, 2, players=2, seed=1, workers=2)
    assert one.pair_values(0, 1) == two.pair_values(0, 1)


def test_training_against_a_mix_plays_each_opponent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = load_example()
    episodes: dict[str, int] = {}

    class Counting(module.BuracoEnv):  # type: ignore[name-defined,misc]
        def __init__(self, *args: Any, opponents: str, **kw: Any) -> None:
            super().__init__(*args, opponents=opponents, **kw)
            self.spec_name = opponents

        def reset(self, **kw: Any) -> Any:
            episodes[self.spec_name] = episodes.get(self.spec_name, 0) + 1
            return super().reset(**kw)

    monkeypatch.setattr(module, "BuracoEnv", Counting)
    args = ["--episodes", "8", "--batch", "4", "--log-every", "4", "--hidden", "8"]
    args += ["--opponents", "hoarder,stocker:base=heuristic", "--out", str(tmp_path / "m.pt")]
    module.main([*args, "--png", str(tmp_path / "c.png")])
    # one reset to seed each opponent's games, then each episode drawn from the mix
    assert set(episodes) == {"hoarder", "stocker:base=heuristic"}
    assert sum(episodes.values()) == 2 + 8 and min(episodes.values()) > 1
