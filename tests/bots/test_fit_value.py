"""``scripts/fit_value.py``: the positions the learned value is trained on.

The positions must come back the same from the same seeds (the shipped model is rebuilt
array for array from its command), and the league's hands must seat the agent on one
side against the league. The fit itself needs torch; only the tests that run it do.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from buraco.bots import exploits, make_bot
from buraco.bots.play import play_one
from buraco.bots.value import GLOBAL_FEATURES, SIDE_FEATURES, load_value
from buraco.game import Game
from examplekit import load_script

COLUMNS = 2 * len(SIDE_FEATURES) + len(GLOBAL_FEATURES)
CHEAP_AGENT = "mcts:time=0,iterations=1,depth=2"
"""A search at one round: an agent cheap enough to play a few league hands in a test."""


@pytest.fixture(scope="module")
def fit() -> ModuleType:
    """The script, imported as a module."""
    return load_script("fit_value")


def _check_shapes(arrays: Any, hands: int) -> None:
    """One row of features per kept position, one hand's difference for all its rows."""
    x, y, h = arrays
    assert x.shape == (len(y), COLUMNS) and h.shape == y.shape
    assert set(h.tolist()) == set(range(hands))
    assert (np.diff(h) >= 0).all(), "a hand's positions are kept together, in order"
    for number in range(hands):
        assert len(set(y[h == number].tolist())) == 1


def test_the_same_seed_plays_the_same_positions(fit: ModuleType) -> None:
    first = fit.rows("aberto", 4, 3, 7, ("heuristic",))
    again = fit.rows("aberto", 4, 3, 7, ("heuristic",))
    other = fit.rows("aberto", 4, 3, 8, ("heuristic",))
    _check_shapes(first, hands=3)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], other[0]), "another seed, other hands"


def test_in_a_league_hand_one_side_is_the_agent(
    fit: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    import buraco.bots

    made: list[str] = []
    real = buraco.bots.make_bot

    def recording(spec: str, **kwargs: Any) -> Any:
        made.append(spec)
        return real(spec, **kwargs)

    monkeypatch.setattr(buraco.bots, "make_bot", recording)
    league = ("heuristic", "greedy")
    fit.rows("aberto", 4, 4, 13, league, agent=CHEAP_AGENT)
    seatings = [made[i : i + 4] for i in range(0, len(made), 4)]
    assert len(seatings) == 4
    sides = set()
    for seats in seatings:
        agent_sides = [s % 2 for s, spec in enumerate(seats) if spec == CHEAP_AGENT]
        assert len(agent_sides) == 2 and agent_sides[0] == agent_sides[1], seats
        other = [spec for s, spec in enumerate(seats) if s % 2 != agent_sides[0]]
        assert other[0] == other[1] and other[0] in league
        sides.add(agent_sides[0])
    assert sides == {0, 1}, "the agent is drawn to either side"


def test_the_league_is_the_agent_its_past_the_shipped_bots_and_every_exploit(
    fit: ModuleType,
) -> None:
    league = fit.LEAGUE
    assert league.count(fit.AGENT) == 2
    assert "heuristic" in league and "mcts:time=0,iterations=6,depth=2" in league
    for name in exploits.EXPLOITS:
        assert f"{name}:base=heuristic" in league


def test_league_hands_replay_from_their_seed_with_the_agent_asked(fit: ModuleType) -> None:
    first = fit.play_league("aberto", 4, 2, 5, 1, CHEAP_AGENT)
    again = fit.play_league("aberto", 4, 2, 5, 1, CHEAP_AGENT)
    _check_shapes(first, hands=2)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    # the two halves are seeds 5 and 6: the second half's numbers follow the first's
    lone = fit.rows("aberto", 4, 1, 6, fit.league_of(CHEAP_AGENT), agent=CHEAP_AGENT)
    np.testing.assert_array_equal(first[0][first[2] == 1], lone[0].astype(np.float32))


def test_kept_positions_are_read_back_instead_of_played(
    fit: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "positions.npz")
    played = fit.rows("aberto", 4, 2, 9, ("heuristic",))
    arrays = (played[0].astype(np.float32), played[1].astype(np.float32), played[2])
    kept = fit.positions(path, lambda: arrays, "positions")
    assert "2 hands" in capsys.readouterr().out

    def not_again() -> Any:
        raise AssertionError("positions kept in a file are not played again")

    back = fit.positions(path, not_again, "positions")
    assert f"read from {path}" in capsys.readouterr().out
    for a, b in zip(kept, back, strict=True):
        np.testing.assert_array_equal(a, b)


def test_the_script_writes_a_model_the_search_can_play(
    fit: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "value.npz"
    argv = ["fit_value.py", "--hands", "20", "--workers", "1", "--passes", "2"]
    monkeypatch.setattr(sys, "argv", [*argv, "--out", str(out)])
    fit.main()
    printed = capsys.readouterr().out
    assert "network after pass 2" in printed and f"wrote {out}" in printed
    model = load_value(out)
    assert (model.preset, model.players) == ("aberto", 4)
    bot = make_bot(f"mcts:value={out},time=0,iterations=2,depth=2", seed=0)
    game = Game("aberto", players=4, seed=1, match=False)
    for _ in range(12):
        legal = game.legal_actions()
        assert play_one(game, [bot] * 4, full=True) in legal


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--weight", "0"], "--weight is a number of times"),
        (["--league", "4", "--agent", "nobody"], "--agent"),
    ],
)
def test_the_script_refuses_a_bad_option_before_playing(
    fit: ModuleType,
    option: list[str],
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("torch")
    monkeypatch.setattr(sys, "argv", ["fit_value.py", *option, "--out", "unused.npz"])
    with pytest.raises(SystemExit) as stopped:
        fit.main()
    assert stopped.value.code == 2 and said in capsys.readouterr().err
