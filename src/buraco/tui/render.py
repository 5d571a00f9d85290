r"""Cards, melds and actions as styled text, and a line flow that remembers its items.

The flow remembers where each item landed, so that a click can be traced back
to the card or meld under it.

Text from outside the program (players' names, typed actions, error messages) is
drawn only through :func:`safe` or :func:`literal`: never read as markup, and with
every control character shown escaped (``\x1b``), never written raw to the terminal.

Suits are shown as symbols (♣ ♦ ♥ ♠) so that they stay apart without colour
(``NO_COLOR``); hearts and diamonds are red when there is colour, wild cards bold.

>>> card_label(35), card_label(52), card_label(0)
('10♥', 'JK', 'A♣')
>>> from buraco.views import MeldView
>>> m = MeldView(1, True, 2, -1, 3, 6, (29, 30, 52, 32), 2, False, False, None, 0, 25, False)
>>> meld_text(m).plain
'♥ 4 5 JK(6) 7  dirty'
>>> from buraco.cards import parse_cards
>>> meld_choice_text(parse_cards("JK 3H 4H")).plain, meld_choice_text(parse_cards("2H 3H 2C")).plain
('JK(2) 3♥ 4♥', '2♥ 3♥ 2♣(4)')
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions
from rich.text import Text

from buraco.actions import Action, Draw, Place, TakePile, TurnUp
from buraco.cards import Card, is_wild_capable, parse_card, rank_of, suit_of
from buraco.text import safe
from buraco.tui import words
from buraco.tui.glyphs import RANK_LABELS as RANK_LABELS
from buraco.tui.glyphs import SUIT_SYMBOLS as SUIT_SYMBOLS
from buraco.tui.glyphs import card_label as card_label
from buraco.tui.words import count, t
from buraco.views import MeldView, SeatView, SeenEvent

COLOUR_STYLES = {"red": "bold red", "black": "bold", "wild": "bold yellow", "clean": "green"}
"""Styles of red and black suits, wild cards and clean melds, in colour."""

PLAIN_STYLES = {"red": "bold", "black": "bold", "wild": "bold italic", "clean": ""}
"""The same without colour (``NO_COLOR``): greyed red would be dark on dark."""

STYLES = dict(COLOUR_STYLES)
"""The styles in use (see :func:`use_colour`)."""


def literal(text: str, style: str = "", newlines: bool = False) -> Text:
    """Text from outside the program as it is written: no markup, controls escaped."""
    return Text(safe(text, newlines), style=style)


def use_colour(on: bool) -> None:
    """Draw cards in colour, or without (the apps call this with ``not app.no_color``)."""
    STYLES.update(COLOUR_STYLES if on else PLAIN_STYLES)


def card_style(card: Card) -> str:
    """The style of a card: wild cards bold yellow, red suits red."""
    if is_wild_capable(card):
        return STYLES["wild"]
    return STYLES["red"] if suit_of(card) in (1, 2) else STYLES["black"]


def card_text(card: Card, width: int = 0) -> Text:
    """A card as styled text, right-aligned to ``width`` cells."""
    label = card_label(card)
    return Text(label.rjust(width), style=card_style(card))


def cards_text(cards: Sequence[Card]) -> Text:
    """Cards separated by spaces."""
    return Text(" ").join(card_text(c) for c in cards)


def _position_label(pos: int) -> str:
    return RANK_LABELS[0 if pos in (0, 13) else pos]


def wild_place(m: MeldView) -> str:
    """What the wild of a meld stands for (``6`` or ``K``), or ``""`` without one."""
    if m.wild is None:
        return ""
    if m.run:
        return _position_label(m.lo + m.wild)
    return RANK_LABELS[m.rank]


def meld_tokens(m: MeldView) -> list[Text]:
    """A meld's cards as items, the wild marked with the place it holds (``JK(6)``).

    A run is its suit then its ranks; a set is its cards.
    """
    out: list[Text] = []
    colour = ""
    if m.run:
        colour = STYLES["red"] if m.suit in (1, 2) else STYLES["black"]
        out.append(Text(SUIT_SYMBOLS[m.suit], style=colour))
    for i, c in enumerate(m.cards):
        if i == m.wild:
            out.append(Text(f"{card_label(c)}({wild_place(m)})", style=STYLES["wild"]))
        elif m.run:
            out.append(Text(_position_label(m.lo + i), style=colour))
        else:
            out.append(card_text(c))
    return out


def meld_body(m: MeldView) -> Text:
    """A meld's cards on one line (see :func:`meld_tokens`)."""
    return Text(" ").join(meld_tokens(m))


