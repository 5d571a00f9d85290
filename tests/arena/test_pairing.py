import json
from collections import Counter
from pathlib import Path

import pytest

from buraco import make_rules
from buraco.arena import make_spec, play_deal, tables_for
from buraco.arena.pairing import arrangements_for, bot_labels, seat_bots


def test_two_sides_play_each_deal_both_ways() -> None:
    (table,) = tables_for(["greedy", "random"], sides=2)
    assert table.bots == (0, 1)
    assert [table.side_bots(r) for r in range(2)] == [(0, 1), (1, 0)]
    assert table.pairs() == [(0, 1)]


def test_two_players_one_seat_per_side() -> None:
    assert seat_bots((0, 1), players=2) == (0, 1)
    assert seat_bots((1, 0), players=2) == (1, 0)


def test_four_players_each_bot_fills_both_seats_of_its_side() -> None:
    rules = make_rules("aberto", players=4)
    assert seat_bots((0, 1), players=4) == (0, 1, 0, 1)
    assert seat_bots((1, 0), players=4) == (1, 0, 1, 0)
    for side_bots in ((0, 1), (1, 0)):
        seated = seat_bots(side_bots, players=4)
        assert all(seated[s] == side_bots[rules.side_of(s)] for s in range(4))


def test_six_players_in_two_teams() -> None:
    assert seat_bots((1, 0), players=6) == (1, 0, 1, 0, 1, 0)


def test_three_sides_with_three_bots_play_every_order() -> None:
    (table,) = tables_for(["a", "b", "c"], sides=3)
    assert table.bots == (0, 1, 2)
    arrangements = table.arrangements
    assert len(arrangements) == len(set(arrangements)) == 6
    for side in range(3):  # every bot holds every side equally often
        assert Counter(a[side] for a in arrangements) == {0: 2, 1: 2, 2: 2}
    # and sits right after each other bot equally often (it sees that bot's discards first)
    after = Counter((a[s], a[(s + 1) % 3]) for a in arrangements for s in range(3))
    assert set(after.values()) == {3} and len(after) == 6
    assert table.pairs() == [(0, 1), (0, 2), (1, 2)]
    assert seat_bots(arrangements[0], players=6) == (0, 1, 2, 0, 1, 2)


def test_three_sides_with_two_bots_fill_the_third_side_both_ways() -> None:
    (table,) = tables_for(["a", "b"], sides=3)
    arrangements = table.arrangements
    assert arrangements == arrangements_for(2, 3)
    assert len(set(arrangements)) == 6
    assert sorted(Counter(a).get(1, 0) for a in arrangements) == [1, 1, 1, 2, 2, 2]
    for side in range(3):
        assert Counter(a[side] for a in arrangements) == {0: 3, 1: 3}


def test_round_robin_of_three_bots_on_two_sides() -> None:
    tables = tables_for(["greedy", "random", "heuristic"], sides=2)
    assert [t.bots for t in tables] == [(0, 1), (0, 2), (1, 2)]
    assert [t.index for t in tables] == [0, 1, 2]
    assert all(t.arrangements == ((0, 1), (1, 0)) for t in tables)
    assert tables[2].side_bots(1) == (2, 1)


def test_more_than_three_bots_on_three_sides_meet_in_every_trio() -> None:
    tables = tables_for(["a", "b", "c", "d"], sides=3)
    assert [t.bots for t in tables] == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]


def test_an_arena_needs_two_bots() -> None:
    with pytest.raises(ValueError, match="at least two bots"):
        tables_for(["greedy"], sides=2)


def test_repeated_bots_get_numbered_labels() -> None:
    assert bot_labels(["greedy", "greedy", "random", "greedy"]) == [
        "greedy",
        "greedy#2",
        "random",
        "greedy#3",
    ]


def test_a_deal_seats_the_bots_as_paired_with_the_same_cards(tmp_path: Path) -> None:
    spec = make_spec("aberto", ["greedy", "random"], 1, players=4, seed=3)
    result, times = play_deal(spec, 0, tmp_path)
    assert [(g.table, g.rotation, g.side_bots) for g in result.games] == [
        (0, 0, (0, 1)),
        (0, 1, (1, 0)),
    ]
    records = [json.loads((tmp_path / g.record_name()).read_text()) for g in result.games]
    assert records[0]["names"] == ["greedy 1", "random 2", "greedy 3", "random 4"]
    assert records[1]["names"] == ["random 1", "greedy 2", "random 3", "greedy 4"]
    first, second = (r["hands"][0] for r in records)
    assert (first["deck"], first["dealer"], first["cut"]) == (
        second["deck"],
        second["dealer"],
        second["cut"],
    )
    assert {r["seed"] for r in records} == {result.seed}
    # the pair's result is the first bot's score minus the second's, summed over both games
    (pair,) = result.pairs
    assert pair.diff == sum(g.diff(0, 1) for g in result.games)
    assert all(t.count > 0 for t in times)
