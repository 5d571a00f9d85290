"""The controller: human actions with the engine's reasons, bots, hints, saving, resuming."""

import json
from pathlib import Path

import pytest

from buraco import make_rules
from buraco.actions import Add, Discard, Meld, Place
from buraco.cards import parse_cards
from buraco.errors import RecordError
from buraco.tui.controller import HUMAN, Controller, bot_names, check_bot_specs
from tui.driver import play_hand_directly, stacked

HAND = "5H 6H 7H 8H 9H 3C 4C JK KS QD 9D"


def test_seats_the_human_first_and_a_bot_everywhere_else(tmp_path: Path) -> None:
    c = Controller.new(make_rules("us", players=6), ["greedy", "random"] * 2 + ["heuristic"], 5)
    assert c.names == ("You", "Ana", "Bia", "Caio", "Duda", "Edu")
    assert c.bots[HUMAN] is None
    assert [type(b).__name__ for b in c.bots[1:]] == [
        "GreedyBot",
        "RandomBot",
        "GreedyBot",
        "RandomBot",
        "HeuristicBot",
    ]
    assert bot_names(3) == ("You", "Ana", "Bia")


@pytest.mark.parametrize(
    ("preset", "players"),
    [("italiano", 3), ("us", 6), ("fechado", 4), ("netcartas", 2)],
)
def test_a_hand_plays_to_its_end_at_every_table_size(
    tmp_path: Path, preset: str, players: int
) -> None:
    c = Controller.new(make_rules(preset, players=players), ["greedy"], 11, tmp_path / "m.json")
    play_hand_directly(c)
    view = c.view()
    assert c.hand_over and view.phase == "over"
    assert view.scores is not None and len(view.scores) == c.rules.sides
    assert len(c.results()) == 1
    # the saved match replays to the same scores
    assert Controller.resume(c.save()).results()[0].scores == c.results()[0].scores


def test_the_view_shows_only_the_humans_own_cards() -> None:
    c = Controller.new(make_rules("aberto", players=4), ["greedy"], 3)
    view = c.view()
    assert view.seat == HUMAN
    assert sorted(view.hand) == sorted(c.game.hand(HUMAN))
    assert view.hand_sizes == tuple(len(c.game.hand(s)) for s in range(4))


def test_refusals_give_the_engines_reason_and_change_nothing(tmp_path: Path) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    before = c.record()
    out = c.play("discard 9D")
    assert not out.ok
    assert out.message == "start your turn by drawing from the stock or taking the pile"
    assert c.play("discard XX").message.startswith("unknown card 'XX'")
    assert c.play("dance").message.startswith("unknown action 'dance'")
    assert c.record() == before
    assert c.play("draw").ok
    after_draw = c.record()
    assert c.play("meld 5H 6H").message == "not a valid meld: a meld needs at least 3 cards"
    assert c.play("discard 2S").message == "you do not hold 2♠"  # cards as the board shows them
    assert c.record() == after_draw


def test_it_is_refused_when_it_is_a_bots_turn(tmp_path: Path) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    assert c.play("draw").ok and c.play("discard 9D").ok
    assert not c.human_to_move
    assert c.play("draw").message == "wait: it is Ana's turn"
    assert c.hint() is None
    turn = c.bot_turn()
    assert turn is not None and turn[0] == 1


def test_meld_choices_offer_each_place_of_the_wild(tmp_path: Path) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    c.play("draw")
    choices = c.meld_choices(parse_cards("JK 3C 4C"))
    assert [str(m) for m in choices] == ["meld JK 3C 4C", "meld 3C 4C JK"]
    assert c.meld_choices(parse_cards("7H 5H 6H")) == (Meld(tuple(parse_cards("5H 6H 7H"))),)
    assert c.meld_refusal(parse_cards("5H 6H 9D")) == (
        "not a valid meld: a run needs cards of one suit (a wild aside)"
    )
    assert c.meld_refusal(parse_cards("5S 6S 7S")) == "you do not hold 5♠ 6♠ 7♠ (for this meld)"


