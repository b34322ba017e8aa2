"""The five steps before a play from scrimmage (MW-SCRIM-1..5) and the snap."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.midway import chart
from monsterball.games.midway.actions import (
    LENGTH,
    Move,
    Snap,
    Word,
)
from monsterball.games.midway.events.lineup import (
    ConversionLinedUp,
    FieldGoalCalled,
    ScrimmageLinedUp,
    Shifted,
    Snapped,
)
from monsterball.games.midway.moves import hobgoblin_filter
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.inplay import FLOW, cell_of
from monsterball.games.midway.rules.kickoff import SetUp, new_play, wind
from monsterball.games.midway.rules.phases import StartPhase
from monsterball.games.midway.rules.scoring import FieldGoalRoll
from monsterball.games.midway.state import (
    MidwayState,
)

State = MidwayState


@dataclass(frozen=True, slots=True)
class StartScrimmage(Procedure[State]):
    """MW-SCRIM-1..5: the five-step sequence before a play from scrimmage."""

    conversion: bool
    rule = "MW-SCRIM-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        new_play(state, "conversion" if self.conversion else "scrimmage", not self.conversion)
        state.poss = state.offense
        state.ball = state.spot
        state.los_row = state.row(state.spot)
        o = state.offense
        if self.conversion:
            state.emit(ConversionLinedUp(o))
        else:
            state.emit(ScrimmageLinedUp(state.plays, o, state.down, state.field.name(state.spot)))
        return (
            SnapStep(o),
            Adjust(1 - o, 0),
            ShiftStep(o),
            SetUp(1 - o, "defense"),
            Announce(o),
            SetUp(o, "offense"),
        )

    def describe(self) -> str:
        return "the start of a play from scrimmage"


@dataclass(frozen=True, slots=True)
class Announce(Procedure[State]):
    """MW-SCORE-6 (ruling MW-R25): "A field goal attempt must be announced as such" (a
    punt, "unlike a field goal", need not be "announced ahead of the play"): once the
    offense has set up with a holder and a kicker behind him, in range, its coach
    announces a field goal ('fg') or not ('no'), before the defense sets up."""

    team: int
    rule = "MW-SCORE-6"

    def actor(self, state: State) -> int:
        return self.team if holder_kicker(state, self.team) else AUTO

    def resolve(self, state: State) -> Transition:
        return ()

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.words["fg"], state.actions.words["no"]]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Word)
        if action.word == "fg":
            state.kind = "field goal"
            state.emit(FieldGoalCalled(self.team, announced=True))
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s choice to announce a field goal"


def holder_kicker(state: State, team: int) -> tuple[int, int] | None:
    """MW-SCORE-6: a holder on a hex the ball may be snapped to and the kicker directly
    behind him, with the kick in range (never on a two-point try)."""
    if state.kind == "conversion":
        return None
    d = fg_distance(state, team)
    if chart.field_goal_target(d) == 0:
        return None
    f = state.field
    for h in snap_receivers(state, team):
        behind = state.pos[h] - state.forward(team) * f.width
        for k in state.on_field(team):
            if state.pos[k] == behind:
                return h, k
    return None


def snap_receivers(state: State, team: int) -> list[int]:
    """MW-SCRIM-5: the backs within 3 hexes of the ball, behind the line."""
    f = state.field
    out = [
        p
        for p in state.on_field(team)
        if state.pos[p] != state.ball
        and f.distance(state.ball, state.pos[p]) <= 3
        and state.beyond(1 - team, state.row(state.pos[p]), state.los_row)
    ]
    if not out:  # a team cut to one back by injuries snaps to the center himself
        out = [p for p in state.on_field(team) if state.pos[p] == state.ball]
    return out


@dataclass(frozen=True, slots=True)
class ShiftStep(Procedure[State]):
    """MW-SCRIM-3 (ruling MW-R30): "Offense may shift formation or send one player in
    motion": players move one at a time ('A4-f9'), each once, laterally or away from the
    line up to their movement factors, the linemen along the line and the backs within the
    backfield, until 'end'; with option shift=one a single player, anywhere laterally or
    back."""

    team: int
    rule = "MW-SCRIM-3"

    def actor(self, state: State) -> int:
        return self.team

    def _moved(self) -> int:
        return 0

    def _moves(self, state: State) -> dict[int, int]:
        f = state.field
        free = f.full_mask & ~state.counters_mask()
        out: dict[int, int] = {}
        kick = holder_kicker(state, self.team) if state.kind == "field goal" else None
        formation = state.options.shift == "formation"
        line = f.row_mask(state.los_row)
        backfield = 0
        for k in range(1, 5):
            r = state.los_row - k * state.forward(self.team)
            if 0 <= r < f.height:
                backfield |= f.row_mask(r)
        for p in state.on_field(self.team):
            here = state.pos[p]
            if here == state.ball or (kick and p in kick) or self._moved() >> p & 1:
                continue  # the snapper stays on the ball, an announced kick's holder and kicker too
            mask = f.reachable(here, state.mtype(p).mv, free)
            keep = mask & ~state.beyond_mask(self.team, state.row(here))
            if formation:
                keep &= line if state.row(here) == state.los_row else backfield
            out[p] = hobgoblin_filter(state, p, keep)
        return out

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = [state.actions.words["end"]]
        for p, mask in self._moves(state).items():
            out += state.actions.move_by_mask[p].select(mask)
        return out

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Move):
            state.pos[action.player] = cell_of(state, action.cell)
            moved = self._moved() | 1 << action.player
            if state.options.shift == "formation":
                state.emit(Shifted(action.player, action.cell, motion=False))
                return (ShiftMore(self.team, moved),)
            state.emit(Shifted(action.player, action.cell, motion=True))
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s shift or motion"


@dataclass(frozen=True, slots=True)
class ShiftMore(ShiftStep):
    """MW-SCRIM-3 (ruling MW-R30): the shift goes on; ``moved``: who has shifted."""

    moved: int = 0
    rule = "MW-SCRIM-3"

    def _moved(self) -> int:
        return self.moved

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s shift"


@dataclass(frozen=True, slots=True)
class Adjust(Procedure[State]):
    """MW-SCRIM-4: the defense may move any players up to their movement factors, without
    crossing the line of scrimmage; 'end' when done."""

    team: int
    moved: int
    rule = "MW-SCRIM-4"

    def actor(self, state: State) -> int:
        return self.team

    def _mask(self, state: State, p: int) -> int:
        f = state.field
        free = f.full_mask & ~state.counters_mask()
        side = state.beyond_mask(1 - self.team, state.los_row)
        reach = f.reachable(state.pos[p], state.mtype(p).mv, free & side)
        return hobgoblin_filter(state, p, reach)

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = [state.actions.words["end"]]
        for p in state.on_field(self.team):
            if not self.moved >> p & 1:
                out += state.actions.move_by_mask[p].select(self._mask(state, p))
        return out

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Move):
            state.pos[action.player] = cell_of(state, action.cell)
            return (Adjust(self.team, self.moved | 1 << action.player),)
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s defensive adjustment"


def fg_distance(state: State, team: int) -> int:
    """MW-SCORE-6: from one hex behind the line to the goal posts at the back of the end
    zone, less one for the wind."""
    rear = LENGTH - 1 if state.forward(team) > 0 else 0
    return abs(rear - state.los_row) + 1 - wind(state, team)


@dataclass(frozen=True, slots=True)
class SnapStep(Procedure[State]):
    """MW-SCRIM-5: the snap, at most two open hexes from the center and away from the line
    ('snap A4'), or an announced field goal ('fg', MW-SCORE-6)."""

    team: int
    rule = "MW-SCRIM-5"

    def actor(self, state: State) -> int:
        return self.team

    def receivers(self, state: State) -> list[int]:
        return snap_receivers(state, self.team)

    def legal_actions(self, state: State) -> list[Action]:
        if state.kind == "field goal":  # announced (ruling MW-R25): the kick it is
            return [state.actions.words["fg"]]
        return [state.actions.snap[p] for p in self.receivers(state)]

    def check(self, state: State, action: Action) -> None:
        if action in self.legal_actions(state):
            return
        if state.kind == "field goal":
            raise IllegalActionError("a field goal was announced: the snap is the kick ('fg')")
        if isinstance(action, Word) and action.word == "fg":
            raise IllegalActionError(
                "a field goal is announced after the offense sets up, before the defense does "
                "(ruling MW-R25); this play was not announced"
            )
        super(SnapStep, self).check(state, action)

    def apply(self, state: State, action: Action) -> Transition:
        state.linemen = 0
        for p in state.on_field(self.team):
            if state.row(state.pos[p]) == state.los_row:
                state.linemen |= 1 << p
        if isinstance(action, Word):
            hk = holder_kicker(state, self.team)
            assert hk is not None  # the holder and kicker stay put (ShiftStep)
            state.emit(FieldGoalCalled(self.team, announced=False))
            return (FLOW.step("Play"), FieldGoalRoll(hk[1], fg_distance(state, self.team)))
        assert isinstance(action, Snap)
        p = action.player
        state.carrier = p
        state.ball = state.pos[p]
        state.ball_state = "held"
        state.punter = p
        state.first_phase = self.team
        state.emit(Snapped(p))
        return (FLOW.step("Play"), StartPhase(self.team))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s snap"
