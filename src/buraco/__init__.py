"""Buraco (Burraco): a rules engine for every rule system, game records, bots and front ends.

>>> import buraco
>>> game = buraco.Game("fechado", players=4, seed=42)
>>> game.apply("draw")
>>> game.phase.name
'PLAY'

The modules, each one concept: :mod:`buraco.cards`, :mod:`buraco.rules`
(options and presets), :mod:`buraco.actions` (action values and notation),
:mod:`buraco.melds`, :mod:`buraco.game` (the state machine and scoring),
:mod:`buraco.views` (what a seat may know), :mod:`buraco.record` (game
records). Bots live in :mod:`buraco.bots`, the command line in :mod:`buraco.cli`.
"""

from buraco.actions import (
    Action,
    Add,
    Discard,
    Draw,
    Meld,
    MoveWild,
    Place,
    TakePile,
    TurnUp,
    parse_action,
)
from buraco.cards import Card, card_name, format_cards, parse_card, parse_cards
from buraco.dealing import deck_for
from buraco.errors import (
    BotError,
    BuracoError,
    CardError,
    IllegalAction,
    NotationError,
    RecordError,
    RulesError,
    SeatError,
    WordedError,
)
from buraco.game import Game
from buraco.record import ReplayError
from buraco.replays import replay
from buraco.rules import PRESETS, Rules, make_rules
from buraco.state import Event, HandResult, Phase, Score
from buraco.views import SeatView, seat_view

__all__ = [
    "PRESETS",
    "Action",
    "Add",
    "BotError",
    "BuracoError",
    "Card",
    "CardError",
    "Discard",
    "Draw",
    "Event",
    "Game",
    "HandResult",
    "IllegalAction",
    "Meld",
    "MoveWild",
    "NotationError",
    "Phase",
    "Place",
    "RecordError",
    "ReplayError",
    "Rules",
    "RulesError",
    "Score",
    "SeatError",
    "SeatView",
    "TakePile",
    "TurnUp",
    "WordedError",
    "card_name",
    "deck_for",
    "format_cards",
    "make_rules",
    "parse_action",
    "parse_card",
    "parse_cards",
    "replay",
    "seat_view",
]

__version__ = "0.1.0"
