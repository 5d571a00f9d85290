import pytest

from buraco import CardError
from buraco.cards import (
    CARD_NAMES,
    JOKER,
    build_deck,
    card_name,
    cards_of,
    counts_of,
    format_cards,
    is_wild_capable,
    parse_card,
    parse_cards,
    sorted_cards,
)


def test_every_code_round_trips_through_its_name() -> None:
    for code, name in enumerate(CARD_NAMES):
        assert parse_card(name) == code
        assert card_name(code) == name
    assert len(set(CARD_NAMES)) == 53


def test_ten_lower_case_and_commas_are_accepted() -> None:
    assert parse_cards("10h, th, Jk") == [parse_card("TH"), parse_card("TH"), JOKER]


@pytest.mark.parametrize("bad", ["1C", "ZZ", "11H", "", "A", "JKX", "10"])
def test_unknown_cards_are_refused_naming_the_allowed_forms(bad: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(bad)
    assert "rank" in str(err.value) and "JK" in str(err.value)


def test_wild_capable_cards_are_the_jokers_and_the_twos() -> None:
    # 001 §Players and Cards: jokers and twos can be used as wild cards
    wild = [c for c in range(53) if is_wild_capable(c)]
    assert format_cards(wild) == "2C 2D 2H 2S JK"


def test_packs_have_the_right_cards() -> None:
    # 001 §Players and Cards: a 108-card pack, two 52-card packs with four jokers
    deck = build_deck(2, 2)
    assert len(deck) == 108
    assert deck.count(JOKER) == 4
    assert all(deck.count(c) == 2 for c in range(52))
    # 004: two decks of 52 cards, 104 in total; RULINGS 13: 3 decks for 6 players
    assert len(build_deck(2, 0)) == 104
    assert len(build_deck(3, 2)) == 162


def test_counts_and_display_order() -> None:
    cards = parse_cards("AS 2H JK 7C 7C KD")
    assert cards_of(counts_of(cards)) == sorted(cards)
    # display: by suit, ace high, wild cards last
    assert format_cards(sorted_cards(cards)) == "7C 7C KD AS 2H JK"
