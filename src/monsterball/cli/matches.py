"""``match``: a round robin between bots."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from monsterball.cli.common import (
    MAX_GAMES,
    MAX_JOBS,
    OptAssignments,
    PresetOption,
    app,
    check_bot,
    check_output,
    fail,
    game_options,
    game_spec,
    make_console,
    make_table,
    one_preset,
    option_overrides,
    progress_bar,
    write_text,
)
from monsterball.cli.completion import complete_game
from monsterball.core.errors import (
    MonsterballError,
)

# -- match --------------------------------------------------------------------------------

if TYPE_CHECKING:
    from rich.table import Table


@app.command("match")
def match_cmd(
    game: Annotated[str, typer.Argument(help="Game id or alias.", autocompletion=complete_game)],
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bots (two or more), e.g. random,heuristic,mcts:200 "
            "(mcts:N iterations or mcts:Ts seconds per decision; mcts:N:rD adds a D-ply "
            "random rollout)."
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, max=MAX_GAMES, help="Games per pairing (seats alternate)."
        ),
    ] = 20,
    preset: PresetOption = None,
    opt: OptAssignments = None,
    jobs: Annotated[int, typer.Option(min=1, max=MAX_JOBS, help="Worker processes.")] = 1,
    seed: Annotated[int, typer.Option(help="Master seed (the same dice for every pairing).")] = 0,
    db: Annotated[
        Path | None,
        typer.Option(
            help="SQLite file the results are added to (default: results.sqlite in the "
            "user's data directory, e.g. ~/.local/share/monsterball/)."
        ),
    ] = None,
    no_db: Annotated[bool, typer.Option("--no-db", help="Do not store the results.")] = False,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Export the games as CSV.")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Export the whole match as JSON.")
    ] = None,
) -> None:
    """A round robin between bots: win rates with 95% CIs and Elo ratings."""
    from monsterball.lab.tournaments import (
        default_results_path,
        elo_with_intervals,
        games_csv,
        leaderboard,
        match_json,
        run_match,
        save_match,
    )

    spec = game_spec(game)
    overrides = option_overrides(spec, opt)
    game_options(spec, preset, opt)
    names = tuple(n.strip().lower() for n in bots.split(",") if n.strip())
    for name in names:
        check_bot(name)
    if len(names) < 2:
        fail("give at least two comma-separated bots, e.g. --bots random,heuristic")
    if len(set(names)) != len(names):
        fail("each bot may appear once (give budgets to tell two search bots apart)")
    # Where the results go is checked before the first game is played.
    store = None if no_db else (db if db is not None else default_results_path())
    if store is not None:
        _check_results_db(store, default=db is None)
    for path, what in ((csv_out, "CSV export"), (json_out, "JSON export")):
        if path is not None:
            check_output(path, what=what)
    pairings = len(names) * (len(names) - 1) // 2
    console = make_console()
    with progress_bar(console) as bar:
        task = bar.add_task(f"{spec.id}: {', '.join(names)}", total=games * pairings, jobs=jobs)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            result = run_match(
                spec.id,
                names,
                games,
                seed=seed,
                preset=one_preset(preset),
                overrides=overrides,
                jobs=jobs,
                progress=advance,
            )
        except (ValueError, MonsterballError) as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            fail("interrupted", 130)
    table = make_table(title=f"{spec.id}: {games} games per pairing, seed {seed}")
    for column in (
        "bot A",
        "bot B",
        "A wins",
        "B wins",
        "draws",
        "A score",
        "95% CI",
        "plies",
        "s/game",
    ):
        table.add_column(column, justify="left" if column.startswith("bot") else "right")
    for p in result.pairings:
        table.add_row(
            p.bot_a,
            p.bot_b,
            str(p.wins_a),
            str(p.wins_b),
            str(p.draws),
            f"{p.score_a:.1%}",
            f"{p.ci_low:.1%} - {p.ci_high:.1%}",
            f"{p.mean_plies:.0f}",
            f"{p.seconds_per_game:.2f}",
        )
    console.print(table)
    console.print(
        _ratings_table("Elo of this match (mean 1500)", elo_with_intervals(names, result.games))
    )
    if store is not None:
        path = store
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            match_id = save_match(result, path)
            board = leaderboard(path, result.game, result.options)
        except (OSError, sqlite3.Error) as exc:
            fail(f"cannot store the results in {path}: {exc}")
        console.print(f"Stored as match {match_id} in {path}")
        title = f"Leaderboard: every stored match of {result.game} with these options"
        console.print(_ratings_table(title, board))
    if csv_out is not None:
        write_text(csv_out, games_csv(result))
        console.print(f"Games written to {csv_out} (CSV)")
    if json_out is not None:
        write_text(json_out, match_json(result))
        console.print(f"Match written to {json_out} (JSON)")


SQLITE_HEADER = b"SQLite format 3\x00"


def _check_results_db(path: Path, *, default: bool) -> None:
    """The results file can take this match: an SQLite file or a new one, in a directory
    that exists (only the default one, in the user's data directory, is created)."""
    if path.is_dir():
        fail(f"--db {path} is a directory: give an SQLite file")
    if path.exists():
        try:
            with path.open("rb") as handle:
                head = handle.read(len(SQLITE_HEADER))
        except OSError as exc:
            fail(f"cannot read {path}: {exc.strerror or exc}")
        if head and head != SQLITE_HEADER:
            fail(f"{path} is not an SQLite database: give another --db, or --no-db")
    elif not default and not path.parent.is_dir():
        fail(f"cannot store the results in {path}: the directory {path.parent} does not exist")


def _interval(rating: Any) -> str:
    """The bootstrap interval, or why there is none: when every resample gives the same
    rating (a few games that all went one way), '1691 - 1691' would claim a precision the
    games do not have."""
    if round(rating.low) == round(rating.high):
        return "unknown (too few games)"
    return f"{rating.low:.0f} - {rating.high:.0f}"


def _ratings_table(title: str, ratings: Any) -> Table:
    table = make_table(title=title)
    table.add_column("bot")
    table.add_column("Elo", justify="right")
    table.add_column("95% CI (bootstrap)", justify="right")
    table.add_column("games", justify="right")
    for r in ratings:
        table.add_row(r.bot, f"{r.elo:.0f}", _interval(r), str(r.games))
    return table
