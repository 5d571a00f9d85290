"""How the tests share the machine when pytest-xdist runs them on every core.

``pyproject.toml`` runs them with ``-n auto --dist loadgroup``. The server's tests stay in one
xdist group, run one after another by one worker, while the other workers share the rest:

- they start servers, server processes and a browser of their own, which need a core
  beside the test's to keep to their timeouts;
- one of them stops and starts the machine's PostgreSQL (``BURACO_PG_RESTART=1``), and no
  other test may be using it then.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SERVER_TESTS = Path(__file__).parent / "server"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the server's tests in one xdist group (see the module's docstring)."""
    for item in items:
        if SERVER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.xdist_group("server"))
