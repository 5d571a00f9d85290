"""Rule tests for the ``italiano`` preset: Burraco as played in Italy.

Sources: the second text of 000 (Grokipedia: Italian-leaning overview, 3-player pozzetti),
common Italian practice, and ``RULINGS.md``.
"""

from __future__ import annotations

from typing import Any

import pytest

from buraco import Game, RulesError, card_name, make_rules
from scenario import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JUNK,
    SPADES,
    draw_and_discard,
    hand_text,
    legal,
    melds,
    play,
    refused,
)


def out_in_two_turns(**kw: Any) -> Game:
    """Seat 0 melds 3S-AS (taking its pozzetto by melding) and discards 4C; seat 1 draws and
    discards; seat 0 draws KH, melds 3H-QH and closes with KH."""
    return play(
        "italiano",
        2,
        hands=[SPADES, JUNK],
        pots=["3H 4H 5H 6H 7H 8H 9H TH JH QH 4C"],
        upcard="9C",
        stock="AS 9D KH",
        actions=[
            "draw",
            f"meld {SPADES} AS",
            "discard 4C",
            "draw",
            "discard 9D",
            "draw",
            "meld 3H 4H 5H 6H 7H 8H 9H TH JH QH",
            "discard KH",
        ],
        **kw,
    )


# ===== the deal ========================================================================


@pytest.mark.parametrize("players", [2, 4])
def test_108_cards_eleven_each_two_pozzetti_and_one_card_turned_up(players: int) -> None:
    # 000 (second text) §Cards and Decks: two standard decks of 52 cards each, plus four jokers,
    # for a total of 108 cards; §Player Setup and Dealing: two face-down piles of exactly 11
    # cards each ... The dealer then distributes 11 cards face down to each player
    # RULINGS presets table: italiano discard pile: one card turned up at the deal
    game = Game("italiano", players=players, seed=9, match=False)
    assert [len(game.hand(s)) for s in range(players)] == [11] * players
    assert [len(p) for p in game.pots] == [11, 11]
    assert len(game.pile) == 1
    assert len(game.stock) == 108 - 22 - 11 * players - 1
    everything = [c for s in range(players) for c in game.hand(s)] + list(game.pile)
    everything += [c for p in game.pots for c in p] + list(game.stock)
    assert len(everything) == 108
    assert sum(1 for c in everything if card_name(c) == "JK") == 4


def test_two_three_or_four_players() -> None:
    # RULINGS presets table: italiano players: 2, 3 or 4
    for players in (2, 3, 4):
        assert make_rules("italiano", players=players).players == players
    with pytest.raises(RulesError):
        make_rules("italiano", players=6)


def test_the_turned_up_card_starts_the_pile_and_may_be_taken_at_once() -> None:
    # RULINGS presets table: italiano: one card turned up at the deal; taking the pile:
    # always, whole pile
    # 000 (second text) §Drawing and Discarding: It is always legal to take the whole discard
    # pile, with no requirement to meld the top card
    game = play("italiano", 4, hands=[JUNK], upcard="KS")
    assert [card_name(c) for c in game.pile] == ["KS"]
    for seat in range(4):
        assert game.view(seat)["pile"] == ["KS"]
    assert legal(game) == ["draw", "take-pile"]
    game.apply("take-pile")
    assert game.pile == []
    assert "KS" in hand_text(game, 0)
    assert len(game.hand(0)) == 12
    assert refused(game, "draw").rule == "phase"


def test_the_first_player_has_no_turn_up_choice() -> None:
    # RULINGS 3: the first-turn choice belongs to aberto, fechado and us only
    game = play("italiano", 4, hands=[JUNK], upcard="KS", stock="QH")
    game.apply("draw")
    assert "QH" in hand_text(game, 0)
    assert "turn-up" not in legal(game)
    assert refused(game, "turn-up").rule == "first-turn"


