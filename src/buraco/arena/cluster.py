"""Playing an arena's deals on a Ray cluster (``pip install 'buraco[ray]'``).

The deals are cut into batches of consecutive deal numbers; each batch is one Ray
task, which plays its deals one after the other with
:func:`buraco.arena.duplicate.play_deal`, the function the worker processes of
``workers=`` call too. A deal's result depends only on the arena's settings and its
number, and the runner puts the results back in deal order, so a seed gives the same
results on Ray, with any batch size and any number of nodes, as on one machine.

Game records (``records=``) are written by the calling process, not on the node that
played the game: each task sends its records' text back with its results, so a run on
several machines leaves every record in one directory.

Ray is imported only when a run asks for it, so the arena works without it.
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buraco.arena.duplicate import ArenaSpec, DealResult, play_deal
from buraco.arena.timing import TimeSketch

if TYPE_CHECKING:
    from types import ModuleType

RAY_HINT = "pip install 'buraco[ray]'"
"""How to install Ray for the arena."""

MAX_BATCH = 64
"""The most deals one task plays when the batch size is left to the arena."""

TASKS_PER_CPU = 8
"""With the batch size left to the arena, about this many tasks per CPU of the cluster
(so that a slow batch at the end leaves few CPUs idle)."""

IN_FLIGHT_PER_CPU = 4
"""Tasks submitted ahead per CPU of the cluster (so that an interrupt stops soon)."""

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a cluster's address to answer before Ray is asked to join it."""

Played = tuple[DealResult, list[TimeSketch]]
"""A deal's result and, per bot, its decision times (what :func:`play_deal` returns)."""

BatchResult = list[tuple[DealResult, list[TimeSketch], dict[str, bytes]]]
"""Per deal of a batch: its result, its decision times and its records' contents."""


class ClusterError(ValueError):
    """Ray is missing, or the cluster cannot be reached (a one-line message)."""


@dataclass(frozen=True)
class ClusterInfo:
    """Where an arena's deals were played on Ray."""

    address: str | None
    """The address given, or ``None`` for a local Ray (or one already started)."""
    cpus: int
    """The CPUs of the cluster when the run started."""
    nodes: int
    """The cluster's live nodes when the run started."""
    batch: int
    """Deals per task."""
    tasks: int

    def describe(self) -> str:
        """A short line for the report, e.g. ``Ray: 8 CPUs on 2 nodes, 16 deals a task``."""
        cpus = f"{self.cpus} CPU{'s' * (self.cpus != 1)}"
        nodes = f"{self.nodes} node{'s' * (self.nodes != 1)}"
        deals = f"{self.batch} deal{'s' * (self.batch != 1)} a task"
        return f"Ray: {cpus} on {nodes}, {deals}"

    def as_dict(self) -> dict[str, Any]:
        """The figures as JSON-friendly data."""
        return {
            "address": self.address,
            "cpus": self.cpus,
            "nodes": self.nodes,
            "batch": self.batch,
            "tasks": self.tasks,
        }


