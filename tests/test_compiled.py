import importlib
import json
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from buraco.compiled import SEARCH_MODULES, compiled_modules

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "compile_search.py"


def test_a_module_loaded_from_an_extension_is_named_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    views = importlib.import_module("buraco.views")
    source = str(Path(views.__file__ or "views.py").with_name("views.py"))
    monkeypatch.setattr(views, "__file__", source)
    assert "buraco.views" not in compiled_modules()
    monkeypatch.setattr(views, "__file__", source.removesuffix(".py") + EXTENSION_SUFFIXES[0])
    assert "buraco.views" in compiled_modules()
    assert set(compiled_modules()) <= set(SEARCH_MODULES)


def test_the_compile_script_digests_seeded_hands_played_from_the_source() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--digest"], capture_output=True, text=True, check=True
    )
    digest = json.loads(done.stdout)
    assert digest["compiled"] == [] and digest["actions"] > 1000
    assert len(digest["sha256"]) == 64
