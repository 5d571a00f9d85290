"""Rule tests for the ``us`` preset: Buraco as played in the United States.

Sources: 000 (first part, "Game rules as played in the United States"), cross-checked
against 002 and 003 (copies of the same page), and ``RULINGS.md``.
"""

from __future__ import annotations

from typing import Any

import pytest

from buraco import (
    Game,
    IllegalAction,
    NotationError,
    RulesError,
    card_name,
    deck_for,
    make_rules,
    parse_cards,
    replay,
)
from scenario import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JUNK,
    OPENING_50,
    SPADES,
    draw_and_discard,
    hand_text,
    legal,
    melds,
    out_in_one_turn,
    play,
    pot_then_partner_out,
    pots_taken_by_melding,
    refused,
    views,
)

HAND_45 = "8C 9C TC 3H 4H 5H 7S 4S KD JS 7D"


# ===== setup =============================================================================


@pytest.mark.parametrize("players", [2, 4])
def test_deck_has_108_cards_and_two_pots_of_eleven(players: int) -> None:
    # 000 §The Setup: two 52-card decks ... and 2 jokers for each deck, for a total of 108 cards
    # 000 §The Setup: two (2) hands of eleven cards each ... These two hands are called the 'pots'
    # 000 §The Deal: the dealer distributes eleven cards to each player
    game = Game("us", players=players, seed=11, match=False)
    assert [len(p) for p in game.pots] == [11, 11]
    assert [len(game.hand(s)) for s in range(players)] == [11] * players
    assert len(game.stock) == 108 - 22 - 11 * players
    everything = [c for s in range(players) for c in game.hand(s)]
    everything += [c for p in game.pots for c in p] + list(game.stock)
    assert len(everything) == 108
    assert sum(1 for c in everything if card_name(c) == "JK") == 4


def test_discard_pile_starts_empty_and_first_player_must_draw() -> None:
    # RULINGS 2: First Draw is the more specific text: follow it (the pile starts empty)
    # 000 §First Draw: there is no discard pile at the beginning of the game
    game = play("us", 4)
    assert game.pile == []
    assert game.to_move == 0
    assert legal(game) == ["draw"]
    assert refused(game, "take-pile").rule == "pile-empty"


def test_first_player_is_left_of_dealer_and_the_deal_passes() -> None:
    # 000 §First Draw: The first play is made by the person sitting to the left of the dealer
    # 000 §The Deal: Responsibility for dealing the cards always proceeds clockwise
    game = out_in_one_turn("us", match=True)
    assert game.dealer == 1
    assert game.is_hand_over()
    game.next_hand()
    assert game.dealer == 0
    assert game.to_move == 1


def test_three_players_are_not_a_us_game() -> None:
    # RULINGS presets table: us players: 4 (2 with own pots); 6 as the 3-deck variation
    with pytest.raises(RulesError):
        make_rules("us", players=3)


# ===== card values ======================================================================


def test_card_values_of_melds() -> None:
    # 000 §Scoring: 3, 4, 5, 6, 7 = 5; 8, 9, 10, J, Q, K = 10; A = 15; 2 = 20; Joker = 30
    game = play(
        "us",
        2,
        hands=["7C 8C JK TC QH KH AH 3D 2S 4H 9S"],
        stock="6D",
        actions=["draw", "meld 7C 8C JK TC", "meld QH KH AH", "discard 6D"],
    )
    # 7C 8C JK TC = 5 + 10 + 30 + 10 = 55; QH KH AH = 10 + 10 + 15 = 35: 90 reaches 50
    assert melds(game, 0) == ["7C 8C JK TC", "QH KH AH"]
    assert game.scores()[0].melds == 90


def test_cards_left_in_hand_count_against_the_side() -> None:
    # 000 §Scoring: players with cards in their hand that were not melded count negatively
    # against their team's total score
    game = play(
        "us",
        2,
        hands=[SPADES, "2C JK AD 3D 7D 8D 9H KC QC 4C 5H"],
        pots=[HEARTS],
        stock="AS",
        actions=["draw", f"meld {SPADES} AS", f"meld {HEARTS}"],
    )
    assert game.is_hand_over()
    # 2 20 + JK 30 + A 15 + 3 5 + 7 5 + 8 10 + 9 10 + K 10 + Q 10 + 4 5 + 5 5 = 125
    assert game.scores()[1].hand == -125


# ===== melds ============================================================================


@pytest.mark.parametrize("rank", ["J", "Q", "K", "A"])
def test_sets_of_jacks_queens_kings_and_aces(rank: str) -> None:
    # 000 §Melds: Groups: Three or more face-cards of the same value (all jacks, all queens,
    # all kings, or all aces)
    cards = f"{rank}C {rank}D {rank}H"
    game = play("us", 2, hands=[f"{cards} 3S 7S 9D 4H 8H 5C TC 6D"], stock="QS")
    game.apply("draw")
    assert f"meld {cards}" in legal(game)
    game.apply(f"meld {cards}")
    assert melds(game, 0) == [cards]


@pytest.mark.parametrize("rank", ["3", "7", "9", "T", "2"])
def test_no_sets_of_other_ranks(rank: str) -> None:
    # 000 §Melds: Groups: Three or more face-cards of the same value (all jacks, all queens,
    # all kings, or all aces); RULINGS presets table: us sets J, Q, K, A only
    cards = f"{rank}C {rank}D {rank}H"
    game = play("us", 2, hands=[f"{cards} QS 8S 4D JH KH 6C AC"], stock="5S")
    game.apply("draw")
    assert f"meld {cards}" not in legal(game)
    assert refused(game, f"meld {cards}").rule == "meld-shape"


def test_a_run_needs_three_consecutive_cards_of_one_suit() -> None:
    # 000 §Melds: Sequences: Three (3) or more cards of the same suit in sequentially
    # increasing order. Cards may not be melded into these runs out of order or by skipping
    game = play("us", 2, hands=["3H 4H 6H 7H 4C 9S KD 5D JC QS 8D"], stock="AS")
    game.apply("draw")
    assert refused(game, "meld 3H 4H 6H").rule == "meld-shape"
    assert refused(game, "meld 3H 4H 4C").rule == "meld-shape"
    assert refused(game, "meld 3H 4H").rule == "meld-shape"
    assert refused(game, "meld 4H 3H 6H 7H").rule == "meld-shape"
    assert not any(a.startswith("meld") for a in legal(game))


def test_melding_only_in_ones_own_turn_and_nothing_after_the_discard() -> None:
    # 000 §Course of Play: A player may only meld during their turn ... After throwing away a
    # card to the discard pile, no other move (e.g., putting down more cards, substituting cards,
    # changing the discarded card) is permitted until the player's next turn
    game = play("us", 2, hands=["3S 4S 5S 6S 8C 9C TC 4D 7D QH AH"], stock="KS")
    game.apply("draw")
    before = views(game)
    with pytest.raises(IllegalAction) as info:
        game.apply("meld 3S 4S 5S 6S", seat=1)
    assert info.value.rule == "wrong-player"
    assert views(game) == before
    game.apply("discard KS")
    with pytest.raises(IllegalAction):
        game.apply("meld 3S 4S 5S 6S", seat=0)
    with pytest.raises(IllegalAction):
        game.apply("discard AH", seat=0)
    assert card_name(game.pile[-1]) == "KS"
    assert game.to_move == 1


