"""The arena on Ray: the same results as worker processes, whatever the batch size.

The tests that play deals need Ray (``pip install 'buraco[ray]'``) and skip without it;
they share one local Ray of two CPUs, started after the results without Ray are made
(worker processes are forked, which a process running Ray should not do).
"""

import dataclasses
import json
import logging
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from buraco.arena import ArenaResult, cluster, make_spec, run_arena
from buraco.arena.cluster import ClusterError, batches, default_batch
from buraco.cli import app
from clikit import CliRunner

runner = CliRunner()

QUICK = ("arena", "--preset", "aberto", "--players", "4", "--bots", "greedy,random")
DEALS = 6
SEED = 3


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.output


def steady(result: ArenaResult) -> dict[str, Any]:
    """Everything but the figures that vary from run to run or say where it ran."""
    data = result.to_dict()
    for volatile in ("workers", "seconds", "ray"):
        data.pop(volatile, None)
    for bot in data["per_bot"]:
        del bot["decision_time"]
    return data


def steady_json(stdout: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(stdout)
    for volatile in ("workers", "seconds", "ray"):
        data.pop(volatile, None)
    for bot in data["per_bot"]:
        del bot["decision_time"]
    return data


def files(out: Path) -> dict[str, bytes]:
    """The CSV files and every record written to ``out``."""
    found = {p.name: p.read_bytes() for p in out.glob("*.csv")}
    found.update({f"records/{p.name}": p.read_bytes() for p in (out / "records").iterdir()})
    return found


def one_line(output: str) -> str:
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    return lines[0]


# without Ray, or with bad settings: one line, before anything is played


def test_without_ray_the_flag_fails_in_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    code, _, output = run(*QUICK, "--deals", "2", "--ray")
    assert code == 2
    assert "pip install 'buraco[ray]'" in one_line(output)
    with pytest.raises(ClusterError, match=r"buraco\[ray\]"):
        run_arena("aberto", ["greedy", "random"], 2, players=2, ray=True)


def test_workers_and_ray_together_is_an_error() -> None:
    code, _, output = run(*QUICK, "--deals", "2", "--ray", "--workers", "2")
    assert code == 2
    assert "--workers 2 and --ray do not go together" in one_line(output)
    with pytest.raises(ValueError, match="workers and ray"):
        run_arena("aberto", ["greedy", "random"], 2, players=2, workers=2, ray=True)


def test_batch_needs_ray_and_at_least_one_deal() -> None:
    code, _, output = run(*QUICK, "--deals", "2", "--batch", "2")
    assert code == 2
    assert "--batch is the deals per Ray task" in one_line(output)
    code, _, output = run(*QUICK, "--deals", "2", "--ray", "--batch", "0")
    assert code == 2
    assert "--batch must be from 1" in one_line(output)


def test_deals_are_cut_into_consecutive_batches() -> None:
    assert batches(7, 3) == [range(0, 3), range(3, 6), range(6, 7)]
    assert [d for b in batches(100, 7) for d in b] == list(range(100))
    assert default_batch(20, 2) == 1
    assert default_batch(100_000, 64) == 64
    assert default_batch(10_000, 16) == 64
    assert default_batch(1_000, 16) == 7


# on a local Ray of two CPUs


@pytest.fixture(scope="module")
def ray() -> Any:
    return pytest.importorskip("ray")


@pytest.fixture(scope="module")
def baseline(ray: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The results with one and two worker processes (before Ray starts in this process)."""
    assert not ray.is_initialized()
    out: dict[str, Any] = {}
    for workers in (1, 2):
        out[f"api{workers}"] = run_arena(
            "aberto", ["greedy", "random"], DEALS, players=4, seed=SEED, workers=workers
        )
        out[f"api3-{workers}"] = run_arena(
            "italiano", ["greedy", "random"], 3, players=3, seed=SEED, workers=workers
        )
        where = tmp_path_factory.mktemp(f"workers{workers}")
        code, stdout, output = run(
            *QUICK,
            "--deals",
            str(DEALS),
            "--seed",
            str(SEED),
            "--workers",
            str(workers),
            "--json",
            "--out",
            str(where),
        )
        assert code == 0, output
        out[f"json{workers}"] = steady_json(stdout)
        out[f"files{workers}"] = files(where)
    return out


@pytest.fixture(scope="module")
def local_ray(ray: Any, baseline: dict[str, Any]) -> Iterator[None]:
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
    yield
    ray.shutdown()


def test_a_bad_address_fails_in_one_line(ray: Any) -> None:
    start = time.perf_counter()
    code, _, output = run(*QUICK, "--deals", "2", "--ray-address", "127.0.0.1:1")
    assert code == 2
    line = one_line(output)
    assert "no Ray cluster answers at 127.0.0.1:1" in line and "ray start --head" in line
    code, _, output = run(*QUICK, "--deals", "2", "--ray-address", "no-port-here")
    assert code == 2
    assert "write it as HOST:PORT" in one_line(output)
    assert time.perf_counter() - start < 30
    assert not ray.is_initialized()


def test_a_cluster_that_is_gone_fails_in_one_line(
    ray: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # without an address, ray.init() joins RAY_ADDRESS or the cluster last started here
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    code, _, output = run(*QUICK, "--deals", "2", "--ray")
    assert code == 2
    assert "no Ray cluster answers at 127.0.0.1:1" in one_line(output)
    monkeypatch.delenv("RAY_ADDRESS")
    monkeypatch.setattr(cluster, "last_started", lambda: "127.0.0.1:1")
    code, _, output = run(*QUICK, "--deals", "2", "--ray")
    assert code == 2
    assert "the one last started on this machine with 'ray start'" in one_line(output)
    assert not ray.is_initialized()


def test_ray_gives_the_results_of_one_and_two_workers(
    ray: Any, baseline: dict[str, Any], local_ray: None
) -> None:
    seen: list[int] = []
    on_ray = run_arena(
        "aberto",
        ["greedy", "random"],
        DEALS,
        players=4,
        seed=SEED,
        ray=True,
        progress=lambda d: seen.append(d.deal),
    )
    assert sorted(seen) == list(range(DEALS))
    for workers in (1, 2):
        assert on_ray.deals == baseline[f"api{workers}"].deals
        assert steady(on_ray) == steady(baseline[f"api{workers}"])
    assert on_ray.cluster is not None
    assert (on_ray.cluster.cpus, on_ray.cluster.nodes, on_ray.workers) == (2, 1, 2)
    assert on_ray.to_dict()["ray"]["cpus"] == 2
    # three sides and a filler seat, too
    three = run_arena("italiano", ["greedy", "random"], 3, players=3, seed=SEED, ray=True)
    assert steady(three) == steady(baseline["api3-1"]) == steady(baseline["api3-2"])
    assert ray.is_initialized()  # a Ray started by the caller is left running


def test_batching_does_not_change_the_results(baseline: dict[str, Any], local_ray: None) -> None:
    for batch in (1, 4, DEALS, 64):
        result = run_arena(
            "aberto", ["greedy", "random"], DEALS, players=4, seed=SEED, ray=True, batch=batch
        )
        assert result.cluster is not None
        assert result.cluster.batch == batch
        assert result.cluster.tasks == -(-DEALS // batch)
        assert result.deals == baseline["api1"].deals


def test_the_command_on_ray_prints_and_writes_what_workers_do(
    baseline: dict[str, Any], local_ray: None, tmp_path: Path
) -> None:
    for batch in ("1", "4"):
        where = tmp_path / batch
        code, stdout, output = run(
            *QUICK,
            "--deals",
            str(DEALS),
            "--seed",
            str(SEED),
            "--ray",
            "--batch",
            batch,
            "--json",
            "--out",
            str(where),
        )
        assert code == 0, output
        assert json.loads(stdout)["ray"]["batch"] == int(batch)
        assert steady_json(stdout) == baseline["json1"] == baseline["json2"]
        assert files(where) == baseline["files1"] == baseline["files2"]
        assert len([n for n in files(where) if n.startswith("records/")]) == 2 * DEALS
    code, stdout, output = run(*QUICK, "--deals", str(DEALS), "--seed", str(SEED), "--ray")
    assert code == 0, output
    assert "Ray: 2 CPUs on 1 node, 1 deal a task" in " ".join(stdout.split())


def test_a_task_that_fails_on_its_node_fails_in_one_line(local_ray: None) -> None:
    good = make_spec("aberto", ["greedy", "random"], 2, players=2)
    bad = dataclasses.replace(good, bots=("greedy", "no-such-bot"))  # fails in the task
    with pytest.raises(ClusterError, match=r"^a Ray task failed: .*no-such-bot") as caught:
        cluster.run_on_ray(bad, None, None, None, {}, None)
    assert "\n" not in str(caught.value)
