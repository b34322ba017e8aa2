"""``games`` and ``rules``: what is registered and how each game is set up."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from monsterball.cli.common import (
    _console,
    _spec,
    _value_text,
    app,
)
from monsterball.core.options import OptionInfo
from monsterball.core.registry import all_games

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
