"""``play``: a game in the terminal, against a bot or hot seat."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Annotated

import typer

from monsterball.bots import BOTS, DIFFICULTIES, Bot, bot_for_difficulty, bot_seed, make_bot
from monsterball.cli.common import (
    OptAssignments,
    PresetOption,
    _fail,
    _options,
    _spec,
    app,
)
from monsterball.core.actions import Action, Event
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import (
    IllegalActionError,
    NotationError,
)
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.record import Recorder

# -- play ---------------------------------------------------------------------------------


class _Leave(Exception):
    """The human left the game (``quit`` or end of input)."""


HELP_TEXT = """\
Type an action in the game's notation, for example: {examples}.
Commands:
  a; b; c      several actions on one line, played in order
  ? or moves   list the legal actions
  board        show the board again
  help         this text
  quit         leave the game (a --save file keeps what was played)"""


class TerminalGame:
    """One game in the terminal: humans type, bots and dice play themselves.

    Every action goes through ``GameState.apply`` (or the recorder, which calls it), so an
    illegal action from a human raises before anything changes.
    """

    def __init__(
        self,
        spec: GameSpec,
        state: GameState,
        bots: dict[int, Bot],
        sampler: SeededSampler,
        recorder: Recorder | None,
    ):
        self.spec = spec
        self.state = state
        self.bots = bots
        self.sampler = sampler
        self.recorder = recorder
        # Further actions typed on one line ("A2-e5; A3-f6; end"), played while the same
        # seat is still to act; any error drops the rest (earlier ones stand, as at a table).
        self.pending: list[str] = []
        self.pending_seat = -1
        self.pending_ply = -1

    def _apply(self, action: Action, seat: int | None) -> list[Event]:
        if self.recorder is not None:
            return self.recorder.apply(action, seat=seat)
        return self.state.apply(action, seat=seat)

    @staticmethod
    def _announce(events: Sequence[Event]) -> None:
        for event in events:
            typer.echo(f"  {event.describe()}")

    def run(self) -> bool:
        """Play until the game ends (True) or the human leaves (False)."""
        state = self.state
        try:
            while not state.is_terminal():
                actor = state.current_player()
                if actor == CHANCE:
                    action = self.sampler.choose(state.chance_outcomes())
                    events = self._apply(action, None)
                    if events:
                        self._announce(events)
                    else:
                        typer.echo(f"  Chance: {action}")
                elif actor in self.bots:
                    bot = self.bots[actor]
                    action = bot.choose(state, actor)
                    events = self._apply(action, actor)
                    # A game may hide part of an action from the other seat (a secret
                    # choice); the record keeps the whole notation.
                    shown = getattr(action, "public_text", action.notation)()
                    typer.echo(f"{self.spec.seat_name(actor)} ({bot.name}): {shown}")
                    self._announce(events)
                else:
                    self._human_turn(actor)
        except _Leave:
            return False
        except KeyboardInterrupt:
            # Ctrl+C is a way to leave too; the record keeps every line already played.
            typer.echo("\nInterrupted: leaving the game.")
            return False
        return True

    def _human_turn(self, seat: int) -> None:
        state = self.state
        name = self.spec.seat_name(seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            typer.echo(f"{name}: only one legal action, {legal[0]}; played automatically.")
            self._announce(self._apply(legal[0], seat))
            return
        if self.pending and (seat != self.pending_seat or state.ply != self.pending_ply):
            self._drop_pending()  # someone else acted in between
        if not self.pending:
            typer.echo(state.render(seat))
        while True:
            if self.pending:
                line = self.pending.pop(0)
            else:
                try:
                    line = input(f"{name}> ")
                except EOFError:
                    typer.echo("")
                    typer.echo("End of input: leaving the game.")
                    raise _Leave from None
                first, *rest = line.split(";")
                line, self.pending = first, [r.strip() for r in rest if r.strip()]
                self.pending_seat = seat
            text = line.strip()
            command = text.lower()
            if not text:
                continue
            if command in ("?", "moves"):
                self._list_moves(legal)
            elif command == "help":
                examples = ", ".join(f"'{a}'" for a in legal[:3])
                typer.echo(HELP_TEXT.format(examples=examples))
            elif command == "board":
                typer.echo(state.render(seat))
            elif command in ("quit", "exit"):
                raise _Leave
            else:
                try:
                    action = self.spec.parse_action(text)
                    events = self._apply(action, seat)
                except NotationError as exc:
                    typer.echo(f"Cannot read that: {exc}. Type ? for the legal actions.")
                    self._drop_pending()
                    continue
                except IllegalActionError as exc:
                    typer.echo(f"Not allowed: {exc}. Type ? for the legal actions.")
                    self._drop_pending()
                    continue
                typer.echo(f"{name}: {action}")
                self._announce(events)
                self.pending_ply = state.ply
                return

    def _drop_pending(self) -> None:
        if self.pending:
            typer.echo(f"Skipped the rest of the line: {'; '.join(self.pending)}")
            self.pending = []

    @staticmethod
    def _list_moves(legal: Sequence[Action]) -> None:
        typer.echo(f"{len(legal)} legal actions:")
        for line in wrap_notations([a.notation() for a in legal]):
            typer.echo(line)


def wrap_notations(notations: Sequence[str], width: int = 78) -> list[str]:
    """Comma-separated lines that never split a notation (many contain spaces)."""
    lines: list[str] = []
    line = ""
    for i, item in enumerate(notations):
        piece = item + ("," if i < len(notations) - 1 else "")
        if line and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = ""
        line = f"{line} {piece}" if line else f"  {piece}"
    if line:
        lines.append(line)
    return lines


def _seat_index(spec: GameSpec, text: str) -> int:
    for index, name in enumerate(spec.seat_names):
        if name.lower() == text.strip().lower():
            return index
    _fail(f"unknown seat '{text}'; {spec.id} seats: {', '.join(spec.seat_names)}")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game id or alias.")],
    bot: Annotated[
        str,
        typer.Option(
            help=f"Opponent: {', '.join(sorted(BOTS))} (mcts:N or mcts:Ts for a budget), "
            "a difficulty (easy, medium, hard), or 'none' for hot seat."
        ),
    ] = "random",
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
        Path | None, typer.Option(help="Write the game record to this file as it is played.")
    ] = None,
) -> None:
    """Play a game in the terminal, against a bot or hot seat."""
    spec = _spec(game)
    options = _options(spec, preset, opt)
    bot_name = bot.strip().lower()
    if bot_name in DIFFICULTIES:
        pass
    elif bot_name != "none":
        try:
            make_bot(bot_name, 0)
        except ValueError:
            _fail(
                f"unknown bot '{bot}'; known bots: {', '.join(sorted(BOTS))}, "
                f"{', '.join(DIFFICULTIES)}, none"
            )
    human = _seat_index(spec, seat) if seat is not None else 0
    if seed is None:
        seed = secrets.randbits(32)
    bots: dict[int, Bot] = {}
    if not hotseat and bot_name != "none":
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
            _fail(f"cannot write {save}: {exc.strerror}")
    try:
        recorder = (
            Recorder(state, seed=seed, players=players, stream=stream)
            if stream is not None
            else None
        )
        typer.echo(f"{spec.title}: {', '.join(f'{k} {v}' for k, v in players.items())}.")
        typer.echo(f"Seed {seed} (play the same dice again with --seed {seed}).")
        typer.echo("Type ? for the legal actions, help for the commands.")
        finished = TerminalGame(spec, state, bots, SeededSampler(seed), recorder).run()
    finally:
        if stream is not None:
            stream.close()
    if finished:
        typer.echo(state.render())
        typer.echo(f"Result: {state.result_text()}")
    else:
        typer.echo(f"Game left after {state.ply} plies: {state.result_text()}.")
    if save is not None:
        typer.echo(f"Record saved to {save} (check it with: monsterball replay {save} --verify).")
