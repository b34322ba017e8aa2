"""Setting (PU-SET-*), with the pull of the rulebook's "Throwing" (PU-PULL-1) and the
coin toss for the first pull (PU-R7): a point from the clear pitch to the first running step."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.paper_ultimate import events as ev
from monsterball.games.paper_ultimate.actions import (
    GiveDisc,
    Place,
    PullTo,
)
from monsterball.games.paper_ultimate.options import TEAM_NAMES
from monsterball.games.paper_ultimate.rules.common import State
from monsterball.games.paper_ultimate.rules.running import Running
from monsterball.games.paper_ultimate.state import NOBODY, team_players


@dataclass(frozen=True, slots=True)
class CoinToss(Procedure[State]):
    """PU-R7: a coin toss decides which team receives the first pull."""

    rule = "PU-R7"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.toss)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        receiver = TEAM_NAMES.index(action.value)
        state.emit(ev.TossWon(receiver))
        return (StartPoint(receiver),)

    def describe(self) -> str:
        return "the coin toss"


@dataclass(frozen=True, slots=True)
class StartPoint(Procedure[State]):
    """PU-SET-1: every point starts from a clear pitch; the receiving team sets up first."""

    receiver: int
    rule = "PU-SET-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        for p in range(len(state.pos)):
            state.move_player(p, NOBODY)
        state.disc = NOBODY
        state.holder = NOBODY
        state.offense = self.receiver
        state.marker_only = NOBODY
        state.surplus_must_leave = False
        state.loose_steps = 0
        state.emit(ev.PointStarted(self.receiver, state.north_team))
        return (SetUp(self.receiver),)

    def describe(self) -> str:
        return "the start of a point"


@dataclass(frozen=True, slots=True)
class SetUp(Procedure[State]):
    """PU-SET-1/2: a team places its players, one at a time, in its own end zone."""

    team: int
    rule = "PU-SET-1"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        free = state.end_zone(self.team) & ~state.all_occupied()
        return state.actions.place_by_mask.select(free)

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, Place):
            raise wrong_kind(self, action)
        cell = action_cell(state.field, action.cell)
        if not state.end_zone(self.team) & (1 << cell):
            raise IllegalActionError(
                f"{action.cell} is not in team {TEAM_NAMES[self.team]}'s end zone"
            )
        if state.all_occupied() & (1 << cell):
            raise IllegalActionError(f"{action.cell} is already occupied")

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Place)
        player = next(p for p in team_players(self.team) if state.pos[p] == NOBODY)
        state.move_player(player, action_cell(state.field, action.cell))
        state.emit(ev.Placed(player, action.cell))
        if any(state.pos[p] == NOBODY for p in team_players(self.team)):
            return (self,)
        if self.team == state.offense:
            return (SetUp(1 - self.team),)  # PU-SET-2: then the team with the disc
        return (HandDisc(self.team),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s set-up"


@dataclass(frozen=True, slots=True)
class HandDisc(Procedure[State]):
    """PU-SET-3: one player of the pulling team takes the disc."""

    team: int
    rule = "PU-SET-3"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.give[p] for p in team_players(self.team)]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, GiveDisc)
        state.holder = action.player
        state.disc = state.pos[action.player]
        state.emit(ev.DiscGiven(action.player))
        return (Pull(self.team),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} choosing the puller"


@dataclass(frozen=True, slots=True)
class Pull(Procedure[State]):
    """PU-PULL-1: the pull goes into an empty field of the opposing end zone."""

    team: int
    rule = "PU-PULL-1"

    def actor(self, state: State) -> int:
        return self.team

    def _targets(self, state: State) -> int:
        return state.end_zone(1 - self.team) & ~state.all_occupied()

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.pull_by_mask.select(self._targets(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, PullTo):
            raise wrong_kind(self, action)
        cell = action_cell(state.field, action.cell)
        if not self._targets(state) & (1 << cell):
            raise IllegalActionError(
                f"the pull must land on an empty field of the opposing end zone; {action.cell} "
                "is not one"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, PullTo)
        puller = state.holder
        state.disc = action_cell(state.field, action.cell)
        state.holder = NOBODY
        state.emit(ev.Pulled(puller, action.cell))
        return (Running(state.offense, 0),)  # PU-RUN-3: the offense runs first

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s pull"
