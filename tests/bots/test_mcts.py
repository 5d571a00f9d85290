"""The search bot: deterministic for an iteration budget, blind to hidden cards."""

import random
from typing import Any

import pytest

from buraco import Game
from buraco.actions import DRAW, TAKE_PILE, Action, Add, Discard, Draw, Meld, TakePile
from buraco.bots import Bot, GreedyBot, HeuristicBot, MctsBot, make_bot, play_hand, play_one
from buraco.bots.base import pile_choices
from buraco.bots.evaluation import Evaluation
from buraco.bots.exploits import HoarderBot, StockerBot
from buraco.bots.mcts import HABIT_CHANCES, futile, pile_habits
from buraco.errors import BotError
from buraco.views import SeatView, seat_view


def _reach_a_discard(seed: int) -> Game:
    """A game in which the player to move has drawn and will choose a discard."""
    game = Game("aberto", players=4, seed=seed, match=False)
    bots = [GreedyBot(seed=s) for s in range(4)]
    for _ in range(30):
        legal = game.legal_actions()
        game.apply(bots[game.turn].choose(seat_view(game, game.turn, full=False), legal))
    while game.phase.name != "PLAY":
        game.apply(game.legal_actions()[0])
    return game


def _scramble_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with the cards hidden from ``seat`` dealt differently."""
    other = game.clone()
    pool = list(other.stock)
    for pot in other.pots:
        pool.extend(pot)
    seats = [s for s in range(other.players) if s != seat]
    for s in seats:
        for c, k in enumerate(other.hands[s]):
            pool.extend([c] * k)
    rng.shuffle(pool)
    pos = 0
    for s in seats:
        size = other.sizes[s]
        hand = [0] * 53
        for c in pool[pos : pos + size]:
            hand[c] += 1
        other.hands[s] = hand
        pos += size
    for i, pot in enumerate(other.pots):
        other.pots[i] = pool[pos : pos + len(pot)]
        pos += len(pot)
    other.stock = pool[pos:]
    other._legal = None
    return other


def test_the_same_seed_and_iterations_give_the_same_choices() -> None:
    game = _reach_a_discard(2)
    view = seat_view(game, game.turn)
    picks = {
        str(
            MctsBot(seed=5, time=0, iterations=8, policy="greedy").choose(
                view, game.legal_actions()
            )
        )
        for _ in range(2)
    }
    assert len(picks) == 1


def test_a_choice_depends_only_on_what_the_seat_has_seen() -> None:
    # the bot is given views, never the game: two games that differ only in cards hidden
    # from the player to move lead to the same choice
    game = _reach_a_discard(3)
    seat = game.turn
    twin = _scramble_hidden(game, seat, random.Random(9))
    assert twin.hands != game.hands or twin.stock != game.stock
    view, twin_view = seat_view(game, seat), seat_view(twin, seat)
    assert view.to_dict() == twin_view.to_dict()
    first = MctsBot(seed=1, time=0, iterations=8, policy="greedy").choose(
        view, game.legal_actions()
    )
    second = MctsBot(seed=1, time=0, iterations=8, policy="greedy").choose(
        twin_view, twin.legal_actions()
    )
    assert first == second


def test_the_budget_is_spent_where_there_is_a_choice_to_search() -> None:
    for seed in range(4, 8):
        game = _reach_a_discard(seed)
        view, legal = seat_view(game, game.turn), game.legal_actions()
        bot = MctsBot(seed=2, time=0, iterations=6, policy="greedy", prune=0, futile=0)
        bot.choose(view, legal)
        assert bot.last_rounds == (6 if len(bot.candidates(view, legal)) > 1 else 0)


def test_the_candidates_start_with_the_policy_choice() -> None:
    game = _reach_a_discard(5)
    view, legal = seat_view(game, game.turn), game.legal_actions()
    policy_choice = HeuristicBot(seed=0).choose(view, legal)
    bot = MctsBot(seed=0, time=0, iterations=2, width=3)
    candidates = bot.candidates(view, legal)
    assert candidates[0] == policy_choice
    assert len(set(candidates)) == len(candidates)
    if isinstance(policy_choice, Discard):
        discards = [a for a in candidates if isinstance(a, Discard)]
        assert 1 < len(discards) <= 3 and candidates[: len(discards)] == discards
        # with melds=True (the default) at most one play follows: what the policy would meld
        assert len(candidates) - len(discards) <= 1
        unsearched = MctsBot(seed=0, time=0, iterations=2, width=1, melds=False)
        assert unsearched.candidates(view, legal) == [policy_choice]


def test_the_draw_is_searched_only_from_a_pile_of_the_given_size() -> None:
    game = Game("aberto", players=2, seed=8, match=False)
    while not (game.phase.name == "DRAW" and len(game.pile) == 1 and game.is_legal("take-pile")):
        game.apply(game.legal_actions()[-1] if game.phase.name == "PLAY" else "draw")
    view, legal = seat_view(game, game.turn), game.legal_actions()
    assert len(MctsBot(seed=0, time=0, iterations=2, pile=1).candidates(view, legal)) == 2
    assert len(MctsBot(seed=0, time=0, iterations=2, pile=2).candidates(view, legal)) == 1


def test_without_evidence_the_policy_choice_stands() -> None:
    # a margin no search can reach: the bot plays exactly what its policy would
    game = _reach_a_discard(6)
    view, legal = seat_view(game, game.turn), game.legal_actions()
    bot = MctsBot(seed=3, time=0, iterations=4, margin=1e9)
    assert bot.choose(view, legal) == HeuristicBot(seed=0).choose(view, legal)


def test_it_plays_whole_hands_of_several_presets() -> None:
    for preset, players in [("fechado", 2), ("us", 4), ("italiano", 3)]:
        game = Game(preset, players=players, seed=6, match=False)
        bots = [MctsBot(seed=s, time=0, iterations=3, policy="greedy") for s in range(players)]
        assert play_hand(game, bots) > 0
        assert game.is_hand_over()


def test_a_policy_that_reads_the_full_view_plays_the_playouts() -> None:
    # the learned bot needs the seat's full view; the playouts give it that view, though
    # their other bots get plain ones (full=false)
    game = Game("aberto", players=4, seed=6, match=False)
    spec = "mcts:policy=learned,iterations=2,time=0,full=false"
    bots = [make_bot(spec, seed=s) for s in range(4)]
    for _ in range(40):
        play_one(game, bots)  # before: BotError, the learned bot shown a plain view
    searched = [b for b in bots if isinstance(b, MctsBot) and b._playout_bots]
    assert searched and all(
        type(p).__name__ == "LearnedBot" for b in searched for p in b._playout_bots
    )


def test_playouts_stop_after_depth_rounds_and_are_scored_by_the_evaluation() -> None:
    game = Game("aberto", players=4, seed=11, match=False)
    evaluation = Evaluation.for_rules(game.rules)
    cut = game.clone()
    no_habits = [None] * 4
    result = MctsBot(seed=0, time=0, iterations=1, depth=2)._playout(
        cut, 0, 7, evaluation, no_habits
    )
    assert not cut.is_hand_over()
    assert sum(isinstance(e.action, Discard) for e in cut.events) == 2 * 4  # two rounds
    assert result == evaluation.result(cut, 0) != 0
    # depth 0: to the end of the hand, scored by the game itself
    whole = game.clone()
    result = MctsBot(seed=0, time=0, iterations=1, depth=0)._playout(
        whole, 0, 7, evaluation, no_habits
    )
    totals = [s.total for s in whole.scores()]
    assert whole.is_hand_over() and result == totals[0] - totals[1]


def test_the_default_search_cuts_its_playouts() -> None:
    bot = MctsBot(seed=0)
    assert (bot.depth, bot.time, bot.pile) == (4, 0.1, 1)


def test_the_evaluation_follows_the_rules_of_the_view() -> None:
    bot = MctsBot(seed=0, time=0, iterations=2, policy="greedy", prune=0)
    for preset, players in [("aberto", 4), ("italiano", 3)]:
        game = Game(preset, players=players, seed=7, match=False)
        movers = [GreedyBot(seed=s) for s in range(players)]
        while len(bot.candidates(*_ask(game))) < 2:
            play_one(game, movers)
        bot.choose(*_ask(game))
        assert bot.last_rounds == 2 and bot._evaluation is not None
        assert bot._evaluation[1] == Evaluation.for_rules(game.rules)


def _ask(game: Game) -> tuple[SeatView, tuple[Action, ...]]:
    return seat_view(game, game.turn, full=True), game.legal_actions()


def test_a_closed_pile_is_measured_by_its_size_not_its_visible_top() -> None:
    # 001 §Buraco Fechado: only the top card is visible; the search threshold counts them all
    game = Game("fechado", players=2, seed=3, match=False)
    movers = [GreedyBot(seed=0), GreedyBot(seed=1)]
    while not (game.phase.name == "DRAW" and game.is_legal("take-pile") and len(game.pile) >= 2):
        play_one(game, movers)
        assert not game.is_hand_over()
    view, legal = _ask(game)
    assert len(view.pile) == 1 < view.pile_size
    assert len(MctsBot(seed=0, time=0, iterations=2, pile=2).candidates(view, legal)) == 2


def _reach_a_play(seed: int) -> tuple[SeatView, tuple[Action, ...]]:
    """A position where the player to move has opened and its policy would meld or add."""
    game = Game("aberto", players=4, seed=seed, match=False)
    movers = [GreedyBot(seed=s) for s in range(4)]
    policy = HeuristicBot(seed=0)
    while True:
        assert not game.is_hand_over()
        view, legal = _ask(game)
        if (
            game.phase.name == "PLAY"
            and not view.requirement[view.side]
            and any(isinstance(a, Discard) for a in legal)
            and isinstance(policy.choose(view, legal), Meld | Add)
        ):
            return view, legal
        play_one(game, movers)


def test_a_meld_is_searched_against_holding_it_and_discarding() -> None:
    view, legal = _reach_a_play(3)
    suggestion = HeuristicBot(seed=0).choose(view, legal)
    candidates = MctsBot(seed=0, time=0, iterations=2).candidates(view, legal)
    assert candidates[0] == suggestion
    assert sum(isinstance(a, Discard) for a in candidates) == 1  # the policy's discard
    assert all(a in legal for a in candidates) and len(set(candidates)) == len(candidates)
    assert MctsBot(seed=0, time=0, iterations=2, melds=False).candidates(view, legal) == [
        suggestion
    ]


def _habit_game(bots: list[Bot]) -> Game:
    """A two-player hand played until each seat has been offered the pile 6 times."""
    game = Game("aberto", players=2, seed=4, match=False)
    while min(pile_choices(game.events, 2)[1]) < HABIT_CHANCES:
        assert not game.is_hand_over()
        play_one(game, bots)
    return game


def test_a_player_who_always_takes_the_pile_is_read_as_a_habit() -> None:
    game = _habit_game([HoarderBot(seed=0), StockerBot(seed=1)])
    assert pile_habits(seat_view(game, 1)) == [TAKE_PILE, None]  # its own seat: none
    assert pile_habits(seat_view(game, 0)) == [None, DRAW]
    # a player who judges each pile shows no habit
    mixed = _habit_game([GreedyBot(seed=0), GreedyBot(seed=1)])
    takes, chances = pile_choices(mixed.events, 2)
    assert all(0.1 < t / c < 0.9 for t, c in zip(takes, chances, strict=True))
    assert pile_habits(seat_view(mixed, 0)) == [None, None]


def test_in_playouts_a_seat_with_a_habit_draws_by_it() -> None:
    game = Game("aberto", players=2, seed=9, match=False)
    evaluation = Evaluation.for_rules(game.rules)
    bot = MctsBot(seed=0, time=0, iterations=1, depth=6)
    for habit, kind in ((DRAW, TakePile), (TAKE_PILE, Draw)):
        cut = game.clone()
        bot._playout(cut, 0, 7, evaluation, [habit, habit])
        drawn = [e.action for e in cut.events if isinstance(e.action, Draw | TakePile)]
        offered = [a for a, e in zip(drawn, _offers(cut), strict=True) if e]
        assert drawn and not any(isinstance(a, kind) for a in offered)


def _offers(game: Game) -> list[bool]:
    """Per draw of the hand, whether the pile held cards then."""
    out, pile = [], 0
    for e in game.events:
        if isinstance(e.action, Draw | TakePile):
            out.append(pile > 0)
            pile = 0 if isinstance(e.action, TakePile) else pile
        elif isinstance(e.action, Discard):
            pile += 1
    return out


def test_a_search_no_candidate_can_win_in_its_budget_stops_early() -> None:
    # futile: once no candidate is on course to beat the policy's choice by the margin
    # in the rounds left, the rest of the budget is not spent
    searched = 0
    for seed in range(4, 10):
        game = _reach_a_discard(seed)
        view, legal = seat_view(game, game.turn), game.legal_actions()
        if len(MctsBot(seed=0, time=0, iterations=2).candidates(view, legal)) < 2:
            continue
        hopeless = MctsBot(seed=2, time=0, iterations=40, prune=0, margin=1e6, futile=1)
        hopeless.choose(view, legal)
        patient = MctsBot(seed=2, time=0, iterations=40, prune=0, margin=1e6, futile=0)
        patient.choose(view, legal)
        assert hopeless.last_rounds == 3 and patient.last_rounds == 40
        searched += 1
    assert searched


def test_a_lead_is_projected_to_grow_as_the_root_of_the_rounds() -> None:
    # 0.5 standard errors after 4 rounds would be 1.0 after 16: just not under a bar of 1
    assert not futile(0.5, 4, 16, 1.0)
    assert futile(0.49, 4, 16, 1.0) and futile(-3.0, 4, 16, 1.0)
    assert not futile(0.9, 4, 100, 4.0)  # 0.9 × 5 = 4.5
    assert futile(0.9, 4, 4, 1.0)  # no rounds left: the lead stays as it is


def test_a_learned_policy_offers_its_own_preferred_discards() -> None:
    # the candidates are the policy's ranking, not the first discards of the legal list
    bot = make_bot("mcts:policy=learned,iterations=2,width=3,melds=false", seed=0)
    assert isinstance(bot, MctsBot)
    for seed in range(20):  # a position where the learned policy would discard
        game = _reach_a_discard(seed)
        view, legal = seat_view(game, game.turn, full=True), game.legal_actions()
        if isinstance(bot.policy.choose(view, legal), Discard):
            break
    ranked = bot.policy.ranked_discards(view, legal)
    assert bot.candidates(view, legal) == ranked[:3]
    in_order = [a for a in legal if isinstance(a, Discard)]
    assert ranked[:3] != in_order[:3]


class _Clock:
    """A clock that moves ``step`` seconds at every reading."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


