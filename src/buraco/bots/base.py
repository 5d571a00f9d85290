"""The bot interface: a bot sees only its seat's view and the legal actions.

A bot never receives the game, so it cannot reach hidden cards: it is given a
:class:`~buraco.views.SeatView` (a copied snapshot) and returns one of the legal
actions. Every bot takes a seed; the same seed and views give the same choices.
"""

from __future__ import annotations

import os
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeVar

from buraco.actions import Action, Add, Discard, Draw, MoveWild, Place, TakePile, TurnUp
from buraco.cards import JOKER, Card
from buraco.errors import BotError, shown
from buraco.views import MeldView, SeatView

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

T = TypeVar("T")


class Bot(ABC):
    """Base class of bots. Subclasses implement :meth:`choose`."""

    name: ClassVar[str] = "bot"
    params: ClassVar[dict[str, type]] = {}
    """Parameters a bot spec may give (``name=value`` after the bot's name), with types."""
    wants_full_view: ClassVar[bool] = False
    """Whether this bot wants full views: the hand's history and the rest of the public
    state (see :func:`buraco.views.seat_view`); slower to build."""
    needs_full_view: ClassVar[bool] = False
    """The bot cannot play from a plain view (it reads the whole observation), so it is shown
    the full view even where a plain one is asked for (search playouts, for speed)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """One of ``legal``, chosen from what ``view`` shows."""

    def new_hand(self) -> None:  # noqa: B027 - optional hook
        """Called before each hand; bots with memory reset it here."""

    def ranked_discards(self, view: SeatView, legal: Sequence[Action]) -> list[Action]:
        """The legal discards, the one this bot prefers first (here: in ``legal``'s order).

        A search bot tries a policy's few preferred discards; bots that can rank them
        (``heuristic``, ``learned``) say how. Empty when ``legal`` holds no discard.
        """
        return [a for a in legal if type(a) is Discard]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"


class ModelFileError(ValueError):
    """A file that is not a bot's model, and why (``reason``: what was wrong in it)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"not a model file: {reason}")
        self.reason = reason


def load_model_file(bot: str, path: str, load: Callable[[str, tuple[int, int]], T]) -> T:
    """A bot's model file read by ``load(absolute path, (mtime, size))``, or a one-line error.

    ``load`` raises ``ValueError`` for a file that is not a model (a
    :class:`ModelFileError` says why, and the error says it too); its second argument
    lets it cache by the file's version.
    """
    try:
        st = os.stat(path)
    except OSError:
        raise BotError(f"bot {bot!r}: no model file {shown(path)}") from None
    try:
        return load(os.path.abspath(path), (st.st_mtime_ns, st.st_size))
    except ModelFileError as e:
        raise BotError(f"bot {bot!r}: {shown(path)} is not a model file ({e.reason})") from None
    except ValueError:
        raise BotError(f"bot {bot!r}: {shown(path)} is not a model file") from None


def sample_index(logits: npt.NDArray[np.float32], rng: random.Random, greedy: bool) -> int:
    """The index of the largest logit (``greedy``), or one drawn from their softmax."""
    import numpy as np

    if greedy:
        return int(np.argmax(logits))
    p = np.exp(logits - logits.max())
    cum = np.cumsum(p / p.sum())
    return min(int(np.searchsorted(cum, rng.random(), side="right")), len(cum) - 1)


def enter_flat(
    legal: Sequence[Action],
    scores: Callable[[list[Card], npt.NDArray[np.intp]], npt.NDArray[np.float32]],
    rng: random.Random,
    greedy: bool,
) -> Action:
    """An action entered as flat action indexes (:class:`buraco.rl.encoding.MeldEntry`).

    At each index with a choice, ``scores(pending, indexes)`` gives a number for each of
    the legal ``indexes`` (``pending``: the meld cards entered so far), and one is taken by
    :func:`sample_index`. A new meld takes one index a card, then its end; any other
    action one index.
    """
    import numpy as np

    from buraco.rl.encoding import MeldEntry

    entry = MeldEntry()
    while True:
        indexes = np.flatnonzero(entry.mask(legal))
        index = int(indexes[0])
        if len(indexes) > 1:
            index = int(indexes[sample_index(scores(entry.pending, indexes), rng, greedy)])
        action = entry.step(index, legal)
        if action is not None:
            return action


def play_sections(legal: Sequence[Action]) -> tuple[int, int, int]:
    """Where the melds, the adds (with wild moves) and the discards start in ``legal``.

    Legal actions of the play phase come in a fixed order: turn-up, melds, adds, wild
    moves, discards. Returns ``(first_meld, first_add, first_discard)``; a section that
    is empty starts where the next one does.
    """
    first_discard = len(legal)
    while first_discard > 0 and type(legal[first_discard - 1]) is Discard:
        first_discard -= 1
    first_add = first_discard
    while first_add > 0 and type(legal[first_add - 1]) in (Add, MoveWild):
        first_add -= 1
    first_meld = 1 if legal and type(legal[0]) is TurnUp else 0
    return first_meld, first_add, first_discard


def wild_count(cards: Sequence[Card]) -> int:
    """Wild cards in a meld's cards, in run order (a 2 in its own place is natural).

    A 2 is in its own place when the 3 of its suit follows it and it starts the run
    or follows the ace of its suit.

    >>> from buraco.cards import parse_cards
    >>> wild_count(parse_cards("AH 2H 3H")), wild_count(parse_cards("2H 3H 4H"))
    (0, 0)
    >>> wild_count(parse_cards("3H 2S 5H JK")), wild_count(parse_cards("2H 4H 5H"))
    (2, 1)
    """
    n = 0
    for i, c in enumerate(cards):
        if c == JOKER:
            n += 1
        elif c % 13 == 1:
            ace = c - 1
            natural = (
                i < len(cards) - 1 and cards[i + 1] == ace + 2 and (i == 0 or cards[i - 1] == ace)
            )
            if not natural:
                n += 1
    return n


def is_wild_add(a: Add, m: MeldView) -> bool:
    """Whether an add puts a wild card on the meld (not a 2 in its natural place)."""
    c = a.card
    if c == JOKER:
        return True
    if c % 13 != 1:
        return False
    if not m.run:
        return m.rank != 1
    return not (c // 13 == m.suit and a.place == Place.LOW and m.lo == 2)


class Logged(Protocol):
    """An entry of a hand's log: who acted and how (engine events and seen events alike)."""

    @property
    def seat(self) -> int:
        """The seat that acted."""

    @property
    def action(self) -> Action | None:
        """The action, or None for a consequence of one."""


def pile_choices(
    events: Iterable[Logged], players: int, upcard: bool = False
) -> tuple[list[int], list[int]]:
    """Per seat, the turns begun by taking the pile, and those begun with a pile to take.

    A pile counts as offered when it held cards, whether or not the rules let the
    player take it then (a closed pile whose top card does not meld, a draw forced by
    ``pile_streak_limit``): the log does not say.

    ``upcard``: the hand's pile started with a card turned up at the deal.

    >>> from buraco import Game
    >>> from buraco.bots import GreedyBot, play_hand
    >>> game = Game("aberto", players=2, seed=1, match=False)
    >>> _ = play_hand(game, [GreedyBot(seed=0), GreedyBot(seed=1)])
    >>> takes, chances = pile_choices(game.events, 2)
    >>> all(0 <= t <= c for t, c in zip(takes, chances)) and sum(chances) > 0
    True
    """
    takes, chances = [0] * players, [0] * players
    pile = 1 if upcard else 0
    for e in events:
        a = e.action
        if isinstance(a, TakePile):
            takes[e.seat] += 1
            chances[e.seat] += 1
            pile = 0
        elif isinstance(a, Draw):
            chances[e.seat] += pile > 0
        elif isinstance(a, Discard | TurnUp):
            pile += 1
    return takes, chances
