"""The rulebook's "monster Defense" (PU-MON-*, PU-R6, PU-R8): after a catch next to a
defender, the defense may roll a die (or two coins) for a turn."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.game import CHANCE, uniform
from monsterball.core.geometry import iter_bits
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.paper_ultimate import events as ev
from monsterball.games.paper_ultimate.actions import (
    DECLINE,
    CallMonster,
    DeclineMonster,
)
from monsterball.games.paper_ultimate.options import TEAM_NAMES
from monsterball.games.paper_ultimate.rules.common import State
from monsterball.games.paper_ultimate.rules.scoring import after_catch
from monsterball.games.paper_ultimate.rules.turn import give_disc_after_turn
from monsterball.games.paper_ultimate.state import team_of


@dataclass(frozen=True, slots=True)
class MonsterDefense(Procedure[State]):
    """PU-MON-1: with a defender next to the catcher, the defense may roll 'monster Defense'
    (naming the marker, PU-R6) or let the catch stand."""

    team: int
    rule = "PU-MON-1"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = [
            state.actions.monster[state.player_at(c)] for c in iter_bits(state.markers())
        ]
        out.append(DECLINE)
        return out

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, DeclineMonster):
            return after_catch(state)
        assert isinstance(action, CallMonster)
        state.emit(ev.MonsterCalled(action.player))
        return (MonsterDie(action.player),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s monster-defense decision"


@dataclass(frozen=True, slots=True)
class MonsterDie(Procedure[State]):
    """PU-MON-2/4: a die (1 or 6 is a turn) or two coins (two heads is a turn)."""

    marker: int
    rule = "PU-MON-2"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        if state.options.monster_defense == "coins":
            return uniform(state.actions.coins)
        return uniform(state.actions.d6)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        turn = action.value in ("1", "6", "HH")
        # PU-R2: a turn on a catch in the end zone takes the point away; a catch that stands
        # there scores, so the point ends the step and nobody's next run is restricted.
        scoring = bool(state.attacking_end_zone(state.offense) >> state.pos[state.holder] & 1)
        state.emit(ev.MonsterRolled(action.notation(), turn, scoring))
        if turn:
            state.offense = team_of(self.marker)
            return give_disc_after_turn(state, self.marker, "monster defense")
        if not scoring:
            state.marker_only = self.marker  # PU-MON-3
        return after_catch(state)

    def describe(self) -> str:
        return "the monster-defense roll"
