"""Running, Marking and Steps of playing (PU-RUN-*, PU-STEP-1, PU-TURN-4, PU-R4, PU-R13,
PU-R14): a team's running step, the one-marker limit and the surplus markers that must
leave."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action
from monsterball.core.errors import IllegalActionError
from monsterball.core.geometry import iter_bits
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.paper_ultimate import events as ev
from monsterball.games.paper_ultimate.actions import (
    END,
    EndRun,
    RunTo,
    player_name,
)
from monsterball.games.paper_ultimate.options import TEAM_NAMES
from monsterball.games.paper_ultimate.rules.common import State
from monsterball.games.paper_ultimate.rules.throwing import Throwing
from monsterball.games.paper_ultimate.rules.turn import stalled_pull
from monsterball.games.paper_ultimate.state import NOBODY, team_of, team_players


@dataclass(frozen=True, slots=True)
class Running(Procedure[State]):
    """PU-RUN-1..3, PU-STEP-1: a team's running step. Each player without the disc may run
    once, 0..4 fields in king moves; ``moved`` is the bitmask of players who have run."""

    team: int
    moved: int
    rule = "PU-RUN-1"

    def actor(self, state: State) -> int:
        return self.team

    def movable(self, state: State) -> list[int]:
        out = []
        restricted = self.team != state.offense and state.marker_only != NOBODY
        for p in team_players(self.team):
            if self.moved & (1 << p) or p == state.holder:
                continue  # PU-RUN-2: the player with the disc must not move
            if restricted and p != state.marker_only:
                continue  # PU-MON-3: only the marker may move
            out.append(p)
        return out

    def legal_actions(self, state: State) -> list[Action]:
        selectors = state.actions.run_by_mask
        out: list[Action] = []
        for p in self.movable(state):
            out += selectors[p].select(state.run_destinations(p))
        if self.end_blocker(state) is None:
            out.append(END)
        return out

    def end_blocker(self, state: State) -> str | None:
        """Why the step may not end yet (PU-TURN-4: surplus markers must leave), or None."""
        if self.team == state.offense or not state.surplus_must_leave:
            return None
        markers = state.markers()
        if markers.bit_count() <= 1:
            return None
        ring = state.field.neighbour_mask[state.pos[state.holder]]
        movable = set(self.movable(state))
        for cell in iter_bits(markers):
            p = state.player_at(cell)
            if p in movable and state.run_destinations(p) & ~ring:
                names = ", ".join(player_name(state.player_at(c)) for c in iter_bits(markers))
                return (
                    f"after a turn only one marker may stay next to the disc: move the "
                    f"surplus markers away ({names} are all marking)"
                )
        return None

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, EndRun):
            reason = self.end_blocker(state)
            if reason is not None:
                raise IllegalActionError(reason)
            return
        if not isinstance(action, RunTo):
            raise wrong_kind(self, action)
        p = action.player
        name = player_name(p)
        if team_of(p) != self.team:
            raise IllegalActionError(f"{name} is not in team {TEAM_NAMES[self.team]}")
        if p == state.holder:
            raise IllegalActionError(f"{name} has the disc and must not move")
        if self.moved & (1 << p):
            raise IllegalActionError(f"{name} has already run in this step")
        if p not in self.movable(state):
            raise IllegalActionError(
                f"only the marker {player_name(state.marker_only)} may move in this step"
            )
        cell = action_cell(state.field, action.cell)
        if not state.run_destinations(p) & (1 << cell):
            raise IllegalActionError(_unreachable_reason(state, p, cell))

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, RunTo):
            p = action.player
            start = state.field.name(state.pos[p])
            cell = action_cell(state.field, action.cell)
            state.move_player(p, cell)
            state.emit(ev.Ran(p, start, action.cell))
            if state.holder == NOBODY and cell == state.disc:
                state.holder = p
                state.emit(ev.PickedUp(p))
                if state.options.catch_markers == "depart":
                    state.surplus_must_leave = True  # PU-R11: as after a catch
            return (Running(self.team, self.moved | (1 << p)),)
        state.emit(ev.RunEnded(self.team))
        if self.team == state.offense:
            if state.holder == NOBODY:
                state.loose_steps += 1  # PU-R14
            return (Running(1 - self.team, 0),)
        state.marker_only = NOBODY
        state.surplus_must_leave = False
        if state.holder == NOBODY:
            stall = state.options.pull_stall
            if stall and state.loose_steps >= stall:
                return stalled_pull(state)
            return (Running(state.offense, 0),)  # PU-R2: the pull is not picked up yet
        return (Throwing(state.offense),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s running step"


def _unreachable_reason(state: State, player: int, cell: int) -> str:
    name, target = player_name(player), state.field.name(cell)
    if state.all_occupied() & (1 << cell):
        return f"{target} is occupied"
    if team_of(player) != state.offense and state.holder == NOBODY and cell == state.disc:
        return f"only the offense may pick up the disc on {target}"
    if state.field.distance(state.pos[player], cell) > state.options.run_distance:
        return f"{target} is more than {state.options.run_distance} fields from {name}"
    if team_of(player) != state.offense and state.holder != NOBODY:
        ring = state.field.neighbour_mask[state.pos[state.holder]]
        if ring & (1 << cell):
            return (
                f"{target} is next to the disc holder, who already has a marker "
                "(only one marker is allowed)"
            )
    return (
        f"{name} cannot reach {target} in {state.options.run_distance} fields without "
        "passing through other players"
    )
