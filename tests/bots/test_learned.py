"""The ``learned`` bot plays a saved policy token by token, as the factored env feeds it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from buraco import Game  # noqa: E402
from buraco.actions import Action  # noqa: E402
from buraco.bots import Bot, make_bot  # noqa: E402
from buraco.bots.learned import SHIPPED_MODEL, LearnedBot, Model, load_model, save_model  # noqa: E402
from buraco.errors import BotError  # noqa: E402
from buraco.rl.encoding import N_ACTIONS, OBS_SIZE, MeldEntry  # noqa: E402
from buraco.rl.factored import COMPACT_SIZE, ENTRY_SIZE, N_TOKENS, FactoredEnv  # noqa: E402
from buraco.rules import PRESETS  # noqa: E402
from buraco.views import SeatView, seat_view  # noqa: E402

CASES = [(p, n) for p, spec in PRESETS.items() for n in spec.players]


def random_layers(seed: int, hidden: int = 16) -> list[tuple[Any, Any]]:
    """A small random policy: one tanh layer, then the token head."""
    rng = np.random.default_rng(seed)
    first = rng.normal(0, 0.3, (hidden, COMPACT_SIZE))
    first[:, COMPACT_SIZE - ENTRY_SIZE :] *= 5  # the action being entered weighs much
    return [
        (first, rng.normal(0, 0.1, hidden)),
        (rng.normal(0, 1.0, (N_TOKENS, hidden)), rng.normal(0, 0.1, N_TOKENS)),
    ]


def play(game: Game, bot: Bot, limit: int) -> Iterator[tuple[SeatView, Action]]:
    """``bot`` plays every seat for up to ``limit`` actions: each view and its action,
    given before the action is applied."""
    for _ in range(limit):
        if game.is_hand_over():
            return
        seat = game.turn
        assert seat is not None
        view = seat_view(game, seat, full=True)
        action = bot.choose(view, view.legal)
        yield view, action
        game.apply(action)


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("learned") / "tiny.npz"
    save_model(path, random_layers(0), {"preset": "aberto", "players": 4})
    return path


def test_a_saved_model_loads_with_its_weights_and_description(model_file: Path) -> None:
    model = load_model(model_file)
    assert model.sizes == [COMPACT_SIZE, 16, N_TOKENS]
    assert model.meta["preset"] == "aberto" and model.meta["format"] == "buraco-learned-policy"
    exact = Model(random_layers(0), {})
    obs = np.random.default_rng(1).random((3, COMPACT_SIZE)).astype(np.float32)
    # stored in float16: the logits agree to that precision, row by row
    assert np.allclose(model.logits(obs), exact.logits(obs), atol=0.05)
    # a row alone (float32: a product of one row sums in another order than a batch's)
    assert np.allclose(model.logits(obs)[1], model.logits(obs[1]), rtol=1e-4, atol=1e-4)


def test_the_bot_plays_what_the_policy_picks_in_the_factored_env(model_file: Path) -> None:
    """Each action the bot makes from its view is the one the env completes when fed the
    policy's most likely allowed token at every step (so training and play agree)."""
    model = load_model(model_file)
    env = FactoredEnv("aberto", players=4, opponents="greedy")
    bot = make_bot(f"learned:path={model_file}")
    decisions = entered = 0
    for hand in range(3):
        obs, _ = env.reset(seed=hand)
        done = False
        while not done:
            g = env.game
            assert g is not None
            expected: Action | None = None
            if not env.tokens.prefix:
                view = seat_view(g, env.seat, full=True)
                expected = bot.choose(view, view.legal)
                before = len(g.events)
            # what the bot reads here is what the env gives, first token or not
            assert isinstance(bot, LearnedBot)
            view = seat_view(g, env.seat, full=True)
            assert np.array_equal(bot.observation(view, env.tokens), obs)
            mask = env.action_masks()
            token = int(np.flatnonzero(mask)[np.argmax(model.logits(obs)[mask])])
            if env.tokens.prefix and mask.sum() > 1:
                entered += 1
            obs, _, done, _, _ = env.step(token)
            if expected is not None and not env.tokens.prefix:
                made = next(e.action for e in g.events[before:] if e.seat == env.seat)
                assert made == expected
                decisions += 1
    assert decisions > 50 and entered > 5  # tokens chosen after the first, too


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_it_plays_legal_actions_in_every_preset(
    model_file: Path, preset: str, players: int
) -> None:
    game = Game(preset, players=players, seed=players, match=False)
    bots = {
        s: make_bot(f"learned:path={model_file},greedy={'true' if s % 2 else 'false'}", seed=s)
        for s in range(players)
    }
    made = 0
    while not game.is_hand_over() and made < 3000:
        seat = game.turn
        assert seat is not None
        view = seat_view(game, seat, full=True)
        action = bots[seat].choose(view, view.legal)
        assert action in game.legal_actions()
        game.apply(action)
        made += 1
    assert made > 10


