"""``replay`` and ``luck``: reading game records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from monsterball.cli.common import (
    EXIT_DIVERGED,
    app,
    fail,
    make_console,
    make_table,
    read_record_file,
)
from monsterball.core.errors import (
    MonsterballError,
    RecordError,
)

# -- replay -------------------------------------------------------------------------------


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (.jsonl).")],
    verify: Annotated[
        bool, typer.Option("--verify", help="Check seats, hashes, dice and the end line.")
    ] = False,
    show: Annotated[bool, typer.Option("--show", help="Print the final board.")] = False,
    ply: Annotated[
        int | None,
        typer.Option(
            "--ply",
            metavar="N",
            min=0,
            help="Show the position after the first N plies (0: the start) and the next "
            "action, instead of replaying to the end.",
        ),
    ] = None,
) -> None:
    """Replay a game record; exit 1 if it diverges, 2 if it cannot be read."""
    from monsterball.core.record import replay

    record = read_record_file(file)
    if ply is not None and ply > len(record.actions):
        fail(f"{file} has {len(record.actions)} plies: --ply must be 0..{len(record.actions)}")
    try:
        report = replay(record, verify=verify, upto=ply)
    except RecordError as exc:
        # The header names a game, options or start position this engine cannot set up.
        fail(f"{file}: {exc}")
    if ply is not None and report.divergence is None:
        typer.echo(report.state.render())
        typer.echo(f"Position after {ply} of {len(record.actions)} plies of {record.game}.")
        if ply < len(record.actions):
            entry = record.actions[ply]
            typer.echo(f"Next: {entry.by}: {entry.action}")
        else:
            typer.echo(f"Result: {report.state.result_text()}")
        return
    if show:
        typer.echo(report.state.render())
    if report.divergence is not None:
        typer.echo(f"Replayed {report.plies} plies, then the record diverges.")
        fail(f"{file}: {report.divergence}", EXIT_DIVERGED)
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
        if record.dice is not None:  # contributed dice (docs/web.md, "Fair dice")
            given = [f"{n}={v or '(none)'}" for n, v in (record.dice_nonces or {}).items()]
            typer.echo(
                f"Dice scheme {record.dice}: HMAC-SHA256 keyed by the seed and the seats' "
                f"nonces ({', '.join(given) or 'none asked'})."
            )
    # A game lost on time ends off the board: its end line, once verified, has the result.
    off_board = verify and record.end is not None and "termination" in record.end
    result = record.end.get("result") if off_board and record.end is not None else None
    typer.echo(f"Result: {result or report.state.result_text()}")
    if record.end is None:
        typer.echo("The record has no end line: the game was left unfinished.")


# -- luck ---------------------------------------------------------------------------------


@app.command("luck")
def luck_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (.jsonl).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Each side's dice against expectation in a recorded game."""
    from monsterball.records.luck import LUCK_EXPLAINED, luck_report

    record = read_record_file(file)
    try:
        report = luck_report(record)
    except (RecordError, MonsterballError) as exc:
        fail(f"{file}: {exc}")
    if json_out:
        typer.echo(json.dumps(report.to_dict(), indent=2))
        return
    console = make_console()
    console.print(f"{report.game}: {report.result}; {report.chance_nodes} chance events")
    table = make_table(title="Luck: how far the dice moved each side's chance of winning")
    table.add_column("side")
    table.add_column("luck (win-probability points)", justify="right")
    for seat, value in zip(report.seats, report.luck, strict=True):
        table.add_row(seat, f"{value:+.1f}")
    console.print(table)
    console.print(LUCK_EXPLAINED)
    if report.dice:
        dice = make_table(title="Numeric rolls")
        for column in ("roll", "count", "mean", "expected", "z"):
            dice.add_column(column, justify="right")
        for label, t in sorted(report.dice.items()):
            dice.add_row(
                label, str(t.rolls), f"{t.mean:.2f}", f"{t.expected_mean:.2f}", f"{t.z:+.2f}"
            )
        console.print(dice)
    if report.biggest:
        swings = make_table(title=f"Biggest swings (for {report.seats[0]})")
        swings.add_column("ply", justify="right")
        swings.add_column("outcome")
        swings.add_column("swing (points)", justify="right")
        for ply, outcome, swing in report.biggest:
            swings.add_row(str(ply), outcome, f"{swing:+.1f}")
        console.print(swings)
