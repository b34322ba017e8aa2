"""``play``: a game in the terminal, against a bot or hot seat."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated

import typer

from monsterball.cli.common import (
    EXIT_INTERRUPTED,
    OptAssignments,
    PresetOption,
    app,
    check_output,
    fail,
    game_options,
    game_spec,
    make_console,
)
from monsterball.cli.completion import complete_bot, complete_game

if TYPE_CHECKING:
    from monsterball.bots.protocol import Bot
    from monsterball.core.game import GameSpec

# The engine and the bots are imported when the command runs (start-up stays cheap).
DIFFICULTIES = ("easy", "medium", "hard")  # monsterball.bots.DIFFICULTIES (a test keeps them equal)

# -- play ---------------------------------------------------------------------------------


def _seat_index(spec: GameSpec, text: str) -> int:
    for index, name in enumerate(spec.seat_names):
        if name.lower() == text.strip().lower():
            return index
    fail(f"unknown seat '{text}'; {spec.id} seats: {', '.join(spec.seat_names)}")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game id or alias.", autocompletion=complete_game)],
    bot: Annotated[
        str | None,
        typer.Option(
            help="Opponent: heuristic, mcts, random (mcts:N or mcts:Ts for a budget), "
            "a difficulty (easy, medium, hard), or 'none' for hot seat (default: heuristic, "
            "the game's own rules of thumb).",
            autocompletion=complete_bot,
        ),
    ] = None,
    hotseat: Annotated[
        bool, typer.Option("--hotseat", help="Humans play every seat at one terminal.")
    ] = False,
    seat: Annotated[
        str | None, typer.Option(help="The seat you play against the bot (default: the first).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the dice and the bot (default: a random one).")
    ] = None,
    preset: PresetOption = None,
    opt: OptAssignments = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Write the game record to this file as it is played (a new file)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="With --save: replace a file that exists.")
    ] = False,
) -> None:
    """Play a game in the terminal, against a bot or hot seat."""
    from monsterball.bots.protocol import bot_seed
    from monsterball.bots.registry import bot_for_difficulty, make_bot
    from monsterball.core.dice import SeededSampler
    from monsterball.core.record import Recorder
    from monsterball.terminal.line_game import TerminalGame

    spec = game_spec(game)
    options = game_options(spec, preset, opt)
    if hotseat and bot is not None and bot.strip().lower() != "none":
        fail(f"--hotseat and --bot {bot} contradict each other: humans play every seat "
              "in a hot-seat game; drop one")  # fmt: skip
    bot_name = "none" if hotseat else (bot or DEFAULT_BOT).strip().lower()
    if bot_name == "none" and seat is not None:
        fail("--seat chooses your seat against a bot; in a hot-seat game you play every seat")
    if bot_name not in DIFFICULTIES and bot_name != "none":
        _check_play_bot(bot_name)
    if save is not None:
        check_output(save, force=force, what="game record")
    human = _seat_index(spec, seat) if seat is not None else 0
    if seed is None:
        seed = secrets.randbits(32)
    bots: dict[int, Bot] = {}
    if bot_name != "none":
        bots = {
            s: (
                bot_for_difficulty(spec.id, bot_name, bot_seed(seed, s))
                if bot_name in DIFFICULTIES
                else make_bot(bot_name, bot_seed(seed, s))
            )
            for s in range(spec.num_seats)
            if s != human
        }
    state = spec.new_game(options)
    players = {
        spec.seat_name(s): (bots[s].name if s in bots else "human") for s in range(spec.num_seats)
    }
    stream: IO[str] | None = None
    if save is not None:
        try:
            stream = save.open("w", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {save}: {exc.strerror}")
    try:
        recorder = (
            Recorder(state, seed=seed, players=players, stream=stream)
            if stream is not None
            else None
        )
        typer.echo(f"{spec.title}: {', '.join(f'{k} {v}' for k, v in players.items())}.")
        typer.echo(f"Seed {seed} (play the same dice again with --seed {seed}).")
        typer.echo("Type ? for the legal actions, help for the commands.")
        terminal = TerminalGame(spec, state, bots, SeededSampler(seed), recorder, make_console())
        finished = terminal.run()
    finally:
        if stream is not None:
            stream.close()
    if finished:
        terminal.last_pieces = set()
        terminal.draw(None)
        typer.echo(f"Result: {state.result_text()}")
    else:
        typer.echo(f"Game left after {state.ply} plies: {state.result_text()}.")
    if save is not None:
        typer.echo(f"Record saved to {save} (check it with: monsterball replay {save} --verify).")
    if terminal.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


DEFAULT_BOT = "heuristic"
"""The opponent when none is named: one that plays the game (picks up the pull, recovers a
kickoff), as in ``tui``; ``random`` is there for those who want it."""


def _check_play_bot(name: str) -> None:
    from monsterball.bots.registry import BOTS, make_bot

    try:
        make_bot(name, 0)
    except ValueError as exc:
        message = str(exc)
        if message.startswith("unknown bot"):
            known = [*sorted(BOTS), *DIFFICULTIES, "none"]
            message = f"unknown bot '{name}'; known bots: {', '.join(known)}"
        fail(message)
