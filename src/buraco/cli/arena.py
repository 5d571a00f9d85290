"""``buraco arena``: measure bots against each other by duplicate play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from buraco.arena import DealResult, make_spec, run_arena
from buraco.arena.cluster import RAY_HINT, ClusterError, import_ray
from buraco.arena.export import PLOT_HINT, write_files
from buraco.arena.report import print_report
from buraco.bots import BOTS
from buraco.cli.common import (
    OPTION_HELP,
    PRESET_HELP,
    bot_specs,
    build_rules,
    check_range,
    check_seed,
    console,
    fail,
    output_dir,
    progress_bar,
    say,
    user_errors,
)

MAX_DEALS = 1_000_000
"""The most duplicate deals one run plays."""

MAX_WORKERS = 64
"""The most worker processes."""


def arena(
    preset: Annotated[str, typer.Option(help=PRESET_HELP)] = "aberto",
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    bots: Annotated[
        str, typer.Option(help="two or more bots, comma-separated: " + ", ".join(BOTS))
    ] = "greedy,random",
    deals: Annotated[int, typer.Option(help="duplicate deals to play")] = 20,
    matches: Annotated[
        bool, typer.Option("--matches", help="play each deal as a full match")
    ] = False,
    workers: Annotated[int, typer.Option(help="processes playing deals in parallel")] = 1,
    ray: Annotated[
        bool,
        typer.Option(
            "--ray",
            help="play the deals on a Ray cluster: a local one, or the one at --ray-address "
            "(or in RAY_ADDRESS); needs " + RAY_HINT,
        ),
    ] = False,
    ray_address: Annotated[
        str | None,
        typer.Option(help="the Ray cluster's address, HOST:PORT (implies --ray)"),
    ] = None,
    batch: Annotated[
        int | None,
        typer.Option(help="deals per Ray task [default: about 8 tasks per CPU, at most 64]"),
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the deals and the bots")] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="print everything as JSON")] = False,
    out: Annotated[
        Path | None,
        typer.Option(help="write game records, CSV files, a summary and a plot here"),
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
) -> None:
    """Measure bot strength by duplicate play, so that the luck of the cards cancels.

    Every deal is played again with the bots in each other's seats.

    Reports per bot and per pair the duplicate deals won, the mean score difference per
    deal with a 95% confidence interval, an Elo-style rating and decision times (and
    match wins with --matches). Results depend only on the seed, not on --workers or
    on --ray.
    """
    use_ray = ray or ray_address is not None
    with user_errors():
        check_range("--deals", deals, 1, MAX_DEALS)
        check_range("--workers", workers, 1, MAX_WORKERS)
        if use_ray and workers != 1:
            fail(
                f"--workers {workers} and --ray do not go together: on Ray the cluster's CPUs "
                "play the deals (--batch sets the deals per task)"
            )
        if batch is not None:
            if not use_ray:
                fail("--batch is the deals per Ray task: give it with --ray")
            check_range("--batch", batch, 1, MAX_DEALS)
        if use_ray:
            import_ray()
        check_seed("--seed", seed)
        rules = build_rules(preset, players, option)
        names = bot_specs("--bots", bots)
        make_spec(rules, names, deals, seed=seed, matches=matches)
        if out is not None:
            output_dir("--out", out / "records")
        if workers > deals:
            say(f"{deals} deals: playing them with {deals} workers, not {workers}", err=True)
            workers = deals
    # no refresh thread: worker processes are forked (Linux)
    with progress_bar(json_out or not console.is_terminal, auto_refresh=False) as progress:
        task = progress.add_task("duplicate deals", total=deals)

        def advance(_: DealResult) -> None:
            progress.advance(task)
            progress.refresh()

        try:
            result = run_arena(
                rules,
                names,
                deals,
                seed=seed,
                matches=matches,
                workers=workers,
                ray=(ray_address or True) if use_ray else False,
                batch=batch,
                records=None if out is None else out / "records",
                progress=advance,
            )
        except ClusterError as exc:
            fail(str(exc))
    if json_out:
        console.print_json(json.dumps(result.to_dict()))
    else:
        print_report(result, console)
    if out is not None:
        written = write_files(result, out)
        games = sum(len(d.games) for d in result.deals)
        files = ", ".join(p.name for p in written)
        say(f"wrote {games} game records (records/) and {files} to {out}", err=True)
        if not any(p.suffix == ".png" for p in written):
            say(f"matplotlib is not installed, so no plot; for one: {PLOT_HINT}", err=True)
