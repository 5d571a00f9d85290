"""The OpenSpiel game passes OpenSpiel's own checks in every preset and player count."""

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from buraco.cards import format_cards  # noqa: E402
from buraco.game import Game  # noqa: E402
from buraco.rl.encoding import N_ACTIONS, OBS_SIZE  # noqa: E402
from buraco.rl.openspiel import BuracoState, hand_returns  # noqa: E402
from buraco.rules import PRESETS  # noqa: E402

CASES = [(preset, n) for preset, spec in PRESETS.items() for n in spec.players]
SEEDED = [("aberto", 2, ",deal=seeded"), ("us", 4, ",deal=seeded,deals=50")]


def load(preset: str, players: int, extra: str = "") -> Any:
    return pyspiel.load_game(f"python_buraco(preset={preset},players={players}{extra})")


def step_chance(state: BuracoState, rng: np.random.Generator) -> None:
    """Play chance nodes until a player is to move or the hand is over."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert sum(probs) == pytest.approx(1.0)
        state.apply_action(int(rng.choice(outcomes, p=np.array(probs))))


@pytest.mark.parametrize(("preset", "players", "extra"), [(p, n, "") for p, n in CASES] + SEEDED)
def test_random_sim_test(preset: str, players: int, extra: str) -> None:
    game = load(preset, players, extra)
    assert game.num_players() == players
    assert game.num_distinct_actions() == N_ACTIONS
    assert game.information_state_tensor_size() == game.observation_tensor_size() == OBS_SIZE
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("preset", "players", "extra"), [(p, n, "") for p, n in CASES] + SEEDED)
def test_no_leak(preset: str, players: int, extra: str) -> None:
    """Hidden cards dealt again consistently with a seat's view change none of its tensors."""
    game = load(preset, players, extra)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    checked = moved = 0
    step = 0
    while not state.is_terminal():
        step_chance(state, rng)
        if state.is_terminal():
            break
        if step % 9 == 0:
            g = state.game
            for seat in range(players):
                sample = state.resample_from_infostate(seat, lambda: random.random())
                h = sample.game
                moved += any(h.hands[s] != g.hands[s] for s in range(players) if s != seat)
                for get in (
                    "information_state_tensor",
                    "observation_tensor",
                    "information_state_string",
                    "observation_string",
                ):
                    assert getattr(state, get)(seat) == getattr(sample, get)(seat), get
                if seat == state.current_player():
                    assert sample.legal_actions() == state.legal_actions()
                checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
        step += 1
    assert checked > 10 and moved > checked // 3
    assert state.returns() == pytest.approx(hand_returns(state.game))


def test_the_deal_and_draws_are_exact_chance() -> None:
    game = load("aberto", 2)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # the dealer
    state.apply_action(1)
    assert [p for _, p in state.chance_outcomes()] == [pytest.approx(1 / 7)] * 7  # the cut
    state.apply_action(3)
    cards = dict(state.chance_outcomes())
    assert len(cards) == 53 and cards[52] == pytest.approx(4 / 108)  # four jokers in 108
    state.apply_action(52)
    assert dict(state.chance_outcomes())[52] == pytest.approx(3 / 107)
    rng = np.random.default_rng(0)
    step_chance(state, rng)
    assert state.current_player() in (0, 1) and state.legal_actions() == [0]  # draw
    g = state.game
    left = len(g.stock)
    stock = [g.stock.count(c) for c in range(53)]
    state.apply_action(0)
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {c: k / left for c, k in enumerate(stock) if k}
    seat = g.turn
    card = next(iter(outcomes))
    before = g.hand(seat).count(card)
    state.apply_action(card)
    assert g.hand(seat).count(card) == before + 1 and len(g.stock) == left - 1


def test_a_seeded_deal_is_the_engine_s_hand_of_that_seed() -> None:
    game = load("fechado", 4, ",deal=seeded,deals=300")
    assert game.max_chance_outcomes() == 300
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [k for k, _ in outcomes] == list(range(300))
    assert [p for _, p in outcomes] == [pytest.approx(1 / 300)] * 300
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 217) == "deal 217"
    state.apply_action(217)
    g = state.game
    engine = Game("fechado", players=4, seed=217, match=False)
    assert [g.hand(s) for s in range(4)] == [engine.hand(s) for s in range(4)]
    assert list(g.stock) == list(engine.stock) and (state.dealer, state.cut) == (
        engine.dealer,
        engine.cut,
    )
    seat = state.current_player()
    assert "217" not in state.information_state_string(seat)
    assert f"dealt {format_cards(g.hand(seat))}" in state.information_state_string(seat)
    top = g.stock[-1]
    before = g.hand(seat).count(top)
    state.apply_action(0)  # draw: the stock's top card at once, no chance node
    assert not state.is_chance_node() and state.current_player() == seat
    assert g.hand(seat).count(top) == before + 1
    for bad in ("deal=shuffled", "deal=seeded,deals=0", "deal=seeded,deals=1000001"):
        with pytest.raises(ValueError, match="deal"):
            load("aberto", 2, "," + bad)
    with pytest.raises(ValueError, match="from 0 to 299"):
        game.new_initial_state().apply_action(300)


