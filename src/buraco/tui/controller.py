"""The controller: the only part of the terminal game that touches the :class:`Game`.

It seats the human at seat 0 and a bot at every other seat, applies the human's
actions (returning the engine's reason when one is refused), runs the bots one
action at a time, gives hints, and saves and resumes matches as game records.
Everything the screen shows of the game comes from :meth:`Controller.view`, the
human seat's :class:`~buraco.views.SeatView`, so nothing hidden reaches it.

>>> from buraco.rules import make_rules
>>> c = Controller.new(make_rules("aberto", players=2), ["greedy"], seed=4)
>>> c.names, c.human_to_move
(('You', 'Ana'), False)
>>> c.play("draw")
Outcome(ok=False, message="wait: it is Ana's turn", action=None)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buraco.actions import Action, Add, Meld, MoveWild, Place
from buraco.bots import Bot, HeuristicBot, make_bot
from buraco.cards import Card, is_wild_capable, rank_of, suit_of
from buraco.errors import BuracoError, IllegalAction, RecordError, WordedError
from buraco.game import Game, HandResult
from buraco.record import load, record_of
from buraco.replays import replay
from buraco.rules import Rules
from buraco.tui.words import refusal, t
from buraco.views import SeatView, seat_view

HUMAN = 0
"""The human's seat."""

BOT_NAMES = ("Ana", "Bia", "Caio", "Duda", "Edu")
"""Names of the bots at seats 1, 2, ..."""

PLAY_KEY = "play"
"""Key of the object a saved match carries: the bot at each seat (a record may hold it;
replays ignore it)."""


@dataclass(frozen=True)
class Outcome:
    """What became of a human action: done, or refused with the engine's reason."""

    ok: bool
    message: str = ""
    action: Action | None = None
    """The action applied (the typed notation parsed, a placement filled in)."""


@dataclass(frozen=True)
class AddPlan:
    """How to add some cards to one meld: the adds in order, a question, or a refusal."""

    actions: tuple[Action, ...] = ()
    """The adds, each legal after the ones before it."""
    ask: tuple[Add, ...] = ()
    """Placements to choose from for one card (its wild end or its own end)."""
    refusal: str = ""
    """The engine's reason when the cards cannot all be added."""


def bot_names(players: int) -> tuple[str, ...]:
    """The seat names of a table: ``You`` (in the language in use) at seat 0, then the bots."""
    return (t("tui.you.title"), *BOT_NAMES[: players - 1])


def check_bot_specs(specs: Sequence[str], players: int) -> list[str]:
    """One bot spec per bot seat (a single spec fills every seat); raises ValueError."""
    specs = [s.strip() for s in specs if s.strip()]
    if not specs:
        raise ValueError("--bots: name at least one bot")
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise ValueError(
            f"--bots names {len(specs)} bots but {players} players leave {players - 1} bot "
            f"seat(s); give one bot, or one per seat"
        )
    for spec in specs:
        make_bot(spec)
    return specs


