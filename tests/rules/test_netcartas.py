"""Rule tests for the ``netcartas`` preset: Buraco for 2 or 4 players with 104 cards.

Source: 004 (an online card site's rules), and ``RULINGS.md``.
"""

from __future__ import annotations

import pytest

from buraco import Game, RulesError, card_name, make_rules
from scenario import (
    DIAMONDS,
    HEARTS,
    JUNK,
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
)

# ===== the game =========================================================================


@pytest.mark.parametrize("players", [2, 4])
def test_104_cards_eleven_each_and_a_pot_of_eleven_per_side(players: int) -> None:
    # 004 §THE GAME: it use 2 decks with 52 cards, so in total it has 104 cards. Start of game:
    # each player will get 11 cards
    # 004 §Pot: Are 2 Pot in the game (11 cards in each)
    game = Game("netcartas", players=players, seed=5, match=False)
    assert [len(game.hand(s)) for s in range(players)] == [11] * players
    assert [len(p) for p in game.pots] == [11, 11]
    assert len(game.stock) == 104 - 22 - 11 * players
    everything = [c for s in range(players) for c in game.hand(s)]
    everything += [c for p in game.pots for c in p] + list(game.stock)
    assert len(everything) == 104
    assert "JK" not in {card_name(c) for c in everything}


def test_there_are_no_jokers_in_the_pack() -> None:
    # 004 §THE GAME: 2 decks with 52 cards, so in total it has 104 cards
    with pytest.raises(RulesError):
        play("netcartas", 2, hands=["JK"])


@pytest.mark.parametrize("players", [3, 6])
def test_two_or_four_players(players: int) -> None:
    # 004 §THE GAME: Number of players: 2 or 4 players (4 as partnership and 2 as pair)
    with pytest.raises(RulesError):
        make_rules("netcartas", players=players)


def test_four_players_play_in_partnerships_sharing_the_table() -> None:
    # 004 §Players and position: In 4 people's games each one, from each pair has his own cards
    # but the game on the table are shared with his partner
    game = play(
        "netcartas",
        4,
        hands=["3S 4S 5S 9C JD 2D KH 4H 7C QD 8H", "", "6S 7D AC TD 3C 5H 9S KC 8D QH 4D"],
        stock="JH 7H 5D",
        actions=["draw", "meld 3S 4S 5S", "discard JH", "draw", "discard 7H", "draw"],
    )
    assert game.to_move == 2
    game.apply("add 1 6S")
    assert melds(game, 0) == ["3S 4S 5S 6S"]
    assert melds(game, 1) == []
    game.apply("discard 5D")
    # seat 3 (the other pair) may not play on it
    game.apply("draw")
    assert not any(a.startswith("add") for a in legal(game))


# ===== card values ======================================================================


def test_card_values() -> None:
    # 004 §Point's Table: ACEs - 15 points. Jokers - 10 points. From 8 to King - 10 points.
    # From 3 to 7 - 5 points
    # 004 §"Buraco" Expressions: Joker - it are the cards represented by number 2
    game = play(
        "netcartas",
        2,
        hands=["AH 2H 3H 7C 8C 9C 2D KS KD 4S 6D"],
        stock="QH",
        actions=["draw", "meld AH 2H 3H", "meld 7C 8C 9C 2D"],
    )
    # AH 2H 3H = 15 + 10 + 5; 7C 8C 9C 2D = 5 + 10 + 10 + 10
    assert game.scores()[0].melds == 30 + 35
    # KS KD 4S 6D QH remain: 10 + 10 + 5 + 5 + 10
    assert game.scores()[0].hand == -40


def test_cards_left_in_hand_count_against_the_side() -> None:
    # 004 §Penalty for cards in hands: For each card that still in the player's hands after the
    # game is finished ... all cards will be counted and subtracted all points from the score
    game = play(
        "netcartas",
        2,
        hands=[SPADES, "2C 2D AD AC 3D 7D 8D 9H KC QC 4H"],
        pots=[HEARTS],
        stock="AS",
        actions=["draw", f"meld {SPADES} AS", f"meld {HEARTS}"],
    )
    assert game.is_hand_over()
    # 2C 10 + 2D 10 + AD 15 + AC 15 + 3D 5 + 7D 5 + 8D 10 + 9H 10 + KC 10 + QC 10 + 4H 5 = 105
    assert game.scores()[1].hand == -105


# ===== melds ============================================================================


