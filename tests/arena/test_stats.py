import math
import random
import statistics

import pytest

from buraco.arena.stats import Outcome, elo_ratings, mean_ci, t_critical
from buraco.arena.timing import TimeSketch


def test_t_critical_values() -> None:
    assert t_critical(1) == 12.7062
    assert t_critical(9) == 2.2622
    assert t_critical(30) == 2.0423
    # the series beyond the table joins it smoothly and tends to the normal quantile
    assert 2.0395 < t_critical(31) < 2.0396  # exact: 2.03951
    assert abs(t_critical(60) - 2.00030) < 1e-5
    assert abs(t_critical(10**6) - 1.959966) < 1e-5
    values = [t_critical(df) for df in range(1, 500)]
    assert values == sorted(values, reverse=True)
    with pytest.raises(ValueError):
        t_critical(0)


def test_mean_ci_of_a_known_sample() -> None:
    ci = mean_ci([10, 20, 30, 40])
    assert ci.n == 4 and ci.mean == 25.0
    assert ci.sd == pytest.approx(12.90994, abs=1e-5)
    # t(3) = 3.1824; half width 3.1824 * 12.90994 / 2
    assert ci.low == pytest.approx(4.4577, abs=1e-3)
    assert ci.high == pytest.approx(45.5423, abs=1e-3)
    assert ci.as_dict()["ci95"] == [ci.low, ci.high]


def test_mean_ci_of_a_large_sample_is_near_the_normal_one() -> None:
    rng = random.Random(1)
    values = [rng.gauss(100, 15) for _ in range(400)]
    ci = mean_ci(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(400)
    assert ci.half_width == pytest.approx(half, rel=0.005)
    assert ci.low is not None and ci.high is not None and ci.low < 100 < ci.high


def test_mean_ci_of_one_value_has_no_interval() -> None:
    ci = mean_ci([7])
    assert ci.mean == 7 and ci.low is None and ci.high is None and ci.half_width is None
    with pytest.raises(ValueError):
        mean_ci([])


def test_outcome_counts_ties_as_half() -> None:
    o = Outcome(wins=3, losses=1, ties=2)
    assert o.deals == 6 and o.score == 4 / 6
    assert Outcome().score == 0.5


def test_elo_of_a_bot_that_wins_every_pair_is_highest() -> None:
    outcomes = {
        (0, 1): Outcome(wins=10),
        (0, 2): Outcome(wins=10),
        (1, 2): Outcome(wins=6, losses=4),
    }
    ratings = elo_ratings(3, outcomes)
    assert ratings[0] > ratings[1] > ratings[2]
    assert statistics.fmean(ratings) == pytest.approx(1500)
    assert all(math.isfinite(r) for r in ratings)


def test_elo_of_symmetric_results_is_equal() -> None:
    outcomes = {
        (0, 1): Outcome(wins=5, losses=5),
        (0, 2): Outcome(wins=3, losses=3, ties=4),
        (1, 2): Outcome(ties=10),
    }
    assert elo_ratings(3, outcomes) == pytest.approx([1500, 1500, 1500])


def test_elo_of_two_bots_follows_their_deal_record() -> None:
    # 3 wins, 1 loss, plus one virtual tie: 3.5 against 1.5
    low, high = sorted(elo_ratings(2, {(1, 0): Outcome(wins=3, losses=1)}))
    assert high - low == pytest.approx(400 * math.log10(3.5 / 1.5))
    assert (low + high) / 2 == pytest.approx(1500)


def test_elo_order_follows_strength_in_a_round_robin() -> None:
    # the expected results of strengths 4 : 2 : 1 over 70 deals per pair
    outcomes = {
        (0, 1): Outcome(wins=47, losses=23),
        (0, 2): Outcome(wins=56, losses=14),
        (1, 2): Outcome(wins=47, losses=23),
    }
    a, b, c = elo_ratings(3, outcomes, prior_ties=0)
    assert a - b == pytest.approx(400 * math.log10(2), abs=15)
    assert b - c == pytest.approx(400 * math.log10(2), abs=15)


def test_time_sketch_quantiles_are_within_one_percent() -> None:
    rng = random.Random(3)
    times = [rng.lognormvariate(-9, 1) for _ in range(5000)]
    sketch = TimeSketch()
    half = TimeSketch()
    for i, t in enumerate(times):
        (sketch if i % 2 else half).add(t)
    sketch.merge(half)
    exact = sorted(times)
    assert sketch.count == 5000 and sketch.maximum == max(times)
    assert sketch.mean == pytest.approx(statistics.fmean(times))
    for q in (0.5, 0.95):
        assert sketch.quantile(q) == pytest.approx(exact[math.ceil(q * 5000) - 1], rel=0.011)
    assert TimeSketch().quantile(0.5) == 0.0
    assert set(sketch.summary()) == {"decisions", "median_ms", "p95_ms", "mean_ms", "max_ms"}
