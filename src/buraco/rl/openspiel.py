"""Buraco as an OpenSpiel game: importing this module registers ``python_buraco``.

>>> import pyspiel
>>> game = pyspiel.load_game("python_buraco(preset=aberto,players=4)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions() == N_ACTIONS
(True, True)

Parameters: ``preset`` (default ``aberto``), ``players`` (4), ``options`` (rule options as
``name:value`` pairs separated by ``;``, e.g. ``options=cut_spread:0;keep_taken_top:false``;
a list value such as ``pot_sizes`` with its numbers separated by spaces),
``reward_scale`` (1000), ``deal`` (``cards`` or ``seeded``) and ``deals`` (10000). Needs the
``openspiel`` extra (``pip install 'buraco[openspiel]'``).

One episode is one hand. With ``deal=cards`` (the default) chance is explicit and exact (see
:class:`BuracoState`): the dealer and the cut, then the deal card by card, then every card
taken from the stock, each a chance node whose outcomes are card codes with probabilities
from the multiset of cards it may be. With ``deal=seeded`` the whole shuffle is one chance
node: ``deals`` equally likely outcomes, outcome ``k`` the engine's hand of seed ``k``
(``Game(rules, seed=k)``: its dealer, cut and shuffled pack, so drawing is no chance node).
That is a sample of the game (``deals`` deals), for algorithms that multiply the
probabilities of a whole hand's chance outcomes, as outcome-sampling MCCFR does: card by
card they come to 1e-150 to 1e-175 (a whole shuffled pack in order), which with the players'
own sampling probabilities leaves the range of a double.
Players act with the fixed action space of :mod:`buraco.rl.encoding` (a new meld entered card by
card, then ``MELD_END``); legal actions are :class:`~buraco.rl.encoding.MeldEntry`'s mask. The
information-state and observation tensors are both
:class:`~buraco.rl.encoding.ObservationEncoder`'s vector of the seat's own view; the
information-state string is the seat's whole history as it saw it (perfect recall), the
observation string its view now. Returns at the end of the hand are those of the PettingZoo
environment: the side's hand score minus the best other side's, divided by ``reward_scale``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]

from buraco.actions import Draw, TakePile, TurnUp
from buraco.cards import CARD_NAMES, N_CODES, build_deck, counts_of, format_cards
from buraco.determinize import Determinizer
from buraco.game import Game, _tables_for
from buraco.rl.encoding import (
    DRAW,
    MELD_END,
    N_ACTIONS,
    OBS_SIZE,
    TURN_UP,
    ActionCodec,
    MeldEntry,
    check_reward_scale,
    check_rules,
    hand_rewards,
    observation_slices,
)
from buraco.rl.index_encoding import IndexEncoder
from buraco.rules import Rules, make_rules
from buraco.views import SeatView, seat_view

__all__ = [
    "GAME_NAME",
    "MAX_GAME_LENGTH",
    "BuracoGame",
    "BuracoObserver",
    "BuracoState",
    "hand_returns",
    "parse_options",
]

GAME_NAME = "python_buraco"
"""The short name the game is registered under."""

MAX_GAME_LENGTH = 100_000
"""OpenSpiel's bound on a hand's length in actions (chance included). The rules set no hard
bound (taking the pile and discarding can go on); random play stays far below it."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Buraco (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "preset": "aberto",
        "players": 4,
        "options": "",
        "reward_scale": 1000.0,
        "deal": "cards",
        "deals": 10_000,
    },
)

DEAL_MODELS = ("cards", "seeded")
"""The chance models of the ``deal`` parameter (see the module docstring)."""

MAX_DEALS = 1_000_000
"""The most seeds ``deals`` may name (each is listed as a chance outcome)."""