def test_a_sequence_of_three_or_more_cards_of_a_suit() -> None:
    # 004 §Game on the table: When the player get 3 or more cards ... to be a valid game the
    # cards have to in the same suit and be in a sequence
    game = play("netcartas", 2, hands=["3H 4H 6H 7H 4C 9S KD 5D JC QS 8D"], stock="AS")
    game.apply("draw")
    assert refused(game, "meld 3H 4H 6H").rule == "meld-shape"
    assert refused(game, "meld 3H 4H 4C").rule == "meld-shape"
    assert refused(game, "meld 3H 4H").rule == "meld-shape"


@pytest.mark.parametrize("rank", ["4", "7", "9", "Q", "A"])
def test_cigar_sets_of_any_rank(rank: str) -> None:
    # 004 §Game on the table: or if the cards has the same value, as "cigar" (e.g. 4.4.4)
    # 004 §Cigar game: It is when you put 3 or more similar cards (using or not the joker)
    cards = f"{rank}C {rank}D {rank}H"
    game = play("netcartas", 2, hands=[f"{cards} 3S 6S JS 5H TH 8D KC 3C"], stock="2S")
    game.apply("draw")
    assert f"meld {cards}" in legal(game)
    assert f"meld {rank}C {rank}D 2S" in legal(game)
    game.apply(f"meld {cards}")
    assert melds(game, 0) == [cards]
    # no minimum for the first meld: it stays after the discard
    game.apply("discard 2S")
    assert melds(game, 0) == [cards]


def test_a_cigar_with_a_two_is_dirty() -> None:
    # 004 §Cigar game: 3 or more similar cards (using or not the joker)
    game = play(
        "netcartas", 2, hands=["9C 9D 2S 3S 6S JS 5H TH 8D KC 3C"], stock="QH", actions=["draw"]
    )
    game.apply("meld 9C 9D 2S")
    assert melds(game, 0) == ["9C 9D 2S"]
    assert not game.melds[0][0].clean


def test_there_is_no_initial_meld_minimum() -> None:
    # RULINGS presets table: netcartas initial meld minimum: none
    # 004 §How to play: The first play must buy a card from the mount and if his want he can
    # make some games
    game = play(
        "netcartas",
        2,
        hands=["3H 4H 5H 9C JD KH 4S 7C QD 8H 6D"],
        stock="TS",
        actions=["draw", "meld 3H 4H 5H", "discard TS"],
    )
    assert game.requirement_left(0) == 0
    assert melds(game, 0) == ["3H 4H 5H"]
    assert game.scores()[0].melds == 15


# ===== the 2s ===========================================================================


def test_a_two_replaces_any_card() -> None:
    # 004 §"Buraco" Expressions: All cards with number 2 are a joker and it can be used to
    # replace any others card in the game
    game = play(
        "netcartas", 2, hands=["3H 5H 7S 9S 2C JD KH 4C QD 8D 6C"], stock="TH", actions=["draw"]
    )
    assert "meld 3H 2C 5H" in legal(game)
    assert "meld 7S 2C 9S" in legal(game)
    game.apply("meld 3H 2C 5H")
    assert not game.melds[0][0].clean
    # the 2C stands for the 4H
    assert game.melds[0][0].wpos == 3


@pytest.mark.parametrize("run", ["AH 2H 3H", "AH 2H 3H 4H", "2H 3H 4H"])
def test_a_two_between_ace_and_three_is_not_a_joker(run: str) -> None:
    # 004 §"Buraco" Expressions: If the joker has been locate between an ACE and 3 it will not be
    # take as a joker
    # RULINGS 4: A 2 of the run's suit in the 2-slot (between A and 3) is natural
    game = play("netcartas", 2, hands=[f"{run} 9C JD KS 6C QD 8S"], stock="TD", actions=["draw"])
    game.apply(f"meld {run}")
    assert game.melds[0][0].clean


def test_a_meld_holds_one_joker_at_most() -> None:
    # 004 §Dirty "Canastra": one or more jokers; RULINGS 4: 004's "one or more jokers" is read
    # as the same one-wild limit; A set contains at least two natural cards
    game = play("netcartas", 2, hands=["3H 2C 5H 2D 7H 9S 9D KC 4C QD 8S"], stock="TD")
    game.apply("draw")
    assert refused(game, "meld 3H 2C 5H 2D 7H").rule == "meld-shape"
    assert refused(game, "meld 9S 2C 2D").rule == "meld-shape"
    game.apply("meld 3H 2C 5H")
    assert refused(game, "add 1 2D").rule == "one-wild"