def test_sampling_follows_the_seed_and_greedy_play_is_fixed(model_file: Path) -> None:
    def actions(spec: str, seed: int) -> list[Action]:
        game = Game("aberto", players=4, seed=5, match=False)
        return [action for _, action in play(game, make_bot(spec, seed=seed), 120)]

    sampled = f"learned:path={model_file},greedy=false"
    assert actions(sampled, 1) == actions(sampled, 1)
    assert actions(sampled, 1) != actions(sampled, 2)
    greedy = f"learned:path={model_file}"
    assert actions(greedy, 1) == actions(greedy, 2)


def test_the_shipped_model_is_the_default() -> None:
    bot = make_bot("learned")
    assert isinstance(bot, LearnedBot)
    assert SHIPPED_MODEL.exists() and bot.model.meta["preset"] == "aberto"
    assert bot.model.meta["players"] == 4 and bot.model.sizes[0] == COMPACT_SIZE


def test_bad_model_files_are_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(BotError, match=r"no model file '/nowhere\.npz'"):
        make_bot("learned:path=/nowhere.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(BotError, match="is not a model file"):
        make_bot(f"learned:path={junk}")
    plain = tmp_path / "plain.npz"
    np.savez(plain, w0=np.zeros((2, 2)))
    with pytest.raises(BotError, match="is not a model file"):
        make_bot(f"learned:path={plain}")
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    zipped = tmp_path / "zipped.npz"
    zipped.write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    array = tmp_path / "array.npy"
    np.save(array, np.zeros(3))
    for bad in (empty, zipped, array, Path("/dev/null")):
        with pytest.raises(BotError, match="is not a model file"):
            make_bot(f"learned:path={bad}")
    # a head whose bias does not fit, a weight that is not a matrix, weights not finite
    head_w, head_b = np.zeros((N_TOKENS, 4)), np.zeros(N_TOKENS)
    for layers in (
        [(np.zeros((4, COMPACT_SIZE)), np.zeros(4)), (head_w, np.zeros(1))],
        [(np.zeros((4, COMPACT_SIZE, 1)), np.zeros(4)), (head_w, head_b)],
        [(np.full((4, COMPACT_SIZE), np.nan), np.zeros(4)), (head_w, head_b)],
    ):
        with pytest.raises(ValueError, match=r"^layers? [01]"):
            save_model(tmp_path / "never.npz", layers, {})
    assert not (tmp_path / "never.npz").exists()
    wrong = tmp_path / "wrong.npz"
    save_model(wrong, [(np.zeros((5, 10)), np.zeros(5))], {"preset": "aberto"})
    with pytest.raises(BotError, match=r"reads 10 numbers and gives 5; a model of factored"):
        make_bot(f"learned:path={wrong}")
    flat_wrong = tmp_path / "flat_wrong.npz"
    save_model(flat_wrong, random_layers(0), {"actions": "flat"})
    with pytest.raises(BotError, match=rf"flat actions must read the observation \({OBS_SIZE}\)"):
        make_bot(f"learned:path={flat_wrong}")
    for meta, says in (({"activation": "sigmoid"}, "activation 'sigmoid' is not one of"),
                       ({"actions": "tokens"}, "actions 'tokens' is not one of")):  # fmt: skip
        with pytest.raises(ValueError, match=says):
            save_model(tmp_path / "never.npz", random_layers(0), meta)
    with pytest.raises(ValueError, match="layers 0 and 1: the shapes do not chain"):
        save_model(wrong, [(np.zeros((5, 10)), np.zeros(5)), (np.zeros((3, 4)), np.zeros(3))], {})


def test_a_damaged_model_file_is_refused_with_what_is_wrong_in_it(tmp_path: Path) -> None:
    """The one-line refusal says why a file is not a model, not only that it is not one."""
    import json

    good = tmp_path / "good.npz"
    save_model(good, random_layers(0), {"preset": "aberto"})

    def tampered(name: str, change: Any) -> Path:
        with np.load(good) as data:
            arrays = dict(data)
        change(arrays)
        path = tmp_path / name
        np.savez(path, **arrays)
        return path

    def meta_with(**more: str) -> Any:
        def change(arrays: dict[str, Any]) -> None:
            meta = {**json.loads(bytes(arrays["meta"]).decode()), **more}
            arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)

        return change

    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not an archive at all")
    array = tmp_path / "array.npy"
    np.save(array, np.zeros(3))
    cases = {
        tampered("inf.npz", lambda a: a["w0"].fill(np.inf)): "the weights are not all finite",
        tampered("sigmoid.npz", meta_with(activation="sigmoid")): "activation 'sigmoid'",
        tampered("other.npz", meta_with(format="other")): "format is not 'buraco-learned",
        tampered("nometa.npz", lambda a: a.pop("meta")): r"no description \(meta\)",
        tampered("notjson.npz", lambda a: a.update(meta=np.zeros(3, np.uint8))): "not JSON",
        junk: r"not an \.npz archive",
        array: r"not an \.npz archive",
    }
    for path, says in cases.items():
        with pytest.raises(BotError, match=rf"is not a model file \(.*{says}") as refused:
            make_bot(f"learned:path={path}")
        assert "\n" not in str(refused.value) and len(str(refused.value)) < 300