def test_one_team_may_not_play_on_the_other_teams_melds() -> None:
    # 000 §Melds: A player from one team may not play on the other team's runs
    game = play(
        "us",
        2,
        hands=["3S 4S 5S 6S 8C 9C TC 4D 7D QH AH", "7S 2D 5C JD KC 9H 3C 6D TH QD 8S"],
        stock="KS 2H",
        actions=["draw", "meld 3S 4S 5S 6S", "meld 8C 9C TC", "discard KS", "draw"],
    )
    assert melds(game, 0) == ["3S 4S 5S 6S", "8C 9C TC"]
    assert melds(game, 1) == []
    # "add 1" names seat 1's own meld 1, and seat 1's side has none
    assert refused(game, "add 1 7S").rule == "meld-number"
    assert not any(a.startswith("add") for a in legal(game))


# ===== wild cards ======================================================================


def test_a_deuce_in_its_natural_place_is_not_wild() -> None:
    # 000 §Wildcards: A deuce in a sequence is not a wildcard if it represents the face value of
    # 2 in the meld and is of the same suit ... these are valid sequences of a clean meld:
    # A-2-3-4-5-6-7 and 2-3-4-5-6-7-8
    for run in ("AH 2H 3H 4H 5H 6H 7H", "2H 3H 4H 5H 6H 7H 8H"):
        game = play("us", 2, hands=[f"{run} 9S JD KC 4C"], stock="6D", actions=["draw"])
        game.apply(f"meld {run}")
        assert game.melds[0][0].clean
        assert game.scores()[0].canastras == ("clean",)
        assert game.scores()[0].bonuses == 200


@pytest.mark.parametrize(
    "run", ["AH 2H 3H 4H 5H 6H 2C", "2C 2H 3H 4H 5H 6H 7H", "AH 2H 2C 4H 5H 6H 7H"]
)
def test_a_sequence_may_hold_a_natural_deuce_and_a_wild_deuce(run: str) -> None:
    # 000 §Wildcards: A Sequence may have two deuces only: one used as a wildcard, the other
    # representing its face value ... valid dirty melds: A-2-3-4-5-6-2, 2-2-3-4-5-6-7,
    # A-2-2-4-5-6-7
    game = play("us", 2, hands=[f"{run} 8S 9D TC KS"], stock="6D", actions=["draw"])
    game.apply(f"meld {run}")
    meld = game.melds[0][0]
    assert meld.size == 7
    assert not meld.clean
    assert game.scores()[0].canastras == ("dirty",)
    assert game.scores()[0].bonuses == 100


def test_a_meld_holds_at_most_one_wild_card() -> None:
    # 000 §Wildcards: A meld may have at most one wildcard, either a deuce or a joker
    game = play("us", 2, hands=["3H JK 5H 2C 7H JC JD 2S 9S KD 4C"], stock="QS")
    game.apply("draw")
    assert refused(game, "meld 3H JK 5H 2C 7H").rule == "meld-shape"
    assert refused(game, "meld JC JD JK 2S").rule == "meld-shape"
    game.apply("meld JC JD JK")
    # the set now holds a wild: no second one may join it
    assert refused(game, "add 1 2S").rule == "one-wild"
    assert "add 1 2S" not in legal(game)


def test_a_joker_may_not_join_a_meld_with_a_wild_deuce() -> None:
    # 000 §Wildcards: If a deuce is used as a wildcard, then a joker cannot be placed into the
    # same meld
    game = play("us", 2, hands=["4S 5S 2C 7S JK 9D KC 3H 8H QD TC"], stock="AD")
    game.apply("draw")
    game.apply("meld 4S 5S 2C 7S")
    assert not any(a.startswith("add 1 JK") for a in legal(game))
    assert refused(game, "add 1 JK").rule == "one-wild"


def test_a_joker_may_join_after_the_wild_deuce_moves_to_its_face_value() -> None:
    # 000 §Wildcards: If a meld contains a deuce used as a wildcard, a joker can be added to the
    # meld only after moving the deuce to its face value
    # RULINGS 5: a wild 2 of the run's suit may move to its natural place (making room for a joker)
    game = play("us", 2, hands=["3S 4S 5S 2S 7S JK KH KD KC 3D 8D"], stock="QD")
    game.apply("draw")
    game.apply("meld 3S 4S 5S 2S 7S")
    assert melds(game, 0) == ["3S 4S 5S 2S 7S"]
    assert "add 1 JK" in legal(game)
    game.apply("add 1 JK")
    assert melds(game, 0) == ["2S 3S 4S 5S JK 7S"]
    meld = game.melds[0][0]
    assert meld.size == 6
    assert card_name(meld.wild) == "JK"
    # the joker stands for the 6S, where the deuce stood
    assert meld.wpos == 5


def test_a_second_deuce_of_the_suit_pushes_the_wild_deuce_home() -> None:
    # 000 §Wildcards: A Sequence may have two deuces only: One deuce is used as a wildcard ...
    # The other deuce is used to represent its face value of 2 (e.g. 2-2-3-4-5-6-7)
    # RULINGS 5: a wild 2 of the run's suit may move to its natural place
    game = play(
        "us",
        2,
        hands=["3S 4S 5S 2S 7S 2S KH KD KC 3D 8D"],
        stock="QD",
        actions=["draw", "meld 3S 4S 5S 2S 7S"],
    )
    assert [a for a in legal(game) if a.startswith("add 1 2S")] == ["add 1 2S low"]
    game.apply("add 1 2S")  # the one placement is filled in
    assert melds(game, 0) == ["2S 3S 4S 5S 2S 7S"]
    assert replay(game.record()).events == game.events


def test_a_joker_may_not_replace_a_wild_deuce_of_another_suit() -> None:
    # 000 §Wildcards: a joker can be added only after moving the deuce to its face value;
    # a 2C in a spade run has no face value in that run
    game = play("us", 2, hands=["3S 4S 5S 2C 7S JK KH KD KC 3D 8D"], stock="QD")
    game.apply("draw")
    game.apply("meld 3S 4S 5S 2C 7S")
    assert refused(game, "add 1 JK").rule == "one-wild"


def test_a_joker_needs_a_three_at_the_low_end_to_push_the_deuce_home() -> None:
    # 000 §Wildcards: a joker can be added to the meld only after moving the deuce to its face
    # value; the deuce's place (between A and 3) must be free next to a 3
    game = play("us", 2, hands=["4S 5S 2S 7S 8S JK KH KD KC 3D 9D"], stock="QD")
    game.apply("draw")
    game.apply("meld 4S 5S 2S 7S 8S")
    assert refused(game, "add 1 JK").rule == "one-wild"


