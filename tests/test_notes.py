"""The notes of a hand's log as data: each a code of NOTES, worded from its parameters."""

from __future__ import annotations

from collections import Counter

import pytest

from buraco import Game
from buraco.bots import make_bot
from buraco.bots.play import play_hand
from buraco.notes import NOTES, note
from buraco.refusals import placeholders
from buraco.rules import PRESETS
from buraco.views import seat_view


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_note_in_play_is_a_code_with_exactly_its_parameters(preset: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(6):
        players = PRESETS[preset].players[seed % len(PRESETS[preset].players)]
        game = Game(preset, players=players, seed=seed, match=False)
        play_hand(game, [make_bot("heuristic", seed=s) for s in range(players)])
        for e in game.events:
            if not e.note:
                assert not e.code and not e.params
                continue
            params = dict(e.params)
            assert set(params) == placeholders(NOTES[e.code]), e
            assert e.note == NOTES[e.code].format(**params)
            seen[e.code] += 1
        # a seat's view carries them as data too
        view = seat_view(game, 0)
        noted = [x.to_dict() for x in view.events if x.code]
        assert [x["note"] for x in noted] == [e.code for e in game.events if e.code]
    assert seen["went-out"] + seen["pot-taken.discard"] + seen["pot-taken.meld"] > 0, seen


def test_a_note_is_worded_from_its_code() -> None:
    said = note("opening-short-raised", value=40, need=75, now=90)
    assert said["note"] == "opening short: 40 of 75; cards returned; the minimum is now 90"
    assert said["code"] == "opening-short-raised" and dict(said["params"])["now"] == 90
    with pytest.raises(KeyError):
        note("opening-short", value=40)
