import pytest

from buraco import RulesError, make_rules
from buraco.arena import result as arena_result
from buraco.arena import run_arena
from buraco.arena.duplicate import deal_seed
from buraco.compiled import compiled_modules


def test_results_are_the_same_with_one_or_two_workers() -> None:
    args = ("fechado", ["random", "greedy"], 4)
    one = run_arena(*args, players=2, seed=11, workers=1)
    two = run_arena(*args, players=2, seed=11, workers=2)
    assert one.deals == two.deals
    assert [d.deal for d in two.deals] == [0, 1, 2, 3]
    a, b = one.to_dict(), two.to_dict()
    for volatile in ("workers", "seconds"):
        del a[volatile], b[volatile]
    for bot in (*a["per_bot"], *b["per_bot"]):
        del bot["decision_time"]
    assert a == b


def test_the_seed_decides_the_deals() -> None:
    one = run_arena("aberto", ["random", "greedy"], 3, players=2, seed=1)
    again = run_arena("aberto", ["random", "greedy"], 3, players=2, seed=1)
    other = run_arena("aberto", ["random", "greedy"], 3, players=2, seed=2)
    assert one.deals == again.deals
    assert [d.seed for d in one.deals] == [deal_seed(1, d) for d in range(3)]
    assert [d.seed for d in one.deals] != [d.seed for d in other.deals]


def test_every_pair_plays_every_deal_in_a_round_robin() -> None:
    result = run_arena("aberto", ["greedy", "random", "greedy"], 3, players=4, seed=4)
    assert result.labels == ("greedy", "random", "greedy#2")
    for deal in result.deals:
        assert len(deal.games) == 6
        assert [(p.x, p.y) for p in deal.pairs] == [(0, 1), (0, 2), (1, 2)]
        assert len({g.scores for g in deal.games}) > 1
    pairs = result.pairs()
    assert [p.outcome.deals for p in pairs] == [3, 3, 3]
    bots = result.bots()
    assert [b.outcome.deals for b in bots] == [3, 3, 3]
    # a bot's figure for a deal is the mean of its results against each opponent
    d = result.deals[0]
    assert result.bot_values(1)[0] == (-d.pair(0, 1).diff + d.pair(1, 2).diff) / 2
    assert sum(b.rating for b in bots) == pytest.approx(1500 * 3)
    assert all(b.times.count > 0 for b in bots)


def test_the_per_bot_figures_of_two_bots_mirror_each_other() -> None:
    result = run_arena("aberto", ["greedy", "random"], 5, players=2, seed=8)
    greedy, rand = result.bots()
    assert greedy.outcome.wins == rand.outcome.losses
    assert greedy.diff.mean == -rand.diff.mean
    assert greedy.rating + rand.rating == pytest.approx(3000)
    (pair,) = result.pairs()
    assert pair.outcome == greedy.outcome
    assert result.pair_values(0, 1) == [sum(g.diff(0, 1) for g in d.games) for d in result.deals]


def test_three_sides_rotate_three_bots() -> None:
    result = run_arena("italiano", ["greedy", "random", "greedy"], 2, players=3, seed=2)
    for deal in result.deals:
        assert sorted(g.side_bots for g in deal.games) == sorted(
            [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
        )
        x_minus_y = sum(
            g.scores[g.side_bots.index(0)] - g.scores[g.side_bots.index(1)] for g in deal.games
        )
        assert deal.pair(0, 1).diff == x_minus_y


def test_three_sides_with_two_bots() -> None:
    result = run_arena("us", ["greedy", "random"], 1, players=6, seed=3)
    (deal,) = result.deals
    assert len(deal.games) == 6
    g = deal.games[0]
    assert g.side_bots == (0, 0, 1)
    assert g.diff(0, 1) == (g.scores[0] + g.scores[1]) / 2 - g.scores[2]


def test_matches_report_match_wins() -> None:
    rules = make_rules("italiano", players=2, target=1500)
    result = run_arena(rules, ["greedy", "random"], 2, seed=5, matches=True)
    games = list(result.games())
    assert len(games) == 4 and all(g.winner is not None for g in games)
    assert any(g.hands > 1 for g in games)
    greedy, rand = result.bots()
    assert greedy.matches_won + rand.matches_won == 4
    assert greedy.matches_played == rand.matches_played == 4
    (pair,) = result.pairs()
    assert (pair.x_matches, pair.y_matches) == (greedy.matches_won, rand.matches_won)
    assert result.to_dict()["per_bot"][0]["matches"] == {"won": greedy.matches_won, "played": 4}


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="at least two bots"):
        run_arena("aberto", ["greedy"], 2)
    with pytest.raises(ValueError, match="unknown bot 'grumpy'"):
        run_arena("aberto", ["greedy", "grumpy"], 2)
    with pytest.raises(ValueError, match="deals must be at least 1"):
        run_arena("aberto", ["greedy", "random"], 0)
    with pytest.raises(ValueError, match="workers must be at least 1"):
        run_arena("aberto", ["greedy", "random"], 1, workers=0)
    with pytest.raises(RulesError, match="unknown preset"):
        run_arena("bogus", ["greedy", "random"], 1)


def test_each_bot_is_reported_with_the_piles_it_took_and_the_hands_it_ended() -> None:
    result = run_arena("aberto", ["hoarder", "stocker"], 3, players=2, seed=5)
    hoarder, stocker = result.bots()
    # 001 §Buraco Aberto: an open pile may always be taken, so the hoarder takes each one
    assert hoarder.pile_chances > 0 and hoarder.pile_share == 1.0
    assert stocker.pile_chances > 0 and stocker.pile_takes == 0 and stocker.pile_share == 0.0
    # each game is one hand; a side that went out is counted once for it
    games = list(result.games())
    assert hoarder.hands == stocker.hands == len(games) == 6
    outs = [w for g in games for w in g.went_out if w is not None]
    assert hoarder.went_out + stocker.went_out == len(outs)
    assert hoarder.out_share == hoarder.went_out / 6
    per_bot = result.to_dict()["per_bot"]
    assert per_bot[0]["pile_taken"] == {
        "takes": hoarder.pile_takes,
        "chances": hoarder.pile_chances,
        "share": 1.0,
    }
    assert per_bot[1]["went_out"]["out"] == stocker.went_out


def test_a_pile_the_rules_do_not_let_a_player_take_is_not_counted_as_offered() -> None:
    # 001 §Buraco Fechado: the pile is taken only to meld its top card at once; a turn
    # whose top card does not meld is no chance to take it, so the hoarder (who takes
    # every pile it may) takes all of its chances
    result = run_arena("fechado", ["hoarder", "stocker"], 4, players=2, seed=3)
    hoarder, stocker = result.bots()
    assert hoarder.pile_chances > 0 and hoarder.pile_share == 1.0
    assert stocker.pile_takes == 0


def test_a_result_says_which_search_modules_ran_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_arena("aberto", ["random", "greedy"], 1, players=2, seed=3)
    assert result.to_dict()["compiled"] == compiled_modules()
    monkeypatch.setattr(arena_result, "compiled_modules", lambda: ["buraco.views"])
    assert result.to_dict(games=False)["compiled"] == ["buraco.views"]
