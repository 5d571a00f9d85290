"""Helpers for tests of the scripts in ``examples/``."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
"""The repository's examples folder."""


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` as a module (the examples are not a package)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