def test_the_whole_pile_is_taken() -> None:
    # 000 (second text) §Drawing and Discarding: taking one card from the face-down draw pile or
    # the entire face-up discard pile
    game = play(
        "italiano",
        2,
        hands=[JUNK, "3C 5C 7C 9C JC KC 4D 6D 8D TD QD"],
        upcard="AS",
        stock="2H KS",
        actions=["draw", "discard 2H", "draw", "discard KS"],
    )
    assert [card_name(c) for c in game.pile] == ["AS", "2H", "KS"]
    size = len(game.hand(0))
    game.apply("take-pile")
    assert len(game.hand(0)) == size + 3
    assert {"AS", "2H", "KS"} <= set(hand_text(game, 0))
    assert game.pile == []


# ===== the taken top card ===============================================================


def test_the_taken_top_card_may_not_be_discarded_that_turn() -> None:
    # 000 (second text) §Turn Structure: It is illegal to pick up the top card from the discard
    # pile and discard the same card in the same turn
    # RULINGS presets table: the taken top card may not be discarded that turn
    game = play("italiano", 2, hands=[JUNK], upcard="7H", actions=["take-pile"])
    assert "discard 7H" not in legal(game)
    assert refused(game, "discard 7H").rule == "keep-taken-top"
    assert game.view(0)["taken_top"] == "7H"
    game.apply("discard 4C")
    assert card_name(game.pile[-1]) == "4C"


def test_another_copy_of_the_taken_top_card_may_be_discarded() -> None:
    # 000 (second text) §Turn Structure: It is illegal to pick up the top card from the discard
    # pile and discard the same card; brief reading: another copy of it may be discarded if the
    # player holds two
    game = play("italiano", 2, hands=["7H 4C 8C QC 3D JD 5S 9H KH 6S TS"], upcard="7H")
    game.apply("take-pile")
    assert "discard 7H" in legal(game)
    game.apply("discard 7H")
    assert "7H" in hand_text(game, 0)
    assert card_name(game.pile[-1]) == "7H"


def test_the_taken_top_card_may_be_discarded_next_turn() -> None:
    # 000 (second text) §Turn Structure: ... discard the same card in the same turn
    game = play(
        "italiano",
        2,
        hands=[JUNK],
        upcard="7H",
        stock="9S",
        actions=["take-pile", "discard 4C", "draw", "discard 9S", "draw"],
    )
    assert "discard 7H" in legal(game)


def test_a_meld_may_not_leave_only_the_taken_top_card() -> None:
    # 000 (second text) §Turn Structure: It is illegal to pick up the top card from the discard
    # pile and discard the same card in the same turn; RULINGS 8: never stranded
    game = play("italiano", 2, hands=[SPADES], upcard="7H", actions=["take-pile"])
    assert f"meld {SPADES}" not in legal(game)
    assert refused(game, f"meld {SPADES}").rule == "never-stranded"
    # one card fewer leaves KS to discard
    game.apply("meld 3S 4S 5S 6S 7S 8S 9S TS JS QS")
    assert legal(game) == ["discard KS"]


def test_the_taken_top_card_may_be_melded() -> None:
    # 000 (second text) §Drawing and Discarding: the top discard card is visible to all,
    # potentially aiding in forming melds
    game = play("italiano", 2, hands=["5H 6H 4C 8C QC 3D JD 9S KS 6S TS"], upcard="7H")
    game.apply("take-pile")
    game.apply("meld 5H 6H 7H")
    assert melds(game, 0) == ["5H 6H 7H"]


# ===== card values ======================================================================


def test_card_values() -> None:
    # RULINGS presets table: italiano card values J/2/A/8-K/3-7: 30/20/15/10/5
    game = play(
        "italiano",
        2,
        hands=["7C 8C JK TC QH KH AH 3D 2S 4H 9S"],
        upcard="6S",
        stock="6D",
        actions=["draw", "meld 7C 8C JK TC", "meld QH KH AH"],
    )
    # 7C 8C JK TC = 5 + 10 + 30 + 10; QH KH AH = 10 + 10 + 15
    assert game.scores()[0].melds == 55 + 35
    # 3D 2S 4H 9S 6D remain: 5 + 20 + 5 + 10 + 5
    assert game.scores()[0].hand == -45


# ===== melds ============================================================================


