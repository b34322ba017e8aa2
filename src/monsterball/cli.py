"""The ``monsterball`` command: list games and rules, play in the terminal, replay records,
run simulations.

Bad input from the user (an unknown game, option, preset or bot, an unreadable record) ends
with a one-line message and exit status 2, never a traceback; a record that replays but
diverges exits with status 1.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import secrets
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from monsterball import __version__
from monsterball.bots import BOTS, DIFFICULTIES, Bot, bot_for_difficulty, bot_seed, make_bot
from monsterball.core.actions import Action, Event
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import (
    IllegalActionError,
    MonsterballError,
    NotationError,
    RecordError,
)
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.options import GameOptions, OptionInfo
from monsterball.core.record import GameRecord, Recorder, read_record, replay
from monsterball.core.registry import all_games, get_game
from monsterball.simulate import SimulationSummary, simulate

app = typer.Typer(
    name="monsterball",
    help="Rules engines for tabletop monster sports games: play, replay and simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

EXIT_DIVERGED = 1
EXIT_USAGE = 2

OptAssignments = Annotated[
    list[str] | None,
    typer.Option("--opt", help="Set an option: key=value (repeatable); see 'rules GAME'."),
]
PresetOption = Annotated[
    str | None, typer.Option("--preset", help="Start from a named preset; see 'rules GAME'.")
]


def _fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _spec(name: str) -> GameSpec:
    try:
        return get_game(name)
    except MonsterballError as exc:
        _fail(str(exc))


def _overrides(spec: GameSpec, assignments: Sequence[str] | None) -> dict[str, Any]:
    try:
        values = spec.options_type.parse_assignments(list(assignments or []))
    except MonsterballError as exc:
        _fail(str(exc))
    return {k: _from_file(v) for k, v in values.items()}


def _from_file(value: Any) -> Any:
    """A text option written ``@path`` is read from that file (e.g. a saved Midway roster:
    ``--opt roster_a=@orcs.txt``); the options themselves stay plain values."""
    if not isinstance(value, str) or not value.startswith("@"):
        return value
    path = Path(value[1:])
    try:
        return " ".join(path.read_text(encoding="utf-8").split())
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")


def _options(spec: GameSpec, preset: str | None, assignments: Sequence[str] | None) -> GameOptions:
    overrides = _overrides(spec, assignments)
    try:
        return spec.options_type.from_preset(preset, overrides)
    except MonsterballError as exc:
        _fail(str(exc))


def _console() -> Console:
    # Created per command so that it writes to whatever stdout is current (tests swap it).
    return Console(highlight=False)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"monsterball {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Rules engines for tabletop monster sports games: play, replay and simulate."""


# -- games / rules ------------------------------------------------------------------------


@app.command()
def games() -> None:
    """List the registered games."""
    table = Table(title="Games", show_lines=True)
    for column in ("id", "aliases", "title", "summary", "presets"):
        table.add_column(column, overflow="fold")
    for spec in all_games():
        table.add_row(
            spec.id,
            ", ".join(spec.aliases),
            spec.title,
            spec.summary,
            ", ".join(spec.options_type.PRESETS),
        )
    _console().print(table)


def _allowed(info: OptionInfo) -> str:
    if info.choices is not None:
        return " | ".join(str(c) for c in info.choices)
    if isinstance(info.default, bool):
        return "true | false"
    if info.minimum is not None or info.maximum is not None:
        low = "" if info.minimum is None else str(info.minimum)
        high = "" if info.maximum is None else str(info.maximum)
        return f"{low}..{high}"
    return ""


def _value_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@app.command()
def rules(game: Annotated[str, typer.Argument(help="Game id or alias.")]) -> None:
    """Show a game's options (with the rulings behind them) and presets."""
    spec = _spec(game)
    console = _console()
    console.print(f"[bold]{spec.title}[/bold] ({spec.id}), rules {spec.rules_version}")
    console.print(spec.summary)
    console.print(f"Seats: {', '.join(spec.seat_names)}; rulebook: {spec.rulebook}")
    table = Table(title="Options (set with --opt key=value)", show_lines=True)
    for column in ("name", "type", "default", "allowed", "doc", "ruling"):
        table.add_column(column, overflow="fold")
    for info in spec.options_type.describe():
        table.add_row(
            info.name,
            info.type_name,
            _value_text(info.default),
            _allowed(info),
            info.doc,
            info.ruling or "",
        )
    console.print(table)
    presets = Table(title="Presets (use with --preset NAME)", show_lines=True)
    for column in ("preset", "settings", "doc"):
        presets.add_column(column, overflow="fold")
    docs = spec.options_type.PRESET_DOCS
    for name, values in spec.options_type.PRESETS.items():
        settings = ", ".join(f"{k}={_value_text(v)}" for k, v in values.items()) or "(defaults)"
        presets.add_row(name, settings, docs.get(name, ""))
    console.print(presets)
    if spec.rulings:
        rulings = Table(title="Rulings (full text: docs/rules/ in the source tree)")
        rulings.add_column("id", no_wrap=True)
        rulings.add_column("what was decided", overflow="fold")
        for ruling_id, summary in spec.rulings.items():
            rulings.add_row(ruling_id, summary)
        console.print(rulings)


