"""Rule tests for the ``fechado`` preset: Buraco Fechado as described in 001 §Buraco Fechado.

Fechado follows the main text of 001 (Buraco Aberto) except where §Buraco Fechado differs:
a closed discard pile that may be taken only to meld its top card at once, sets of equal
cards (also of twos), and going out with any canastra. Every test cites the sentence of the
rule source (``001 ...``) or the ruling (``RULINGS n``) it checks.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from buraco import (
    Game,
    NotationError,
    Phase,
    RulesError,
    card_name,
    deck_for,
    make_rules,
    replay,
)
from buraco.refusals import Refusal
from scenario import (
    draw_and_discard,
    finish_by_stock,
    legal,
    melds,
    names,
    play,
    points,
    refuse,
    refused,
)

# ----- helpers -----------------------------------------------------------------------


def pile_game(hand: str, top: str, players: int = 2, **options: Any) -> Game:
    """Seat 0 holds ``hand``, draws TC and discards it; the other seats draw and discard
    (the last of them discards ``top``). Seat 0 is to move with ``top`` on the pile."""
    if players == 2:
        return play(
            "fechado",
            hands=[hand, top],
            stock="TC 4H",
            actions=["draw", "discard TC", "draw", f"discard {top}"],
            **options,
        )
    return play(
        "fechado",
        4,
        hands=[hand, "", "", top],
        stock="TC 5D 8D 4H",
        actions=[
            *("draw", "discard TC", "draw", "discard 5D", "draw", "discard 8D"),
            *("draw", f"discard {top}"),
        ],
        **options,
    )


# Cards that make no meld together, even with a wild card (distinct ranks; cards of a suit at
# least three ranks apart, the ace counted at both ends).
QUIET7 = "4C 7C TC 3D 6D 9D QD"

# Seat 0 goes out on the first turn with sets only: a dirty canastra of nines is enough.
OUT_HAND = "9C 9C 9D 9D 9H 9S JK 5D 5H 5S 5C"
OUT_POT = "KC KD KH KS QC QD QH 3C 3D 3H 7S"
OUT_ACTIONS = [
    "draw",
    "meld 9C 9C 9D 9D 9H 9S JK",
    "meld 5C 5C 5D 5H 5S",
    "meld KC KD KH KS",
    "meld QC QD QH",
    "meld 3C 3D 3H",
    "discard 7S",
]
# melds 80 + 25 + 40 + 30 + 15; a dirty canastra; going out
OUT_SCORE = 190 + 100 + 100


def go_out(players: int = 2, others: Sequence[str] = (), **kw: Any) -> Game:
    hands = [OUT_HAND, *others]
    return play(
        "fechado", players, hands=hands, pots=[OUT_POT], stock="5C", actions=OUT_ACTIONS, **kw
    )


# ----- deck, deal and card values ----------------------------------------------------


@pytest.mark.parametrize(("players", "stock"), [(2, 64), (4, 42)])
def test_deal_uses_108_cards_11_each_two_mortos_and_the_rest_as_stock(
    players: int, stock: int
) -> None:
    # 001 §Players and Cards: a 108-card pack with four jokers; two 11-card mortos; 11 to each
    # player; the remaining 42 cards form the draw pile (2 players: 64); the game begins with
    # the discard pile empty. §Buraco Fechado changes none of this.
    for seed in (4, 5):
        g = Game("fechado", players=players, seed=seed)
        assert [len(g.hand(s)) for s in range(players)] == [11] * players
        assert [len(p) for p in g.pots] == [11, 11]
        assert len(g.stock) == stock
        assert g.pile == []
        everything = [c for s in range(players) for c in g.hand(s)]
        everything += [c for p in g.pots for c in p] + list(g.stock)
        counts = Counter(card_name(c) for c in everything)
        assert len(everything) == 108
        assert counts["JK"] == 4
        assert set(counts.values()) == {2, 4}


def test_other_player_counts_are_refused() -> None:
    # RULINGS table: fechado is played by 2 or 4 players
    with pytest.raises(RulesError):
        make_rules("fechado", players=3)


@pytest.mark.parametrize(
    "cards",
    [
        "JK 2C AC KC QC JC TC 8C 8D 7C 3C",
        "3D 4D 5D 6D 7D 3S 4S 5S 6S 7S 2D",
        "JK JK AD AS KS QS JD TD 9S 8S 2S",
    ],
)
def test_card_values_are_charged_for_cards_left_in_hand(cards: str) -> None:
    # 001 §Players and Cards: joker 20, two 10, ace 15, K-8 10, 7-3 5; scoring: cards in
    # players' hands minus card value
    g = go_out(others=[cards])
    assert g.is_hand_over()
    assert g.scores()[1].hand == -points(cards)


def test_card_values_are_counted_for_melded_cards() -> None:
    # 001 scoring: cards in melds on the table plus card value
    g = play(
        "fechado",
        hands=["AC AD AS 2C 2D 2H JK 8S 8H 3C 3D"],
        stock="3H",
        actions=["draw", "meld AC AD AS", "meld 2C 2D 2H", "meld 8H 8S JK", "meld 3C 3D 3H"],
    )
    assert [m.value for m in g.melds[0]] == [45, 30, 40, 15]
    assert g.scores()[0].melds == 130


# ----- the first turn and the closed pile ---------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_first_player_keeps_or_turns_up_the_first_card(players: int) -> None:
    # 001: the first player takes the top card of the draw pile, looks at it and decides
    # whether or not to keep it (RULINGS 3: keeps it, or turns it up as the first discard and
    # draws the next stock card)
    g = play("fechado", players, hands=[QUIET7 + " 5H 8H JH KS"], stock="9C 5S")
    assert g.to_move == 0
    g.apply("draw")
    assert "turn-up" in legal(g)
    keep = g.clone()
    keep.apply("discard QD")
    assert "9C" in names(keep, 0)
    assert not any("9C" in line for line in keep.view(1)["log"])
    g.apply("turn-up")
    assert "5S" in names(g, 0)
    assert "9C" not in names(g, 0)
    assert g.view(1)["pile"] == ["9C"]
    refuse(g, "turn-up", "first-turn")
    g.apply("discard QD")
    # 001 §Buraco Fechado: only the top card is visible
    assert g.view(1)["pile"] == ["QD"]
    assert g.view(1)["pile_size"] == 2


@pytest.mark.parametrize("players", [2, 4])
def test_the_closed_pile_shows_only_its_top_card(players: int) -> None:
    # 001 §Buraco Fechado: the cards of the discard pile are stacked so that only the top card
    # is visible
    g = play("fechado", players)
    discards = [draw_and_discard(g) for _ in range(3)]
    for s in range(players):
        view = g.view(s)
        assert view["pile_open"] is False
        assert view["pile"] == discards[-1:]
        assert view["pile_size"] == 3
    assert list(map(card_name, g.pile)) == discards


def test_a_taken_closed_pile_is_not_shown_to_the_other_players() -> None:
    # 001 §Buraco Fechado: only the top card is visible - taking the pile shows the others its
    # size and top card, not the buried cards
    g = pile_game(QUIET7 + " 5S 8S JH QH", "TH")
    g.apply("take-pile")
    mine = [line for line in g.view(0)["log"] if "take-pile" in line]
    theirs = [line for line in g.view(1)["log"] if "take-pile" in line]
    assert mine and "TC" in mine[0]
    assert theirs and "TC" not in theirs[0] and "TH" in theirs[0]


# ----- taking the pile -----------------------------------------------------------------


def test_the_pile_is_taken_to_meld_its_top_card_at_once() -> None:
    # 001 §Buraco Fechado: the discard pile can only be taken if its top card is immediately
    # used in a meld (reading: the turn goes on in TOP_MELD, where only plays with the top card
    # are legal)
    g = pile_game("JH QH 5C 5D 5S AC 8C 3D 9D KS 7S", "TH")
    assert "take-pile" in legal(g)
    g.apply("take-pile")
    assert g.pile == []
    assert {"TC", "TH"} <= set(names(g, 0))
    assert g.phase == Phase.TOP_MELD
    assert g.view(0)["taken_top"] == "TH"
    assert legal(g) == ["meld TH JH QH"]
    refuse(g, "meld 5C 5D 5S", "pile-top")
    refuse(g, "discard KS", "pile-top")
    refuse(g, "draw")
    g.apply("meld TH JH QH")
    assert g.view(0)["phase"] == "play"
    assert "meld 5C 5D 5S" in legal(g)
    assert "discard KS" in legal(g)


def test_the_top_card_may_be_melded_with_other_cards_from_the_pile() -> None:
    # 001 §Buraco Fechado: this meld can include other cards from the pile
    g = pile_game("4C 7C 3D 6D 9D QD 5S 8S AH JC KS", "QC")
    # the TC seat 0 discarded is buried in the pile; the hand alone has only the JC
    assert "TC" not in names(g, 0)
    assert "take-pile" in legal(g)
    g.apply("take-pile")
    assert legal(g) == ["meld TC JC QC"]
    g.apply("meld TC JC QC")
    assert melds(g, 0) == ["TC JC QC"]


def test_the_top_card_may_be_added_to_an_own_meld() -> None:
    # 001 §Buraco Fechado: the top card is immediately used in a meld (RULINGS table: new meld,
    # or added to an own meld)
    g = play(
        "fechado",
        hands=["3H 4H 5H AC 7C TC 3D 9D QD 8S JS", "6H"],
        stock="KH 4S",
        actions=["draw", "meld 3H 4H 5H", "discard KH", "draw", "discard 6H"],
    )
    assert "take-pile" in legal(g)
    g.apply("take-pile")
    assert legal(g) == ["add 1 6H high"]
    g.apply("add 1 6H")
    assert melds(g, 0) == ["3H 4H 5H 6H"]
    assert g.phase == Phase.PLAY


@pytest.mark.parametrize("players", [2, 4])
def test_the_kept_top_card_rule_never_binds_because_the_top_is_melded_at_once(
    players: int,
) -> None:
    # 001 §Buraco Fechado: the top card is immediately used in a meld, so 000 §Turn Structure's
    # "discard the same card in the same turn" (RULINGS 15, keep_taken_top, on everywhere)
    # never arises: with the option on or off, every position offers the same actions
    for seed in range(200):
        # vulnerable sides (75 to open) take the pile owing their opening half of the time
        totals = [1500, 1500] if seed % 2 else [0, 0]
        on = Game("fechado", players=players, seed=seed, match=False, scores=totals)
        off = Game(
            "fechado",
            players=players,
            seed=seed,
            match=False,
            scores=totals,
            keep_taken_top=False,
        )
        rng = random.Random(seed)
        while not on.is_hand_over():
            assert on.legal_actions() == off.legal_actions()
            takes = [a for a in on.legal_actions() if str(a) == "take-pile"]
            action = takes[0] if takes and rng.random() < 0.7 else rng.choice(on.legal_actions())
            on.apply(action)
            off.apply(action)
        assert off.is_hand_over()


@pytest.mark.parametrize("players", [2, 4])
def test_the_pile_cannot_be_taken_when_its_top_card_cannot_be_melded(players: int) -> None:
    # 001 §Buraco Fechado: the discard pile can only be taken if its top card is immediately
    # used in a meld
    g = pile_game(QUIET7 + " 5S 8S JH QH", "9H", players)
    assert g.to_move == 0
    assert legal(g) == ["draw"]
    message = refuse(g, "take-pile", "pile-top")
    assert "9H" in message
    # the same refusal as data, for a front end to word in its language
    assert refused(g, "take-pile").refusal == Refusal("pile-top.unmeldable", {"top": "9H"})


@pytest.mark.parametrize("top", ["JK", "2C"])
def test_a_wild_top_card_may_start_a_new_meld(top: str) -> None:
    # 001 §Buraco Fechado: if the top card of the discard pile is a wild card (two or joker),
    # the pile can only be taken if the wild card is used as part of a new meld
    g = pile_game(QUIET7 + " 5S 8S JH QH", top)
    g.apply("take-pile")
    plays = legal(g)
    assert plays and all(a.startswith("meld") and top in a.split() for a in plays)
    g.apply(f"meld JH QH {top}")
    assert melds(g, 0) == [f"JH QH {top}"]
    assert not g.melds[0][0].clean


@pytest.mark.parametrize("top", ["JK", "2C"])
def test_a_wild_top_card_may_not_be_added_to_an_existing_meld(top: str) -> None:
    # 001 §Buraco Fechado: if the top card is a wild card, the pile can only be taken if the
    # wild card is used as part of a new meld (adding it to meld 1 is not enough)
    g = play(
        "fechado",
        hands=["3H 4H 5H AC 7C TC 3D 6D 9D QD 8S", top],
        stock="KH 4S",
        actions=["draw", "meld 3H 4H 5H", "discard KH", "draw", f"discard {top}"],
    )
    assert legal(g) == ["draw"]
    assert "new meld" in refuse(g, "take-pile", "pile-top")


def test_the_top_card_meld_may_use_a_wild_card_from_the_pile() -> None:
    # 001 §Buraco Fechado: this meld can include other cards from the pile (here a joker the
    # player discarded earlier)
    g = play(
        "fechado",
        hands=[QUIET7 + " 5S 8S JH JK", "QH"],
        stock="KS 4H",
        actions=["draw", "discard JK", "draw", "discard QH"],
    )
    assert "JK" not in names(g, 0)
    assert "take-pile" in legal(g)
    g.apply("take-pile")
    plays = legal(g)
    assert {"meld JK JH QH", "meld JH QH JK"} <= set(plays)
    assert all("QH" in a.split() and "JK" in a.split() for a in plays)
    g.apply("meld JH QH JK")
    assert melds(g, 0) == ["JH QH JK"]


# ----- the initial meld when vulnerable (fechado) --------------------------------------


def test_pile_cards_count_toward_the_75_of_a_vulnerable_side() -> None:
    # 001 §Buraco Fechado: if the team is vulnerable, meldable cards from the pile can be used
    # towards the 75 points to justify its first meld
    g = play(
        "fechado",
        hands=["AC AS AS AD " + QUIET7, "AH"],
        stock="KH 4H",
        scores=[1500, 0],
        actions=["draw", "discard AD", "draw", "discard AH"],
    )
    assert g.view(0)["requirement"] == [75, 0]
    assert "take-pile" in legal(g)
    g.apply("take-pile")
    assert legal(g) == ["meld AC AD AH AS AS"]  # 75 with the AD from the pile
    g.apply("meld AC AD AH AS AS")
    assert g.view(0)["requirement"] == [0, 0]
    g.apply("discard KH")
    assert melds(g, 0) == ["AC AD AH AS AS"]


def test_a_vulnerable_side_cannot_take_the_pile_for_a_meld_short_of_75() -> None:
    # 001: the first meld(s) put down by a vulnerable team must have a card value of at least 75
    g = play(
        "fechado",
        hands=["AC AS AS 8H " + QUIET7, "AH"],
        stock="KH 4H",
        scores=[1500, 0],
        actions=["draw", "discard KH", "draw", "discard AH"],
    )
    assert legal(g) == ["draw"]
    assert "75" in refuse(g, "take-pile", "pile-top")


def test_other_melds_of_the_turn_count_toward_75_with_the_top_card_meld() -> None:
    # 001 §Buraco Fechado: if the team is vulnerable, meldable cards from the pile can be used
    # towards the 75 points; RULINGS table: pile cards melded that turn count. The aces with
    # the top card (45) and the kings from the hand (30) make 75 together.
    hand = "AC AS KC KD KH 4C 7C 3D 6D 9D QD"
    g = play(
        "fechado",
        hands=[hand, "AH"],
        stock="TC 4H",
        scores=[1500, 0],
        actions=["draw", "discard TC", "draw", "discard AH"],
    )
    assert legal(g) == ["draw", "take-pile"]
    g.apply("take-pile")
    assert legal(g) == ["meld AC AH AS"]
    g.apply("meld AC AH AS")
    # the pile cannot be given back: the rest of the 75 must be melded before the discard
    assert "30 more points" in refuse(g, "discard 4C", "initial-meld")
    assert refused(g, "discard 4C").refusal == Refusal("initial-meld.before-discard", {"need": 30})
    assert legal(g) == ["meld KC KD KH"]
    g.apply("meld KC KD KH")
    assert g.view(0)["requirement"] == [0, 0]
    g.apply("discard 4C")
    assert melds(g, 0) == ["AC AH AS", "KC KD KH"]


def test_the_pile_cannot_be_taken_when_75_is_out_of_reach_this_turn() -> None:
    # 001 §Buraco Fechado with the first meld(s) of a vulnerable team worth at least 75: the
    # aces with the top card (45) and nothing else to meld make only 45
    hand = "AC AS KC KD 4H 4C 7C 3D 6D 9D QD"
    g = play(
        "fechado",
        hands=[hand, "AH"],
        stock="TC 4S",
        scores=[1500, 0],
        actions=["draw", "discard TC", "draw", "discard AH"],
    )
    assert legal(g) == ["draw"]
    assert "75" in refuse(g, "take-pile", "pile-top")
    assert refused(g, "take-pile").refusal == Refusal(
        "pile-top.unmeldable-initial", {"top": "AH", "need": 75}
    )
    # not vulnerable: no minimum, the same pile may be taken
    free = play(
        "fechado",
        hands=[hand, "AH"],
        stock="TC 4S",
        actions=["draw", "discard TC", "draw", "discard AH"],
    )
    free.apply("take-pile")
    assert legal(free) == ["meld AC AH AS"]


def test_once_open_a_vulnerable_side_takes_the_pile_to_add_its_top_card() -> None:
    # 001: only the first meld(s) must reach 75; 001 §Buraco Fechado: the top card may then be
    # added to a meld of the side
    g = play(
        "fechado",
        hands=["KC KD KH KS QC QD QH QS 4C 7C 9D", "KC"],
        stock="3S 4H",
        scores=[1500, 0],
        actions=["draw", "meld KC KD KH KS", "meld QC QD QH QS", "discard 3S", "draw"],
    )
    g.apply("discard KC")
    assert g.view(0)["requirement"] == [0, 0]
    g.apply("take-pile")
    assert legal(g) == ["add 1 KC"]
    g.apply("add 1 KC")
    assert g.melds[0][0].size == 5


def test_a_vulnerable_sides_short_melds_from_the_stock_go_back_to_the_hand() -> None:
    # 001: the first meld(s) put down by a vulnerable team must have a card value of at least
    # 75 points (reading: staged melds return to the hand when the turn ends short)
    hand = "KC KD KH QC QD QH 4C 7C 3D 6D 9S"
    g = play(
        "fechado",
        hands=[hand],
        stock="8H",
        scores=[1500, 0],
        actions=["draw", "meld KC KD KH", "meld QC QD QH"],
    )
    assert g.view(0)["requirement"][0] == 75  # 60 staged
    assert g.scores()[0].melds == 0
    g.apply("discard 8H")
    assert g.melds[0] == []
    assert Counter(names(g, 0)) == Counter(hand.split())


# ----- sets ----------------------------------------------------------------------------


def test_sets_of_three_or_more_equal_cards_of_any_rank() -> None:
    # 001 §Buraco Fechado: it is possible to meld a set of three or more equal cards
    g = play(
        "fechado",
        hands=["5C 5D 5H KC KD KS KS 7C 7D JK 9H"],
        stock="3S",
        actions=["draw"],
    )
    assert {"meld 5C 5D 5H", "meld KC KD KS KS", "meld 7C 7D JK"} <= set(legal(g))
    g.apply("meld 5H 5C 5D")  # a set in any order
    g.apply("meld KS KC KS KD")
    assert melds(g, 0) == ["5C 5D 5H", "KC KD KS KS"]
    assert not g.melds[0][0].run
    assert all(m.clean for m in g.melds[0])
    assert "at least 3" in refuse(g, "meld 7C 7D", "meld-shape")


def test_a_set_holds_at_most_one_wild_card_and_two_natural_cards() -> None:
    # 001 §Buraco Fechado: at most one wild card can be included in the set (RULINGS 4: a set
    # contains at least two natural cards)
    g = play(
        "fechado",
        hands=["7C 7D JK 2H 2S 9H 9S 9D 4C QD KS"],
        stock="3S",
        actions=["draw"],
    )
    assert "one wild" in refuse(g, "meld 7C JK 2H", "meld-shape")
    refuse(g, "meld 7C 7D JK 2H", "meld-shape")
    g.apply("meld 7C 7D JK")
    assert not g.melds[0][0].clean
    assert "one wild" in refuse(g, "add 1 2H", "one-wild")
    g.apply("meld 9D 9H 9S")
    g.apply("add 2 2S")
    assert not g.melds[0][1].clean
    assert melds(g, 0)[1] == "9D 9H 9S 2S"


def test_a_set_of_twos_is_natural() -> None:
    # 001 §Buraco Fechado: it is possible to meld a set of twos
    g = play(
        "fechado",
        hands=["2C 2D 2H 2S JK 4C 7C 3D 6D 9D QD"],
        stock="KS",
        actions=["draw", "meld 2C 2D 2H"],
    )
    assert g.melds[0][0].clean
    assert g.view(0)["melds"][0][0]["type"] == "set"
    g.apply("add 1 2S")
    assert g.melds[0][0].clean  # another two is natural in a set of twos
    g.apply("add 1 JK")
    assert not g.melds[0][0].clean
    assert g.melds[0][0].size == 5


@pytest.mark.parametrize(
    "cards", ["2C 2C 2D 2D 2H 2H 2S", "2C 2C 2D 2D 2H 2H JK", "2C 2C 2D 2D 2H 2H 2S 2S"]
)
def test_a_canastra_of_twos_scores_1000(cards: str) -> None:
    # 001 §Buraco Fechado: a canastra of twos scores 1000 points extra instead of 100 or 200
    g = play(
        "fechado",
        hands=[cards + " 4C 7C 3D"],
        stock="KS",
        actions=["draw", f"meld {cards}"],
    )
    assert g.melds[0][0].canastra
    assert g.scores()[0].bonuses == 1000
    assert g.scores()[0].melds == points(cards)


def test_clean_and_dirty_set_canastras() -> None:
    # 001 §Buraco Fechado: a set of seven or more forms a canastra suja or canastra limpa,
    # depending on whether it contains a wild card, and scores accordingly (200 / 100)
    g = play(
        "fechado",
        hands=["8C 8C 8D 8D 8H 8H 4S 4S 4D 4D 4H"],
        stock="8S",
        actions=["draw", "meld 8C 8C 8D 8D 8H 8H"],
    )
    assert g.scores()[0].bonuses == 0
    g.apply("add 1 8S")
    assert g.scores()[0].canastras == ("clean",)
    assert g.scores()[0].bonuses == 200
    dirty = play(
        "fechado",
        hands=["8C 8C 8D 8D 8H 8H JK 4S 4D 4H 5C"],
        stock="KS",
        actions=["draw", "meld 8C 8C 8D 8D 8H 8H JK"],
    )
    assert dirty.scores()[0].canastras == ("dirty",)
    assert dirty.scores()[0].bonuses == 100


def test_eight_equal_cards_are_an_ordinary_clean_canastra_by_default() -> None:
    # 001 §Buraco Fechado: a clean set of seven or more scores as a canastra limpa (200); the
    # 1000 for all eight cards of a rank is only a house variant
    g = play(
        "fechado",
        hands=["9C 9C 9D 9D 9H 9H 9S 9S 3H 5D KC"],
        stock="QH",
        actions=["draw", "meld 9C 9C 9D 9D 9H 9H 9S 9S"],
    )
    assert g.scores()[0].canastras == ("clean",)
    assert g.scores()[0].bonuses == 200


# ----- runs in fechado ------------------------------------------------------------------


def test_runs_are_still_melds_in_fechado() -> None:
    # 001: a meld consists of a sequence of three or more consecutive cards of a suit; 001
    # §Buraco Fechado adds sets, it does not remove sequences. A natural two and a wild two
    # (RULINGS 4), ace low or high, no wrap-around (RULINGS 6).
    g = play(
        "fechado",
        hands=["AH 2H 2S 4H QS KS AS 3C 4C JK 9D"],
        stock="KH",
        actions=["draw"],
    )
    assert "wrap" in refuse(g, "meld KH AH 2H", "meld-shape")
    g.apply("meld AH 2H 2S 4H")
    g.apply("meld QS KS AS")
    g.apply("meld 3C 4C JK")
    assert [m.run for m in g.melds[0]] == [True, True, True]
    assert [m.clean for m in g.melds[0]] == [False, True, False]
    assert g.view(0)["melds"][0][0]["wild"] == 2


def test_freeing_a_wild_in_a_fechado_run() -> None:
    # RULINGS 5: adding the natural card a wild stands for frees the wild; the player chooses
    # where it goes (either end)
    g = play(
        "fechado",
        hands=["3H 4H JK 6H 5H 9C"],
        stock="9D",
        actions=["draw", "meld 3H 4H JK 6H"],
    )
    with pytest.raises(NotationError):
        g.apply("add 1 5H")
    g.apply("add 1 5H wild-high")
    assert melds(g, 0) == ["3H 4H 5H 6H JK"]


def test_a_clean_fourteen_card_run_scores_1000_in_fechado() -> None:
    # RULINGS table (fechado): 500/1000 as aberto - 001: canastra meia real (clean 13) 500,
    # canastra real (clean 14, A..A) 1000
    g = play(
        "fechado",
        hands=["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"],
        pots=["AH AH 5C 9S"],
        stock="KH",
        actions=["draw", "meld 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "add 1 AH low"],
    )
    assert g.scores()[0].canastras == ("clean-13",)
    assert g.scores()[0].bonuses == 500
    g.apply("add 1 AH")
    assert g.scores()[0].canastras == ("clean-14",)
    assert g.scores()[0].bonuses == 1000


# ----- the mortos and going out ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_going_out_with_any_canastra(players: int) -> None:
    # 001 §Buraco Fechado: a player can go out if the player's team has taken its morto and made
    # at least one canastra - the canastra does not have to be clean
    g = go_out(players)
    assert g.ended_by == "going-out"
    s0 = g.scores()[0]
    assert s0.canastras == ("dirty",)
    assert (s0.melds, s0.bonuses, s0.going_out) == (190, 100, 100)
    partner = " ".join(names(g, 2)) if players == 4 else ""
    assert s0.hand == -points(partner)
    assert s0.total == OUT_SCORE - points(partner)


def test_going_out_still_needs_a_canastra() -> None:
    # 001 §Buraco Fechado: a player can go out if the team has taken its morto and made at
    # least one canastra (RULINGS 8: a play that would leave a last card that cannot be
    # discarded is not offered, and is refused with a reason)
    g = play(
        "fechado",
        hands=["9C 9D 9H 5C 5D 5H KC KD KH QC QD"],
        pots=["3C 3D 3H 7C 7D 7H 4C 4D 4H 9S AD"],
        stock="QH",
        actions=[
            "draw",
            "meld 9C 9D 9H",
            "meld 5C 5D 5H",
            "meld KC KD KH",
            "meld QC QD QH",
            "meld 3C 3D 3H",
            "meld 7C 7D 7H",
            "meld 4C 4D 4H",
        ],
    )
    assert g.pot_taken == [True, False]
    assert sorted(names(g, 0)) == ["9S", "AD"]
    assert g.scores()[0].canastras == ()
    assert not any(a.startswith("add") for a in legal(g))
    assert "canastra" in refuse(g, "add 1 9S", "never-stranded")
    assert set(legal(g)) == {"discard 9S", "discard AD"}


def test_going_out_needs_a_final_discard() -> None:
    # 001: the player melds all but one card from hand, and discards this last card
    g = play(
        "fechado",
        hands=[OUT_HAND],
        pots=["KC KD KH KS QC QD QH 3C 3D 3H 3S"],
        stock="5C",
        actions=OUT_ACTIONS[:5],
    )
    assert "meld 3C 3D 3H 3S" not in legal(g)
    assert "final discard" in refuse(g, "meld 3C 3D 3H 3S", "never-stranded")
    g.apply("meld 3C 3D 3H")
    g.apply("discard 3S")
    assert g.ended_by == "going-out"


@pytest.mark.parametrize("players", [2, 4])
def test_morto_taken_by_melding_or_by_discarding(players: int) -> None:
    # 001: batida direta - the player picks up the morto and carries on melding; batida
    # indireta - the new hand cannot be used until the player's next turn
    pot = "KC KD KH KS QC QD QH 3C 3D 3H 7S"
    direct = play(
        "fechado",
        players,
        hands=[OUT_HAND],
        pots=[pot],
        stock="5C",
        actions=OUT_ACTIONS[:3],
    )
    assert Counter(names(direct, 0)) == Counter(pot.split())
    assert direct.to_move == 0
    assert "meld KC KD KH KS" in legal(direct)
    indirect = play(
        "fechado",
        players,
        hands=[OUT_HAND],
        pots=[pot],
        stock="5C",
        actions=["draw", "meld 9C 9C 9D 9D 9H 9S JK", "meld 5C 5D 5H 5S"],
    )
    assert names(indirect, 0) == ["5C"]
    indirect.apply("discard 5C")
    assert indirect.pot_taken == [True, False]
    assert Counter(names(indirect, 0)) == Counter(pot.split())
    assert indirect.to_move == 1


def test_a_morto_taken_by_discarding_and_never_played_costs_100() -> None:
    # 001: if a player takes a morto after discarding (batida indireta), but never plays a turn
    # with it because someone else goes out before the player's next turn, the team is charged
    # the 100 point penalty for the unused morto, rather than adding up the values of its cards
    pot1 = "AC AD AH AS KC KD KH 8C 8D 8H 8S"
    g = play(
        "fechado",
        4,
        hands=[OUT_HAND, "6C 6C 6D 6D 6H 6H 6S 6S JC JD JH", "8C 8D 8H 8S TC TD TH TS 4C 4D 4H"],
        pots=[OUT_POT, pot1],
        stock="5C 4D AS",
        actions=[
            "draw",
            "meld 9C 9C 9D 9D 9H 9S JK",
            "meld 5C 5C 5D 5H 5S",
            "meld KC KD KH KS",
            "discard 7S",
            "draw",
            "meld 6C 6C 6D 6D 6H 6H 6S 6S",
            "meld JC JD JH",
            "discard 4D",
        ],
    )
    assert g.pot_taken == [True, True]
    assert Counter(names(g, 1)) == Counter(pot1.split())
    g.apply("draw")
    g.apply("meld 8C 8D 8H 8S")
    g.apply("meld TC TD TH TS")
    g.apply("meld 4C 4D 4H")
    g.apply("discard AS")
    assert g.ended_by == "going-out"
    s1 = g.scores()[1]
    assert points(pot1) != 100
    assert s1.hand == -100 - points(" ".join(names(g, 3)))
    assert s1.pot == 0
    assert s1.melds == 40 + 30


# ----- stock exhaustion ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "stock"), [(2, 64), (4, 42)])
def test_a_morto_becomes_the_stock_and_then_the_hand_ends(players: int, stock: int) -> None:
    # 001: if the draw pile runs out before both the mortos have been taken, a morto is
    # converted into a new draw pile of 11 cards; if the draw pile becomes empty and both mortos
    # have been used, the play ends after the turn of the player who took the last card
    g = play("fechado", players)
    for _ in range(stock):
        draw_and_discard(g)
    assert (len(g.stock), len(g.pots)) == (11, 1)
    for _ in range(21):
        draw_and_discard(g)
    seat = g.to_move
    assert seat is not None
    g.apply("draw")
    assert g.view(seat)["last_turn"]
    assert not g.is_hand_over()
    g.apply(next(a for a in legal(g) if a.startswith("discard")))
    assert g.ended_by == "stock"
    assert all(s.pot == 0 and s.going_out == 0 for s in g.scores())


# ----- hand scoring and match play ----------------------------------------------------------


def test_hand_score_parts() -> None:
    # 001 scoring: melds plus, hand minus, canastra bonuses, 100 for going out, minus 100 for a
    # team that has not taken its morto
    seat1 = "AC 4C 7C TC 3D 6D QD 5H 8H JH KS"
    g = go_out(others=[seat1])
    s0, s1 = g.scores()
    assert s0.total == OUT_SCORE
    assert (s1.melds, s1.bonuses, s1.hand, s1.pot, s1.going_out) == (
        0,
        0,
        -points(seat1),
        -100,
        0,
    )
    assert g.totals == [OUT_SCORE, -points(seat1) - 100]


def test_a_side_reaching_3000_wins() -> None:
    # 001: the game is normally played to 3000 points: when a team reaches or passes this total,
    # the team with the higher score wins
    win = go_out(match=True, scores=[3000 - OUT_SCORE, 0])
    assert win.winner == 0
    assert win.is_over()
    short = go_out(match=True, scores=[2999 - OUT_SCORE, 0])
    assert short.winner is None
    assert not short.is_over()


def test_a_tie_at_the_target_plays_another_hand() -> None:
    # RULINGS 10: with equal totals another hand is played; RULINGS 1: the deal passes on
    side1 = 80 + 200 - points("4C 7C QD") - 100
    g = play(
        "fechado",
        hands=[OUT_HAND, "8C 8C 8D 8D 8H 8H 8S 8S 4C 7C QD"],
        pots=[OUT_POT],
        stock="KS 4D 5C",
        actions=[
            *("draw", "discard KS", "draw", "meld 8C 8C 8D 8D 8H 8H 8S 8S", "discard 4D"),
            *OUT_ACTIONS,
        ],
        match=True,
        scores=[3000 - OUT_SCORE, 3000 - side1],
    )
    assert g.scores()[1].total == side1
    assert g.totals == [3000, 3000]
    assert g.winner is None
    assert not g.is_over()
    g.next_hand()
    assert (g.dealer, g.to_move) == (0, 1)
    assert g.view(1)["vulnerable"] == [True, True]


@pytest.mark.parametrize("players", [2, 4])
def test_the_deal_passes_to_the_next_seat(players: int) -> None:
    # RULINGS 1: the deal passes to the next seat each hand; the first player is the seat after
    # the dealer
    g = play("fechado", players, match=True)
    seen = []
    for _ in range(players):
        seen.append((g.dealer, g.to_move))
        finish_by_stock(g)
        g.next_hand()
    assert seen == [((players - 1 + i) % players, i % players) for i in range(players)]


def test_vulnerability_comes_from_the_match_total() -> None:
    # 001: a team whose cumulative score is at least half the target score is vulnerable
    g = go_out(match=True, scores=[1500 - OUT_SCORE, 1499])
    assert g.totals[0] == 1500
    g.next_hand()
    assert g.view(0)["vulnerable"] == [True, False]


# ----- house variants (001 end; RULINGS 12) ------------------------------------------------


def test_all_eight_cards_of_a_rank_as_a_real_canastra() -> None:
    # 001: in buraco fechado, some count any clean set of all 8 cards of a rank, such as eight
    # 9's, as a canastra real, worth 1000 points
    g = play(
        "fechado",
        hands=["9C 9C 9D 9D 9H 9H 9S 9S 3H 5D KC"],
        stock="QH",
        clean_eight_set_bonus=1000,
        actions=["draw", "meld 9C 9C 9D 9D 9H 9H 9S"],
    )
    assert g.scores()[0].bonuses == 200  # seven cards: an ordinary clean canastra
    g.apply("add 1 9S")
    assert g.scores()[0].bonuses == 1000
    assert g.scores()[0].canastras == ("clean-8-set",)


def test_eight_of_a_rank_with_a_wild_card_is_not_a_real_canastra() -> None:
    # 001: ... any clean set of all 8 cards of a rank
    g = play(
        "fechado",
        hands=["9C 9C 9D 9D 9H 9H 9S JK 3H 5D KC"],
        stock="9S",
        clean_eight_set_bonus=1000,
        actions=["draw", "meld 9C 9C 9D 9D 9H 9H 9S 9S JK"],
    )
    assert g.scores()[0].canastras == ("dirty",)
    assert g.scores()[0].bonuses == 100


@pytest.mark.parametrize(
    ("target", "start", "wins"),
    [(2000, 2000, True), (2000, 1995, False), (3500, 3500, True), (3500, 3495, False)],
)
def test_target_of_2000_or_3500(target: int, start: int, wins: bool) -> None:
    # 001: some play to a target of 2000 or 3500 points rather than 3000
    g = go_out(match=True, scores=[start - OUT_SCORE, 0], target=target)
    assert g.totals[0] == start
    assert g.winner == (0 if wins else None)


@pytest.mark.parametrize(("target", "at"), [(2000, 1000), (3500, 1750)])
def test_vulnerability_is_half_of_the_chosen_target(target: int, at: int) -> None:
    # 001: vulnerable at half the target score (RULINGS 12: target 2000/3500)
    g = play("fechado", 4, scores=[at - 1, at], target=target)
    assert g.view(0)["vulnerable"] == [False, True]
    assert g.view(0)["requirement"] == [0, 75]


def test_round_scores_up_to_ten() -> None:
    # 001: some players round all scores up to a multiple of 10 - 485 is recorded as 490
    pot = "KC KD KH QC QD QH 3C 3D 3H 3S 7S"
    actions = [
        *OUT_ACTIONS[:3],
        "meld KC KD KH",
        "meld QC QD QH",
        "meld 3C 3D 3H 3S",
        "discard 7S",
    ]
    plain = play("fechado", hands=[OUT_HAND], pots=[pot], stock="5C", actions=actions)
    assert plain.scores()[0].total == 80 + 25 + 30 + 30 + 20 + 100 + 100  # 385
    rounded = play(
        "fechado", hands=[OUT_HAND], pots=[pot], stock="5C", actions=actions, round_scores=True
    )
    assert rounded.scores()[0].total == 390
    assert rounded.scores()[0].rounding == 5


def test_play_without_vulnerability_takes_the_pile_for_any_meld() -> None:
    # 001: some play without vulnerability - there is no minimum meld value
    g = play(
        "fechado",
        hands=["AC AS 8H " + QUIET7 + " KS", "AH"],
        stock="KH 4H",
        scores=[2000, 0],
        vulnerable_minimum=0,
        actions=["draw", "discard KH", "draw", "discard AH"],
    )
    assert g.view(0)["vulnerable"] == [False, False]
    g.apply("take-pile")
    assert legal(g) == ["meld AC AH AS"]


def test_jokers_worth_50() -> None:
    # 001: some play that jokers are worth 50 points each rather than 20
    g = go_out(joker_value=50)
    assert g.scores()[0].melds == 190 + 30


def test_without_jokers_sets_of_twos_and_wild_twos_remain() -> None:
    # 001: some play without jokers ... the only wild cards are the twos (104 cards: 001's
    # "106" does not add up for two 52-card packs)
    g = play(
        "fechado",
        hands=["2C 2D 2H 7C 7D 2S 4C 9D QD KS 5H"],
        stock="3S",
        jokers_per_deck=0,
        actions=["draw", "meld 2C 2D 2H", "meld 7C 7D 2S"],
    )
    assert g.melds[0][0].clean
    assert not g.melds[0][1].clean
    assert g.rules.deck_size == 104
    assert len(g.stock) == 104 - 22 - 22 - 1


def test_canastra_bonuses_of_300_and_150() -> None:
    # 001: some score 150 for a dirty canastra and 300 for a clean canastra
    g = go_out(clean_bonus=300, dirty_bonus=150)
    assert g.scores()[0].bonuses == 150
    clean = play(
        "fechado",
        hands=["8C 8C 8D 8D 8H 8H 8S 4S 4D 4H 5C"],
        stock="KS",
        clean_bonus=300,
        dirty_bonus=150,
        actions=["draw", "meld 8C 8C 8D 8D 8H 8H 8S"],
    )
    assert clean.scores()[0].bonuses == 300


def test_an_exact_cut_earns_100_for_the_non_dealing_side() -> None:
    # 001: some award a bonus of 100 points to the non-dealing team if the cut leaves exactly
    # 44 cards; fewer than 44 costs the cutter's team 100 (RULINGS 11)
    rules = make_rules("fechado", players=4, cut_bonus="deal")
    deck = deck_for(rules, dealer=3)
    for cut, expected in [(0, [100, 0]), (-1, [-100, 0]), (2, [0, 0])]:
        g = Game(rules, stacked=[deck], cuts=[cut], first_dealer=3, match=False, seed=0)
        assert [s.cut for s in g.scores()] == expected
        assert replay(g.record()).cut == cut


def test_the_cutter_keeps_a_wild_card() -> None:
    # 001: the person who cut ... If that card is a joker or a 2, they can keep it as a card
    # for their hand
    rules = make_rules("fechado", players=2, cutter_keeps_wild=True)
    deck = deck_for(rules, dealer=1, cutter_wild="2S")
    g = Game(rules, stacked=[deck], first_dealer=1, match=False, seed=0)
    assert "2S" in names(g, 0)
    assert [len(g.hand(s)) for s in range(2)] == [11, 11]
    assert len(g.stock) == 64


# ----- the forced opening after a take never strands the player (RULINGS 8-9) ------------


def test_a_forced_opening_never_leaves_a_last_card_that_cannot_be_played() -> None:
    # RULINGS 8: the engine never offers a move that would empty the hand (or leave a last card
    # that cannot be discarded) without taking a morto or going out; RULINGS 9: every hand
    # ends. Both mortos have become the stock; seat 2 (vulnerable, not opened) takes the pile.
    rules = make_rules("fechado", players=4)
    deck = deck_for(
        rules,
        dealer=3,
        hands=["", "8H 9H KS", "KH KD QS JS TS 9S 8S 3C 4C 5C 9D", ""],
        pots=["3D 4D 6D 7D 8D TD JD QD KD AD 7H"],
    )
    g = Game(rules, stacked=[deck], first_dealer=3, match=False, seed=0, scores=[1500, 0])
    while g.pots:
        draw_and_discard(g)
    for action in ["take-pile", "meld 7H 8H 9H", "discard KS", "take-pile", "meld KD KH KS"]:
        g.apply(action)
    # 3C-4C-5C then the spade run 8S-QS would reach 75 but leave only 9D, which could not be
    # discarded (no morto left to take, no canastra to go out): that meld is not offered
    g.apply("meld 3C 4C 5C")
    assert "meld 8S 9S TS JS QS" not in legal(g)
    assert "meld 8S 9S TS" in legal(g)
    while not g.is_hand_over():
        assert g.legal_actions(), "the player to move must always have a legal action"
        g.apply(g.legal_actions()[0])


def test_one_set_per_rank_is_respected_when_judging_a_take() -> None:
    # 000 (second text) §Terminology: one set per rank per partnership (one_set_per_rank);
    # 001 §Buraco Fechado: the pile is taken only to meld its top card at once. A second set of
    # kings cannot count toward the 75, so the pile is not offered.
    rules = make_rules("fechado", players=2, one_set_per_rank=True)
    deck = deck_for(
        rules,
        dealer=1,
        hands=["KS 3C 6C 9C QC 5D 8D JD 4H 7H TH", "KH KD KC KC JK 2C 4D 7D 9S 3S 6H"],
        stock="9D 8C",
    )
    g = Game(rules, stacked=[deck], first_dealer=1, match=False, seed=0, scores=[1500, 1500])
    g.apply("draw")
    g.apply("discard KS")
    assert "take-pile" not in legal(g)
