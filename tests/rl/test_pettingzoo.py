"""The PettingZoo environment passes PettingZoo's own checks in every preset and player count."""

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test  # type: ignore[import-untyped]

from buraco.cards import N_CODES
from buraco.rl.encoding import N_ACTIONS, OBS_SIZE, ActionCodec
from buraco.rl.pettingzoo import IMAGE_ROWS, RENDER_MODES, env, hand_rewards, raw_env, render_image
from buraco.rules import PRESETS
from buraco.views import seat_view

CASES = [(preset, n) for preset, spec in PRESETS.items() for n in spec.players]


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("preset", "players"), CASES)
def test_api_test(preset: str, players: int) -> None:
    api_test(env(preset, players=players), num_cycles=300)


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_seed_test(preset: str, players: int) -> None:
    seed_test(lambda: env(preset, players=players), num_cycles=200)


def play_hand(e: raw_env, seed: int) -> tuple[int, dict[str, float]]:
    """A hand of random masked indexes; the steps and each agent's total reward."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["observation"].shape == (OBS_SIZE,)
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps, totals


@pytest.mark.parametrize(("preset", "players"), [("aberto", 4), ("us", 6), ("italiano", 3)])
def test_a_hand_ends_with_the_score_difference_as_reward(preset: str, players: int) -> None:
    e = raw_env(preset, players=players)
    steps, totals = play_hand(e, seed=4)
    assert steps > 50
    g = e.game
    assert g is not None and g.is_hand_over()
    expected = hand_rewards(g)
    assert [totals[a] for a in e.possible_agents] == pytest.approx(expected)
    assert any(expected)
    for seat in range(g.n):  # partners share their reward
        for mate in g.teammates[seat]:
            assert totals[f"player_{seat}"] == totals[f"player_{mate}"]
    # same seed, same hand
    assert play_hand(raw_env(preset, players=players), seed=4) == (steps, totals)


def test_a_match_gives_a_reward_at_every_hand() -> None:
    e = raw_env("aberto", players=2, match=True, match_hands=2)
    play_hand(e, seed=1)
    assert e.game is not None and len(e.game.results) == 2 and e.game.is_over()


def test_render_and_illegal_actions() -> None:
    e = raw_env("fechado", players=2, render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert text is not None and "hand:" in text and "fechado" in text
    with pytest.raises(ValueError):
        e.step(N_ACTIONS - 1)  # the bare env refuses an illegal index
    wrapped = env("fechado", players=2)
    wrapped.reset(seed=2)
    agent = wrapped.agent_selection
    wrapped.step(N_ACTIONS - 1)
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())


def test_a_meld_is_entered_card_by_card_by_the_same_agent() -> None:
    e = raw_env("aberto", players=2)
    e.reset(seed=5)
    e.step(0)  # draw
    g = e.game
    assert g is not None
    agent = e.agent_selection
    meld = next(a for a in g.legal_actions() if a.kind == "meld")
    seq = ActionCodec().encode(meld)
    for i in seq[:-1]:
        e.step(i)
        assert e.agent_selection == agent
        assert g.melds[g.side_of[int(agent[-1])]] == []
    e.step(seq[-1])
    assert [m.cards() for m in g.melds[g.side_of[int(agent[-1])]]] == [list(meld.cards)]


@pytest.mark.parametrize(("preset", "players"), [("aberto", 4), ("fechado", 2), ("us", 6)])
def test_render_test(preset: str, players: int, capsys: pytest.CaptureFixture[str]) -> None:
    def make(render_mode: str | None = None) -> Any:
        return env(preset, players=players, render_mode=render_mode)

    assert make().metadata["render_modes"] == list(RENDER_MODES)
    render_test(make)  # every mode, "human" included
    printed = capsys.readouterr().out
    assert printed.count("hand:") >= 5 and preset in printed


def lit_cells(image: np.ndarray[Any, Any], row: int) -> list[int]:
    """The card codes whose cell of a row of the picture is not the dark background."""
    cells = image[row * 8 : row * 8 + 7].reshape(7, N_CODES, 8, 3)[:, :, :7]
    return [c for c in range(N_CODES) if cells[:, c].max() > 40]


def test_the_picture_shows_the_cards_the_seat_sees() -> None:
    e = raw_env("aberto", players=2, render_mode="rgb_array")
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(150):  # until the table holds melds
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
        g = e.game
        assert g is not None
        if g.melds[0] and g.melds[1] and e.entry.pending:
            break
    image = e.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.shape == (len(IMAGE_ROWS) * 8, N_CODES * 8, 3)
    g = e.game
    assert g is not None and g.turn is not None
    view = seat_view(g, g.turn, full=False)
    assert lit_cells(image, 0) == [c for c in range(N_CODES) if view.counts[c]]
    assert lit_cells(image, 1) == sorted(set(e.entry.pending))
    assert lit_cells(image, 2) == sorted(set(view.pile))
    for side in (0, 1):
        cards = {c for mv in view.melds[side] for c in mv.cards}
        assert cards and lit_cells(image, 3 + side) == sorted(cards)
    assert lit_cells(image, 5) == []  # no third side
    # more copies, a brighter cell
    two = render_image(view, [0, 0, 1])
    assert two[8:15, 0:7].max() > two[8:15, 8:15].max() > 40
    assert not render_image(None).max() > 40  # before the deal: a dark table


def test_a_bad_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode is None or one of 'ansi', 'human'"):
        raw_env("aberto", players=2, render_mode="rgb")
