"""The test tiers: which tests the plain ``pytest`` runs, and which wait for their own run.

``pytest`` alone runs the **fast tier**: the rules, the bots, the records, the command line,
the terminal game, the library parts of the server and tournaments (on SQLite, in this
process) and the doctests. It needs only the ``test`` extra. Every other test carries one
of these markers, given here by where the test is or what it uses, or by a
``@pytest.mark.slow`` of its own:

``browser``
    drives Debian's Chromium through Playwright (the ``browser`` extra).
``services``
    needs PostgreSQL, Redis or server processes of its own: every test on the
    ``postgresql`` database, every test of several processes, the kill-and-resume tests.
``rl``
    needs the research extras (``rl``, ``torch``, ``openspiel``, ``sb3``, ``ray``).
``slow``
    a long run: fuzzing the API, statistical checks over many hands, training.

``pytest -m services`` (or ``browser``, ``rl``, ``slow``) runs one tier; ``pytest -m ""``
runs every test. ``.ci/run`` runs every tier.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TIERS = {
    "browser": "drives Chromium through Playwright (the browser extra)",
    "services": "needs PostgreSQL, Redis or server processes of its own",
    "rl": "needs the research extras (rl, torch, openspiel, sb3, ray)",
    "slow": "a long run: fuzzing, statistics over many hands, training",
}
"""Each marker of a tier beside the fast one, and what its tests need."""

HERE = Path(__file__).parent / "tests"
SRC = HERE.parent / "src"
"""The tests' folder (this file is at the root, so that its tiers hold wherever pytest is
pointed: at ``tests``, at one file, or at the package's doctests)."""

BY_FILE = {
    "bots/test_learned.py": "rl",
    "server/test_browser.py": "browser",
    "server/test_cluster.py": "services",
    "server/test_cluster_processes.py": "services",
    "server/test_loadtest.py": "services",
    "server/test_tournament_caps.py": "services",
    "server/test_schema.py": "slow",
    "server/test_fuzz_ws.py": "slow",
    "bots/test_fit_value.py": "slow",
    "arena/test_ray.py": "rl",
}
"""Files whose every test is of one tier."""

BY_FOLDER = {"rl": "rl"}
"""Folders whose every test is of one tier."""

RL_MODULES = frozenset(
    f"buraco/rl/{name}.py"
    for name in ("factored", "gymnasium", "openspiel", "pettingzoo", "vector")
)
"""The package's modules whose doctests need the research extras (the encodings below them
need NumPy alone)."""

SERVICE_FIXTURES = frozenset({"pg_url", "fresh_pg", "redis_url"})
"""Fixtures that reach PostgreSQL or Redis."""


def tier_of(item: pytest.Item) -> str | None:
    """The tier a test belongs to by where it is and what it uses (None: the fast tier)."""
    try:
        where = item.path.relative_to(HERE)
    except ValueError:  # a doctest of the package
        return "rl" if item.path.relative_to(SRC).as_posix() in RL_MODULES else None
    by_file = BY_FILE.get(where.as_posix())
    if by_file is not None:
        return by_file
    if where.parts and where.parts[0] in BY_FOLDER:
        return BY_FOLDER[where.parts[0]]
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    on_postgresql = callspec is not None and callspec.params.get("db_url") == "postgresql"
    if on_postgresql or fixtures & SERVICE_FIXTURES:
        return "services"
    return None


def pytest_configure(config: pytest.Config) -> None:
    """Register the tiers' markers."""
    for name, what in TIERS.items():
        config.addinivalue_line("markers", f"{name}: {what}")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier, before ``-m`` chooses among them."""
    for item in items:
        tier = tier_of(item)
        if tier is not None and item.get_closest_marker(tier) is None:
            item.add_marker(getattr(pytest.mark, tier))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core.

    Many of the fast tier's tests wait (for a server's answer, a bot's move, a terminal's
    frame) rather than compute, so a second worker a core keeps the cores busy: on a 2-core
    machine the tier took 234 s with 4 workers against 275-310 s with 2.
    """
    del config
    return 2 * (os.cpu_count() or 1)
