"""Paper Ultimate heuristics for the bots (see :mod:`monsterball.bots.heuristic`).

From the rules' tactics: a pass needs a teammate "free in one of the allowed throwing
directions", with no opponent on the line, so

- the offense is worth more the further forward its best open pass goes (a pass into the
  end zone scores) and the more open passes the thrower has; a thrower with none is about
  to turn the disc over;
- the defense blocks those lines and marks the thrower (one marker only);
- after the pull the offense must reach the disc quickly.
"""

from __future__ import annotations

import math

from monsterball.core.contract import BotHooks
from monsterball.core.game import GameState
from monsterball.games.paper_ultimate.state import NOBODY, PaperUltimateState, team_players


def _progress(state: PaperUltimateState, cell: int, team: int) -> float:
    """0 at ``team``'s own end, 1 at the end it attacks."""
    row = state.field.coords(cell)[1]
    last = state.options.length - 1
    north = state.attacking_end_zone(team) >> state.field.cell(0, last) & 1
    return row / last if north else (last - row) / last


def _offense_value(state: PaperUltimateState) -> float:
    off = state.offense
    disc = state.disc
    if disc < 0:
        return 0.0
    here = _progress(state, disc, off)
    value = 0.2 + 0.5 * here
    if state.holder == NOBODY:
        dist = state.field.distance_row(disc)
        nearest = min(
            (dist[state.pos[p]] for p in team_players(off) if state.pos[p] >= 0), default=20
        )
        return value - 0.04 * nearest
    targets = state.pass_targets()
    if not targets:
        return value - 0.35
    zone = state.attacking_end_zone(off)
    best = -1.0
    for p in targets:
        cell = state.pos[p]
        gain = 1.5 if zone >> cell & 1 else _progress(state, cell, off) - here
        best = max(best, gain)
    return value + 0.6 * best + 0.04 * len(targets)


# The bots' version (see monsterball.bots.heuristic): "2" since the position weight below.
VERSION = "2"

# How many points the offense's position (:func:`_offense_value`, up to about 1.7 with a pass
# into the end zone open) is worth: little enough that scoring always raises the scorer's
# value. At full weight a point (2.5 / 5 of the squashed scale) was worth less than an open
# pass to the end zone, and a search maximising the evaluation held the disc instead of
# scoring (CHANGELOG.md 0.1.0, "A point outweighs a position").
POSITION_WEIGHT = 0.4


def evaluate(state: GameState) -> float:
    """Seat 0's value: the score first, then the offense's passing options."""
    assert isinstance(state, PaperUltimateState)
    if state.winner in (0, 1):
        return 1.0 if state.winner == 0 else -1.0
    a, b = state.score
    team = _offense_value(state)
    points = (a - b) + POSITION_WEIGHT * (team if state.offense == 0 else -team)
    return math.tanh(2.5 * points / max(1, state.options.points_to_win))


# The bots' hooks (core.contract), declared on SPEC.
BOT = BotHooks("paper-ultimate", evaluate, version=VERSION)
