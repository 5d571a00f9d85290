"""Rule tests for the ``aberto`` preset: Buraco Aberto as described in 001 (main text).

Every test cites the sentence of the rule source (``001 ...``) or the ruling
(``RULINGS n``) it checks. Scenarios deal named cards with a stacked deck; the
cards not named are fillers chosen not to form melds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from buraco import (
    Game,
    IllegalAction,
    NotationError,
    Phase,
    RulesError,
    card_name,
    deck_for,
    make_rules,
    replay,
)
from scenario import (
    draw_and_discard,
    finish_by_stock,
    legal,
    melds,
    names,
    play,
    points,
    refuse,
)

# Seat 0 goes out on the first turn: melds its whole hand (taking the morto directly),
# melds all but one morto card and discards the last one.
OUT_HAND = "8H 9H TH JH QH KH AH 8S 9S TS JS"
OUT_POT = "3C 4C 5C 6C 7C 8C 9C TC JC QC KD"
OUT_ACTIONS = [
    "draw",
    "meld 8H 9H TH JH QH KH AH",
    "meld 8S 9S TS JS QS",
    "meld 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "discard KD",
]
# melds 75 + 50 + 75, two clean canastras, going out
OUT_SCORE = 200 + 400 + 100


def go_out(players: int = 2, others: Sequence[str] = (), **kw: Any) -> Game:
    hands = [OUT_HAND, *others]
    return play(
        "aberto", players, hands=hands, pots=[OUT_POT], stock="QS", actions=OUT_ACTIONS, **kw
    )


# ----- deck and deal -----------------------------------------------------------------


@pytest.mark.parametrize(("players", "stock"), [(2, 64), (4, 42)])
def test_deal_uses_108_cards_11_each_two_mortos_and_the_rest_as_stock(
    players: int, stock: int
) -> None:
    # 001 §Players and Cards: a 108-card pack ... two standard 52-card packs with four jokers;
    # two 11-card piles (mortos); 11 to each player; the remaining 42 cards form the draw pile
    # (2 players: 108 - 22 - 22 = 64, RULINGS table "players 2 or 4")
    for seed in (1, 2, 3):
        g = Game("aberto", players=players, seed=seed)
        assert [len(g.hand(s)) for s in range(players)] == [11] * players
        assert [len(p) for p in g.pots] == [11, 11]
        assert len(g.stock) == stock
        # 001: the game begins with the discard pile empty
        assert g.pile == []
        everything = [c for s in range(players) for c in g.hand(s)]
        everything += [c for p in g.pots for c in p] + list(g.stock)
        counts = Counter(card_name(c) for c in everything)
        assert len(everything) == 108
        assert counts["JK"] == 4
        assert all(n == 2 for name, n in counts.items() if name != "JK")
        assert len(counts) == 53


def test_other_player_counts_are_refused() -> None:
    # RULINGS table: aberto is played by 2 or 4 players
    with pytest.raises(RulesError):
        make_rules("aberto", players=3)


@pytest.mark.parametrize(
    ("cards", "total"),
    [
        # joker 20, two 10, ace 15, K..8 10 each, 7 and 3 at 5
        ("JK 2C AC KC QC JC TC 9C 8C 7C 3C", 20 + 10 + 15 + 60 + 5 + 5),
        # 3..7 are worth 5 each
        ("3D 4D 5D 6D 7D 3S 4S 5S 6S 7S 2D", 50 + 10),
        ("JK JK AD AS KS QS JD TD 9S 8S 2S", 40 + 30 + 60 + 10),
    ],
)
def test_card_values_are_charged_for_cards_left_in_hand(cards: str, total: int) -> None:
    # 001 §Players and Cards: the card values; 001 scoring: cards in players' hands minus card
    # value
    assert points(cards) == total
    g = go_out(others=[cards])
    assert g.is_hand_over()
    assert g.scores()[1].hand == -total


def test_card_values_are_counted_for_melded_cards() -> None:
    # 001 scoring: cards in melds on the table plus card value
    g = play(
        "aberto",
        hands=["AH 2H 3H QS KS AS 7D 8D 9D JK 4C"],
        stock="5C",
        actions=["draw", "meld AH 2H 3H", "meld QS KS AS", "meld 7D 8D 9D JK"],
    )
    assert [m.value for m in g.melds[0]] == [15 + 10 + 5, 10 + 10 + 15, 5 + 10 + 10 + 20]
    assert g.scores()[0].melds == 30 + 35 + 45


def test_both_partners_hands_count_against_their_side() -> None:
    # 001 §Players and Cards: four players in two fixed partnerships; scoring: cards in
    # players' hands minus card value (seats 0 and 2 against seats 1 and 3)
    seat1 = "JK 2C AC KC QC JC TC 9C 8C 7C 3C"
    seat2 = "3D 4D 5D 6D 7D 3S 4S 5S 6S 7S 2D"
    seat3 = "JK AD AS KS QS JD TD 9S 8S 2S 5H"
    g = go_out(4, [seat1, seat2, seat3])
    s0, s1 = g.scores()
    assert s0.hand == -points(seat2)
    assert s1.hand == -(points(seat1) + points(seat3))
    assert s0.total == OUT_SCORE - points(seat2)


# ----- the first turn ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "dealer", "first"), [(2, 1, 0), (2, 0, 1), (4, 3, 0), (4, 1, 2)]
)
def test_first_player_is_the_seat_after_the_dealer(players: int, dealer: int, first: int) -> None:
    # RULINGS 1: the first player of a hand is the seat after the dealer
    g = play("aberto", players, dealer=dealer)
    assert g.dealer == dealer
    assert g.to_move == first
    assert legal(g) == ["draw"]


def test_first_player_may_keep_the_first_card_unseen_by_the_others() -> None:
    # 001 first turn option 1: keep the first card; ... discard one card to end the turn.
    # 001 note: if the first player keeps the first card, the other players do not know what
    # it was.
    g = play("aberto", hands=["3D 6D 9D QD 5S 8S JS KC AD 4D 7D"], stock="9C 5H")
    g.apply("draw")
    assert "9C" in names(g, 0)
    assert "turn-up" in legal(g)
    g.apply("discard QD")
    assert "9C" in names(g, 0)
    assert g.view(1)["pile"] == ["QD"]
    assert any("9C" in line for line in g.view(0)["log"])
    assert not any("9C" in line for line in g.view(1)["log"])
    # the next player draws the next card normally, with no turn-up choice
    g.apply("draw")
    assert "5H" in names(g, 1)
    assert "turn-up" not in legal(g)


@pytest.mark.parametrize("players", [2, 4])
def test_first_player_may_turn_up_the_first_card_and_draw_the_next(players: int) -> None:
    # 001 first turn option 2: discard the first card face up; take a second card from the
    # draw pile; ... discard a second card face up on top of the first. RULINGS 3.
    g = play("aberto", players, hands=["3D 6D 9D QD 5S 8S JS KC AD 4D 7D"], stock="9C 5H")
    stock = len(g.stock)
    g.apply("draw")
    g.apply("turn-up")
    assert "9C" not in names(g, 0)
    assert "5H" in names(g, 0)
    assert len(g.hand(0)) == 12
    assert len(g.stock) == stock - 2
    assert all(g.view(s)["pile"] == ["9C"] for s in range(players))
    assert "turn-up" not in legal(g)
    refuse(g, "turn-up", "first-turn")
    g.apply("discard QD")
    assert g.view(1)["pile"] == ["9C", "QD"]
    assert g.to_move == 1
    # the next player may take the whole pile, turned-up card included
    g.apply("take-pile")
    assert {"9C", "QD"} <= set(names(g, 1))
    assert g.pile == []


def test_turn_up_is_a_choice_made_before_playing() -> None:
    # 001: the first player takes the top card, looks at it, and decides whether or not to
    # keep it (RULINGS 3: keeps it, or turns it up and draws the next) - not after melding
    g = play("aberto", hands=["3H 4H 5H"], stock="9C", actions=["draw", "meld 3H 4H 5H"])
    assert "turn-up" not in legal(g)
    refuse(g, "turn-up", "first-turn")


# ----- drawing and the open discard pile ---------------------------------------------


def test_a_turn_is_draw_then_optional_melds_then_one_discard() -> None:
    # 001: each turn consists of taking the top card of the draw pile or the whole discard
    # pile; optionally putting down melds; discarding one card face up
    g = play("aberto", hands=["3D 6D 9D QD 5S 8S JS KC AD 4D 7D"], stock="9C 5H")
    refuse(g, "discard QD", "phase")
    refuse(g, "take-pile")  # the pile is empty at the start of the hand
    g.apply("draw")
    assert g.phase == Phase.PLAY
    refuse(g, "draw", "phase")
    g.apply("discard 9C")
    assert g.to_move == 1
    assert g.view(1)["phase"] == "draw"
    assert set(legal(g)) == {"draw", "take-pile"}


def test_the_whole_pile_can_always_be_taken() -> None:
    # 001: taking ... the whole of the face-up discard pile (aberto: always allowed, RULINGS
    # table), even when none of its cards can be melded
    g = play(
        "aberto",
        hands=["3D 6D 9D QD 5S 8S JS KC AD 4D 7D", "AC 4C 7C TC 3H 6H 9H QH 5C 8C JC"],
        stock="KH 2S 9S",
        actions=["draw", "discard KH", "draw", "discard 2S", "draw", "discard 9S"],
    )
    assert g.to_move == 1
    assert "take-pile" in legal(g)
    g.apply("take-pile")
    assert g.pile == []
    assert len(g.hand(1)) == 11 + 3
    assert Counter(names(g, 1)) >= Counter(["KH", "2S", "9S"])
    # no obligation to meld: the turn goes on normally
    assert g.phase == Phase.PLAY
    # 000 §Turn Structure, RULINGS 15: the taken top card (9S) may not be discarded this turn;
    # the other cards of the pile may
    refuse(g, "discard 9S", "keep-taken-top")
    g.apply("discard KH")
    assert g.view(0)["pile"] == ["KH"]


@pytest.mark.parametrize("players", [2, 4])
def test_the_open_pile_shows_every_card(players: int) -> None:
    # 001: in this open game, the cards of the discard pile are overlapped, so that all their
    # values can be seen
    g = play("aberto", players, stock="KH 2S 9S")
    discards = []
    for _ in range(3):
        discards.append(draw_and_discard(g))
    for s in range(players):
        view = g.view(s)
        assert view["pile_open"] is True
        assert view["pile"] == discards
        assert view["pile_size"] == 3


def test_after_twelve_pile_takes_in_a_row_the_next_player_must_draw() -> None:
    # RULINGS 9: every hand ends (pile_streak_limit, default 12)
    g = play("aberto", stock="KH", actions=["draw", "discard KH"])
    for _ in range(12):
        assert "take-pile" in legal(g)
        g.apply("take-pile")
        g.apply(next(a for a in legal(g) if a.startswith("discard")))
    assert legal(g) == ["draw"]
    refuse(g, "take-pile", "pile-streak")
    # the log says why the pile may not be taken
    assert g.events[-1].note.startswith("must draw from the stock (pile_streak_limit)")
    g.apply("draw")


def test_a_pile_take_that_puts_a_card_on_the_table_ends_the_streak() -> None:
    # RULINGS 9: the limit exists so that every hand ends; a turn that leaves a card on the
    # table makes progress, so only takes that put no card down count toward it
    g = play(
        "aberto",
        hands=["3H 4H 5H 6H 7H 8D JS", ""],
        stock="KH",
        actions=["draw", "meld 3H 4H 5H", "discard KH"],
        pile_streak_limit=2,
    )

    def take_and_discard() -> None:
        g.apply("take-pile")
        g.apply(next(a for a in legal(g) if a.startswith("discard")))

    take_and_discard()  # seat 1: a take that puts nothing down (1 in a row)
    g.apply("take-pile")  # seat 0 takes the pile and adds to its meld: the streak ends
    g.apply("add 1 6H")
    g.apply(next(a for a in legal(g) if a.startswith("discard")))
    take_and_discard()  # seat 1: 1 in a row again
    assert "take-pile" in legal(g)
    take_and_discard()  # seat 0: 2 in a row: seat 1 must draw
    assert legal(g) == ["draw"]


# ----- melds: runs only ----------------------------------------------------------------


def test_a_run_is_three_or_more_consecutive_cards_of_one_suit() -> None:
    # 001: a meld consists of a sequence of three or more consecutive cards of a suit
    g = play("aberto", hands=["3H 4H 5H 6H 4S 8C"], stock="9D", actions=["draw"])
    assert {"meld 3H 4H 5H", "meld 3H 4H 5H 6H", "meld 4H 5H 6H"} <= set(legal(g))
    assert "at least 3 cards" in refuse(g, "meld 3H 4H", "meld-shape")
    refuse(g, "meld 3H 4H 6H", "meld-shape")
    refuse(g, "meld 3H 4S 5H", "meld-shape")
    g.apply("meld 3H 4H 5H 6H")
    assert melds(g, 0) == ["3H 4H 5H 6H"]
    assert g.melds[0][0].clean


@pytest.mark.parametrize("cards", ["5C 5D 5H", "5C 5D JK", "KC KD KH KS"])
def test_sets_of_equal_cards_are_refused_with_a_message(cards: str) -> None:
    # 001: in Buraco Aberto there are no sets of equal cards, only sequences
    g = play("aberto", hands=["5C 5D 5H JK KC KD KH KS"], stock="9D", actions=["draw"])
    melds = [a.split()[1:] for a in legal(g) if a.startswith("meld")]
    assert melds  # runs with the joker are offered, but every one is of a single suit
    assert all(len({c[1] for c in m if c != "JK"}) == 1 for m in melds)
    message = refuse(g, f"meld {cards}", "meld-shape")
    assert "sets are not allowed" in message


def test_opponents_melds_are_out_of_reach() -> None:
    # 001: each team keeps its melds together. Players can add cards to their own team's melds
    # but not to melds put down by their opponents.
    g = play(
        "aberto",
        4,
        hands=["3H 4H 5H", "6H 9C"],
        stock="KD KS",
        actions=["draw", "meld 3H 4H 5H", "discard KD", "draw"],
    )
    assert g.to_move == 1
    assert not any(a.startswith("add") for a in legal(g))
    assert "no melds" in refuse(g, "add 1 6H", "meld-number")
    assert melds(g, 0) == ["3H 4H 5H"]
    assert melds(g, 1) == []


def test_partners_add_to_each_others_melds() -> None:
    # 001: players can add cards to their own team's melds
    g = play(
        "aberto",
        4,
        hands=["3H 4H 5H", "9C", "6H 9D"],
        stock="KD KS KC",
        actions=["draw", "meld 3H 4H 5H", "discard KD", "draw", "discard KS", "draw"],
    )
    assert g.to_move == 2
    assert "add 1 6H high" in legal(g)
    g.apply("add 1 6H")
    assert melds(g, 0) == ["3H 4H 5H 6H"]


# ----- aces, twos and wild cards ---------------------------------------------------------


def test_ace_is_low_below_the_two_or_high_above_the_king() -> None:
    # 001: for this purpose the cards rank A-2-3-4-5-6-7-8-9-10-J-Q-K-A (RULINGS 6)
    g = play("aberto", hands=["AH 2H 3H QS KS AS 9C"], stock="4D", actions=["draw"])
    assert {"meld AH 2H 3H", "meld QS KS AS"} <= set(legal(g))
    g.apply("meld AH 2H 3H")
    g.apply("meld QS KS AS")
    assert all(m.clean for m in g.melds[0])


def test_no_wrap_around_from_king_through_ace_to_two() -> None:
    # RULINGS 6: no wrap-around (K-A-2)
    g = play("aberto", hands=["KH AH 2H 3H QH 9C"], stock="4D", actions=["draw"])
    assert "wrap" in refuse(g, "meld KH AH 2H", "meld-shape")
    refuse(g, "meld QH KH AH 2H", "meld-shape")
    refuse(g, "meld KH AH 2H 3H", "meld-shape")


def test_a_fourteen_card_run_has_an_ace_at_each_end() -> None:
    # 001: it is possible to have a 14-card sequence with an ace at each end (RULINGS 6: both
    # ends at once only in a 14-card run); canastra meia real (clean 13 cards) 500, canastra
    # real (clean 14 cards) 1000
    g = play(
        "aberto",
        hands=["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"],
        pots=["AH AH 5C 9S"],
        stock="KH",
        actions=["draw", "meld 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"],
    )
    # the 12-card run 2-K takes an ace at either end: the player must say which
    with pytest.raises(NotationError):
        g.apply("add 1 AH")
    low = g.clone()
    low.apply("add 1 AH low")
    assert melds(low, 0)[0].startswith("AH 2H")
    high = g.clone()
    high.apply("add 1 AH high")
    assert melds(high, 0)[0].endswith("KH AH")
    for thirteen in (low, high):
        assert thirteen.melds[0][0].size == 13
        assert thirteen.scores()[0].bonuses == 500
        thirteen.apply("add 1 AH")
        assert melds(thirteen, 0) == ["AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"]
        assert thirteen.scores()[0].bonuses == 1000
        assert thirteen.scores()[0].canastras == ("clean-14",)


def test_a_meld_holds_at_most_one_wild_card() -> None:
    # 001: a meld can contain at most one wild card (a joker or a two) (RULINGS 4)
    g = play("aberto", hands=["3H JK 5H 2S 7H 8H 2C 9C"], stock="4D", actions=["draw"])
    assert "one wild" in refuse(g, "meld 3H JK 5H 2S 7H", "meld-shape")
    refuse(g, "meld JK 2S 5H", "meld-shape")
    g.apply("meld 3H JK 5H")
    assert "add 1 2S high" not in legal(g)
    assert "one wild" in refuse(g, "add 1 2S high", "one-wild")
    refuse(g, "add 1 2C low", "one-wild")


def test_a_two_of_the_suit_below_the_three_is_natural() -> None:
    # 001: a two of the correct suit can alternatively be used as a natural card, immediately
    # below the three; a sequence consisting entirely of natural cards is clean (RULINGS 4)
    g = play("aberto", hands=["AH 2H 3H 4H 5H 6H 7H 2S 3S 4S"], stock="9D", actions=["draw"])
    g.apply("meld AH 2H 3H 4H 5H 6H 7H")
    g.apply("meld 2S 3S 4S")
    assert all(m.clean for m in g.melds[0])
    assert [m["wild"] for m in g.view(0)["melds"][0]] == [None, None]
    # 001: canastra limpa (clean sequence of 7+ cards) 200 points extra
    assert g.scores()[0].canastras == ("clean",)
    assert g.scores()[0].bonuses == 200


def test_a_run_may_hold_a_natural_two_and_a_wild_two() -> None:
    # 001: it is possible for a sequence to contain a wild two or joker in addition to a
    # natural two (RULINGS 4: A-2H-2S-4...)
    g = play("aberto", hands=["AH 2H 2S 4H 5D 2D JK 3D"], stock="9C", actions=["draw"])
    assert "meld AH 2H 2S 4H" in legal(g)
    g.apply("meld AH 2H 2S 4H")
    (meld,) = g.view(0)["melds"][0]
    assert meld["cards"] == ["AH", "2H", "2S", "4H"]
    assert meld["wild"] == 2  # the 2S stands for the 3H
    assert meld["clean"] is False
    # with a joker instead of the wild 2 as well
    g.apply("meld 2D 3D JK 5D")
    assert g.view(0)["melds"][0][1]["wild"] == 2


def test_a_two_of_the_suit_added_below_the_three_is_natural_elsewhere_wild() -> None:
    # 001: a two of the correct suit can be used as a natural card, immediately below the
    # three (RULINGS 4: a 2 of the run's suit in the 2-slot is natural)
    g = play("aberto", hands=["3H 4H 5H 9C"], stock="2H", actions=["draw", "meld 3H 4H 5H"])
    with pytest.raises(NotationError):
        g.apply("add 1 2H")  # low (natural) or high (wild 6H): the player must say
    low = g.clone()
    low.apply("add 1 2H low")
    assert melds(low, 0) == ["2H 3H 4H 5H"]
    assert low.melds[0][0].clean
    high = g.clone()
    high.apply("add 1 2H high")
    assert melds(high, 0) == ["3H 4H 5H 2H"]
    assert not high.melds[0][0].clean
    # a two of another suit below the three is a wild card
    other = play("aberto", hands=["3H 4H 5H 9C"], stock="2S", actions=["draw", "meld 3H 4H 5H"])
    other.apply("add 1 2S low")
    assert melds(other, 0) == ["2S 3H 4H 5H"]
    assert not other.melds[0][0].clean


# ----- where a wild sits; freeing a wild ---------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "index"), [("3H 4H JK 6H", 2), ("JK 3H 4H 5H", 0), ("3H 4H 5H JK", 3)]
)
def test_a_meld_records_where_its_wild_stands(cards: str, index: int) -> None:
    # RULINGS 5: a meld records each wild's position (written where it stands)
    g = play("aberto", hands=["3H 4H 5H 6H JK 9C"], stock="9D", actions=["draw", f"meld {cards}"])
    (meld,) = g.view(0)["melds"][0]
    assert meld["cards"] == cards.split()
    assert meld["wild"] == index
    assert meld["clean"] is False


def test_adding_the_natural_card_frees_the_wild_to_the_end_the_player_chooses() -> None:
    # RULINGS 5: adding the natural card a wild stands for frees the wild; the player chooses
    # where it goes (either end) when both are possible
    g = play(
        "aberto", hands=["3H 4H JK 6H 5H 9C"], stock="9D", actions=["draw", "meld 3H 4H JK 6H"]
    )
    assert {"add 1 5H wild-low", "add 1 5H wild-high"} <= set(legal(g))
    with pytest.raises(NotationError):
        g.apply("add 1 5H")
    low = g.clone()
    low.apply("add 1 5H wild-low")
    assert melds(low, 0) == ["JK 3H 4H 5H 6H"]
    high = g.clone()
    high.apply("add 1 5H wild-high")
    assert melds(high, 0) == ["3H 4H 5H 6H JK"]
    assert not high.melds[0][0].clean


def test_a_wild_does_not_move_within_its_meld() -> None:
    # RULINGS 5: only in `us` may a wild be moved inside its own meld (wild_moves)
    g = play("aberto", hands=["3H 4H 5H JK 9C"], stock="9D", actions=["draw", "meld 3H 4H 5H JK"])
    assert not any(a.startswith("move") for a in legal(g))
    assert "not allowed in aberto" in refuse(g, "move 1 low", "wild-moves")


def test_the_freed_wild_goes_to_the_only_free_end() -> None:
    # RULINGS 5: the player chooses where the freed wild goes when both are possible (here the
    # low end is the ace, so only the high end is free)
    g = play("aberto", hands=["AH JK 3H 2H 9C"], stock="9D", actions=["draw", "meld AH JK 3H"])
    assert "add 1 2H wild-low" not in legal(g)
    refuse(g, "add 1 2H wild-low", "placement")
    g.apply("add 1 2H")
    assert melds(g, 0) == ["AH 2H 3H JK"]


def test_freeing_a_wild_with_no_free_end_is_illegal() -> None:
    # RULINGS 5: when none is possible the add is illegal (a 14-card run A..A has no end left)
    g = play(
        "aberto",
        hands=["AH 2H 3H 4H 5H JK 7H 8H 9H TH JH"],
        pots=["KH AH 6H 5C"],
        stock="QH",
        actions=["draw", "meld AH 2H 3H 4H 5H JK 7H 8H 9H TH JH QH"],
    )
    assert "add 1 6H wild-high" in legal(g)  # still room at the high end
    g.apply("add 1 KH")
    g.apply("add 1 AH")
    assert g.melds[0][0].size == 14
    assert not any(a.startswith("add 1 6H") for a in legal(g))
    assert "no end" in refuse(g, "add 1 6H", "wild-place")
    refuse(g, "add 1 6H wild-high")
    # 001: canastra suja (7+ card sequence including wild card) 100 points extra: the 14-card
    # real bonus needs a clean run
    assert g.scores()[0].canastras == ("dirty",)
    assert g.scores()[0].bonuses == 100


def test_a_freed_wild_two_that_lands_below_the_three_becomes_natural() -> None:
    # 001: a two of the correct suit can be used as a natural card immediately below the three;
    # RULINGS 4: a 2 of the run's suit in the 2-slot is natural
    g = play(
        "aberto", hands=["3H 4H 2H 6H 5H 9C"], stock="9D", actions=["draw", "meld 3H 4H 2H 6H"]
    )
    assert not g.melds[0][0].clean
    g.apply("add 1 5H wild-low")
    assert melds(g, 0) == ["2H 3H 4H 5H 6H"]
    assert g.melds[0][0].clean
    assert g.view(0)["melds"][0][0]["wild"] is None


# ----- canastras -----------------------------------------------------------------------


def test_a_seventh_card_makes_a_clean_canastra() -> None:
    # 001: a sequence of seven or more cards is called a canastra, and the team scores a bonus
    # for this; canastra limpa (clean sequence of 7+ cards) 200 points extra
    g = play(
        "aberto",
        hands=["3H 4H 5H 6H 7H 8H 9H 3S 4S 5S 6S"],
        stock="KD",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H", "meld 3S 4S 5S 6S"],
    )
    assert g.scores()[0].bonuses == 0
    assert g.view(0)["melds"][0][0]["canastra"] is False
    g.apply("add 1 9H")
    assert g.view(0)["melds"][0][0]["canastra"] is True
    assert g.scores()[0].canastras == ("clean",)
    assert g.scores()[0].bonuses == 200


def test_a_seventh_card_makes_a_dirty_canastra() -> None:
    # 001: a sequence of seven or more cards is called a canastra ... canastra suja (7+ card
    # sequence including wild card) 100 points extra
    g = play(
        "aberto",
        hands=["3S 4S JK 6S 7S 8S 9S QD"],
        stock="KC",
        actions=["draw", "meld 3S 4S JK 6S 7S 8S"],
    )
    assert g.scores()[0].bonuses == 0
    g.apply("add 1 9S")
    assert g.melds[0][0].canastra
    assert g.scores()[0].canastras == ("dirty",)
    assert g.scores()[0].bonuses == 100


def test_clean_thirteen_card_run_scores_500() -> None:
    # 001: canastra meia real (clean 13-card sequence) 500 points extra
    g = play(
        "aberto",
        hands=["AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH"],
        pots=["KH 5C 9S"],
        stock="QH",
        actions=["draw", "meld AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"],
    )
    assert g.scores()[0].bonuses == 200  # twelve cards: an ordinary clean canastra
    g.apply("add 1 KH")
    assert g.scores()[0].canastras == ("clean-13",)
    assert g.scores()[0].bonuses == 500


# ----- vulnerability ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "scores", "required"),
    [
        (2, [1500, 0], [75, 0]),
        (2, [1499, 1600], [0, 75]),
        (4, [0, 2999], [0, 75]),
        (4, [1500, 1500], [75, 75]),
    ],
)
def test_a_side_at_half_the_target_is_vulnerable(
    players: int, scores: list[int], required: list[int]
) -> None:
    # 001: a team whose cumulative score is at least half the target score (at least 1500 when
    # playing to 3000) is vulnerable; its first meld(s) must have a card value of at least 75
    g = play("aberto", players, scores=scores)
    view = g.view(0)
    assert view["vulnerable"] == [r > 0 for r in required]
    assert view["requirement"] == required


def test_a_vulnerable_sides_short_first_melds_go_back_to_the_hand() -> None:
    # 001: the first meld(s) put down by a vulnerable team must have a card value of at least
    # 75 points (reading: staged melds return to the hand when the turn ends short; no penalty)
    hand = "3H 4H 5H 9S TS JS QS KS AS 7C JC"
    g = play(
        "aberto", hands=[hand], stock="KH", scores=[1500, 0], actions=["draw", "meld 3H 4H 5H"]
    )
    assert g.view(0)["melds"][0][0]["staged"] is True
    assert g.scores()[0].melds == 0
    g.apply("discard KH")
    assert g.melds[0] == []
    assert Counter(names(g, 0)) == Counter(hand.split())
    assert g.view(1)["requirement"] == [75, 0]
    assert g.scores()[0].hand == -points(hand)


def test_a_vulnerable_side_opens_with_several_melds_and_adds_worth_75() -> None:
    # 001: the first meld(s) put down by a vulnerable team must have a card value of at least
    # 75 points - several melds together count
    g = play(
        "aberto",
        hands=["3H 4H 5H 9S TS JS QS KS AS 6H"],
        stock="7C",
        scores=[1500, 0],
        actions=["draw", "meld 3H 4H 5H", "add 1 6H"],
    )
    assert g.view(0)["requirement"][0] == 75  # 20 so far
    g.apply("meld 9S TS JS QS KS AS")  # 20 + 65 = 85
    assert g.view(0)["requirement"][0] == 0
    assert not any(m["staged"] for m in g.view(0)["melds"][0])
    g.apply("discard 7C")
    assert melds(g, 0) == ["3H 4H 5H 6H", "9S TS JS QS KS AS"]
    assert g.scores()[0].melds == 85


def test_a_vulnerable_sides_later_melds_have_no_minimum() -> None:
    # 001: the first meld(s) ... must have a card value of at least 75 points (only the first)
    g = play(
        "aberto",
        hands=["9S TS JS QS KS AS 8S 3D 4D 5D 7C", "6H 9H QH 3C 6C 9C QC 3S 6S 9D QD"],
        stock="KH 4C 2C",
        scores=[1500, 0],
        actions=["draw", "meld 8S 9S TS JS QS KS AS", "discard KH", "draw", "discard 4C", "draw"],
    )
    assert g.view(0)["requirement"] == [0, 0]
    g.apply("meld 3D 4D 5D")
    g.apply("discard 2C")
    assert melds(g, 0)[-1] == "3D 4D 5D"


def test_partners_share_the_vulnerability_of_their_side() -> None:
    # 001: a team whose cumulative score is at least half the target is vulnerable
    g = play(
        "aberto",
        4,
        hands=["9C", "3S 4S 5S", "3H 4H 5H"],
        stock="KD KS KC",
        scores=[1500, 0],
        actions=[
            "draw",
            "discard KD",
            "draw",
            "meld 3S 4S 5S",
            "discard KS",
            "draw",
            "meld 3H 4H 5H",
            "discard KC",
        ],
    )
    assert melds(g, 1) == ["3S 4S 5S"]  # side 1 is not vulnerable
    assert melds(g, 0) == []  # seat 2's 15 points were short of 75
    assert {"3H", "4H", "5H"} <= set(names(g, 2))


def test_vulnerability_follows_the_match_totals_from_hand_to_hand() -> None:
    # 001: a team whose cumulative score is at least half the target score is vulnerable
    g = go_out(match=True, scores=[900, 0])
    assert g.totals[0] == 900 + OUT_SCORE
    g.next_hand()
    assert g.view(0)["vulnerable"] == [True, False]
    assert g.view(0)["requirement"] == [75, 0]


# ----- the mortos ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_melding_the_last_card_takes_the_morto_and_play_goes_on(players: int) -> None:
    # 001: batida direta - all the player's cards are melded. The player picks up the morto
    # and carries on melding, until the turn is ended by discarding from the new hand.
    pot = "6D 7D 8D 9D TD JD QD KD AD AH AS"
    g = play(
        "aberto",
        players,
        hands=["3H 4H 5H 6H 7H 8H 3S 4S 5S 6S 7S"],
        pots=[pot],
        stock="9H",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H 9H", "meld 3S 4S 5S 6S 7S"],
    )
    assert Counter(names(g, 0)) == Counter(pot.split())
    assert g.pot_taken == [True, False]
    assert g.view(0)["pots"] == [11]
    assert g.to_move == 0
    assert g.phase == Phase.PLAY
    assert "meld 6D 7D 8D 9D TD JD QD KD AD" in legal(g)
    g.apply("meld 6D 7D 8D 9D TD JD QD KD AD")
    g.apply("discard AH")
    assert g.to_move == 1
    assert names(g, 0) == ["AS"]


@pytest.mark.parametrize("players", [2, 4])
def test_discarding_the_last_card_takes_the_morto_for_the_next_turn(players: int) -> None:
    # 001: batida indireta - when a player discards his or her last card to claim a morto, the
    # new 11-card hand cannot be used until the player's next turn
    pot = "6D 7D 8D 9D TD JD QD KD AD AH AS"
    g = play(
        "aberto",
        players,
        hands=["3H 4H 5H 6H 7H 8H 3S 4S 5S 6S 7S"],
        pots=[pot],
        stock="9H",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H 9H", "meld 3S 4S 5S 6S"],
    )
    g.apply("discard 7S")
    assert g.pot_taken == [True, False]
    assert Counter(names(g, 0)) == Counter(pot.split())
    assert g.to_move == 1
    assert g.view(1)["pile"] == ["7S"]
    with pytest.raises(IllegalAction):
        g.apply("meld 6D 7D 8D", seat=0)


def test_with_two_players_each_takes_a_morto() -> None:
    # 001: the first player who gets rid of the last card takes the first morto; the second
    # morto is taken by the first player of the other team who runs out (RULINGS 7: 2 players:
    # each their own)
    pot0 = "6D 7D 8D 9D TD JD QD KD AD AH AS"
    pot1 = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C"
    g = play(
        "aberto",
        hands=["3H 4H 5H 6H 7H 8H 3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H 8H 3S 4S 5S 6S 9S"],
        pots=[pot0, pot1],
        stock="9H 7S",
        actions=[
            "draw",
            "meld 3H 4H 5H 6H 7H 8H 9H",
            "meld 3S 4S 5S 6S 7S",
            "discard AS",
            "draw",
            "meld 3H 4H 5H 6H 7H 8H",
            "meld 3S 4S 5S 6S 7S",
        ],
    )
    assert g.pot_taken == [True, False]
    g.apply("discard 9S")
    assert g.pot_taken == [True, True]
    assert g.pots == []
    assert Counter(names(g, 1)) == Counter(pot1.split())


def test_with_partners_each_side_takes_one_morto() -> None:
    # 001: the first player who gets rid of the last card takes the first morto; the second
    # morto is taken by the first player of the other team who runs out of cards (RULINGS 7);
    # RULINGS 8: the partner may not empty the hand for a second morto of the same side
    pot1 = "2C 3D 4D 5D 6D 7D 8D 9D QC KC AC"
    g = play(
        "aberto",
        4,
        hands=[
            "3H 4H 5H JK 7H 8H 3S 4S 5S 6S 7S",
            "9C",
            "3C 4C 5C 6C 7C 8C TD JD QD KD AD",
            "3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        ],
        pots=["AD AH AS KD QD JD TD 9D 8D 7D 6D", pot1],
        stock="9H 5D 9S KS",
        actions=[
            "draw",
            "meld 3H 4H 5H JK 7H 8H 9H",
            "meld 3S 4S 5S 6S 7S",
            "discard 6D",
            "draw",
            "discard 5D",
            "draw",
            "meld 3C 4C 5C 6C 7C 8C",
        ],
    )
    assert g.to_move == 2
    assert g.pot_taken == [True, False]
    # side 0 has its morto and only a dirty canastra: seat 2 may not meld down to one card
    assert "meld TD JD QD KD AD" not in legal(g)
    assert "clean canastra" in refuse(g, "meld TD JD QD KD AD", "never-stranded")
    g.apply("discard 9S")
    g.apply("draw")
    g.apply("meld 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    g.apply("discard KS")
    assert g.pot_taken == [True, True]
    assert g.pots == []
    assert Counter(names(g, 3)) == Counter(pot1.split())


def test_a_morto_taken_by_discarding_and_never_played_costs_100() -> None:
    # 001: if a player takes a morto after discarding (batida indireta), but never plays a turn
    # with it because someone else goes out before the player's next turn, the team is charged
    # the 100 point penalty for the unused morto, rather than adding up the values of the cards
    pot1 = "AD AH AS KD QD JD TD 9D 8D 7D 6D"
    g = play(
        "aberto",
        hands=["3C 4C 5C 6C 7C 8C 9C TC JC QC KC", "3H 4H 5H 6H 7H 8H 9H 3S 4S 5S 6S"],
        pots=["TH JH QH KH 8S 9S TS JS QS KS 4D", pot1],
        stock="5D 7S 9H 9D",
        actions=[
            "draw",
            "discard 5D",
            "draw",
            "meld 3H 4H 5H 6H 7H 8H 9H",
            "meld 3S 4S 5S 6S 7S",
            "discard 4D",
            "draw",
            "meld 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
            "discard 9H",
            "draw",
            "add 1 TH",
            "add 1 JH",
            "add 1 QH",
            "add 1 KH",
            "add 2 8S",
            "add 2 9S",
            "add 2 TS",
            "add 2 JS",
            "add 2 QS",
            "add 2 KS",
            "discard 9D",
        ],
    )
    assert g.ended_by == "going-out"
    assert Counter(names(g, 0)) == Counter(pot1.split())
    s0 = g.scores()[0]
    assert points(pot1) != 100
    assert s0.hand == -100
    assert s0.pot == 0
    assert s0.total == points("3C 4C 5C 6C 7C 8C 9C TC JC QC KC") + 200 - 100


def test_a_morto_played_for_a_turn_counts_its_card_values() -> None:
    # 001: the 100 penalty applies only if the player never plays a turn with the morto;
    # otherwise the cards in players' hands count minus their card value
    pot1 = "AD AH AS KD QD JD TD 9D 8D 7D 6D"
    g = play(
        "aberto",
        hands=["3C 4C 5C 6C 7C 8C 9C TC JC QC KC", "3H 4H 5H 6H 7H 8H 9H 3S 4S 5S 6S"],
        pots=["TH JH QH KH 8S 9S TS JS QS KS 4D", pot1],
        stock="5D 7S 9H 9D 4S 3D",
        actions=[
            "draw",
            "discard 5D",
            "draw",
            "meld 3H 4H 5H 6H 7H 8H 9H",
            "meld 3S 4S 5S 6S 7S",
            "discard 4D",
            "draw",
            "meld 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
            "discard 9H",
            "draw",
            "discard 9D",
            "draw",
            "discard 4S",
            "draw",
            "add 1 TH",
            "add 1 JH",
            "add 1 QH",
            "add 1 KH",
            "add 2 8S",
            "add 2 9S",
            "add 2 TS",
            "add 2 JS",
            "add 2 QS",
            "add 2 KS",
            "discard 3D",
        ],
    )
    assert g.ended_by == "going-out"
    assert g.scores()[0].hand == -points(pot1)


# ----- going out -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_going_out_with_the_morto_taken_a_clean_canastra_and_a_final_discard(
    players: int,
) -> None:
    # 001: when a team has taken its morto, either player can end the play if the player melds
    # all but one card from hand and discards this last card, and the team has melded at least
    # one canastra limpa; for going out (closing) 100 points extra
    g = go_out(players)
    assert g.is_hand_over()
    assert g.ended_by == "going-out"
    assert g.to_move is None
    s0 = g.scores()[0]
    assert s0.going_out == 100
    assert (s0.melds, s0.bonuses) == (200, 400)
    assert g.scores()[1].going_out == 0
    with pytest.raises(IllegalAction):
        g.apply("draw")


def test_a_dirty_canastra_is_not_enough_to_go_out() -> None:
    # 001: the team has melded at least one canastra limpa - a clean sequence of seven or more
    # cards without a wild card (RULINGS 8: a play that would leave a last card that cannot be
    # discarded is not offered, and is refused with a reason)
    g = play(
        "aberto",
        hands=["3H 4H 5H JK 7H 8H 9H 3S 4S 5S 6S"],
        pots=["TC JC QC KC AC 3D 4D 5D 6D 7D 8S"],
        stock="7S",
        actions=[
            "draw",
            "meld 3H 4H 5H JK 7H 8H 9H",
            "meld 3S 4S 5S 6S 7S",
            "meld 3D 4D 5D 6D 7D",
            "meld TC JC QC KC",
        ],
    )
    assert g.pot_taken[0]
    assert g.scores()[0].canastras == ("dirty",)
    assert sorted(names(g, 0)) == ["8S", "AC"]
    assert not any(a.startswith("add") for a in legal(g))
    message = refuse(g, "add 4 AC high", "never-stranded")
    assert "clean canastra" in message
    refuse(g, "add 2 8S high", "never-stranded")
    # keeping two cards is fine
    assert set(legal(g)) == {"discard AC", "discard 8S"}
    g.apply("discard 8S")
    assert names(g, 0) == ["AC"]


def test_a_clean_canastra_lets_the_same_hand_go_out() -> None:
    # 001: going out needs the morto taken and a canastra limpa (compare the dirty case above)
    g = play(
        "aberto",
        hands=["3H 4H 5H 6H 7H 8H 9H 3S 4S 5S 6S"],
        pots=["TC JC QC KC AC 3D 4D 5D 6D 7D 8S"],
        stock="7S",
        actions=[
            "draw",
            "meld 3H 4H 5H 6H 7H 8H 9H",
            "meld 3S 4S 5S 6S 7S",
            "meld 3D 4D 5D 6D 7D",
            "meld TC JC QC KC",
        ],
    )
    assert {"add 4 AC high", "add 2 8S high"} <= set(legal(g))
    g.apply("add 4 AC")
    g.apply("discard 8S")
    assert g.ended_by == "going-out"


def test_going_out_needs_a_final_discard() -> None:
    # 001: the player melds all but one card from hand, and discards this last card
    g = play(
        "aberto",
        hands=["8H 9H TH JH QH KH AH 8S 9S TS JS"],
        pots=["3C 4C 5C 6C 7C 8C 9C TC JC QC KC"],
        stock="QS",
        actions=["draw", "meld 8H 9H TH JH QH KH AH", "meld 8S 9S TS JS QS"],
    )
    assert "meld 3C 4C 5C 6C 7C 8C 9C TC JC QC KC" not in legal(g)
    assert "final discard" in refuse(g, "meld 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", "never-stranded")
    g.apply("meld 3C 4C 5C 6C 7C 8C 9C TC JC QC")
    g.apply("discard KC")
    assert g.ended_by == "going-out"


def test_the_partner_of_the_player_who_took_the_morto_may_go_out() -> None:
    # 001: when a team has taken its morto, either player of that team can end the play
    g = play(
        "aberto",
        4,
        hands=[OUT_HAND, "9C", "3C 4C 5C 6C 7C 8C 9C TC JC QC KC"],
        pots=["3D 4D 5D 6D 7D 8D 9D TD JD QD KD"],
        stock="QS KS 6S",
        actions=[
            "draw",
            "meld 8H 9H TH JH QH KH AH",
            "meld 8S 9S TS JS QS",
            "discard KD",
            "draw",
            "discard KS",
            "draw",
            "meld 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        ],
    )
    assert g.to_move == 2
    assert g.pot_taken == [True, False]
    g.apply("discard 6S")
    assert g.ended_by == "going-out"
    assert g.scores()[0].going_out == 100
    # seat 0 still holds ten morto cards; they count against the side
    assert g.scores()[0].hand == -points("3D 4D 5D 6D 7D 8D 9D TD JD QD")


# ----- never stranded (RULINGS 8) --------------------------------------------------------


def test_no_morto_left_means_the_hand_cannot_be_emptied() -> None:
    # RULINGS 8: a player may not empty the hand unless that takes a morto or goes out legally
    # (both mortos became the stock, so no morto is left for either side)
    hand = "3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    g = play("aberto", hands=[hand], stock="5C")
    for _ in range(76):
        draw_and_discard(g)
    assert g.pots == []
    assert not any(g.pot_taken)
    g.apply("draw")
    assert g.to_move == 0
    assert f"meld {hand}" not in legal(g)
    assert "meld 3H 4H 5H 6H 7H 8H 9H TH JH QH" in legal(g)
    message = refuse(g, f"meld {hand}", "never-stranded")
    assert "morto" in message


# ----- stock exhaustion ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "stock"), [(2, 64), (4, 42)])
def test_an_untaken_morto_becomes_the_stock(players: int, stock: int) -> None:
    # 001: if the draw pile runs out before both the mortos have been taken, then a morto is
    # converted into a new draw pile of 11 cards, and play continues (000 §The Pot: the next
    # hand from the pot is moved into the stock)
    g = play("aberto", players)
    first = Counter(g.pots[0])
    last = Counter(g.pots[-1])
    for _ in range(stock):
        draw_and_discard(g)
    assert not g.is_hand_over()
    assert len(g.pots) == 1
    assert Counter(g.stock) == first
    assert Counter(g.pots[0]) == last
    assert g.view(0)["stock"] == 11
    for _ in range(11):
        draw_and_discard(g)
    assert g.pots == []
    assert Counter(g.stock) == last
    assert not g.is_hand_over()


@pytest.mark.parametrize("players", [2, 4])
def test_with_no_morto_left_the_hand_ends_after_the_last_drawers_turn(players: int) -> None:
    # 001: if the draw pile becomes empty and both mortos have been used, the play ends. The
    # turn of the player who took the last card from the draw pile is completed.
    g = play("aberto", players)
    draws = len(g.stock) + 22
    for _ in range(draws - 1):
        draw_and_discard(g)
    seat = g.to_move
    assert seat is not None
    g.apply("draw")
    assert g.stock == []
    assert not g.is_hand_over()
    assert g.to_move == seat
    assert g.view(seat)["last_turn"] is True
    assert g.phase == Phase.PLAY
    g.apply(next(a for a in legal(g) if a.startswith("discard")))
    assert g.is_hand_over()
    assert g.ended_by == "stock"
    # no going-out bonus; neither side took its morto so neither pays the morto penalty
    for score in g.scores():
        assert score.going_out == 0
        assert score.pot == 0
        assert score.total == score.hand


def test_the_last_drawer_may_still_meld_in_the_final_turn() -> None:
    # 001: the turn of the player who took the last card from the draw pile is completed
    g = play("aberto", hands=["", "3H 4H 5H 8C JC 9D QS 4S 7S TS KD"])
    for _ in range(85):
        draw_and_discard(g)
    assert g.to_move == 1
    g.apply("draw")
    assert g.view(1)["last_turn"]
    g.apply("meld 3H 4H 5H")
    g.apply("discard 8C")
    assert g.ended_by == "stock"
    assert g.scores()[1].melds == 15


# ----- hand scoring ----------------------------------------------------------------------


def test_hand_score_parts() -> None:
    # 001 scoring: melds plus card value; hand minus card value; canastra limpa 200; going out
    # 100; if one team has not taken its morto, that team scores minus 100 points
    seat1 = "AC 4C 7C TC 3D 6D 9D QD 5H 8H JH"
    g = go_out(others=[seat1])
    s0, s1 = g.scores()
    assert (s0.melds, s0.bonuses, s0.hand, s0.pot, s0.going_out) == (200, 400, 0, 0, 100)
    assert s0.total == OUT_SCORE
    assert (s1.melds, s1.bonuses, s1.hand, s1.pot, s1.going_out) == (0, 0, -points(seat1), -100, 0)
    assert s1.total == -points(seat1) - 100
    assert g.totals == [s0.total, s1.total]


def test_no_morto_penalty_when_neither_side_took_one() -> None:
    # 001: if neither team has taken its morto, the 100-point penalty does not apply to either
    # side
    g = play("aberto", hands=["3H 4H 5H"])
    g.apply("draw")
    g.apply("meld 3H 4H 5H")
    g.apply(next(a for a in legal(g) if a.startswith("discard")))
    finish_by_stock(g)
    assert not any(g.pot_taken)
    assert [s.pot for s in g.scores()] == [0, 0]
    assert g.scores()[0].melds == 15


# ----- match play ------------------------------------------------------------------------


def test_a_side_reaching_the_target_wins_the_match() -> None:
    # 001: the game is normally played to 3000 points: when a team reaches or passes this total,
    # the team with the higher score wins
    g = go_out(match=True, scores=[3000 - OUT_SCORE, 0])
    assert g.totals[0] == 3000
    assert g.winner == 0
    assert g.is_over()
    with pytest.raises(IllegalAction):
        g.next_hand()


def test_below_the_target_the_match_goes_on() -> None:
    # 001: the game is normally played to 3000 points
    g = go_out(match=True, scores=[3000 - OUT_SCORE - 5, 0])
    assert g.totals[0] == 2995
    assert g.winner is None
    assert not g.is_over()
    assert g.is_hand_over()


# Both sides score: seat 1 melds a clean canastra, seat 0 then goes out.
BOTH_HANDS = [OUT_HAND, "8D 9D TD JD QD KD AD 3C 7C 4S 6H"]
BOTH_ACTIONS = [
    "draw",
    "discard 4D",
    "draw",
    "meld 8D 9D TD JD QD KD AD",
    "discard 5C",
    *OUT_ACTIONS,
]
BOTH_SIDE1 = 75 + 200 - points("3C 7C 4S 6H") - 100


def test_when_both_reach_the_target_the_higher_total_wins() -> None:
    # 001: when a team reaches or passes this total, the team with the higher score wins
    g = play(
        "aberto",
        hands=BOTH_HANDS,
        pots=[OUT_POT],
        stock="4D 5C QS",
        actions=BOTH_ACTIONS,
        match=True,
        scores=[2400, 2900],
    )
    assert g.scores()[1].total == BOTH_SIDE1
    assert g.totals == [2400 + OUT_SCORE, 2900 + BOTH_SIDE1]
    assert min(g.totals) >= 3000
    assert g.winner == 0


def test_a_tie_at_the_target_plays_another_hand() -> None:
    # RULINGS 10: when a side reaches the target, the higher total wins; with equal totals
    # another hand is played. RULINGS 1: the deal passes to the next seat each hand.
    rules = make_rules("aberto", players=2)
    first = deck_for(rules, dealer=1, hands=BOTH_HANDS, pots=[OUT_POT], stock="4D 5C QS")
    second = deck_for(rules, dealer=0, hands=["", OUT_HAND], pots=[OUT_POT], stock="QS")
    start = [3000 - OUT_SCORE, 3000 - BOTH_SIDE1]
    g = Game(rules, stacked=[first, second], first_dealer=1, match=True, scores=start, seed=0)
    for action in BOTH_ACTIONS:
        g.apply(action)
    assert g.totals == [3000, 3000]
    assert g.winner is None
    assert not g.is_over()
    g.next_hand()
    assert (g.dealer, g.to_move) == (0, 1)
    for action in OUT_ACTIONS:
        g.apply(action)
    assert g.totals[1] == 3000 + OUT_SCORE
    assert g.winner == 1
    assert g.is_over()
    again = replay(g.record())
    assert again.totals == g.totals
    assert again.winner == 1


@pytest.mark.parametrize("players", [2, 4])
def test_the_deal_passes_to_the_next_seat_each_hand(players: int) -> None:
    # 001: thereafter the turn to deal passes (RULINGS 1: to the next seat each hand); the
    # first player is the seat after the dealer
    g = play("aberto", players, match=True, dealer=players - 1)
    dealers = []
    for _ in range(players + 1):
        dealers.append(g.dealer)
        assert g.to_move == (g.dealer + 1) % players
        finish_by_stock(g)
        g.next_hand()
    assert dealers == [(players - 1 + i) % players for i in range(players + 1)]


def test_the_next_hand_waits_for_the_current_one() -> None:
    # RULINGS 10: another hand is played only when a hand is over
    g = play("aberto", match=True)
    with pytest.raises(IllegalAction):
        g.next_hand()


# ----- house variants (001 end; RULINGS 12) ------------------------------------------------


@pytest.mark.parametrize(
    ("target", "start", "wins"),
    [
        (2000, 2000 - OUT_SCORE, True),
        (2000, 1999 - OUT_SCORE, False),
        (3500, 3500 - OUT_SCORE, True),
        (3500, 3000 - OUT_SCORE, False),
    ],
)
def test_target_of_2000_or_3500(target: int, start: int, wins: bool) -> None:
    # 001: some play to a target of 2000 or 3500 points rather than 3000 (RULINGS 12)
    g = go_out(match=True, scores=[start, 0], target=target)
    assert g.winner == (0 if wins else None)


@pytest.mark.parametrize(("target", "at"), [(2000, 1000), (3500, 1750)])
def test_vulnerability_is_half_of_the_chosen_target(target: int, at: int) -> None:
    # 001: vulnerable at half the target score (RULINGS 12: target 2000/3500)
    g = play("aberto", scores=[at, at - 1], target=target)
    assert g.view(0)["vulnerable"] == [True, False]
    assert g.view(0)["requirement"] == [75, 0]


def test_round_scores_up_to_ten() -> None:
    # 001: some players round all scores up to a multiple of 10 - 485 is recorded as 490
    hands = ["8H 9H TH JH QH KH AH 7S 8S 9S TS"]
    actions = [
        "draw",
        "meld 8H 9H TH JH QH KH AH",
        "meld 7S 8S 9S TS JS",
        "meld 3C 4C 5C 6C 7C 8C 9C TC JC QC",
        "discard KD",
    ]
    plain = play("aberto", hands=hands, pots=[OUT_POT], stock="JS", actions=actions)
    assert plain.scores()[0].total == 75 + 45 + 75 + 400 + 100  # 695
    rounded = play(
        "aberto", hands=hands, pots=[OUT_POT], stock="JS", actions=actions, round_scores=True
    )
    assert rounded.scores()[0].total == 700
    assert rounded.scores()[0].rounding == 5


def test_play_without_vulnerability() -> None:
    # 001: some play without vulnerability - there is no minimum meld value
    g = play(
        "aberto",
        hands=["3H 4H 5H 9C"],
        stock="KD",
        scores=[2500, 0],
        vulnerable_minimum=0,
        actions=["draw", "meld 3H 4H 5H", "discard KD"],
    )
    assert g.view(0)["vulnerable"] == [False, False]
    assert melds(g, 0) == ["3H 4H 5H"]


def test_jokers_worth_50() -> None:
    # 001: some play that jokers are worth 50 points each rather than 20
    g = go_out(others=["JK JK 3D"], joker_value=50)
    held = " ".join(names(g, 1))
    assert held.count("JK") == 2
    assert g.scores()[1].hand == -(points(held) + 2 * (50 - 20))
    m = play(
        "aberto", hands=["3H 4H JK"], stock="9C", joker_value=50, actions=["draw", "meld 3H 4H JK"]
    )
    assert m.scores()[0].melds == 60


def test_without_jokers_the_twos_are_the_only_wild_cards() -> None:
    # 001: some play without jokers ... In this version the only wild cards are the twos.
    # (001 says "106 cards", but two 52-card packs without jokers make 104.)
    g = Game("aberto", players=4, jokers_per_deck=0, seed=5)
    everything = [c for s in range(4) for c in g.hand(s)] + [c for p in g.pots for c in p]
    everything += g.stock
    assert "JK" not in {card_name(c) for c in everything}
    assert len(everything) == 104
    assert len(g.stock) == 104 - 44 - 22
    rules = make_rules("aberto", players=2, jokers_per_deck=0)
    with pytest.raises(RulesError):
        deck_for(rules, hands=["3H 4H JK"])
    w = play(
        "aberto",
        hands=["3H 2C 5H"],
        stock="9C",
        jokers_per_deck=0,
        actions=["draw", "meld 3H 2C 5H"],
    )
    assert not w.melds[0][0].clean


def test_canastra_bonuses_of_300_and_150() -> None:
    # 001: some score 150 for a dirty canastra and 300 for a clean canastra
    g = play(
        "aberto",
        hands=["3H 4H 5H 6H 7H 8H 9H 4S JK 6S 7S"],
        pots=["9S TS KD"],
        stock="8S",
        clean_bonus=300,
        dirty_bonus=150,
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H 9H", "meld 4S JK 6S 7S 8S", "add 2 9S"],
    )
    assert g.scores()[0].bonuses == 300
    g.apply("add 2 TS")
    assert g.scores()[0].canastras == ("clean", "dirty")
    assert g.scores()[0].bonuses == 300 + 150


def test_sets_of_aces_only() -> None:
    # 001: in buraco aberto, some allow a set of three or more aces to be melded, but no ranks
    # other than aces
    g = play(
        "aberto", hands=["AC AD AH KC KD KH JK 9S"], stock="AS", set_ranks="A", actions=["draw"]
    )
    assert "meld AC AD AH" in legal(g)
    assert "meld AC AD AH AS" in legal(g)
    message = refuse(g, "meld KC KD KH", "meld-shape")
    assert "sets of K are not allowed" in message
    g.apply("meld AC AD JK")
    assert not g.melds[0][0].run
    g.apply("add 1 AH")
    assert g.melds[0][0].size == 4


def _cut_game(players: int, cut: int, **options: Any) -> Game:
    dealer = players - 1
    rules = make_rules("aberto", players=players, **options)
    deck = deck_for(rules, dealer=dealer)
    game = Game(rules, stacked=[deck], cuts=[cut], first_dealer=dealer, match=False, seed=0)
    again = replay(game.record())
    assert again.cut == cut
    return again


@pytest.mark.parametrize("players", [2, 4])
def test_an_exact_cut_earns_100_for_the_non_dealing_side(players: int) -> None:
    # 001: some award a bonus of 100 points to the non-dealing team if the player making the
    # cut leaves exactly 44 cards (RULINGS 11)
    g = _cut_game(players, 0, cut_bonus="deal")
    dealer_side = g.side_of[g.dealer]
    cut = [s.cut for s in g.scores()]
    assert cut[dealer_side] == 0
    assert cut[1 - dealer_side] == 100
    finish_by_stock(g)
    s = g.scores()[1 - dealer_side]
    assert s.total == s.hand + 100


@pytest.mark.parametrize("players", [2, 4])
def test_a_short_cut_costs_the_cutters_side_100(players: int) -> None:
    # 001: if the cutter leaves the dealer with fewer than 44 cards, the cutter's team is charged
    # a 100-point penalty (the cutter sits beside the dealer, on the other side)
    g = _cut_game(players, -2, cut_bonus="deal")
    dealer_side = g.side_of[g.dealer]
    assert [s.cut for s in g.scores()][1 - dealer_side] == -100
    assert [s.cut for s in g.scores()][dealer_side] == 0


@pytest.mark.parametrize("cut", [1, 3])
def test_a_cut_leaving_more_cards_has_no_effect(cut: int) -> None:
    # 001: only exactly 44 (bonus) or fewer than 44 (penalty) count
    g = _cut_game(4, cut, cut_bonus="deal")
    assert [s.cut for s in g.scores()] == [0, 0]
    plain = _cut_game(4, 0)
    assert [s.cut for s in plain.scores()] == [0, 0]  # the variant is off by default


def _wild_cut_game(players: int, wild: str | None) -> Game:
    dealer = players - 1
    rules = make_rules("aberto", players=players, cutter_keeps_wild=True)
    deck = deck_for(rules, dealer=dealer, cutter_wild=wild)
    return Game(rules, stacked=[deck], first_dealer=dealer, match=False, seed=0)


@pytest.mark.parametrize("wild", ["2C", "JK"])
def test_the_cutter_keeps_a_wild_card_seen_at_the_cut(wild: str) -> None:
    # 001: the person who cuts can look at the bottom card of the upper portion of the cut. If
    # that card is a joker or a 2, they can keep it as a card for their hand; the cutter is
    # skipped during the first dealing round (2 players: the cutter is the non-dealer)
    g = _wild_cut_game(2, wild)
    assert wild in names(g, 0)
    assert [len(g.hand(s)) for s in range(2)] == [11, 11]
    assert [len(p) for p in g.pots] == [11, 11]
    assert len(g.stock) == 64


def test_the_cutter_keeps_the_wild_within_the_non_dealing_side() -> None:
    # 001: the player to dealer's right cuts; the cutter keeps a wild seen at the cut
    g = _wild_cut_game(4, "JK")
    holders = [s for s in range(4) if "JK" in names(g, s)]
    assert len(holders) == 1
    assert g.side_of[holders[0]] != g.side_of[g.dealer]
    assert [len(g.hand(s)) for s in range(4)] == [11] * 4
    assert len(g.stock) == 42


def test_the_cutter_is_the_player_to_the_dealers_right_who_plays_first() -> None:
    # 001: "The player to dealer's right cuts the cards" and "The first player, to the right of
    # the dealer, takes the top card"; RULINGS 1: the first player is the seat after the dealer
    g = _wild_cut_game(4, "JK")
    first = (g.dealer + 1) % 4
    assert "JK" in names(g, first)


def test_a_card_that_is_not_wild_at_the_cut_is_dealt_normally() -> None:
    # 001: only a joker or a 2 seen at the cut is kept
    rules = make_rules("aberto", players=4, cutter_keeps_wild=True)
    deck = deck_for(rules, dealer=3, hands=["9C"])
    g = Game(rules, stacked=[deck], first_dealer=3, match=False, seed=0)
    plain = Game(
        make_rules("aberto", players=4), stacked=[deck], first_dealer=3, match=False, seed=0
    )
    assert [g.hand(s) for s in range(4)] == [plain.hand(s) for s in range(4)]