# -- serve --------------------------------------------------------------------------------


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLAlchemy URL of the game store (PostgreSQL works too).")
    ] = "sqlite:///monsterball.db",
    max_bot_seconds: Annotated[
        float,
        typer.Option(
            min=0.05,
            help="Most a bot may think per decision; iteration budgets are capped to match "
            "(2,000 per second).",
        ),
    ] = 2.0,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Bots thinking at once (one worker process each); default: the cores but one.",
        ),
    ] = None,
    games_per_minute: Annotated[
        float, typer.Option(min=0, help="New games (and forks) per minute per address; 0: off.")
    ] = 20.0,
    moves_per_second: Annotated[
        float, typer.Option(min=0, help="Moves per second per seat token; 0: off.")
    ] = 10.0,
    address_moves_per_second: Annotated[
        float, typer.Option(min=0, help="Moves per second per address; 0: off.")
    ] = 30.0,
    rooms_per_address: Annotated[
        int, typer.Option(min=0, help="Games in progress created per address; 0: no cap.")
    ] = 20,
    sockets_per_address: Annotated[
        int, typer.Option(min=0, help="WebSockets open at once per address; 0: no cap.")
    ] = 50,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="An origin (https://games.example) whose pages may open sockets, besides the "
            "server's own host; repeat for more."
        ),
    ] = None,
    log_level: Annotated[
        str, typer.Option(help="uvicorn's log level (info shows the access log, tokens hidden).")
    ] = "warning",
) -> None:
    """Serve the web app: play in the browser (hot-seat, against bots, online rooms, replays)."""
    import uvicorn

    from monsterball.web.app import MAX_MESSAGE_BYTES, create_app
    from monsterball.web.frames import message_limited_protocol
    from monsterball.web.limits import Limits, default_bot_workers
    from monsterball.web.security import RedactTokens

    limits = Limits(
        games_per_minute=games_per_minute,
        moves_per_second=moves_per_second,
        address_moves_per_second=address_moves_per_second,
        rooms_per_address=rooms_per_address,
        max_bot_seconds=max_bot_seconds,
        bot_workers=bot_workers or default_bot_workers(),
        sockets_per_address=sockets_per_address,
        allowed_origins=tuple(allow_origin or ()),
    )
    try:
        application = create_app(db, limits=limits)
    except Exception as exc:  # a bad URL or an unreachable database: say which
        _fail(f"cannot open the game store '{db}': {exc}")
    _console().print(f"monsterball: open http://{host}:{port}/ (games stored in {db})")
    for name in ("uvicorn.access", "uvicorn.error"):  # seat tokens never reach a log
        logging.getLogger(name).addFilter(RedactTokens())
    # No permessage-deflate: compressing every state message cost more CPU than the whole move
    # (scripts/web_load.py); messages are a few kB.
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level=log_level,
        ws=message_limited_protocol(MAX_MESSAGE_BYTES),
        ws_max_size=1 << 16,
        ws_per_message_deflate=False,
    )


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


# -- replay -------------------------------------------------------------------------------


def _read_record_file(file: Path) -> GameRecord:
    """A record from ``file``, or exit with what is wrong with it."""
    try:
        return read_record(file)
    except OSError as exc:
        _fail(f"cannot read {file}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        _fail(f"{file}: not a text file")
    except RecordError as exc:
        _fail(f"{file}: malformed record: {exc}")


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (.jsonl).")],
    verify: Annotated[
        bool, typer.Option("--verify", help="Check seats, hashes, dice and the end line.")
    ] = False,
    show: Annotated[bool, typer.Option("--show", help="Print the final board.")] = False,
) -> None:
    """Replay a game record; exit 1 if it diverges, 2 if it cannot be read."""
    record = _read_record_file(file)
    try:
        report = replay(record, verify=verify)
    except RecordError as exc:
        # The header names a game, options or start position this engine cannot set up.
        _fail(f"{file}: {exc}")
    if show:
        typer.echo(report.state.render())
    if report.divergence is not None:
        typer.echo(f"Replayed {report.plies} plies, then the record diverges.")
        _fail(f"{file}: {report.divergence}", EXIT_DIVERGED)
    checked = "verified" if verify else "not verified; use --verify"
    typer.echo(f"Replayed {report.plies} plies of {record.game} ({checked}).")
    if verify and record.dice_commitment is not None:
        if record.dice_seed is None:
            typer.echo("The dice seed is still secret (committed to, revealed at the end).")
        else:
            typer.echo(
                f"Dice: seed {record.dice_seed} matches the commitment "
                f"{record.dice_commitment} and rolled every die."
            )
    typer.echo(f"Result: {report.state.result_text()}")
    if record.end is None:
        typer.echo("The record has no end line: the game was left unfinished.")