@pytest.mark.parametrize("rank", ["A", "3", "7", "T", "K"])
def test_sets_of_any_rank(rank: str) -> None:
    # 000 (second text) §Description and Objective: sets of three or more cards of the same rank
    # RULINGS presets table: italiano sets: any rank except 2s
    cards = f"{rank}C {rank}D {rank}H"
    game = play("italiano", 2, hands=[f"{cards} 5S 9S JS 6H QH 8D 4C"], upcard="2D", stock="JK")
    game.apply("draw")
    assert f"meld {cards}" in legal(game)
    assert f"meld {rank}C {rank}D JK" in legal(game)
    game.apply(f"meld {cards}")
    assert melds(game, 0) == [cards]


def test_no_set_of_twos() -> None:
    # RULINGS presets table: italiano sets: any rank except 2s
    # 000 (second text) §Point Calculation: sets of alone are not permitted
    game = play("italiano", 2, hands=["2C 2D 2H 5S 9S JS 6H QH 8D 4C KC"], upcard="TD")
    game.apply("draw")
    assert "meld 2C 2D 2H" not in legal(game)
    assert refused(game, "meld 2C 2D 2H").rule == "meld-shape"


def test_no_set_of_twos_with_a_joker() -> None:
    # RULINGS presets table: italiano sets: any rank except 2s
    game = play("italiano", 2, hands=["2C 2D JK 5S 9S JS 6H QH 8D 4C KC"], upcard="TD")
    game.apply("draw")
    assert refused(game, "meld 2C 2D JK").rule == "meld-shape"


def test_runs_and_wild_cards() -> None:
    # 000 (second text) §Melds and Sequences: runs ... three or more consecutive cards of the
    # same suit; Wild cards may substitute for any card in a meld but are limited to one per
    # combination; §Wild Cards: the two of spades might naturally connect to a three of spades
    game = play(
        "italiano", 2, hands=["AS 2S 3S 5H JK 7H 2C 9D JD KC 4C"], upcard="QS", actions=["draw"]
    )
    assert refused(game, "meld 5H JK 7H 2C").rule == "meld-shape"
    game.apply("meld AS 2S 3S")
    assert game.melds[0][0].clean
    game.apply("meld 5H JK 7H")
    assert not game.melds[0][1].clean
    assert refused(game, "add 2 2C").rule == "one-wild"


def test_no_wrap_around() -> None:
    # 000 (second text) §Melds and Sequences: they cannot wrap around, meaning combinations like
    # king-ace-2 are invalid
    game = play("italiano", 2, hands=["KS AS 2S QH KH AH 5C 9D JD 8C 4D"], upcard="TC")
    game.apply("draw")
    assert "meld QH KH AH" in legal(game)
    assert refused(game, "meld KS AS 2S").rule == "meld-shape"


def test_there_is_no_initial_meld_minimum() -> None:
    # RULINGS presets table: italiano initial meld minimum: none
    game = play(
        "italiano",
        4,
        hands=["3H 4H 5H 9C JD KH 4S 7C QD 8H 6D"],
        upcard="TC",
        stock="TS",
        actions=["draw", "meld 3H 4H 5H", "discard TS"],
    )
    assert game.requirement_left(0) == 0
    assert melds(game, 0) == ["3H 4H 5H"]


def test_wilds_do_not_move_in_italiano() -> None:
    # RULINGS 5: In us, a wild may also be moved inside its own meld (not in italiano)
    game = play(
        "italiano", 2, hands=["5S 6S 7S JK 9D JD KH 4C QD 8H 3C"], upcard="TC", actions=["draw"]
    )
    game.apply("meld 5S 6S 7S JK")
    assert refused(game, "move 1 low").rule == "wild-moves"


# ===== burraco bonuses ======================================================================


def test_clean_and_dirty_burraco() -> None:
    # 000 (second text) §Point Calculation: a clean buraco (no) awards 200 points to the
    # partnership, while a dirty buraco (including at least one wild card) awards 100 points
    clean = play(
        "italiano",
        2,
        hands=["3H 4H 5H 6H 7H 8H 9H JD KC 4C QS"],
        upcard="TC",
        stock="8S",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H 9H"],
    )
    assert clean.scores()[0].canastras == ("clean",)
    assert clean.scores()[0].bonuses == 200
    dirty = play(
        "italiano",
        2,
        hands=["7C 7D 7H 7S 7C 7D JK JD KC 4C QS"],
        upcard="TC",
        stock="8S",
        actions=["draw", "meld 7C 7C 7D 7D 7H 7S JK"],
    )
    assert dirty.scores()[0].canastras == ("dirty",)
    assert dirty.scores()[0].bonuses == 100


