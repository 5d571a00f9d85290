"""Why the rules refuse an action, as data: a code and its parameters.

A :class:`Refusal` is what :meth:`buraco.game.Game.refusal` returns and what an
:class:`~buraco.errors.IllegalAction` carries. Its ``code`` names the case
(``"pile-top.unmeldable"``); the part before the first dot is the broken rule's
identifier (``"pile-top"``, the ``rule`` of :class:`~buraco.errors.IllegalAction`,
listed in ``docs/notation.md``). Its ``params`` hold the case's values, never words:
cards as notation codes (``"KH"``, ``"JK"``), lists of cards as lists of codes, meld
numbers counted from 1, counts and points as integers, a preset or an end of a run by
its identifier. The engine words a refusal in English (:data:`ENGLISH`, used by the
library and the terminal); another front end words the same code and parameters from
its own catalogs, in its players' language.

>>> r = Refusal("pile-top.unmeldable", {"top": "KH"})
>>> r.rule
'pile-top'
>>> r.message[:50]
'the pile may be taken only to meld its top card KH'
>>> r.to_dict()
{'code': 'pile-top.unmeldable', 'params': {'top': 'KH'}}
>>> Refusal("not-held.meld", {"cards": ["3H", "4H"]}).message
'you do not hold 3H 4H (for this meld)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Any

Param = int | str | list[str]
"""A parameter's value: a number, an identifier or card code, or a list of them."""

