"""Exceptions raised by the engine. Every message says what is wrong and what is allowed."""

from __future__ import annotations

from buraco.refusals import Refusal


class BuracoError(Exception):
    """Base class of every error the engine raises on bad input."""


class WordedError(BuracoError):
    """An error a person may cause, with its reason as data where it has one.

    Built from a :class:`~buraco.refusals.Refusal`, ``refusal`` says why as data for a
    front end to word in its language, and the message is its English wording; built
    from text (a bad argument of the library, read by its programmer), ``refusal`` is
    ``None``.
    """

    def __init__(self, why: str | Refusal) -> None:
        if isinstance(why, Refusal):
            super().__init__(why.message)
            self.refusal: Refusal | None = why
        else:
            super().__init__(why)
            self.refusal = None

    def __reduce__(
        self,
    ) -> tuple[type[WordedError], tuple[str | Refusal], dict[str, object]]:
        return (type(self), (self.refusal or str(self),), self.__dict__)


class CardError(WordedError, ValueError):
    """An unknown card code, or a card name that is none (``refusal`` ``notation.card``)."""


class NotationError(WordedError, ValueError):
    """Action text that does not follow the notation.

    Text a person typed gives a refusal of the rule ``notation`` (``refusal``); an action
    value a program built wrongly, an English message only.

    >>> e = NotationError(Refusal("notation.move-form", {"text": "'move 1'"}))
    >>> str(e), e.refusal.rule
    ("'move 1': write 'move N low' or 'move N high'", 'notation')
    """


class RulesError(WordedError, ValueError):
    """An unknown rule option, a bad value, or options that contradict each other.

    Built from a :class:`~buraco.refusals.Refusal` (an option's bad value, a preset's
    player count, two options that contradict each other), ``refusal`` says why as data
    for a front end to word in its language, and the message is its English wording;
    built from text (a bad argument of the library), ``refusal`` is ``None``.

    >>> e = RulesError(Refusal("option.whole", {"option": "target", "value": "'x'"}))
    >>> str(e), e.refusal.code
    ("option target: 'x' is not a whole number", 'option.whole')
    """


class IllegalAction(BuracoError):
    """An action the rules do not allow now. The game state is left unchanged.

    ``refusal`` says why as data (:class:`~buraco.refusals.Refusal`: a code and its
    parameters, for a front end to word in its own language); the message is its
    English wording and ``rule`` the broken rule's identifier (e.g. ``"pile-top"``).

    >>> e = IllegalAction(Refusal("not-held", {"card": "4C"}))
    >>> str(e), e.rule, e.refusal.params
    ('you do not hold 4C', 'not-held', {'card': '4C'})
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal
        self.rule = refusal.rule


class SeatError(BuracoError, ValueError):
    """A seat number that is not at the table."""


class BotError(BuracoError, ValueError):
    """An unknown bot, or a bot parameter with a bad value."""


class RecordError(BuracoError, ValueError):
    """A game record that is malformed or does not replay."""


class TournamentError(BuracoError, ValueError):
    """A tournament, a result or a VP scale that is malformed or contradicts itself.

    The message is English; a refusal a front end words in its own language carries
    ``case`` (a name such as ``"no-table"``) and its ``params`` too.

    >>> e = TournamentError("turn 1 has no table 5", "no-table", turn=1, tables=2, table=5)
    >>> e.case, e.params["table"]
    ('no-table', 5)
    """

    def __init__(self, message: str, case: str | None = None, **params: int | str) -> None:
        super().__init__(message)
        self.case = case
        self.params = params


def shown(value: object, limit: int = 40) -> str:
    """A value as an error message quotes it: its repr, cut to ``limit`` characters.

    A huge whole number is described by its size (its digits could not even be
    printed), and a long list or tuple by its length.

    >>> shown("x" * 50, limit=10)
    "'xxxxxx..."
    >>> shown(10**5000)
    'a whole number of 16610 bits'
    >>> shown((1, 2, 3)), shown(list(range(100)))
    ('(1, 2, 3)', 'a list of 100')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a whole number of {value.bit_length()} bits"
    if isinstance(value, list | tuple):
        if len(value) <= 10:
            try:
                text = repr(value)
            except (ValueError, RecursionError):  # a huge number or deep nesting inside
                text = ""
            if text and len(text) <= limit:
                return text
        return f"a {type(value).__name__} of {len(value)}"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
