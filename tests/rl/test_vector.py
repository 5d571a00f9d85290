"""The batched environment: the same observations, masks and games as the single-game ones."""

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.performance import benchmark_vector_step
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from buraco.actions import Meld
from buraco.game import Game
from buraco.rl.encoding import N_ACTIONS, OBS_SIZE, ActionCodec, ObservationEncoder
from buraco.rl.gymnasium import BuracoEnv
from buraco.rl.pettingzoo import raw_env
from buraco.rl.vector import BuracoBatch, BuracoVectorEnv, CSRBatch, IndexEncoder, random_actions
from buraco.rules import PRESETS
from buraco.views import seat_view, table_views

CASES = [(preset, n) for preset, spec in PRESETS.items() for n in spec.players]
CODEC = ActionCodec()


def reference(g: Game, seat: int, pending: tuple[int, ...]) -> npt.NDArray[np.float32]:
    """The single-game encoding of a seat's observation (a fresh encoder: no memory)."""
    return ObservationEncoder().encode(seat_view(g, seat, full=True), pending)


def check_batch(b: BuracoBatch) -> None:
    """Every form of the batch's observations and masks against buraco.rl.encoding."""
    dense = b.observations("dense")
    index = b.observations("index")
    masks = b.action_masks()
    legal = b.legal_actions()
    assert dense.shape == (b.num_games, OBS_SIZE) and dense.dtype == np.float32
    assert index.shape == dense.shape and index.values.dtype == np.float32
    assert masks.shape == (b.num_games, N_ACTIONS) and masks.dtype == np.int8
    assert np.array_equal(index.to_dense(), dense)
    assert np.array_equal(legal.to_dense(), masks)
    pending = b.pending
    for i, g in enumerate(b.games):
        seat = int(b.seats[i])
        expected = reference(g, seat, pending[i])
        assert np.array_equal(dense[i], expected), (g.rules.preset, i)
        cols, values = index.row(i)
        assert np.array_equal(cols, np.flatnonzero(expected))  # ascending, non-zero only
        assert np.array_equal(values, expected[cols])
        assert np.array_equal(b.observation_of(i)[0], cols)
        if b.done[i] or g.turn != seat:
            expected_mask = np.zeros(N_ACTIONS, dtype=np.int8)
        else:
            expected_mask = CODEC.mask(g.legal_actions(), pending[i], np.int8)
        assert np.array_equal(masks[i], expected_mask), (g.rules.preset, i)
        assert np.array_equal(legal.row(i)[0], np.flatnonzero(expected_mask))


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_dense_and_index_forms_are_the_single_game_encoding(preset: str, players: int) -> None:
    b = BuracoBatch(3, preset, players)
    b.reset(seed=11)
    rng = np.random.default_rng(11)
    for step in range(150):
        if step % 3 == 0:
            check_batch(b)
        if b.done.any():
            b.reset(None, b.done.copy())
        b.step(random_actions(b.legal_actions(), rng))
    check_batch(b)


def test_the_forms_agree_through_whole_hands_and_resets() -> None:
    b = BuracoBatch(2, "us", 4)  # wild moves, opening short, three mortos
    b.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = 0
    while ended < 3:
        check_batch(b)
        if b.done.any():
            ended += int(b.done.sum())
            b.reset(None, b.done.copy())
        b.step(random_actions(b.legal_actions(), rng))


def test_states_random_play_seldom_reaches_agree_with_the_encoder() -> None:
    """A hidden morto, an owed opening, vulnerability, cut points, an unplayed morto."""
    g = Game("us", players=4, seed=4, match=False, hidden_indirect_pot=True)
    rng = np.random.default_rng(4)
    for _ in range(60):
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    encoder = IndexEncoder()
    for seat in range(4):
        variant = g.clone()
        variant.hidden[seat] = True
        variant.unplayed[seat] = True
        variant.must_open = True
        variant.vulnerable[1] = True
        variant.requirement[0] = 75
        variant.opened[0] = False
        variant.cut_points[1] = -100
        variant.totals[0] = 1230
        variant.moved = {0}
        variant.public_cache = None
        expected = reference(variant, seat, ())
        cols, values = encoder.encode(variant, seat)
        assert np.array_equal(cols, np.flatnonzero(expected)), seat
        assert np.array_equal(values, expected[cols]), seat


