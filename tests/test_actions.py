import pytest

from buraco import (
    Add,
    CardError,
    Discard,
    Draw,
    Meld,
    MoveWild,
    NotationError,
    Place,
    TakePile,
    TurnUp,
    parse_action,
    parse_cards,
)

ACTIONS = [
    "draw",
    "turn-up",
    "take-pile",
    "meld 3H 4H JK 6H",
    "meld 9C 9D 9S",
    "add 1 7H",
    "add 12 AH low",
    "add 2 JK high",
    "add 3 6H wild-low",
    "add 3 6H wild-high",
    "move 2 low",
    "discard 9C",
]


@pytest.mark.parametrize("text", ACTIONS)
def test_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_parsed_values() -> None:
    assert parse_action("draw") == Draw()
    assert parse_action("take pile") == TakePile()
    assert parse_action("turn up") == TurnUp()
    assert parse_action("meld 3h 4h jk 6h") == Meld(tuple(parse_cards("3H 4H JK 6H")))
    # meld numbers are written from 1 and stored from 0
    assert parse_action("add 2 7H") == Add(1, parse_cards("7H")[0], Place.NONE)
    added = parse_action("add 2 6H wild-high")
    assert isinstance(added, Add) and added.place is Place.WILD_HIGH
    assert parse_action("move 1 high") == MoveWild(0, Place.HIGH)
    assert parse_action("discard 10c") == Discard(parse_cards("TC")[0])


def test_actions_of_different_kinds_are_never_equal() -> None:
    # the actions are tuples: a kind tag keeps those with the same fields apart
    actions: list[object] = [Draw(), TakePile(), TurnUp(), Discard(5), Meld((5,)), Add(0, 5)]
    for i, a in enumerate(actions):
        for b in actions[i + 1 :]:
            assert a != b
    assert len(set(actions)) == len(actions)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty action"),
        ("fold", "unknown action 'fold'"),
        ("meld", "name the cards"),
        ("discard", "exactly one card"),
        ("discard 3H 4H", "exactly one card"),
        ("add 0 7H", "a meld number is a whole number from 1 to 999"),
        ("add x 7H", "a meld number is a whole number from 1 to 999"),
        ("add ² 3S", "not '²'"),  # a Unicode digit is not a meld number
        ("move ² low", "not '²'"),
        ("add 1000 3S", "from 1 to 999"),
        ("add " + "9" * 400 + " 3S", "from 1 to 999"),
        ("draw" + " " * 600, "at most 500 characters"),
        ("add 1 7H sideways", "placement 'sideways'"),
        ("add 1", "add N CARD"),
        ("move 1 middle", "move N low"),
        ("draw 7H", "takes no cards"),
    ],
)
def test_malformed_notation_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert words in str(err.value)


def test_unknown_card_in_an_action() -> None:
    with pytest.raises(CardError):
        parse_action("meld 3H 4H 5X")
