"""`buraco replay` against a corpus of broken and hostile records.

Each mutation of a real record (truncated, a field of the wrong type, huge numbers, deep
nesting, a duplicated or missing card, an action after the end, markup and control
characters in every text field) must give one error line and a non-zero exit, never a
traceback, and never write a control character to the terminal. A mutation that leaves a
valid record (a name such as ``[/]``) must replay and print that text as it is.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from buraco import Game
from buraco.bots import make_bot, play_hand
from buraco.cli import app
from clikit import CliRunner

runner = CliRunner()

HOSTILE_TEXT = ("[bold red]x[/]", "[/]", "\x1b[2J\x1b[31mred", "a\x07b\rc\x00d", "\u202eevil")
"""Markup and control characters, as they may stand in any text field."""

WRONG_TYPES: tuple[Any, ...] = (None, True, 1.5, "x", [], {}, 10**30, -1, [[[]]])
"""Values of the wrong type or range for a field."""

TIME_BOUND = 10.0
"""Seconds any one record may take: far above a real replay, it catches a hang."""


def base_record() -> dict[str, Any]:
    """A real two-player hand of aberto, played to its end by greedy bots: a short one (108
    actions), as each of the ~800 mutations replays it."""
    game = Game("aberto", players=2, seed=35, match=False, names=["Ana", "Bia"])
    play_hand(game, [make_bot("greedy", seed=s) for s in range(2)])
    record: dict[str, Any] = game.record()
    return record


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, but only the first and last few actions of a hand."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        indexes = list(range(len(value)))
        if prefix and prefix[-1] == "actions":
            indexes = indexes[:2] + indexes[-1:]
        for i in indexes:
            yield from paths(value[i], (*prefix, i))


def replaced(record: dict[str, Any], path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(record)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


def corpus() -> Iterator[tuple[str, str]]:
    """(name, JSON text) of every mutation."""
    record = base_record()
    text = json.dumps(record)
    for cut in (0, 1, 10, len(text) // 2, len(text) - 1):
        yield f"truncated at {cut}", text[:cut]
    for path in paths(record):
        if not path:
            continue
        where = ".".join(map(str, path))
        for new in WRONG_TYPES:
            yield f"{where} = {new!r:.20}", json.dumps(replaced(record, path, new))
        old = record
        for key in path:
            old = old[key]
        if isinstance(old, str):
            for hostile in HOSTILE_TEXT:
                yield f"{where} hostile {hostile!r}", json.dumps(replaced(record, path, hostile))
                yield (
                    f"{where} suffix {hostile!r}",
                    json.dumps(replaced(record, path, old + hostile)),
                )
    huge = "9" * 5000
    for key in ("seed", "version", "first_dealer"):
        old_text = f'"{key}": {json.dumps(record[key])}'
        assert old_text in text
        yield f"{key} of 5000 digits", text.replace(old_text, f'"{key}": {huge}', 1)
    hand = record["hands"][0]
    for key in ("dealer", "cut"):
        old_text = f'"{key}": {hand[key]}'
        assert old_text in text
        yield f"hands[0].{key} of 5000 digits", text.replace(old_text, f'"{key}": {huge}', 1)
        yield f"hands[0].{key} = 10**30", text.replace(old_text, f'"{key}": {10**30}', 1)
    deep = "[" * 100_000 + "]" * 100_000
    yield "deep nesting in names", text.replace('"names": ["Ana", "Bia"]', f'"names": {deep}')
    yield "deep nesting in options", text.replace('"options": {}', f'"options": {{"x": {deep}}}')
    yield "deep nesting at the top", deep
    deck = record["hands"][0]["deck"].split()
    twice = [deck[1], *deck[1:]]
    yield (
        "a card twice, one missing",
        json.dumps(replaced(record, ("hands", 0, "deck"), " ".join(twice))),
    )
    yield "a card missing", json.dumps(replaced(record, ("hands", 0, "deck"), " ".join(deck[1:])))
    actions = [*record["hands"][0]["actions"], [0, "draw"]]
    yield "an action after the end", json.dumps(replaced(record, ("hands", 0, "actions"), actions))
    yield "an unknown field", json.dumps({**record, "extra": 1})
    yield "NaN", text.replace('"seed": 35', '"seed": NaN')
    yield "not UTF-8", text[:20] + "\udcff"


CORPUS = list(corpus())


def check_output(name: str, code: int, output: str, seconds: float) -> None:
    assert seconds < TIME_BOUND, f"{name}: {seconds:.1f} s"
    assert "Traceback" not in output, f"{name}: {output}"
    assert not any(ch in output for ch in "\x1b\x07\x00\r\u202e"), f"{name}: {output!r}"
    if code == 0:
        return  # still a valid record (a name such as '[/]'): checked below
    assert code in (1, 2), f"{name}: exit {code}"
    lines = output.strip().splitlines()
    assert len(lines) == 1, f"{name}: {output}"
    assert lines[0].startswith(("error: ", "illegal action")), f"{name}: {output}"


@pytest.mark.slow  # every record of the corpus, mutated many ways
def test_every_mutated_record_gives_one_error_line(tmp_path: Path) -> None:
    assert len(CORPUS) > 500
    valid = 0
    for i, (name, text) in enumerate(CORPUS):
        path = tmp_path / f"r{i}.json"
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        start = time.perf_counter()
        result = runner.invoke(app, ["replay", str(path)])
        seconds = time.perf_counter() - start
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"{name}: {result.exception!r}"
        )
        check_output(name, result.exit_code, result.output, seconds)
        valid += result.exit_code == 0
    # names, among the fields, may be any printable text: those records still replay
    assert 0 < valid < len(CORPUS) // 4


@pytest.mark.parametrize("name", ["[/]", "[bold red]x[/]", "a [link=x]b[/link]"])
def test_a_name_with_markup_is_printed_as_written(tmp_path: Path, name: str) -> None:
    record = base_record()
    record["names"] = [name, "Bia"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert f"side 0 ({name})" in result.output


def test_escape_codes_in_a_name_never_reach_the_terminal(tmp_path: Path) -> None:
    # the engine refuses such a name; the error line shows it escaped
    record = base_record()
    record["names"] = ["\x1b[2J\x1b[31mAna", "Bia"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "buraco", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "\x1b" not in result.stdout + result.stderr
    assert "control character" in result.stderr and "\\x1b[2J" in result.stderr


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("/dev/zero", "larger than 16 MiB"),
        ("/proc", "Is a directory"),
        ("/nonexistent/record.json", "No such file or directory"),
    ],
)
def test_files_that_are_no_records_fail_quickly(source: str, words: str) -> None:
    if not Path(source).exists() and source != "/nonexistent/record.json":
        pytest.skip(f"{source} does not exist here")
    result = subprocess.run(
        [sys.executable, "-m", "buraco", "replay", source],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and words in result.stderr
