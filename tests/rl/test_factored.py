"""The factored actions reach every legal action and nothing else; the env is a Gymnasium env."""

import contextlib
import io
import re
from collections import Counter
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from buraco.actions import Action, Add, Meld, Place, parse_action
from buraco.cards import N_CODES
from buraco.game import Game
from buraco.rl.encoding import MELD_SIZE, OBS_SIZE, ObservationEncoder, observation_slices
from buraco.rl.factored import (
    ADD,
    COMPACT_LAYOUT,
    COMPACT_SIZE,
    ENTRY_SIZE,
    MELD,
    MELD_END,
    MELD_INDEX,
    MOVE,
    N_TOKENS,
    OWN_MELD_SLOTS,
    PLACE,
    FactoredEnv,
    TokenEntry,
    action_tokens,
    token_name,
    tokens_action,
)
from buraco.rl.gymnasium import FACTORED_IDS
from buraco.rules import PRESETS
from buraco.views import seat_view

CASES = [(p, n) for p, spec in PRESETS.items() for n in spec.players]
DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def compact_slices() -> dict[str, slice]:
    out, pos = {}, 0
    for name, size in COMPACT_LAYOUT:
        out[name] = slice(pos, pos + size)
        pos += size
    return out


def reach(entry: TokenEntry, legal: tuple[Action, ...], seqs: list[tuple[int, ...]]) -> list[Any]:
    """Every action the entry can complete from where it is, checking the mask on the way.

    ``seqs``: the token sequences of the legal actions that start with the entry's prefix
    (worked out here from the actions, not by the entry).
    """
    k = len(entry.prefix)
    assert all(s[:k] == tuple(entry.prefix) and len(s) > k for s in seqs)
    allowed = {s[k] for s in seqs}
    mask = entry.mask(legal)
    assert mask.shape == (N_TOKENS,) and set(np.flatnonzero(mask)) == allowed
    assert entry.allowed(legal) == sorted(allowed)
    assert sorted(map(action_tokens, entry.candidates(legal))) == sorted(seqs)
    if entry.prefix:  # inside an action, only real choices are asked
        assert len(allowed) >= 2
    out = []
    for token in sorted(allowed):
        branch = entry.copy()
        action = branch.step(token, legal)
        if action is None:
            assert branch.prefix[: k + 1] == [*entry.prefix, token]
            n = len(branch.prefix)
            out.extend(reach(branch, legal, [t for t in seqs if t[:n] == tuple(branch.prefix)]))
        else:
            assert action_tokens(action)[: k + 1] == (*entry.prefix, token)
            assert [t for t in seqs if t[k] == token] == [action_tokens(action)]
            assert branch.prefix == [] and branch.pending == []
            out.append(action)
    return out


def test_every_legal_action_is_reached_and_nothing_else() -> None:
    """Random hands of every preset and count: the token tree of each decision is its
    legal actions, each once; the masks are the tree's branches; random tokens finish."""
    rng = np.random.default_rng(22)
    kinds: Counter[str] = Counter()
    asked_inside = Counter[str]()
    for preset, players in CASES:
        for _ in range(4):
            game = Game(preset, players=players, seed=int(rng.integers(2**31)), match=False)
            entry = TokenEntry()
            while not game.is_hand_over():
                legal = game.legal_actions()
                seqs = [action_tokens(a) for a in legal]
                reached = reach(entry, legal, seqs)
                assert len(reached) == len(legal) and set(reached) == set(legal)
                for a in legal:
                    kinds[a.kind if not isinstance(a, Add) else f"add {Place(a.place).name}"] += 1
                while True:  # random allowed tokens, as an agent would enter them
                    token = int(rng.choice(np.flatnonzero(entry.mask(legal))))
                    action = entry.step(token, legal)
                    if action is not None:
                        break
                    asked_inside[token_name(entry.prefix[0]).split()[0]] += 1
                assert action in legal
                game.apply(action)
    # the hands offered every kind of action, and choices inside melds, adds and moves
    for kind in ("draw", "take-pile", "turn-up", "discard", "meld", "move"):
        assert kinds[kind] > 0, kind
    for place in Place:
        assert kinds[f"add {place.name}"] > 0, place
    assert asked_inside["meld"] and asked_inside["add"]


