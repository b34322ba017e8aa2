"""What every ``monsterball`` command shares: the Typer app, option parsing, errors."""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
import typer.core
from typer.core import TyperArgument, TyperGroup

from monsterball import __version__
from monsterball.cli.completion import complete_preset
from monsterball.core.errors import MonsterballError, RecordError

# Typer from 0.20 or so carries its own copy of Click (typer._click); older ones use click.
click: Any = getattr(typer.core, "_click", None) or typer.core.click  # type: ignore[attr-defined]

# The engine, the games and rich load when a command runs, not when the command tree is
# built: --version and Tab completion stay cheap (scripts/bench_startup.py).
if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from monsterball.core.game import GameSpec
    from monsterball.core.options import GameOptions
    from monsterball.core.record import GameRecord


def clean_help(command: Any) -> Any:
    """Help that reads like a man page: ``--games N``, ``--save PATH``, no ``<bool>`` after a
    flag or ``<list[str]>`` after a repeatable option (Typer's rich help shows Python types
    unless a parameter has a metavar)."""
    if command.help:
        # Docstrings wrap at the source's width: rejoin each paragraph so the terminal wraps
        # it (the command list printed 'draws;' / 'with --sweep' as separate lines).
        paragraphs = re.split(r"\n\s*\n", command.help.strip())
        command.help = "\n\n".join(" ".join(p.split()) for p in paragraphs)
    for param in command.params:
        if isinstance(param, TyperArgument):
            # Typer draws an argument's type next to its name: the name says enough.
            setattr(param, "display_type_rich", lambda ctx: None)  # noqa: B010
        if param.metavar is not None:
            continue
        if getattr(param, "is_flag", False) or getattr(param, "count", False):
            param.metavar = ""
        elif isinstance(param, TyperArgument):
            param.metavar = (param.name or "arg").upper()
        else:
            kind = str(param.bare_type() if hasattr(param, "bare_type") else "str").lower()
            names = {"int": "N", "float": "X", "path": "PATH"}
            param.metavar = next((v for k, v in names.items() if k in kind), "TEXT")
    original = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = original(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""  # --help is a flag too
        return option

    setattr(command, "get_help_option", help_option)  # noqa: B010
    for sub in getattr(command, "commands", {}).values():
        clean_help(sub)
    return command


class _CleanGroup(TyperGroup):
    """The command group, with every command's help cleaned as it is built, and usage
    errors (a value out of range, a missing argument) as one ``error:`` line like every
    other error, instead of Typer's boxed panel."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        clean_help(self)

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.ClickException as exc:
            if not standalone_mode:
                raise
            typer.echo(f"error: {usage_error_text(exc)}", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:  # end of input at a prompt
            if not standalone_mode:
                raise
            typer.echo("error: aborted", err=True)
            sys.exit(1)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def usage_error_text(exc: Any) -> str:
    """One line: what was wrong, and where to read more (``monsterball play --help``)."""
    message = " ".join(exc.format_message().split()).rstrip(".")
    ctx = getattr(exc, "ctx", None)
    if ctx is not None and isinstance(exc, click.exceptions.UsageError):
        message += f" (see '{ctx.command_path} --help')"
    return message


# The web app's game store, for the commands that work on it (db, ratings, admin); serve has its own
# help text; its default is SETTINGS.db_url.
DbOption = Annotated[str, typer.Option(help="SQLAlchemy URL of the game store (as for 'serve').")]

app = typer.Typer(
    cls=_CleanGroup,
    name="monsterball",
    help="Rules engines for tabletop monster sports games: play, replay and simulate.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_show_locals=False,
)

EXIT_DIVERGED = 1
EXIT_USAGE = 2
MAX_GAMES = 1_000_000  # per run (setting, pairing): a bound, and a typo caught before any work
MAX_JOBS = 256  # worker processes: more than this is a typo, not a machine
EXIT_INTERRUPTED = 130  # the shells' 128 + SIGINT

OptAssignments = Annotated[
    list[str] | None,
    typer.Option(
        "--opt",
        metavar="KEY=VALUE",
        help="Set an option: key=value, or key=@file to read a text value from a file "
        "(repeatable); see 'rules GAME'.",
    ),
]
PresetOption = Annotated[
    # A list so that a second --preset is an error rather than silently winning.
    list[str] | None,
    typer.Option(
        "--preset",
        metavar="NAME",
        help="Start from a named preset; see 'rules GAME'.",
        autocompletion=complete_preset,
    ),
]


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    typer.echo(f"error: {did_you_mean(message)}", err=True)
    raise typer.Exit(code)


_UNKNOWN = re.compile(r"unknown ([\w ]+?) '([^']*)'; known[^:]*: ([^;]*)$")


def did_you_mean(message: str) -> str:
    """``unknown option 'point_to_win'; known: a, b, points_to_win`` gets ``; did you mean
    'points_to_win'?`` (the engine's messages list what is known; this picks the close)."""
    match = _UNKNOWN.search(message)
    if match is None:
        return message
    known = [k.strip() for k in match.group(3).split(",") if k.strip()]
    close = difflib.get_close_matches(match.group(2).lower(), known, n=1, cutoff=0.6)
    return f"{message}; did you mean '{close[0]}'?" if close else message


def game_spec(name: str) -> GameSpec:
    from monsterball.games import get_game

    try:
        return get_game(name)
    except MonsterballError as exc:
        fail(str(exc))


def option_overrides(spec: GameSpec, assignments: Sequence[str] | None) -> dict[str, Any]:
    try:
        values = spec.options_type.parse_assignments(list(assignments or []))
    except MonsterballError as exc:
        fail(str(exc))
    return {k: _from_file(v) for k, v in values.items()}


def _from_file(value: Any) -> Any:
    """A text option written ``@path`` is read from that file (e.g. a saved Midway roster:
    ``--opt roster_a=@orcs.txt``); the options themselves stay plain values."""
    if not isinstance(value, str) or not value.startswith("@"):
        return value
    path = Path(value[1:])
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        fail(f"{path} is not UTF-8 text (byte {exc.start + 1} cannot be read)")
    words = " ".join(text.split())
    if not words:
        # An empty value means "draft" for a Midway roster: that must be said, not read.
        fail(f"{path} is empty; give the value itself (e.g. roster_a=) to mean an empty one")
    return words


def one_preset(presets: Sequence[str] | str | None) -> str | None:
    """The --preset given, at most once (a second one would silently win otherwise)."""
    if presets is None or isinstance(presets, str):
        return presets
    if len(presets) > 1:
        fail(f"--preset given {len(presets)} times ({', '.join(presets)}): give one")
    return presets[0] if presets else None


def game_options(
    spec: GameSpec, preset: Sequence[str] | str | None, assignments: Sequence[str] | None
) -> GameOptions:
    overrides = option_overrides(spec, assignments)
    try:
        return spec.options_type.from_preset(one_preset(preset), overrides)
    except MonsterballError as exc:
        fail(str(exc))


def make_console() -> Console:
    # Created per command so that it writes to whatever stdout is current (tests swap it).
    from rich.console import Console

    return Console(highlight=False)


def _version(value: bool) -> None:
    if value:
        import monsterball

        # Which engine runs: the compiled kernels the package build made, or pure Python.
        # monsterball.fast is cheap (no game imported); kernels() only to say what is missing.
        if monsterball.fast:
            engine = "compiled kernels"
        elif os.environ.get("MONSTERBALL_PURE"):
            engine = "pure Python: MONSTERBALL_PURE is set"
        else:
            ran = monsterball.kernels()
            missing = ", ".join(name.rpartition(".")[2] for name, on in ran.items() if not on)
            engine = f"pure Python for {missing}: compiled kernels not built"
        typer.echo(f"monsterball {__version__}, {engine}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Rules engines for tabletop monster sports games: play, replay and simulate."""


def make_table(*args: Any, **kwargs: Any) -> Table:
    """A rich table; rich.table is imported when a command prints one, not at start-up."""
    from rich.table import Table

    return Table(*args, **kwargs)


def value_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def check_bot(name: str) -> None:
    from monsterball.bots.registry import make_bot

    try:
        make_bot(name, 0)
    except ValueError as exc:
        fail(str(exc))


def progress_bar(console: Console) -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.text import Text

    from monsterball.cli.time_left import TimeLeftEstimate
    from monsterball.lab.pool import tree_cpu_seconds

    class TimeLeft(ProgressColumn):
        def __init__(self) -> None:
            super().__init__()
            self.estimates: dict[object, TimeLeftEstimate] = {}  # one per task

        def render(self, task: Task) -> Text:
            left = None
            if task.total is not None and task.elapsed is not None:
                estimate = self.estimates.get(task.id)
                if estimate is None:  # a task's field "jobs": its worker processes
                    estimate = TimeLeftEstimate(int(task.fields.get("jobs", 1)))
                    self.estimates[task.id] = estimate
                done, total = int(task.completed), int(task.total)
                left = estimate.seconds_left(task.elapsed, done, total, tree_cpu_seconds())
            if left is None:
                return Text("left -:--:--", style="progress.remaining")
            minutes, seconds = divmod(round(left), 60)
            hours, minutes = divmod(minutes, 60)
            return Text(f"left {hours}:{minutes:02d}:{seconds:02d}", style="progress.remaining")

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeLeft(),
        console=console,
    )


@contextlib.contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """SIGTERM (kill PID) stops a long run as Ctrl+C does: the finished games are kept and
    the workers stopped and joined, rather than the process vanishing mid-run."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (a test runner's worker): leave it be
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def write_text(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


def read_record_file(file: Path) -> GameRecord:
    """A record from ``file``, or exit with what is wrong with it."""
    from monsterball.core.record import read_record

    try:
        return read_record(file)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        fail(f"{file}: not a text file")
    except RecordError as exc:
        fail(f"{file}: malformed record: {exc}")


def check_output(path: Path, *, force: bool | None = None, what: str = "file") -> None:
    """Before any work is done: ``path`` can be written (its directory exists, it is not a
    directory). With ``force`` given, an existing file is replaced only when it is True: a
    game record is never clobbered by accident."""
    if path.is_dir():
        fail(f"{path} is a directory: give a file name for the {what}")
    parent = path.parent
    if not parent.is_dir():
        fail(f"cannot write {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        fail(f"cannot write {path}: the directory {parent} is not writable")
    if force is False and path.exists():
        fail(f"{path} exists: give --force to replace it, or another file name")


def check_record_dir(path: Path, *, force: bool) -> None:
    """Before any game is played: records can be saved in ``path`` (created if missing, its
    parent must exist), and none already there is replaced without ``force``."""
    if path.exists() and not path.is_dir():
        fail(f"{path} is a file: --save-dir takes a directory")
    if not path.exists():
        if not path.parent.is_dir():
            fail(f"cannot save records in {path}: the directory {path.parent} does not exist")
        return
    if not os.access(path, os.W_OK):
        fail(f"cannot save records in {path}: the directory is not writable")
    records = any(path.glob("game-*.jsonl")) or any(path.glob("setting-*/game-*.jsonl"))
    if records and not force:
        fail(f"{path} already holds game records: give --force to replace them, or another "
              "directory")  # fmt: skip