def test_wilds_do_not_move_in_netcartas() -> None:
    # RULINGS 5: In us, a wild may also be moved inside its own meld (not in netcartas)
    game = play(
        "netcartas", 2, hands=["5S 6S 7S 2C 9D JD KH 4C QD 8H 3C"], stock="TD", actions=["draw"]
    )
    game.apply("meld 5S 6S 7S 2C")
    assert not any(a.startswith("move") for a in legal(game))
    assert refused(game, "move 1 low").rule == "wild-moves"


# ===== turns and the discard pile ============================================================


def test_the_first_player_simply_draws() -> None:
    # 004 §How to play: The first play must buy a card from the mount ... When satisfied he must
    # choose a card to discard on the garbage
    # RULINGS presets table: netcartas discard pile starts empty; no first-turn choice (brief)
    game = play("netcartas", 4, hands=[JUNK], stock="QS 9C")
    assert game.pile == []
    assert legal(game) == ["draw"]
    game.apply("draw")
    assert "QS" in hand_text(game, 0)
    assert "turn-up" not in legal(game)
    assert refused(game, "turn-up").rule == "first-turn"
    assert refused(game, "draw").rule == "phase"
    game.apply("discard QS")
    assert game.to_move == 1


def test_taking_the_garbage_takes_all_of_it_and_no_stock_card() -> None:
    # 004 §How to play: In case of the player get the cards from garbage he must all cards from
    # there
    # 004 §Buy from mount: if the player get all discarded cards from the cards' garbage, the
    # cannot buy a card from the mount
    game = play(
        "netcartas",
        2,
        hands=[JUNK, "3C 5C 7C 9C JC KC 4D 6D 8D TD QD"],
        stock="AS 2H KS",
        actions=["draw", "discard AS", "draw", "discard 2H", "draw", "discard KS"],
    )
    size = len(game.hand(1))
    # the top card (KS) fits nothing: the pile may still be taken
    assert legal(game) == ["draw", "take-pile"]
    game.apply("take-pile")
    assert game.pile == []
    assert len(game.hand(1)) == size + 3
    assert {"AS", "2H", "KS"} <= set(hand_text(game, 1))
    assert refused(game, "draw").rule == "phase"
    # 000 §Turn Structure, RULINGS 15: the card taken from the top may not be discarded this
    # turn (keep_taken_top, on in every preset); the rest of the pile may
    assert "discard KS" not in legal(game)
    assert refused(game, "discard KS").rule == "keep-taken-top"
    assert "discard AS" in legal(game)


def test_the_garbage_is_visible_to_everybody() -> None:
    # 004 §Garbage: it is all cards in the right side of the mount with face up, visible for
    # everybody on the table
    game = play("netcartas", 4, stock="AS 2H KS", actions=["draw", "discard AS", "draw"])
    game.apply("discard 2H")
    for seat in range(4):
        assert game.view(seat)["pile"] == ["AS", "2H"]


# ===== canastras ======================================================================


def test_clean_and_dirty_canastras() -> None:
    # 004 §Point's Table: Clean Canastra - 200 points. Dirty Canastra - 100 points
    # 004 §Clean "Canastra": 7 or more cards as sequence, with same suit and without any jokers
    # 004 §Dirty "Canastra": 7 or more cards as sequence, with same suit, but has one or more jokers
    clean = play(
        "netcartas",
        2,
        hands=["3H 4H 5H 6H 7H 8H 9H JD KC 4C QS"],
        stock="8S",
        actions=["draw", "meld 3H 4H 5H 6H 7H 8H"],
    )
    # six cards: no canastra yet
    assert clean.scores()[0].bonuses == 0
    clean.apply("add 1 9H")
    assert clean.scores()[0].canastras == ("clean",)
    assert clean.scores()[0].bonuses == 200
    dirty = play(
        "netcartas",
        2,
        hands=["3H 4H 5H 2C 7H 8H 9H JD KC 4C QS"],
        stock="8S",
        actions=["draw", "meld 3H 4H 5H 2C 7H 8H 9H"],
    )
    assert dirty.scores()[0].canastras == ("dirty",)
    assert dirty.scores()[0].bonuses == 100


def royal_game() -> Game:
    """Seat 0 melds AC-QC (12 cards, taking its pot) and holds KC and AC from the pot."""
    return play(
        "netcartas",
        2,
        hands=["AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC", JUNK],
        pots=["KC AC 3D 7S 9H JD 4S 8S QS 5D 6D"],
        stock="QC",
        actions=["draw", "meld AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"],
    )


