"""A point: choosing offense, the set-up, placing the disc and the pull (HM-SET, HM-PULL)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import (
    ChooseStyle,
    Place,
    PlaceDisc,
    PullTo,
)
from monsterball.games.huck_monster.field import cone_push_start, pothole_start
from monsterball.games.huck_monster.matchup import (
    all_star_stat,
)
from monsterball.games.huck_monster.options import TEAM_NAMES
from monsterball.games.huck_monster.rules.common import (
    State,
    claim_if_next_to,
    team_dice_outcomes,
)
from monsterball.games.huck_monster.rules.kits.cone_push import ConePushSetUp
from monsterball.games.huck_monster.rules.moves import TeamMoves
from monsterball.games.huck_monster.state import NOBODY


@dataclass(frozen=True, slots=True)
class ChooseOffense(Procedure[State]):
    """HM-SET-5 / HM-R3: the team with the 'Huck' bag starts on offense."""

    rule = "HM-SET-5"

    def actor(self, state: State) -> int:
        return CHANCE if state.options.first_offense == "toss" else AUTO

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.toss)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        return self._start(state, TEAM_NAMES.index(action.value), tossed=True)

    def resolve(self, state: State) -> Transition:
        return self._start(state, TEAM_NAMES.index(state.options.first_offense), tossed=False)

    def _start(self, state: State, team: int, *, tossed: bool) -> Transition:
        state.emit(ev.OffenseChosen(team, tossed))
        # The first offense defends the south end zone and attacks north.
        state.north_team = team
        if state.style == "cone-push":
            state.offense = team
            state.cones = cone_push_start(state.field, state.options)
            return (ConePushSetUp(team),)
        return (StartPoint(team, False),)

    def describe(self) -> str:
        return "choosing the Huck bag"


@dataclass(frozen=True, slots=True)
class StartPoint(Procedure[State]):
    """HM-SET-1 / HM-END-5: every point starts with both teams on their lines."""

    offense: int
    restart: bool
    rule = "HM-SET-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        for p in range(len(state.pos)):
            state.move_player(p, NOBODY)
        state.disc = NOBODY
        state.holder = NOBODY
        state.offense = self.offense
        state.clear_action()
        state.poach = False
        state.dump_next = False
        state.strategy_used = [False, False]
        state.emit(ev.PointStarted(self.offense, state.north_team, self.restart))
        if state.options.style_each_point:
            return (SetUp(self.offense), ChooseGameStyle(self.offense))
        _lay_cones(state)
        return (SetUp(self.offense),)

    def describe(self) -> str:
        return "the start of a point"


def _lay_cones(state: State) -> None:
    """HM-CONE-1 / HM-KIT-1: a Pothole Markers or Hot Hex point starts with its cones."""
    if state.style == "pothole":
        state.cones = pothole_start(state.field, state.options)
    else:
        state.cones = state.hex_cones if state.style == "hot-hex" else 0


@dataclass(frozen=True, slots=True)
class ChooseGameStyle(Procedure[State]):
    """HM-CONE-5 / HM-R47: "The new offensive team has the option to change game styles at the
    end of every point. Select the game type before the initial Pull"."""

    team: int
    rule = "HM-CONE-5"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        return list(state.actions.style)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, ChooseStyle)
        state.style = action.style
        _lay_cones(state)
        state.emit(ev.StyleChosen(self.team, action.style))
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} choosing the game style"


@dataclass(frozen=True, slots=True)
class SetUp(Procedure[State]):
    """HM-SET-1/2: a team lines its 7 players up on its line, one at a time (HM-R2)."""

    team: int
    rule = "HM-SET-2"

    def actor(self, state: State) -> int:
        return self.team

    def _free(self, state: State) -> int:
        return state.field.row_mask(state.line_row(self.team)) & state.open_spaces()

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.place_by_mask.select(self._free(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, Place):
            raise wrong_kind(self, action)
        cell = action_cell(state.field, action.cell)
        if not self._free(state) >> cell & 1:
            raise IllegalActionError(
                f"{action.cell} is not an open space on team {TEAM_NAMES[self.team]}'s line"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Place)
        player = next(p for p in state.roster(self.team) if state.pos[p] == NOBODY)
        state.move_player(player, action_cell(state.field, action.cell))
        state.emit(ev.Placed(player, action.cell))
        if any(state.pos[p] == NOBODY for p in state.roster(self.team)):
            return (self,)
        if self.team == state.offense:
            return (SetUp(1 - self.team),)
        return (PlaceTheDisc(self.team),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} lining up"


@dataclass(frozen=True, slots=True)
class PlaceTheDisc(Procedure[State]):
    """HM-SET-3: the disc goes on an open space of the defensive line."""

    team: int
    rule = "HM-SET-3"

    def actor(self, state: State) -> int:
        return self.team

    def _free(self, state: State) -> int:
        return state.field.row_mask(state.line_row(self.team)) & state.open_spaces()

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.disc_by_mask.select(self._free(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, PlaceDisc):
            raise wrong_kind(self, action)
        if not self._free(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(f"{action.cell} is not an open space on the defensive line")

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, PlaceDisc)
        state.disc = action_cell(state.field, action.cell)
        state.emit(ev.DiscPlaced(action.cell))
        return (PullRoll(),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} placing the disc"


@dataclass(frozen=True, slots=True)
class PullRoll(Procedure[State]):
    """HM-PULL-1: the defense rolls 3 team dice to pull."""

    rule = "HM-PULL-1"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return team_dice_outcomes(state, 3)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        # HM-STAR-3: the pulling team's All-Star adds his Pull stat (HM-R42).
        star = all_star_stat("pull", True) if state.options.all_stars else 0
        return (PullLanding(int(action.value) + star),)

    def describe(self) -> str:
        return "the pull roll"


@dataclass(frozen=True, slots=True)
class PullLanding(Procedure[State]):
    """HM-PULL-2..4 / HM-R4: the disc travels the full count toward the offense; the
    defensive coach steers it, and it stays where it lands."""

    count: int
    rule = "HM-PULL-2"

    def actor(self, state: State) -> int:
        return state.defense

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.pull_by_mask.select(state.pull_landings(self.count))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, PullTo):
            raise wrong_kind(self, action)
        if not state.pull_landings(self.count) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"a pull of {self.count} cannot land on {action.cell}: it moves the full count, "
                "one open space at a time toward the receiving team"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, PullTo)
        state.disc = action_cell(state.field, action.cell)
        state.emit(ev.Pulled(state.defense, self.count, action.cell))
        claim_if_next_to(state)
        return (TeamMoves("loose", 1, 0),)

    def describe(self) -> str:
        return f"steering a pull of {self.count}"