# -- simulate -----------------------------------------------------------------------------


def _check_bot(name: str) -> None:
    try:
        make_bot(name, 0)
    except ValueError as exc:
        _fail(str(exc))


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


def _progress_bar(console: Console) -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    )


def _write_text(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {path}: {exc.strerror or exc}")


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


# -- match --------------------------------------------------------------------------------


@app.command("match")
def match_cmd(
    game: Annotated[str, typer.Argument(help="Game id or alias.")],
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bots (two or more), e.g. random,heuristic,mcts:200 "
            "(mcts:N iterations or mcts:Ts seconds per decision)."
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Games per pairing (seats alternate).")
    ] = 20,
    preset: PresetOption = None,
    opt: OptAssignments = None,
    jobs: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    seed: Annotated[int, typer.Option(help="Master seed (the same dice for every pairing).")] = 0,
    db: Annotated[Path, typer.Option(help="SQLite database the results are added to.")] = Path(
        "monsterball-results.sqlite"
    ),
    no_db: Annotated[bool, typer.Option("--no-db", help="Do not store the results.")] = False,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Export the games as CSV.")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Export the whole match as JSON.")
    ] = None,
) -> None:
    """A round robin between bots: win rates with 95% CIs and Elo ratings."""
    from monsterball.tournament import games_csv, match_json, run_match, save_match

    spec = _spec(game)
    overrides = _overrides(spec, opt)
    _options(spec, preset, opt)
    names = tuple(n.strip().lower() for n in bots.split(",") if n.strip())
    for name in names:
        _check_bot(name)
    if len(names) < 2:
        _fail("give at least two comma-separated bots, e.g. --bots random,heuristic")
    if len(set(names)) != len(names):
        _fail("each bot may appear once (give budgets to tell two search bots apart)")
    pairings = len(names) * (len(names) - 1) // 2
    console = _console()
    with _progress_bar(console) as bar:
        task = bar.add_task(f"{spec.id}: {', '.join(names)}", total=games * pairings)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            result = run_match(
                spec.id,
                names,
                games,
                seed=seed,
                preset=preset,
                overrides=overrides,
                jobs=jobs,
                progress=advance,
            )
        except (ValueError, MonsterballError) as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            _fail("interrupted", 130)
    table = Table(title=f"{spec.id}: {games} games per pairing, seed {seed}")
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
    elo = Table(title="Elo (mean 1500)")
    elo.add_column("bot")
    elo.add_column("Elo", justify="right")
    for name, rating in sorted(result.elo.items(), key=lambda kv: -kv[1]):
        elo.add_row(name, f"{rating:.0f}")
    console.print(elo)
    if not no_db:
        try:
            match_id = save_match(result, db)
        except sqlite3.Error as exc:
            _fail(f"cannot store the results in {db}: {exc}")
        console.print(f"Stored as match {match_id} in {db}")
    if csv_out is not None:
        _write_text(csv_out, games_csv(result))
    if json_out is not None:
        _write_text(json_out, match_json(result))


# -- luck ---------------------------------------------------------------------------------


@app.command("luck")
def luck_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (.jsonl).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Each side's dice against expectation in a recorded game."""
    from monsterball.report import luck_report

    record = _read_record_file(file)
    try:
        report = luck_report(record)
    except (RecordError, MonsterballError) as exc:
        _fail(f"{file}: {exc}")
    if json_out:
        typer.echo(json.dumps(report.to_dict(), indent=2))
        return
    console = _console()
    console.print(f"{report.game}: {report.result}; {report.chance_nodes} chance events")
    table = Table(title="Luck: how far the dice moved the evaluation from its expectation")
    table.add_column("side")
    table.add_column("luck (sum of swings)", justify="right")
    for seat, value in zip(report.seats, report.luck, strict=True):
        table.add_row(seat, f"{value:+.3f}")
    console.print(table)
    if report.dice:
        dice = Table(title="Numeric rolls")
        for column in ("roll", "count", "mean", "expected", "z"):
            dice.add_column(column, justify="right")
        for label, t in sorted(report.dice.items()):
            dice.add_row(
                label, str(t.rolls), f"{t.mean:.2f}", f"{t.expected_mean:.2f}", f"{t.z:+.2f}"
            )
        console.print(dice)
    if report.biggest:
        swings = Table(title=f"Biggest swings (for {report.seats[0]})")
        swings.add_column("ply", justify="right")
        swings.add_column("outcome")
        swings.add_column("swing", justify="right")
        for ply, outcome, swing in report.biggest:
            swings.add_row(str(ply), outcome, f"{swing:+.3f}")
        console.print(swings)