def test_half_royal_canastra_is_worth_500() -> None:
    # 004 §Half Royalty "Canastra": all cards of some suit but just with one ACE, example:
    # AC,2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC; 004 §Point's Table: Half Royalty Canastra - 500
    game = royal_game()
    assert game.scores()[0].bonuses == 200
    game.apply("add 1 KC")
    assert melds(game, 0) == ["AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"]
    assert game.scores()[0].bonuses == 500
    assert game.scores()[0].canastras == ("clean-13",)


def test_royal_canastra_is_worth_1000() -> None:
    # 004 §Royalty "Canastra": all cards of some suit and more on ACE, example:
    # AC,2C,3C,...,QC,KC,AC; 004 §Point's Table: Royalty Canastra - 1000 points
    game = royal_game()
    game.apply("add 1 KC")
    game.apply("add 1 AC")
    assert melds(game, 0) == ["AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"]
    assert game.scores()[0].bonuses == 1000
    assert game.scores()[0].canastras == ("clean-14",)


def test_a_thirteen_card_run_with_a_joker_is_only_dirty() -> None:
    # 004 §Half Royalty "Canastra": all cards of some suit (a 2 standing in for a card is not
    # the card); 004 §Dirty "Canastra": has one or more jokers - 100 points
    game = play(
        "netcartas",
        2,
        hands=["AC 2C 3C 4C 5C 6C 7C 8C 9C 2D JC", JUNK],
        pots=["KC 3D 7S 9H JD 4S 8S QS 5D 6D AD"],
        stock="QC",
        actions=["draw", "meld AC 2C 3C 4C 5C 6C 7C 8C 9C 2D JC QC", "add 1 KC"],
    )
    assert game.melds[0][0].size == 13
    assert game.scores()[0].canastras == ("dirty",)
    assert game.scores()[0].bonuses == 100


# ===== the pot and beating ================================================================


def test_a_player_who_finishes_the_hand_gets_the_pot() -> None:
    # 004 §Pot: When the player finishes all they cards on the hand, he can get the pot. In 2
    # people's game, each player is entitled to get one pot
    game = play(
        "netcartas",
        2,
        hands=[SPADES],
        pots=[HEARTS],
        stock="AS",
        actions=["draw", f"meld {SPADES} AS"],
    )
    assert game.pot_taken == [True, False]
    assert hand_text(game, 0) == sorted(HEARTS.split())
    assert not game.is_hand_over()
    assert game.to_move == 0


def test_a_pot_taken_by_discarding_is_seen_at_once() -> None:
    # 004 §Pot: When the player finishes all they cards on the hand, he can get the pot
    # RULINGS 7: only in us the pot taken by discarding stays hidden
    game = play(
        "netcartas",
        4,
        hands=[SPADES],
        pots=[HEARTS],
        stock="AS",
        actions=["draw", f"meld {SPADES}", "discard AS"],
    )
    assert game.pot_taken == [True, False]
    assert game.view(0)["hidden_pot"] == 0
    assert sorted(game.view(0)["hand"]) == sorted(HEARTS.split())


def test_the_first_of_a_pair_to_finish_takes_the_pot_the_partner_then_beats() -> None:
    # 004 §Pot: in 4 people's games each pair are entitled to get one pot (the first player in
    # the pair who finishes all cards from his hand have to get the pair pot)
    # 004 §How to play: When one of the player who already bought the pot do not have more cards
    # in hands so he has beat
    game = pot_then_partner_out("netcartas")
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    assert game.pot_taken == [True, False]
    side0, side1 = game.scores()
    # 3S-AS 100 + 3H-AH 100, two clean canastras, beating 100; seat 0 holds the pot minus 4C
    assert (side0.melds, side0.bonuses, side0.going_out, side0.hand) == (200, 400, 100, -80)
    assert (side1.hand, side1.pot) == (-170, -100)


def test_direct_beat_without_a_discard() -> None:
    # 004 §Beating: If the player finishes without discard into the garbage, it is a direct beat
    # 004 §Score of beating: The player or pair who has beaten get 100 points
    game = out_in_one_turn("netcartas")
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    side0, side1 = game.scores()
    assert (side0.melds, side0.bonuses, side0.going_out, side0.hand, side0.pot) == (
        185,
        400,
        100,
        0,
        0,
    )
    assert side0.total == 685
    assert (side1.hand, side1.pot, side1.going_out) == (-85, -100, 0)


