"""``simulate``: many bot games, and the balance lab over rule settings."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from monsterball.cli.common import (
    EXIT_INTERRUPTED,
    MAX_GAMES,
    MAX_JOBS,
    OptAssignments,
    PresetOption,
    app,
    check_bot,
    check_output,
    check_record_dir,
    fail,
    game_options,
    game_spec,
    make_console,
    make_table,
    one_preset,
    option_overrides,
    progress_bar,
    stop_on_sigterm,
    value_text,
    write_text,
)
from monsterball.cli.completion import complete_game
from monsterball.core.errors import (
    MonsterballError,
)

if TYPE_CHECKING:
    from rich.table import Table

    from monsterball.core.game import GameSpec
    from monsterball.lab.simulation import SimulationSummary

# -- simulate -----------------------------------------------------------------------------


def _parse_bots(spec: GameSpec, text: str) -> tuple[str, ...]:
    names = tuple(n.strip().lower() for n in text.split(",") if n.strip())
    for name in names:
        check_bot(name)
    if len(names) != spec.num_seats:
        fail(
            f"{spec.id} has {spec.num_seats} seats ({', '.join(spec.seat_names)}): "
            f"give {spec.num_seats} comma-separated bots, e.g. --bots "
            + ",".join(["random"] * spec.num_seats)
        )
    return names


def _summary_tables(summary: SimulationSummary) -> list[Table]:
    seats = make_table(title=f"{summary.games} games of {summary.game}, seed {summary.seed}")
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
    other = make_table(title="Length and speed", show_header=False)
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
    game: Annotated[str, typer.Argument(help="Game id or alias.", autocompletion=complete_game)],
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, max=MAX_GAMES, help="Games to play (per rule setting)."
        ),
    ] = 100,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated bots, one per seat in seat order (default: heuristic in "
            "every seat; random play says little about the rules)."
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_JOBS, help="Worker processes (default: every local core)."),
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
            metavar="KEY=V1,V2",
            help="Vary an option or the preset: key=v1,v2,... or preset=small,scrimmage "
            "(repeatable; every combination is played with the same seeds).",
        ),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            metavar="KEY=V[,KEY=V]",
            help="Compare every setting with this one, game by game on the same dice "
            "(paired differences with 95% intervals), e.g. --baseline preset=small.",
        ),
    ] = None,
    until_ci: Annotated[
        float | None,
        typer.Option(
            metavar="WIDTH",
            help="Play on, -n games per setting at a time, until the 95% interval on the "
            "first offense's win rate (its difference from the baseline, with --baseline) "
            "is at most ±WIDTH, e.g. 0.02.",
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            min=1, max=MAX_GAMES, help="With --until-ci: stop at this many games per setting."
        ),
    ] = None,
    metric: Annotated[
        list[str] | None,
        typer.Option(
            "--metric",
            metavar="MODULE:FUNCTION",
            help="A custom metric over each game's events: module:function or "
            "file.py:function (repeatable; see monsterball.lab.metrics).",
        ),
    ] = None,
    rows: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Write one row per game (setting, seed, winner, scores, plies, turnovers, "
            "metrics) as CSV, or Parquet when FILE ends in .parquet.",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Run the games on a Ray cluster at this address ('auto', host:port), or "
            "'local' to start a local Ray instance; needs the optional 'ray' extra.",
        ),
    ] = None,
    report: Annotated[
        Path | None, typer.Option(help="Write a self-contained HTML report (balance lab).")
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the figures as JSON.")
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace the game records already in --save-dir."),
    ] = False,
) -> None:
    """Play bot-vs-bot games and summarise them: each seat's win rate, mean score, draws;
    with --sweep, --baseline, --rows, --report and friends, compare rule settings (the
    balance lab)."""
    from monsterball.lab.simulation import SimulationInterrupted, simulate
    from monsterball.lab.sweeps import default_bots

    spec = game_spec(game)
    chosen = one_preset(preset)
    overrides = option_overrides(spec, opt)
    game_options(spec, chosen, opt)  # report bad options before starting workers
    bot_names = _parse_bots(spec, bots) if bots is not None else default_bots(spec)
    # Every output is checked before the first game: a run never ends in "cannot write".
    for path, what in ((rows, "rows"), (report, "report"), (json_out, "figures")):
        if path is not None:
            check_output(path, what=what)
    if rows is not None and rows.suffix.lower() == ".parquet":
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            fail("Parquet rows need pyarrow: pip install 'monsterball[rows]' (or write .csv)")
    if save_dir is not None:
        check_record_dir(save_dir, force=force)
    console = make_console()
    lab_mode = bool(sweep or baseline or metric or rows or report or json_out)
    lab_mode = lab_mode or until_ci is not None or ray is not None
    if lab_mode:
        lab = LabRequest(sweep, baseline, until_ci, max_games, metric, rows, ray, report, json_out)
        _lab(spec, games, bot_names, jobs, seed, chosen, overrides, save_dir, lab)
        return
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    interrupted: SimulationSummary | None = None
    with progress_bar(console) as bar, stop_on_sigterm():
        task = bar.add_task(f"{spec.id}: {' vs '.join(bot_names)}", total=games, jobs=workers)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            summary = simulate(
                spec.id,
                games,
                bot_names,
                jobs=workers,
                seed=seed,
                preset=chosen,
                overrides=overrides,
                save_dir=save_dir,
                progress=advance,
            )
        except OSError as exc:
            fail(f"cannot write records to {save_dir}: {exc.strerror or exc}")
        except SimulationInterrupted as stop:
            if stop.summary is None:
                saved = f"; no record in {save_dir}" if save_dir is not None else ""
                fail(f"interrupted before the first game ended{saved}", EXIT_INTERRUPTED)
            summary = interrupted = stop.summary
    if interrupted is not None:
        console.print(
            f"Interrupted after {summary.games} of {games} games: the figures are of those "
            f"{summary.games}."
        )
    for table in _summary_tables(summary):
        console.print(table)
    if save_dir is not None:
        kept = f"The {summary.games} finished games' records are" if interrupted else "Records"
        # soft_wrap: a long path stays on one line, whole, to copy.
        console.print(
            f"{kept} saved in {save_dir}/game-NNNNN.jsonl (NNNNN: the game's number)",
            soft_wrap=True,
        )
    if interrupted is not None:
        raise typer.Exit(EXIT_INTERRUPTED)


@dataclasses.dataclass(frozen=True)
class LabRequest:
    sweep: list[str] | None
    baseline: str | None
    until_ci: float | None
    max_games: int | None
    metrics: list[str] | None
    rows: Path | None
    ray: str | None
    report: Path | None
    json_out: Path | None


def _lab(
    spec: GameSpec,
    games: int,
    bot_names: tuple[str, ...],
    jobs: int | None,
    seed: int,
    preset: str | None,
    overrides: dict[str, Any],
    save_dir: Path | None,
    lab: LabRequest,
) -> None:
    from monsterball.lab.sweeps import (
        parse_setting,
        parse_sweep,
        setting_options,
        sweep,
        write_rows,
    )

    try:
        varied = parse_sweep(lab.sweep or [])
        base_setting = parse_setting(lab.baseline) if lab.baseline else None
    except ValueError as exc:
        fail(str(exc))
    base = {k: value_text(v) for k, v in overrides.items()}
    settings = [{**base, **v} for v in varied]
    if base_setting is not None and len(settings) == 1 and not lab.sweep:
        fail("--baseline compares settings: add a --sweep with the baseline among its values")
    for setting in settings:
        try:
            setting_options(spec, preset, setting)
        except MonsterballError as exc:
            fail(str(exc))
    # The metrics load and the width is checked before the progress bar is drawn.
    from monsterball.lab.metrics import load_metric

    for ref in lab.metrics or ():
        try:
            load_metric(ref)
        except ValueError as exc:
            fail(str(exc))
    if lab.until_ci is not None and lab.until_ci <= 0:
        fail(f"--until-ci {lab.until_ci}: give a positive width, e.g. 0.02")
    if lab.report is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("the HTML report needs matplotlib: pip install 'monsterball[report]'")
    if lab.ray is not None:
        from monsterball.lab.sweeps import connect_ray

        try:
            connect_ray(lab.ray)
        except ValueError as exc:
            fail(str(exc))
    console = make_console()
    with progress_bar(console) as bar:
        workers = jobs if jobs is not None else (os.cpu_count() or 1)
        total = games * len(settings)
        task = bar.add_task(f"{spec.id}: {len(settings)} setting(s)", total=total, jobs=workers)

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
                ray_address=lab.ray,
                progress=advance,
                baseline=base_setting,
                until_ci=lab.until_ci,
                max_games=lab.max_games,
                # The report explains luck over the run: measure it when one is asked for.
                metrics=[*(lab.metrics or ()), *([LUCK] if lab.report is not None else [])],
                save_dir=save_dir,
            )
        except (ValueError, MonsterballError) as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write records to {save_dir}: {exc.strerror or exc}")
        except KeyboardInterrupt:
            # The lab's figures pair settings game by game: a part of a sweep has none to
            # print, but the finished games' records are kept.
            kept = f"; the finished games' records are in {save_dir}" if save_dir else ""
            fail(f"interrupted: a sweep's figures need every game{kept}", EXIT_INTERRUPTED)
    for table in lab_tables(result):
        console.print(table)
    if result.stopped:
        console.print(f"Stopped: {result.stopped}.")
    if "random" in result.bots:
        console.print(f"Warning: {RANDOM_WARNING}")
    total = result.games * len(settings)
    console.print(f"{result.wall_time:.1f} s, {total / result.wall_time:.2f} games/s")
    if save_dir is not None:
        where = "game-NNNNN.jsonl" if len(settings) == 1 else "setting-K/game-NNNNN.jsonl"
        console.print(f"Records saved in {save_dir}/{where}")
    if lab.rows is not None:
        try:
            write_rows(result.rows(), lab.rows)
        except ValueError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write {lab.rows}: {exc.strerror or exc}")
        console.print(f"One row per game written to {lab.rows}")
    if lab.json_out is not None:
        write_text(lab.json_out, json.dumps(result.to_dict(), indent=2, sort_keys=True))
        console.print(f"Figures written to {lab.json_out}")
    if lab.report is not None:
        from monsterball.lab.reports import sweep_html

        write_text(lab.report, sweep_html(result))
        console.print(f"Report written to {lab.report}")


LUCK = "monsterball.lab.metrics:luck"

RANDOM_WARNING = (
    "random bots: their games mostly measure their own blunders (passes to nobody, "
    "aimless moves), not the rules; prefer heuristic or mcts bots for balance questions."
)


def lab_tables(result: Any) -> list[Table]:
    """The lab's summary: per setting, each seat's win rate, draws, mean score and the
    lab's figures; with a baseline, a second table of paired differences."""
    seats = result.seat_names
    table = make_table(
        title=f"{result.games} games per setting of {result.game}, seed {result.seed}, "
        f"bots {', '.join(result.bots)} ({result.backend})"
    )
    columns = [
        "setting",
        *(f"{s} wins" for s in seats),
        "draws",
        "mean score",
        "first offense wins",
        "points per poss.",
        "plies",
    ]
    # The setting is never cut (callahans=false must read as one word); figures put their
    # interval on a second line so that the columns fit 80 characters.
    table.add_column(columns[0], no_wrap=True)
    for column in columns[1:]:
        table.add_column(column, overflow="fold")
    for s in result.settings:
        table.add_row(
            s.label,
            *(_rate(s.seat_wins[seat]) for seat in seats),
            str(s.draws),
            " - ".join(number(s.mean_score[seat].mean, 1) for seat in seats),
            _rate(s.first_offense_win),
            _plus_minus(s.points_per_possession, 3),
            _plus_minus(s.plies, 0),
        )
    out = [table]
    kinds = sorted({k for s in result.settings for k in s.turnovers_per_game})
    if kinds:
        turnovers = make_table(title="Turnovers per game, by the event that ended the possession")
        turnovers.add_column("setting", no_wrap=True)
        for kind in kinds:
            turnovers.add_column(kind, justify="right", overflow="fold")
        for s in result.settings:
            cells = [s.turnovers_per_game.get(k) for k in kinds]
            turnovers.add_row(s.label, *("-" if e is None else number(e.mean) for e in cells))
        out.append(turnovers)
    if result.baseline is not None:
        base = result.settings[result.baseline]
        names = [f"{seats[0]} wins", "first offense wins", "points per possession", "plies"]
        names += sorted({k for s in result.settings for k in s.metrics} - {"luck"})
        diff = make_table(title=f"Paired differences against the baseline ({base.label}), 95% CI")
        diff.add_column("setting", no_wrap=True)
        for name in names:
            diff.add_column(f"Δ {name}", overflow="fold")
        for s in result.settings:
            if s is base:
                continue
            cells = []
            for name in names:
                e = s.versus_baseline.get(name)
                pct = "wins" in name
                cells.append("-" if e is None else _signed(e, pct))
            diff.add_row(s.label, *cells)
        out.append(diff)
    return out


def number(value: float, digits: int = 2) -> str:
    """A readable number: thousands separated, never in e-notation."""
    if value != value:  # NaN: nothing to measure
        return "-"
    return f"{value:,.{digits}f}"


def _rate(e: Any) -> str:
    if e.n == 0:
        return "-"
    return f"{e.mean:.1%}\n{e.low * 100:.0f}-{e.high * 100:.0f}%"


def _signed(e: Any, pct: bool) -> str:
    if pct:
        return f"{e.mean * 100:+.1f} pts ({e.low * 100:+.1f} to {e.high * 100:+.1f})"
    return f"{e.mean:+,.3f} ({e.low:+,.3f} to {e.high:+,.3f})"


def _plus_minus(e: Any, digits: int) -> str:
    if e.n == 0:
        return "-"
    return f"{number(e.mean, digits)}\n± {number(e.high - e.mean, digits)}"
