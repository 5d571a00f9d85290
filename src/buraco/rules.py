"""Rule options and the five presets.

Every rule the sources disagree on is an option of :class:`Rules`; a preset is a
named set of option values (``aberto``, ``fechado``, ``us``, ``netcartas``,
``italiano``). Start from a preset and override any option:

>>> r = make_rules("aberto", players=4, target=2000)
>>> r.preset, r.players, r.target, r.vulnerable_threshold
('aberto', 4, 2000, 1000)
>>> make_rules("aberto", players=3)
Traceback (most recent call last):
...
buraco.errors.RulesError: preset 'aberto' is played by 2 or 4 players, not 3
>>> make_rules("fechado", pile_open="maybe")
Traceback (most recent call last):
...
buraco.errors.RulesError: option pile_open: 'maybe' is not a boolean (use true or false)
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from buraco.cards import JOKER, N_CODES, RANKS, TWO
from buraco.errors import RulesError, shown
from buraco.refusals import Refusal

Aces = Literal["both", "low", "high"]
GoOutCanastra = Literal["clean", "any"]
GoOutDiscard = Literal["required", "optional"]
UnplayedPot = Literal["penalty", "cards"]
StockEnd = Literal["finish-turn", "at-once"]
CutBonus = Literal["none", "pots", "deal"]
Cutter = Literal["previous", "first-player"]
SemiCleanWild = Literal["any", "deuce"]


@dataclass(frozen=True)
class Rules:
    """A complete, validated set of rule options. Build one with :func:`make_rules`."""

    preset: str
    players: int
    sides: int
    decks: int = 2
    jokers_per_deck: int = 2
    joker_value: int = 20
    two_value: int = 10
    ace_value: int = 15
    high_value: int = 10
    low_value: int = 5
    hand_size: int = 11
    pot_sizes: tuple[int, ...] = (11, 11)
    set_ranks: str = ""
    pile_open: bool = True
    upcard: bool = False
    first_card_choice: bool = True
    pile_top_meld: bool = False
    keep_taken_top: bool = True
    aces: Aces = "both"
    ace_to_ace: bool = True
    one_set_per_rank: bool = False
    wild_moves: bool = False
    clean_bonus: int = 200
    dirty_bonus: int = 100
    semi_clean_bonus: int = 0
    semi_clean_wild: SemiCleanWild = "any"
    clean_13_bonus: int = 0
    clean_14_bonus: int = 0
    twos_canastra_bonus: int = 0
    clean_eight_set_bonus: int = 0
    going_out_bonus: int = 100
    go_out_first_turn: bool = True
    go_out_canastra: GoOutCanastra = "clean"
    go_out_discard: GoOutDiscard = "required"
    go_out_wild_discard: bool = True
    pot_penalty: int = 100
    pot_penalty_if_none_taken: bool = True
    unplayed_pot: UnplayedPot = "penalty"
    unused_pot_penalty: bool = False
    hidden_indirect_pot: bool = False
    opening_minimum: int = 0
    vulnerable_minimum: int = 0
    vulnerable_at: int = 0
    failed_opening_penalty: int = 0
    pot_to_stock: bool = True
    stock_end: StockEnd = "finish-turn"
    stock_reserve: int = 0
    pile_streak_limit: int = 12
    target: int = 3000
    match_hands: int = 0
    round_scores: bool = False
    cutter: Cutter = "previous"
    cut_bonus: CutBonus = "none"
    cut_bonus_points: int = 100
    cut_spread: int = 3
    cutter_keeps_wild: bool = False

    values: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Point value of every card code (derived)."""
    set_rank_mask: int = field(init=False, repr=False, compare=False)
    """Bit ``r`` set when sets of rank index ``r`` are allowed (derived)."""

    def __post_init__(self) -> None:
        values = []
        for code in range(N_CODES):
            if code == JOKER:
                values.append(self.joker_value)
                continue
            rank = code % 13
            if rank == 0:
                values.append(self.ace_value)
            elif rank == TWO:
                values.append(self.two_value)
            elif rank >= 7:  # 8 9 T J Q K
                values.append(self.high_value)
            else:
                values.append(self.low_value)
        object.__setattr__(self, "values", tuple(values))
        mask = 0
        for ch in self.set_ranks:
            mask |= 1 << RANKS.index(ch)
        object.__setattr__(self, "set_rank_mask", mask)

    # ----- derived facts -------------------------------------------------------------
    @property
    def deck_size(self) -> int:
        """Number of cards in the pack."""
        return self.decks * (52 + self.jokers_per_deck)

    @property
    def vulnerable_threshold(self) -> int:
        """Match total from which a side is vulnerable (half the target unless set)."""
        return self.vulnerable_at or self.target // 2

    @property
    def partnerships(self) -> bool:
        """Whether sides have more than one player."""
        return self.players > self.sides

    def cutter_of(self, dealer: int) -> int:
        """The seat that cuts when ``dealer`` deals."""
        step = 1 if self.cutter == "first-player" else -1
        return (dealer + step) % self.players

    def side_of(self, seat: int) -> int:
        """Side (team) of a seat: seats alternate around the table."""
        return seat % self.sides

    def seats_of(self, side: int) -> tuple[int, ...]:
        """Seats of a side, in turn order."""
        return tuple(range(side, self.players, self.sides))

    def options(self) -> dict[str, Any]:
        """Every option with its value (JSON-friendly; a fresh dict)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init or f.name == "preset":
                continue
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset's defaults for this player count."""
        base = make_rules(self.preset, players=self.players).options()
        return {k: v for k, v in self.options().items() if base.get(k) != v and k != "players"}

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed, validated like :func:`make_rules`.

        A new ``players`` count starts again from the preset's defaults for that count,
        keeping the options this copy changed.
        """
        players = changes.pop("players", self.players)
        if players != self.players:
            return make_rules(self.preset, players=players, **{**self.overrides(), **changes})
        opts = self.options()
        opts.pop("players")
        opts.update(changes)
        return _build(self.preset, players, opts)


# ----- option documentation ------------------------------------------------------------

OPTION_TOPICS: dict[str, str] = {
    **dict.fromkeys(("sides", "decks", "jokers_per_deck", "hand_size", "pot_sizes"), "deal"),
    **dict.fromkeys(("joker_value", "two_value", "ace_value", "high_value", "low_value"), "values"),
    **dict.fromkeys(("set_ranks", "aces", "ace_to_ace", "one_set_per_rank", "wild_moves"), "melds"),
    **dict.fromkeys(
        (
            "pile_open",
            "upcard",
            "first_card_choice",
            "pile_top_meld",
            "keep_taken_top",
            "pile_streak_limit",
        ),
        "pile",
    ),
    **dict.fromkeys(
        (
            "clean_bonus",
            "dirty_bonus",
            "semi_clean_bonus",
            "semi_clean_wild",
            "clean_13_bonus",
            "clean_14_bonus",
            "twos_canastra_bonus",
            "clean_eight_set_bonus",
        ),
        "canastras",
    ),
    **dict.fromkeys(
        (
            "going_out_bonus",
            "go_out_first_turn",
            "go_out_canastra",
            "go_out_discard",
            "go_out_wild_discard",
        ),
        "going-out",
    ),
    **dict.fromkeys(
        (
            "pot_penalty",
            "pot_penalty_if_none_taken",
            "unplayed_pot",
            "unused_pot_penalty",
            "hidden_indirect_pot",
            "pot_to_stock",
        ),
        "pot",
    ),
    **dict.fromkeys(
        ("opening_minimum", "vulnerable_minimum", "vulnerable_at", "failed_opening_penalty"),
        "opening",
    ),
    **dict.fromkeys(("stock_end", "stock_reserve"), "stock"),
    **dict.fromkeys(("target", "match_hands", "round_scores"), "match"),
    **dict.fromkeys(
        ("cutter", "cut_bonus", "cut_bonus_points", "cut_spread", "cutter_keeps_wild"), "cut"
    ),
}
"""The topic of every option but ``players``, to group them where people choose them."""


OPTION_HELP: dict[str, str] = {
    "players": "number of players (2, 3, 4 or 6 as the preset allows)",
    "sides": "number of sides: 2 or 4 players make 2 sides, 3 players 3, 6 players 3 teams or 2",
    "decks": "standard 52-card packs shuffled together",
    "jokers_per_deck": "jokers added per pack (0 plays without jokers)",
    "joker_value": "points of a joker",
    "two_value": "points of a 2",
    "ace_value": "points of an ace",
    "high_value": "points of an 8, 9, 10, J, Q or K",
    "low_value": "points of a 3, 4, 5, 6 or 7",
    "hand_size": "cards dealt to each player",
    "pot_sizes": "sizes of the mortos (pots, pozzetti) in the order they are taken",
    "set_ranks": "ranks that may form sets (melds of equal rank), e.g. JQKA; empty for none",
    "pile_open": "discard pile open (every card visible) or closed (top card only)",
    "upcard": "one card turned up to start the discard pile at the deal",
    "first_card_choice": "first player keeps the first stock card or turns it up and draws again",
    "pile_top_meld": "the pile may be taken only to meld its top card at once",
    "keep_taken_top": "the pile's top card may not be discarded in the turn it was taken",
    "aces": "aces in runs: both (A-2-3 and Q-K-A), low only, or high only",
    "ace_to_ace": "a 14-card run may have an ace at both ends (A-2-...-K-A)",
    "one_set_per_rank": "a side may have only one set of each rank",
    "wild_moves": "a wild may move to the other end of its run; a wild 2 to its natural place",
    "clean_bonus": "bonus for a clean canastra (7+ cards, no wild)",
    "dirty_bonus": "bonus for a dirty canastra (7+ cards with a wild)",
    "semi_clean_bonus": "bonus for a run canastra of 7 natural cards in a row plus a wild (0: off)",
    "semi_clean_wild": "which wild makes a semi-clean canastra: any, or a deuce only",
    "clean_13_bonus": "bonus for a clean 13-card run (0: off)",
    "clean_14_bonus": "bonus for a clean 14-card run, ace to ace (0: off)",
    "twos_canastra_bonus": "bonus for a canastra of 2s (0: off)",
    "clean_eight_set_bonus": "bonus for a clean set of 8 cards of a rank (0: off)",
    "going_out_bonus": "bonus for the side that goes out",
    "go_out_first_turn": "a player may go out in their first turn of the hand",
    "go_out_canastra": "canastra a side needs to go out: clean, or any",
    "go_out_discard": "going out needs a final discard (required) or may end by melding (optional)",
    "go_out_wild_discard": "the final discard when going out may be a wild card",
    "pot_penalty": "penalty for a side that never took its morto",
    "pot_penalty_if_none_taken": "the morto penalty applies even when no side took a morto",
    "unplayed_pot": "a morto taken by discarding and never played costs the penalty or its cards",
    "unused_pot_penalty": "a side that took its morto and put no card on the table after taking "
    "it loses pot_penalty, on top of the cards left in hand",
    "hidden_indirect_pot": "a morto taken by discarding stays unseen until the partner has played",
    "opening_minimum": "points the first melds of a side must reach in each hand",
    "vulnerable_minimum": "points the first melds must reach once the side is vulnerable",
    "vulnerable_at": "match total that makes a side vulnerable (0: half the target)",
    "failed_opening_penalty": "points added to the minimum after an opening falls short",
    "pot_to_stock": "when the stock runs out, an untaken morto becomes the stock",
    "stock_end": "when the stock is exhausted the hand ends after that turn, or at once",
    "stock_reserve": "the stock counts as exhausted when this many cards are left",
    "pile_streak_limit": "after this many turns in a row began by taking the pile and put no "
    "card on the table, the next player must draw from the stock, so that every hand ends "
    "(0: no limit, only with pile_top_meld)",
    "target": "match total that ends the match",
    "match_hands": "play this many hands instead of to the target (0: to the target)",
    "round_scores": "round each hand's score up to a multiple of 10",
    "cutter": "who cuts: the seat before the dealer (previous) or the first player (the seat "
    "after the dealer)",
    "cut_bonus": "cut bonus: none; pots (exact cut of the mortos' cards, +points to the "
    "cutter's side); deal (exactly the hands' cards left to the dealer: +points to the "
    "non-dealing side, fewer: -points to the cutter's side)",
    "cut_bonus_points": "points of the cut bonus or penalty",
    "cut_spread": "how far a cut may miss its aim, in cards either way",
    "cutter_keeps_wild": "the cutter keeps a wild card seen at the cut as a card of the hand",
}


# ----- presets -------------------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    """A named rule system: its source, player counts and option values."""

    name: str
    title: str
    source: str
    players: tuple[int, ...]
    options: dict[str, Any]
    by_players: dict[int, dict[str, Any]] = field(default_factory=dict)


PRESETS: dict[str, Preset] = {
    "aberto": Preset(
        name="aberto",
        title="Buraco Aberto (Brazil, open pile)",
        source="001 main text",
        players=(2, 4),
        options={
            "set_ranks": "",
            "clean_13_bonus": 500,
            "clean_14_bonus": 1000,
            "pot_penalty_if_none_taken": False,
            "vulnerable_minimum": 75,
            "cutter": "first-player",
        },
    ),
    "fechado": Preset(
        name="fechado",
        title="Buraco Fechado (Brazil, closed pile)",
        source="001 §Buraco Fechado",
        players=(2, 4),
        options={
            "set_ranks": RANKS,
            "pile_open": False,
            "pile_top_meld": True,
            "clean_13_bonus": 500,
            "clean_14_bonus": 1000,
            "twos_canastra_bonus": 1000,
            "go_out_canastra": "any",
            "pot_penalty_if_none_taken": False,
            "vulnerable_minimum": 75,
            "cutter": "first-player",
        },
    ),
    "us": Preset(
        name="us",
        title="Buraco as played in the United States",
        source="000/002/003 US rules",
        players=(2, 4, 6),
        options={
            "joker_value": 30,
            "two_value": 20,
            "set_ranks": "JQKA",
            "wild_moves": True,
            "hidden_indirect_pot": True,
            "go_out_discard": "optional",
            "opening_minimum": 50,
            "vulnerable_minimum": 75,
            "vulnerable_at": 1500,
            "failed_opening_penalty": 15,
            "target": 2000,
            "cut_bonus": "pots",
            "semi_clean_wild": "deuce",
        },
        by_players={6: {"decks": 3, "pot_sizes": (11, 11, 11), "sides": 3}},
    ),
    "netcartas": Preset(
        name="netcartas",
        title="Buraco for 2 or 4 players with 104 cards (NetCartas)",
        source="004",
        players=(2, 4),
        options={
            "jokers_per_deck": 0,
            "set_ranks": "A3456789TJQK",
            "first_card_choice": False,
            "clean_13_bonus": 500,
            "clean_14_bonus": 1000,
            "go_out_discard": "optional",
            "unplayed_pot": "cards",
            "unused_pot_penalty": True,
            "pot_to_stock": False,
            "stock_end": "at-once",
        },
    ),
    "italiano": Preset(
        name="italiano",
        title="Burraco (Italy)",
        source="000 second text + common Italian practice",
        players=(2, 3, 4),
        options={
            "joker_value": 30,
            "two_value": 20,
            "set_ranks": "A3456789TJQK",
            "upcard": True,
            "first_card_choice": False,
            "ace_to_ace": False,
            "one_set_per_rank": True,
            "go_out_first_turn": False,
            "go_out_canastra": "any",
            "go_out_wild_discard": False,
            "pot_to_stock": False,
            "stock_reserve": 2,
            "target": 2005,
        },
        by_players={3: {"pot_sizes": (18, 11), "sides": 3}},
    ),
}
"""The five presets, by name."""

_DEFAULT_SIDES = {2: 2, 3: 3, 4: 2, 6: 3}
_ALLOWED_SIDES = {2: (2,), 3: (3,), 4: (2,), 6: (2, 3)}
_FIELDS = {f.name: f for f in dataclasses.fields(Rules) if f.init and f.name != "preset"}
_HINTS = typing.get_type_hints(Rules)


# The largest value of each whole-number option: what the game can use (more would only
# eat memory or never end). Card points, bonuses and penalties up to MAX_POINTS.
MAX_POINTS = 10_000
_MAX_INT: dict[str, int] = {
    "sides": 3,
    "decks": 4,
    "jokers_per_deck": 4,
    "hand_size": 30,
    "opening_minimum": 1000,
    "vulnerable_minimum": 1000,
    "vulnerable_at": 100_000,
    "failed_opening_penalty": 1000,
    "stock_reserve": 100,
    "pile_streak_limit": 1000,
    "target": 100_000,
    "match_hands": 1000,
    "cut_spread": 20,
}
_MIN_INT: dict[str, int] = {"sides": 2, "decks": 1, "hand_size": 2, "target": 1}


def option_bounds(name: str) -> tuple[int, int]:
    """The smallest and largest value of a whole-number option.

    >>> option_bounds("decks"), option_bounds("clean_bonus")
    ((1, 4), (0, 10000))
    """
    return _MIN_INT.get(name, 0), _MAX_INT.get(name, MAX_POINTS)


_MAX_POTS = 4
"""The most mortos a pack may be split into."""
_MAX_POT = 30
"""The largest morto, in cards."""


def option_names() -> list[str]:
    """Names of every rule option."""
    return list(_FIELDS)


def option_choices(name: str) -> tuple[str, ...] | None:
    """The values an option of a few named choices takes, or None for other options.

    >>> option_choices("aces"), option_choices("decks")
    (('both', 'low', 'high'), None)
    """
    hint = _HINTS[name]
    if typing.get_origin(hint) is Literal:
        return tuple(str(a) for a in get_args(hint))
    return None


def option_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one option's value as JSON carries it (see :func:`coerce_option`).

    Each value the schema admits is one :func:`coerce_option` takes; whether the options
    of a table agree with one another is the rules' to check (:func:`make_rules`).

    >>> option_schema("decks"), option_schema("clean_bonus")["maximum"]
    ({'type': 'integer', 'minimum': 1, 'maximum': 4}, 10000)
    >>> option_schema("pot_sizes")["items"], option_schema("set_ranks")["maxLength"]
    ({'type': 'integer', 'minimum': 2, 'maximum': 30}, 13)
    """
    hint = _HINTS[name]
    choices = option_choices(name)
    if choices is not None:
        return {"type": "string", "enum": list(choices)}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        low, high = option_bounds(name)
        return {"type": "integer", "minimum": low, "maximum": high}
    if name == "pot_sizes":
        item = {"type": "integer", "minimum": 2, "maximum": _MAX_POT}
        return {"type": "array", "items": item, "minItems": 1, "maxItems": _MAX_POTS}
    # set_ranks: rank letters, each at most once
    return {"type": "string", "pattern": rf"^(?!.*(.).*\1)[{RANKS}]*$", "maxLength": len(RANKS)}