def _searched_discard() -> tuple[SeatView, list[Action]]:
    for seed in range(4, 10):
        game = _reach_a_discard(seed)
        view, legal = seat_view(game, game.turn), list(game.legal_actions())
        if len(MctsBot(seed=0, time=0, iterations=2).candidates(view, legal)) > 1:
            return view, legal
    raise AssertionError("no position with a choice to search")


def test_past_the_hard_limit_an_unfinished_round_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import buraco.bots.mcts as mcts

    view, legal = _searched_discard()
    # every reading of the clock 0.2 ms on: rounds of some 15 ms (one reading an action)
    free_clock, bound_clock = _Clock(0.0002), _Clock(0.0002)
    monkeypatch.setattr(mcts, "time", free_clock)
    # a limit no search reaches, so that both read the clock alike (at every action)
    free = MctsBot(seed=2, time=0.1, limit=1000, prune=0, futile=0, margin=1e9)
    free.choose(view, legal)
    monkeypatch.setattr(mcts, "time", bound_clock)
    bound = MctsBot(seed=2, time=0.1, limit=1, prune=0, futile=0, margin=1e9)
    bound.choose(view, legal)
    # the same rounds on the same clock, but for the last: without the limit the round
    # that started before 0.1 s is finished after it; with the limit at the budget
    # itself the search reads the clock once past 0.1 s and stops there, that round
    # (if one was going) not counted
    assert free.last_rounds > 3
    assert bound_clock.now < 0.1 + 0.001  # stopped at the limit, wherever that fell
    assert bound.last_rounds in (free.last_rounds - 1, free.last_rounds)


