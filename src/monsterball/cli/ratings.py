"""``ratings``: the web app's ratings (Glicko-2, docs/web.md "Ratings"): leaderboards, and
bot ratings anchored by rated bot-vs-bot matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from monsterball.cli.common import (
    MAX_GAMES,
    MAX_JOBS,
    DbOption,
    app,
    fail,
    game_spec,
    make_console,
    make_table,
    progress_bar,
)
from monsterball.cli.completion import complete_game
from monsterball.settings import SETTINGS

if TYPE_CHECKING:
    from monsterball.web.store.games import Store

ratings_app = typer.Typer(
    help="The web app's ratings: leaderboards, and bot ratings anchored by bot matches.",
    no_args_is_help=True,
)
app.add_typer(ratings_app, name="ratings")


def _store(url: str) -> Store:
    from monsterball.web.store.games import SchemaError, Store

    try:
        return Store(url)
    except SchemaError as exc:
        fail(str(exc))
    except Exception as exc:  # a malformed URL, an unreachable server: one line
        fail(f"cannot open the game store '{url}': {exc}")


@ratings_app.command("anchor-bots")
def anchor_bots(
    game: Annotated[str, typer.Option("--game", help="Game id or alias.")],
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, max=MAX_GAMES, help="Games per pairing (seats alternate)."
        ),
    ] = 10,
    levels: Annotated[
        str, typer.Option(help="Comma-separated bot levels to rate against each other.")
    ] = "easy,medium,hard",
    seed: Annotated[int, typer.Option(help="Master seed of the match.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, max=MAX_JOBS, help="Worker processes.")] = 1,
    db: DbOption = SETTINGS.db_url,
) -> None:
    """Play rated games between the web app's bot levels (a round robin, standard rules) and
    put them in the ratings as bot:<level>, so players see how strong each level is. Each
    game is settled once: running it again with the same seed adds nothing."""
    from monsterball.bots.registry import DIFFICULTIES
    from monsterball.lab.tournaments import run_match
    from monsterball.web.store.ratings import leaderboard, settle

    spec = game_spec(game)
    names = [n.strip().lower() for n in levels.split(",") if n.strip()]
    unknown = [n for n in names if n not in DIFFICULTIES]
    if unknown or len(set(names)) < 2:
        fail(f"--levels takes two or more of {', '.join(DIFFICULTIES)}, not '{levels}'")
    store = _store(db)
    try:
        with progress_bar(make_console()) as progress:
            task = progress.add_task("rated bot games", total=None)
            result = run_match(
                spec.id,
                names,
                games,
                seed=seed,
                jobs=jobs,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
            )
        added = 0
        for played in result.games:
            pair = "-".join(sorted(played.seat_bots))
            key = f"anchor:{spec.id}:{seed}:{pair}:{played.index}"
            players = [f"bot:{name}" for name in played.seat_bots]
            added += settle(store, key, players, played.returns, game=spec.id)
        board = leaderboard(store, spec.id)
    finally:
        store.close()
    table = make_table(title=f"{spec.title}: ratings after {added} new rated games")
    for column in ("rank", "player", "rating", "RD", "games"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for row in board:
        table.add_row(
            str(row["rank"]), row["player"], row["shown"], f"{row['rd']:.0f}", str(row["games"])
        )
    make_console().print(table)
    typer.echo(f"{added} games settled ({len(result.games) - added} were already in)")


@ratings_app.command("show")
def show(
    game: Annotated[str, typer.Argument(help="Game id or alias.", autocompletion=complete_game)],
    db: DbOption = SETTINGS.db_url,
) -> None:
    """The game's leaderboard ("?": a provisional rating)."""
    from monsterball.web.store.ratings import leaderboard

    spec = game_spec(game)
    store = _store(db)
    try:
        board = leaderboard(store, spec.id)
    finally:
        store.close()
    if not board:
        typer.echo(f"no rated games of {spec.id} yet")
        return
    for row in board:
        typer.echo(f"{row['rank']:>3}  {row['shown']:>6}  RD {row['rd']:>5.0f}  {row['player']}")
