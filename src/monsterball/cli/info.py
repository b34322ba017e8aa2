"""``games`` and ``rules``: what is registered and how each game is set up."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Annotated

import typer

from monsterball.cli.common import (
    app,
    fail,
    game_spec,
    make_console,
    make_table,
    value_text,
)
from monsterball.cli.completion import complete_game
from monsterball.guides.rulebooks import rule_entry, rule_ids, rules_document

if TYPE_CHECKING:
    from monsterball.core.options import OptionInfo

# -- games / rules ------------------------------------------------------------------------


@app.command()
def games() -> None:
    """List the registered games."""
    from monsterball.games import all_games

    table = make_table(title="Games", show_lines=True)
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
    make_console().print(table)


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
def rules(
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="Game id or alias.", autocompletion=complete_game)
    ],
    text: Annotated[
        bool,
        typer.Option("--text", help="Print the rules document: every rule id, status, ruling."),
    ] = False,
    rule: Annotated[
        str | None,
        typer.Option("--id", metavar="ID", help="Print what the rules document says about one id."),
    ] = None,
) -> None:
    """Show a game's options (with the rulings behind them) and presets; --text prints the
    rules themselves."""
    from rich.markdown import Markdown

    spec = game_spec(game)
    console = make_console()
    if text or rule is not None:
        document = rules_document(spec.id)
        if document is None:
            fail(f"the rules document of {spec.id} is not installed")
        if rule is None:
            console.print(Markdown(document))
            return
        if not rule.strip():
            fail(f"--id takes a rule id, e.g. {next(iter(rule_ids(spec.id)), 'R1')}")
        found = rule_entry(spec.id, rule)
        if found is None:
            close = difflib.get_close_matches(rule.upper(), rule_ids(spec.id), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            fail(f"no rule '{rule}' in the {spec.id} rules{hint}")
        console.print(Markdown(found))
        return
    console.print(f"[bold]{spec.title}[/bold] ({spec.id}), rules {spec.rules_version}")
    console.print(spec.summary)
    rulebook = spec.docs.rulebook_title or spec.title
    console.print(f"Seats: {', '.join(spec.seat_names)}; rulebook: {rulebook}")
    table = make_table(title="Options (set with --opt key=value)", show_lines=True)
    for column in ("name", "type", "default", "allowed", "doc", "ruling"):
        table.add_column(column, overflow="fold")
    for info in spec.options_type.describe():
        table.add_row(
            info.name,
            info.type_name,
            value_text(info.default),
            _allowed(info),
            info.doc,
            info.ruling or "",
        )
    console.print(table)
    presets = make_table(title="Presets (use with --preset NAME)", show_lines=True)
    for column in ("preset", "settings", "doc"):
        presets.add_column(column, overflow="fold")
    docs = spec.options_type.PRESET_DOCS
    for name, values in spec.options_type.PRESETS.items():
        settings = ", ".join(f"{k}={value_text(v)}" for k, v in values.items()) or "(defaults)"
        presets.add_row(name, settings, docs.get(name, ""))
    console.print(presets)
    if spec.rulings:
        rulings = make_table(
            title=f"Rulings (the whole text: monsterball rules {spec.id} --id ID, or --text)"
        )
        rulings.add_column("id", no_wrap=True)
        rulings.add_column("what was decided", overflow="fold")
        for ruling_id, summary in spec.rulings.items():
            rulings.add_row(ruling_id, summary)
        console.print(rulings)