def test_tokens_round_trip_and_are_named() -> None:
    for text, tokens in [
        ("draw", (0,)),
        ("turn-up", (1,)),
        ("take-pile", (2,)),
        ("discard 9C", (3 + 8,)),
        ("meld 3H 4H JK 6H", (MELD + 28, MELD + 29, MELD + 52, MELD + 31, MELD_END)),
        ("add 2 6H wild-high", (ADD + 31, MELD_INDEX + 1, PLACE + 4)),
        ("add 1 AS", (ADD + 39, MELD_INDEX, PLACE)),
        ("move 74 low", (MOVE, MELD_INDEX + 73, PLACE + 1)),
    ]:
        action = parse_action(text)
        assert action_tokens(action) == tokens
        assert tokens_action(tokens) == action
    assert [token_name(t) for t in (0, 11, MELD + 52, MELD_END, ADD, MOVE, MELD_INDEX, PLACE)] == [
        "draw",
        "discard 9C",
        "meld JK",
        "end meld",
        "add AC",
        "move",
        "to meld 1",
        "place none",
    ]


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        ((N_TOKENS,), "a token is from 0 to 242, not 243"),
        ((MELD + 3,), "MELD tokens then MELD_END"),
        ((MELD + 3, MELD_END, MELD_END), "MELD tokens then MELD_END"),
        ((ADD, MELD_INDEX), "no action's"),
        ((MOVE, MELD_INDEX, PLACE + 3), "no action's"),
        ((), "no action's"),
    ],
)
def test_a_bad_token_sequence_is_refused(tokens: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        tokens_action(tokens)


def test_a_token_not_allowed_is_refused_naming_the_allowed_ones() -> None:
    game = Game("aberto", players=2, seed=1, match=False)
    entry = TokenEntry()
    with pytest.raises(ValueError, match=r"token 11 \(discard 9C\) is not allowed now; allowed: 0"):
        entry.step(11, game.legal_actions())
    with pytest.raises(ValueError, match="token 999 is not allowed now"):
        entry.step(999, game.legal_actions())
    with pytest.raises(ValueError, match="a token is from 0 to 242"):
        token_name(-1)


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_check_env(preset: str, players: int) -> None:
    e = gymnasium.make(FACTORED_IDS[preset], players=players, opponents="random")
    check_env(e.unwrapped)
    assert e.observation_space.shape == (COMPACT_SIZE,)
    assert e.action_space == gymnasium.spaces.Discrete(N_TOKENS)


def test_check_env_full_observation_mask_in_observation_and_rendering() -> None:
    e = FactoredEnv("us", players=4, opponents="random", observation="full")
    check_env(e, skip_render_check=True)
    assert e.observation_space.shape == (OBS_SIZE + ENTRY_SIZE,)
    e = FactoredEnv("aberto", players=2, opponents="random", mask_in_observation=True)
    check_env(e, skip_render_check=True)
    obs, info = e.reset(seed=2)
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    rendered = gymnasium.make(
        FACTORED_IDS["fechado"], players=2, opponents="random", render_mode="rgb_array"
    )
    check_env(rendered.unwrapped, skip_render_check=False)


@pytest.mark.parametrize(
    ("preset", "players", "opponents"),
    [
        ("aberto", 4, "random"),
        ("aberto", 2, "heuristic"),
        ("us", 4, "random"),
        ("us", 6, "random"),
        ("fechado", 4, "greedy"),
        ("netcartas", 2, "random"),
        ("italiano", 3, "random"),
    ],
)
def test_random_tokens_play_hands_applying_legal_actions(
    preset: str, players: int, opponents: str
) -> None:
    """Through the env: each completed action is the agent's next event and was legal; the
    observation's entry block is the prefix; the return is the score difference."""
    seat = players - 1
    e = FactoredEnv(preset, players=players, opponents=opponents, seat=seat)
    rng = np.random.default_rng(5)
    cs = compact_slices()
    encoder = ObservationEncoder()
    for hand in range(2):
        obs, info = e.reset(seed=hand)
        game = e.game
        assert game is not None
        total, done, steps = 0.0, False, 0
        while not done:
            mask = e.action_masks()
            assert np.array_equal(mask, info["action_mask"].astype(bool)) and mask.any()
            full = encoder.encode(seat_view(game, seat, full=True), e.tokens.pending)
            for name in ("hand", "pile_top", "melded_counts", "pile_memory", "phase"):
                assert np.array_equal(obs[cs[name]], full[observation_slices()[name]]), name
            own = observation_slices()["melds"].start
            assert np.array_equal(
                obs[cs["own_melds"]], full[own : own + OWN_MELD_SLOTS * MELD_SIZE]
            )
            check_entry(obs, e.tokens.prefix)
            legal = game.legal_actions()
            before, prefix = len(game.events), list(e.tokens.prefix)
            token = int(rng.choice(np.flatnonzero(mask)))
            obs, reward, done, truncated, info = e.step(token)
            assert not truncated and "illegal_action" not in info
            total += float(reward)
            steps += 1
            if e.tokens.prefix and not done:  # still entering: nothing happened
                assert len(game.events) == before
                assert e.tokens.prefix[: len(prefix) + 1] == [*prefix, token]
                continue
            event = game.events[before]
            assert event.seat == seat and event.action in legal
            assert action_tokens(event.action)[: len(prefix) + 1] == (*prefix, token)
        scores = [s.total for s in game.results[-1].scores]
        side = game.side_of[seat]
        best = max(t for i, t in enumerate(scores) if i != side)
        assert total == pytest.approx((scores[side] - best) / 1000)
        assert steps > 5 and not e.action_masks().any()


def check_entry(obs: np.ndarray[Any, Any], prefix: list[int]) -> None:
    """The entry block says what the prefix holds."""
    cs = compact_slices()
    kind, cards = obs[cs["entry_kind"]], obs[cs["entry_cards"]]
    last, meld = obs[cs["entry_last"]], obs[cs["entry_meld"]]
    if not prefix:
        assert not obs[cs["entry_kind"].start :].any()
        return
    named = [t - MELD for t in prefix if MELD <= t < MELD_END]
    named += [t - ADD for t in prefix if ADD <= t < MOVE]
    expected_kind = 0 if prefix[0] < MELD_END else 1 if prefix[0] < MOVE else 2
    assert list(np.flatnonzero(kind)) == [expected_kind]
    assert np.array_equal(cards, np.bincount(named, minlength=N_CODES))
    assert list(np.flatnonzero(last)) == named[-1:]
    chosen = [t - MELD_INDEX for t in prefix if MELD_INDEX <= t < PLACE]
    assert list(np.flatnonzero(meld)) == chosen


def test_same_seed_same_trajectory() -> None:
    def run(seed: int) -> list[tuple[bytes, float, bytes]]:
        e = gymnasium.make("buraco/UsFactored-v0", players=4, opponents="heuristic")
        obs, info = e.reset(seed=seed)
        rng = np.random.default_rng(0)
        out, done = [(obs.tobytes(), 0.0, info["action_mask"].tobytes())], False
        while not done:
            token = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, _, info = e.step(token)
            out.append((obs.tobytes(), float(reward), info["action_mask"].tobytes()))
        return out

    first = run(11)
    assert run(11) == first
    assert run(12)[0] != first[0]


def test_an_illegal_token_ends_the_episode_and_bad_arguments_are_refused() -> None:
    e = FactoredEnv("aberto", players=2, opponents="random", illegal_reward=-3)
    _, info = e.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = e.step(bad)
    assert reward == -3 and terminated and info["illegal_action"]
    with pytest.raises(ValueError, match="observation is 'compact' or 'full', not 'tiny'"):
        FactoredEnv("aberto", observation="tiny")
    with pytest.raises(ValueError, match="seat is a number from 0 to 1"):
        FactoredEnv("aberto", players=2, seat=2)


def test_maskable_ppo_trains_and_predicts_allowed_tokens() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env(
        "buraco.rl.gymnasium:buraco/AbertoFactored-v0",
        n_envs=2,
        seed=0,
        env_kwargs={"players": 4, "opponents": "random"},
    )
    model = MaskablePPO("MlpPolicy", vec, n_steps=128, batch_size=64, n_epochs=2, seed=0)
    model.learn(256)
    assert model.num_timesteps == 256
    e = FactoredEnv("aberto", players=4, opponents="random")
    obs, _ = e.reset(seed=3)
    done = False
    while not done:
        mask = e.action_masks()
        token, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(token)]
        obs, _, done, _, info = e.step(int(token))
        assert "illegal_action" not in info


