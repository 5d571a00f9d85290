"""A review in words: its lines, grades and kinds worded in one of the catalogs' languages.

The review itself holds keys and parameters (:class:`~buraco.review.explain.Line`); this
module fills them in for a reader (``review.*`` keys of the shared catalog, so a page can
word the same stored review): a step's notations as actions in words, cards as the
language draws them, differences of points signed (``+180``, ``−230``), counts of cards
with the language's plural.

>>> from buraco.i18n import Words
>>> from buraco.review.explain import Line
>>> worded(Words("pt-BR"), Line("review.why.pile.taken", {"delta": 180}))
'pegar o lixo aqui valeu +180 contra comprar'
>>> line = Line("review.why.pot.early", {"delta": -40, "best": ["discard 7H"]})
>>> worded(Words("it", "italiano"), line)
'prendere il pozzetto ora valeva −40 rispetto a scartare 7♥'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from buraco.i18n import Words
from buraco.review.explain import Line


def signed(x: float) -> str:
    """A difference of points with its sign (a true minus sign).

    >>> signed(180), signed(-230.4), signed(0)
    ('+180', '−230', '0')
    """
    n = round(x)
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def step_words(words: Words, step: Sequence[str]) -> str:
    """A step's actions in words, joined."""
    return "; ".join(words.action(a) for a in step)


def worded(words: Words, line: Line) -> str:
    """One line in the words of ``words``."""
    shown: dict[str, Any] = {}
    for name, value in line.params.items():
        if name in ("delta", "value"):
            shown[name] = signed(float(value))
        elif name == "card":
            shown[name] = words.card(str(value))
        elif name in ("best", "played", "next", "step"):
            shown[name] = step_words(words, list(value))
        elif name in ("pile", "n"):
            shown["cards"] = words.count("cards.count", int(value))
            shown[name] = value
        else:
            shown[name] = value
    return words(line.key, **shown)


def grade_word(words: Words, grade: str) -> str:
    """A grade's name."""
    return words(f"review.grade.{grade}")


def kind_word(words: Words, kind: str) -> str:
    """A kind of decision's name."""
    return words(f"review.kind.{kind}")
