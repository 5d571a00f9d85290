"""The action encoding expresses every legal action and only those; observations leak nothing."""

import random
from collections.abc import Callable

import numpy as np
import pytest

from buraco import Game
from buraco.actions import Add, Meld, MoveWild, Place, parse_action
from buraco.cards import N_CODES, counts_of
from buraco.determinize import Determinizer, known_hands, pile_of
from buraco.rl.encoding import (
    ADD,
    MAX_MELD_LEN,
    MAX_MELDS,
    MELD_CARD,
    MELD_END,
    MOVE,
    N_ACTIONS,
    OBS_SIZE,
    OBSERVATION_LAYOUT,
    ActionCodec,
    MeldEntry,
    ObservationEncoder,
    check_reward_scale,
    check_rules,
    observation_slices,
)
from buraco.rules import PRESETS, make_rules
from buraco.views import SeatView, seat_view

CASES = [(preset, n) for preset, spec in PRESETS.items() for n in spec.players]
CODEC = ActionCodec()
ENCODER = ObservationEncoder()


def check_position(g: Game) -> int:
    """Round trip and mask of every legal action of the position; the number checked."""
    legal = g.legal_actions()
    checked = 0
    for a in legal:
        seq = CODEC.encode(a)
        assert all(0 <= i < N_ACTIONS for i in seq)
        assert CODEC.decode(seq) == a, (a, seq)
        checked += 1
    # the mask at every prefix of every legal index sequence is exactly the next steps
    children: dict[tuple[int, ...], set[int]] = {}
    for a in legal:
        seq = CODEC.encode(a)
        for k in range(len(seq)):
            children.setdefault(seq[:k], set()).add(seq[k])
    for prefix, allowed in children.items():
        cards = tuple(CODEC.meld_card(i) for i in prefix)
        mask = CODEC.mask(legal, cards)
        assert set(np.flatnonzero(mask).tolist()) == allowed, (g.rules.preset, prefix)
    # every single index the mask allows decodes to a legal action
    for i in np.flatnonzero(CODEC.mask(legal)):
        if not CODEC.is_meld_step(int(i)):
            assert CODEC.decode(int(i)) in legal
    return checked


def play_random(
    g: Game, rng: random.Random, every: int = 1, hook: Callable[[Game], None] | None = None
) -> int:
    """Play the hand with random masked indexes, checking positions; decisions made."""
    entry = MeldEntry()
    decisions = 0
    while not g.is_hand_over():
        legal = g.legal_actions()
        if not entry.pending and decisions % every == 0:
            check_position(g)
            if hook is not None:
                hook(g)
        mask = entry.mask(legal)
        choices = np.flatnonzero(mask)
        assert len(choices), "a position with nothing to choose"
        act = entry.step(int(rng.choice(choices)), legal)
        if act is not None:
            assert act in legal
            g.apply(act)
            decisions += 1
    return decisions


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_every_legal_action_round_trips_and_the_mask_is_the_legal_set(
    preset: str, players: int
) -> None:
    rng = random.Random(f"{preset}{players}")
    for seed in range(3):
        g = Game(preset, players=players, seed=seed, match=False)
        check_rules(g.rules)
        assert play_random(g, rng) > 10


def test_random_games_offer_every_kind_of_action() -> None:
    kinds: set[str] = set()
    for preset, players in CASES:
        rng = random.Random(preset)
        g = Game(preset, players=players, seed=1, match=False)
        entry = MeldEntry()
        while not g.is_hand_over():
            legal = g.legal_actions()
            kinds.update(f"add-{a.place.name}" if isinstance(a, Add) else a.kind for a in legal)
            act = entry.step(int(rng.choice(np.flatnonzero(entry.mask(legal)))), legal)
            if act is not None:
                g.apply(act)
    assert kinds == {
        "draw",
        "turn-up",
        "take-pile",
        "meld",
        "move",
        "discard",
        *(f"add-{p.name}" for p in Place),
    }


def test_single_indexes_decode_and_encode_back() -> None:
    for i in range(N_ACTIONS):
        if CODEC.is_meld_step(i):
            with pytest.raises(ValueError):
                CODEC.decode(i)
            continue
        assert CODEC.encode(CODEC.decode(i)) == (i,)
    assert CODEC.decode(ADD) == Add(0, 0, Place.NONE)
    assert CODEC.decode(MOVE - 1) == Add(MAX_MELDS - 1, N_CODES - 1, Place.WILD_HIGH)
    assert CODEC.decode(N_ACTIONS - 1) == MoveWild(MAX_MELDS - 1, Place.HIGH)
    with pytest.raises(ValueError):
        CODEC.decode(N_ACTIONS)
    with pytest.raises(ValueError):
        CODEC.decode((MELD_CARD, MELD_CARD + 1))  # no MELD_END
    with pytest.raises(ValueError):
        CODEC.index(Add(MAX_MELDS, 0, Place.NONE))
    long_set = parse_action("meld " + " ".join(["KC", "KD", "KH", "KS"] * 4) + " JK")
    assert len(CODEC.encode(long_set)) == MAX_MELD_LEN + 1


def test_the_bounds_hold_for_the_largest_pack_the_options_allow() -> None:
    rules = make_rules("us", players=6, decks=4, jokers_per_deck=4)
    check_rules(rules)
    assert rules.deck_size // 3 == MAX_MELDS


def test_meld_entry_refuses_what_the_mask_does_not_allow() -> None:
    g = Game("aberto", players=2, seed=5, match=False)
    g.apply("draw")
    legal = g.legal_actions()
    entry = MeldEntry()
    meld = next(a for a in legal if isinstance(a, Meld))
    first = CODEC.encode(meld)[0]
    assert entry.step(first, legal) is None
    with pytest.raises(ValueError):
        entry.step(CODEC.index(next(a for a in legal if not isinstance(a, Meld))), legal)
    with pytest.raises(ValueError):
        entry.step(MELD_END, legal)  # one card is not a meld
    assert entry.pending == [first - MELD_CARD]


