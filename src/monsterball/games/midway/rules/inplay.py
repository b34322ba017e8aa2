"""What every in-play step shares: the ``InPlay`` base (a dead play unwinds the stack),
events, and the bookkeeping of possession, scores, injuries and spells."""

from __future__ import annotations

from fractions import Fraction

from monsterball.core.actions import Action
from monsterball.core.flow import Flow
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.geometry import grid
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.midway.actions import (
    LENGTH,
    PER_TEAM,
    WIDTH,
)
from monsterball.games.midway.events.magic import MirrorEnded, Reappeared
from monsterball.games.midway.events.scoring import Touchdown
from monsterball.games.midway.state import FOREVER, NOBODY, MidwayState, team_of

State = MidwayState
# Steps by name, for a step that hands back to a step of a module above (wired by
# ``procedures``).
FLOW: Flow[State] = Flow()


_FIELD = grid("hex", WIDTH, LENGTH)
_CELL_INDEX = {name: cell for cell, name in enumerate(_FIELD.names)}


def cell_of(state: State, name: str) -> int:
    # The catalogue's actions carry exact cell names: a dict hit before any parsing.
    found = _CELL_INDEX.get(name) if state.field is _FIELD else None
    return found if found is not None else action_cell(state.field, name)


wrong = wrong_kind


def injure(state: State, player: int, game: bool) -> None:
    """Off the field now; out for the next play, or the game (kobolds and orcs: one play,
    MW-SPEC-7)."""
    if game and state.kind_of(player) not in ("kobold", "orc"):
        state.out_through[player] = FOREVER
    else:
        state.out_through[player] = state.play_no + 1
    if player == state.carrier:
        # An injured carrier is down where he stands; he leaves with the rest at the whistle.
        state.dead = state.dead or "tackle"
        return
    state.remove(player)


def check_score(state: State) -> None:
    """MW-SCORE-1: a carrier in the end zone his team attacks scores a touchdown."""
    if state.carrier < 0 or state.dead:
        return
    team = team_of(state.carrier)
    if state.own_end_zone(1 - team, state.row(state.ball)):
        state.dead = "td"
        state.emit(Touchdown(state.carrier, team))


def take_ball(state: State, player: int) -> None:
    state.carrier = player
    state.ball = state.pos[player]
    state.ball_state = "held"
    state.poss = team_of(player)
    state.receivable = NOBODY
    state.bounces = 0
    if state.kind == "conversion" and team_of(player) != state.offense:
        state.dead = "stopped"  # MW-SCORE-5: a defensive recovery ends a conversion
        return
    if state.kind == "punt" and state.punt_path and team_of(player) == state.offense:
        state.dead = "downed"  # MW-PUNT-8: the punting team downs its own punt
        return
    check_score(state)


class InPlay(Procedure[State]):
    """Base of in-play steps: once the play is dead they resolve to nothing."""

    __slots__ = ()

    def actor(self, state: State) -> int:
        if state.dead:
            return AUTO
        return self.who(state)

    def who(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        if state.dead:
            return ()
        return self.auto(state)

    def auto(self, state: State) -> Transition:
        raise NotImplementedError


class DieRoll(Procedure[State]):
    """A step that is one roll of a die (the subclass's ``apply`` reads it)."""

    __slots__ = ()

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.d6)


class InPlayRoll(InPlay):
    """An in-play step that is one roll of a die; nothing is rolled once the play is dead."""

    __slots__ = ()

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()


def team_bits(team: int) -> int:
    return ((1 << PER_TEAM) - 1) << (team * PER_TEAM)


def end_mirror(state: State, event: MirrorEnded) -> None:
    state.caster = NOBODY
    state.images = []
    state.image_phases = 0
    state.emit(event)


def reappear(state: State) -> None:
    """MW-MAGIC-8: the invisible player reappears where his coach chose (in secret), or,
    if that hex has been taken meanwhile, on the nearest free hex (ruling MW-R11)."""
    p = state.invisible
    state.invisible = NOBODY
    occupied = state.counters_mask() & ~(1 << state.pos[p])
    target = state.appear_at if state.appear_at >= 0 else state.vanish
    if occupied >> target & 1:
        f = state.field
        free = [c for c in range(f.size) if not occupied >> c & 1]
        target = min(free, key=lambda c: (f.distance(state.vanish, c), c))
    state.pos[p] = target
    if p == state.carrier:
        state.ball = target
    state.vanish = NOBODY
    state.vanish_reach = 0
    state.appear_at = NOBODY
    state.emit(Reappeared(p, state.field.name(target)))
    check_score(state)


def travel_dir(state: State, start: int, end: int, team: int) -> int:
    """The last step's direction of the line start -> end (MW-R3's 'straight ahead')."""
    path = state.line(start, end, state.field.distance(start, end))
    if len(path) >= 2:
        (c1, r1), (c2, r2) = path[-2], path[-1]
        for d in range(6):
            if state.step_coords(c1, r1, d) == (c2, r2):
                return d
    if path:
        c2, r2 = path[-1]
        for d in range(6):
            if state.step_coords(state.col(start), state.row(start), d) == (c2, r2):
                return d
    return state.ahead(team)


def seen_at(state: State, cell: int) -> list[int]:
    """The players on ``cell`` both coaches see: a hidden mirror-image caster is left out
    of loose-ball scrambles and of the opponents a catch is rolled against, or the roll
    would show which counter is real (ruling MW-R10); the invisible player is never
    there to be seen."""
    return [p for p in state.players_at(cell) if p != state.caster]


def recovery_order(state: State, mover: int) -> tuple[int, ...]:
    """MW-FUM-2: everyone eligible in the hex rolls; the offense first on its own side of the
    line of scrimmage, the defense first beyond it; on an onside kick the receivers first."""
    here = seen_at(state, state.ball)
    ok = []
    for p in here:
        if p == state.no_recover or (state.dazed >> p & 1 and p != mover):
            continue
        if state.kind == "onside" and team_of(p) == state.offense and not state.onside_ok:
            continue  # MW-KICK-9: the kick has not gone 10 yards
        if state.ball_state == "punt" and team_of(p) == state.offense:
            continue  # a punt in the air is the receivers' to catch
        ok.append(p)
    if state.kind == "onside" or state.beyond(state.offense, state.row(state.ball), state.los_row):
        first = 1 - state.offense
    else:
        first = state.offense
    ok.sort(key=lambda p: (team_of(p) != first, p))
    return tuple(ok)


def score_of(state: State) -> tuple[int, int]:
    return (state.score[0], state.score[1])


def past_midfield(state: State, team: int) -> bool:
    """Whether the ball is beyond midfield in ``team``'s direction of attack."""
    row = state.row(state.ball)
    return row >= 12 if state.forward(team) > 0 else row <= 11
