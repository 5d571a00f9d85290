"""Cards and melds as text: symbols, wild places, marks, the line flow, and user text."""

import unicodedata

from buraco.cards import parse_cards
from buraco.text import safe
from buraco.tui.render import (
    COLOUR_STYLES,
    PLAIN_STYLES,
    Flow,
    card_label,
    card_style,
    literal,
    meld_marks,
    meld_text,
    stand_ins,
    use_colour,
)
from buraco.views import MeldView


def meld(cards: str, wild: int | None, run: bool = True, **kw: object) -> MeldView:
    codes = tuple(parse_cards(cards))
    values: dict[str, object] = {
        "number": 1,
        "run": run,
        "suit": codes[0] // 13 if run else -1,
        "rank": -1 if run else codes[0] % 13,
        "lo": codes[0] % 13 if run else -1,
        "hi": -1,
        "cards": codes,
        "wild": wild,
        "clean": wild is None,
        "canastra": len(codes) >= 7,
        "bonus": None,
        "bonus_points": 0,
        "points": 0,
        "staged": False,
    }
    values.update(kw)
    return MeldView(**values)  # type: ignore[arg-type]


def test_cards_show_rank_and_suit_symbol() -> None:
    assert [card_label(c) for c in parse_cards("TH AS 7C QD JK")] == [
        "10♥",
        "A♠",
        "7♣",
        "Q♦",
        "JK",
    ]


def test_melds_show_the_place_of_their_wild_and_their_marks() -> None:
    assert meld_text(meld("3C 4C 2D 6C", 2)).plain == "♣ 3 4 2♦(5) 6  dirty"
    assert meld_text(meld("KS KH JK", 2, run=False)).plain == "K♠ K♥ JK(K)  dirty"
    royal = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", None, bonus="clean-13")
    royal = MeldView(**{**royal.__dict__, "bonus_points": 500})
    marks = meld_marks(royal)
    assert marks.plain == "clean CANASTRA clean 13-card run +500"
    assert any("reverse" in str(span.style) for span in marks.spans)  # 500 and 1000 stand out
    dirty = meld("5S 6S 7S 8S 9S TS JK", 6, bonus="dirty", bonus_points=100)
    assert meld_marks(dirty).plain == "dirty CANASTRA dirty +100"
    assert not any("reverse" in str(span.style) for span in meld_marks(dirty).spans)


def test_the_place_of_each_wild_in_a_meld_to_be_made() -> None:
    assert stand_ins(parse_cards("3H 4H JK")) == {2: "5"}
    assert stand_ins(parse_cards("JK QS KS AS")) == {0: "J"}
    assert stand_ins(parse_cards("AH 2H 3H")) == {}  # the 2 of the suit in its place
    assert stand_ins(parse_cards("9C 9D 2S")) == {2: "9"}


def test_colour_can_be_turned_off() -> None:
    heart = parse_cards("5H")[0]
    try:
        use_colour(False)
        assert card_style(heart) == PLAIN_STYLES["red"] and "red" not in card_style(heart)
    finally:
        use_colour(True)
    assert card_style(heart) == COLOUR_STYLES["red"]


def test_the_flow_wraps_items_and_finds_them_again() -> None:
    flow = Flow(10)
    flow.newline()
    for key in range(5):
        flow.item(meld_text(meld("3C 4C 5C", None))[:3], key)
    assert [line.plain for line in flow.lines] == ["♣ 3 ♣ 3", "♣ 3 ♣ 3", "♣ 3"]
    assert flow.key_at(4, 0) == 1 and flow.key_at(3, 0) is None
    assert flow.key_at(0, 2, whole_line=True) == 4
    spot = flow.spot_of(3)
    assert spot is not None and (spot.line, spot.x0) == (1, 4)


def test_user_text_is_drawn_with_every_control_character_escaped() -> None:
    controls = [
        chr(code)
        for code in range(0x3000)
        if unicodedata.category(chr(code)) in ("Cc", "Zl", "Zp")
        or 0x202A <= code <= 0x202E  # bidirectional embeddings and overrides
        or 0x2066 <= code <= 0x2069  # bidirectional isolates
    ]
    assert len(controls) == 65 + 2 + 5 + 4
    for ch in controls:
        out = safe(f"a{ch}b")
        assert out.isascii() and out.isprintable() and out.startswith("a\\") and out.endswith("b")
    assert safe("\x1b[2J\x07\r") == "\\x1b[2J\\x07\\x0d"
    assert safe("a\nb", newlines=True) == "a\nb" and safe("a\nb") == "a\\x0ab"
    plain = "Ana & Bia ♥ [bold]x[/] ção 漢字 👍"
    assert safe(plain) == plain  # printable text is left as it is
    text = literal("[bold red]x[/]", style="bold")
    assert text.plain == "[bold red]x[/]" and not text.spans  # never read as markup
