"""``buraco arena``: measure bots against each other by duplicate play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from buraco.arena import DealResult, make_spec, run_arena
from buraco.arena.cluster import RAY_HINT, ClusterError, import_ray
from buraco.arena.export import PLOT_HINT, write_files
from buraco.arena.gauntlet import gauntlet_rows, load_saved, run_gauntlet
from buraco.arena.report import print_gauntlet, print_report
from buraco.bots import BOTS, EXPLOITS
from buraco.bots.exploits import BASES
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
from buraco.rules import PRESETS

MAX_DEALS = 1_000_000
"""The most duplicate deals one run plays."""

MAX_WORKERS = 64
"""The most worker processes."""


def arena(
    preset: Annotated[str | None, typer.Option(help=PRESET_HELP, show_default="aberto")] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="two or more bots, comma-separated: " + ", ".join(BOTS),
            show_default="greedy,random",
        ),
    ] = None,
    gauntlet: Annotated[
        str | None,
        typer.Option(
            help="play this bot against every exploit bot ("
            + ", ".join(EXPLOITS)
            + ") in every preset and player count (or those of --preset and --players) "
            "and give each row a verdict: holds, loses or not separated (too few deals for one)",
        ),
    ] = None,
    exploits: Annotated[
        str | None,
        typer.Option(help="with --gauntlet: only these exploits, comma-separated"),
    ] = None,
    base: Annotated[
        str | None,
        typer.Option(
            help="with --gauntlet: the bot the exploits play on top of (greedy or heuristic)",
            show_default="greedy",
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="with --gauntlet: keep each finished row in this file (JSON lines) and play "
            "only the rows it does not hold yet (a long gauntlet stopped and run again)"
        ),
    ] = None,
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

    With --gauntlet BOT it plays BOT against every exploit bot (simple plans a person
    might follow) in every preset and player count instead, and says per row whether BOT
    holds, loses or is not separated (with one deal a row: too few deals).
    """
    use_ray = ray or ray_address is not None
    if gauntlet is not None:
        _gauntlet(
            gauntlet,
            preset,
            players,
            bots,
            exploits,
            base,
            deals,
            workers,
            seed,
            json_out,
            matches=matches,
            ray=use_ray,
            out=out,
            option=option,
            save=save,
        )
        return
    if exploits is not None or base is not None or save is not None:
        with user_errors():
            fail("--exploits, --base and --save go with --gauntlet BOT")
    preset = "aberto" if preset is None else preset
    bots = "greedy,random" if bots is None else bots
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


def _gauntlet(
    bot: str,
    preset: str | None,
    players: int | None,
    bots: str | None,
    exploits: str | None,
    base: str | None,
    deals: int,
    workers: int,
    seed: int,
    json_out: bool,
    *,
    matches: bool,
    ray: bool,
    out: Path | None,
    option: list[str] | None,
    save: Path | None = None,
) -> None:
    """``buraco arena --gauntlet BOT``: the bot against every exploit (see the module)."""
    with user_errors():
        for flag, given in (
            ("--bots", bots is not None),
            ("--matches", matches),
            ("--ray", ray),
            ("--out", out is not None),
            ("--option", bool(option)),
        ):
            if given:
                fail(
                    f"--gauntlet plays single hands of each preset's own rules against the "
                    f"exploits: leave out {flag}"
                )
        check_range("--deals", deals, 1, MAX_DEALS)
        check_range("--workers", workers, 1, MAX_WORKERS)
        check_seed("--seed", seed)
        named = bot_specs("--gauntlet", bot)
        if len(named) != 1:
            fail(f"--gauntlet takes one bot, not {len(named)}: {bot!r:.60}")
        (spec,) = named
        if players is not None and preset is None:
            fail("--players goes with --preset in a gauntlet (it plays every preset otherwise)")
        tables = None
        if preset is not None:
            if players is None:
                name = build_rules(preset, None, None).preset
                tables = [(name, n) for n in PRESETS[name].players]
            else:
                rules = build_rules(preset, players, None)
                tables = [(rules.preset, rules.players)]
        names = None if exploits is None else [e.strip() for e in exploits.split(",") if e.strip()]
        if names is not None and (twice := {e for e in names if names.count(e) > 1}):
            fail(f"--exploits names {', '.join(sorted(twice))!r:.60} twice; name each exploit once")
        if base is not None and base not in BASES:
            fail(f"--base must be one of {', '.join(BASES)}, not {base!r:.40}")
        rows = gauntlet_rows(spec, deals, tables=tables, exploits=names, seed=seed, base=base)
        if save is not None:
            if save.is_dir() or not save.parent.is_dir():
                fail(f"--save is a file in a folder that exists, not {str(save)!r:.80}")
            load_saved(save)  # a file that is not a gauntlet's: refused before any deal
    with progress_bar(json_out or not console.is_terminal, auto_refresh=False) as progress:
        task = progress.add_task("gauntlet deals", total=len(rows) * deals)

        def advance() -> None:
            progress.advance(task)
            progress.refresh()

        result = run_gauntlet(
            spec,
            deals,
            tables=tables,
            exploits=names,
            seed=seed,
            base=base,
            workers=workers,
            progress=advance,
            save=save,
        )
    if json_out:
        console.print_json(json.dumps(result.to_dict()))
    else:
        print_gauntlet(result, console)
