r"""Text from outside the program (names, typed actions, records) made safe to show.

Control characters could move the cursor, clear a terminal or reorder the text around
them: C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional
embeddings, overrides and isolates. Names may not hold them at all
(:func:`buraco.game.check_names`); everything else shown to a person goes through
:func:`safe`, which writes each as an escape.

>>> safe("Bia\x1b[2J\x07\r"), safe("a\nb"), safe("a\nb", newlines=True)
('Bia\\x1b[2J\\x07\\x0d', 'a\\x0ab', 'a\nb')
>>> safe("[bold red]x[/]"), safe("\u202eevil"), has_control("Ana"), has_control("A\u2066")
('[bold red]x[/]', '\\u202eevil', False, True)
"""

from __future__ import annotations

import re

CONTROLS = r"\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
"""The control characters, as the inside of a regular expression's character class."""
_CONTROL = re.compile(f"[{CONTROLS}]")
_CONTROL_BUT_NEWLINE = re.compile(rf"(?!\n)[{CONTROLS}]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def has_control(text: str) -> bool:
    """Whether the text holds a control character (see the module docstring)."""
    return _CONTROL.search(text) is not None


def safe(text: str, newlines: bool = False) -> str:
    r"""The text with each control character written as an escape (``\x1b``).

    A newline is kept when ``newlines`` is true (text of several lines). Markup is
    left as it is: front ends draw the result as plain text, never as markup.
    """
    pattern = _CONTROL_BUT_NEWLINE if newlines else _CONTROL
    return pattern.sub(_escaped, text)