def coerce_option(name: str, value: Any) -> Any:
    """Check and convert one option value (strings from a command line are accepted)."""
    if not isinstance(name, str) or name.replace("-", "_") not in _FIELDS:
        raise RulesError(Refusal("option.unknown", {"given": shown(name), "options": [*_FIELDS]}))
    name = name.replace("-", "_")
    hint = _HINTS[name]
    choices = option_choices(name)
    if choices is not None:
        if not isinstance(value, str) or value not in choices:
            raise RulesError(
                Refusal(
                    "option.choice",
                    {"option": name, "value": shown(value), "values": list(choices)},
                )
            )
        return value
    if hint is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RulesError(Refusal("option.boolean", {"option": name, "value": shown(value)}))
    if hint is int:
        number = whole_number(value)
        if number is None:
            raise RulesError(Refusal("option.whole", {"option": name, "value": shown(value)}))
        low, high = option_bounds(name)
        if not low <= number <= high:
            raise RulesError(
                Refusal(
                    "option.range",
                    {"option": name, "value": shown(number), "low": low, "high": high},
                )
            )
        return number
    if name == "pot_sizes":
        if isinstance(value, str) and len(value) <= 100:
            items: Any = value.replace(",", " ").split()
        else:
            items = value
        numbers: list[int | None] = [None]
        if isinstance(items, list | tuple) and len(items) <= _MAX_POTS:
            numbers = [whole_number(x) for x in items]
        if None in numbers:
            raise RulesError(
                Refusal("option.pot-sizes-list", {"value": shown(value), "most": _MAX_POTS})
            )
        sizes = tuple(n for n in numbers if n is not None)
        if not sizes or min(sizes) < 2 or max(sizes) > _MAX_POT:
            raise RulesError(Refusal("option.pot-sizes", {"most": _MAX_POTS, "largest": _MAX_POT}))
        return sizes
    if name == "set_ranks":
        if not isinstance(value, str) or len(value) > 40:
            raise RulesError(Refusal("option.set-ranks", {"value": shown(value), "ranks": RANKS}))
        text = value.upper().replace("10", "T").replace(",", "").replace(" ", "")
        if text in ("NONE", "-"):
            text = ""
        if text == "ALL":
            text = RANKS
        bad = [ch for ch in text if ch not in RANKS]
        if bad or len(set(text)) != len(text):
            raise RulesError(
                Refusal("option.set-ranks-distinct", {"value": shown(value), "ranks": RANKS})
            )
        return "".join(r for r in RANKS if r in text)
    raise AssertionError(f"unhandled option type for {name}")  # pragma: no cover