def parse_options(text: str) -> dict[str, str]:
    """Rule options from the ``options`` parameter: ``name:value`` pairs joined by ``;``.

    >>> parse_options("cut_spread:0;pot_sizes:11 11")
    {'cut_spread': '0', 'pot_sizes': '11 11'}
    """
    out: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"an option is name:value, not {part!r}")
        out[name.strip()] = value.strip()
    return out


def _coerce(value: str) -> Any:
    """A list option's value (numbers separated by spaces) as a list; others as given."""
    words = value.split()
    if len(words) > 1 and all(w.lstrip("-").isdigit() for w in words):
        return [int(w) for w in words]
    return value


def _utility_bound(rules: Rules, scale: float) -> float:
    """A bound on a hand's reward: every card's value, every canastra's bonus and more."""
    deck = build_deck(rules.decks, rules.jokers_per_deck)
    values = sum(abs(rules.values[c]) for c in deck)
    bonus = max(
        abs(rules.clean_bonus),
        abs(rules.clean_13_bonus),
        abs(rules.clean_14_bonus),
        abs(rules.twos_canastra_bonus),
        abs(rules.clean_eight_set_bonus),
        abs(rules.dirty_bonus),
        abs(rules.semi_clean_bonus),
    )
    side = (
        values
        + (len(deck) // 7) * bonus
        + abs(rules.going_out_bonus)
        + 2 * abs(rules.pot_penalty)
        + abs(rules.cut_bonus_points)
        + 10
    )
    return 2 * side / scale


def hand_returns(game: Game, scale: float = 1000.0) -> list[float]:
    """Per seat: its side's score of the last hand minus the best other side's, / ``scale``.

    The PettingZoo environment's reward (:func:`buraco.rl.encoding.hand_rewards`).
    """
    return hand_rewards(game, scale)


class BuracoGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one Buraco hand (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        preset = str(params.get("preset", "aberto"))
        players = int(params.get("players", 4))
        options = {k: _coerce(v) for k, v in parse_options(str(params.get("options", ""))).items()}
        self.reward_scale = check_reward_scale(params.get("reward_scale", 1000.0))
        self.deal = str(params.get("deal", "cards"))
        """The chance model: ``cards`` (exact, card by card) or ``seeded`` (one seed)."""
        if self.deal not in DEAL_MODELS:
            raise ValueError(f"deal is 'cards' or 'seeded', not {self.deal!r}")
        self.deals = int(params.get("deals", 10_000))
        """How many seeds a ``seeded`` deal draws from (outcomes 0 to ``deals - 1``)."""
        if not 1 <= self.deals <= MAX_DEALS:
            raise ValueError(f"deals is a number from 1 to {MAX_DEALS}, not {self.deals}")
        self.rules = make_rules(preset, players=players, **options)
        check_rules(self.rules)
        r = self.rules
        bound = _utility_bound(r, self.reward_scale)
        seeded = self.deal == "seeded"
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=self.deals
            if seeded
            else max(N_CODES, r.players, 2 * r.cut_spread + 1),
            num_players=r.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.deal_length = sum(r.pot_sizes) + r.players * r.hand_size + (1 if r.upcard else 0)
        """Cards dealt before play: the mortos, the hands and the upcard."""
        self.pack = counts_of(build_deck(r.decks, r.jokers_per_deck))
        """The pack as counts per card code."""
        self.codec = ActionCodec()
        self.seed_outcomes = (
            tuple((k, 1.0 / self.deals) for k in range(self.deals)) if seeded else ()
        )
        """The chance outcomes of a ``seeded`` deal."""

    def new_initial_state(self) -> BuracoState:
        """A hand before the deal (a chance node)."""
        return BuracoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BuracoObserver:
        """The observer of information states (perfect recall) or observations."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return BuracoObserver(perfect_recall)


class _Shared:
    """Holds what a state's copy shares (the OpenSpiel game): deep copies keep it."""

    __slots__ = ("game",)

    def __init__(self, game: BuracoGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return _shared_game, (str(self.game),)


def _shared_game(name: str) -> _Shared:
    """The holder of a game loaded again from its string (unpickling a state)."""
    return _Shared(pyspiel.load_game(name))


class _Hand:
    """Holds a state's engine game; a deep copy is the game's clone (fast)."""

    __slots__ = ("game",)

    def __init__(self, game: Game | None) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        return _Hand(self.game.clone() if self.game is not None else None)

    def __getstate__(self) -> tuple[dict[str, Any] | None]:
        """The game's state without its caches and shared tables (for OpenSpiel's pickle)."""
        g = self.game
        if g is None:
            return (None,)
        d = g.clone().__dict__
        for name in _REBUILT:
            d.pop(name, None)
        d["melds"] = [[m.copy() for m in side] for side in d["melds"]]
        for side in d["melds"]:
            for m in side:
                m.cands = None
                m.mview = None
        return (d,)

    def __setstate__(self, saved: tuple[dict[str, Any] | None]) -> None:
        state = saved[0]
        if state is None:
            self.game = None
            return
        g = Game.__new__(Game)
        g.__dict__.update(state)
        rules = g.rules
        g.tables = _tables_for(rules)
        g.options_view = MappingProxyType(
            {k: tuple(v) if isinstance(v, list) else v for k, v in rules.options().items()}
        )
        g.table_views = None
        g.seen_cache = [None] * (g.n + 1)
        g.public_cache = None
        g.score_cache = None
        g._legal = None
        g.hand_events = [*g.hand_events[:-1], g.events]
        self.game = g


_REBUILT = ("tables", "options_view", "table_views", "seen_cache", "public_cache", "score_cache")


class BuracoState(pyspiel.State):  # type: ignore[misc]
    """A position of a hand, chance nodes included.

    **Chance.** Before play: the dealer (uniform over the seats), the cut (uniform from
    ``-cut_spread`` to ``cut_spread``, when the spread is not zero), then the deal card by
    card in the engine's dealing order (the mortos, the hands, the upcard), each card a
    chance outcome among the card codes with probability proportional to how many copies
    of it are left in the pack. The rest of the pack is the stock, kept as a multiset
    (its order is never fixed): when a player chooses ``draw`` or ``turn-up`` a chance
    node follows whose outcomes are the codes left in the stock, with probability
    count / stock size, and the engine then takes that card. This is exactly a uniformly
    shuffled pack, with the same probabilities for every history, and no outcome is seen
    by a player unless the engine shows it (its own cards, a draw by itself). Dealing a
    whole shuffled deck as one seeded outcome would be simpler but would make the game a
    sample of the real one (a finite set of deals) and hide from algorithms which
    outcomes are the same to a player; card types keep chance exact, and a search can
    enumerate a draw's outcomes (at most 53).

    With the game's ``deal=seeded``, instead, the first and only chance node has the
    outcomes 0 to ``deals - 1``, equally likely: outcome ``k`` is the engine's hand of seed
    ``k`` (dealer, cut and the whole pack's order), and ``draw`` and ``turn-up`` take the
    stock's top card at once. No player sees the seed: a seat's history holds the cards
    dealt to it, as with ``deal=cards``.
    """

    def __init__(self, game: BuracoGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game)
        self._hand = _Hand(None)
        self.rules = game.rules
        self.dealer: int | None = None
        self.cut: int | None = None
        self.deck: list[int] = []
        self.left = list(game.pack)
        self.entry = MeldEntry()
        self.drawing = -1
        """The index (``DRAW`` or ``TURN_UP``) waiting for its card from the stock, or -1."""
        self.top = 0
        """Where the stock's top segment starts (a morto put under a reserve stays below)."""
        self.seen: list[list[str]] = [[] for _ in range(self.rules.players)]
        """Each seat's history of deal facts as it saw them (the cards it was dealt)."""

    @property
    def _g(self) -> BuracoGame:
        return self._shared.game

    @property
    def game(self) -> Game | None:
        """The engine's game of the hand (None until the deal is done)."""
        return self._hand.game

    @game.setter
    def game(self, value: Game | None) -> None:
        self._hand = _Hand(value)

    # ----- copying -------------------------------------------------------------------------
    def copy_from(self, other: BuracoState) -> None:
        """Take another state's position (a copy that shares nothing mutable)."""
        self.dealer, self.cut = other.dealer, other.cut
        self.deck = list(other.deck)
        self.left = list(other.left)
        self.game = other.game.clone() if other.game is not None else None
        self.entry.pending = list(other.entry.pending)
        self.drawing = other.drawing
        self.top = other.top
        self.seen = [list(s) for s in other.seen]

    # ----- the game tree -------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` or ``TERMINAL``."""
        g = self.game
        if g is None or self.drawing >= 0:
            return int(pyspiel.PlayerId.CHANCE)
        if g.is_hand_over():
            return int(pyspiel.PlayerId.TERMINAL)
        assert g.turn is not None
        return int(g.turn)

    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.game is not None and self.game.is_hand_over()

    def _legal_actions(self, player: int) -> list[int]:
        """The legal indexes of the seat to move: the meld entry's mask."""
        g = self.game
        if g is None or self.drawing >= 0 or g.is_hand_over() or player != g.turn:
            return []
        return [int(i) for i in np.flatnonzero(self.entry.mask(g.legal_actions()))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance node and their probabilities."""
        r = self.rules
        if self._g.seed_outcomes:
            return list(self._g.seed_outcomes) if self.game is None else []
        if self.dealer is None:
            return [(s, 1.0 / r.players) for s in range(r.players)]
        if self.cut is None:
            n = 2 * r.cut_spread + 1
            return [(c + r.cut_spread, 1.0 / n) for c in range(-r.cut_spread, r.cut_spread + 1)]
        if self.game is None:
            counts = self.left
        else:
            counts = [0] * N_CODES
            for c in self.game.stock[self.top :]:
                counts[c] += 1
        total = sum(counts)
        return [(c, k / total) for c, k in enumerate(counts) if k]

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome or a player's index."""
        r = self.rules
        if self._g.seed_outcomes and self.game is None:
            self._deal_seed(int(action))
            return
        if self.dealer is None:
            self.dealer = int(action)
            if not r.cut_spread:
                self.cut = 0
            return
        if self.cut is None:
            self.cut = int(action) - r.cut_spread
            return
        g = self.game
        if g is None:
            self._deal(int(action))
            return
        if self.drawing >= 0:
            self._draw(int(action))
            return
        index = int(action)
        if index in (DRAW, TURN_UP) and not self.entry.pending and not self._g.seed_outcomes:
            if not self.entry.allows(index, g.legal_actions()):
                raise ValueError(f"action index {index} is not legal now")
            self.drawing = index
            return
        act = self.entry.step(index, g.legal_actions())
        if act is not None:
            g.apply(act)
            self._after()

    def _deal(self, card: int) -> None:
        if not self.left[card]:
            raise ValueError(f"no {CARD_NAMES[card]} is left to deal")
        self.left[card] -= 1
        self.deck.append(card)
        if len(self.deck) < self._g.deal_length:
            return
        rest = [c for c in range(N_CODES) for _ in range(self.left[c])]
        assert self.dealer is not None and self.cut is not None
        g = Game(
            self.rules,
            seed=0,
            stacked=[self.deck + rest],
            cuts=[self.cut],
            match=False,
            first_dealer=self.dealer,
        )
        self.game = g
        self.top = 0
        for s in range(g.n):
            self.seen[s].append(f"dealer {self.dealer}, cut {self.cut}")
            self.seen[s].append(f"dealt {format_cards(g.hand(s))}")

    def _deal_seed(self, seed: int) -> None:
        if not 0 <= seed < self._g.deals:
            raise ValueError(f"a seeded deal is a number from 0 to {self._g.deals - 1}, not {seed}")
        g = Game(self.rules, seed=seed, match=False)
        self.game = g
        self.dealer, self.cut = g.dealer, g.cut
        for s in range(g.n):
            self.seen[s].append(f"dealer {self.dealer}, cut {self.cut}")
            self.seen[s].append(f"dealt {format_cards(g.hand(s))}")

    def _draw(self, card: int) -> None:
        g = self.game
        assert g is not None
        stock = g.stock
        try:
            at = stock.index(card, self.top)
        except ValueError:
            raise ValueError(f"no {CARD_NAMES[card]} is left in the stock") from None
        stock[at], stock[-1] = stock[-1], stock[at]
        index, self.drawing = self.drawing, -1
        before = len(stock) - 1
        g.apply("turn-up" if index == TURN_UP else "draw")
        if len(g.stock) > before:
            self.top = len(g.stock) - before  # a morto went under what was left
        self._after()

    def _after(self) -> None:
        g = self.game
        assert g is not None
        if len(g.stock) <= self.top:
            self.top = 0

    def returns(self) -> list[float]:
        """Each seat's reward for the hand (zeros before its end)."""
        g = self.game
        if g is None or not g.is_hand_over():
            return [0.0] * self.rules.players
        return hand_returns(g, self._g.reward_scale)

    # ----- text ----------------------------------------------------------------------------
    def _action_to_string(self, player: int, action: int) -> str:
        """An action index (or a chance outcome) as text."""
        if player == pyspiel.PlayerId.CHANCE:
            if self._g.seed_outcomes:
                return f"deal {action}"
            if self.dealer is None:
                return f"dealer {action}"
            if self.cut is None:
                return f"cut {action - self.rules.cut_spread}"
            return f"card {CARD_NAMES[action]}"
        if MELD_END > action >= MELD_END - N_CODES:
            return f"meld card {CARD_NAMES[action - (MELD_END - N_CODES)]}"
        if action == MELD_END:
            return "meld end"
        return str(self._g.codec.decode(action))

    def view(self, seat: int) -> SeatView | None:
        """The full view of a seat (None before the deal is done)."""
        if self.game is None:
            return None
        return seat_view(self.game, seat, full=True)

    def pending_for(self, seat: int) -> list[int]:
        """The meld prefix a seat sees: its own while it enters one, else nothing."""
        g = self.game
        if g is not None and g.turn == seat and not g.is_hand_over():
            return list(self.entry.pending)
        return []

    def __str__(self) -> str:
        """The whole state (every hand), for debugging."""
        g = self.game
        if g is None:
            return f"dealing: dealer {self.dealer}, cut {self.cut}, {len(self.deck)} cards"
        lines = [repr(g)]
        lines += [f"seat {s}: {format_cards(g.hand(s))}" for s in range(g.n)]
        lines.append(f"pile: {format_cards(g.pile)}; stock {len(g.stock)}")
        lines.append(f"pending: {format_cards(self.entry.pending)}; drawing {self.drawing}")
        return "\n".join(lines)

    # ----- search --------------------------------------------------------------------------
    def resample_from_infostate(self, player: int, sampler: Any) -> BuracoState:
        """A state the seat cannot tell from this one: the hidden cards dealt anew.

        The other hands, the mortos and the stock are drawn consistently with the seat's
        view (:class:`buraco.determinize.Determinizer`); the history keeps only what the
        seat saw of the other seats' draws. ``sampler`` (an OpenSpiel sampler) seeds it.
        """
        g = self.game
        if g is None or g.is_hand_over():
            raise ValueError("resampling needs a position of play")
        seed = int(float(sampler()) * 2**31) if callable(sampler) else random.randrange(2**31)
        view = seat_view(g, player, full=True)
        sample = Determinizer(view).sample(random.Random(seed))
        sample.events = [
            e
            if e.seat == player or not isinstance(e.action, Draw | TurnUp)
            else e._replace(card=-1)
            for e in g.events
        ]
        sample.hand_events = [sample.events]
        sample.seen_cache = [None] * (g.n + 1)
        sample.deals = list(g.deals)
        out = BuracoState(self._g)
        out.copy_from(self)
        out.game = sample
        out.top = 0
        if player != g.turn:
            out.entry.pending = []  # the mover's prefix is not the seat's to know
        out.seen = [list(self.seen[player]) for _ in self.seen]
        for s in range(g.n):
            if s != player:
                out.seen[s] = [f"dealer {self.dealer}, cut {self.cut}", "dealt (resampled)"]
        return out


def _event_text(seat: int, e: Any) -> str:
    """One seen event as text."""
    parts = [f"{e.seat}:", str(e.action) if e.action is not None else "-"]
    if e.card >= 0:
        parts.append(f"[{CARD_NAMES[e.card]}]")
    if isinstance(e.action, TakePile) or e.cards:
        parts.append(f"{{{format_cards(e.cards)}}}/{e.taken}")
    if e.note:
        parts.append(e.note)
    return " ".join(parts)


def observation_text(view: SeatView, pending: Sequence[int]) -> str:
    """A view as text: what the observation tensor holds (the seat's position now)."""
    lines = [
        f"seat {view.seat}; turn {view.turn}; phase {view.phase}",
        f"hand: {format_cards(view.hand)}" + (f" +{view.hidden_pot}" if view.hidden_pot else ""),
        f"pile({view.pile_size}): {format_cards(view.pile)}; stock {view.stock}; "
        f"mortos {list(view.pots)}; sizes {list(view.hand_sizes)}",
        f"totals {list(view.totals)}; requirement {list(view.requirement)}; "
        f"taken top {view.taken_top}; last turn {view.last_turn}",
    ]
    d = view.detail
    if d is not None:
        lines.append(
            f"detail: {d.first_draw} {d.turn_up_card} {d.staged_value} {d.must_open} "
            f"{d.taken_melded} {list(d.moved)} {d.pile_streak} {list(d.pot_unplayed)} "
            f"{list(d.pot_used)} {list(d.cut_points)}"
        )
    for side, melds in enumerate(view.melds):
        for mv in melds:
            lines.append(f"side {side} meld {mv.number}: {format_cards(mv.cards)}")
    if pending:
        lines.append(f"entering: {format_cards(pending)}")
    return "\n".join(lines)


class BuracoObserver:
    """OpenSpiel's observer: the encoder's vector of a seat's view, and its text.

    Both tensors (information state and observation) are
    :class:`~buraco.rl.encoding.ObservationEncoder`'s; ``dict`` cuts it into the encoder's
    named blocks. The string of an information state (``perfect_recall``) is the seat's
    whole history as it saw it; of an observation, its view now.
    """

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {name: self.tensor[s] for name, s in observation_slices().items()}
        self.encoder = IndexEncoder()

    def set_from(self, state: BuracoState, player: int) -> None:
        """Fill the tensor from ``player``'s view of ``state`` (zeros before the deal)."""
        if state.game is None:
            self.tensor.fill(0)
            return
        self.encoder.dense(state.game, player, state.pending_for(player), out=self.tensor)

    def string_from(self, state: BuracoState, player: int) -> str:
        """The seat's information state or observation as text."""
        view = state.view(player)
        drawing = " (drawing)" if state.drawing >= 0 else ""
        if view is None:
            return f"seat {player}: dealing{drawing}"
        pending = state.pending_for(player)
        if not self.perfect_recall:
            return observation_text(view, pending) + drawing
        lines = [f"seat {player}", *state.seen[player]]
        lines += [_event_text(player, e) for e in view.events]
        lines.append(f"hand: {format_cards(view.hand)}")
        if pending:
            lines.append(f"entering: {format_cards(pending)}")
        return "\n".join(lines) + drawing


pyspiel.register_game(_GAME_TYPE, BuracoGame)