def meld_marks(m: MeldView) -> Text:
    """A meld's marks: clean or dirty, a canastra with its bonus, ``staged``.

    Bonuses of 500 and 1000 stand out; ``staged`` marks a meld still short of
    the initial minimum.
    """
    out = Text()
    out.append(
        t("meld.clean" if m.clean else "meld.dirty"), style=STYLES["clean"] if m.clean else "dim"
    )
    if m.canastra:
        plain = t("meld.clean" if m.clean else "meld.dirty")
        kind = words.words().get(f"tui.bonus.{m.bonus}", m.bonus) if m.bonus else plain
        style = "bold reverse" if m.bonus_points >= 500 else "bold"
        out.append(" ")
        out.append(
            t(
                "tui.meld.canastra",
                name=t("term.canastra").upper(),
                kind=kind,
                points=m.bonus_points,
            ),
            style=style,
        )
    if m.staged:
        out.append(" " + t("meld.staged"), style="italic")
    return out


def meld_text(m: MeldView) -> Text:
    """A meld on one line: body then marks."""
    return Text.assemble(meld_body(m), "  ", meld_marks(m))


def stand_ins(cards: Sequence[Card]) -> dict[int, str]:
    """The place each wild card of a meld holds, by index (``{2: "6"}`` for ``4H 5H JK 7H``).

    The meld is written in the notation: a run low to high, the wild where it stands.
    """
    naturals = [(i, c) for i, c in enumerate(cards) if not is_wild_capable(c)]
    if not naturals:
        return {}
    if len({rank_of(c) for _, c in naturals}) == 1 and len({suit_of(c) for _, c in naturals}) > 1:
        rank = RANK_LABELS[rank_of(naturals[0][1])]
        return {i: rank for i, c in enumerate(cards) if is_wild_capable(c)}
    i0, c0 = naturals[0]
    p0 = rank_of(c0) if rank_of(c0) or i0 == 0 else 13
    suit = suit_of(c0)
    out = {}
    for i, c in enumerate(cards):
        pos = p0 + i - i0
        if is_wild_capable(c) and not (c == suit * 13 + 1 and pos == 1):
            out[i] = _position_label(pos) if 0 <= pos <= 13 else "?"
    return out


def meld_choice_text(cards: Sequence[Card]) -> Text:
    """A meld to be made, each wild marked with the place it would hold."""
    places = stand_ins(cards)
    parts = []
    for i, c in enumerate(cards):
        if i in places:
            parts.append(Text(f"{card_label(c)}({places[i]})", style=STYLES["wild"]))
        else:
            parts.append(card_text(c))
    return Text(" ").join(parts)


def action_text(action: Action) -> str:
    """An action in words, its cards as the hand shows them (``discard 9♣``)."""
    return words.action(str(action))


def place_choice(card: Card, meld: int, place: Place) -> str:
    """Adding ``card`` to meld ``meld`` (0-based) at ``place``, in words (a dialog's option)."""
    return t(f"action.add.{place.word}", card=card_label(card), meld=meld + 1)


def event_text(view: SeatView, event: SeenEvent) -> Text:
    """One line of the log: who did what, the cards named as in the hand (``Ana: discard 10♦``).

    Drawn from the view's events (values), not from its plain-text log; the viewer's
    own lines are bold and start with ``you`` in the language in use.
    """
    mine = event.seat == view.seat
    who = t("tui.you") if mine else safe(view.names[event.seat])
    line = Text(t("tui.line", who=who, what=event_words(event)), style="bold" if mine else "")
    return styled_cards(line)


_CARD_LABEL = re.compile(r"JK|(?:10|[2-9AJQK])[♣♦♥♠]")


def styled_cards(text: Text) -> Text:
    """The text with each card in it (``10♥``, ``JK``) styled as the hand shows it."""
    for match in _CARD_LABEL.finditer(text.plain):
        label = match.group()
        code = (
            "JK"
            if label == "JK"
            else label[:-1].replace("10", "T") + "CDHS"[SUIT_SYMBOLS.index(label[-1])]
        )
        text.stylize(card_style(parse_card(code)), match.start(), match.end())
    return text


