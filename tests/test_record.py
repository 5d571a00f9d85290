"""Game records: round trips, malformed records, illegal actions, tampered results."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from buraco import (
    Discard,
    Draw,
    Game,
    IllegalAction,
    RecordError,
    ReplayError,
    RulesError,
    card_name,
    make_rules,
    replay,
)
from buraco.cards import N_CODES
from buraco.record import dumps, load, save

Record = dict[str, Any]


def play_out(game: Game, rng: random.Random, steps: int | None = None) -> Game:
    """Play random legal actions (preferring melds and adds) until the game is over."""
    done = 0
    while not game.is_over() and (steps is None or done < steps):
        if game.is_hand_over():
            game.next_hand()
            continue
        legal = game.legal_actions()
        plays = [a for a in legal if not isinstance(a, Draw | Discard)]
        game.apply(rng.choice(plays if plays and rng.random() < 0.5 else legal))
        done += 1
    return game


def single_hand(preset: str = "aberto", players: int = 2, seed: int = 11) -> Game:
    return play_out(Game(preset, players=players, seed=seed, match=False), random.Random(seed))


def match_game(seed: int = 4) -> Game:
    game = Game("aberto", players=4, seed=seed, target=1500)
    return play_out(game, random.Random(seed))


@pytest.fixture(scope="module")
def finished() -> Game:
    return single_hand()


@pytest.fixture(scope="module")
def match() -> Game:
    game = match_game()
    assert game.is_match_over()
    assert len(game.results) >= 2, "the match should take several hands"
    return game


def same_game(a: Game, b: Game) -> None:
    assert a.events == b.events
    assert a.scores() == b.scores()
    assert a.totals == b.totals
    assert a.winner == b.winner
    assert a.record() == b.record()


# ----------------------------------------------------------------------------------------
# round trips
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players"),
    [("aberto", 2), ("fechado", 4), ("us", 4), ("us", 6), ("netcartas", 2), ("italiano", 3)],
)
def test_round_trip_through_text_dict_and_file(preset: str, players: int, tmp_path: Path) -> None:
    game = single_hand(preset, players)
    assert game.is_hand_over()
    text = dumps(game)
    data = load(text)
    assert data == game.record() == json.loads(text)
    assert load(dumps(game, indent=None)) == data
    assert "\n" not in dumps(game, indent=None)
    same_game(replay(text), game)
    same_game(replay(data), game)
    path = tmp_path / "game.json"
    save(game, path)
    assert load(path) == data
    same_game(replay(path), game)
    same_game(replay(str(path)), game)


def test_record_fields(finished: Game) -> None:
    rec = finished.record()
    assert rec["format"] == "buraco-record"
    assert rec["version"] == 1
    assert rec["rules"] == {"preset": "aberto", "players": 2, "options": {}}
    assert rec["match"] is False
    assert rec["seed"] == 11
    assert rec["names"] == ["Player 1", "Player 2"]
    (hand,) = rec["hands"]
    assert hand["dealer"] == finished.dealer == rec["first_dealer"]
    assert len(hand["deck"].split()) == 108
    assert hand["actions"][0] == [(finished.dealer + 1) % 2, "draw"]
    assert hand["result"]["scores"] == [s.as_dict() for s in finished.scores()]
    assert rec["totals"] == finished.totals


def test_options_and_names_round_trip() -> None:
    game = Game(
        "fechado",
        players=4,
        seed=5,
        match=False,
        target=2000,
        round_scores=True,
        names=["Ana", "Bia", "Caio", "Duda"],
    )
    play_out(game, random.Random(5))
    rec = game.record()
    assert rec["rules"]["options"] == {"target": 2000, "round_scores": True}
    again = replay(rec)
    assert again.rules == game.rules
    assert list(again.names) == ["Ana", "Bia", "Caio", "Duda"]
    same_game(again, game)


def test_match_round_trip(match: Game) -> None:
    rec = match.record()
    assert len(rec["hands"]) == len(match.results)
    assert [h["dealer"] for h in rec["hands"]] == [
        (match.first_dealer + i) % 4 for i in range(len(rec["hands"]))
    ]
    again = replay(json.dumps(rec))
    same_game(again, match)
    assert [r.as_dict() for r in again.results] == [r.as_dict() for r in match.results]


def test_hand_in_progress_round_trip() -> None:
    game = play_out(Game("us", players=4, seed=8, match=False), random.Random(8), steps=60)
    assert not game.is_hand_over()
    rec = game.record()
    assert "result" not in rec["hands"][0]
    again = replay(rec)
    assert again.to_move == game.to_move
    assert again.legal_actions() == game.legal_actions()
    assert [again.view(s) for s in range(4)] == [game.view(s) for s in range(4)]
    # and play on identically
    for g in (game, again):
        play_out(g, random.Random(1))
    same_game(again, game)


def test_seed_is_informative_only(finished: Game) -> None:
    rec = finished.record()
    rec["seed"] = 999
    again = replay(rec)
    assert again.events == finished.events
    assert again.scores() == finished.scores()


def test_deck_may_be_a_list_of_names(finished: Game) -> None:
    rec = finished.record()
    rec["hands"][0]["deck"] = rec["hands"][0]["deck"].split()
    same_game_events = replay(rec).events
    assert same_game_events == finished.events


# ----------------------------------------------------------------------------------------
# malformed records
# ----------------------------------------------------------------------------------------


def _set(path: str, value: Any) -> Callable[[Record], None]:
    """A mutation setting a field given as a dotted path (numbers index lists)."""

    def mutate(rec: Record) -> None:
        *parents, last = path.split(".")
        node: Any = rec
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value

    return mutate


def _delete(path: str) -> Callable[[Record], None]:
    def mutate(rec: Record) -> None:
        *parents, last = path.split(".")
        node: Any = rec
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        del node[last]

    return mutate


def _bad_card_in_deck(rec: Record) -> None:
    cards = rec["hands"][0]["deck"].split()
    cards[17] = "1Z"
    rec["hands"][0]["deck"] = " ".join(cards)


def _card_twice_in_deck(rec: Record) -> None:
    cards = rec["hands"][0]["deck"].split()
    cards[3] = cards[4] if cards[4] != cards[3] else cards[5]
    rec["hands"][0]["deck"] = " ".join(cards)


def _short_deck(rec: Record) -> None:
    rec["hands"][0]["deck"] = " ".join(rec["hands"][0]["deck"].split()[:-1])


def _wrong_dealer(rec: Record) -> None:
    rec["hands"][0]["dealer"] = (rec["hands"][0]["dealer"] + 1) % rec["rules"]["players"]


MALFORMED: list[tuple[str, Callable[[Record], None], tuple[str, ...]]] = [
    ("wrong format", _set("format", "chess-pgn"), ("format", "buraco-record")),
    ("no format", _delete("format"), ("format",)),
    ("wrong version", _set("version", 2), ("version",)),
    ("rules not an object", _set("rules", "aberto"), ("rules",)),
    ("unknown preset", _set("rules.preset", "canasta"), ("rules", "canasta")),
    ("preset not a name", _set("rules.preset", 3), ("rules.preset",)),
    ("players not a number", _set("rules.players", "two"), ("rules.players",)),
    ("players not allowed", _set("rules.players", 3), ("rules", "3")),
    ("unknown option", _set("rules.options", {"colour": "red"}), ("rules", "colour")),
    ("options not an object", _set("rules.options", []), ("rules.options",)),
    ("missing hands", _delete("hands"), ("hands",)),
    ("no hands", _set("hands", []), ("hands",)),
    ("hand not an object", _set("hands.0", [1, 2]), ("hands[0]",)),
    ("dealer not a seat", _set("hands.0.dealer", "north"), ("hands[0].dealer",)),
    ("wrong dealer", _wrong_dealer, ("hands[0].dealer",)),
    ("cut not a number", _set("hands.0.cut", "none"), ("hands[0].cut",)),
    ("no deck", _delete("hands.0.deck"), ("hands[0].deck",)),
    ("deck of numbers", _set("hands.0.deck", list(range(N_CODES))), ("hands[0].deck",)),
    ("unknown card in deck", _bad_card_in_deck, ("hands[0].deck", "1Z")),
    ("card twice in deck", _card_twice_in_deck, ("deck", "pack")),
    ("deck too short", _short_deck, ("deck", "pack")),
    ("actions not a list", _set("hands.0.actions", "draw"), ("hands[0].actions",)),
    ("action not a pair", _set("hands.0.actions.2", [0]), ("hands[0].actions[2]",)),
    ("action text only", _set("hands.0.actions.1", "draw"), ("hands[0].actions[1]",)),
    ("action seat a string", _set("hands.0.actions.0", ["0", "draw"]), ("hands[0].actions[0]",)),
    ("action not text", _set("hands.0.actions.3", [0, 7]), ("hands[0].actions[3]",)),
    ("names not a list", _set("names", "Ana"), ("names",)),
    ("wrong number of names", _set("names", ["Ana"]), ("names",)),
    ("start scores not a list", _set("start_scores", 0), ("start_scores",)),
    ("wrong number of start scores", _set("start_scores", [0, 0, 0]), ("scores",)),
]


@pytest.mark.parametrize(
    ("mutate", "words"), [(m, w) for _, m, w in MALFORMED], ids=[n for n, _, _ in MALFORMED]
)
def test_malformed_record_names_the_field(
    finished: Game, mutate: Callable[[Record], None], words: tuple[str, ...]
) -> None:
    rec = copy.deepcopy(finished.record())
    mutate(rec)
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert not isinstance(info.value, ReplayError)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    # the same through JSON text
    with pytest.raises(RecordError, match="record"):
        replay(json.dumps(rec))


@pytest.mark.parametrize("record", [[], "text", 3, None], ids=["list", "string", "int", "null"])
def test_record_that_is_not_an_object(record: Any, tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(RecordError, match="JSON object"):
        load(path)
    with pytest.raises(RecordError, match="JSON object"):
        replay(str(path))


def test_invalid_json_text() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        replay('{"format": "buraco-record", ')


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read record"):
        replay(tmp_path / "nowhere.json")


def test_actions_that_end_before_the_hand_with_a_next_hand(match: Game) -> None:
    rec = copy.deepcopy(match.record())
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:-3]
    del rec["hands"][0]["result"]
    with pytest.raises(RecordError, match=r"hands\[0\]"):
        replay(rec)


def test_result_on_a_hand_that_is_not_over(finished: Game) -> None:
    rec = copy.deepcopy(finished.record())
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:10]
    del rec["totals"]
    with pytest.raises(RecordError, match=r"hands\[0\].*not over"):
        replay(rec)


def test_hand_after_the_match_is_over(match: Game) -> None:
    rec = copy.deepcopy(match.record())
    extra = copy.deepcopy(rec["hands"][-1])
    extra["dealer"] = (extra["dealer"] + 1) % 4
    rec["hands"].append(extra)
    with pytest.raises(RecordError, match=rf"hands\[{len(rec['hands']) - 1}\].*match was over"):
        replay(rec)


def test_first_dealer_not_a_number(finished: Game) -> None:
    rec = copy.deepcopy(finished.record())
    rec["first_dealer"] = "north"
    with pytest.raises(RecordError, match="first_dealer"):
        replay(rec)


def test_start_scores_not_numbers(finished: Game) -> None:
    rec = copy.deepcopy(finished.record())
    rec["start_scores"] = ["zero", "zero"]
    with pytest.raises(RecordError, match="start_scores"):
        replay(rec)


def test_result_not_an_object(finished: Game) -> None:
    rec = copy.deepcopy(finished.record())
    rec["hands"][0]["result"] = [1, 2]
    with pytest.raises(RecordError, match=r"hands\[0\].result"):
        replay(rec)


# ----------------------------------------------------------------------------------------
# illegal actions in a record
# ----------------------------------------------------------------------------------------


def game_before(rec: Record, hand: int, index: int) -> Game:
    """The record's game just before action ``index`` of hand ``hand``."""
    cut = copy.deepcopy(rec)
    cut["hands"] = cut["hands"][: hand + 1]
    cut["hands"][hand]["actions"] = cut["hands"][hand]["actions"][:index]
    cut["hands"][hand].pop("result", None)
    for key in ("totals", "winner"):
        cut.pop(key, None)
    return replay(cut)