def test_indirect_beat_with_a_discard() -> None:
    # 004 §Beating: otherwise it will be an in indirect beat
    game = play(
        "netcartas",
        2,
        hands=[SPADES, JUNK],
        pots=["3H 4H 5H 6H 7H 8H 9H TH JH QH 5C"],
        stock="AS",
        actions=["draw", f"meld {SPADES} AS", "meld 3H 4H 5H 6H 7H 8H 9H TH JH QH"],
    )
    assert legal(game) == ["discard 5C"]
    game.apply("discard 5C")
    assert game.is_hand_over()
    assert game.ended_by == "going-out"
    side0 = game.scores()[0]
    assert (side0.melds, side0.bonuses, side0.going_out) == (175, 400, 100)


def test_beating_needs_a_clean_canastra() -> None:
    # 004 §Observations: To beat is necessary even have a clean "canastra", if the player does
    # not have one, he cannot beat until make one
    game = play(
        "netcartas",
        2,
        hands=["3S 4S 5S 6S 7S 8S 2C TS JS QS KS", JUNK],
        pots=["3H 4H 5H 6H 3C 4C 5C 6C 3D 4D 5D"],
        stock="AS",
        actions=[
            "draw",
            "meld 3S 4S 5S 6S 7S 8S 2C TS JS QS KS AS",
            "meld 3H 4H 5H 6H",
            "meld 3C 4C 5C 6C",
        ],
    )
    assert game.scores()[0].canastras == ("dirty",)
    assert "meld 3D 4D 5D" not in legal(game)
    assert refused(game, "meld 3D 4D 5D").rule == "never-stranded"
    assert legal(game) == ["discard 3D", "discard 4D", "discard 5D"]


def test_beating_needs_the_pot() -> None:
    # 004 §Beating: Is when the player (or your partner) already got the pot and the cards on
    # the hands of one player finished
    game = play(
        "netcartas",
        2,
        hands=[SPADES, JUNK],
        pots=[HEARTS],
        stock="AS",
        actions=["draw", f"meld {SPADES} AS"],
    )
    # the player emptied the hand with a clean canastra on the table, but had no pot yet:
    # that took the pot and did not end the hand
    assert not game.is_hand_over()
    assert game.scores()[0].going_out == 0


def test_a_side_that_did_not_get_the_pot_loses_100() -> None:
    # 004 §Penalty for not get the Pot: In case of the player or pair does not get the pot will
    # be reduced 100 points in his score
    game = out_in_one_turn("netcartas")
    assert game.scores()[1].pot == -100
    assert game.scores()[0].pot == 0


def test_a_pot_taken_but_not_used_costs_100() -> None:
    # 004 §Penalty for not get the Pot: also if the got the pot but have not use in any game on
    # the table 100 points will be reduced
    # 004 §Penalty for cards in hands: all cards will be counted and subtracted
    # RULINGS 16: -100 on top of the cards left in hand (unused_pot_penalty, unplayed_pot=cards)
    game = play(
        "netcartas",
        2,
        hands=[SPADES, DIAMONDS],
        pots=["2C 2D AC AD KC QC 9H 8D 7D 3D 4H", HEARTS],
        stock="AS AD",
        actions=[
            "draw",
            f"meld {SPADES}",
            "discard AS",
            "draw",
            f"meld {DIAMONDS} AD",
            f"meld {HEARTS}",
        ],
    )
    assert game.is_hand_over()
    side0, side1 = game.scores()
    # the pot taken by discarding is still in hand (105 in cards) and none of it was used
    assert side0.hand == -105
    assert side0.pot == -100
    assert side0.total == 85 + 200 - 105 - 100
    # side 1 took its pot by melding and melded the hearts from it
    assert side1.pot == 0


_POT = "3C 4C 5C 9H 8D 7D 3D 4H QC KC AC"  # 85 points; 3C-5C (15) make a meld


def test_a_pot_taken_by_melding_and_not_used_costs_100_too() -> None:
    # 004 §Penalty for not get the Pot: "if the got the pot but have not use in any game on the
    # table": however it was taken (RULINGS 16)
    game = pots_taken_by_melding("netcartas", _POT, ["discard 4H"])
    side0 = game.scores()[0]
    assert side0.hand == -(85 - 5)  # the pot less the 4H discarded
    assert side0.pot == -100


def test_a_pot_used_on_the_table_costs_nothing() -> None:
    # 004 §Penalty for not get the Pot: only a pot taken and not used is charged (RULINGS 16)
    game = pots_taken_by_melding("netcartas", _POT, ["meld 3C 4C 5C", "discard 4H"])
    side0 = game.scores()[0]
    assert side0.melds == 100 + 15  # 3S-AS and 3C-5C
    assert side0.hand == -(85 - 5 - 15)
    assert side0.pot == 0