def whole_number(value: Any) -> int | None:
    """``value`` as an int when it is a whole number (an int, an integral float, or digits)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str):
        text = value.strip()
        digits = text.removeprefix("-")
        if digits.isascii() and digits.isdigit() and len(digits) <= 18:
            return int(text)
    return None


def rules_from_json(preset: object, players: object, options: object) -> Rules:
    """Rules from the JSON of a record: each option value must already have its type.

    Unlike :func:`make_rules`, which also takes command-line strings (``"true"``,
    ``"2000"``), a boolean option must be ``true`` or ``false``, a whole-number
    option a JSON integer, ``pot_sizes`` a list of integers, the others strings.

    >>> rules_from_json("aberto", 2, {"pile_open": 1})
    Traceback (most recent call last):
    ...
    buraco.errors.RulesError: option pile_open: 1 is not true or false
    """
    if not isinstance(preset, str):
        raise RulesError(Refusal("preset.name", {"presets": [*PRESETS], "given": shown(preset)}))
    if type(players) is not int:
        raise RulesError(Refusal("preset.players-whole", {"given": shown(players)}))
    if not isinstance(options, dict):
        raise RulesError(Refusal("preset.options", {"given": shown(options)}))
    for name, value in options.items():
        if name not in _FIELDS or name == "players":
            allowed = [n for n in _FIELDS if n != "players"]
            raise RulesError(Refusal("option.unknown", {"given": shown(name), "options": allowed}))
        hint = _HINTS[name]
        if hint is bool:
            ok = type(value) is bool
            wanted = "boolean"
        elif hint is int:
            ok = type(value) is int
            wanted = "whole"
        elif name == "pot_sizes":
            ok = isinstance(value, list) and all(type(x) is int for x in value)
            wanted = "list"
        else:
            ok = isinstance(value, str)
            wanted = "string"
        if not ok:
            raise RulesError(
                Refusal(f"option.json-{wanted}", {"option": name, "value": shown(value)})
            )
    return make_rules(preset, players, **options)


def preset_defaults(preset: str, players: int | None = None) -> tuple[int, dict[str, Any]]:
    """Player count and option values of a preset before user overrides."""
    spec = PRESETS.get(preset) if isinstance(preset, str) else None
    if spec is None:
        raise RulesError(Refusal("preset.unknown", {"given": shown(preset), "presets": [*PRESETS]}))
    if players is None:
        players = 4 if 4 in spec.players else spec.players[0]
    if type(players) is not int:
        players = coerce_option("players", players)
    if players not in spec.players:
        counts = [str(p) for p in spec.players]
        raise RulesError(
            Refusal("preset.players", {"preset": preset, "counts": counts, "players": players})
        )
    opts: dict[str, Any] = {"sides": _DEFAULT_SIDES[players]}
    opts.update(spec.options)
    opts.update(spec.by_players.get(players, {}))
    if "pot_sizes" not in opts:
        opts["pot_sizes"] = (11, 11)
    return players, opts


def make_rules(preset: str = "aberto", /, players: int | None = None, **overrides: Any) -> Rules:
    """Rules of a preset for a player count, with any options overridden.

    Raises :class:`RulesError` for an unknown preset or option, a bad value, or
    a contradictory combination, naming it and what is allowed.
    """
    players, opts = preset_defaults(preset, players)
    for key, value in overrides.items():
        opts[key.replace("-", "_")] = value
    return _build(preset, players, opts)


def _build(preset: str, players: int, opts: dict[str, Any]) -> Rules:
    clean: dict[str, Any] = {}
    for key, value in opts.items():
        name = key.replace("-", "_")
        if name == "players":
            continue
        clean[name] = coerce_option(name, value)
    rules = Rules(preset=preset, players=players, **clean)
    _check(rules)
    return rules


def _check(r: Rules) -> None:
    if r.sides not in _ALLOWED_SIDES.get(r.players, ()):
        counts = [str(s) for s in _ALLOWED_SIDES.get(r.players, ())]
        raise RulesError(
            Refusal("options.sides", {"sides": r.sides, "players": r.players, "counts": counts})
        )
    if r.decks < 1:
        raise RulesError(Refusal("options.decks"))
    if r.hand_size < 2:
        raise RulesError(Refusal("options.hand-size"))
    if r.target < 1:
        raise RulesError(Refusal("options.target"))
    if r.upcard and r.first_card_choice:
        raise RulesError(Refusal("options.upcard"))
    needed = r.players * r.hand_size + sum(r.pot_sizes) + int(r.upcard) + 1 + r.stock_reserve
    if needed > r.deck_size:
        raise RulesError(Refusal("options.pack", {"size": r.deck_size, "needed": needed}))
    if r.unused_pot_penalty and r.unplayed_pot == "penalty":
        raise RulesError(Refusal("options.pot-penalty"))
    if r.sides > 2 and len(r.pot_sizes) < 2:
        raise RulesError(Refusal("options.pots"))
    if r.pile_streak_limit == 0 and not r.pile_top_meld:
        # RULINGS 9: every hand ends. Each turn draws from the stock or the mortos (finite), puts
        # a card on the table for good (finite), or takes the pile and puts nothing down; only
        # pile_top_meld (every take melds its top card) or the streak limit bounds the last kind.
        high = option_bounds("pile_streak_limit")[1]
        raise RulesError(Refusal("options.pile-streak", {"high": high}))


def describe(rules: Rules) -> list[tuple[str, str, str]]:
    """Rows of (option, value, meaning) for display."""
    rows = []
    for name, value in rules.options().items():
        shown = ",".join(str(v) for v in value) if isinstance(value, list) else str(value)
        if name == "set_ranks" and not value:
            shown = "(none)"
        rows.append((name, shown, OPTION_HELP[name]))
    return rows