def not_held(game: Game) -> int:
    seat = game.to_move
    assert seat is not None
    return next(c for c in range(N_CODES) if not game.hands[seat][c])


@pytest.mark.parametrize("index", [0, 1, 5, 17, 40, -1])
def test_illegal_action_is_pointed_at(finished: Game, index: int) -> None:
    rec = copy.deepcopy(finished.record())
    actions = rec["hands"][0]["actions"]
    index = index % len(actions)
    before = game_before(rec, 0, index)
    seat, _ = actions[index]
    text = f"discard {card_name(not_held(before))}"
    with pytest.raises(IllegalAction) as expected:
        before.clone().apply(text, seat=seat)
    actions[index] = [seat, text]
    with pytest.raises(ReplayError) as info:
        replay(rec)
    err = info.value
    assert (err.hand, err.index, err.seat, err.action) == (0, index, seat, text)
    assert err.reason == str(expected.value)
    assert f"action {index + 1}" in str(err) and "hand 1" in str(err)


def test_illegal_action_in_a_later_hand(match: Game) -> None:
    rec = copy.deepcopy(match.record())
    hand = len(rec["hands"]) - 1
    actions = rec["hands"][hand]["actions"]
    index = len(actions) // 2
    seat = actions[index][0]
    # an action of the draw phase in the play phase, or the other way round
    before = game_before(rec, hand, index)
    bad = "take-pile" if before.phase.name != "DRAW" else f"discard {card_name(not_held(before))}"
    actions[index] = [seat, bad]
    with pytest.raises(ReplayError) as info:
        replay(rec)
    assert (info.value.hand, info.value.index, info.value.action) == (hand, index, bad)
    assert info.value.reason