def test_the_layout_adds_up() -> None:
    slices = observation_slices()
    assert sum(size for _, size in OBSERVATION_LAYOUT) == OBS_SIZE
    assert list(slices) == [name for name, _ in OBSERVATION_LAYOUT]
    assert max(s.stop for s in slices.values()) == OBS_SIZE


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_observations_leak_no_hidden_card(preset: str, players: int) -> None:
    rng = random.Random(f"leak{preset}{players}")
    g = Game(preset, players=players, seed=11, match=False)
    checks = [0, 0]

    def swap_hidden(game: Game) -> None:
        for seat in range(game.n):
            view = seat_view(game, seat, full=True)
            obs = ENCODER.encode(view)
            # the encoder's caches (per meld view, per side, its memory) never go stale
            assert np.array_equal(obs, ObservationEncoder().encode(view))
            check_memory(view, obs)
            sample = Determinizer(view).sample(rng)
            sample.events = list(game.events)  # the same history, as each seat saw it
            sample.seen_cache = [None] * (game.n + 1)
            moved = any(sample.hands[s] != game.hands[s] for s in range(game.n) if s != seat)
            moved = moved or sample.stock != game.stock or sample.pots != game.pots
            checks[0] += moved
            again = ENCODER.encode(seat_view(sample, seat, full=True))
            assert np.array_equal(obs, again), (preset, seat, game.phase)
            if seat == game.turn:
                legal = game.legal_actions()
                assert np.array_equal(CODEC.mask(legal), CODEC.mask(sample.legal_actions()))
            checks[1] += 1

    play_random(g, rng, every=7, hook=swap_hidden)
    assert checks[1] > 10 and checks[0] > checks[1] // 2


def check_memory(view: SeatView, obs: np.ndarray) -> None:
    """The remembered pile and known cards are determinize's, seat by seat."""
    parts = ENCODER.describe(obs)
    assert parts["pile_memory"].tolist() == counts_of(pile_of(view))
    known = known_hands(view)
    rows = parts["known_cards"].reshape(-1, N_CODES)
    n = len(view.names)
    for seat in range(n):
        held = [0] * N_CODES
        for c, k in known[seat].items():
            held[c] = max(k, 0)
        assert rows[(seat - view.seat) % n].tolist() == held, (seat, view.seat)
    assert not rows[n:].any()


def test_memory_follows_the_history_and_starts_afresh_for_another_game() -> None:
    encoder = ObservationEncoder()
    rng = random.Random(9)
    seen = 0
    for preset, players in [("fechado", 4), ("aberto", 2), ("fechado", 2)]:
        g = Game(preset, players=players, seed=4, match=False)
        entry = MeldEntry()
        while not g.is_hand_over():
            legal = g.legal_actions()
            act = entry.step(int(rng.choice(np.flatnonzero(entry.mask(legal)))), legal)
            if act is not None:
                g.apply(act)
                view = seat_view(g, rng.randrange(g.n), full=True)
                obs = encoder.encode(view)
                check_memory(view, obs)
                if not view.pile_open and view.pile_size > 1:
                    seen += 1
    assert seen > 20  # closed piles with cards under the top were remembered


def test_the_observation_shows_what_the_seat_may_know() -> None:
    g = Game("aberto", players=4, seed=2, match=False)
    seat = g.turn
    assert seat is not None
    view = seat_view(g, seat, full=True)
    obs = ENCODER.encode(view)
    parts = ENCODER.describe(obs)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
    assert parts["hand"].tolist() == list(view.counts)
    assert parts["turn"][0] == 1 and parts["phase"][0] == 1
    assert parts["partner"].tolist()[:4] == [1, 0, 1, 0]
    # the pending meld is part of the observation, in order
    with_pending = ENCODER.encode(view, (3, 4))
    assert with_pending[observation_slices()["pending"]][[3, N_CODES + 4]].tolist() == [1, 1]
    # another seat's view of the same moment differs (its hand)
    other = ENCODER.encode(seat_view(g, (seat + 1) % 4, full=True))
    assert not np.array_equal(obs, other)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "x", None])
def test_every_environment_refuses_a_reward_scale_it_cannot_divide_by(bad: object) -> None:
    """A reward scale of 0 used to be accepted and end the first hand in ZeroDivisionError."""
    import gymnasium

    import buraco.rl.gymnasium  # noqa: F401 - registers the ids
    from buraco.rl.pettingzoo import env as pz_env
    from buraco.rl.vector import BuracoVectorEnv

    makers: list[Callable[[], object]] = [
        lambda: gymnasium.make("buraco/Aberto-v0", reward_scale=bad),
        lambda: pz_env("fechado", players=2, reward_scale=bad),
        lambda: BuracoVectorEnv(2, "aberto", 2, reward_scale=bad),  # type: ignore[arg-type]
    ]
    for make in makers:
        with pytest.raises(ValueError, match="reward_scale is a finite number above 0, not"):
            make()
    assert check_reward_scale("250") == 250.0


def test_a_reward_scale_divides_the_hand_score_difference() -> None:
    from buraco.bots import GreedyBot, play_hand
    from buraco.rl.encoding import hand_rewards

    game = Game("aberto", players=2, seed=4, match=False)
    play_hand(game, [GreedyBot(seed=0), GreedyBot(seed=1)])
    scores = [s.total for s in game.results[-1].scores]
    assert hand_rewards(game, check_reward_scale(500)) == [
        (scores[0] - scores[1]) / 500,
        (scores[1] - scores[0]) / 500,
    ]