def test_the_research_doc_s_example_runs_and_its_figures_are_the_code_s() -> None:
    text = DOC.read_text().split("## Factored actions")[1].split("\n## ")[0]
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], str(DOC), "exec"), {})
    printed = out.getvalue().splitlines()
    # the comments that show an output (others say what a line prints)
    claims = re.findall(r"^print\(.*\)\s+# ((?:\(|\[|None|meld ).*)$", blocks[0], re.M)
    assert len(claims) == 5 and all(c in printed for c in claims), (claims, printed)
    assert f"Discrete({N_TOKENS})" in text and f"{COMPACT_SIZE:,}" in text
    for token, name in [(MELD, "meld"), (ADD, "add"), (MOVE, "move"), (MELD_INDEX, "to meld")]:
        assert f"| {token}" in text, name


@pytest.mark.parametrize(("preset", "players"), [("aberto", 4), ("us", 2), ("italiano", 3)])
def test_demonstrations_are_the_bots_play_as_the_env_would_ask_it(
    preset: str, players: int
) -> None:
    """Every kept token had an alternative; each observation is the env's at that point; the
    hand is played as the bots play it anyway; the rewards are the hand's."""
    from buraco.bots import make_bot, play_hand
    from buraco.rl.encoding import hand_rewards
    from buraco.rl.factored import demonstrate

    game = Game(preset, players=players, seed=21, match=False)
    replay = game.clone()
    bots = [make_bot("heuristic", seed=s) for s in range(players)]
    decisions, rewards = demonstrate(game, bots)
    same = Game(preset, players=players, seed=21, match=False)
    play_hand(same, [make_bot("heuristic", seed=s) for s in range(players)])
    assert [e.action for e in game.events] == [e.action for e in same.events]
    assert rewards == hand_rewards(same)
    assert len(decisions) > 20 and {d.seat for d in decisions} == set(range(players))
    # walk the hand again: at each kept decision, the env in that seat shows the same numbers
    envs = [
        FactoredEnv(preset, players=players, opponents="random", seat=s) for s in range(players)
    ]
    pending = iter(decisions)
    for event in game.events:
        action = event.action
        if action is None:  # the engine's own notes
            continue
        seat = replay.turn
        assert seat is not None
        legal = replay.legal_actions()
        tokens = action_tokens(action)
        entry = TokenEntry()
        done = None
        while done is None:
            if len(entry.allowed(legal)) > 1:
                d = next(pending)
                assert (d.seat, d.allowed) == (seat, entry.allowed(legal))
                assert d.token == tokens[len(entry.prefix)]
                env = envs[seat]
                env.game, env.tokens = replay, entry
                assert np.array_equal(d.observation, env._obs())
            done = entry.step(tokens[len(entry.prefix)], legal)
        assert done == action
        replay.apply(action)
    assert next(pending, None) is None  # every decision was met on the way


def test_token_choices_are_the_tokens_entered_where_another_was_allowed() -> None:
    from buraco.rl.factored import token_choices

    game = Game("aberto", players=2, seed=4, match=False)
    game.apply("draw")
    legal = game.legal_actions()
    melds = [a for a in legal if isinstance(a, Meld)]
    assert melds
    for action in [*melds, *legal[-3:]]:
        tokens = action_tokens(action)
        choices = [
            (tuple(e.prefix), allowed, token) for e, allowed, token in token_choices(action, legal)
        ]
        for prefix, allowed, token in choices:
            assert len(allowed) > 1 and token in allowed
            assert tokens[: len(prefix) + 1] == (*prefix, token)
        # the steps left out are those where the action's token was the only one allowed
        entry = TokenEntry()
        steps = alone = 0
        done = None
        while done is None:
            alone += len(entry.allowed(legal)) == 1
            done = entry.step(tokens[len(entry.prefix)], legal)
            steps += 1
        assert done == action
        assert len(choices) + alone == steps
