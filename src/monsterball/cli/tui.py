"""``tui``: the full-screen terminal app (Textual), to play or to step through a record."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated

import typer

from monsterball.cli.common import (
    EXIT_DIVERGED,
    OptAssignments,
    PresetOption,
    app,
    check_output,
    fail,
    game_options,
    game_spec,
    read_record_file,
)
from monsterball.cli.completion import complete_bot, complete_game
from monsterball.core.errors import MonsterballError, RecordError

if TYPE_CHECKING:
    from monsterball.bots.protocol import Bot


@app.command("tui")
def tui_cmd(
    game: Annotated[
        str | None,
        typer.Argument(
            help="Game id or alias (with --replay: must be the record's).",
            autocompletion=complete_game,
        ),
    ] = None,
    bot: Annotated[
        str,
        typer.Option(
            help="Opponent: a bot (random, heuristic, mcts:N), easy/medium/hard, none.",
            autocompletion=complete_bot,
        ),
    ] = "heuristic",
    hotseat: Annotated[bool, typer.Option("--hotseat", help="Humans play every seat.")] = False,
    seed: Annotated[int | None, typer.Option(help="Seed of the dice and the bot.")] = None,
    preset: PresetOption = None,
    opt: OptAssignments = None,
    replay_file: Annotated[
        Path | None,
        typer.Option("--replay", help="Step through this game record instead of playing."),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Write the game record to this file as it is played (a new file)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="With --save: replace a file that exists.")
    ] = False,
) -> None:
    """Play in a full-screen terminal app (keys or mouse), or step through a record."""
    from monsterball.bots.protocol import bot_seed
    from monsterball.bots.registry import DIFFICULTIES, bot_for_difficulty, make_bot
    from monsterball.core.record import Recorder, initial_state, replay

    try:
        from monsterball.terminal.tui import GameApp
    except ImportError:
        fail("the terminal app needs Textual: pip install 'monsterball[tui]'")

    if replay_file is not None:
        if save is not None:
            fail("--save records a game being played; a --replay is already recorded")
        record = read_record_file(replay_file)
        try:
            spec, state = initial_state(record)
            actions = [spec.parse_action(entry.action) for entry in record.actions]
            # The whole record is checked before the app opens: a tampered one is reported
            # as 'replay' reports it, never met halfway through as a crash.
            report = replay(record, verify=True)
        except (RecordError, MonsterballError) as exc:
            fail(f"{replay_file}: {exc}")
        if game is not None and game_spec(game).id != spec.id:
            fail(f"{replay_file} is a game of {spec.id}, not {game_spec(game).id}: drop the GAME")
        if report.divergence is not None:
            fail(f"{replay_file}: {report.divergence}", EXIT_DIVERGED)
        viewer = GameApp(spec, state, bots={}, replay=actions)
        viewer.run()
        raise typer.Exit(viewer.return_code or 0)
    if game is None:
        fail("name a game (e.g. monsterball tui pu) or give --replay FILE")
    spec = game_spec(game)
    options = game_options(spec, preset, opt)
    if save is not None:
        check_output(save, force=force, what="game record")
    seed = secrets.randbits(32) if seed is None else seed
    name = bot.strip().lower()
    bots: dict[int, Bot] = {}
    if not hotseat and name != "none":
        try:
            for seat in range(1, spec.num_seats):
                bots[seat] = (
                    bot_for_difficulty(spec.id, name, bot_seed(seed, seat))
                    if name in DIFFICULTIES
                    else make_bot(name, bot_seed(seed, seat))
                )
        except ValueError as exc:
            fail(str(exc))
    state = spec.new_game(options)
    stream: IO[str] | None = None
    recorder = None
    if save is not None:
        try:
            stream = save.open("w", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {save}: {exc.strerror or exc}")
        players = {
            spec.seat_name(s): (bots[s].name if s in bots else "human")
            for s in range(spec.num_seats)
        }
        recorder = Recorder(state, seed=seed, players=players, stream=stream)
    try:
        player = GameApp(spec, state, bots=bots, seed=seed, recorder=recorder)
        player.run()
    finally:
        if stream is not None:
            stream.close()
    if save is not None:
        typer.echo(f"Record saved to {save} (check it with: monsterball replay {save} --verify).")
    raise typer.Exit(player.return_code or 0)
