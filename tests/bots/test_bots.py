import gc
from collections.abc import Sequence

import pytest

from buraco import Game, IllegalAction
from buraco.actions import Action
from buraco.bots import (
    Bot,
    GreedyBot,
    MctsBot,
    RandomBot,
    make_bot,
    play_hand,
    play_match,
    play_one,
)
from buraco.errors import BotError
from buraco.melds import TableMeld
from buraco.views import SeatView
from scenario import TABLES


def test_bots_by_name() -> None:
    assert isinstance(make_bot("random", seed=1), RandomBot)
    assert isinstance(make_bot(" Greedy "), GreedyBot)
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        make_bot("nobody")
    with pytest.raises(ValueError, match="has no parameter 'depth'; parameters: none"):
        make_bot("greedy:depth=2")


def test_bot_parameters_are_checked() -> None:
    bot = make_bot("mcts:time=0.5, iterations=20 ,policy=greedy", seed=3)
    assert isinstance(bot, MctsBot)
    assert (bot.time, bot.iterations, bot.policy_cls) == (0.5, 20, GreedyBot)
    searcher = make_bot("mcts:full=yes,width=2,pile=4")
    assert isinstance(searcher, MctsBot)
    assert (searcher.full, searcher.width, searcher.pile) == (True, 2, 4)
    for spec, words in [
        ("mcts:time=soon", "time must be a finite number"),
        ("mcts:time=nan", "time must be a finite number"),
        ("mcts:time=inf", "time must be a finite number, not 'inf'"),
        ("mcts:time=0.01,time=0.02", "parameter time is given twice; give it once"),
        ("mcts:iterations=2.5", "iterations must be a whole number"),
        ("mcts:speed=3", "no parameter 'speed'"),
        ("mcts:time", "name=value"),
        ("mcts:policy=mcts", "unknown playout policy"),
        # without a model file (or, where PyTorch is not installed, without PyTorch)
        (
            "mcts:policy=policy",
            "playout policy cannot be made: bot 'policy' needs (the model|PyTorch)",
        ),
        ("mcts:time=0", "needs a budget"),
        ("mcts:full=maybe", "must be true or false"),
        ("mcts:width=0", "width must be from 1 to 100, not 0"),
        ("mcts:margin=-1", "margin must be from 0 to"),
        ("mcts:time=1e9", "time must be from 0 to 3600"),
        ("mcts:iterations=" + "9" * 5000, "1 to 200 characters"),
        ("mcts:depth=" + "9" * 30, "depth must be a whole number"),
        ("", "bots are: random"),
    ]:
        with pytest.raises(BotError, match=words):
            make_bot(spec)


@pytest.mark.parametrize(("preset", "players"), TABLES)
@pytest.mark.parametrize("name", ["random", "greedy", "mcts:iterations=1,policy=greedy"])
def test_bots_play_every_preset_to_the_end(preset: str, players: int, name: str) -> None:
    for seed in range(1 if name.startswith("mcts") else 2):
        game = Game(preset, players=players, seed=seed, match=False)
        bots = [make_bot(name, seed=seed * 10 + s) for s in range(players)]
        actions = play_hand(game, bots)  # apply() refuses any illegal choice
        assert game.is_hand_over() and actions > 0


def test_greedy_hands_really_end_by_going_out() -> None:
    went_out = 0
    for seed in range(20):
        game = Game("aberto", players=4, seed=seed, match=False)
        play_hand(game, [GreedyBot(seed=seed * 4 + s) for s in range(4)])
        went_out += game.ended_by == "going-out"
    assert went_out >= 10


def test_greedy_beats_random() -> None:
    margin = 0
    for seed in range(6):
        game = Game("aberto", players=2, seed=seed, match=False)
        play_hand(game, [GreedyBot(seed=seed), RandomBot(seed=seed)])
        scores = game.scores()
        margin += scores[0].total - scores[1].total
    assert margin > 0


def test_same_seeds_give_the_same_game() -> None:
    records = []
    for _ in range(2):
        game = Game("fechado", players=4, seed=9, match=False)
        play_hand(game, [make_bot("greedy", seed=s) for s in range(2)] * 2)
        records.append(game.record())
    assert records[0] == records[1]


def test_play_match_plays_to_a_winner() -> None:
    game = Game("italiano", players=3, seed=2, target=800)
    play_match(game, [GreedyBot(seed=s) for s in range(3)])
    assert game.is_over() and game.winner is not None
    assert game.totals[game.winner] == max(game.totals) >= 800


class Spy(Bot):
    """Records what it is given and plays like the greedy bot."""

    name = "spy"

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.inner = GreedyBot(seed=0)
        self.seen: list[object] = []

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        self.seen.append(view)
        return self.inner.choose(view, legal)


