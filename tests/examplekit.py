"""Helpers for tests of the scripts in ``examples/`` and ``scripts/``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
"""The repository's examples folder."""

SCRIPTS = EXAMPLES.parent / "scripts"
"""The repository's scripts folder (training and measuring, not shipped)."""


def _load(folder: Path, name: str) -> ModuleType:
    """Import ``<folder>/<name>.py`` as module ``name`` (neither folder is a package).

    The module is registered under its name, so its functions pickle by reference into
    the worker processes a script starts.
    """
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` as a module."""
    return _load(EXAMPLES, name)


def load_script(name: str) -> ModuleType:
    """Import ``scripts/<name>.py`` as a module."""
    return _load(SCRIPTS, name)
