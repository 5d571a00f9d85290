"""The examples of docs/research.md run, and its figures of the spaces are the code's."""

import contextlib
import io
import re
from pathlib import Path

from buraco.encoding import ADD, MELD_CARD, MELD_END, MOVE, N_ACTIONS, OBS_SIZE, observation_slices

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
