"""Huck + Monster heuristics for the bots (see :mod:`monsterball.bots.heuristic`).

Written from the rulebook's tactics:

- "Position offensive players to keep multiple passing lanes open": the offense is worth
  more with open Receivers (no defender next to them) ahead of the disc and within a throw.
- "Position at least one player within 3-5 spaces behind the Handler, in an open throw
  lane ... for a Dump Pass": an open player just behind the disc counts too.
- "Position many different defenders to guard Receivers. 'Layering' defenders ...": the
  defense gains for every Receiver with a defender next to him, and for a Mark.
- "Prioritize moving an offensive player to the game disc as soon as possible after the
  Pull": a loose disc counts against the offense by its distance to the nearest player.
- Aiming: the bot weighs how far a throw gains against the chance that the defenders on
  its path and at the catch beat the count (2 dice for Intercepts and Challenges, 3 for a
  Mark), and a catch in the end zone scores.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import cache

from monsterball.core.actions import Action
from monsterball.core.contract import BotHooks
from monsterball.core.game import GameState
from monsterball.games.huck_monster.actions import (
    STRATEGY,
    RollStrategy,
    ThrowTo,
)
from monsterball.games.huck_monster.field import team_players
from monsterball.games.huck_monster.matchup import THROW, offense_count
from monsterball.games.huck_monster.state import NOBODY, HuckMonsterState

THROW_REACH = 12  # spaces: beyond a typical 3-dice Throw count


@cache
def _p_beats(dice: int, count: int) -> float:
    """P(``dice`` six-sided dice total more than ``count``)."""
    ways = [1]
    for _ in range(dice):
        nxt = [0] * (len(ways) + 6)
        for total, n in enumerate(ways):
            for face in range(1, 7):
                nxt[total + face] += n
        ways = nxt
    return float(sum(ways[count + 1 :])) / float(6**dice)


def _progress(state: HuckMonsterState, cell: int, team: int) -> float:
    """0 at ``team``'s own goal end, 1 at the far end of the field it attacks."""
    return _progress_table(state, team)[cell]


def _progress_table(state: HuckMonsterState, team: int) -> tuple[float, ...]:
    """:func:`_progress` of every cell for ``team`` (looked up, not recomputed, per call)."""
    north, south = _progress_rows(state.field.width, state.field.size, state.options.length)
    return north if state.forward(team) > 0 else south


