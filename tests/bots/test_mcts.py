"""The search bot: deterministic for an iteration budget, blind to hidden cards."""

import random

from buraco import Game
from buraco.actions import Discard
from buraco.bots import GreedyBot, MctsBot, play_hand
from buraco.views import seat_view


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
        str(MctsBot(seed=5, iterations=24, policy="greedy").choose(view, game.legal_actions()))
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
    first = MctsBot(seed=1, iterations=30, policy="greedy").choose(view, game.legal_actions())
    second = MctsBot(seed=1, iterations=30, policy="greedy").choose(twin_view, twin.legal_actions())
    assert first == second


def test_the_search_is_spent_on_the_discard_and_the_draw() -> None:
    game = _reach_a_discard(4)
    bot = MctsBot(seed=2, iterations=16, policy="greedy")
    choice = bot.choose(seat_view(game, game.turn), game.legal_actions())
    if isinstance(choice, Discard):
        assert bot.last_iterations == 16
    else:  # the policy melded first: no search for that
        assert bot.last_iterations == 0


def test_it_plays_whole_hands_of_several_presets() -> None:
    for preset, players in [("fechado", 2), ("us", 4), ("italiano", 3)]:
        game = Game(preset, players=players, seed=6, match=False)
        bots = [MctsBot(seed=s, iterations=3, policy="greedy") for s in range(players)]
        assert play_hand(game, bots) > 0
        assert game.is_hand_over()
