"""``tui``: the full-screen terminal app (Textual), to play or to step through a record."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer

from monsterball.bots import DIFFICULTIES, Bot, bot_for_difficulty, bot_seed, make_bot
from monsterball.cli.common import (
    OptAssignments,
    PresetOption,
    _fail,
    _options,
    _read_record_file,
    _spec,
    app,
)
from monsterball.core.errors import MonsterballError, RecordError
from monsterball.core.record import initial_state


@app.command("tui")
def tui_cmd(
    game: Annotated[
        str | None, typer.Argument(help="Game id or alias (not with --replay).")
    ] = None,
    bot: Annotated[
        str,
        typer.Option(help="Opponent: a bot (random, heuristic, mcts:N), easy/medium/hard, none."),
    ] = "heuristic",
    hotseat: Annotated[bool, typer.Option("--hotseat", help="Humans play every seat.")] = False,
    seed: Annotated[int | None, typer.Option(help="Seed of the dice and the bot.")] = None,
    preset: PresetOption = None,
    opt: OptAssignments = None,
    replay: Annotated[
        Path | None, typer.Option(help="Step through this game record instead of playing.")
    ] = None,
) -> None:
    """Play in a full-screen terminal app (keys or mouse), or step through a record."""
    try:
        from monsterball.tui import GameApp
    except ImportError:
        _fail("the terminal app needs Textual: pip install 'monsterball[tui]'")

    if replay is not None:
        record = _read_record_file(replay)
        try:
            spec, state = initial_state(record)
            actions = [spec.parse_action(entry.action) for entry in record.actions]
        except (RecordError, MonsterballError) as exc:
            _fail(f"{replay}: {exc}")
        GameApp(spec, state, bots={}, replay=actions).run()
        return
    if game is None:
        _fail("name a game (e.g. monsterball tui pu) or give --replay FILE")
    spec = _spec(game)
    options = _options(spec, preset, opt)
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
            _fail(str(exc))
    GameApp(spec, spec.new_game(options), bots=bots, seed=seed).run()