def event_words(event: SeenEvent) -> str:
    """What an event of the log did, in words (without who did it)."""
    a = event.action
    if a is None:
        params = {
            name: card_label(parse_card(str(v))) if name == "card" else v
            for name, v in event.params
        }
        return words.words().get(f"tui.note.{event.code}", safe(event.note), **params)
    if isinstance(a, Draw):
        return (
            t("tui.log.draw-card", card=card_label(event.card))
            if event.card >= 0
            else t("action.draw")
        )
    if isinstance(a, TurnUp):
        if not event.cards:
            return t("action.turn-up")
        shown = card_label(event.cards[0])
        if event.card >= 0:
            return t("tui.log.turn-up-draw", card=shown, drawn=card_label(event.card))
        return t("tui.log.turn-up", card=shown)
    if isinstance(a, TakePile):
        if len(event.cards) == event.taken:
            return t("tui.log.take-pile", cards=" ".join(card_label(c) for c in event.cards))
        taken = count("cards.count", event.taken)
        if event.cards:
            return t("tui.log.take-pile-top", count=taken, card=card_label(event.cards[-1]))
        return t("tui.log.take-pile-count", count=taken)
    return action_text(a)


@dataclass(frozen=True)
class Spot:
    """Where an item landed: its line and columns ``x0 <= x < x1``."""

    line: int
    x0: int
    x1: int
    key: int


@dataclass
class Flow:
    """Lines of text built from items that wrap at a width, remembering each item's spot."""

    width: int
    lines: list[Text]
    spots: list[Spot]

    def __init__(self, width: int) -> None:
        self.width = max(width, 8)
        self.lines = []
        self.spots = []

    def newline(self, text: Text | str = "") -> None:
        """Start a new line holding ``text``."""
        self.lines.append(text if isinstance(text, Text) else Text(text))

    def item(self, text: Text, key: int, gap: int = 1, indent: int = 0) -> None:
        """Add an item on the current line after ``gap`` spaces.

        When it does not fit, it goes on a new line indented by ``indent``.
        """
        if not self.lines:
            self.newline()
        line = self.lines[-1]
        start = line.cell_len + (gap if line.cell_len else 0)
        if line.cell_len and start + text.cell_len > self.width:
            self.newline(" " * indent)
            line = self.lines[-1]
            start = line.cell_len
        line.append(" " * (start - line.cell_len))
        line.append_text(text)
        self.spots.append(Spot(len(self.lines) - 1, start, start + text.cell_len, key))

    def key_at(self, x: int, y: int, whole_line: bool = False) -> int | None:
        """The key of the item at column ``x`` of line ``y`` (any there if ``whole_line``)."""
        for spot in self.spots:
            if spot.line == y and (whole_line or spot.x0 <= x < spot.x1):
                return spot.key
        return None

    def spot_of(self, key: int) -> Spot | None:
        """Where the item with ``key`` landed."""
        return next((s for s in self.spots if s.key == key), None)

    def text(self) -> Text:
        """All the lines as one text."""
        return Text("\n").join(self.lines) if self.lines else Text("")


class Wrapped:
    """Text wrapped to the width it is drawn at, cut to ``lines`` lines with ``…`` at the end.

    A Rich renderable: a widget of ``height: auto`` that shows it is as tall as the text
    needs, up to ``lines``.

    >>> from rich.console import Console
    >>> console = Console(width=20, color_system=None)
    >>> with console.capture() as shown:
    ...     console.print(Wrapped(Text("refused: unknown card '1C': a card is a rank"), 2))
    >>> print(shown.get())
    refused: unknown
    card '1C': a card i…
    <BLANKLINE>
    """

    def __init__(self, text: Text, lines: int) -> None:
        self.text = text
        self.lines = max(1, lines)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        """The wrapped lines, the last one ending in ``…`` when the text is cut."""
        width = max(1, options.max_width)
        lines = list(self.text.wrap(console, width, overflow="fold"))
        for line in lines:
            line.rstrip()
        if len(lines) > self.lines:
            lines = lines[: self.lines]
            last = lines[-1]
            last.truncate(width - 1)
            last.append("…")
        out = Text("\n").join(lines)
        out.no_wrap = True
        yield out