def test_adding_the_natural_card_frees_the_wild_to_either_end() -> None:
    # 000 §Course of Play: wildcards may be moved within a meld
    # RULINGS 5: Adding the natural card a wild stands for frees the wild; the player chooses
    # where it goes (either end) when both are possible
    hand = "5S 6S JK 8S 7S 3D 9C QH 4C KD TH"
    game = play("us", 2, hands=[hand], stock="AD", actions=["draw", "meld 5S 6S JK 8S"])
    with pytest.raises(NotationError):
        game.apply("add 1 7S")
    low = play("us", 2, hands=[hand], stock="AD", actions=["draw", "meld 5S 6S JK 8S"])
    low.apply("add 1 7S wild-low")
    assert melds(low, 0) == ["JK 5S 6S 7S 8S"]
    high = play("us", 2, hands=[hand], stock="AD", actions=["draw", "meld 5S 6S JK 8S"])
    high.apply("add 1 7S wild-high")
    assert melds(high, 0) == ["5S 6S 7S 8S JK"]


def test_a_wild_at_one_end_moves_to_the_other_end() -> None:
    # 000 §Course of Play: Once a card is melded, it may not be moved into a different run ...
    # However, wildcards may be moved within a meld
    # RULINGS 5: In us, a wild may also be moved inside its own meld
    game = play(
        "us",
        2,
        hands=["5S 6S 7S JK 9S TS JS QS 3D 5D 8D"],
        stock="KD",
        actions=["draw", "meld 5S 6S 7S JK"],
    )
    assert melds(game, 0) == ["5S 6S 7S JK"]
    assert "move 1 low" in legal(game)
    assert "move 1 high" not in legal(game)
    game.apply("move 1 low")
    assert melds(game, 0) == ["JK 5S 6S 7S"]
    # the joker now stands for the 4S (run position 3: A=0, 2=1, 3=2, 4=3)
    assert game.melds[0][0].wpos == 3
    assert game.melds[0][0].size == 4


def test_moving_a_wild_deuce_to_its_natural_place_cleans_the_run() -> None:
    # RULINGS 5: a wild 2 of the run's suit may move to its natural place
    # 000 §Wildcards: If a deuce is used to represent a face value of 2 in a sequence and is
    # not used as a wildcard, then the meld is still clean; clean run 200, dirty run 100
    game = play(
        "us",
        2,
        hands=["3S 4S 5S 6S 7S 8S 2S JD 4C QH 9C"],
        stock="KD",
        actions=["draw", "meld 3S 4S 5S 6S 7S 8S 2S"],
    )
    assert game.scores()[0].canastras == ("dirty",)
    assert game.scores()[0].bonuses == 100
    game.apply("move 1 low")
    assert melds(game, 0) == ["2S 3S 4S 5S 6S 7S 8S"]
    assert game.melds[0][0].clean
    assert game.scores()[0].canastras == ("clean",)
    assert game.scores()[0].bonuses == 200


def test_a_wild_in_the_middle_does_not_move() -> None:
    # RULINGS 5 / brief: `move N low|high` moves a wild at one end of a run to the other end
    game = play("us", 2, hands=["5S JK 7S 8S 3D 9C QH 4C KD TH 6D"], stock="AD", actions=["draw"])
    game.apply("meld 5S JK 7S 8S")
    assert refused(game, "move 1 low").rule == "wild-moves"
    assert refused(game, "move 1 high").rule == "wild-moves"


# ===== aces =============================================================================


def test_aces_rank_high_or_low_but_do_not_wrap() -> None:
    # 000 §Course of Play: Aces may rank high or low, and more than one ace may be played in a run
    # RULINGS 6: no wrap-around (K-A-2)
    hand = "AH 2H 3H QH KH AS 2S KS 9D 6C TC"
    game = play("us", 2, hands=[hand], stock="4D", actions=["draw"])
    assert "meld AH 2H 3H" in legal(game)
    assert "meld QH KH AH" in legal(game)
    assert refused(game, "meld KS AS 2S").rule == "meld-shape"