@pytest.mark.parametrize("text", ["discard 1C", "fly", "meld", "add 0 5H"])
def test_malformed_action_text_is_pointed_at(finished: Game, text: str) -> None:
    rec = copy.deepcopy(finished.record())
    rec["hands"][0]["actions"][3][1] = text
    with pytest.raises(ReplayError) as info:
        replay(rec)
    assert (info.value.hand, info.value.index, info.value.action) == (0, 3, text)
    assert info.value.reason


@pytest.mark.parametrize("index", [0, 2, 9])
def test_wrong_seat_is_refused(finished: Game, index: int) -> None:
    rec = copy.deepcopy(finished.record())
    actions = rec["hands"][0]["actions"]
    seat, text = actions[index]
    actions[index] = [1 - seat, text]
    with pytest.raises(ReplayError) as info:
        replay(rec)
    err = info.value
    assert (err.hand, err.index, err.seat, err.action) == (0, index, 1 - seat, text)
    assert f"seat {seat}" in err.reason


def test_seat_not_at_the_table_is_refused(finished: Game) -> None:
    rec = copy.deepcopy(finished.record())
    rec["hands"][0]["actions"][0][0] = 7
    with pytest.raises(ReplayError) as info:
        replay(rec)
    assert (info.value.index, info.value.seat) == (0, 7)