def test_options_and_returns() -> None:
    game = load("fechado", 4, ",options=cut_spread:0;going_out_bonus:200,reward_scale=100.0")
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.cut == 0 and len(state.chance_outcomes()) == 53  # no cut to draw
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        step_chance(state, rng)
        if not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
    g = state.game
    assert g.rules.going_out_bonus == 200
    returns = state.returns()
    assert returns == pytest.approx(hand_returns(g, 100.0))
    assert returns[0] == returns[2] and sum(returns) == pytest.approx(0)
    try:
        from buraco.rl.pettingzoo import hand_rewards
    except ImportError:
        return
    assert returns == pytest.approx(hand_rewards(g, 100.0))


def test_a_serialized_state_plays_on_alike() -> None:
    game = load("us", 4)
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    for _ in range(300):
        step_chance(state, rng)
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == state.history() and str(again) == str(state)
    for seat in range(4):
        assert again.information_state_string(seat) == state.information_state_string(seat)
        assert again.observation_tensor(seat) == state.observation_tensor(seat)
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.chance_outcomes()[0][0]
        else:
            action = int(rng.choice(state.legal_actions()))
            assert again.legal_actions() == state.legal_actions()
        state.apply_action(action)
        again.apply_action(action)
    assert again.returns() == state.returns()


def test_a_meld_is_entered_card_by_card() -> None:
    game = load("aberto", 2)
    rng = np.random.default_rng(1)
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            step_chance(state, rng)
            if state.is_terminal():
                break
            legal = state.legal_actions()
            cards = [a for a in legal if 56 <= a < 109]
            if cards:
                seat = state.current_player()
                before = state.information_state_string(1 - seat)
                state.apply_action(cards[0])
                assert state.current_player() == seat  # still entering
                assert state.information_state_string(1 - seat) == before
                assert "entering" in state.information_state_string(seat)
                clone = state.clone()
                while state.entry.pending:
                    state.apply_action(state.legal_actions()[0])
                assert clone.entry.pending and len(clone.history()) < len(state.history())
                return
            state.apply_action(int(rng.choice(legal)))
    pytest.fail("no meld in 30 hands")


def test_is_mcts_plays() -> None:
    from open_spiel.python.algorithms import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        ismcts,
        mcts,
    )

    game = load("aberto", 2)
    rng = np.random.default_rng(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=2.0,
        max_simulations=10,
        random_state=np.random.RandomState(0),
    )
    state = game.new_initial_state()
    for _ in range(4):
        step_chance(state, rng)
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_the_research_page_examples_run() -> None:
    import contextlib
    import io
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "research.md"
    section = doc.read_text().split("## OpenSpiel")[1].split("\n## ")[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    out = io.StringIO()
    namespace: dict[str, Any] = {}
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, str(doc), "exec"), namespace)
    printed = out.getvalue().splitlines()
    assert len(printed) == 2 and printed[-1] == "draw"
    returns = [float(x) for x in printed[0].strip("[]").split(",")]
    assert len(returns) == 4 and returns[0] == returns[2]


def test_dqn_learns_from_the_rl_environment() -> None:
    """OpenSpiel's DQN (PyTorch) plays and learns: it needs dm-tree, in the openspiel extra."""
    torch = pytest.importorskip("torch")
    from open_spiel.python import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        rl_environment,
    )
    from open_spiel.python.pytorch import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        dqn,
    )

    torch.set_num_threads(1)
    env = rl_environment.Environment(load("aberto", 2), seed=0)
    size = env.observation_spec()["info_state"][0]
    assert size == OBS_SIZE and env.action_spec()["num_actions"] == N_ACTIONS
    agents = [
        dqn.DQN(
            seat,
            size,
            N_ACTIONS,
            hidden_layers_sizes=[16],
            replay_buffer_capacity=128,
            batch_size=8,
            min_buffer_size_to_learn=16,
            learn_every=4,
            seed=seat,
        )
        for seat in range(2)
    ]
    step = env.reset()
    for _ in range(200):
        if step.last():
            for agent in agents:
                agent.step(step)
            step = env.reset()
            continue
        seat = step.observations["current_player"]
        action = agents[seat].step(step).action
        assert action in step.observations["legal_actions"][seat]
        step = env.step([action])
    losses = [float(agent.loss) for agent in agents]
    assert all(np.isfinite(losses)) and all(loss > 0 for loss in losses)