def test_a_run_from_ace_to_ace() -> None:
    # 000 §Melds: A - 2 - 3 - 4 - 5 - 6 - 7 - 8 - 9 - 10 - J - Q - K - A
    # 000 §Course of Play: more than one ace may be played in a run
    game = play(
        "us",
        2,
        hands=["AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH"],
        pots=["KH AH 3C 7C 9D JD 4S 8S QS 5D 6C"],
        stock="QH",
        actions=["draw", "meld AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "add 1 KH", "add 1 AH"],
    )
    assert melds(game, 0) == ["AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"]
    assert game.melds[0][0].clean
    # us has no special ace-to-ace bonus: a clean run is 200
    assert game.scores()[0].bonuses == 200


def test_an_ace_added_to_a_run_from_2_to_k_goes_low_or_high_as_chosen() -> None:
    # 000 §Course of Play: Aces may rank high or low
    # RULINGS 6: an ace is low (A-2-3) or high (Q-K-A)
    def start() -> Game:
        return play(
            "us",
            2,
            hands=["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"],
            pots=["AH AH 3C 7C 9D JD 4S 8S QS 5D 6C"],
            stock="KH",
            actions=["draw", "meld 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"],
        )

    game = start()
    with pytest.raises(NotationError):
        game.apply("add 1 AH")
    game.apply("add 1 AH low")
    assert melds(game, 0) == ["AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"]
    # the second ace can only go high now
    game.apply("add 1 AH")
    assert game.melds[0][0].size == 14
    high = start()
    high.apply("add 1 AH high")
    assert melds(high, 0) == ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"]


def test_option_aces_high_only() -> None:
    # 000 §Variations: Aces are high only
    game = play("us", 2, hands=["AH 2H 3H QH KH 9S 4D 6C TC JS 8D"], stock="5S", aces="high")
    game.apply("draw")
    assert "meld QH KH AH" in legal(game)
    assert refused(game, "meld AH 2H 3H").rule == "meld-shape"


def test_option_aces_low_only() -> None:
    # 000 §Variations: Aces are low only
    game = play("us", 2, hands=["AH 2H 3H QH KH 9S 4D 6C TC JS 8D"], stock="5S", aces="low")
    game.apply("draw")
    assert "meld AH 2H 3H" in legal(game)
    assert refused(game, "meld QH KH AH").rule == "meld-shape"


# ===== first draw =======================================================================


def test_first_player_may_keep_the_first_card() -> None:
    # 000 §First Draw: If the first player accepts the first card of the game then another card
    # may not be drawn by that player on that turn
    # 000 §First Draw Note: if the player discards this same card after it is placed in the
    # hand, then the player has exhausted their turn and play proceeds to the next player
    game = play("us", 4, hands=[JUNK], stock="QS 9C")
    game.apply("draw")
    assert "QS" in hand_text(game, 0)
    assert "turn-up" in legal(game)
    assert refused(game, "draw").rule == "phase"
    game.apply("discard QS")
    assert [card_name(c) for c in game.pile] == ["QS"]
    assert game.to_move == 1
    assert len(game.hand(0)) == 11


def test_first_player_may_turn_the_first_card_up_and_draw_the_next() -> None:
    # 000 §First Draw: If the first player does not want the first card of the game, then that
    # card is immediately turned face-up to the side of the stock to begin the discard pile, and
    # the first player draws another card from the stock
    # RULINGS 3: either keeps it (and draws nothing more) or turns it face up ... and draws the
    # next stock card
    game = play("us", 4, hands=[JUNK], stock="QS 9C AD")
    stock_before = len(game.stock)
    game.apply("draw")
    game.apply("turn-up")
    assert [card_name(c) for c in game.pile] == ["QS"]
    assert "QS" not in hand_text(game, 0)
    assert "9C" in hand_text(game, 0)
    assert len(game.hand(0)) == 12
    assert len(game.stock) == stock_before - 2
    assert "turn-up" not in legal(game)
    assert refused(game, "turn-up").rule == "first-turn"
    assert refused(game, "draw").rule == "phase"
    game.apply("discard 9C")
    # the next player draws as usual, or takes the whole pile (QS and 9C)
    assert game.to_move == 1
    assert legal(game) == ["draw", "take-pile"]
    game.apply("take-pile")
    assert {"QS", "9C"} <= set(hand_text(game, 1))


def test_only_the_first_draw_of_the_hand_offers_the_choice() -> None:
    # 000 §First Draw: The first draw of the game varies from subsequent draws
    game = play("us", 4, hands=[JUNK], stock="QS 9C AD", actions=["draw", "discard QS"])
    game.apply("draw")
    assert "turn-up" not in legal(game)
    assert refused(game, "turn-up").rule == "first-turn"


# ===== drawing and the discard pile =======================================================


def test_the_whole_pile_is_taken() -> None:
    # 000 §Course of Play: Pick-up ALL of the cards in the discard pile
    # RULINGS presets table: us taking the pile: always, whole pile
    game = play(
        "us",
        2,
        hands=[JUNK, "3C 5C 7C 9C JC KC 4D 6D 8D TD QD"],
        stock="AS 2H KS",
        actions=["draw", "discard AS", "draw", "discard 2H", "draw", "discard KS"],
    )
    assert [card_name(c) for c in game.pile] == ["AS", "2H", "KS"]
    hand_before = len(game.hand(1))
    # taking the pile asks nothing of its top card (no meld needed)
    assert "take-pile" in legal(game)
    game.apply("take-pile")
    assert game.pile == []
    assert len(game.hand(1)) == hand_before + 3
    assert {"AS", "2H", "KS"} <= set(hand_text(game, 1))
    assert refused(game, "draw").rule == "phase"
    # 000 §Turn Structure: "It is illegal to pick up the top card from the discard pile and
    # discard the same card in the same turn" (RULINGS 15)
    assert refused(game, "discard KS").rule == "keep-taken-top"
    game.apply("discard AS")
    assert game.to_move == 0


def test_the_pile_is_open_to_every_player() -> None:
    # 000 §Course of Play: Before drawing, players may examine and re-arrange the discard pile
    game = play("us", 4, stock="AS 2H KS", actions=["draw", "turn-up", "discard 2H"])
    for seat in range(4):
        assert game.view(seat)["pile"] == ["AS", "2H"]


# ===== initial meld =====================================================================


def test_initial_meld_of_fifty_reached_by_several_melds() -> None:
    # 000 §Initial Melding: A team with less than fifteen hundred points in the match must
    # initially meld a minimum of fifty points. The sum of the values of the cards played in
    # the player's turn must equal or exceed the minimum
    game = play(
        "us",
        2,
        hands=[OPENING_50],
        stock="AD",
        actions=["draw", "meld 8C 9C TC"],
    )
    assert game.requirement_left(0) == 50
    game.apply("meld 3H 4H 5H 6H")
    # 30 + 20 = 50: exactly the minimum
    assert game.requirement_left(0) == 0
    game.apply("discard AD")
    assert melds(game, 0) == ["8C 9C TC", "3H 4H 5H 6H"]
    assert game.scores()[0].melds == 50


def test_a_short_initial_meld_returns_to_the_hand_and_raises_the_minimum() -> None:
    # 000 §Initial Melding: If a team fails to meld the minimum initial number of points, then all
    # the runs are placed back into the hand of the player and fifteen more points are added to
    # the initial number to meld for that team during that game
    game = play(
        "us",
        2,
        hands=[HAND_45],
        stock="AD",
        actions=["draw", "meld 8C 9C TC", "meld 3H 4H 5H"],
    )
    assert game.requirement_left(0) == 50
    game.apply("discard AD")
    # 30 + 15 = 45 is short of 50
    assert melds(game, 0) == []
    assert hand_text(game, 0) == sorted(card_name(c) for c in parse_cards(HAND_45))
    assert game.requirement_left(0) == 65
    assert game.requirement_left(1) == 50
    assert game.scores()[0].melds == 0


def test_the_raised_minimum_grows_with_each_failure() -> None:
    # 000 §Initial Melding: fifteen more points are added to the initial number to meld for that
    # team during that game
    game = play(
        "us",
        2,
        hands=[OPENING_50],
        stock="AD QS 2C",
        actions=["draw", "meld 3H 4H 5H 6H", "discard AD", "draw", "discard QS", "draw"],
    )
    assert game.requirement_left(0) == 65
    game.apply("meld 8C 9C TC")
    game.apply("meld 3H 4H 5H 6H")
    # 50 would have been enough before the failure, not now
    assert game.requirement_left(0) == 65
    game.apply("discard 2C")
    assert melds(game, 0) == []
    assert game.requirement_left(0) == 80


def test_the_minimum_may_be_reached_by_the_melds_that_empty_the_hand() -> None:
    # 000 §Initial Melding: The sum of the values of the cards played in the player's turn must
    # equal or exceed the minimum; 000 §The Pot: If a player plays all the cards in their hand
    # ... the player picks-up the next hand from the pot
    game = play("us", 2, hands=["3H 4H 5H 3C 4C 5C 3D 4D 5D 6S 7S"], stock="8S")
    game.apply("draw")
    game.apply("meld 3H 4H 5H")
    game.apply("meld 3C 4C 5C")
    game.apply("meld 3D 4D 5D")
    assert game.requirement_left(0) == 50
    # 45 + 6S 7S 8S (20) = 65
    game.apply("meld 6S 7S 8S")
    assert game.requirement_left(0) == 0
    assert game.pot_taken == [True, False]
    assert game.scores()[0].melds == 65


def test_a_short_opening_may_not_empty_the_hand() -> None:
    # 000 §Initial Melding: A team may only begin to place runs onto the table if they meld a
    # minimum number of initial points ... fifteen more points are added
    # RULINGS 8: A player may not empty the hand unless that takes a morto or goes out legally
    game = play(
        "us",
        2,
        hands=["3H 4H 5H 3C 4C 5C 3D 4D 5D 6S 7S"],
        stock="KD 9C 5S",
        actions=[
            "draw",
            "meld 3H 4H 5H",
            "discard KD",
            "draw",
            "discard 9C",
            "draw",
            "meld 3H 4H 5H",
            "meld 3C 4C 5C",
            "meld 3D 4D 5D",
        ],
    )
    assert game.requirement_left(0) == 65
    # 45 + 5S 6S 7S (15) = 60 is short of 65: the hand may not be emptied
    assert "meld 5S 6S 7S" not in legal(game)
    assert refused(game, "meld 5S 6S 7S").rule == "never-stranded"
    assert not game.pot_taken[0]


@pytest.mark.parametrize(("total", "minimum"), [(1499, 50), (1500, 75), (2995, 75)])
def test_the_minimum_depends_on_the_teams_match_total(total: int, minimum: int) -> None:
    # 000 §Initial Melding: Team score Less than 1500: 50; 1500 - 2995: 75
    game = play("us", 2, scores=[total, 0])
    assert game.requirement_left(0) == minimum
    assert game.requirement_left(1) == 50


def test_fifty_points_are_short_once_the_team_has_1500() -> None:
    # 000 §Initial Melding: A team with fifteen hundred or more points in the match must
    # initially meld a minimum of seventy-five points
    game = play(
        "us",
        2,
        hands=[OPENING_50],
        stock="AD",
        actions=["draw", "meld 8C 9C TC", "meld 3H 4H 5H 6H"],
        scores=[1500, 0],
    )
    assert game.requirement_left(0) == 75
    game.apply("discard AD")
    assert melds(game, 0) == []
    assert game.requirement_left(0) == 90


def test_after_the_team_has_opened_the_partner_melds_freely() -> None:
    # 000 §Initial Melding: A team may only begin to place runs onto the table if they meld a
    # minimum number of initial points (the minimum is the team's, once per hand)
    game = play(
        "us",
        4,
        hands=[OPENING_50, "", "3D 4D 5D 9S JC QH 6C AC 8H TS KC"],
        stock="AD 9H 2S",
        actions=["draw", "meld 8C 9C TC", "meld 3H 4H 5H 6H", "discard AD", "draw", "discard 9H"],
    )
    assert game.requirement_left(0) == 0
    game.apply("draw")
    game.apply("meld 3D 4D 5D")
    game.apply("discard 2S")
    assert melds(game, 0) == ["8C 9C TC", "3H 4H 5H 6H", "3D 4D 5D"]


def test_the_raised_minimum_lasts_for_that_hand_only() -> None:
    # 000 §Initial Melding: fifteen more points are added ... for that team during that game
    game = play(
        "us",
        2,
        hands=[SPADES, JUNK],
        pots=[HEARTS],
        stock="2D 9D AS",
        actions=[
            "draw",
            "meld 3S 4S 5S 6S",
            "discard 2D",
            "draw",
            "discard 9D",
            "draw",
            f"meld {SPADES} AS",
            f"meld {HEARTS}",
        ],
        match=True,
    )
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    game.next_hand()
    assert game.requirement_left(0) == 50


def test_reaching_1500_in_the_match_raises_the_next_hands_minimum() -> None:
    # 000 §Initial Melding: This minimum initial meld number varies based upon the total number
    # of points already earned by that team in the match
    game = out_in_one_turn("us", match=True, scores=[1000, 0])
    assert game.totals == [1685, -185]
    game.next_hand()
    assert game.requirement_left(0) == 75
    assert game.requirement_left(1) == 50


# ===== canastras and bonuses ===============================================================


def test_a_clean_canastra_and_a_short_dirty_meld() -> None:
    # 000 §Scoring: clean run (no wild cards/tiles) 200 points
    # 000 §Melds: Melds of seven or more cards earn extra points
    game = play(
        "us",
        2,
        hands=["3H 4H 5H 6H 7H 8H 9H 3C 4C JK QD"],
        stock="KS",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H 9H", "meld 3C 4C JK", "discard KS"],
    )
    assert melds(game, 0) == ["3H 4H 5H 6H 7H 8H 9H", "3C 4C JK"]
    assert game.scores()[0].canastras == ("clean",)
    assert game.scores()[0].bonuses == 200
    # a dirty meld of three cards earns no bonus
    assert not game.melds[0][1].clean


def test_every_set_with_a_wild_is_dirty() -> None:
    # 000 §Melds: Dirty run: Seven or more cards with a wildcard. Every group with a wildcard
    # will always be dirty
    game = play(
        "us",
        2,
        hands=["KC KC KD KD KH KH 2S 4C 8D 5H 9S"],
        stock="7C",
        actions=["draw", "meld KC KC KD KD KH KH 2S"],
    )
    assert game.melds[0][0].size == 7
    assert not game.melds[0][0].clean
    assert game.scores()[0].canastras == ("dirty",)
    assert game.scores()[0].bonuses == 100


def test_a_clean_set_of_seven() -> None:
    # 000 §Melds: Clean run: Seven or more cards without a wildcard (groups of face cards too)
    game = play(
        "us",
        2,
        hands=["KC KC KD KD KH KH KS 4C 8D 5H 9S"],
        stock="7C",
        actions=["draw", "meld KC KC KD KD KH KH KS"],
    )
    assert game.scores()[0].canastras == ("clean",)
    assert game.scores()[0].bonuses == 200


def test_semi_clean_option_pays_150_for_seven_in_a_row_plus_a_deuce() -> None:
    # 000 §Scoring Variation: If a run has 7 clean cards in a row plus a deuce, it is worth 150
    # points; RULINGS presets table: us option 7 clean + a deuce = 150
    hand = "3H 4H 5H 6H 7H 8H 9H 2C 4S 9D QS"
    base = play("us", 2, hands=[hand], stock="KC", actions=["draw", "meld 3H 4H 5H 6H 7H 8H 9H 2C"])
    assert base.scores()[0].bonuses == 100
    semi = play(
        "us",
        2,
        hands=[hand],
        stock="KC",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H 9H 2C"],
        semi_clean_bonus=150,
        semi_clean_wild="deuce",
    )
    assert semi.scores()[0].canastras == ("semi-clean",)
    assert semi.scores()[0].bonuses == 150


def test_semi_clean_option_needs_a_deuce_not_a_joker() -> None:
    # 000 §Scoring Variation: 7 clean cards in a row plus a deuce (a joker does not qualify)
    game = play(
        "us",
        2,
        hands=["3H 4H 5H 6H 7H 8H 9H JK 4S 9D QS"],
        stock="KC",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H 9H JK"],
        semi_clean_bonus=150,
        semi_clean_wild="deuce",
    )
    assert game.scores()[0].canastras == ("dirty",)
    assert game.scores()[0].bonuses == 100


def test_semi_clean_option_needs_the_seven_naturals_in_a_row() -> None:
    # 000 §Scoring Variation: 7 clean cards in a row plus a deuce
    game = play(
        "us",
        2,
        hands=["3H 4H 2C 6H 7H 8H 9H TH 4S 9D QS"],
        stock="KC",
        actions=["draw", "meld 3H 4H 2C 6H 7H 8H 9H TH"],
        semi_clean_bonus=150,
        semi_clean_wild="deuce",
    )
    assert game.scores()[0].canastras == ("dirty",)
    assert game.scores()[0].bonuses == 100


# ===== the pots ========================================================================


def test_emptying_the_hand_by_melding_takes_the_pot_and_play_continues() -> None:
    # 000 §The Pot: If a player plays all the cards in their hand and their team has not yet
    # taken a hand from the pot, then the player picks-up the next hand from the pot ... Has not
    # discarded, continues to play ("in-flight") from the new hand
    game = play(
        "us",
        2,
        hands=[SPADES],
        pots=[HEARTS],
        stock="AS",
        actions=["draw", f"meld {SPADES} AS"],
    )
    assert game.pot_taken == [True, False]
    assert hand_text(game, 0) == sorted(HEARTS.split())
    assert game.to_move == 0
    assert game.view(0)["hidden_pot"] == 0
    assert f"meld {HEARTS}" in legal(game)
    assert len(game.pots) == 1


def test_a_pot_taken_by_discarding_stays_hidden_until_the_partner_has_played() -> None:
    # 000 §The Pot: Has discarded, play from the new hand commences at that player's next turn.
    # This new hand ... must not even be looked at until the player's partner has taken their turn
    # RULINGS 7: in us its cards stay hidden from that player until the partner has played
    game = play(
        "us",
        4,
        hands=[SPADES],
        pots=[HEARTS],
        stock="AS 9H 9D 9C",
        actions=["draw", f"meld {SPADES}", "discard AS"],
    )
    assert game.pot_taken == [True, False]
    assert game.to_move == 1
    view = game.view(0)
    assert view["hand"] == []
    assert view["hidden_pot"] == 11
    assert view["hand_sizes"][0] == 11
    game.apply("draw")
    game.apply("discard 9H")
    assert game.view(0)["hand"] == []
    assert game.view(0)["hidden_pot"] == 11
    game.apply("draw")
    # during the partner's turn the pot is still unseen
    assert game.view(0)["hand"] == []
    game.apply("discard 9D")
    assert game.view(0)["hidden_pot"] == 0
    assert sorted(game.view(0)["hand"]) == sorted(HEARTS.split())


def test_with_two_players_a_pot_taken_by_discarding_is_seen_at_the_next_turn() -> None:
    # 000 §The Pot: Has discarded, play from the new hand commences at that player's next turn
    # RULINGS 7: By discarding (indirect): it is played from the next turn
    game = play(
        "us",
        2,
        hands=[SPADES],
        pots=[HEARTS],
        stock="AS 9D",
        actions=["draw", f"meld {SPADES}", "discard AS"],
    )
    assert game.view(0)["hand"] == []
    assert game.view(0)["hidden_pot"] == 11
    game.apply("draw")
    game.apply("discard 9D")
    assert game.to_move == 0
    assert sorted(game.view(0)["hand"]) == sorted(HEARTS.split())
    game.apply("draw")
    assert f"meld {HEARTS}" in legal(game)


def test_a_team_takes_one_pot_and_the_partner_then_goes_out() -> None:
    # 000 §The Pot: If a player plays all the cards in their hand and their team has not yet
    # taken a hand from the pot, then the player picks-up the next hand from the pot
    # 000 §Ending the Hand: If a player plays all the cards in their hand and the team has taken
    # a hand from the pot and the team has at least one clean meld ... then the game ends
    game = pot_then_partner_out("us")
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    assert game.pot_taken == [True, False]
    assert len(game.pots) == 1
    side0, side1 = game.scores()
    # 3S-AS 100 + 3H-AH 100, two clean canastras, going out; seat 0 still holds the pot
    # minus 4C: 85 - 5 = 80
    assert (side0.melds, side0.bonuses, side0.going_out, side0.hand) == (200, 400, 100, -80)
    assert side0.total == 620
    # seats 1 and 3 hold CLUBS and DIAMONDS (85 each); no pot taken
    assert side1.hand == -170
    assert side1.pot == -100


def test_going_out_by_melding_every_card() -> None:
    # 000 §Scoring: If a team ends the game (If a player plays all the cards in their hand and the
    # team has taken a hand from the pot and the team has at least one clean run), then that
    # team adds one hundred points
    game = out_in_one_turn("us")
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    side0, side1 = game.scores()
    # 3S-AS 100 + 3H-KH 85; two clean canastras; going out
    assert (side0.melds, side0.bonuses, side0.going_out, side0.hand, side0.pot) == (
        185,
        400,
        100,
        0,
        0,
    )
    assert side0.total == 685
    # seat 1 holds JUNK (85) and never took a pot
    assert (side1.hand, side1.pot, side1.going_out) == (-85, -100, 0)
    assert side1.total == -185


def test_going_out_with_a_final_discard() -> None:
    # 000 §Course of Play: A player's turn ends when a card is discarded
    # brief/RULINGS presets table: us going out needs ... all cards played (a final discard
    # is optional)
    game = play(
        "us",
        2,
        hands=[SPADES, JUNK],
        pots=["3H 4H 5H 6H 7H 8H 9H TH JH QH 5C"],
        stock="AS",
        actions=["draw", f"meld {SPADES} AS", "meld 3H 4H 5H 6H 7H 8H 9H TH JH QH", "discard 5C"],
    )
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    side0 = game.scores()[0]
    assert (side0.melds, side0.bonuses, side0.going_out, side0.hand) == (175, 400, 100, 0)
    assert card_name(game.pile[-1]) == "5C"


def test_no_going_out_without_a_clean_canastra() -> None:
    # 000 §The Pot: If a team has picked up a hand from the pot, and they do not have a clean
    # run, then that team may not play all the cards in either of their hands
    game = play(
        "us",
        2,
        hands=["3S 4S 5S 6S 7S 8S JK TS JS QS KS"],
        pots=["3H 4H 5H 6H 3C 4C 5C 6C 3D 4D 5D"],
        stock="AS",
        actions=["draw", "meld 3S 4S 5S 6S 7S 8S JK TS JS QS KS AS", "meld 3H 4H 5H 6H"],
    )
    assert game.scores()[0].canastras == ("dirty",)
    game.apply("meld 3C 4C 5C 6C")
    assert "meld 3D 4D 5D" not in legal(game)
    assert refused(game, "meld 3D 4D 5D").rule == "never-stranded"
    assert "discard 3D" in legal(game)
    assert not game.is_hand_over()


def test_option_going_out_on_a_dirty_canastra() -> None:
    # 000 §Ending the Hand: (variation: or dirty meld); 000 §Variations: The game ends on either
    # a clean run or dirty run
    game = play(
        "us",
        2,
        hands=["3S 4S 5S 6S 7S 8S JK TS JS QS KS"],
        pots=["3H 4H 5H 6H 3C 4C 5C 6C 3D 4D 5D"],
        stock="AS",
        actions=[
            "draw",
            "meld 3S 4S 5S 6S 7S 8S JK TS JS QS KS AS",
            "meld 3H 4H 5H 6H",
            "meld 3C 4C 5C 6C",
            "meld 3D 4D 5D",
        ],
        go_out_canastra="any",
    )
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    assert game.scores()[0].going_out == 100


def test_a_team_without_its_pot_loses_100() -> None:
    # 000 §Scoring: if a team did not take a hand from the pot, then they must subtract one
    # hundred points from their team's total score
    game = out_in_one_turn("us")
    assert game.scores()[1].pot == -100
    assert game.scores()[0].pot == 0


def test_a_pot_never_played_costs_100() -> None:
    # 000 §Scoring: If the game ends before any cards are played from a new hand picked up from
    # the pot, then the player with that new hand will either: Subtract the combined point value
    # of all the cards ... or Subtract one hundred points
    # RULINGS 7: A morto taken indirectly and never played costs 100 instead of its card values
    actions = [
        "draw",
        f"meld {SPADES}",
        "discard AS",
        "draw",
        f"meld {DIAMONDS} AD",
        f"meld {HEARTS}",
    ]
    game = play(
        "us", 2, hands=[SPADES, DIAMONDS], pots=[JUNK, HEARTS], stock="AS AD", actions=actions
    )
    assert game.is_hand_over()
    side0 = game.scores()[0]
    assert side0.hand == -100
    assert side0.pot == 0
    # 3S-KS 85, clean canastra 200, unplayed pot -100
    assert side0.total == 185
    # the other reading: its card values
    cards = play(
        "us",
        2,
        hands=[SPADES, DIAMONDS],
        pots=["2C JK AC 3D 7D 8D 9H KC QC 4C 5H", HEARTS],
        stock="AS AD",
        actions=actions,
        unplayed_pot="cards",
    )
    assert cards.scores()[0].hand == -125


def test_a_pot_taken_by_melding_is_played_at_once() -> None:
    # RULINGS 7: By melding (direct): the morto is played on at once
    # (no unplayed-pot penalty for the side that took it in flight)
    game = pots_taken_by_melding("us", JUNK, ["discard 4C"])
    assert game.is_hand_over()
    # seat 0 holds JUNK minus 4C: 80
    assert game.scores()[0].hand == -80


def test_stock_runs_out_pots_become_the_stock_then_the_hand_ends() -> None:
    # 000 §The Pot: If the stock is empty and there are cards in the pot, then the next hand from
    # the pot will be moved into the stock. In this case, it is certain at least one team will
    # need to subtract points
    # 000 §Ending the Hand: If the stock is empty and there are not any cards in the pot, then
    # the game is over without either team earning additional points for ending that game
    game = play("us", 2)
    draws = 0
    while not game.is_hand_over():
        if len(game.stock) == 1 and not game.pots:
            seat = game.turn
            game.apply("draw")
            draws += 1
            # RULINGS presets table: the hand ends after the turn of the player who drew the
            # last card
            assert not game.is_hand_over()
            assert game.to_move == seat
            game.apply(f"discard {card_name(game.hand(seat)[0])}")
            break
        draw_and_discard(game)
        draws += 1
    assert game.is_hand_over()
    assert game.ended_by == "stock"
    # 64 stock cards and the two pots of 11
    assert draws == 64 + 22
    assert sum(1 for e in game.events if e.note == "a morto became the stock") == 2
    for score in game.scores():
        assert score.going_out == 0
        assert score.pot == -100


def test_the_next_pot_is_the_one_that_becomes_the_stock() -> None:
    # 000 §The Pot: If the stock is empty and there are cards in the pot, then the next hand from
    # the pot will be moved into the stock
    # brief reading: mortos are taken first-come-first-served, in the order of game.pots
    first = "AC AD AH AS KC KD KH KS QC QD QH"
    second = "JC JD JH JS TC TD TH TS 9C 9D 9H"
    game = play("us", 2, pots=[first, second])

    def moved() -> bool:
        return any(e.note == "a morto became the stock" for e in game.events)

    while not moved():
        seat = game.turn
        top = card_name(game.stock[-1])
        game.apply("draw", seat=seat)
        if not moved():
            game.apply(f"discard {top}", seat=seat)
    assert sorted(card_name(c) for c in game.stock) == sorted(first.split())
    assert [sorted(card_name(c) for c in p) for p in game.pots] == [sorted(second.split())]


# ===== cut bonus, match ====================================================================


def _cut_game(players: int, cuts: list[int], **options: Any) -> Game:
    rules = make_rules("us", players=players, **options)
    dealer = players - 1
    decks = [deck_for(rules, dealer=(dealer + i) % players) for i in range(len(cuts))]
    return Game(rules, stacked=decks, cuts=cuts, first_dealer=dealer, match=True)


def test_exact_cut_gives_the_cutters_team_100() -> None:
    # 000 §The Setup: The opponent sitting to the right of the dealer attempts to cut exactly
    # twenty-two cards ... If exactly twenty-two cards are cut ... then that team immediately
    # gains one hundred extra points
    exact = _cut_game(4, [0])
    # dealer 3: the cutter is seat 2, of side 0
    assert [s.cut for s in exact.scores()] == [100, 0]
    missed = _cut_game(4, [2])
    assert [s.cut for s in missed.scores()] == [0, 0]


def test_exact_cut_bonus_follows_the_deal() -> None:
    # 000 §The Setup: The opponent sitting to the right of the dealer attempts to cut
    # 000 §The Deal: Responsibility for dealing the cards always proceeds clockwise
    game = _cut_game(2, [1, 0])
    assert [s.cut for s in game.scores()] == [0, 0]
    # play the first hand out quickly: both just draw and discard until the stock ends
    while not game.is_hand_over():
        draw_and_discard(game)
    game.next_hand()
    # dealer 0 now: the cutter is seat 1
    assert game.dealer == 0
    assert [s.cut for s in game.scores()] == [0, 100]


def test_the_exact_cut_counts_in_the_hand_total() -> None:
    # 000 §The Setup: that team immediately gains one hundred extra points
    game = _cut_game(4, [0])
    while not game.is_hand_over():
        draw_and_discard(game)
    side0, side1 = game.results[0].scores
    assert side0.cut == 100
    assert side0.total == side0.hand + side0.pot + 100
    assert side1.total == side1.hand + side1.pot
    assert game.totals == [side0.total, side1.total]


@pytest.mark.parametrize(("start", "winner"), [(1315, 0), (1314, None)])
def test_the_match_is_won_at_2000(start: int, winner: int | None) -> None:
    # 000 §Scoring: The first team to accumulate two thousand or more points wins the match
    game = out_in_one_turn("us", match=True, scores=[start, 0])
    # the hand scores 685
    assert game.totals == [start + 685, -185]
    assert game.winner == winner
    assert game.is_over() == (winner is not None)


def test_option_a_match_of_a_fixed_number_of_hands() -> None:
    # 000 §Variations: Play for a predefined duration rather than a point total. The team with
    # the most points wins
    one = out_in_one_turn("us", match=True, scores=[0, 500], match_hands=1)
    assert one.totals == [685, 315]
    assert one.winner == 0
    two = out_in_one_turn("us", match=True, scores=[1900, 0], match_hands=2)
    assert two.totals[0] >= 2000
    assert two.winner is None
    two.next_hand()
    assert two.hand_number == 1


# ===== six players =======================================================================


@pytest.mark.parametrize(
    ("sides", "teams"), [(3, [[0, 3], [1, 4], [2, 5]]), (2, [[0, 2, 4], [1, 3, 5]])]
)
def test_six_players_use_three_decks_and_three_pots(sides: int, teams: list[list[int]]) -> None:
    # 000 §Variations: Add one more deck of cards so there can be three teams of two players
    # each, or two teams of three players each. The pot will consist of three hands
    # RULINGS 13: 3 decks (162 cards), 3 teams of 2 or 2 teams of 3, three pots
    game = Game("us", players=6, seed=3, match=False, sides=sides)
    assert game.k == sides
    assert [list(game.rules.seats_of(s)) for s in range(sides)] == teams
    assert [len(p) for p in game.pots] == [11, 11, 11]
    assert [len(game.hand(s)) for s in range(6)] == [11] * 6
    assert len(game.stock) == 162 - 33 - 66
    assert game.view(0)["sides"] == teams


def test_six_players_default_to_three_teams_of_two() -> None:
    # RULINGS presets table: 6 as the 3-deck variation; brief: 3 teams of 2 (sides=3, default)
    game = play("us", 6)
    assert game.k == 3
    assert len(game.scores()) == 3


def test_six_players_three_teams_each_take_a_pot() -> None:
    # 000 §Variations: three teams of two players each ... The pot will consist of three hands
    game = play(
        "us",
        6,
        hands=[SPADES, HEARTS, DIAMONDS],
        stock="AS AH AD",
        actions=[
            "draw",
            f"meld {SPADES}",
            "discard AS",
            "draw",
            f"meld {HEARTS}",
            "discard AH",
            "draw",
            f"meld {DIAMONDS}",
            "discard AD",
        ],
    )
    assert game.pot_taken == [True, True, True]
    assert game.pots == []
    assert [len(game.hand(s)) for s in range(3)] == [11, 11, 11]


def test_six_players_two_teams_of_three_share_melds() -> None:
    # 000 §Melds: Each team has its own collection of melds ... shared by both players
    # 000 §Variations: two teams of three players each
    game = play(
        "us",
        6,
        hands=["3H 4H 5H 6H 8C 9C TC 4S KD JS 7D", "", "7H 9D 3C 5S JC QH 6C AC 8H TS KC"],
        stock="AD 9H 2S",
        actions=["draw", "meld 3H 4H 5H 6H", "meld 8C 9C TC", "discard AD", "draw", "discard 9H"],
        sides=2,
    )
    game.apply("draw")
    assert game.to_move == 2
    game.apply("add 1 7H")
    assert melds(game, 0) == ["3H 4H 5H 6H 7H", "8C 9C TC"]


def test_six_players_two_teams_of_three_take_one_pot_each() -> None:
    # 000 §Variations: two teams of three players each. The pot will consist of three hands
    # brief reading: A side takes at most one (morto)
    # 000 §Ending the Hand: If a player plays all the cards in their hand and the team has taken
    # a hand from the pot and the team has at least one clean meld ... then the game ends
    game = play(
        "us",
        6,
        hands=[SPADES, CLUBS, HEARTS],
        stock="AS AC AH",
        actions=[
            "draw",
            f"meld {SPADES}",
            "discard AS",
            "draw",
            f"meld {CLUBS}",
            "discard AC",
            "draw",
            f"meld {HEARTS} AH",
        ],
        sides=2,
    )
    assert game.pot_taken == [True, True]
    # seat 2 emptied its hand on a team that had its pot and a clean canastra: it went out
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    assert len(game.pots) == 1
    assert game.scores()[0].going_out == 100


def test_six_players_exact_cut_of_33() -> None:
    # 000 §Variations: the person making the pot will cut for thirty-three cards
    # 000 §The Setup: If exactly ... cut ... then that team immediately gains one hundred points
    game = _cut_game(6, [0])
    # dealer 5: the cutter is seat 4, of team 1 of three
    assert [s.cut for s in game.scores()] == [0, 100, 0]
    two_teams = _cut_game(6, [0], sides=2)
    assert [s.cut for s in two_teams.scores()] == [100, 0]


def test_semi_clean_in_the_us_preset_needs_a_deuce_by_default() -> None:
    # 000 §Scoring Variation: 7 clean cards in a row plus a deuce; RULINGS presets table:
    # us option 7 clean + a deuce = 150 (switching the bonus on keeps the deuce condition)
    def bonus(hand: str, meld: str) -> tuple[str, ...]:
        game = play("us", 2, hands=[hand], stock="KC", actions=["draw", meld], semi_clean_bonus=150)
        return game.scores()[0].canastras

    assert bonus("3H 4H 5H 6H 7H 8H 9H 2C 4S 9D QS", "meld 3H 4H 5H 6H 7H 8H 9H 2C") == (
        "semi-clean",
    )
    assert bonus("3H 4H 5H 6H 7H 8H 9H JK 4S 9D QS", "meld 3H 4H 5H 6H 7H 8H 9H JK") == ("dirty",)


def test_a_short_opening_worth_no_points_still_goes_back() -> None:
    # 000 §Initial Melding: if a team fails to meld the minimum, all the runs are placed back into
    # the hand of the player and fifteen more points are added (even a meld worth 0 points)
    game = play(
        "us",
        2,
        hands=["3H 4H 5H 9C QC 5D 8D JD 4S 7S TS"],
        stock="9D",
        actions=["draw", "meld 3H 4H 5H", "discard 9D"],
        low_value=0,
    )
    assert melds(game, 0) == []
    assert game.requirement == [65, 50]
    assert "3H" in hand_text(game, 0)