def test_adds_are_planned_in_an_order_that_fits_and_ask_where_a_wild_goes(
    tmp_path: Path,
) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    c.play("draw")
    assert c.play("meld 5H 6H 7H").ok
    before = c.record()
    plan = c.plan_adds(0, parse_cards("9H 8H"))
    assert [str(a) for a in plan.actions] == ["add 1 8H high", "add 1 9H high"]
    ask = c.plan_adds(0, parse_cards("JK"))
    assert [a.place for a in ask.ask] == [Place.LOW, Place.HIGH] and not ask.actions
    chosen = c.plan_adds(0, parse_cards("JK"), {parse_cards("JK")[0]: Place.HIGH})
    assert chosen.actions == (Add(0, 52, Place.HIGH),)
    refused = c.plan_adds(0, parse_cards("KS"))
    assert refused.refusal == "K♠ does not fit meld 1 (5♥ 6♥ 7♥)"
    assert c.plan_adds(1, parse_cards("8H")).refusal == "your side has melds 1 to 1, not 2"
    assert c.record() == before  # planning changes nothing
    assert c.play_all(plan.actions).ok
    assert [m.cards for m in c.view().melds[0]] == [tuple(parse_cards("5H 6H 7H 8H 9H"))]


def test_the_hint_is_a_legal_action_of_the_heuristic_bot(tmp_path: Path) -> None:
    c = stacked(tmp_path, hands=[HAND], stock="TH")
    c.play("draw")
    hint = c.hint()
    assert hint is not None and hint in c.view().legal
    assert c.hint() == hint  # the same position, the same hint


def test_save_and_resume_reproduce_the_position_and_the_bots(tmp_path: Path) -> None:
    c = Controller.new(make_rules("fechado", players=4), ["greedy", "random", "greedy"], 8)
    c.save_path = tmp_path / "m.json"
    for _ in range(3):
        while not c.human_to_move:
            turn = c.bot_turn()
            assert turn is not None
            seat, bot, view, legal = turn
            c.apply_bot(seat, bot.choose(view, legal))
        legal = c.view().legal
        assert c.play(legal[0]).ok
        if not c.human_to_move:
            continue
        assert c.play(next(a for a in c.view().legal if isinstance(a, Discard))).ok
    path = c.save()
    data = json.loads(path.read_text())
    assert data["play"] == {"human": 0, "bots": ["greedy", "random", "greedy"]}
    again = Controller.resume(path)
    assert again.view().to_dict() == c.view().to_dict()
    assert again.bot_specs == ["greedy", "random", "greedy"]
    assert again.save_path == path
    assert Controller.resume(path, ["heuristic"]).bot_specs == ["heuristic"] * 3
    # a record written by another tool resumes with heuristic bots
    data.pop("play")
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(data))
    assert Controller.resume(plain).bot_specs == ["heuristic"] * 3


def test_resume_refuses_a_malformed_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "buraco-record"}')
    with pytest.raises(RecordError, match="version"):
        Controller.resume(bad)
    c = Controller.new(make_rules("aberto", players=2), ["greedy"], 1, tmp_path / "m.json")
    data = c.record()
    data["play"]["bots"] = ["grumpy"]
    bad.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="unknown bot 'grumpy'"):
        Controller.resume(bad)


def test_bot_specs_are_checked() -> None:
    assert check_bot_specs(["greedy"], 4) == ["greedy"] * 3
    assert check_bot_specs(["greedy", "mcts:iterations=5", "random"], 4)[1] == "mcts:iterations=5"
    with pytest.raises(ValueError, match="names 2 bots but 4 players leave 3 bot seat"):
        check_bot_specs(["greedy", "random"], 4)
    with pytest.raises(ValueError, match="unknown bot"):
        check_bot_specs(["grumpy"], 2)
    with pytest.raises(ValueError, match="at least one"):
        check_bot_specs([" "], 2)


def test_next_hand_deals_and_the_match_goes_on(tmp_path: Path) -> None:
    c = Controller.new(make_rules("aberto", players=2), ["greedy"], 2, tmp_path / "m.json")
    play_hand_directly(c)
    c.next_hand()
    assert not c.hand_over and c.view().hand_number == 1
