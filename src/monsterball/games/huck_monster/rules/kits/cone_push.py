"""Cone Push (HM-CONE): the Mini Cone game of pushing cones into the end zones."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE
from monsterball.core.geometry import iter_bits
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import (
    END,
    ConeMove,
    ConeTo,
    EndMove,
    Place,
)
from monsterball.games.huck_monster.field import CONE_PUSH_TARGET
from monsterball.games.huck_monster.matchup import (
    THROW,
)
from monsterball.games.huck_monster.options import TEAM_NAMES
from monsterball.games.huck_monster.rules.common import (
    FLOW,
    State,
    finish_game,
    star_bonus,
    team_dice_outcomes,
)
from monsterball.games.huck_monster.state import NOBODY


@dataclass(frozen=True, slots=True)
class ConePushSetUp(Procedure[State]):
    """HM-KIT-4 / HM-R54: "Place one player anywhere in your end zone": A1 and B1, the first
    offense first."""

    team: int
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return self.team

    def _free(self, state: State) -> int:
        return state.end_zone(self.team) & state.open_spaces()

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.place_by_mask.select(self._free(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, Place):
            raise wrong_kind(self, action)
        if not self._free(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"{action.cell} is not an open space of team {TEAM_NAMES[self.team]}'s end zone"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Place)
        player = self.team * 7
        state.move_player(player, action_cell(state.field, action.cell))
        state.emit(ev.Placed(player, action.cell))
        if self.team == state.offense:
            return (ConePushSetUp(1 - self.team),)
        return (ConeTurn(state.offense, "start"),)

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]} places its player"


@dataclass(frozen=True, slots=True)
class ConeTurn(Procedure[State]):
    """HM-KIT-4: a team's turn: 3 dice of throws at the cones, then 2 dice to move; then the
    other team's turn. ``max_up_calls`` caps the turns (HM-R31)."""

    team: int
    stage: str
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        if self.stage == "start":
            cap = state.options.max_up_calls
            if cap and state.up_calls >= cap:
                return finish_game(state, by_cap=True)
            state.up_calls += 1
            state.offense = self.team
            return (ConeTurn(self.team, "move"), ConeThrowRoll(self.team))
        if self.stage == "move":
            if state.winner != NOBODY:
                return ()
            # "Roll two dice at the end of your turn to move players".
            return (ConeTurn(self.team, "next"), FLOW.step("MoveRoll", self.team, 2))
        return (ConeTurn(1 - self.team, "start"),)

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]}'s turn"


@dataclass(frozen=True, slots=True)
class ConeThrowRoll(Procedure[State]):
    """HM-KIT-4: "Take turns rolling 3 dice for throw distance" (an All-Star adds Throw +3)."""

    team: int
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return team_dice_outcomes(state, 3)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        count = int(action.value) + star_bonus(state, self.team * 7, THROW)
        state.emit(ev.DiceRolled(self.team, THROW, count, False))
        return (ConeThrows(self.team, count),)

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]} rolls to throw"


def cone_pushes(state: State, team: int, left: int) -> dict[tuple[int, int], int]:
    """HM-KIT-4 / HM-R54: every push ``(cone, to) -> count`` the thrower can afford: the disc
    flies from him through open spaces onto the cone (or stack), which then moves in a straight
    line, any direction, one count a space, through open spaces; it stops on reaching another
    cone (they stack). Players and the field's edge stop it."""
    field = state.field
    open_ = state.open_spaces()
    dist = field.step_distances(state.pos[team * 7], open_, left)
    out: dict[tuple[int, int], int] = {}
    for source in iter_bits(state.cones):
        reach = [dist[n] for n in field.neighbours[source] if n in dist]
        if not reach:
            continue
        flight = 1 + min(reach)
        if flight >= left:
            continue  # no count left to push it a space (and never a negative slice)
        for ray in field.rays[source]:
            for k, cell in enumerate(ray[: left - flight], start=1):
                if state.cones >> cell & 1:
                    out[(source, cell)] = flight + k
                    break
                if not open_ >> cell & 1:
                    break
                out[(source, cell)] = flight + k
    return out


