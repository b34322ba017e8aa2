"""``odds``: exact catch probabilities, for a game whose spec offers a catch calculator
(``spec.odds.calculator``; Huck + Monster's throws)."""

from __future__ import annotations

from typing import Annotated

import typer

from monsterball.cli.common import (
    app,
    fail,
    game_spec,
    make_console,
    make_table,
)
from monsterball.cli.completion import complete_game
from monsterball.core.contract import Calculator


@app.command("odds")
def odds_cmd(
    game: Annotated[
        str, typer.Argument(help="Game id or alias (huck-monster).", autocompletion=complete_game)
    ],
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
    spec = game_spec(game)
    calculator = _catch_calculator(spec.odds.calculator if spec.odds else None)
    if calculator is None:
        from monsterball.games import all_games

        offered = [s.id for s in all_games() if s.odds and _catch_calculator(s.odds.calculator)]
        fail(f"exact odds are available for {', '.join(offered)}, not {spec.id}")
    # The strategy die (or an All-Star) joins a bidder that is in the play: without one the
    # odds would be those of a play nobody set up.
    bidders = {
        "mark": ("--mark", int(mark)),
        "intercept": ("--intercepts", intercepts),
        "catch-mark": ("--catch-marks", catch_marks),
        "challenge": ("--challenges", challenges),
    }
    for flag, role in (("--defense-strategy", defense_strategy), ("--all-star", all_star)):
        if role in bidders and bidders[role][1] == 0:
            fail(f"{flag} {role} adds to a {role} bid, but there is none: add "
                  f"{bidders[role][0]}{'' if role == 'mark' else ' N'}")  # fmt: skip
    settings = dict(
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
    try:
        p = calculator.probability(**settings)
    except ValueError as exc:
        fail(str(exc))
    console = make_console()
    console.print(
        f"P(catch) = {p.numerator}/{p.denominator} = {float(p):.4%}   "
        f"P(turnover) = {float(1 - p):.4%}"
    )
    if by_count and continue_dice == 1:
        table = make_table("count left", "P(catch)")
        for left in range(19):
            one = calculator.probability(**{**settings, "remaining": left})
            table.add_row(str(left), f"{float(one):.4%}")
        console.print(table)
    elif by_count and not continue_dice:
        table = make_table("throw count", "P(catch)")
        for count in range(1 if team_pins else 3, 19):
            one = calculator.probability(**{**settings, "throw_count": count})
            table.add_row(str(count), f"{float(one):.4%}")
        console.print(table)


def _catch_calculator(calculator: Calculator | None) -> Calculator | None:
    return calculator if calculator is not None and calculator.name == "catch" else None
