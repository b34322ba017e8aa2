"""Pothole Markers (HM-R45): placing a cone after a turnover."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO
from monsterball.core.geometry import iter_bits
from monsterball.core.procedures import Procedure, Transition, action_cell
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import (
    ConeMove,
    ConeTo,
)
from monsterball.games.huck_monster.field import MAX_CONES
from monsterball.games.huck_monster.rules.common import State


@dataclass(frozen=True, slots=True)
class Potholes(Procedure[State]):
    """HM-CONE-2/3 / HM-R45: after a turnover the new defense adds a cone on an open field
    space beside one of its players (``cone e9``); with all 8 in play it moves a cone from
    beside one of its players to an open space beside one (``cone e9 f9``)."""

    rule = "HM-CONE-2"

    def _near(self, state: State) -> int:
        return state.field.dilate(state.occupied[state.defense]) & ~state.any_end_zone()

    def _targets(self, state: State) -> int:
        return self._near(state) & state.open_spaces()

    def _movable(self, state: State) -> int:
        return state.cones & state.field.dilate(state.occupied[state.defense])

    def _adding(self, state: State) -> bool:
        return bin(state.cones).count("1") < MAX_CONES

    def actor(self, state: State) -> int:
        if not self._targets(state) or (not self._adding(state) and not self._movable(state)):
            return AUTO
        return state.defense

    def resolve(self, state: State) -> Transition:
        return ()  # nowhere to put a cone

    def legal_actions(self, state: State) -> list[Action]:
        targets = self._targets(state)
        if self._adding(state):
            return state.actions.cone_by_mask.select(targets)
        out: list[Action] = []
        for source in iter_bits(self._movable(state)):
            out.extend(state.actions.cone_move_by_mask[source].select(targets))
        return out

    def check(self, state: State, action: Action) -> None:
        adding = self._adding(state)
        if adding and not isinstance(action, ConeTo):
            raise IllegalActionError("add a cone first: 'cone e9' (fewer than 8 are in play)")
        if not adding and not isinstance(action, ConeMove):
            raise IllegalActionError("all 8 cones are in play: move one, e.g. 'cone e9 f9'")
        assert isinstance(action, ConeTo | ConeMove)
        if not self._targets(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"a cone goes on an open field space beside one of your players, not {action.cell}"
            )
        if (
            isinstance(action, ConeMove)
            and not self._movable(state) >> action_cell(state.field, action.source) & 1
        ):
            raise IllegalActionError(
                f"there is no cone beside one of your players on {action.source}"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, ConeTo | ConeMove)
        if isinstance(action, ConeMove):
            state.cones &= ~(1 << action_cell(state.field, action.source))
        state.cones |= 1 << action_cell(state.field, action.cell)
        state.emit(ev.ConePlaced(state.defense, action.cell))
        return ()

    def describe(self) -> str:
        return "Pothole Markers: the new defense places a cone"
