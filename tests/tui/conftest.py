"""The terminal's tests run in English unless a test asks for a language."""

from collections.abc import Iterator

import pytest

from buraco.tui import words


@pytest.fixture(autouse=True)
def english_board(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The locale says nothing (as in CI), and the words are English again after each test."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    words.use("en")
    yield
    words.use("en")
