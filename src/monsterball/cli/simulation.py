"""``simulate``: many bot games, and the balance lab over rule settings."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from monsterball.cli.common import (
    OptAssignments,
    PresetOption,
    _check_bot,
    _console,
    _fail,
    _options,
    _overrides,
    _progress_bar,
    _spec,
    _value_text,
    _write_text,
    app,
)
from monsterball.core.errors import (
    MonsterballError,
)
from monsterball.core.game import GameSpec
from monsterball.simulate import SimulationSummary, simulate

# -- simulate -----------------------------------------------------------------------------


def _parse_bots(spec: GameSpec, text: str) -> tuple[str, ...]:
    names = tuple(n.strip().lower() for n in text.split(",") if n.strip())
    for name in names:
        _check_bot(name)
    if len(names) != spec.num_seats:
        _fail(
            f"{spec.id} has {spec.num_seats} seats ({', '.join(spec.seat_names)}): "
            f"give {spec.num_seats} comma-separated bots, e.g. --bots "
            + ",".join(["random"] * spec.num_seats)
        )
    return names


def _summary_tables(summary: SimulationSummary) -> list[Table]:
    seats = Table(title=f"{summary.games} games of {summary.game}, seed {summary.seed}")
    for column in ("seat", "bot", "wins", "win rate", "95% CI", "mean score"):
        seats.add_column(column, justify="right" if column != "bot" else "left")
    for s in summary.seats:
        seats.add_row(
            s.seat,
            s.bot,
            str(s.wins),
            f"{s.win_rate:.1%}",
            f"{s.ci_low:.1%} - {s.ci_high:.1%}",
            "" if s.mean_score is None else f"{s.mean_score:.2f}",
        )
    seats.add_row("draws", "", str(summary.draws), f"{summary.draw_rate:.1%}", "", "")
    other = Table(title="Length and speed", show_header=False)
    other.add_column("what")
    other.add_column("value", justify="right")
    p = summary.plies
    other.add_row(
        "plies per game",
        f"mean {p.mean:.1f}, median {p.median:g}, min {p.min}, max {p.max}, p90 {p.p90}",
    )
    other.add_row("wall time", f"{summary.wall_time:.2f} s with {summary.jobs} job(s)")
    other.add_row("games/s", f"{summary.games_per_second:.2f}")
    return [seats, other]


@app.command("simulate")
def simulate_cmd(
    game: Annotated[str, typer.Argument(help="Game id or alias.")],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Games to play (per rule setting).")
    ] = 100,
    bots: Annotated[
        str, typer.Option(help="Comma-separated bots, one per seat in seat order.")
    ] = "random,random",
    jobs: Annotated[
        int | None, typer.Option(min=1, help="Worker processes (default: every local core).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Master seed; game i uses a seed derived from it.")] = 0,
    preset: PresetOption = None,
    opt: OptAssignments = None,
    save_dir: Annotated[
        Path | None, typer.Option(help="Save every game's record in this directory.")
    ] = None,
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            "--sweep",
            help="Vary an option: key=v1,v2,... (repeatable; every combination is played "
            "with the same seeds). Reports first-offense win rate, points per possession, "
            "turnovers by kind and length.",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run the games on a Ray cluster at this address ('auto', host:port, or "
            "'local'); needs the optional 'ray' extra.",
        ),
    ] = None,
    report: Annotated[
        Path | None, typer.Option(help="Write a self-contained HTML report (balance lab).")
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the balance figures as JSON.")
    ] = None,
) -> None:
    """Play bot-vs-bot games and summarise them; with --sweep/--ray/--report/--json, run
    the balance lab over rule settings."""
    spec = _spec(game)
    overrides = _overrides(spec, opt)
    _options(spec, preset, opt)  # report bad options before starting workers
    bot_names = _parse_bots(spec, bots)
    console = _console()
    if sweep or ray is not None or report is not None or json_out is not None:
        _lab(spec, games, bot_names, jobs, seed, preset, overrides, sweep, ray, report, json_out)
        return
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    with _progress_bar(console) as bar:
        task = bar.add_task(f"{spec.id}: {' vs '.join(bot_names)}", total=games)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            summary = simulate(
                spec.id,
                games,
                bot_names,
                jobs=workers,
                seed=seed,
                preset=preset,
                overrides=overrides,
                save_dir=save_dir,
                progress=advance,
            )
        except OSError as exc:
            _fail(f"cannot write records to {save_dir}: {exc.strerror or exc}")
        except KeyboardInterrupt:
            _fail("interrupted", 130)
    for table in _summary_tables(summary):
        console.print(table)
    if save_dir is not None:
        console.print(f"Records saved in {save_dir}/game-NNNNN.jsonl")


def _lab(
    spec: GameSpec,
    games: int,
    bot_names: tuple[str, ...],
    jobs: int | None,
    seed: int,
    preset: str | None,
    overrides: dict[str, Any],
    sweep_args: list[str] | None,
    ray: str | None,
    report: Path | None,
    json_out: Path | None,
) -> None:
    from monsterball.lab import parse_sweep, sweep
    from monsterball.report import sweep_html

    try:
        varied = parse_sweep(sweep_args or [])
    except ValueError as exc:
        _fail(str(exc))
    base = {k: _value_text(v) for k, v in overrides.items()}
    settings = [{**base, **v} for v in varied]
    for setting in settings:
        try:
            spec.options_type.from_preset(
                preset,
                spec.options_type.parse_assignments([f"{k}={v}" for k, v in setting.items()]),
            )
        except MonsterballError as exc:
            _fail(str(exc))
    console = _console()
    with _progress_bar(console) as bar:
        task = bar.add_task(f"{spec.id}: {len(settings)} setting(s)", total=games * len(settings))

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            result = sweep(
                spec.id,
                settings,
                games,
                bots=bot_names,
                seed=seed,
                preset=preset,
                jobs=jobs,
                ray_address=ray,
                progress=advance,
            )
        except (ValueError, MonsterballError) as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            _fail("interrupted", 130)
    table = Table(title=f"{games} games per setting of {spec.id}, seed {seed} ({result.backend})")
    for column in ("setting", "first offense wins", "points/possession", "turnovers/game", "plies"):
        table.add_column(column, overflow="fold")
    for s in result.settings:
        e = s.first_offense_win
        turnovers = ", ".join(f"{k} {v.mean:.2f}" for k, v in s.turnovers_per_game.items())
        table.add_row(
            s.label,
            f"{e.mean:.1%} ({e.low:.1%}-{e.high:.1%})",
            _plus_minus(s.points_per_possession, 3),
            turnovers or "-",
            _plus_minus(s.plies, 0),
        )
    console.print(table)
    console.print(
        f"{result.wall_time:.1f} s, {games * len(settings) / result.wall_time:.2f} games/s"
    )
    if json_out is not None:
        _write_text(json_out, json.dumps(result.to_dict(), indent=2, sort_keys=True))
        console.print(f"Figures written to {json_out}")
    if report is not None:
        try:
            page = sweep_html(result)
        except ValueError as exc:
            _fail(str(exc))
        _write_text(report, page)
        console.print(f"Report written to {report}")


def _plus_minus(e: Any, digits: int) -> str:
    return f"{e.mean:.{digits}f} ± {e.high - e.mean:.{digits}f}"
