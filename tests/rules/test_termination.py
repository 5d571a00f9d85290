"""RULINGS 9: every hand ends, under every combination of rule options.

The argument the tests check against the engine. A turn starts by drawing from the stock or
by taking the pile, and ends at its discard (or when the hand ends):

- Within a turn every action but one is bounded by the cards: each meld or add puts at least
  one card of the mover's hand down (cards of an opening that falls short come back only at
  the discard, which ends the turn), a turn-up happens once, and a wild moves at most once per
  meld per turn (``wild_moves``). So a turn makes at most ``3 + deck + deck // 3`` actions:
  draw or take, turn-up and discard, a meld or add per card the hand ever holds that turn
  (a morto taken mid-turn included), one wild move per meld (a meld holds 3 or more cards).
- Across turns, call ``left`` the cards still in the stock and the mortos plus the cards of
  the pack not yet on the table for good (in a meld not staged toward an opening). ``left``
  never grows: the stock and the mortos only shrink (a morto that becomes the stock keeps its
  cards in the count), and a card on the table stays there. A turn that draws shrinks it; a
  turn that puts a card on the table for good shrinks it. Only a turn that takes the pile and
  puts nothing down for good leaves it as it was.
- With ``pile_top_meld`` every take melds the pile's top card at once: on the table for good
  when the side has opened, and a side that still owes its initial meld must complete it in
  that turn (no discard is offered until it does). So every turn shrinks ``left``, and a hand
  lasts at most ``left`` turns as dealt, whatever ``pile_streak_limit`` says.
- Without ``pile_top_meld`` a take may put nothing down (take, keep the top card, discard
  another: the same cards go round the table and the stock never shrinks). Only the streak
  limit ends that: after ``pile_streak_limit`` such turns in a row the next player must draw.
  So ``pile_streak_limit=0`` (no limit) is refused without ``pile_top_meld``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buraco import (
    Game,
    Phase,
    RecordError,
    Rules,
    RulesError,
    TakePile,
    make_rules,
    replay,
)
from buraco.actions import DRAW, TAKE_PILE, Action, Discard
from buraco.bots import GreedyBot, RandomBot
from buraco.bots.base import Bot
from buraco.bots.play import play_one
from buraco.game import STREAK_NOTE
from buraco.rules import PRESETS
from buraco.views import SeatView
from scenario import TABLES, legal, play, refuse

SEATINGS = [(preset, players, ()) for preset, players in TABLES] + [("us", 6, (("sides", 2),))]
"""Every preset at every player count it allows (us 6 as 3 teams and as 2 teams)."""

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
BOT_KINDS = st.lists(st.sampled_from(["taker", "random"]), min_size=6, max_size=6)
"""One kind per seat (the first ``players`` are used)."""


class PileTaker(GreedyBot):
    """Takes the pile whenever it may; otherwise plays like ``greedy``."""

    name = "pile-taker"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """``take-pile`` when legal, else the greedy choice."""
        if TAKE_PILE in legal:
            return TAKE_PILE
        return super().choose(view, legal)


def bots_of(kinds: Sequence[str], players: int, seed: int) -> list[Bot]:
    return [
        PileTaker(seed=seed + s) if kind == "taker" else RandomBot(seed=seed + s)
        for s, kind in enumerate(kinds[:players])
    ]


def left(game: Game) -> int:
    """Cards still to draw (stock and mortos) plus cards of the pack not on the table for good."""
    table = sum(m.size for side in game.melds for m in side if not m.staged)
    return len(game.stock) + sum(len(p) for p in game.pots) + game.rules.deck_size - table


def actions_per_turn(rules: Rules) -> int:
    """The most actions a turn can make (see the module docstring)."""
    return 3 + rules.deck_size + rules.deck_size // 3


def play_counting(game: Game, bots: Sequence[Bot], max_turns: int) -> list[int]:
    """Play the hand out; ``left`` at the start of every turn and, last, at the end.

    Fails when a turn makes more actions than a turn can, when nothing is legal before the
    hand is over, or when the hand is not over after ``max_turns`` turns.
    """
    per_turn = actions_per_turn(game.rules)
    marks: list[int] = []
    actions = 0
    while not game.is_hand_over():
        if game.phase == Phase.DRAW:  # a turn begins
            assert len(marks) < max_turns, f"the hand did not end in {max_turns} turns: {game!r}"
            marks.append(left(game))
            actions = 0
        assert game.legal_actions(), f"the hand is not over but nothing is legal: {game!r}"
        play_one(game, bots)
        actions += 1
        assert actions <= per_turn, f"a turn made more than {per_turn} actions: {game!r}"
    marks.append(left(game))
    assert game.ended_by in ("going-out", "stock", "blocked")
    return marks


# ----------------------------------------------------------------------------------------
# the refused combination
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_no_streak_limit_is_refused_unless_every_take_melds_its_top_card(
    preset: str, players: int
) -> None:
    # RULINGS 9: every hand ends. Without pile_top_meld a take may put no card on the table,
    # so without a streak limit the pile could go round the table forever
    with pytest.raises(RulesError) as info:
        make_rules(preset, players=players, pile_streak_limit=0, pile_top_meld=False)
    message = str(info.value)
    assert message == (
        "pile_streak_limit=0 removes the limit on taking the pile, but with "
        "pile_top_meld=false a take may put no card on the table, so the pile could be "
        "passed back and forth forever (RULINGS 9: every hand ends); set pile_streak_limit "
        "from 1 to 1000, or 0 only with pile_top_meld=true"
    )
    # what the message allows is allowed
    assert make_rules(preset, players=players, pile_streak_limit=1).pile_streak_limit == 1
    assert make_rules(preset, players=players, pile_streak_limit=1000).pile_streak_limit == 1000
    rules = make_rules(preset, players=players, pile_streak_limit=0, pile_top_meld=True)
    assert rules.pile_streak_limit == 0
    # and every other way of changing the options refuses it too
    with pytest.raises(RulesError, match="pile_streak_limit=0"):
        rules.replace(pile_top_meld=False)
    with pytest.raises(RulesError, match="pile_streak_limit=0"):
        make_rules(preset, players=players, pile_top_meld=True).replace(
            pile_streak_limit="0", pile_top_meld="false"
        )
    with pytest.raises(RulesError, match="pile_streak_limit=0"):
        Game(preset, players=players, pile_streak_limit=0, pile_top_meld=False)


def test_every_preset_keeps_its_default_limit_and_only_fechado_may_drop_it() -> None:
    # RULINGS 9: every hand ends; fechado takes the pile only to meld its top card
    for preset, spec in PRESETS.items():
        for players in spec.players:
            rules = make_rules(preset, players=players)
            assert rules.pile_streak_limit == 12
            if rules.pile_top_meld:
                assert make_rules(preset, players=players, pile_streak_limit=0)
            else:
                with pytest.raises(RulesError, match="0 only with pile_top_meld=true"):
                    make_rules(preset, players=players, pile_streak_limit=0)
    assert [p for p, spec in PRESETS.items() if spec.options.get("pile_top_meld")] == ["fechado"]


def test_a_record_with_the_refused_combination_is_refused_with_the_reason() -> None:
    # RULINGS 9: every hand ends; a record saved before the combination was refused names why
    # it no longer replays instead of failing somewhere inside
    record = Game("aberto", players=2, seed=1, match=False).record()
    record["rules"]["options"] = {"pile_streak_limit": 0}
    with pytest.raises(
        RecordError, match=r"^record rules: pile_streak_limit=0 .*\(RULINGS 9: every hand ends\)"
    ):
        replay(record)
    # with pile_top_meld it replays
    game = Game("fechado", players=2, seed=1, match=False, pile_streak_limit=0)
    game.apply("draw")
    again = replay(game.record())
    assert again.rules.pile_streak_limit == 0 and again.events == game.events


def test_without_the_limit_or_pile_top_meld_the_pile_would_go_round_forever() -> None:
    # RULINGS 9: every hand ends. What the refusal prevents: rules built around the check
    # (dataclasses.replace skips it) let two players take the pile and discard another card
    # turn after turn; nothing reaches the table and the stock never shrinks
    rules = dataclasses.replace(make_rules("aberto", players=2), pile_streak_limit=0)
    game = Game(rules, seed=3, match=False)
    game.apply(DRAW)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    before = (left(game), len(game.stock))
    for _ in range(2000):
        game.apply(TAKE_PILE)
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    assert not game.is_hand_over()
    assert (left(game), len(game.stock)) == before
    assert TAKE_PILE in game.legal_actions()


def test_the_streak_limit_stops_the_same_play() -> None:
    # RULINGS 9: every hand ends (pile_streak_limit, default 12): the same play, taking the
    # pile whenever it may, must draw after 12 takes in a row that put nothing down
    game = Game("aberto", players=2, seed=3, match=False)
    game.apply(DRAW)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    turns = 0
    while not game.is_hand_over():
        action = TAKE_PILE if TAKE_PILE in game.legal_actions() else DRAW
        game.apply(action)
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)))
        turns += 1
        assert turns <= 13 * 200
    assert game.ended_by == "stock"
    notes = [e.note for e in game.events if e.note.startswith(STREAK_NOTE)]
    assert len(notes) == sum(1 for e in game.events if e.action == DRAW) - 1


def test_a_wild_moves_at_most_once_per_meld_per_turn() -> None:
    # RULINGS 9: no sequence of moves may loop forever; RULINGS 5: in us a wild moves inside
    # its meld, so a turn could swing it from end to end without end: once per meld per turn
    game = play(
        "us",
        2,
        hands=["5S 6S 7S JK 9S TS JS QS 3D 5D 8D"],
        stock="KD 7C KH",
        actions=["draw", "meld 5S 6S 7S JK", "meld 9S TS JS QS"],  # 85 points: opened
    )
    game.apply("move 1 low")
    assert not [a for a in legal(game) if a.startswith("move")]
    assert "a wild moves at most once a turn" in refuse(game, "move 1 high", "wild-moves")
    game.apply("discard KD")
    game.apply("draw")
    game.apply("discard 7C")
    game.apply("draw")
    assert "move 1 high" in legal(game)  # a new turn


# ----------------------------------------------------------------------------------------
# searching for loops
# ----------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seating=st.sampled_from(SEATINGS),
    seed=SEEDS,
    kinds=BOT_KINDS,
    keep_taken_top=st.booleans(),
    wild_moves=st.booleans(),
    pot_to_stock=st.booleans(),
    opening=st.sampled_from([None, 0, 75]),
)
def test_without_a_streak_limit_every_take_melds_and_every_hand_ends(
    seating: tuple[str, int, tuple[tuple[str, Any], ...]],
    seed: int,
    kinds: list[str],
    keep_taken_top: bool,
    wild_moves: bool,
    pot_to_stock: bool,
    opening: int | None,
) -> None:
    # RULINGS 9: every hand ends. pile_top_meld with no streak limit, on every preset: every
    # turn draws or puts a card on the table for good, so `left` (stock, mortos and the cards
    # not on the table) shrinks every turn and the hand lasts at most `left` turns as dealt
    preset, players, extra = seating
    options: dict[str, Any] = dict(extra)
    if opening is not None:
        options["opening_minimum"] = opening
    rules = make_rules(
        preset,
        players=players,
        pile_top_meld=True,
        pile_streak_limit=0,
        keep_taken_top=keep_taken_top,
        wild_moves=wild_moves,
        pot_to_stock=pot_to_stock,
        **options,
    )
    game = Game(rules, seed=seed, match=False)
    bound = left(game)
    marks = play_counting(game, bots_of(kinds, players, seed), max_turns=bound)
    shrinks = [later < earlier for earlier, later in pairwise(marks)]
    assert all(shrinks), f"turn {shrinks.index(False) + 1} neither drew nor put a card down"
    took = sum(1 for e in game.events if isinstance(e.action, TakePile))
    assert len(marks) - 1 <= bound and took <= rules.deck_size


@settings(max_examples=40, deadline=None)
@given(seating=st.sampled_from(SEATINGS), seed=SEEDS, kinds=BOT_KINDS)
def test_with_the_default_streak_limit_the_pile_takers_finish(
    seating: tuple[str, int, tuple[tuple[str, Any], ...]], seed: int, kinds: list[str]
) -> None:
    # RULINGS 9: every hand ends (pile_streak_limit, default 12), taking the pile whenever it
    # may and pile_top_meld off (fechado too). `left` never grows, and at most `limit` turns
    # in a row leave it as it was (takes that put no card down); so the hand lasts at most
    # left + (left + 1) * limit turns as dealt
    preset, players, extra = seating
    rules = make_rules(preset, players=players, pile_top_meld=False, **dict(extra))
    limit = rules.pile_streak_limit
    assert limit == 12
    game = Game(rules, seed=seed, match=False)
    start = left(game)
    bound = start + (start + 1) * limit
    marks = play_counting(game, bots_of(kinds, players, seed), max_turns=bound)
    still = 0
    for earlier, later in pairwise(marks):
        assert later <= earlier, "cards came back from the table, the stock or the mortos"
        still = still + 1 if later == earlier else 0
        assert still <= limit, f"{still} turns in a row neither drew nor put a card down"