@cache
def _progress_rows(width: int, size: int, length: int) -> tuple[tuple[float, ...], ...]:
    """Per cell: row / last attacking north, (last - row) / last attacking south (the same
    float expressions a per-call computation used)."""
    last = length - 1
    rows = [cell // width for cell in range(size)]
    return tuple(row / last for row in rows), tuple((last - row) / last for row in rows)


def _team_value(state: HuckMonsterState) -> float:
    """How good the position is for the offense, about -1..1 (score aside)."""
    off = state.offense
    defenders = state.occupied[1 - off]
    disc = state.disc
    if disc < 0:
        return 0.0
    progress = _progress_table(state, off)
    here = progress[disc]
    value = 0.2 + 0.5 * here
    dist = state.field.distance_row(disc)
    pos = state.pos
    holder = state.holder
    if holder == NOBODY and not state.action:
        nearest = min((dist[pos[p]] for p in team_players(off) if pos[p] >= 0), default=20)
        return value - 0.04 * nearest
    neighbours = state.field.neighbour_mask
    best = 0.0
    open_sum = 0.0
    guarded = 0
    dump = False
    for p in team_players(off):
        cell = pos[p]
        if p == holder or cell < 0:
            continue
        covered = neighbours[cell] & defenders
        if covered:
            guarded += covered.bit_count()
            continue
        d = dist[cell]
        if d > THROW_REACH:
            continue
        gain = progress[cell] - here
        if gain > 0:
            open_sum += gain
            if gain > best:
                best = gain
        elif 3 <= d <= 5:
            dump = True
    value += 0.8 * best + 0.2 * open_sum + (0.05 if dump else 0.0) - 0.02 * guarded
    if holder != NOBODY and neighbours[disc] & defenders:
        value -= 0.05  # marked
    return value


def evaluate(state: GameState) -> float:
    """Seat 0's value: the score first, then the offense's position. While a throw is in
    the air, the expectation over its catch and its turnover."""
    assert isinstance(state, HuckMonsterState)
    if state.winner in (0, 1):
        return 1.0 if state.winner == 0 else -1.0
    if state.action and state.receiver >= 0 and state.path and not state.outcome:
        return _in_flight(state)
    return _settled(state)


def _in_flight(state: HuckMonsterState) -> float:
    """A throw (or catch) under way: the chance that the bidders still to come all fail
    against the count, times the value of the catch, plus the turnover's."""
    count = (
        max(1, offense_count(state.base, state.light, THROW, state.halved)) if state.base else 10
    )
    final = state.path[-1]
    defenders = state.defender_cells()
    bidders = 0
    for c in state.path[max(state.progress, 0) :]:
        if defenders >> c & 1:
            bidders += 1
    bidders += (
        state.catch_guards(final, state.receiver) & ~_cells_of(state, state.bidders)
    ).bit_count()
    survive = (1 - _p_beats(2, count)) ** bidders
    caught = state.clone()
    caught.disc = final
    caught.holder = state.receiver
    caught.clear_action()
    lost = caught.clone()
    lost.offense = state.defense
    lost.holder = NOBODY
    if state.scoring_zone(state.offense) >> final & 1:
        caught_value = _scored(caught)
    else:
        caught_value = _settled(caught)
    return survive * caught_value + (1 - survive) * _settled(lost, turnover=True)


def _scored(caught: HuckMonsterState) -> float:
    """Seat 0's value of a catch that scores: the point, then the other team to receive the
    pull (its disc near its own end zone), or the game if the point wins it."""
    off = caught.offense
    score = caught.score[:]
    score[off] += 1
    if caught.options.wins(score[off], score[1 - off]):
        return 1.0 if off == 0 else -1.0
    after = caught.clone()
    after.score = score
    after.offense = 1 - off
    after.holder = NOBODY
    return _settled(after, turnover=True)


def _cells_of(state: HuckMonsterState, players: int) -> int:
    mask = 0
    for p in range(len(state.pos)):
        if players >> p & 1 and state.pos[p] >= 0:
            mask |= 1 << state.pos[p]
    return mask


# The bots' version (see monsterball.bots.heuristic): "2" since the position weight below.
VERSION = "2"

# How many points the offense's position (:func:`_team_value`, about 0.2 at its own end to
# 1 or so near the other) is worth. Under one: scoring must always raise the scorer's value,
# or a search that maximises the evaluation learns to stand at the goal line and never
# score. At full weight it did, in a 7-point game: a point was worth 2.5 / 7 = 0.36, less
# than the position it gave up (CHANGELOG.md 0.1.0, "A point outweighs a position").
POSITION_WEIGHT = 0.5


def _settled(state: HuckMonsterState, *, turnover: bool = False) -> float:
    a, b = state.score
    target = max(1, state.options.points_to_win)
    if turnover:
        # The new offense picks the disc up where it came down.
        team = 0.2 + 0.5 * _progress(state, state.disc, state.offense)
    else:
        team = _team_value(state)
    points = (a - b) + POSITION_WEIGHT * (team if state.offense == 0 else -team)
    return math.tanh(2.5 * points / target)


def _throw_values(state: HuckMonsterState, count: int) -> Callable[[ThrowTo], float]:
    """The value of a throw to each target at ``count``: what depends only on the position
    (the defenders, the Mark, the dice odds) is worked out once for every target."""
    field = state.field
    off = state.offense
    disc = state.disc
    defenders = state.defender_cells()
    neighbours = field.neighbour_mask
    from_disc = field.distance_row(disc)
    # The defenders near the straight line stand in for the path's Intercepts.
    lanes = [
        (field.distance_row(c), from_disc[c])
        for c in (state.pos[p] for p in team_players(1 - off))
        if c >= 0 and defenders >> c & 1
    ]
    mark = 1 if neighbours[disc] & defenders else 0
    beats2 = 1 - _p_beats(2, count)
    marked = (1 - _p_beats(3, count)) ** mark
    progress = _progress_table(state, off)
    zone = state.attacking_end_zone(off)
    pos = state.pos

    def value(action: ThrowTo) -> float:
        cell = field.parse_cell(action.cell)
        guards = ((neighbours[cell] | neighbours[pos[action.receiver]]) & defenders).bit_count()
        direct = from_disc[cell]
        lane = 0
        for row, near in lanes:
            if near + row[cell] <= direct + 1:
                lane += 1
        survive = marked * beats2**lane * beats2**guards
        ahead = progress[cell]
        gain = 2.0 if zone >> cell & 1 else ahead
        return survive * gain - (1 - survive) * (0.6 + 0.4 * ahead)

    return value


def policy(
    state: GameState, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action | None:
    """Aiming and the strategy die by rule; moves are left to the look-ahead."""
    assert isinstance(state, HuckMonsterState)
    first = legal[0]
    if isinstance(first, ThrowTo):
        top = state.stack[-1]
        count = int(getattr(top, "count", 10))
        value = _throw_values(state, count)
        return max(legal, key=lambda a: value(a) if isinstance(a, ThrowTo) else -9)
    # The strategy die is offered only as the pair [ROLL, STRATEGY] (procedures/bid.py,
    # upcall.py): a long list (a team move's) need not be scanned.
    if len(legal) <= 2 and any(isinstance(a, RollStrategy) for a in legal):
        # Save the Huck die for the catch; the Monster die goes on the first bid.
        if seat == state.offense and state.action != "catch":
            return next(a for a in legal if a != STRATEGY)
        return STRATEGY
    return None


# The bots' hooks (core.contract), declared on SPEC.
BOT = BotHooks("huck-monster", evaluate, policy, version=VERSION)