def test_a_partner_using_the_pot_uses_it_for_the_side() -> None:
    # 004 §Players and position: the game on the table is shared with the partner; RULINGS 16
    # charges a side that put no card on the table after taking its pot
    game = pot_then_partner_out("netcartas")
    assert game.scores()[0].pot == 0


def test_the_other_presets_reading_is_an_option() -> None:
    # RULINGS 16: an option keeps ruling 7's reading (only a pot taken by discarding and never
    # played costs -100, instead of its cards)
    game = pots_taken_by_melding(
        "netcartas", _POT, ["discard 4H"], unused_pot_penalty=False, unplayed_pot="penalty"
    )
    side0 = game.scores()[0]
    assert side0.pot == 0
    assert side0.hand == -(85 - 5)


def test_charging_an_unused_pot_on_top_of_the_cards_needs_the_cards_counted() -> None:
    # RULINGS 16 charges -100 on top of the cards left in hand; unplayed_pot=penalty would
    # charge it instead of them: the two options contradict each other
    with pytest.raises(RulesError, match=r"unused_pot_penalty.*unplayed_pot"):
        make_rules("netcartas", unplayed_pot="penalty")
    assert make_rules("netcartas", unplayed_pot="penalty", unused_pot_penalty=False)


def test_the_hand_ends_as_soon_as_the_stock_runs_out() -> None:
    # 004 §Observations: If any player beat and the cards in the mount get over, the game will be
    # finished and the scores will be counted
    # RULINGS presets table: netcartas stock runs out: the hand ends
    game = play("netcartas", 2)
    while len(game.stock) > 1:
        draw_and_discard(game)
    seat = game.turn
    assert len(game.pots) == 2
    game.apply("draw")
    assert game.is_hand_over()
    assert game.ended_by == "stock"
    assert game.to_move is None
    # the pots did not become stock
    assert len(game.pots) == 2
    assert len(game.hand(seat)) == 12
    for score in game.scores():
        assert score.going_out == 0
        # 004 §Penalty for not get the Pot: -100 for each side that did not get its pot
        assert score.pot == -100


def test_stock_drawn_out_ends_the_hand_in_four_players_too() -> None:
    # 004 §Observations: If any player beat and the cards in the mount get over, the game will
    # be finished
    game = play("netcartas", 4)
    draws = 0
    while not game.is_hand_over():
        draw_and_discard(game)
        draws += 1
    assert draws == 104 - 44 - 22
    assert game.ended_by == "stock"


# ===== match ==========================================================================


@pytest.mark.parametrize(("start", "winner"), [(2315, 0), (2314, None)])
def test_the_first_side_to_reach_the_beating_score_wins(start: int, winner: int | None) -> None:
    # 004 §Game Target: The first player or pair who gets or passes this score win
    # RULINGS presets table: netcartas match target: set by the players (default 3000)
    game = out_in_one_turn("netcartas", match=True, scores=[start, 0])
    assert game.totals == [start + 685, -185]
    assert game.winner == winner


def test_the_beating_score_is_set_by_the_players() -> None:
    # 004 §Beating score: It is the score that the player have to get to finish the game
    game = out_in_one_turn("netcartas", match=True, target=500)
    assert game.totals == [685, -185]
    assert game.winner == 0


def test_a_game_by_rounds_is_won_by_the_biggest_score() -> None:
    # 004 §Game Target: If it is by round, the score will be counted in the end of round. In the
    # end of the game / round the winner will be who has the biggest score
    game = out_in_one_turn("netcartas", match=True, match_hands=1, scores=[0, 600])
    assert game.totals == [685, 415]
    assert game.winner == 0


def test_no_set_of_twos_since_every_two_is_a_joker() -> None:
    # 004 §"Buraco" Expressions: All cards with number 2 are a joker; §Cigar game: 3 or more
    # similar cards (using or not the joker) — three jokers are no set
    game = play(
        "netcartas", 2, hands=["2C 2D 2H 9S 9D KC 4C QD 8S 6H TH"], stock="5D", actions=["draw"]
    )
    assert not any(a == "meld 2C 2D 2H" for a in legal(game))
    assert "meld 9D 9S 2C" in legal(game)
    assert refused(game, "meld 2C 2D 2H").rule == "meld-shape"