def choose(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A random legal index per row of dense masks (0 for a row with none: a finished game)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def play(b: BuracoBatch, seed: int, steps: int) -> list[Any]:
    """The trajectory of random legal indexes: observations, masks, rewards, ends."""
    b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out: list[Any] = []
    for _ in range(steps):
        legal = b.legal_actions()
        obs = b.observations("index")
        out.append((obs.indices.tolist(), obs.values.tolist(), legal.indices.tolist()))
        rewards, terminated, _ = b.step(random_actions(legal, rng))
        out.append((rewards.tolist(), terminated.tolist()))
        if terminated.any():
            b.reset(None, terminated)
    return out


def test_the_same_seed_plays_the_same_games() -> None:
    first = play(BuracoBatch(3, "aberto", 4), seed=9, steps=700)
    assert first == play(BuracoBatch(3, "aberto", 4), seed=9, steps=700)
    assert first != play(BuracoBatch(3, "aberto", 4), seed=10, steps=700)
    assert any(any(ended) for _, ended in first[1::2])  # through at least one reset


@pytest.mark.parametrize(
    ("preset", "players", "match"), [("aberto", 4, False), ("fechado", 2, True)]
)
def test_every_seat_an_agent_plays_as_pettingzoo(preset: str, players: int, match: bool) -> None:
    """Game i of a batch seeded s is the PettingZoo environment reset with seed s + i."""
    n = 2
    options: dict[str, Any] = {"match_hands": 2} if match else {}
    b = BuracoBatch(n, preset, players, match=match, **options)
    b.reset(seed=30)
    envs = [raw_env(preset, players, match=match, **options) for _ in range(n)]
    for i, e in enumerate(envs):
        e.reset(seed=30 + i)
    rng = np.random.default_rng(30)
    episodes = 0
    while episodes < 3:
        legal = b.legal_actions()
        obs = b.observations("dense")
        for i, e in enumerate(envs):
            agent = e.agent_selection
            assert b.seats[i] == e.possible_agents.index(agent)
            expected = e.observe(agent)
            assert np.array_equal(obs[i], expected["observation"])
            assert np.array_equal(legal.row(i)[0], np.flatnonzero(expected["action_mask"]))
        actions = random_actions(legal, rng)
        rewards, terminated, illegal = b.step(actions)
        assert not illegal.any()
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            assert rewards[i].tolist() == [e.rewards[a] for a in e.possible_agents]
            assert terminated[i] == all(e.terminations.values())
            if terminated[i]:
                episodes += 1
                e.reset()
        if terminated.any():
            b.reset(None, terminated)


def test_against_bots_it_is_gymnasium_s_vector_of_the_single_environment() -> None:
    """Observations, rewards, ends, masks and autoresets equal SyncVectorEnv's."""
    n = 3
    ref = SyncVectorEnv(
        [lambda: BuracoEnv("aberto", 4, opponents="random", seat=1) for _ in range(n)]
    )
    env = BuracoVectorEnv(n, "aberto", 4, opponents="random", seat=1)
    o1, i1 = ref.reset(seed=5)
    o2, i2 = env.reset(seed=5)
    assert np.array_equal(o1, o2) and np.array_equal(i1["action_mask"], i2["action_mask"])
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(900):
        actions = choose(i1["action_mask"], rng)
        o1, r1, t1, u1, i1 = ref.step(actions)
        o2, r2, t2, u2, i2 = env.step(actions)
        assert np.array_equal(o1, o2)
        assert np.array_equal(r1, r2) and np.array_equal(t1, t2) and np.array_equal(u1, u2)
        assert np.array_equal(i1["action_mask"], i2["action_mask"])
        assert np.array_equal(env.action_masks(), i2["action_mask"].astype(bool))
        ends += int(t1.sum())
    assert ends >= 2
    assert (i2["seat"] == 1).all()


def test_vector_env_spaces_and_episode_statistics() -> None:
    env = BuracoVectorEnv(4, "aberto", 2)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert env.single_action_space == gymnasium.spaces.Discrete(N_ACTIONS)
    assert env.action_space.shape == (4,) and env.observation_space.shape == (4, OBS_SIZE)
    stats = RecordEpisodeStatistics(env)
    obs, info = stats.reset(seed=1)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    returns = np.zeros(4)
    seen: list[tuple[float, int]] = []
    lengths = np.zeros(4, dtype=int)
    fresh = np.zeros(4, dtype=bool)
    for _ in range(2000):
        actions = choose(info["action_mask"], rng)
        obs, reward, terminated, truncated, info = stats.step(actions)
        assert env.observation_space.contains(obs) and not truncated.any()
        # with NEXT_STEP, the step after an episode's end only resets it
        returns[~fresh] += reward[~fresh]
        lengths[~fresh] += 1
        assert (reward[fresh] == 0).all() and not terminated[fresh].any()
        for i in np.flatnonzero(terminated):
            seen.append((float(info["episode"]["r"][i]), int(info["episode"]["l"][i])))
            assert seen[-1][0] == pytest.approx(returns[i]) and seen[-1][1] == lengths[i]
            returns[i] = 0.0
            lengths[i] = 0
        fresh = terminated.copy()
        if len(seen) >= 3:
            break
    assert len(seen) >= 3


def test_the_reward_is_the_acting_seat_s_through_a_match() -> None:
    """Every seat's hand rewards are in the info; the step's is the seat that acted's."""
    env = BuracoVectorEnv(3, "aberto", 2, match=True, match_hands=2)
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    hand_ends = matches = 0
    while matches < 2:
        acted = info["seat"].copy()
        _, reward, terminated, _, info = env.step(choose(info["action_mask"], rng))
        assert np.array_equal(reward, info["rewards"][np.arange(3), acted])
        ended = info["rewards"].any(axis=1)
        hand_ends += int(ended.sum())
        matches += int(terminated.sum())
        assert not (terminated & ~ended).any()  # a match ends with a hand
    assert hand_ends > matches  # hands that ended inside a match gave rewards too


def test_same_step_autoreset_gives_the_last_observation_in_the_info() -> None:
    env = BuracoVectorEnv(
        2, "aberto", 2, autoreset_mode="SameStep", observation_form="index", mask_form="index"
    )
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=8)
    assert isinstance(obs, CSRBatch) and isinstance(info["legal_actions"], CSRBatch)
    rng = np.random.default_rng(8)
    finished = 0
    while finished < 2:
        before = [g for g in env.batch.games]
        obs, reward, terminated, _, info = env.step(random_actions(info["legal_actions"], rng))
        for i in np.flatnonzero(terminated):
            finished += 1
            old = before[i]
            assert old.is_hand_over() and env.batch.games[i] is not old
            cols, values = info["final_obs"][i]
            seat = int(info["final_info"]["seat"][i])
            expected = reference(old, seat, ())
            assert np.array_equal(cols, np.flatnonzero(expected))
            assert np.array_equal(values, expected[cols])
            assert reward[i] == info["final_info"]["rewards"][i, seat] != 0
            # the new hand is already dealt: its observation and legal actions
            assert not env.batch.games[i].is_hand_over() and info["legal_actions"].counts()[i]
        if terminated.any():
            assert info["_final_obs"].tolist() == terminated.tolist()
        else:
            assert "final_obs" not in info