ENGLISH: dict[str, str] = {
    # whose turn, and when
    "hand-over": "the hand is over",
    "hand-not-over": "the current hand is not over yet",
    "match-over": "the match is over",
    "hand-not-over.stop": "a match is stopped only between hands",
    "not-a-match": "a single hand is not a match to stop",
    "wrong-player": "it is seat {turn}'s turn, not seat {seat}'s",
    "phase.drawn": "you have drawn already this turn; now meld, add or discard",
    "phase.draw-first": "start your turn by drawing from the stock or taking the pile",
    "first-turn.draw-first-card": "the first turn of the hand starts by drawing the first card",
    "first-turn.turn-up": "turn-up is allowed only right after drawing the first card of the hand",
    # drawing and the pile
    "stock-empty": "the stock is empty",
    "pile-empty": "the discard pile is empty: draw from the stock",
    "pile-streak": (
        "the pile was taken {streak} turns in a row with no card put on the table: draw from "
        "the stock (pile_streak_limit)"
    ),
    "pile-top.wild": (
        "the pile's top card {top} is wild: the pile may be taken only to start a new meld "
        "with it, and your hand with the pile makes none"
    ),
    "pile-top.wild-initial": (
        "the pile's top card {top} is wild: the pile may be taken only to start a new meld "
        "with it from which your side's initial meld of {need} points can be completed this "
        "turn, and your hand with the pile makes none"
    ),
    "pile-top.unmeldable": (
        "the pile may be taken only to meld its top card {top} at once (in a new meld or on "
        "one of your side's melds), and you can make no such play"
    ),
    "pile-top.unmeldable-initial": (
        "the pile may be taken only to meld its top card {top} at once (in a new meld from "
        "which your side's initial meld of {need} points can be completed this turn or on one "
        "of your side's melds), and you can make no such play"
    ),
    "pile-top.meld-now": "you took the pile: now meld its top card {top}",
    "pile-top.first": "meld the pile's top card {top} first",
    "pile-top.took-first": "you took the pile: meld its top card {top} first",
    "pile-top.must-use": "you took the pile: this meld must use its top card {top}",
    "pile-top.wild-add": "a wild top card of the pile may only start a new meld",
    "keep-taken-top": (
        "{card} was taken from the top of the pile this turn and may not be discarded"
    ),
    # the initial meld
    "initial-meld.before-discard": (
        "you took the pile owing your side's initial meld: meld {need} more points this turn "
        "before discarding"
    ),
    "initial-meld.out-of-reach": (
        "after this play your side's initial meld ({need} more points this turn) could no "
        "longer be made from your hand"
    ),
    "initial-meld.top-meld": (
        "with this meld your side's initial meld of {need} points could not be completed from "
        "your hand this turn"
    ),
    # cards and melds
    "not-held": "you do not hold {card}",
    "not-held.meld": "you do not hold {cards} (for this meld)",
    "meld-number.none": "your side has no melds yet",
    "meld-number.range": "your side has melds 1 to {count}, not {meld}",
    "meld-shape.too-few": "not a valid meld: a meld needs at least 3 cards",
    "meld-shape.run-too-long": "not a valid meld: a run has at most 14 cards (ace to ace)",
    "meld-shape.run-suits": "not a valid meld: a run needs cards of one suit (a wild aside)",
    "meld-shape.not-consecutive": (
        "not a valid meld: the cards are not consecutive in that order: write a run low to "
        "high with each wild where it stands; no wrap-around K-A-2"
    ),
    "meld-shape.not-consecutive-aces-low": (
        "not a valid meld: the cards are not consecutive in that order: write a run low to "
        "high with each wild where it stands; no wrap-around K-A-2 (aces are low only)"
    ),
    "meld-shape.not-consecutive-aces-high": (
        "not a valid meld: the cards are not consecutive in that order: write a run low to "
        "high with each wild where it stands; no wrap-around K-A-2 (aces are high only)"
    ),
    "meld-shape.one-wild": "not a valid meld: a meld may hold only one wild card",
    "meld-shape.ace-both-ends": (
        "not a valid meld: an ace may be low or high in a run, not both (ace_to_ace is off)"
    ),
    "meld-shape.no-sets": "not a valid meld: sets are not allowed in {preset}",
    "meld-shape.set-rank": (
        "not a valid meld: sets of {rank} are not allowed in {preset} (sets allowed: {allowed})"
    ),
    "meld-shape.set-naturals": "not a valid meld: a set needs at least two natural cards",
    "one-set-per-rank": (
        "your side already has a set of that rank (meld {meld}): one set per rank; add to it "
        "instead"
    ),
    "one-wild": "meld {meld} ({meld_cards}) already holds a wild card: one wild per meld",
    "wild-place": (
        "{card} would free the wild of meld {meld} ({meld_cards}), but there is no end for the "
        "wild to move to"
    ),
    "add-fit": "{card} does not fit meld {meld} ({meld_cards})",
    "placement.say": "say where {card} goes: {choices}",
    "placement.wrong": "{card} cannot go {place} on meld {meld} ({meld_cards}); try {choices}",
    "wild-moves.off": "moving a wild within a meld is not allowed in {preset} (wild_moves)",
    "wild-moves.once": "a wild moves at most once a turn",
    "wild-moves.no-wild": "meld {meld} has no wild in a run to move",
    "wild-moves.end": (
        "the wild of meld {meld} cannot move to the {end} end (only a wild at one end moves, "
        "to the other end, within A-A)"
    ),
    # emptying the hand
    "never-stranded": "not a legal play now",
    "never-stranded.initial-meld": (
        "you may not empty your hand before your side's initial meld reaches {need} points"
    ),
    "never-stranded.kept-last": (
        "this would leave only {card}, taken from the pile this turn, which may not be discarded"
    ),
    "never-stranded.no-morto-left": (
        "you may not empty your hand: no morto is left for your side to take, and going out "
        "needs a morto taken"
    ),
    "never-stranded.no-canastra": (
        "you may not empty your hand: going out needs a canastra and your side has none"
    ),
    "never-stranded.no-clean-canastra": (
        "you may not empty your hand: going out needs a clean canastra and your side has none"
    ),
    "never-stranded.first-turn": (
        "you may not go out in your first turn of the hand (go_out_first_turn is off)"
    ),
    "never-stranded.meld-last-card": (
        "you may not go out by melding your last card: going out needs a final discard"
    ),
    "never-stranded.wild-discard": "the final discard may not be a wild card ({card})",
    "never-stranded.last-card": (
        "this would leave a last card you could not discard: not a legal play now"
    ),
    "never-stranded.last-card-no-morto-left": (
        "this would leave a last card you could not discard: you may not empty your hand: no "
        "morto is left for your side to take, and going out needs a morto taken"
    ),
    "never-stranded.last-card-no-canastra": (
        "this would leave a last card you could not discard: you may not empty your hand: "
        "going out needs a canastra and your side has none"
    ),
    "never-stranded.last-card-no-clean-canastra": (
        "this would leave a last card you could not discard: you may not empty your hand: "
        "going out needs a clean canastra and your side has none"
    ),
    "never-stranded.last-card-first-turn": (
        "this would leave a last card you could not discard: you may not go out in your first "
        "turn of the hand (go_out_first_turn is off)"
    ),
    "never-stranded.last-card-wild": (
        "this would leave a last card you could not discard: the final discard may not be a "
        "wild card ({card})"
    ),
    # rule options (buraco.rules): a bad value, a preset's player count, a contradiction
    "option.unknown": "unknown option {given}; options are: {options}",
    "option.choice": "option {option}: {value} is not allowed; choose one of {values}",
    "option.boolean": "option {option}: {value} is not a boolean (use true or false)",
    "option.whole": "option {option}: {value} is not a whole number",
    "option.range": "option {option}: {value} is out of range; use {low} to {high}",
    "option.pot-sizes-list": (
        "option pot_sizes: {value} is not a list of up to {most} whole numbers (e.g. 11,11)"
    ),
    "option.pot-sizes": (
        "option pot_sizes: give one to {most} sizes of 2 to {largest} cards (a morto of one "
        "card could leave its taker with a last card that cannot be played)"
    ),
    "option.set-ranks": "option set_ranks: {value} must list ranks from {ranks}",
    "option.set-ranks-distinct": (
        "option set_ranks: {value} must list distinct ranks from {ranks} (or 'all' / 'none')"
    ),
    "option.json-boolean": "option {option}: {value} is not true or false",
    "option.json-whole": "option {option}: {value} is not a whole number",
    "option.json-list": "option {option}: {value} is not a list of whole numbers",
    "option.json-string": "option {option}: {value} is not a string",
    "preset.unknown": "unknown preset {given}; presets are: {presets}",
    "preset.name": "the preset is a name ({presets}), not {given}",
    "preset.players": "preset '{preset}' is played by {counts} players, not {players}",
    "preset.players-whole": "players is a whole number, not {given}",
    "preset.options": "options is an object of option values, not {given}",
    "options.sides": "sides={sides} does not fit {players} players; use {counts}",
    "options.decks": "decks must be at least 1",
    "options.hand-size": "hand_size must be at least 2",
    "options.target": "target must be at least 1",
    "options.upcard": (
        "first_card_choice needs a pile that starts empty, but upcard=true turns a card up at "
        "the deal; set one of them to false"
    ),
    "options.pack": (
        "the pack has {size} cards but hands, pots and stock need at least {needed}; use more "
        "decks, smaller hands or smaller pots"
    ),
    "options.pot-penalty": (
        "unused_pot_penalty=true charges the morto penalty on top of the cards left in hand, "
        "but unplayed_pot=penalty charges it instead of them; set unplayed_pot=cards or "
        "unused_pot_penalty=false"
    ),
    "options.pots": "pot_sizes: more than two sides need at least two pots",
    "options.pile-streak": (
        "pile_streak_limit=0 removes the limit on taking the pile, but with pile_top_meld=false "
        "a take may put no card on the table, so the pile could be passed back and forth "
        "forever (RULINGS 9: every hand ends); set pile_streak_limit from 1 to {high}, or 0 only "
        "with pile_top_meld=true"
    ),
    # anything else
    "illegal": "not a legal action now",
    "illegal.discard": "not a legal discard now",
    "notation": "{text}",
    # action text that does not follow the notation ({text}, {given}: what was typed, quoted)
    "notation.too-long": "action text is at most {most} characters, not {length}",
    "notation.empty": "empty action; actions are: {forms}",
    "notation.unknown": "unknown action {given}; actions are: {forms}",
    "notation.no-cards": "{text}: '{verb}' takes no cards",
    "notation.meld-cards": "{text}: name the cards to meld, e.g. 'meld 3H 4H 5H'",
    "notation.discard-one": "{text}: discard exactly one card, e.g. 'discard 9C'",
    "notation.add-form": (
        "{text}: write 'add N CARD' (N is your side's meld number), optionally followed by "
        "low, high, wild-low or wild-high"
    ),
    "notation.placement": "{text}: placement {given} is not one of low, high, wild-low, wild-high",
    "notation.move-form": "{text}: write 'move N low' or 'move N high'",
    "notation.meld-number": (
        "{text}: a meld number is a whole number from 1 to {most} (your side's melds are "
        "numbered from 1), not {given}"
    ),
    "notation.ambiguous": "{given} could go more than one way: say {choices}",
    "notation.card": (
        "unknown card {given}: a card is a rank (A 2 3 4 5 6 7 8 9 T J Q K, or 10) followed by "
        "a suit (C D H S), e.g. AS, TH, 7C; or JK for a joker"
    ),
}
"""The engine's wording of every refusal code, in English; ``{name}`` is a parameter."""

