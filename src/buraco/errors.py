"""Exceptions raised by the engine. Every message says what is wrong and what is allowed."""

from __future__ import annotations


class BuracoError(Exception):
    """Base class of every error the engine raises on bad input."""


class CardError(BuracoError, ValueError):
    """An unknown card code."""


class NotationError(BuracoError, ValueError):
    """Action text that does not follow the notation."""


class RulesError(BuracoError, ValueError):
    """An unknown rule option, a bad value, or options that contradict each other."""


class IllegalAction(BuracoError):
    """An action the rules do not allow now. The game state is left unchanged.

    ``rule`` is a short identifier of the broken rule (e.g. ``"pile-top"``).
    """

    def __init__(self, message: str, rule: str = "illegal") -> None:
        super().__init__(message)
        self.rule = rule


class SeatError(BuracoError, ValueError):
    """A seat number that is not at the table."""


class RecordError(BuracoError, ValueError):
    """A game record that is malformed or does not replay."""
