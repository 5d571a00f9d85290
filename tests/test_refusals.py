"""Refusals as data: every code the engine gives has its English wording and parameters."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

from buraco import BuracoError, Game, IllegalAction, RulesError, WordedError
from buraco.actions import (
    DRAW,
    FORMS,
    MAX_MELD_NUMBER,
    MAX_TEXT,
    TAKE_PILE,
    Action,
    Add,
    Discard,
    Draw,
    Meld,
    MoveWild,
    Place,
    TurnUp,
    parse_action,
)
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
            {"size": 108, "needed": 4 * 30 + 11 + 11 + 1},
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


def test_text_that_is_no_action_is_refused_by_the_notation_with_what_was_typed() -> None:
    # typed text is a person's: its refusal is data (a code of the rule notation and the
    # text quoted), worded by each front end; a wrong value is a program's, in English
    game = Game("aberto", players=2, seed=3)
    before = game.record()
    cases = {
        "discard ZZ": ("notation.card", {"given": "'ZZ'"}),
        "": ("notation.empty", {"forms": FORMS}),
        "dance": ("notation.unknown", {"given": "'dance'", "forms": FORMS}),
        "draw 3H": ("notation.no-cards", {"text": "'draw 3H'", "verb": "draw"}),
        "meld": ("notation.meld-cards", {"text": "'meld'"}),
        "discard 3H 4H": ("notation.discard-one", {"text": "'discard 3H 4H'"}),
        "add 1": ("notation.add-form", {"text": "'add 1'"}),
        "add 1 JK up": ("notation.placement", {"text": "'add 1 JK up'", "given": "'up'"}),
        "move 1 left": ("notation.move-form", {"text": "'move 1 left'"}),
        "add 0 3H": (
            "notation.meld-number",
            {"text": "'add 0 3H'", "most": MAX_MELD_NUMBER, "given": "'0'"},
        ),
        "x" * (MAX_TEXT + 1): ("notation.too-long", {"most": MAX_TEXT, "length": MAX_TEXT + 1}),
    }
    for text, (code, params) in cases.items():
        refusal = game.refusal(text)
        assert refusal is not None and refusal.rule == "notation", text
        assert (refusal.code, dict(refusal.params)) == (code, params)
        with pytest.raises(WordedError) as info:  # the same refusal as the parser's error
            parse_action(text)
        assert info.value.refusal == refusal and str(info.value) == refusal.message
        with pytest.raises(BuracoError):
            game.apply(text)
    # the errors cross processes (arena workers) whole: type, refusal, notes
    with pytest.raises(WordedError) as caught:
        game.apply("discard ZZ")
    caught.value.add_note("in a test")
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is type(caught.value) and again.refusal == caught.value.refusal
    assert str(again) == str(caught.value) and again.__notes__ == ["in a test"]
    card = game.refusal("discard ZZ")
    assert card is not None and card.message.startswith("unknown card 'ZZ': a card is a rank")
    # a control character typed stays quoted, escaped, in every wording
    refusal = game.refusal("dance\x1b[2J")
    assert refusal is not None and "\x1b" not in refusal.message
    assert refusal.params["given"] == repr("dance\x1b[2J")
    # an action value a program built wrongly: the English text as the one parameter
    refusal = game.refusal(Discard(99))
    assert refusal is not None and refusal.code == "notation"
    assert refusal.message == refusal.params["text"] and "not 99" in refusal.message
    assert game.record() == before


def test_every_code_is_listed_in_the_notation_docs_with_its_parameters() -> None:
    text = (SOURCE.parents[1] / "docs" / "notation.md").read_text()
    section = text[text.index("### Refusals as data") : text.index("### Other errors")]
    for code, template in ENGLISH.items():
        names = sorted(placeholders(template))
        listed = f"`{code}`" + (f" ({', '.join(names)})" if names else "")
        assert listed in section, f"docs/notation.md does not list {listed}"


def test_an_add_that_could_go_two_ways_is_refused_with_its_choices() -> None:
    # RULINGS 5: the player chooses where a freed wild goes (either end) when both are
    # possible, so the text must say which; random us 6 play comes to such an add
    game = Game("us", players=6, seed=13, match=False)
    rng = random.Random(13)
    while not game.is_hand_over():
        legal = game.legal_actions()
        adds: dict[tuple[int, int], list[Add]] = {}
        for a in legal:
            if isinstance(a, Add):
                adds.setdefault((a.meld, a.card), []).append(a)
        two = [group for group in adds.values() if len(group) > 1]
        if two:
            bare = str(two[0][0]).rsplit(" ", 1)[0]  # 'add N CARD' with no placement
            refusal = game.refusal(bare)
            assert refusal is not None and refusal.code == "notation.ambiguous"
            assert refusal.params == {"given": f"'{bare}'", "choices": [str(a) for a in two[0]]}
            assert refusal.message.startswith(f"'{bare}' could go more than one way: say '")
            return
        plays = [a for a in legal if not isinstance(a, Draw | Discard)]
        game.apply(rng.choice(plays if plays and rng.random() < 0.3 else legal))
    pytest.fail("no add that could go two ways came up")
