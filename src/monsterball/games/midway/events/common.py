"""The words every Midway event uses: a team, the score, a die with its modifier, a die
against what was needed."""

from __future__ import annotations

from monsterball.games.midway.options import TEAM_NAMES


def team_text(team: int) -> str:
    return f"team {TEAM_NAMES[team]}"


def team_title(team: int) -> str:
    return f"Team {TEAM_NAMES[team]}"


def score_text(score: tuple[int, int]) -> str:
    return f"A {score[0]} - B {score[1]}"


def modified_roll(roll: int, modifier: int, total: int, why: str) -> str:
    """'rolls a 2, minus 1 for size, making 1' (the chart's ends hold a total beyond them)."""
    if modifier == 0:
        said = f"rolls a {roll}, with no modifier"
    else:
        sign = "plus" if modifier > 0 else "minus"
        said = f"rolls a {roll}, {sign} {abs(modifier)} for {why}, making {roll + modifier}"
    if total != roll + modifier:
        said += f", read as {total} (the chart's end)"
    return said


def roll_needed(roll: int, need: int) -> str:
    """'rolls a 4 and needed 5 or less' (a need of 6 or more cannot fail, below 1 cannot
    succeed)."""
    if need >= 6:
        return f"rolls a {roll}; {need} or less was needed, so any roll does"
    if need < 1:
        return f"rolls a {roll}; {need} or less was needed, so no roll does"
    return f"rolls a {roll} and needed {need} or less"