def test_disabled_autoreset_waits_for_a_reset_mask() -> None:
    env = BuracoVectorEnv(3, "aberto", 2, autoreset_mode=AutoresetMode.DISABLED)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    while True:
        actions = choose(info["action_mask"], rng)
        _, _, terminated, _, info = env.step(actions)
        if terminated.any():
            break
    with pytest.raises(RuntimeError, match="reset_mask"):
        env.step(actions)
    kept = [g for i, g in enumerate(env.batch.games) if not terminated[i]]
    _, info = env.reset(options={"reset_mask": terminated})
    assert [g for i, g in enumerate(env.batch.games) if not terminated[i]] == kept
    assert info["action_mask"][terminated].any(axis=1).all()
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.zeros(3, dtype=bool)})


def test_an_illegal_index_ends_the_episode_with_the_penalty() -> None:
    b = BuracoBatch(2, "aberto", 4, illegal_reward=-2.0)
    b.reset(seed=3)
    g = b.games[1]
    before = len(g.events)
    legal = b.legal_actions()
    actions = random_actions(legal, np.random.default_rng(0))
    actions[1] = N_ACTIONS - 1  # never legal at the first draw
    rewards, terminated, illegal = b.step(actions)
    assert terminated.tolist() == [False, True] and illegal.tolist() == [False, True]
    assert rewards[1, int(b.seats[1])] == -2.0 and rewards[1].sum() == -2.0
    assert len(g.events) == before  # the game is left as it was
    assert b.legal_actions().counts()[1] == 0
    with pytest.raises(RuntimeError, match="reset"):
        b.step(actions)
    env = BuracoVectorEnv(1, "aberto", 4)
    env.reset(seed=3)
    _, reward, terminated, _, info = env.step(np.array([N_ACTIONS - 1]))
    assert reward[0] == -1.0 and terminated[0] and info["illegal_action"][0]


def test_a_meld_is_entered_card_by_card() -> None:
    b = BuracoBatch(1, "aberto", 2)
    b.reset(seed=5)
    g = b.games[0]
    rng = np.random.default_rng(5)
    while not any(isinstance(a, Meld) for a in g.legal_actions()):
        b.step(random_actions(b.legal_actions(), rng))
        g = b.games[0]
    meld = next(a for a in g.legal_actions() if isinstance(a, Meld))
    seat = int(b.seats[0])
    tokens = CODEC.encode(meld)
    for k, token in enumerate(tokens[:-1]):
        b.step(np.array([token]))
        assert b.pending[0] == tuple(meld.cards[: k + 1]) and b.seats[0] == seat
        check_batch(b)
    b.step(np.array([tokens[-1]]))
    assert b.pending[0] == () and g.events[-1].action == meld


