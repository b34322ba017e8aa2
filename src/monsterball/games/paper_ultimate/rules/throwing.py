"""Throwing (PU-THROW-*, PU-STEP-2): a pass to a free teammate along a straight line, or a
turn when there is none (PU-TURN-1, PU-R12)."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action
from monsterball.core.errors import IllegalActionError
from monsterball.core.procedures import Procedure, Transition, wrong_kind
from monsterball.games.paper_ultimate import events as ev
from monsterball.games.paper_ultimate.actions import (
    DECLARE_TURN,
    DeclareTurn,
    PassTo,
    player_name,
)
from monsterball.games.paper_ultimate.options import TEAM_NAMES
from monsterball.games.paper_ultimate.rules.common import State
from monsterball.games.paper_ultimate.rules.monster import MonsterDefense
from monsterball.games.paper_ultimate.rules.scoring import after_catch
from monsterball.games.paper_ultimate.rules.turn import turnover
from monsterball.games.paper_ultimate.state import team_of


@dataclass(frozen=True, slots=True)
class Throwing(Procedure[State]):
    """PU-THROW-1..4, PU-TURN-1: the holder passes to a free teammate, or it is a turn."""

    team: int
    rule = "PU-THROW-1"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        targets = state.pass_targets()
        if not targets:
            return [DECLARE_TURN]
        return [state.actions.pass_to[p] for p in targets]

    def check(self, state: State, action: Action) -> None:
        targets = state.pass_targets()
        if isinstance(action, DeclareTurn):
            if targets:
                raise IllegalActionError(
                    "a turn happens only when no free receiver exists; free: "
                    + ", ".join(player_name(p) for p in targets)
                )
            return
        if not isinstance(action, PassTo):
            raise wrong_kind(self, action)
        if action.player not in targets:
            raise IllegalActionError(_pass_reason(state, action.player))

    def apply(self, state: State, action: Action) -> Transition:
        state.throws += 1
        if isinstance(action, DeclareTurn):
            return turnover(state, "no free receiver")
        assert isinstance(action, PassTo)
        thrower, receiver = state.holder, action.player
        start = state.field.name(state.disc)
        state.disc = state.pos[receiver]
        state.holder = receiver  # PU-STEP-2: the catcher gets the disc
        state.emit(ev.Passed(thrower, receiver, start, state.field.name(state.disc)))
        if state.options.monster_defense != "off" and state.markers():
            return (MonsterDefense(state.defense),)
        return after_catch(state)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s throw"


def _pass_reason(state: State, receiver: int) -> str:
    name = player_name(receiver)
    if team_of(receiver) != state.offense:
        return f"{name} is not a teammate of the thrower"
    if receiver == state.holder:
        return f"{name} already has the disc"
    direction = state.field.direction_between(state.disc, state.pos[receiver])
    if direction is None:
        return f"{name} is not on a straight row, column or diagonal from the thrower"
    path = state.field.rays[state.disc][direction]
    between = path[: path.index(state.pos[receiver])]
    if any(state.occupied[state.defense] & (1 << c) for c in between):
        return f"the throw to {name} would pass over an opponent"
    return f"the throw to {name} must pass over at least one free field"
