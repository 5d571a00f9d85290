"""The research adapters' old module names still import, as their new modules, with a warning."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import pytest

MOVED = ["encoding", "index_encoding", "factored", "vector", "gymnasium", "pettingzoo", "openspiel"]
"""The modules that moved from ``buraco`` to ``buraco.rl``."""

NEEDS = {"factored": "gymnasium", "vector": "gymnasium", "gymnasium": "gymnasium"}
NEEDS |= {"pettingzoo": "pettingzoo", "openspiel": "pyspiel"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.rl] if n in NEEDS else []) for n in MOVED]
)
def test_an_old_name_gives_the_new_module_and_says_it_moved(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    needs = NEEDS.get(name)
    if needs is not None and importlib.util.find_spec(needs) is None:
        pytest.skip(f"buraco.rl.{name} needs {needs}")
    monkeypatch.delitem(sys.modules, f"buraco.{name}", raising=False)
    with pytest.warns(DeprecationWarning, match=rf"buraco\.{name} is now buraco\.rl\.{name}"):
        old = importlib.import_module(f"buraco.{name}")
    assert old is importlib.import_module(f"buraco.rl.{name}")
