"""The modules a search spends its time in, and whether they run compiled.

A search (the ``mcts`` bot and ``expert``) spends nearly all its time in the
playout policy (:mod:`buraco.bots.heuristic`), in move generation (:mod:`buraco.movegen`,
:mod:`buraco.melds`) and in building the seats' views (:mod:`buraco.views`). They are
plain, fully typed Python, so `mypyc <https://mypyc.readthedocs.io>`_ can compile them
into C extensions that make the same choices faster (``scripts/compile_search.py``, from
a source checkout). Python imports a compiled module in preference to its source; without
one, the source runs as before. A search's budget in seconds buys more rounds compiled.

>>> from buraco.compiled import SEARCH_MODULES, compiled_modules
>>> set(compiled_modules()) <= set(SEARCH_MODULES)
True
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES

SEARCH_MODULES = (
    *(
        f"buraco.bots.heuristic.{name}"
        for name in ("weights", "reading", "memory", "turn", "planning", "danger", "bot")
    ),
    "buraco.movegen",
    "buraco.melds",
    "buraco.views",
)
"""The modules ``scripts/compile_search.py`` compiles, by import name."""


def compiled_modules() -> list[str]:
    """Those of :data:`SEARCH_MODULES` that Python loaded from a compiled extension."""
    out = []
    for name in SEARCH_MODULES:
        path = getattr(importlib.import_module(name), "__file__", None) or ""
        if path.endswith(tuple(EXTENSION_SUFFIXES)):
            out.append(name)
    return out
