"""What every ``monsterball`` command shares: the Typer app, option parsing, errors."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

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

from monsterball import __version__
from monsterball.bots import make_bot
from monsterball.core.errors import (
    MonsterballError,
    RecordError,
)
from monsterball.core.game import GameSpec
from monsterball.core.options import GameOptions
from monsterball.core.record import GameRecord, read_record
from monsterball.core.registry import get_game

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
    typer.Option("--preset", metavar="NAME", help="Start from a named preset; see 'rules GAME'."),
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
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        _fail(f"{path} is not UTF-8 text (byte {exc.start + 1} cannot be read)")
    words = " ".join(text.split())
    if not words:
        # An empty value means "draft" for a Midway roster: that must be said, not read.
        _fail(f"{path} is empty; give the value itself (e.g. roster_a=) to mean an empty one")
    return words


def _one_preset(presets: Sequence[str] | str | None) -> str | None:
    """The --preset given, at most once (a second one would silently win otherwise)."""
    if presets is None or isinstance(presets, str):
        return presets
    if len(presets) > 1:
        _fail(f"--preset given {len(presets)} times ({', '.join(presets)}): give one")
    return presets[0] if presets else None


def _options(
    spec: GameSpec, preset: Sequence[str] | str | None, assignments: Sequence[str] | None
) -> GameOptions:
    overrides = _overrides(spec, assignments)
    try:
        return spec.options_type.from_preset(_one_preset(preset), overrides)
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


def _value_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _check_bot(name: str) -> None:
    try:
        make_bot(name, 0)
    except ValueError as exc:
        _fail(str(exc))


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