def test_extra_action_after_the_hand_ends(finished: Game) -> None:
    rec = copy.deepcopy(finished.record())
    rec["hands"][0]["actions"].append([0, "draw"])
    n = len(rec["hands"][0]["actions"])
    with pytest.raises(ReplayError) as info:
        replay(rec)
    assert info.value.index == n - 1
    assert "over" in info.value.reason


# ----------------------------------------------------------------------------------------
# tampered results
# ----------------------------------------------------------------------------------------


def _add_to_score(rec: Record) -> None:
    score = rec["hands"][0]["result"]["scores"][0]
    score["melds"] += 10
    score["total"] += 10


def _swap_scores(rec: Record) -> None:
    scores = rec["hands"][0]["result"]["scores"]
    scores[0]["total"], scores[1]["total"] = scores[1]["total"] + 5, scores[0]["total"]


def _tamper_totals(rec: Record) -> None:
    rec["totals"] = [t + 100 for t in rec["totals"]]


def _tamper_hand_totals(rec: Record) -> None:
    rec["hands"][0]["result"]["totals"][0] += 100


def _tamper_ended_by(rec: Record) -> None:
    result = rec["hands"][0]["result"]
    result["ended_by"] = "blocked" if result["ended_by"] != "blocked" else "stock"


def _tamper_canastras(rec: Record) -> None:
    rec["hands"][0]["result"]["scores"][0]["canastras"].append("clean")


TAMPERED: list[tuple[str, Callable[[Record], None], str]] = [
    ("score part", _add_to_score, r"hands\[0\]\.result"),
    ("score totals", _swap_scores, r"hands\[0\]\.result"),
    ("canastras", _tamper_canastras, r"hands\[0\]\.result"),
    ("match totals", _tamper_totals, "totals"),
    ("hand totals", _tamper_hand_totals, r"hands\[0\]\.result"),
    ("ended by", _tamper_ended_by, r"hands\[0\]\.result"),
]


