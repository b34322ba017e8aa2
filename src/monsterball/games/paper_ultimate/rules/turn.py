"""Turn (PU-TURN-1/2/4, PU-R5, PU-R14): the disc goes to the other team's nearest player,
after a throw with no free receiver, a monster-defense turn or a stalled pull."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.paper_ultimate import events as ev
from monsterball.games.paper_ultimate.actions import (
    TakeDisc,
)
from monsterball.games.paper_ultimate.options import TEAM_NAMES
from monsterball.games.paper_ultimate.rules.common import State
from monsterball.games.paper_ultimate.rules.scoring import continue_play
from monsterball.games.paper_ultimate.state import team_players


@dataclass(frozen=True, slots=True)
class NextPlayer(Procedure[State]):
    """PU-TURN-2 with PU-R5: the new offense names which of the candidates takes the disc."""

    team: int
    candidates: tuple[int, ...]
    rule = "PU-TURN-2"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.take[p] for p in self.candidates]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, TakeDisc)
        state.offense = self.team
        return give_disc_after_turn(state, action.player, "no free receiver")

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} choosing who takes the disc"


def stalled_pull(state: State) -> Transition:
    """PU-R14: the pulled disc lay loose for ``pull_stall`` offensive running steps: a stall,
    and the pulling team's player nearest the disc takes it where he stands (as on a turn,
    PU-R5; ties: that team chooses)."""
    state.emit(ev.PullStalled(state.loose_steps))
    return turnover(state, "the pull was not picked up")


def turnover(state: State, reason: str) -> Transition:
    """PU-TURN-1/2: the disc goes to the other team's nearest player (PU-R5)."""
    if state.options.turn_pickup == "nearest":
        candidates = state.nearest_defenders()
    else:
        candidates = list(team_players(state.defense))
    if len(candidates) == 1:
        state.offense = state.defense
        return give_disc_after_turn(state, candidates[0], reason)
    # Possession changes when the disc is taken, so the thrower holds it until then.
    return (NextPlayer(state.defense, tuple(candidates)),)


def give_disc_after_turn(state: State, player: int, reason: str) -> Transition:
    state.holder = player
    state.disc = state.pos[player]
    state.surplus_must_leave = True  # PU-TURN-4
    state.emit(ev.Turnover(player, reason))
    return continue_play(state)