def test_bad_input_is_refused_with_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="num_games"):
        BuracoBatch(0)
    with pytest.raises(ValueError, match="seat"):
        BuracoBatch(2, opponents="random", seat=4)
    with pytest.raises(ValueError, match="opponents is a bot spec, or a list of"):
        BuracoBatch(2, opponents=["random"])
    with pytest.raises(ValueError, match="observation_form"):
        BuracoVectorEnv(2, observation_form="sparse")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="autoreset_mode"):
        BuracoVectorEnv(2, autoreset_mode="sometimes")
    b = BuracoBatch(2)
    b.reset(seed=1)
    with pytest.raises(ValueError, match="integer array of shape"):
        b.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="integer array of shape"):
        b.step(np.zeros(2))
    with pytest.raises(ValueError, match="one seed per game"):
        b.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="'dense' or 'index'"):
        b.observations("sparse")  # type: ignore[arg-type]


def test_render_shows_each_table() -> None:
    env = BuracoVectorEnv(2, "aberto", 2, render_mode="ansi")
    env.reset(seed=1)
    frames = env.render()
    assert frames is not None and len(frames) == 2
    assert all(f.startswith("aberto, hand 1") for f in frames)
    assert BuracoVectorEnv(1).render() is None


def test_the_doc_examples_run_and_print_what_they_say() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "batched.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    assert len(blocks) == 2
    checked = 0
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(doc), "exec"), {})
        printed = out.getvalue().splitlines()
        for claim in re.findall(r"^print\(.*\)\s+# (.*)$", block, re.M):
            assert claim in printed, (claim, printed)
            checked += 1
    assert checked == 4


def test_the_index_form_is_a_canonical_scipy_csr_array() -> None:
    sparse = pytest.importorskip("scipy.sparse")
    b = BuracoBatch(4, "italiano", 3)
    b.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(40):
        b.step(random_actions(b.legal_actions(), rng))
    obs = b.observations("index")
    m = sparse.csr_array((obs.values, obs.indices, obs.indptr), shape=obs.shape)
    assert m.has_canonical_format
    assert np.array_equal(m.toarray(), b.observations("dense"))


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta")
def test_the_index_form_passes_torch_s_sparse_csr_checks() -> None:
    torch = pytest.importorskip("torch")
    b = BuracoBatch(4, "us", 4)
    b.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(40):
        b.step(random_actions(b.legal_actions(), rng))
    for batch, dense in ((b.observations("index"), b.observations()), (b.legal_actions(), None)):
        t = torch.sparse_csr_tensor(
            batch.indptr, batch.indices, batch.values, batch.shape, check_invariants=True
        )
        expected = b.action_masks() if dense is None else dense
        assert np.array_equal(t.to_dense().numpy(), expected)


def test_an_encoder_keeps_nothing_of_past_hands() -> None:
    """Its caches hold the meld views of the hand in play only (no growth over a run)."""
    b = BuracoBatch(1, "aberto", 4)
    b.reset(seed=12)
    rng = np.random.default_rng(12)
    hands = 0
    seen: list[Any] = []  # every meld view of the hand in play (kept alive: ids stay unique)
    while hands < 3 or len(seen) < 5:
        _, terminated, _ = b.step(random_actions(b.legal_actions(), rng))
        if terminated[0]:
            hands += 1
            b.reset(None, terminated)
            seen = []
        g = b.games[0]
        seen += [mv for side in table_views(g)[0] for mv in side]
    encoder = b._slots[0].encoder
    current = {id(mv) for mv in seen}
    assert encoder._melds and all(mv_id in current for _, mv_id in encoder._melds)


def test_gymnasium_s_vector_benchmark_runs_it_with_sampled_actions() -> None:
    """Sampled actions are mostly illegal: each ends its game, which the next step deals."""
    env = BuracoVectorEnv(3, "aberto", 2)
    assert benchmark_vector_step(env, target_duration=0, seed=0) > 0
    _, info = env.reset(seed=0)
    _, reward, terminated, _, info = env.step(np.full(3, N_ACTIONS - 1))
    assert terminated.all() and (reward == -1.0).all() and info["illegal_action"].all()
    _, reward, terminated, _, info = env.step(np.full(3, N_ACTIONS - 1))  # the resets
    assert not terminated.any() and (reward == 0).all() and "illegal_action" not in info
    assert info["action_mask"].any(axis=1).all()