@pytest.mark.parametrize(
    ("mutate", "where"), [(m, w) for _, m, w in TAMPERED], ids=[n for n, _, _ in TAMPERED]
)
def test_tampered_result_is_detected(
    finished: Game, mutate: Callable[[Record], None], where: str
) -> None:
    rec = copy.deepcopy(finished.record())
    mutate(rec)
    assert rec != finished.record()
    with pytest.raises(RecordError, match=where) as info:
        replay(rec)
    assert not isinstance(info.value, ReplayError)
    # without checking results the record replays to the true scores
    again = replay(rec, check_results=False)
    assert again.scores() == finished.scores()
    assert again.totals == finished.totals


def test_tampered_winner_is_detected(match: Game) -> None:
    rec = copy.deepcopy(match.record())
    assert rec["winner"] == match.winner is not None
    rec["winner"] = 1 - match.winner
    with pytest.raises(RecordError, match="winner"):
        replay(rec)
    assert replay(rec, check_results=False).winner == match.winner


def test_tampered_result_of_an_earlier_hand(match: Game) -> None:
    rec = copy.deepcopy(match.record())
    rec["hands"][0]["result"]["scores"][1]["hand"] -= 5
    rec["hands"][0]["result"]["scores"][1]["total"] -= 5
    with pytest.raises(RecordError, match=r"hands\[0\]\.result"):
        replay(rec)


def test_a_record_cannot_name_the_preset_or_players_among_its_options() -> None:
    # the options of a record are rule options only: 'preset' and 'players' have their own fields
    game = Game("aberto", players=2, seed=1, match=False)
    for key, value in (("preset", "us"), ("players", 4)):
        record = game.record()
        record["rules"]["options"] = {key: value}
        with pytest.raises(RecordError, match="record rules"):
            replay(record)
    with pytest.raises(RulesError, match="unknown option 'preset'"):
        make_rules("aberto", **{"preset": "us"})  # type: ignore[arg-type]


def test_the_play_object_of_a_saved_match_is_checked_and_not_replayed() -> None:
    # buraco play saves who plays each seat; the replay does not depend on it
    game = Game("aberto", players=2, seed=1, match=False)
    record = game.record()
    record["play"] = {"human": 0, "bots": ["heuristic"]}
    assert replay(record).events == game.events
    for bad in ({"human": "me"}, {"bots": [5]}, {"cheat": True}, [0]):
        record["play"] = bad
        with pytest.raises(RecordError, match="record play: must be"):
            replay(record)


# ----- timed matches: stopped after a hand -------------------------------------------------------


def _one_hand_of_a_match(seed: int = 4) -> Game:
    g = Game("aberto", players=2, seed=seed)
    rng = random.Random(seed)
    while not g.is_hand_over():
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_a_stopped_match_is_over_and_won_by_the_side_ahead() -> None:
    g = _one_hand_of_a_match()
    assert not g.is_over()
    leader = max(range(2), key=lambda s: g.totals[s])
    assert g.totals[leader] != g.totals[1 - leader]
    g.stop_match()
    assert g.is_over() and g.stopped and g.winner == leader
    with pytest.raises(IllegalAction, match="match is over"):
        g.next_hand()


def test_a_stopped_match_level_at_the_top_is_drawn() -> None:
    g = _one_hand_of_a_match()
    g.totals = [g.totals[0], g.totals[0]]
    g.stop_match()
    assert g.is_over() and g.winner is None


def test_a_match_is_stopped_only_between_hands_of_a_match() -> None:
    g = Game("aberto", players=2, seed=4)
    g.apply("draw")
    before = g.record()
    with pytest.raises(IllegalAction, match="between hands"):
        g.stop_match()
    assert g.record() == before and not g.stopped
    single = Game("aberto", players=2, seed=4, match=False)
    with pytest.raises(IllegalAction, match="single hand"):
        single.stop_match()


def test_a_stopped_match_round_trips_and_a_false_stop_is_refused() -> None:
    g = _one_hand_of_a_match()
    g.stop_match()
    rec = g.record()
    assert rec["stopped"] is True
    again = replay(rec)
    assert again.is_over() and again.winner == g.winner and again.stopped
    # not stopped: the match goes on, so the written winner no longer holds
    rec_go_on = copy.deepcopy(rec)
    del rec_go_on["stopped"]
    with pytest.raises(RecordError, match="winner"):
        replay(rec_go_on)
    for bad in ("yes", 1):
        with pytest.raises(RecordError, match="stopped: must be true or false"):
            replay({**rec, "stopped": bad})
    mid = Game("aberto", players=2, seed=4)
    mid.apply("draw")
    with pytest.raises(RecordError, match="record stopped"):
        replay({**mid.record(), "stopped": True, "winner": None})
