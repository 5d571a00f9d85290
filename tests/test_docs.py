"""The documentation agrees with the engine: option defaults, and the README's commands."""

import json
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
    assert "buraco serve" in run and "pip install" in run
    assert "pytest" in test and "[test]" in test  # the fast tier needs the test extra alone
    ci = (ROOT / ".ci" / "run").read_text()
    assert test in ci


def test_the_mcts_parameter_table_gives_the_bot_s_defaults() -> None:
    import inspect

    from buraco.bots import MctsBot

    text = (ROOT / "docs" / "bots.md").read_text()
    table = text[text.index("| parameter | type | default | meaning |") :]
    table = table[: table.index("\n\n")]  # the table alone, not the tables after it
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


def _signed(x: float) -> str:
    return f"{'−' if round(x) < 0 else '+'}{abs(round(x))}"


def test_the_mcts_gauntlet_table_is_the_saved_rows_and_every_row_holds() -> None:
    # issue 18: "its full table for heuristic and mcts is in docs/bots.md with every row holding"
    from buraco.arena.gauntlet import HOLDS, gauntlet_rows, load_saved

    saved = load_saved(ROOT / "docs" / "data" / "gauntlet-mcts.jsonl")
    rows = gauntlet_rows("mcts", 40, seed=0)
    assert len(rows) == 87
    played = {"bot": "mcts", "base": None, "deals": 40, "seed": 0}
    wanted = {
        json.dumps(
            {**played, "preset": r.preset, "players": r.players, "exploit": r.exploit},
            sort_keys=True,
        )
        for r in rows
    }
    assert set(saved) == wanted
    by_row = {(g.preset, g.players, g.exploit): g for g in saved.values()}
    assert all(g.verdict == HOLDS for g in by_row.values())
    text = (ROOT / "docs" / "bots.md").read_text()
    table = text[text.index("All 87 rows are played, and every one holds") :]
    table = table[table.index("| preset |") : table.index("\n\n", table.index("| preset |"))]
    lines = table.splitlines()
    exploits = [h.strip(" `") for h in lines[0].split("|")[3:-1]]
    cells = 0
    for line in lines[2:]:
        preset, players, *shown = (c.strip() for c in line.split("|")[1:-1])
        for exploit, cell in zip(exploits, shown, strict=True):
            g = by_row.get((preset, int(players), exploit))
            if g is None:
                assert cell == "—", (preset, players, exploit)
                continue
            o, d = g.outcome, g.diff
            assert d.low is not None and d.high is not None
            wl = f"{o.wins}–{o.losses}" + (f"–{o.ties}" if o.ties else "")
            assert cell == f"{wl}, {_signed(d.mean)} ({_signed(d.low)}…{_signed(d.high)})"
            cells += 1
    assert cells == 87


_AGENT = "mcts:value=learned,time=0.05,depth=2,futile=0,limit=1"  # expert
_VALUE_NOTES = "docs/notes/2026-11-learned-value.md"


@pytest.mark.parametrize(
    ("agent", "data", "doc", "heading"),
    [
        (
            "mcts:value=learned,time=0.05,depth=2",
            "gauntlet-agent.jsonl",
            _VALUE_NOTES,
            "# Search with a learned value",
        ),
        (_AGENT, "gauntlet-agent-budget.jsonl", _VALUE_NOTES, "## The whole budget"),
        (_AGENT, "gauntlet-agent-league.jsonl", _VALUE_NOTES, "## Its own league"),
        (_AGENT, "gauntlet-agent-compiled.jsonl", _VALUE_NOTES, "**Compiled, on a slower core.**"),
        # the figures of expert, the model shipped: gathered in bots.md
        (
            _AGENT,
            "gauntlet-agent-league.jsonl",
            "docs/bots.md",
            "**Against the exploit bots** (`buraco arena --gauntlet expert",
        ),
        (_AGENT, "gauntlet-agent-compiled.jsonl", "docs/bots.md", "Compiled (1,376 s;"),
    ],
)
def test_the_learned_value_agent_s_gauntlet_is_the_saved_rows_and_every_row_holds(
    agent: str, data: str, doc: str, heading: str
) -> None:
    # issue 22: "no exploit bot above it" (aberto for 4)
    from buraco.arena.gauntlet import HOLDS, gauntlet_rows, load_saved

    saved = load_saved(ROOT / "docs" / "data" / data)
    rows = gauntlet_rows(agent, 40, tables=[("aberto", 4)], seed=0)
    assert {r.exploit for r in rows} == {g.exploit for g in saved.values()}
    assert len(saved) == len(rows) == 7
    assert all(g.verdict == HOLDS for g in saved.values())
    assert all(g.outcome.wins + g.outcome.losses + g.outcome.ties == 40 for g in saved.values())
    by_exploit = {g.exploit: g for g in saved.values()}
    text = (ROOT / doc).read_text()
    section = text[text.index(heading) :]
    table = section[section.index("| `hoarder` |") :]
    header, _, cells_line = table.splitlines()[:3]
    exploits = [h.strip(" `") for h in header.split("|")[1:-1]]
    cells = [c.strip() for c in cells_line.split("|")[1:-1]]
    assert len(cells) == len(exploits) == 7
    for exploit, cell in zip(exploits, cells, strict=True):
        o, d = by_exploit[exploit].outcome, by_exploit[exploit].diff
        assert d.low is not None and d.high is not None
        wl = f"{o.wins}–{o.losses}" + (f"–{o.ties}" if o.ties else "")
        assert cell == f"{wl}, {_signed(d.mean)} ({_signed(d.low)}…{_signed(d.high)})"


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces hyphens."""
    text = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    """Every heading's anchor in a Markdown page (a repeated one gets -1, -2, ...)."""
    seen: dict[str, int] = {}
    anchors = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", _without_blocks(text), re.M):
        slug = _slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _without_blocks(text: str) -> str:
    """A page without its code blocks: fenced, and indented after a blank line."""
    text = re.sub(r"^ *```.*?^ *```", "", text, flags=re.M | re.S)
    return re.sub(r"(?<=\n\n)(?:(?: {4}|\t).*\n)+", "", text)


def _prose(text: str) -> str:
    """A page without its code: its blocks and its inline code spans."""
    return re.sub(r"(`+).+?\1", "", _without_blocks(text))


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_relative_link_of_the_docs_points_at_a_file_and_heading_that_exist() -> None:
    broken = []
    links = 0
    for page in _pages():
        for target in re.findall(r"\]\(([^)\s]+)(?: \"[^\"]*\")?\)", _prose(page.read_text())):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            links += 1
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file.read_text()):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert links > 100
    assert not broken, "\n".join(broken)


def test_the_readme_s_levels_are_bots_and_the_docs_give_expert_s_spec() -> None:
    from buraco.bots import NAMED, make_bot

    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Bots\n") : readme.index("\n## ", readme.index("## Bots\n"))]
    levels = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert levels == ["random", "greedy", "heuristic", "mcts", "expert"]
    for level in levels:
        make_bot(level, seed=0)
    for doc in ("research.md", "bots.md"):
        text = (ROOT / "docs" / doc).read_text()
        assert f"`expert` is `{NAMED['expert']}`" in text.replace("\n", " ") or (
            f"`expert` stands for the spec `{NAMED['expert']}`" in text.replace("\n", " ")
        ), doc