class _PlayoutClock:
    """A clock that stands still but for ``step`` seconds a playout."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        return self.now


@pytest.mark.parametrize(("limit", "rounds"), [(1.0, 3), (2.0, 4)])
def test_a_round_that_would_end_past_the_limit_is_not_begun(
    monkeypatch: pytest.MonkeyPatch, limit: float, rounds: int
) -> None:
    import buraco.bots.mcts as mcts

    view, legal = _searched_discard()
    bot = MctsBot(seed=2, time=0.1, limit=limit, prune=0, futile=0, margin=1e9)
    k = len(bot.candidates(view, legal))
    clock = _PlayoutClock(0.03 / k)  # a round of k playouts: 0.03 s
    monkeypatch.setattr(mcts, "time", clock)
    playout = bot._playout

    def timed(*args: Any, **kwargs: Any) -> float | None:
        result = playout(*args, **kwargs)
        clock.now += clock.step
        return result

    monkeypatch.setattr(bot, "_playout", timed)
    bot.choose(view, legal)
    # rounds end at 0.03, 0.06 and 0.09 s; a fourth would end at 0.12 s: past a limit of
    # 0.1 s it is not begun, so no work is dropped; under one of 0.2 s it is played, as
    # the budget (0.1 s) has not run out when it starts, and none after it
    assert bot.last_rounds == rounds
    assert clock.now == pytest.approx(0.03 * rounds)


def test_with_no_round_finished_in_the_limit_the_policy_choice_stands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import buraco.bots.mcts as mcts

    view, legal = _searched_discard()
    policy_choice = HeuristicBot(seed=0).choose(view, legal)
    # 0.15 s a reading: the first playout is past 0.2 s (twice the budget) by its
    # second turn, and no round is finished
    monkeypatch.setattr(mcts, "time", _Clock(0.15))
    bot = MctsBot(seed=2, time=0.1, margin=0)
    assert bot.choose(view, legal) == policy_choice and bot.last_rounds == 0
    # without a limit the minimum of 3 rounds is played, whatever the clock says
    monkeypatch.setattr(mcts, "time", _Clock(0.15))
    unbound = MctsBot(seed=2, time=0.1, margin=0, limit=0)
    unbound.choose(view, legal)
    assert unbound.last_rounds == 3


@pytest.mark.parametrize("limit", [0.5, -1.0, float("nan")])
def test_a_limit_shorter_than_the_budget_is_refused(limit: float) -> None:
    with pytest.raises(BotError, match="limit"):
        MctsBot(limit=limit)
    assert make_bot("mcts:limit=0").limit == 0  # type: ignore[attr-defined]
