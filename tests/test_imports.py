"""The package's rooms: no module imports one that imports it back, and data flows one way.

The imports are read from the source (every ``import``, those inside functions too; those
under ``if TYPE_CHECKING:`` are only for the type checker and left out), as a graph of the
package's modules.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import networkx as nx

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "buraco"

FRONT_ENDS = (
    *("buraco.bots", "buraco.rl", "buraco.arena", "buraco.cli", "buraco.tui"),
    *("buraco.server", "buraco.tournament", "buraco.review"),
)
"""The rooms above the rules core."""

ABOVE = ("buraco", "buraco.__main__")
"""The package's front door and ``python -m buraco``: they gather the rooms."""

MOVED = ("encoding", "index_encoding", "factored", "vector", "gymnasium", "pettingzoo", "openspiel")
"""The research adapters' old names, deprecated aliases of their modules in ``buraco.rl``."""

ENCODINGS = ("buraco.rl.encoding", "buraco.rl.index_encoding", "buraco.rl.tokens")
"""The research adapters' encodings, below both the bots and the environments."""


def _name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts).removesuffix(".__init__")


def _type_checking_only(tree: ast.Module) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for part in node.body for n in ast.walk(part)}
    return skip


def _imported(name: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules that the module ``name`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # a name that is a submodule is that module; any other is a name of ``base``
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]  # a name inside a module: the module
            if target and target != name:
                out.add(target)
    return out


@cache
def graph() -> nx.DiGraph[str]:
    """The package's modules, an edge from each to every module it imports."""
    paths = {
        _name(p): p for p in PACKAGE.rglob("*.py") if "migrations" not in p.relative_to(SRC).parts
    }
    g: nx.DiGraph[str] = nx.DiGraph()
    g.add_nodes_from(paths)
    for name, path in paths.items():
        g.add_edges_from((name, target) for target in _imported(name, path, set(paths)))
    return g


def _inside(module: str, rooms: tuple[str, ...]) -> bool:
    return any(module == room or module.startswith(room + ".") for room in rooms)


def test_the_graph_sees_the_imports_it_should() -> None:
    g = graph()
    assert g.has_edge("buraco.game", "buraco.rules")  # a plain import
    assert g.has_edge("buraco.game", "buraco.views")  # an import inside a method
    assert not g.has_edge("buraco.record", "buraco.game")  # only under TYPE_CHECKING
    assert g.has_edge("buraco.bots.mcts", "buraco.bots.playout")


def test_no_module_imports_one_that_imports_it_back() -> None:
    circles = [sorted(c) for c in nx.strongly_connected_components(graph()) if len(c) > 1]
    assert circles == [], circles


def test_the_rules_core_imports_no_front_end() -> None:
    aside = {*ABOVE, *(f"buraco.{name}" for name in MOVED)}
    core = [m for m in graph() if m not in aside and not _inside(m, FRONT_ENDS)]
    assert "buraco.game" in core and "buraco.views" in core
    wrong = {m: sorted(t for t in graph()[m] if _inside(t, FRONT_ENDS)) for m in core}
    assert {m: t for m, t in wrong.items() if t} == {}


def test_bots_use_the_encodings_and_no_learning_environment() -> None:
    g = graph()
    for module in g:
        if _inside(module, ("buraco.bots",)):
            reached = nx.descendants(g, module)
            rl = sorted(m for m in reached if _inside(m, ("buraco.rl",)))
            assert set(rl) <= set(ENCODINGS), (module, rl)
    for encoding in ENCODINGS:
        reached = nx.descendants(g, encoding)
        assert not any(_inside(m, FRONT_ENDS[:1]) for m in reached), (encoding, reached)


WEB = PACKAGE / "server" / "web"
"""The page's JavaScript modules (docs/online.md, the web page)."""


def web_graph() -> nx.DiGraph[str]:
    """The page's modules, an edge from each to every module it imports."""
    g: nx.DiGraph[str] = nx.DiGraph()
    for path in WEB.glob("*.js"):
        g.add_node(path.name)
        source = path.read_text(encoding="utf-8")
        g.add_edges_from((path.name, t) for t in re.findall(r'from\s+"\./([\w-]+\.js)"', source))
    return g


def test_the_page_modules_import_no_circle() -> None:
    g = web_graph()
    assert g.has_edge("table.js", "socket.js") and g.has_edge("connection.js", "table.js")
    circles = [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1]
    assert circles == [], circles