def default_batch(deals: int, cpus: int) -> int:
    """Deals per task when none is given: about :data:`TASKS_PER_CPU` tasks per CPU.

    At least 1 and at most :data:`MAX_BATCH` deals.

    >>> default_batch(20, 2), default_batch(1000, 4), default_batch(100_000, 64)
    (1, 31, 64)
    """
    return max(1, min(MAX_BATCH, deals // (TASKS_PER_CPU * max(1, cpus))))


def batches(deals: int, batch: int) -> list[range]:
    """The deal numbers ``0 .. deals - 1`` cut into consecutive runs of ``batch``.

    >>> batches(5, 2)
    [range(0, 2), range(2, 4), range(4, 5)]
    """
    return [range(start, min(start + batch, deals)) for start in range(0, deals, batch)]


def play_batch(spec: ArenaSpec, deals: range, records: bool) -> BatchResult:
    """Play the deals ``deals`` one after the other (what one Ray task runs).

    With ``records`` each deal's game records are written to a scratch directory by
    :func:`play_deal` and returned as ``{file name: contents}``, for the caller to
    write where it wants them.
    """
    out: BatchResult = []
    for d in deals:
        if not records:
            result, times = play_deal(spec, d)
            out.append((result, times, {}))
            continue
        with tempfile.TemporaryDirectory(prefix="buraco-arena-") as scratch:
            result, times = play_deal(spec, d, Path(scratch))
            texts = {p.name: p.read_bytes() for p in sorted(Path(scratch).iterdir())}
        out.append((result, times, texts))
    return out


def import_ray() -> ModuleType:
    """The ``ray`` module, or :class:`ClusterError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ClusterError(f"Ray is not installed; for --ray: {RAY_HINT}") from None
    return ray


def check_address(address: str) -> None:
    """Fail at once, in one line, if ``address`` (``HOST:PORT``) does not answer.

    Ray itself would retry for minutes before giving up. ``auto``, ``local`` and
    addresses without a port are left for Ray to judge.
    """
    where = address.removeprefix("ray://")
    host, sep, port = where.rpartition(":")
    if not sep or not host or not port.isdigit():
        if address in ("auto", "local"):
            return
        raise ClusterError(
            f"Ray address {address!r}: write it as HOST:PORT, e.g. 10.0.0.5:6379 "
            "(the head node's, as 'ray start --head' prints it)"
        )
    reason = unreachable(host.strip("[]"), int(port))
    if reason is not None:
        raise ClusterError(
            f"no Ray cluster answers at {address} ({reason}); start one with "
            "'ray start --head' or leave out the address for a local Ray"
        )


def unreachable(host: str, port: int) -> str | None:
    """Why nothing accepts a connection at ``host:port``, or ``None`` if something does."""
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            return None
    except OSError as exc:
        return exc.strerror or str(exc) or type(exc).__name__


def last_started() -> str | None:
    """The address of the cluster last started on this machine with ``ray start``.

    ``ray.init()`` without an address joins it; ``None`` when there is none (or this
    version of Ray keeps it elsewhere).
    """
    try:
        services = importlib.import_module("ray._private.services")
        found = services.find_bootstrap_address(None)
    except Exception:
        return None
    return found if isinstance(found, str) and found else None


def _check_default_address() -> None:
    # the cluster ray.init() joins without an address must answer: Ray would retry for
    # minutes
    if os.environ.get("RAY_ADDRESS"):
        check_address(os.environ["RAY_ADDRESS"])
        return
    recorded = last_started()
    host, _, port = (recorded or "").rpartition(":")
    reason = unreachable(host, int(port)) if host and port.isdigit() else None
    if reason is not None:
        raise ClusterError(
            f"no Ray cluster answers at {recorded}, the one last started on this machine "
            f"with 'ray start' ({reason}); 'ray stop' forgets it"
        )


def connect(address: str | None) -> tuple[ModuleType, bool]:
    """Join the Ray cluster at ``address`` (a local Ray when ``None``).

    Returns the ``ray`` module and whether this call started the connection (and so
    should end it). A Ray already started in this process, with its own options, is
    used as it is. Without an address, ``ray.init()`` joins the cluster in
    ``RAY_ADDRESS`` or one started on this machine with ``ray start``, else starts one.
    """
    ray = import_ray()
    if address is not None:
        check_address(address)
    if ray.is_initialized():
        return ray, False
    if address is None:
        _check_default_address()
    kwargs: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    if address is None:
        kwargs["include_dashboard"] = False
    try:
        ray.init(address=address, **kwargs)
    except (ConnectionError, ValueError, RuntimeError, TimeoutError, SystemExit) as exc:
        where = "a local Ray" if address is None else f"the Ray cluster at {address}"
        message = " ".join(str(exc).split()) or type(exc).__name__
        if address is not None and isinstance(exc, ConnectionError):
            message += " (with token authentication on the cluster, set RAY_AUTH_MODE=token here)"
        raise ClusterError(f"cannot start or join {where}: {message}") from None
    return ray, True


def run_on_ray(
    spec: ArenaSpec,
    address: str | None,
    batch: int | None,
    records: Path | None,
    done: dict[int, Played],
    progress: Callable[[DealResult], None] | None,
) -> ClusterInfo:
    """Play every deal of ``spec`` on Ray, into ``done`` (deal number to result).

    ``batch`` deals per task (``None``: :func:`default_batch`). ``records`` is a
    directory of this machine for the game records; ``progress`` is called with each
    deal's result as its batch finishes.
    """
    if batch is not None and (type(batch) is not int or batch < 1):
        raise ValueError(f"batch must be at least 1, not {batch}")
    ray, started = connect(address)
    try:
        resources = ray.cluster_resources()
        cpus = max(1, int(resources.get("CPU", 1)))
        nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
        size = default_batch(spec.deals, cpus) if batch is None else batch
        work = batches(spec.deals, size)
        info = ClusterInfo(address, cpus, nodes, size, len(work))
        remote = ray.remote(play_batch)
        spec_ref = ray.put(spec)
        upcoming: Iterator[range] = iter(work)
        pending: dict[Any, range] = {}

        def submit() -> None:
            deals = next(upcoming, None)
            if deals is not None:
                pending[remote.remote(spec_ref, deals, records is not None)] = deals

        try:
            for _ in range(IN_FLIGHT_PER_CPU * cpus):
                submit()
            while pending:
                finished, _ = ray.wait(list(pending), num_returns=1)
                for ref in finished:
                    pending.pop(ref)
                    submit()
                    for result, times, texts in _get(ray, ref):
                        if records is not None:
                            for name, data in texts.items():
                                (records / name).write_bytes(data)
                        done[result.deal] = (result, times)
                        if progress is not None:
                            progress(result)
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise
        return info
    finally:
        if started:
            ray.shutdown()


def _get(ray: ModuleType, ref: Any) -> BatchResult:
    # a task that failed on its node (buraco missing or another version there, a bug)
    # raises its error here: one line, with the node's exception chained
    try:
        out: BatchResult = ray.get(ref)
    except ray.exceptions.RayError as exc:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        last = lines[-1] if lines else type(exc).__name__
        raise ClusterError(
            f"a Ray task failed: {last} (is the same buraco installed on every node?)"
        ) from exc
    return out
