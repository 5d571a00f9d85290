"""Compile the modules a search spends its time in with mypyc, or go back to the source.

From a source checkout installed in place (``pip install -e '.[dev]'``, which brings mypy
and so mypyc); compiling needs a C compiler and Python's headers as well::

    .venv/bin/python scripts/compile_search.py            # compile them in place
    .venv/bin/python scripts/compile_search.py --clean    # remove what was compiled
    .venv/bin/python scripts/compile_search.py --check    # compile a copy, compare its play

The compiled modules (see :mod:`buraco.compiled`) make the same choices as the source,
faster: ``--check`` plays seeded hands with both and fails unless every action is the
same. ``buraco bench`` names the modules that run compiled. Compile again after changing
one of them (a stale compiled module runs the old code), or ``--clean``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
BUILD = ROOT / "build"


def _sources() -> list[Path]:
    from buraco.compiled import SEARCH_MODULES

    return [SRC / (name.replace(".", "/") + ".py") for name in SEARCH_MODULES]


def _built() -> list[Path]:
    """The compiled files in the source tree: each module's and mypyc's shared library."""
    out = [p for p in SRC.glob("*__mypyc.*") if p.is_file()]
    for source in _sources():
        out += [p for p in source.parent.glob(source.stem + ".*") if p.suffix in (".so", ".pyd")]
    return out


def clean() -> int:
    """Remove the compiled modules (and the build directory); how many files went."""
    built = _built()
    for path in built:
        path.unlink()
    shutil.rmtree(BUILD, ignore_errors=True)
    return len(built)


def compile_search(src: Path = SRC) -> None:
    """Compile the search's modules next to their sources in ``src`` (a copy of ``SRC``).

    Run from the checkout's root for the checkout itself (its ``pyproject.toml`` tells the
    build where the package is), from ``src`` for a copy.
    """
    cwd = ROOT if src == SRC else src
    sources = [str(src / p.relative_to(SRC)) for p in _sources()]
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *[str(Path(s).relative_to(cwd)) for s in sources]],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"mypyc failed (exit {done.returncode})")


def digest() -> dict[str, object]:
    """The actions of seeded hands (every preset's heuristic, then searches), hashed."""
    from buraco.bots import make_bot
    from buraco.bots.play import play_hand
    from buraco.compiled import compiled_modules
    from buraco.game import Game

    actions: list[str] = []

    def note(seat: int, legal: object, action: object) -> None:
        actions.append(f"{seat} {action}")

    for preset, players in (("aberto", 4), ("italiano", 2), ("fechado", 4), ("us", 4)):
        for hand in range(3):
            game = Game(preset, players=players, seed=500 + hand, match=False)
            bots = [make_bot("heuristic", seed=s) for s in range(players)]
            play_hand(game, bots, on_decision=note)
    agent = "mcts:value=learned,iterations=5,time=0,depth=2,futile=0"
    game = Game("aberto", players=4, seed=1000, match=False)
    bots = [
        make_bot(agent, seed=0),
        make_bot("mcts:iterations=4,time=0", seed=1),
        make_bot(agent, seed=2),
        make_bot("heuristic", seed=3),
    ]
    play_hand(game, bots, on_decision=note)
    text = "\n".join(actions)
    return {
        "actions": len(actions),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "compiled": compiled_modules(),
    }


def _digest_in_child(src: Path) -> dict[str, object]:
    """The digest played by a new process that imports ``buraco`` from ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, __file__, "--digest"], capture_output=True, text=True, env=env
    )
    if done.returncode:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit("the seeded hands failed to play")
    result: dict[str, object] = json.loads(done.stdout)
    return result


def check() -> None:
    """Compile a copy of the source, and fail unless it plays every seeded action the same.

    The checkout is left as it is: the copy is made, compiled and played in a temporary
    directory (so a test run may go on beside it).
    """
    from buraco.compiled import SEARCH_MODULES

    with tempfile.TemporaryDirectory(prefix="buraco-compiled-") as tmp:
        root = Path(tmp)
        shutil.copytree(
            SRC, root / "src", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
        )
        source = _digest_in_child(root / "src")
        if source["compiled"]:
            raise SystemExit(f"the copy of the source holds compiled modules: {source['compiled']}")
        compile_search(root / "src")
        built = _digest_in_child(root / "src")
    if built["compiled"] != list(SEARCH_MODULES):
        raise SystemExit(f"not every module runs compiled: {built['compiled']}")
    if built["sha256"] != source["sha256"] or built["actions"] != source["actions"]:
        raise SystemExit(
            f"the compiled modules played otherwise: {built['actions']} actions "
            f"{built['sha256']}, the source {source['actions']} {source['sha256']}"
        )
    same = f"{source['actions']} actions ({str(source['sha256'])[:16]})"
    print(f"compiled and source played the same {same}")


def main() -> None:
    """Compile, clean or check (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--clean", action="store_true", help="remove the compiled modules")
    group.add_argument(
        "--check", action="store_true", help="compile a copy and compare its play with the source's"
    )
    group.add_argument("--digest", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.digest:
        print(json.dumps(digest()))
    elif args.clean:
        print(f"removed {clean()} compiled files")
    elif args.check:
        check()
    else:
        clean()
        compile_search()
        from buraco.compiled import SEARCH_MODULES

        print("compiled: " + ", ".join(SEARCH_MODULES))


if __name__ == "__main__":
    main()