def test_semi_clean_option() -> None:
    # 000 §Scoring Variation: If a run has 7 clean cards in a row plus a deuce, it is worth 150
    # points, ... valid only for one of the eight Italian "Burraco Federations"
    # RULINGS presets table: italiano: clean 200, dirty 100 (option: semi-clean 150)
    hand = "3H 4H 5H 6H 7H 8H 9H 2C 4S 9D QS"
    base = play("italiano", 2, hands=[hand], upcard="TC", stock="KC", actions=["draw"])
    base.apply("meld 3H 4H 5H 6H 7H 8H 9H 2C")
    assert base.scores()[0].bonuses == 100
    semi = play(
        "italiano",
        2,
        hands=[hand],
        upcard="TC",
        stock="KC",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H 9H 2C"],
        semi_clean_bonus=150,
    )
    assert semi.scores()[0].canastras == ("semi-clean",)
    assert semi.scores()[0].bonuses == 150


# ===== pozzetti and closing ================================================================


def test_emptying_the_hand_by_melding_takes_the_pozzetto_at_once() -> None:
    # 000 (second text) §The Pot: A player may empty their hand by melding all cards and taking
    # the pozzetto immediately
    game = play(
        "italiano",
        2,
        hands=[SPADES],
        pots=[HEARTS],
        upcard="9C",
        stock="AS",
        actions=["draw", f"meld {SPADES} AS"],
    )
    assert game.pot_taken == [True, False]
    assert hand_text(game, 0) == sorted(HEARTS.split())
    assert game.to_move == 0


def test_emptying_the_hand_by_discarding_takes_the_pozzetto_for_the_next_turn() -> None:
    # 000 (second text) §The Pot: or by melding all but one, discarding it, and taking the
    # pozzetto after their partner's turn
    game = play(
        "italiano",
        4,
        hands=[SPADES],
        pots=[HEARTS],
        upcard="9C",
        stock="AS",
        actions=["draw", f"meld {SPADES}", "discard AS"],
    )
    assert game.pot_taken == [True, False]
    assert game.to_move == 1
    assert len(game.hand(0)) == 11


def second_turn(pot: str, draw: str, **kw: Any) -> Game:
    """Seat 0 melds 3S-AS, taking ``pot`` by melding, and discards its 4C; seat 1 draws and
    discards the 9D; seat 0 draws ``draw`` and is to play its second turn."""
    return play(
        "italiano",
        2,
        hands=[SPADES, JUNK],
        pots=[pot],
        upcard="9C",
        stock=f"AS 9D {draw}",
        actions=["draw", f"meld {SPADES} AS", "discard 4C", "draw", "discard 9D", "draw"],
        **kw,
    )


HEARTS_TO_QUEEN = "3H 4H 5H 6H 7H 8H 9H TH JH QH 4C"


def test_closing_needs_a_final_discard() -> None:
    # 000 (second text) §Going Out: To go out in Buraco, a player must first meld all cards from
    # their hand except one and then discard that final card
    # RULINGS presets table: italiano going out needs ... a final discard
    game = second_turn(HEARTS_TO_QUEEN, "KH")
    assert game.pot_taken == [True, False]
    assert f"meld {HEARTS}" not in legal(game)
    assert refused(game, f"meld {HEARTS}").rule == "never-stranded"
    game.apply("meld 3H 4H 5H 6H 7H 8H 9H TH JH QH")
    assert legal(game) == ["discard KH"]
    game.apply("discard KH")
    assert game.is_hand_over()
    assert game.ended_by == "going-out"


