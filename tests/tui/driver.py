"""Drive the play app like a person: key presses and clicks on the cards and melds."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import OptionList

from buraco import Game, deck_for, make_rules
from buraco.actions import Action, Add, Discard, Draw, Meld, TakePile, TurnUp
from buraco.bots import make_bot
from buraco.cards import Card
from buraco.rules import Rules
from buraco.tui.app import PlayApp
from buraco.tui.choice import ChoiceScreen
from buraco.tui.controller import Controller, bot_names
from buraco.tui.hand import HandView
from buraco.tui.table import PILE, PileView, TableView

Pilot_ = Pilot[Any]


async def settle(pilot: Pilot_, app: PlayApp, rounds: int = 2000) -> None:
    """Wait until the bots have stopped (the human's turn, or the hand is over)."""
    for _ in range(rounds):
        await pilot.pause()
        if not app.bots_running:
            return
    raise AssertionError("the bots did not stop")


async def footer_keys(pilot: Pilot_, app: App[Any], rounds: int = 2000) -> dict[str, Any]:
    """The footer's key buttons by key, once the footer has composed them.

    The footer builds its buttons after the bindings change, on a later refresh than the one
    that shows the screen; a busy machine makes that refresh late, so this waits for it.
    """
    for _ in range(rounds):
        keys = {getattr(k, "key", ""): k for k in app.screen.query("FooterKey")}
        if keys and all(k.is_mounted and k.region.width for k in keys.values()):
            return keys
        await pilot.pause()
    raise AssertionError("the footer never showed its keys")


KEY_NAMES = {":": "colon", " ": "space", "-": "minus", "+": "plus", "?": "question_mark"}


async def keys_at_once(pilot: Pilot_, app: App[Any], text: str) -> None:
    """Press the keys of ``text`` as a fast typist or a paste does: all are queued before the
    first is handled (``pilot.press`` waits for each key to be handled)."""
    for ch in text:
        app.post_message(events.Key(KEY_NAMES.get(ch, ch), ch))
    await pilot.pause()
    await pilot.pause()


def _indexes(hand: HandView, cards: Sequence[Card]) -> list[int]:
    free = list(range(len(hand.cards)))
    out = []
    for c in cards:
        i = next(i for i in free if hand.cards[i] == c)
        free.remove(i)
        out.append(i)
    return out


async def click_cards(pilot: Pilot_, app: PlayApp, cards: Sequence[Card]) -> None:
    """Select exactly ``cards`` by clicking them."""
    hand = app.hand
    if hand.selected:
        await pilot.press("escape")
    for i in _indexes(hand, cards):
        assert await pilot.click(HandView, offset=hand.card_offset(i))
    assert sorted(hand.selected_cards()) == sorted(cards)


async def choose(pilot: Pilot_, app: PlayApp, index: int) -> None:
    """Pick option ``index`` in the open choice dialog with the arrow keys and Enter."""
    await pilot.pause()
    assert isinstance(app.screen, ChoiceScreen)
    options = app.screen.query_one(OptionList)
    current = options.highlighted or 0
    key = "down" if index > current else "up"
    for _ in range(abs(index - current)):
        await pilot.press(key)
    await pilot.press("enter")
    await pilot.pause()


async def perform(pilot: Pilot_, app: PlayApp, action: Action, mouse: bool = False) -> None:
    """Do ``action`` through the screen: keys, clicks and dialogs."""
    c = app.controller
    if isinstance(action, Draw):
        await pilot.press("d")
    elif isinstance(action, TakePile):
        if mouse:
            pile = app.query_one(PileView)
            assert await pilot.click(PileView, offset=pile.item_offset(PILE))
        else:
            await pilot.press("t")
    elif isinstance(action, TurnUp):
        await pilot.press("u")
    elif isinstance(action, Discard):
        await click_cards(pilot, app, [action.card])
        await pilot.press("x")
    elif isinstance(action, Meld):
        choices = c.meld_choices(action.cards)
        await click_cards(pilot, app, action.cards)
        await pilot.press("m")
        if len(choices) > 1:
            await choose(pilot, app, choices.index(action))
    elif isinstance(action, Add):
        await click_cards(pilot, app, [action.card])
        if mouse:
            table = app.query_one(TableView)
            table.scroll_visible()
            await pilot.pause()
            assert await pilot.click(TableView, offset=table.meld_offset(action.meld))
        else:
            view = c.view()
            melds = len(view.melds[view.side])
            fits = [i for i in range(melds) if not c.plan_adds(i, [action.card]).refusal]
            await pilot.press("a")
            if melds > 1 and len(fits) > 1:  # the dialog lists the melds the card fits
                await choose(pilot, app, fits.index(action.meld))
        plan = c.plan_adds(action.meld, [action.card])
        if plan.ask:
            await choose(pilot, app, [a.place for a in plan.ask].index(action.place))
    else:
        await pilot.press("colon")
        await pilot.press(*str(action))
        await pilot.press("enter")


def stacked(
    tmp: Path,
    preset: str = "aberto",
    players: int = 2,
    *,
    hands: Sequence[str] = (),
    stock: str = "",
    bots: str = "greedy",
    **options: Any,
) -> Controller:
    """A controller whose first hand deals the named cards; the human (seat 0) plays first."""
    rules = make_rules(preset, players=players, **options)
    dealer = players - 1
    deck = deck_for(rules, dealer=dealer, hands=hands, stock=stock)
    game = Game(rules, stacked=[deck], first_dealer=dealer, seed=0, names=bot_names(players))
    return Controller(game, [bots], save_path=tmp / "match.json")


def short_rules(**options: Any) -> Rules:
    """Two-player aberto with one pack and big mortos: a stock of 5 cards, short hands."""
    return make_rules(
        "aberto", players=2, decks=1, pot_sizes="13,13", pot_to_stock=False, **options
    )


def play_hand_directly(c: Controller, seed: int = 1) -> None:
    """Play the current hand to its end without the screen (the human's moves by greedy)."""
    me = make_bot("greedy", seed=seed)
    while not c.hand_over:
        turn = c.bot_turn()
        if turn is None:
            assert c.play(me.choose(c.view(), c.view().legal)).ok
        else:
            seat, bot, view, legal = turn
            c.apply_bot(seat, bot.choose(view, legal))


def screen_text(app: App[Any]) -> str:
    """The screen's text (from an SVG screenshot)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


async def screen_showing(
    pilot: Pilot_, app: App[Any], words: Sequence[str], rounds: int = 200
) -> str:
    """The screen's text once it shows every one of ``words`` (the footer redraws its keys a
    moment after the bots stop); after ``rounds`` pauses, the text as it is, for the caller's
    assertions to name what is missing."""
    text = screen_text(app)
    for _ in range(rounds):
        if all(word in text for word in words):
            break
        await pilot.pause(0.01)
        text = screen_text(app)
    return text