def test_it_asks_for_the_full_view(model_file: Path) -> None:
    game = Game("aberto", players=4, seed=2, match=False)
    assert game.turn is not None
    short = seat_view(game, game.turn, full=False)
    with pytest.raises(BotError, match=r"reads the seat's full view"):
        make_bot(f"learned:path={model_file}").choose(short, short.legal)


def flat_layers(seed: int, hidden: int = 8) -> list[tuple[Any, Any]]:
    """A small random Q-network of the flat action space: one ReLU layer, then the head."""
    rng = np.random.default_rng(seed)
    return [
        (rng.normal(0, 0.3, (hidden, OBS_SIZE)), rng.normal(0, 0.1, hidden)),
        (rng.normal(0, 1.0, (N_ACTIONS, hidden)), rng.normal(0, 0.1, N_ACTIONS)),
    ]


def test_a_flat_model_plays_the_best_legal_index_of_the_observation(tmp_path: Path) -> None:
    """A model of the flat action space (an OpenSpiel DQN's Q-network) reads the observation
    vector and enters, index by index, the legal index it scores highest."""
    path = tmp_path / "flat.npz"
    save_model(path, flat_layers(3), {"actions": "flat", "activation": "relu"})
    model = load_model(path)
    assert model.actions == "flat" and model.activation == "relu"
    # kept in float16: by hand from the same rounded weights
    (w0, b0), (w1, b1) = ([a.astype(np.float16).astype(float) for a in p] for p in flat_layers(3))
    ones = np.ones(OBS_SIZE, np.float32)
    by_hand = w1 @ np.maximum(w0 @ ones + b0, 0) + b1
    assert np.allclose(model.logits(ones), by_hand, rtol=1e-4, atol=1e-3)
    tanh = Model(flat_layers(3), {"actions": "flat"})  # the activation counts
    assert not np.allclose(model.logits(ones), tanh.logits(ones), atol=0.05)
    bot = make_bot(f"learned:path={path}")
    assert isinstance(bot, LearnedBot)
    game = Game("aberto", players=4, seed=2, match=False)
    melds = 0
    for view, action in play(game, bot, 400):
        entry, expected = MeldEntry(), None
        while expected is None:  # the same entry, by hand
            mask = entry.mask(view.legal)
            scores = model.logits(bot.encoder.encode(view, entry.pending))
            index = int(np.flatnonzero(mask)[np.argmax(scores[mask])])
            expected = entry.step(index, view.legal)
        assert action == expected and action in game.legal_actions()
        melds += type(action).__name__ == "Meld"
    assert game.is_hand_over() or melds > 0


def test_discards_are_ranked_by_the_network_and_its_choice_comes_first(
    model_file: Path, tmp_path: Path
) -> None:
    """A search over the bot tries its preferred discards: the ranking is the network's
    score for each discard at the decision's start, and its own discard heads it."""
    from buraco.actions import Discard
    from buraco.rl.encoding import ActionCodec
    from buraco.rl.factored import DISCARD, TokenEntry

    flat = tmp_path / "flat.npz"
    save_model(flat, flat_layers(5), {"actions": "flat", "activation": "relu"})
    for path in (model_file, flat):
        bot = make_bot(f"learned:path={path}")
        assert isinstance(bot, LearnedBot)
        game = Game("aberto", players=4, seed=9, match=False)
        ranked_some = 0
        for view, action in play(game, bot, 300):
            ranked = bot.ranked_discards(view, view.legal)
            discards = [a for a in view.legal if type(a) is Discard]
            assert sorted(map(str, ranked)) == sorted(map(str, discards))
            if len(discards) < 2:
                continue
            if bot.model.actions == "flat":
                scores = bot.model.logits(bot.encoder.encode(view))
                keys = [float(scores[ActionCodec().index(d)]) for d in ranked]
            else:
                scores = bot.model.logits(bot.observation(view, TokenEntry()))
                keys = [float(scores[DISCARD + d.card]) for d in ranked if isinstance(d, Discard)]
            assert keys == sorted(keys, reverse=True)
            if type(action) is Discard:
                assert ranked[0] == action  # what it plays is what it ranks first
            ranked_some += 1
        assert ranked_some > 20