def test_closing_scores() -> None:
    # 000 (second text) §Point Calculation: the partnership that goes out ... receives a 100-point
    # bonus; a clean buraco (no) awards 200 points; unmelded cards in a player's hand are
    # deducted; RULINGS presets table: italiano morto never taken: -100
    game = out_in_two_turns()
    side0, side1 = game.scores()
    # 3S-AS 100 + 3H-QH 75; two clean burraco; closing
    assert (side0.melds, side0.bonuses, side0.going_out, side0.hand, side0.pot) == (
        175,
        400,
        100,
        0,
        0,
    )
    assert side0.total == 675
    assert (side1.hand, side1.pot, side1.going_out) == (-85, -100, 0)
    assert side1.total == -185


def test_the_final_discard_may_not_be_a_wild_card() -> None:
    # 000 (second text) §Going Out: The final discard cannot be a wild card in some variants
    # RULINGS presets table: italiano going out needs ... a final discard that is not a wild
    game = second_turn("3H 4H 5H 6H 7H 8H 9H TH JH 2C 4C", "QH")
    # melding the ten hearts would leave the 2C as the last card
    assert "meld 3H 4H 5H 6H 7H 8H 9H TH JH QH" not in legal(game)
    assert refused(game, "meld 3H 4H 5H 6H 7H 8H 9H TH JH QH").rule == "never-stranded"
    # the 2C may be played in the run, leaving a natural card to discard
    game.apply("meld 2C 3H 4H 5H 6H 7H 8H 9H TH JH")
    assert legal(game) == ["discard QH"]
    game.apply("discard QH")
    assert game.ended_by == "going-out"


def test_the_final_discard_may_not_be_a_joker() -> None:
    # RULINGS presets table: italiano going out needs ... a final discard that is not a wild
    game = second_turn("3H 4H 5H 6H 7H 8H 9H TH JH JK 4C", "QH")
    game.apply("meld 3H 4H 5H 6H 7H 8H 9H TH JH")
    # QH and JK are left: adding the QH would leave the joker as the closing discard
    assert "discard QH" in legal(game)
    assert "add 2 QH high" not in legal(game)
    assert refused(game, "add 2 QH high").rule == "never-stranded"
    # the joker may go on the spades instead, leaving the QH to close with
    game.apply("add 1 JK")
    game.apply("discard QH")
    assert game.ended_by == "going-out"


def test_a_stranding_add_is_refused_with_the_stranding_reason() -> None:
    # RULINGS 8: A player may not empty the hand unless that takes a morto or goes out legally.
    # The engine never offers such a move and rejects it with a reason
    game = second_turn("3H 4H 5H 6H 7H 8H 9H TH JH JK 4C", "QH")
    game.apply("meld 3H 4H 5H 6H 7H 8H 9H TH JH")
    # QH fits meld 2 only at its high end; adding it would leave the joker to discard
    assert refused(game, "add 2 QH").rule == "never-stranded"


def test_any_burraco_allows_closing() -> None:
    # 000 (second text) §Going Out: the team has formed at least one complete buraco
    # RULINGS presets table: italiano going out needs ... any burraco
    game = play(
        "italiano",
        2,
        hands=["3S 4S 5S 6S 7S 8S JK TS JS QS KS", JUNK],
        pots=["3H 4H 5H 6H 3C 4C 5C 3D 4D 5D 9D"],
        upcard="9C",
        stock="AS 9S 9C",
        actions=[
            "draw",
            "meld 3S 4S 5S 6S 7S 8S JK TS JS QS KS AS",
            "meld 3H 4H 5H 6H",
            "meld 3C 4C 5C",
            "discard 9D",
            "draw",
            "discard 9S",
            "draw",
            "meld 3D 4D 5D",
        ],
    )
    assert game.scores()[0].canastras == ("dirty",)
    assert legal(game) == ["discard 9C"]
    game.apply("discard 9C")
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    assert game.scores()[0].going_out == 100


