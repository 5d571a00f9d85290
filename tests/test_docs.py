"""The documentation agrees with the engine: option defaults, and the README's commands."""

import re
from pathlib import Path

import pytest

from buraco.errors import RulesError
from buraco.rules import _HINTS, PRESETS, make_rules, option_bounds, option_names

ROOT = Path(__file__).resolve().parent.parent


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value) if value != "" else "(none)"


def test_every_option_is_in_the_docs_table_with_each_presets_default() -> None:
    text = (ROOT / "docs" / "options.md").read_text()
    rows = {
        m.group(1): [c.strip() for c in m.group(2).split(" | ")]
        for m in re.finditer(r"^\| `(\w+)` \| [^|]*(?:\\\|[^|]*)* \| (.*) \|$", text, re.M)
    }
    presets = list(PRESETS)
    assert presets == ["aberto", "fechado", "us", "netcartas", "italiano"]
    for name in option_names():
        assert name in rows, f"docs/options.md has no row for {name}"
        if name in ("players", "sides"):
            continue
        cells = rows[name][: len(presets)]
        for preset, cell in zip(presets, cells, strict=True):
            rules = make_rules(preset)
            assert cell == _shown(getattr(rules, name)), (name, preset, cell)


def test_the_readme_starts_with_the_two_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text().splitlines()
    commands = [line.strip() for line in readme[:12] if line.startswith("    ")]
    assert len(commands) == 2
    run, test = commands
    assert "buraco simulate" in run and "pip install" in run
    assert "pytest" in test
    ci = (ROOT / ".ci" / "run").read_text()
    assert test in ci


def test_the_mcts_parameter_table_gives_the_bot_s_defaults() -> None:
    import inspect

    from buraco.bots import MctsBot

    text = (ROOT / "docs" / "bots.md").read_text()
    table = text[text.index("| parameter | type | default | meaning |") :]
    rows = dict(re.findall(r"^\| `(\w+)` \| [^|]* \| ([^|]*) \|", table, re.M))
    defaults = {
        name: p.default
        for name, p in inspect.signature(MctsBot.__init__).parameters.items()
        if name not in ("self", "seed")
    }
    assert set(rows) == set(defaults) == set(MctsBot.params)
    for name, default in defaults.items():
        shown = rows[name].split()[0].strip("`")
        assert shown == _shown(default), (name, rows[name], default)


def test_the_docs_give_each_whole_number_options_bounds() -> None:
    # the bounds the engine enforces are the ones the table promises
    text = (ROOT / "docs" / "options.md").read_text()
    for name in option_names():
        if name in ("players", "sides") or _HINTS[name] is not int:
            continue
        low, high = option_bounds(name)
        assert f"| `{name}` | whole number {low}–{high} |" in text, name
        if name not in _CROSS_CHECKED:
            assert getattr(make_rules("aberto", **{name: high}), name) == high
        with pytest.raises(RulesError, match=f"use {low} to {high}"):
            make_rules("aberto", **{name: high + 1})


# options whose largest value other options must make room for (a pack big enough, ...)
_CROSS_CHECKED = {"hand_size", "stock_reserve", "jokers_per_deck", "decks"}