def _reachable(root: object, limit: int = 20000) -> list[object]:
    seen: dict[int, object] = {}
    todo = [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


def test_a_bot_is_given_views_that_lead_nowhere_near_the_game() -> None:
    # a bot only ever receives its seat's view: nothing reachable from it is the game,
    # a hand count array of the game, or a meld object of the game
    game = Game("fechado", players=4, seed=4, match=False)
    spy = Spy()
    play_hand(game, [spy, GreedyBot(seed=1), GreedyBot(seed=2), GreedyBot(seed=3)])
    assert spy.seen
    game_lists = {id(h) for h in game.hands} | {id(game.stock), id(game.pile)}
    for view in spy.seen[:40]:
        for obj in _reachable(view):
            assert not isinstance(obj, Game | TableMeld)
            assert id(obj) not in game_lists


def test_a_refused_bot_choice_leaves_the_game_unchanged() -> None:
    class Cheat(Bot):
        def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
            from buraco import parse_action

            return parse_action("discard JK")  # not held, or not in the drawing phase

    game = Game("aberto", players=2, seed=1, match=False)
    before = game.record()
    with pytest.raises(IllegalAction, match=r"draw"):
        play_hand(game, [Cheat(), Cheat()])
    assert game.record() == before


class _Refuser(Bot):
    """A bot that must not be asked."""

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        raise AssertionError("asked to choose a forced action")


def test_play_one_makes_a_forced_action_without_asking_and_asks_otherwise() -> None:
    game = Game("aberto", players=2, seed=4, match=False)
    assert [str(a) for a in game.legal_actions()] == ["draw"]  # nothing to take yet
    refusers = [_Refuser(), _Refuser()]
    assert str(play_one(game, refusers)) == "draw"
    assert game.phase.name == "PLAY" and len(game.legal_actions()) > 1
    with pytest.raises(AssertionError, match="forced action"):
        play_one(game, refusers)  # a real choice goes to the bot
    before = len(game.events)
    action = play_one(game, [GreedyBot(seed=0), GreedyBot(seed=1)])
    assert game.events[before].action == action  # chosen and applied


class _Recorder(GreedyBot):
    """Greedy, remembering whether each view it was shown was a full one."""

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.full: list[bool] = []

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        self.full.append(view.detail is not None)
        return super().choose(view, legal)


def test_play_one_shows_the_view_asked_for_and_refuses_a_finished_hand() -> None:
    game = Game("aberto", players=2, seed=4, match=False)
    bots = [_Recorder(), _Recorder()]
    game.apply("draw")
    for full in (True, False, None):  # None: as the bot asks (greedy: a plain view)
        seat = game.turn
        while game.turn == seat and not game.is_hand_over():
            play_one(game, bots, full)
        assert set(bots[seat].full) == {bool(full)}
        bots[seat].full.clear()
        if game.phase.name == "DRAW":
            game.apply("draw")
    while not game.is_hand_over():
        play_one(game, bots)
    with pytest.raises(ValueError, match="hand is over"):
        play_one(game, bots)


def test_play_one_gives_a_bot_that_needs_the_full_view_that_view_whatever_is_asked() -> None:
    class Needs(_Recorder):
        wants_full_view = needs_full_view = True

    game = Game("aberto", players=2, seed=4, match=False)
    bots = [Needs(), _Recorder()]
    while not game.is_hand_over():
        play_one(game, bots, full=False)
    assert bots[0].full and all(bots[0].full)  # needed: full, though a plain one was asked
    assert bots[1].full and not any(bots[1].full)


def test_expert_is_the_strongest_bots_spec_under_one_name() -> None:
    from buraco.bots import NAMED

    expert = make_bot("expert", seed=4)
    spelled = make_bot(NAMED["expert"], seed=4)
    assert isinstance(expert, MctsBot) and isinstance(spelled, MctsBot)
    assert vars(expert).keys() == vars(spelled).keys()
    same = ("time", "depth", "futile", "limit", "iterations", "width", "policy_cls")
    assert [getattr(expert, k) for k in same] == [getattr(spelled, k) for k in same]
    assert (expert.time, expert.depth, expert.limit) == (0.05, 2, 1)
    # parameters after the name replace the spec's own; the others stay
    quick = make_bot(" Expert :time=0.2,iterations=30")
    assert isinstance(quick, MctsBot)
    assert (quick.time, quick.iterations, quick.depth, quick.limit) == (0.2, 30, 2, 1)
    with pytest.raises(BotError, match="no parameter 'speed'"):
        make_bot("expert:speed=3")
    with pytest.raises(BotError, match="name=value"):
        make_bot("expert:fast")
    with pytest.raises(BotError, match=r"bots are: random.*, expert"):
        make_bot("expertise")
