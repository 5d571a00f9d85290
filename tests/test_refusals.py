"""Refusals as data: every code the engine gives has its English wording and parameters."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

from buraco import Game, IllegalAction, RulesError
from buraco.actions import DRAW, TAKE_PILE, Action, Add, Discard, Meld, MoveWild, Place, TurnUp
from buraco.bots import make_bot
from buraco.bots.play import play_one
from buraco.cards import N_CODES
from buraco.refusals import ENGLISH, Refusal, english, placeholders
from buraco.rules import PRESETS, make_rules, rules_from_json

SOURCE = Path(__file__).resolve().parents[1] / "src" / "buraco"
CODE = re.compile(r'Refusal\(\s*f?"([a-z.{}-]+)"')


def codes_in_source() -> set[str]:
    """Every refusal code written in the engine's source (an f-string's braces kept)."""
    found: set[str] = set()
    for path in SOURCE.glob("*.py"):
        found.update(CODE.findall(path.read_text()))
    return found


def test_every_code_the_engine_writes_has_an_english_wording() -> None:
    written = codes_in_source()
    plain = {c for c in written if "{" not in c}
    assert len(plain) > 30  # the pattern still finds them
    assert plain - set(ENGLISH) == set()
    # the codes built from a variable: their every value is worded
    assert "{code}-initial" in written
    for base in ("pile-top.wild", "pile-top.unmeldable"):
        assert {base, f"{base}-initial"} <= set(ENGLISH)
    assert "meld-shape.not-consecutive-aces-{rules.aces}" in written
    assert {"meld-shape.not-consecutive-aces-low", "meld-shape.not-consecutive-aces-high"} <= set(
        ENGLISH
    )


def test_every_english_wording_is_used() -> None:
    from buraco.explain import _LAST_CARD

    written = codes_in_source() | set(_LAST_CARD.values())
    built = {
        "pile-top.wild",
        "pile-top.unmeldable",
        "pile-top.wild-initial",
        "pile-top.unmeldable-initial",
        "meld-shape.not-consecutive-aces-low",
        "meld-shape.not-consecutive-aces-high",
    }
    assert "option.json-{wanted}" in written
    built |= {f"option.json-{wanted}" for wanted in ("boolean", "whole", "list", "string")}
    assert set(ENGLISH) - written - built == set()


@pytest.mark.parametrize(
    ("call", "code", "params"),
    [
        (
            lambda: make_rules("aberto", players=4, hand_size=30),
            "options.pack",
            {"cards": 108, "needed": 4 * 30 + 11 + 11 + 1},
        ),
        (
            lambda: make_rules("aberto", players=2, hand_size=99),
            "option.range",
            {"option": "hand_size", "value": "99", "low": 2, "high": 30},
        ),
        (
            lambda: make_rules("italiano", players=6),
            "preset.players",
            {"preset": "italiano", "counts": ["2", "3", "4"], "players": 6},
        ),
        (
            lambda: make_rules("aberto", aces="middle"),
            "option.choice",
            {"option": "aces", "value": "'middle'", "values": ["both", "low", "high"]},
        ),
        (
            lambda: make_rules("aberto", upcard=True, first_card_choice=True),
            "options.upcard",
            {},
        ),
        (
            lambda: make_rules("aberto", pile_streak_limit=0, pile_top_meld=False),
            "options.pile-streak",
            None,
        ),
        (
            lambda: rules_from_json("aberto", 2, {"pile_open": 1}),
            "option.json-boolean",
            {"option": "pile_open", "value": "1"},
        ),
    ],
)
def test_a_rules_error_carries_its_refusal_as_data(call: Any, code: str, params: Any) -> None:
    # a front end words a bad option or a contradiction from its code and values, as it
    # words a refused action (docs/notation.md, refusals as data)
    with pytest.raises(RulesError) as caught:
        call()
    refusal = caught.value.refusal
    assert refusal is not None and refusal.code == code, caught.value
    if params is not None:
        assert dict(refusal.params) == params
    assert str(caught.value) == english(code, refusal.params)
    assert pickle.loads(pickle.dumps(caught.value)).refusal == refusal


def test_a_players_list_reads_as_alternatives() -> None:
    with pytest.raises(RulesError, match="played by 2, 3 or 4 players, not 6"):
        make_rules("italiano", players=6)
    with pytest.raises(RulesError, match="played by 2 or 4 players, not 3"):
        make_rules("aberto", players=3)


def test_a_template_names_its_parameters_and_lists_are_joined() -> None:
    assert placeholders(ENGLISH["add-fit"]) == {"card", "meld", "meld_cards"}
    assert english("add-fit", {"card": "9D", "meld": 1, "meld_cards": ["4S", "5S", "JK"]}) == (
        "9D does not fit meld 1 (4S 5S JK)"
    )
    with pytest.raises(KeyError):
        english("add-fit", {"card": "9D"})
    assert Refusal("meld-number.range", {"count": 2, "meld": 3}).rule == "meld-number"


def candidates(game: Game, rnd: random.Random) -> list[Action]:
    """Actions of every kind to try at a position, most of them illegal."""
    hand = [c for c in range(N_CODES) if game.hands[game.turn][c]]
    melds = len(game.melds[game.side_of[game.turn]])
    out: list[Action] = [DRAW, TAKE_PILE, TurnUp()]
    out += [Discard(c) for c in rnd.sample(range(N_CODES), 4) + hand[:3]]
    for _ in range(6):
        card = rnd.choice(hand) if hand and rnd.random() < 0.8 else rnd.randrange(N_CODES)
        out.append(Add(rnd.randrange(melds + 2), card, Place(rnd.randrange(len(Place)))))
        k = rnd.choice([2, 3, 3, 4])
        pool = hand if len(hand) >= k and rnd.random() < 0.85 else list(range(N_CODES))
        cards = rnd.sample(pool, k)
        out.append(Meld(tuple(sorted(cards) if rnd.random() < 0.7 else cards)))
    out.append(MoveWild(rnd.randrange(melds + 1), rnd.choice([Place.LOW, Place.HIGH])))
    return out


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_refusal_in_play_has_exactly_its_templates_parameters(preset: str) -> None:
    # what a front end words from its catalogs is exactly what the engine words in English:
    # the code, and the parameters its template names (no more, no fewer)
    rnd = random.Random(preset)
    seen: set[str] = set()
    for players in PRESETS[preset].players:
        game = Game(preset, players=players, seed=players, match=False)
        bots = [make_bot("greedy" if s % 2 else "heuristic", seed=s) for s in range(players)]
        steps = 0
        while not game.is_hand_over() and steps < 250:
            legal = game.legal_actions()
            for action in candidates(game, rnd):
                if game.is_legal(action):  # a set's cards in another order, say
                    continue
                refusal = game.refusal(action)
                assert refusal is not None, action
                assert set(refusal.params) == placeholders(ENGLISH[refusal.code]), refusal
                for value in refusal.params.values():
                    assert isinstance(value, int | str | list), refusal
                assert game.explain(action) == (refusal.message, refusal.rule)
                with pytest.raises(IllegalAction) as info:
                    game.apply(action)
                assert info.value.refusal == refusal and str(info.value) == refusal.message
                seen.add(refusal.code)
            wrong = (game.turn + 1) % players
            with pytest.raises(IllegalAction) as info:
                game.apply(legal[0], seat=wrong)
            assert info.value.refusal.params == {"turn": game.turn, "seat": wrong}
            play_one(game, bots)
            steps += 1
    assert len(seen) >= 12, sorted(seen)


def test_text_that_is_no_action_is_refused_as_notation_with_the_parser_text() -> None:
    game = Game("aberto", players=2, seed=3)
    refusal = game.refusal("discard ZZ")
    assert refusal is not None and refusal.code == "notation"
    assert refusal.message == refusal.params["text"]
    assert "unknown card 'ZZ'" in refusal.message


def test_every_code_is_listed_in_the_notation_docs_with_its_parameters() -> None:
    text = (SOURCE.parents[1] / "docs" / "notation.md").read_text()
    section = text[text.index("### Refusals as data") : text.index("### Other errors")]
    for code, template in ENGLISH.items():
        names = sorted(placeholders(template))
        listed = f"`{code}`" + (f" ({', '.join(names)})" if names else "")
        assert listed in section, f"docs/notation.md does not list {listed}"