def test_no_closing_without_a_burraco() -> None:
    # 000 (second text) §Going Out: the team has formed at least one complete buraco (a meld of
    # seven or more cards)
    game = play(
        "italiano",
        2,
        hands=["3S 4S 5S 6S 7S 3C 4C 5C 6C 8D 9D", JUNK],
        pots=["3H 4H 5H 6H 7H 8S 7C JD QD KD 4D"],
        upcard="TC",
        stock="TD",
        actions=[
            "draw",
            "meld 3S 4S 5S 6S 7S",
            "meld 3C 4C 5C 6C",
            "meld 8D 9D TD",
            "meld 3H 4H 5H 6H 7H",
            "add 1 8S",
            "add 2 7C",
        ],
    )
    assert game.pot_taken == [True, False]
    assert hand_text(game, 0) == ["4D", "JD", "KD", "QD"]
    assert game.scores()[0].canastras == ()
    # melding JD QD KD would leave 4D as the closing discard, but no meld has seven cards
    assert "meld JD QD KD" not in legal(game)
    assert refused(game, "meld JD QD KD").rule == "never-stranded"
    assert "discard 4D" in legal(game)


def test_partners_share_one_pozzetto_and_the_second_to_finish_closes() -> None:
    # 000 (second text) §The Pot: The pot is claimed when the first player from each
    # [partnership] empties their hand
    # 000 (second text) §Going Out: Any cards left in the partner's hand count as deadwood
    game = play(
        "italiano",
        4,
        hands=[SPADES, CLUBS, HEARTS, DIAMONDS],
        pots=[JUNK],
        upcard="2C",
        stock="AS 9S 9D 9C 8S 8D AH",
        actions=[
            "draw",
            f"meld {SPADES} AS",
            "discard 4C",
            "draw",
            "discard 9S",
            "draw",
            "discard 9D",
            "draw",
            "discard 9C",
            "draw",
            "discard 8S",
            "draw",
            "discard 8D",
            "draw",
            "meld 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        ],
    )
    assert game.to_move == 2
    assert legal(game) == ["discard AH"]
    game.apply("discard AH")
    assert game.is_hand_over()
    assert game.pot_taken == [True, False]
    side0, side1 = game.scores()
    # 3S-AS 100 + 3H-KH 85, two clean burraco, closing; seat 0 holds JUNK minus 4C
    assert (side0.melds, side0.bonuses, side0.going_out, side0.hand) == (185, 400, 100, -80)
    assert (side1.hand, side1.pot) == (-170, -100)


def test_a_pozzetto_taken_by_discarding_and_never_played_costs_100() -> None:
    # RULINGS 7: A morto taken indirectly and never played costs 100 instead of its card values
    game = play(
        "italiano",
        2,
        hands=[SPADES, DIAMONDS],
        # seat 1 empties its hand first and takes the first pozzetto
        pots=[HEARTS_TO_QUEEN, "2C JK AC AD KC QC 9H 8D 7D 3D 4H"],
        stock="9C AD AS KH",
        actions=[
            "draw",
            "discard 9C",
            "draw",
            f"meld {DIAMONDS} AD",
            "discard 4C",
            "draw",
            f"meld {SPADES}",
            "discard AS",
            "draw",
            "meld 3H 4H 5H 6H 7H 8H 9H TH JH QH",
            "discard KH",
        ],
    )
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    side0 = game.scores()[0]
    # the pozzetto's cards are worth 125; unplayed it costs 100
    assert side0.hand == -100
    assert side0.total == 85 + 200 - 100


# ===== end of the stock ====================================================================


def test_the_hand_ends_when_a_draw_leaves_two_cards_in_the_stock() -> None:
    # 000 (second text) §Drawing and Discarding: Play ends when a player draws the third-to-last
    # card of the draw pile; after that player's turn (including discard), no further drawing
    # or melding is allowed
    # RULINGS presets table: italiano: the hand ends when 2 cards are left in the stock
    game = play("italiano", 2, hands=["3H 4H 5H 9C JD KH 4S 7C QD 8H 6D"])
    while len(game.stock) > 3:
        draw_and_discard(game)
    assert game.to_move == 0
    game.apply("draw")
    assert len(game.stock) == 2
    assert not game.is_hand_over()
    assert game.view(0)["last_turn"]
    # that player completes the turn: melds and discards
    game.apply("meld 3H 4H 5H")
    game.apply("discard 9C")
    assert game.is_hand_over()
    assert game.ended_by == "stock"
    assert len(game.stock) == 2
    # the pozzetti never become stock
    assert [len(p) for p in game.pots] == [11, 11]
    for score in game.scores():
        assert score.going_out == 0
        assert score.pot == -100
    assert game.scores()[0].melds == 15


def test_taking_the_pile_near_the_end_does_not_end_the_hand() -> None:
    # 000 (second text) §Drawing and Discarding: Play ends when a player draws the third-to-last
    # card of the draw pile
    game = play("italiano", 2)
    while len(game.stock) > 3:
        draw_and_discard(game)
    game.apply("take-pile")
    game.apply(next(a for a in legal(game) if a.startswith("discard")))
    assert not game.is_hand_over()
    assert len(game.stock) == 3


# ===== three players =======================================================================


def test_three_players_have_no_partners_and_pozzetti_of_18_and_11() -> None:
    # 000 (second text) §Player Setup and Dealing: In three-player variants, two pozzetti are
    # formed: one of 11 cards and one of 18 cards
    # RULINGS 14: Three players (italiano). No partners
    game = Game("italiano", players=3, seed=2, match=False)
    assert game.k == 3
    assert [list(game.rules.seats_of(s)) for s in range(3)] == [[0], [1], [2]]
    assert sorted(len(p) for p in game.pots) == [11, 18]
    assert [len(game.hand(s)) for s in range(3)] == [11, 11, 11]
    assert len(game.stock) == 108 - 29 - 33 - 1
    assert len(game.scores()) == 3


# eleven cards without hearts that make no meld, worth 85 points
JUNK_NO_HEARTS = "4C 8C QC 3D 7D JD 6S TS KS 9D 5D"


def three_player_pozzetti() -> Game:
    """Seats 0 and 1 of a 3-player game each empty their hand by melding."""
    return play(
        "italiano",
        3,
        hands=[SPADES, HEARTS, DIAMONDS],
        pots=["3C 4C 5C 6C 7C 8C 9C TC JC QC KC 3H 4H 5H 6H 7H 8H 4D", JUNK_NO_HEARTS],
        upcard="2D",
        stock="AS AH AD 9C",
        actions=[
            "draw",
            f"meld {SPADES} AS",
            "discard 4D",
            "draw",
            f"meld {HEARTS} AH",
            "discard 4C",
            "draw",
        ],
    )


def test_the_first_to_empty_the_hand_takes_18_and_the_second_11() -> None:
    # 000 (second text) §Player Setup and Dealing: with the larger pozzetto taken by the first
    # player to meld all their initial cards and the smaller by the second
    # RULINGS 14: the first player to empty the hand takes the 18, the second the 11
    game = three_player_pozzetti()
    assert game.pot_taken == [True, True, False]
    assert game.pots == []
    # seat 0 took the 18 cards and discarded one; seat 1 took the 11 and discarded one
    assert len(game.hand(0)) == 17
    assert len(game.hand(1)) == 10
    assert "3C" in hand_text(game, 0)
    assert "4C" not in hand_text(game, 1)


def test_the_third_player_has_no_pozzetto_left() -> None:
    # RULINGS 14: two pozzetti of 11 and 18 cards; RULINGS 8: A player may not empty the hand
    # unless that takes a morto or goes out legally
    game = three_player_pozzetti()
    assert game.to_move == 2
    assert f"meld {DIAMONDS} AD" not in legal(game)
    assert f"meld {DIAMONDS}" not in legal(game)
    assert refused(game, f"meld {DIAMONDS}").rule == "never-stranded"
    game.apply("meld 3D 4D 5D 6D 7D 8D 9D TD JD QD")
    assert not game.is_hand_over()


def test_three_players_the_player_without_a_pozzetto_loses_100() -> None:
    # RULINGS presets table: italiano morto never taken: -100
    # RULINGS 14: Three players: no partners
    game = three_player_pozzetti()
    game.apply("discard AD")
    # seat 0 closes with the clubs and hearts of its pozzetto
    game.apply("draw")
    game.apply(f"meld {CLUBS}")
    game.apply("meld 3H 4H 5H 6H 7H 8H")
    game.apply("discard 9C")
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    scores = game.scores()
    assert [s.pot for s in scores] == [0, 0, -100]
    assert [s.going_out for s in scores] == [100, 0, 0]
    # seat 1 holds its pozzetto (JUNK) minus 4C; seat 2 the diamonds
    assert [s.hand for s in scores] == [0, -80, -85]


# ===== match ==========================================================================


@pytest.mark.parametrize(("start", "winner"), [(1330, 0), (1329, None)])
def test_the_match_is_won_at_2005(start: int, winner: int | None) -> None:
    # RULINGS presets table: italiano match target: 2005
    game = out_in_two_turns(match=True, scores=[start, 0])
    # the hand scores 675: 2005 wins, 2004 does not
    assert game.totals == [start + 675, -185]
    assert game.winner == winner


# ===== readings of the Italian overview (000, second text) ================================


def test_no_going_out_in_a_players_first_turn() -> None:
    # 000 (second text) §Drawing and Discarding: A "rummy" play—going out entirely on the first
    # turn—is not permitted. Seat 0 takes its pozzetto by melding 3S-AS; melding 3H-QH from it
    # would leave KH, whose discard would close in that first turn.
    hearts_to_queen = "meld 3H 4H 5H 6H 7H 8H 9H TH JH QH"
    kw: dict[str, Any] = {
        "hands": [SPADES, JUNK],
        "pots": ["3H 4H 5H 6H 7H 8H 9H TH JH QH KH"],
        "upcard": "9C",
        "stock": "AS",
        "actions": ["draw", f"meld {SPADES} AS"],
    }
    game = play("italiano", 2, **kw)
    assert hearts_to_queen not in legal(game)
    error = refused(game, hearts_to_queen)
    assert error.rule == "never-stranded" and "first turn" in str(error)
    # the same closing is allowed with the option on, and in the player's second turn
    free = play("italiano", 2, go_out_first_turn=True, **kw)
    free.apply(hearts_to_queen)
    free.apply("discard KH")
    assert free.ended_by == "going-out"
    assert out_in_two_turns().ended_by == "going-out"


def test_an_ace_is_low_or_high_in_a_run_but_not_both() -> None:
    # 000 (second text) §Terminology: aces may function as high or low but not both in the same
    # run; §Cards and Decks: only one ace may appear per sequence
    game = play(
        "italiano",
        2,
        hands=["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS", JUNK],
        pots=["KS AS AH AD 4C 8C QC 3D 7D JD 5H"],
        upcard="9C",
        stock="QS",
        actions=["draw", "meld AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS", "add 1 KS high"],
    )
    assert melds(game, 0) == ["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"]
    assert not any(a.startswith("add 1 AS") for a in legal(game))
    assert refused(game, "add 1 AS high").rule == "add-fit"
    # with the option on, the ace-to-ace run of 14 is allowed
    both = play(
        "italiano",
        2,
        hands=["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS", JUNK],
        pots=["KS AS AH AD 4C 8C QC 3D 7D JD 5H"],
        upcard="9C",
        stock="QS",
        actions=["draw", "meld AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS", "add 1 KS high"],
        ace_to_ace=True,
    )
    assert "add 1 AS high" in legal(both)


def test_one_set_per_rank_for_a_side() -> None:
    # 000 (second text) §Terminology: a set ... with only one set allowed per rank per partnership
    game = play(
        "italiano",
        2,
        hands=["KS KH KD KC KS KH 4C 8C QC 3D 7D"],
        upcard="9C",
        actions=["draw", "meld KD KH KS"],
    )
    assert not any(a.startswith("meld K") for a in legal(game))
    assert "add 1 KC" in legal(game)
    assert refused(game, "meld KC KH KS").rule == "one-set-per-rank"


def test_once_the_taken_card_is_melded_another_copy_may_be_discarded() -> None:
    # 000 (second text) §Turn Structure: it is illegal to pick up the top card from the discard
    # pile and discard the same card in the same turn; two copies are interchangeable, so once
    # one 7H has been melded the taken card is accounted for
    game = play("italiano", 2, hands=["7H 8H 9H KC KC 4D 7D 9S 3S 6C JC"], upcard="7H")
    game.apply("take-pile")
    assert "discard 7H" in legal(game)  # two copies held: one may go
    game.apply("meld 7H 8H 9H")
    assert "discard 7H" in legal(game)
    game.apply("discard 7H")
    assert game.to_move == 1
