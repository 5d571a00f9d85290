"""The examples of docs/research.md run, and its figures of the spaces are the code's."""

import contextlib
import io
import re
from pathlib import Path

from buraco.rl.encoding import (
    ADD,
    MELD_CARD,
    MELD_END,
    MOVE,
    N_ACTIONS,
    OBS_SIZE,
    observation_slices,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_the_python_examples_run_and_print_what_they_say() -> None:
    # the sections on the environments and the encoding (the page's later sections are
    # other interfaces')
    text = DOC.read_text().split("## What the tests check")[0]
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3
    checked = 0
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(DOC), "exec"), {})
        printed = out.getvalue().splitlines()
        claims = [
            m.group(1) for m in re.finditer(r"^print\(.*\)\s+# (\(.*\)|meld .*|True)$", block, re.M)
        ]
        for claim in claims:
            assert claim in printed, (claim, printed)
            checked += 1
    assert checked == 4


def test_the_sizes_and_index_ranges_are_the_code_s() -> None:
    text = DOC.read_text()
    assert f"Discrete({N_ACTIONS})" in text and f"float32[{OBS_SIZE}]" in text
    assert f"| {MELD_END} |" in text
    assert f"| {MELD_CARD}–{MELD_END - 1} |" in text
    assert f"| {ADD}–{MOVE - 1} |" in text and f"| {MOVE}–{N_ACTIONS - 1} |" in text
    slices = observation_slices()
    named = []
    for m in re.finditer(r"^\| ((?:`\w+`(?:, )?)+) \| (\d+)(?:(?:–|, )(\d+))? \|", text, re.M):
        names = re.findall(r"`(\w+)`", m.group(1))
        first, last = int(m.group(2)), int(m.group(3) or m.group(2))
        assert (first, last) == (slices[names[0]].start, slices[names[-1]].stop - 1), names
        named.extend(names)
    assert named == list(slices)


def test_the_pettingzoo_compared_with_is_named() -> None:
    """gin_rummy_v4 left PettingZoo in 1.27: the page names the release it compares with."""
    import importlib.metadata
    import importlib.util
    import tomllib

    from packaging.version import Version

    text = DOC.read_text()
    extras = tomllib.loads((DOC.parents[1] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    floor = next(Version(d.split(">=")[1]) for d in extras["rl"] if d.startswith("pettingzoo>="))
    named = re.findall(r"gin_rummy_v4`.{0,300}?PettingZoo (\d+\.\d+\.\d+), the last", text, re.S)
    assert named and all(Version(v) < floor for v in named), named
    assert f"PettingZoo {floor}" in text and "removed it in 1.27.0" in text
    assert f"pettingzoo[classic]=={named[0]}" in text
    installed = Version(importlib.metadata.version("pettingzoo"))
    has_gin = importlib.util.find_spec("pettingzoo.classic.gin_rummy_v4") is not None
    assert has_gin == (installed < Version("1.27.0"))


def test_the_picture_s_size_is_the_code_s() -> None:
    from buraco.cards import N_CODES
    from buraco.rl.pettingzoo import IMAGE_ROWS, render_image

    height, width, depth = render_image(None).shape
    assert (height, width) == (len(IMAGE_ROWS) * 8, N_CODES * 8)
    assert f"`uint8` array of {height} × {width} × {depth}" in DOC.read_text()
