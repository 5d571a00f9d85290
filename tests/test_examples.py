"""The example scripts name the extra to install when a package they need is missing."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import pytest

from examplekit import EXAMPLES

NEEDS = {
    "plot_league": ("matplotlib", "'.[plot]'"),
    "train_league": ("torch", "'.[sb3]'"),
    "train_openspiel_dqn": ("pyspiel", "'.[openspiel,torch]'"),
    "train_policy": ("torch", "'.[torch,rl]'"),
    "train_sb3": ("torch", "'.[sb3]'"),
}


def test_every_example_is_covered() -> None:
    assert {p.stem for p in EXAMPLES.glob("*.py")} == set(NEEDS)


@pytest.mark.parametrize("name", sorted(NEEDS))
def test_a_missing_package_is_one_line_naming_the_extra(name: str) -> None:
    package, extra = NEEDS[name]
    # the package is hidden as if not installed: importing it raises ImportError
    hide = (
        "import runpy, sys; "
        f"sys.modules[{package!r}] = None; sys.argv = [{name!r}, '--help']; "
        f"runpy.run_path({str(EXAMPLES / f'{name}.py')!r}, run_name='__main__')"
    )
    done = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    said = re.fullmatch(r"this example needs (\S+): pip install -e (.+)", done.stderr.strip())
    assert said is not None, done.stderr
    assert said[2] == extra
    # the hidden package, or one the example imports before it that is not installed here
    assert said[1] == package or importlib.util.find_spec(said[1]) is None, said[1]