@app.command("odds")
def odds_cmd(
    game: Annotated[str, typer.Argument(help="Game id or alias (huck-monster).")],
    mark: Annotated[bool, typer.Option("--mark", help="A Mark next to the disc.")] = False,
    intercepts: Annotated[int, typer.Option(min=0, max=7, help="Intercepts on the path.")] = 0,
    catch_marks: Annotated[
        int, typer.Option(min=0, max=7, help="Marks next to the disc at the catch.")
    ] = 0,
    challenges: Annotated[int, typer.Option(min=0, max=7, help="Challenges.")] = 0,
    throw: Annotated[
        int | None, typer.Option(min=3, max=18, help="A known throw count (default: rolled).")
    ] = None,
    offense_strategy: Annotated[
        str, typer.Option(help="Add the light die to: none, throw or catch.")
    ] = "none",
    defense_strategy: Annotated[
        str,
        typer.Option(
            help="Add the dark die to the first: none, mark, intercept, catch-mark, challenge."
        ),
    ] = "none",
    ties: Annotated[str, typer.Option(help="Who wins ties: offense or defense.")] = "offense",
    equipment: Annotated[
        str, typer.Option(help="Strategy equipment: dice, pin or game-disc.")
    ] = "dice",
    team_pins: Annotated[
        bool, typer.Option("--team-pins", help="Team Pins (1..18 spins) replace team dice.")
    ] = False,
    stealth_offense: Annotated[
        bool, typer.Option("--stealth-offense", help="Thrower and Receiver on Stealth Spaces.")
    ] = False,
    stealth_defense: Annotated[
        bool, typer.Option("--stealth-defense", help="Every bidder on a Stealth Space.")
    ] = False,
    all_star: Annotated[
        str,
        typer.Option(
            help="Sideline All-Star in the play: none, throw, catch, or the defender's "
            "role (mark, intercept, catch-mark, challenge)."
        ),
    ] = "none",
    continue_dice: Annotated[
        int,
        typer.Option(
            min=0,
            max=3,
            help="Huck + Monster Pro: the throw is a Continue's, with 1 die added to "
            "--remaining, or 3 dice (The Rethrow); 0: an ordinary throw.",
        ),
    ] = 0,
    remaining: Annotated[
        int, typer.Option(min=0, max=36, help="The count a one-die Continue adds its die to.")
    ] = 0,
    by_count: Annotated[
        bool, typer.Option("--by-count", help="Also list the odds for each throw count.")
    ] = False,
) -> None:
    """Exact probability that a throw is caught against the given bids (Huck + Monster)."""
    from monsterball.games.huck_monster.odds import UpCallSetup, catch_probability

    spec = _spec(game)
    if spec.id != "huck-monster":
        _fail(f"exact odds are available for huck-monster, not {spec.id}")
    try:
        setup = UpCallSetup(
            mark=mark,
            intercepts=intercepts,
            catch_marks=catch_marks,
            challenges=challenges,
            throw_count=throw,
            offense_strategy=offense_strategy,
            defense_strategy=defense_strategy,
            ties=ties,
            equipment=equipment,
            team_pins=team_pins,
            stealth_offense=stealth_offense,
            stealth_defense=stealth_defense,
            all_star_throw=all_star == "throw",
            all_star_catch=all_star == "catch",
            all_star_bid=all_star if all_star not in ("throw", "catch") else "none",
            continue_dice=continue_dice,
            remaining=remaining,
        )
    except ValueError as exc:
        _fail(str(exc))
    console = _console()
    p = catch_probability(setup)
    console.print(
        f"P(catch) = {p.numerator}/{p.denominator} = {float(p):.4%}   "
        f"P(turnover) = {float(1 - p):.4%}"
    )
    if by_count and continue_dice == 1:
        table = Table("count left", "P(catch)")
        for left in range(19):
            one = catch_probability(dataclasses.replace(setup, remaining=left))
            table.add_row(str(left), f"{float(one):.4%}")
        console.print(table)
    elif by_count and not continue_dice:
        table = Table("throw count", "P(catch)")
        for count in range(1 if team_pins else 3, 19):
            one = catch_probability(dataclasses.replace(setup, throw_count=count))
            table.add_row(str(count), f"{float(one):.4%}")
        console.print(table)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