@dataclass(frozen=True, slots=True)
class ConeThrows(Procedure[State]):
    """HM-KIT-4: "Players may split count into multiple throws per turn": ``cone e9 e12``
    throws at the cone (or stack) on e9 and pushes it to e12; ``end`` stops. "Disc returns to
    player after each throw", so the disc never stays on the field."""

    team: int
    left: int
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        moves = state.actions.cone_move
        pushes = cone_pushes(state, self.team, self.left)
        return [*(moves[a][b] for a, b in pushes), END]

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, EndMove):
            return
        if not isinstance(action, ConeMove):
            raise wrong_kind(self, action)
        key = (action_cell(state.field, action.source), action_cell(state.field, action.cell))
        if key not in cone_pushes(state, self.team, self.left):
            raise IllegalActionError(
                f"no throw of {self.left} or less pushes a cone from {action.source} to "
                f"{action.cell}: the disc flies to it through open spaces, then it moves in "
                "a straight line through open spaces"
            )

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, EndMove):
            return ()
        assert isinstance(action, ConeMove)
        source = action_cell(state.field, action.source)
        cell = action_cell(state.field, action.cell)
        left = self.left - cone_pushes(state, self.team, self.left)[(source, cell)]
        moved = state.cone_stacks.pop(source, 1)
        state.cones &= ~(1 << source)
        total = moved + (state.cone_stacks.pop(cell, 1) if state.cones >> cell & 1 else 0)
        state.cones |= 1 << cell
        if total > 1:
            state.cone_stacks[cell] = total
        state.emit(
            ev.ConePushed(self.team, action.source, action.cell, moved, self.left - left, left)
        )
        more: Transition = (ConeThrows(self.team, left),) if left else ()
        zone = next((t for t in (0, 1) if state.end_zone(t) >> cell & 1), NOBODY)
        if zone == NOBODY:
            return more
        # A cone in an end zone scores for the team attacking it (an own goal too).
        scorer = 1 - zone
        state.cones &= ~(1 << cell)
        state.cone_stacks.pop(cell, None)
        state.score[scorer] += total
        state.emit(ev.ConesScored(scorer, total, (state.score[0], state.score[1])))
        if state.score[scorer] >= CONE_PUSH_TARGET:
            state.winner = scorer
            return finish_game(state, by_cap=False)
        return (*more, ConeBack(zone, total))  # "Defense Moves cone back to the line"

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]} throws ({self.left} left)"


def _line_spaces(state: State) -> int:
    """Open spaces of the centre line; if it is full, of the nearest rows outside the end
    zones (HM-R54)."""
    centre = state.options.length // 2
    field_rows = ~state.any_end_zone()
    for d in range(state.options.length):
        for row in {centre - d, centre + d}:
            if 0 <= row < state.options.length:
                free = state.field.row_mask(row) & state.open_spaces() & field_rows
                if free:
                    return free
    return 0


@dataclass(frozen=True, slots=True)
class ConeBack(Procedure[State]):
    """HM-KIT-4 / HM-R54: "Defense Moves cone back to the line after each score": the team
    scored upon puts each scored cone on an open space of the centre line (``cone e9``)."""

    team: int
    left: int
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return self.team if _line_spaces(state) else AUTO

    def resolve(self, state: State) -> Transition:
        return ()  # no open space left anywhere: the cone stays out

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.cone_by_mask.select(_line_spaces(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, ConeTo):
            raise wrong_kind(self, action)
        if not _line_spaces(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError("the cone goes back on an open space of the centre line")

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, ConeTo)
        state.cones |= 1 << action_cell(state.field, action.cell)
        state.emit(ev.ConePlaced(self.team, action.cell))
        return (ConeBack(self.team, self.left - 1),) if self.left > 1 else ()

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]} puts a scored cone back on the line"
