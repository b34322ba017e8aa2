"""All-Stars (HM-STAR): the All-Star Monster's Up Move."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action
from monsterball.core.errors import IllegalActionError
from monsterball.core.geometry import mask_of
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import (
    STAY,
    MonsterMove,
    player_name,
)
from monsterball.games.huck_monster.matchup import (
    all_star_stat,
)
from monsterball.games.huck_monster.rules.common import State


@dataclass(frozen=True, slots=True)
class UpMove(Procedure[State]):
    """HM-STAR-4 / HM-R43: the defense's All-Star, as designated Monster, may move up to 5
    spaces once the throw's path is known (``monster B1 e7`` or ``monster stay``)."""

    rule = "HM-STAR-4"

    def actor(self, state: State) -> int:
        return state.defense

    def _spots(self, state: State) -> int:
        ahead = mask_of(state.path[state.progress + 1 :])
        distance = all_star_stat("up-move", False)
        return state.move_reach(state.defense * 7, distance) & ~ahead

    def legal_actions(self, state: State) -> list[Action]:
        star = state.defense * 7
        return [STAY, *state.actions.monster_by_mask[star].select(self._spots(state))]

    def check(self, state: State, action: Action) -> None:
        if action == STAY:
            return
        if not isinstance(action, MonsterMove):
            raise wrong_kind(self, action)
        if action.player != state.defense * 7:
            raise IllegalActionError(f"only the All-Star {player_name(state.defense * 7)} may move")
        if not self._spots(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"the All-Star cannot reach {action.cell}: up to 5 open spaces, not onto the path"
            )

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, MonsterMove):
            state.move_player(action.player, action_cell(state.field, action.cell))
            state.emit(ev.MonsterMoved(action.player, action.cell))
            state.up_moved = True  # HM-R43: "one Up Move per Up Call", a Continue's too
        return ()

    def describe(self) -> str:
        return "the All-Star Monster's Up Move"