class Controller:
    """A match between the human at seat 0 and bots at the other seats."""

    def __init__(self, game: Game, bot_specs: Sequence[str], save_path: Path | None = None) -> None:
        self.game = game
        self.bot_specs = check_bot_specs(bot_specs, game.players)
        self.bots: list[Bot | None] = [None] + [
            make_bot(spec, seed=game.seed * 100 + seat)
            for seat, spec in enumerate(self.bot_specs, start=1)
        ]
        self.save_path = save_path or Path(f"buraco-{game.rules.preset}-{game.seed}.json")
        for bot in self.bots:
            if bot is not None:
                bot.new_hand()

    # ----- making and resuming ---------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: Rules,
        bot_specs: Sequence[str],
        seed: int | None = None,
        save_path: Path | None = None,
    ) -> Controller:
        """A new match (the seed chosen at random when not given)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        game = Game(rules, seed=seed, names=bot_names(rules.players))
        return cls(game, bot_specs, save_path)

    @classmethod
    def resume(
        cls, path: Path, bot_specs: Sequence[str] | None = None, save_path: Path | None = None
    ) -> Controller:
        """A saved match, replayed to where it stopped; raises RecordError when it will not.

        The bots are ``bot_specs`` when given, else those the file names, else heuristic.
        """
        data = load(path)
        saved = data.get(PLAY_KEY)
        game = replay(data)
        if bot_specs is None:
            bots = saved.get("bots") if isinstance(saved, dict) else None
            if isinstance(bots, list) and all(isinstance(b, str) for b in bots):
                bot_specs = bots
            else:
                bot_specs = ["heuristic"]
            try:
                check_bot_specs(bot_specs, game.players)
            except ValueError as exc:
                raise RecordError(f"record {PLAY_KEY}.bots: {exc}") from None
        return cls(game, bot_specs, save_path or path)

    # ----- what the human may know -----------------------------------------------------
    def view(self) -> SeatView:
        """The human seat's full view: the only window the screen has on the game."""
        return seat_view(self.game, HUMAN, full=True)

    @property
    def rules(self) -> Rules:
        """The rules being played."""
        return self.game.rules

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names by seat."""
        return self.game.names

    @property
    def seed(self) -> int:
        """The match's seed."""
        return self.game.seed

    @property
    def human_to_move(self) -> bool:
        """Whether the human is to act now."""
        return self.game.to_move == HUMAN

    @property
    def hand_over(self) -> bool:
        """Whether the current hand has ended."""
        return self.game.is_hand_over()

    @property
    def match_over(self) -> bool:
        """Whether nothing more can be played (the match is won)."""
        return self.game.is_over()

    @property
    def winner(self) -> int | None:
        """The side that won the match, if any."""
        return self.game.winner

    def results(self) -> tuple[HandResult, ...]:
        """The finished hands' results (public once each hand is over)."""
        return tuple(self.game.results)

    # ----- the human's actions ---------------------------------------------------------
    def play(self, action: Action | str) -> Outcome:
        """Apply a human action (or its notation); a refusal changes nothing."""
        g = self.game
        if g.is_hand_over():
            return Outcome(False, t("refusal.hand-over"))
        if g.turn != HUMAN:
            return Outcome(False, t("tui.say.wait", name=g.names[g.turn]))
        try:
            act = g.parse(action) if isinstance(action, str) else action
            g.apply(act, seat=HUMAN)
        except IllegalAction as exc:
            return Outcome(False, refusal(exc.refusal))
        except WordedError as exc:  # typed text that is no action: the notation's refusal
            return Outcome(False, refusal(exc.refusal) if exc.refusal else str(exc))
        except BuracoError as exc:
            return Outcome(False, str(exc))
        return Outcome(True, action=act)

    def play_all(self, actions: Sequence[Action]) -> Outcome:
        """Apply actions planned together (see :meth:`plan_adds`), stopping at a refusal."""
        for action in actions:
            outcome = self.play(action)
            if not outcome.ok:
                return outcome
        return Outcome(True)

    def meld_choices(self, cards: Sequence[Card]) -> tuple[Meld, ...]:
        """The legal new melds made of exactly these cards (a wild may stand in more places)."""
        if not self.human_to_move:
            return ()
        want = sorted(cards)
        return tuple(
            a for a in self.game.legal_actions() if isinstance(a, Meld) and sorted(a.cards) == want
        )

    def meld_refusal(self, cards: Sequence[Card]) -> str:
        """The engine's reason why these cards make no legal meld now."""
        if not self.human_to_move:
            return self.play(Meld(tuple(cards))).message
        reasons = [self.game.refusal(Meld(order)) for order in _meld_orders(cards)]
        for why in reasons:
            if why is not None and why.rule != "meld-shape":
                return refusal(why)
        found = next((why for why in reasons if why is not None), None)
        return refusal(found) if found is not None else t("tui.say.no-meld")

    def plan_adds(
        self, meld: int, cards: Sequence[Card], chosen: Mapping[Card, Place] | None = None
    ) -> AddPlan:
        """Plan adding ``cards`` to the human side's meld ``meld`` (0-based), on a copy.

        Naturals go first and each card is added once it fits, so ``8H 9H`` extend
        ``5H 6H 7H`` in either order. A card that could go more than one way needs a
        placement from ``chosen``; without one the plan asks. Nothing is applied.
        """
        if not cards:
            return AddPlan(refusal=t("tui.say.select-to-add"))
        if not self.human_to_move:
            return AddPlan(refusal=self.play(Add(meld, cards[0])).message)
        chosen = chosen or {}
        trial = self.game.clone()
        left = sorted(cards, key=is_wild_capable)
        done: list[Action] = []
        while left:
            for card in left:
                options = [
                    a
                    for a in trial.legal_actions()
                    if isinstance(a, Add) and a.meld == meld and a.card == card
                ]
                if options:
                    break
            else:
                why = trial.refusal(Add(meld, left[0]))
                message = refusal(why) if why is not None else t("tui.say.cannot-add")
                if done:
                    message = t("tui.say.after", done=", ".join(map(str, done)), reason=message)
                return AddPlan(refusal=message)
            if len(options) > 1:
                place = chosen.get(card)
                picked = [a for a in options if a.place == place]
                if not picked:
                    return AddPlan(ask=tuple(options))
                options = picked
            trial.apply(options[0])
            done.append(options[0])
            left.remove(card)
        return AddPlan(actions=tuple(done))

    def move_choices(self, meld: int) -> tuple[MoveWild, ...]:
        """The legal moves of the wild of the human side's meld ``meld`` (0-based)."""
        if not self.human_to_move:
            return ()
        return tuple(
            a for a in self.game.legal_actions() if isinstance(a, MoveWild) and a.meld == meld
        )

    def hint(self) -> Action | None:
        """What the ``heuristic`` bot would do in the human's place now (None if not our turn)."""
        if not self.human_to_move:
            return None
        bot = HeuristicBot(seed=self.game.seed)
        return bot.choose(self.view(), self.game.legal_actions())

    # ----- the bots ----------------------------------------------------------------------
    def bot_turn(self) -> tuple[int, Bot, SeatView, tuple[Action, ...]] | None:
        """The bot to act now with its view and legal actions, or None (human or hand over)."""
        seat = self.game.to_move
        if seat is None or seat == HUMAN:
            return None
        bot = self.bots[seat]
        assert bot is not None
        view = seat_view(self.game, seat, full=bot.wants_full_view)
        return seat, bot, view, self.game.legal_actions()

    def apply_bot(self, seat: int, action: Action) -> None:
        """Apply a bot's chosen action for ``seat``."""
        self.game.apply(action, seat=seat)

    # ----- hands, match, saving ------------------------------------------------------------
    def next_hand(self) -> None:
        """Deal the next hand (the current one must be over and the match not)."""
        self.game.next_hand()
        for bot in self.bots:
            if bot is not None:
                bot.new_hand()

    def record(self) -> dict[str, Any]:
        """The match as a game record, with the bots of each seat under ``play``."""
        data = record_of(self.game)
        data[PLAY_KEY] = {"human": HUMAN, "bots": list(self.bot_specs)}
        return data

    def save(self, path: Path | None = None) -> Path:
        """Write the match's record (to ``save_path`` unless given); returns the path."""
        target = path or self.save_path
        target.write_text(json.dumps(self.record(), indent=1) + "\n", encoding="utf-8")
        return target


def _meld_orders(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Orders of some cards to ask the engine about.

    As a set, and as runs with the wild in each place: the engine names the rule
    the best-shaped one breaks.
    """
    wilds = [c for c in cards if is_wild_capable(c)]
    naturals = sorted((c for c in cards if not is_wild_capable(c)), key=rank_of)
    orders: list[tuple[Card, ...]] = [(*naturals, *wilds)]
    suits = {suit_of(c) for c in naturals}
    if len(suits) == 1 and naturals:
        for high_ace in (False, True):
            seq = sorted(naturals, key=lambda c: 13 if high_ace and rank_of(c) == 0 else rank_of(c))
            for wild_at in range(len(seq) + 1):
                orders.append((*seq[:wild_at], *wilds, *seq[wild_at:]))
    return orders