_JOINED: dict[str, str] = {"choices": " or "}
"""List parameters joined in English with their items quoted (``'a' or 'b'``)."""

_LISTED = frozenset({"options", "values", "presets"})
"""List parameters joined in English with commas (``aberto, fechado``)."""

_COUNTED = frozenset({"counts"})
"""List parameters read as alternatives (``2, 3 or 4``)."""


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses.

    >>> sorted(placeholders("{card} does not fit meld {meld} ({meld_cards})"))
    ['card', 'meld', 'meld_cards']
    """
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def english(code: str, params: Mapping[str, Param]) -> str:
    """A refusal worded in English from :data:`ENGLISH`.

    List parameters are joined with spaces (``choices``: quoted, with "or").

    >>> english("placement.say", {"card": "JK", "choices": ["add 1 JK low", "add 1 JK high"]})
    "say where JK goes: 'add 1 JK low' or 'add 1 JK high'"
    """
    values: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, list):
            if name in _JOINED:
                value = _JOINED[name].join(f"'{v}'" for v in value)
            elif name in _LISTED:
                value = ", ".join(value)
            elif name in _COUNTED:
                value = " or ".join([", ".join(value[:-1]), value[-1]] if len(value) > 2 else value)
            else:
                value = " ".join(value)
        values[name] = value
    return ENGLISH[code].format(**values)


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse an action: a code from :data:`ENGLISH` and its parameters."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)

    @property
    def rule(self) -> str:
        """The broken rule's identifier: the code up to its first dot."""
        return self.code.partition(".")[0]

    @property
    def message(self) -> str:
        """The refusal in the engine's English."""
        return english(self.code, self.params)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form: ``{"code": ..., "params": {...}}``."""
        return {"code": self.code, "params": dict(self.params)}

    def __str__(self) -> str:
        return self.message
