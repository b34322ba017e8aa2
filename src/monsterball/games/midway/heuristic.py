"""Monsters of the Midway heuristics for the bots (see :mod:`monsterball.heuristic`).

From the rulebook's play: the team with the ball wants it far down the field with room
around the carrier; the defense wants players next to the carrier (only they can
tackle) and a late down; the draft takes the chart's best affordable monster.

Hidden information (MW-MAGIC-4, MW-MAGIC-8): the position of an opposing mirror-image
caster among his counters, and where an opposing invisible player will reappear, are
secret. :func:`determinize` samples both afresh from what the seat sees, so a bot that
judges the sampled copy cannot read the truth.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from monsterball.core.actions import Action
from monsterball.core.game import GameState
from monsterball.games.midway.actions import LENGTH, DraftPick
from monsterball.games.midway.state import NOBODY, MidwayState, team_of, team_players


def _progress(state: MidwayState, cell: int, team: int) -> float:
    row = state.row(cell)
    last = LENGTH - 1
    return row / last if state.forward(team) > 0 else (last - row) / last


def _ball_value(state: MidwayState) -> float:
    """For the team holding (or last holding) the ball, about -1..1."""
    team = state.poss
    cell = state.ball if state.ball >= 0 else state.spot
    if cell < 0:
        return 0.0
    value = 0.1 + 0.6 * _progress(state, cell, team) - 0.04 * max(0, state.down - 1)
    carrier = state.carrier
    if carrier >= 0 and state.pos[carrier] >= 0 and team_of(carrier) == team:
        dist = state.field.distance_row(state.pos[carrier])
        near = [
            dist[state.pos[p]]
            for p in team_players(1 - team)
            if state.pos[p] >= 0 and state.available(p)
        ]
        if near:
            value -= 0.06 * sum(1 for d in near if d <= 1)
            value += 0.015 * min(min(near), 6)
    elif state.ball_state == "loose":
        value -= 0.1
    return value


def evaluate(state: GameState) -> float:
    """Seat 0's value: the score (weighing more as plays run out), then the ball."""
    assert isinstance(state, MidwayState)
    if state.winner in (0, 1):
        return 1.0 if state.winner == 0 else -1.0
    a, b = state.score
    left = max(1, state.options.plays - state.plays)
    raw = (a - b) / 7.0 * (1.0 + 4.0 / left)
    ball = _ball_value(state)
    raw += ball if state.poss == 0 else -ball
    return math.tanh(raw)


def policy(
    state: GameState, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action | None:
    """The draft takes the chart's best affordable monster."""
    for action in legal:
        if isinstance(action, DraftPick) and action.kind == "best":
            return action
    return None


def determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` with the opposing secrets sampled uniformly from ``seat``'s view:
    which of the counters is the real caster, and where an invisible player reappears."""
    assert isinstance(state, MidwayState)
    copy = state.clone()
    caster = copy.caster
    if caster >= 0 and team_of(caster) != seat and copy.images:
        counters = sorted([*copy.images, copy.pos[caster]])
        real = counters[rng.randrange(len(counters))]
        copy.images = [c for c in counters if c != real]
        copy.pos = copy.pos[:]
        copy.pos[caster] = real
        if copy.carrier == caster:
            copy.ball = real
    hidden = copy.invisible
    if hidden >= 0 and team_of(hidden) != seat and copy.appear_at >= 0 and copy.vanish >= 0:
        row = copy.field.distance_row(copy.vanish)
        mv = copy.mtype(hidden).mv
        occupied = copy.counters_mask()
        free = [c for c in range(copy.field.size) if row[c] <= mv and not occupied >> c & 1]
        copy.appear_at = free[rng.randrange(len(free))] if free else NOBODY
    return copy
