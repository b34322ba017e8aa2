"""Kicks at the goal: field goals (MW-SCORE-6..8), extra points and their blocks
(MW-SCORE-2..4)."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action, Roll
from monsterball.core.game import AUTO
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.midway import chart
from monsterball.games.midway.actions import (
    Name,
)
from monsterball.games.midway.events.scoring import (
    ExtraPointRolled,
    FieldGoalRolled,
    KickBlockTried,
    Scored,
    StunnedByKick,
)
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.ball import Scatter
from monsterball.games.midway.rules.inplay import DieRoll, score_of
from monsterball.games.midway.rules.phases import StartPhase
from monsterball.games.midway.state import (
    MidwayState,
    team_of,
    team_players,
)

State = MidwayState


def big_blockers(state: State, team: int, on_field: bool) -> list[int]:
    out = []
    for p in team_players(team):
        if not state.available(p) or (on_field and state.pos[p] < 0):
            continue
        if state.mtype(p).size in ("L", "G"):
            out.append(p)
    return out


@dataclass(frozen=True, slots=True)
class FieldGoalRoll(DieRoll):
    """Field Goal Success table (halfling kickers +1, ruling MW-R7)."""

    kicker: int
    distance: int
    rule = "MW-SCORE-6"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        need = chart.field_goal_target(self.distance)
        if state.kind_of(self.kicker) == "halfling":
            need += 1 if state.options.roll_modifiers == "widen" else -1  # ruling MW-R7
        ok = int(action.value) <= need
        state.emit(FieldGoalRolled(self.distance, int(action.value), need))
        if not ok:
            state.dead = "fg-miss"
            return ()
        blockers = big_blockers(state, 1 - state.offense, on_field=True)
        if blockers:
            return (KickBlock(1 - state.offense, "fg", self.kicker),)
        state.dead = "fg-good"
        return ()

    def describe(self) -> str:
        return "a field goal attempt"


@dataclass(frozen=True, slots=True)
class KickBlock(Procedure[State]):
    """MW-SCORE-3/7: the defending coach may name an L or G player to try to block a kick
    that would be good ('block B3'), or not ('no')."""

    team: int
    what: str  # pat or fg
    kicker: int
    rule = "MW-SCORE-3"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        on_field = self.what == "fg"
        out: list[Action] = [
            state.actions.block[p] for p in big_blockers(state, self.team, on_field)
        ]
        out.append(state.actions.words["no"])
        return out

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Name):
            return (KickBlockRoll(action.player, self.what, self.kicker),)
        return (PatScore(1),) if self.what == "pat" else fg_good(state)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s chance to block the kick"


def fg_good(state: State) -> Transition:
    state.dead = "fg-good"
    return ()


@dataclass(frozen=True, slots=True)
class KickBlockRoll(DieRoll):
    """MW-SCORE-3: d6, a 6 blocks the kick; then the kicking coach's d6, a 6 stuns the
    blocker for the next play."""

    blocker: int
    what: str
    kicker: int
    rule = "MW-SCORE-3"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        if action.value != "6":
            state.emit(KickBlockTried(self.blocker, blocked=False))
            return (PatScore(1),) if self.what == "pat" else fg_good(state)
        state.emit(KickBlockTried(self.blocker, blocked=True))
        return (StunRoll(self.blocker, self.what, self.kicker),)

    def describe(self) -> str:
        return "a kick block attempt"


@dataclass(frozen=True, slots=True)
class StunRoll(DieRoll):
    """MW-SCORE-4: a 6 stuns the blocker (out of the ensuing kickoff / the next play). A
    blocked field goal is then a loose ball from the kicker's hex (MW-SCORE-8)."""

    blocker: int
    what: str
    kicker: int
    rule = "MW-SCORE-4"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        if action.value == "6":
            state.emit(StunnedByKick(self.blocker))
            state.out_through[self.blocker] = state.play_no + 1
            if self.what == "fg":
                state.remove(self.blocker)
        if self.what == "pat":
            return (PatScore(0),)
        # The blocked field goal: a loose ball; the blocking team moves first (ruling MW-R8).
        state.ball = state.pos[self.kicker]
        state.ball_state = "loose"
        state.kind = "blocked"
        defense = 1 - state.offense
        return (StartPhase(defense), Scatter("block", state.ahead(state.offense), defense))

    def describe(self) -> str:
        return "a stun roll"


@dataclass(frozen=True, slots=True)
class PatRoll(DieRoll):
    """MW-SCORE-2: a result of 1-5 on d6 makes the kick."""

    kicker: int
    rule = "MW-SCORE-2"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        ok = action.value != "6"
        state.emit(ExtraPointRolled(self.kicker, int(action.value), ok))
        if not ok:
            return (PatScore(0),)
        return pat_block_or_score(state, team_of(self.kicker), self.kicker)

    def describe(self) -> str:
        return "an extra point kick"


@dataclass(frozen=True, slots=True)
class PatScore(Procedure[State]):
    points: int
    rule = "MW-SCORE-2"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        if self.points:
            state.score[state.offense] += self.points
            state.emit(Scored("extra-point", state.offense, score_of(state)))
        return ()


def pat_block_or_score(state: State, team: int, kicker: int) -> tuple[Procedure[State], ...]:
    if big_blockers(state, 1 - team, on_field=False):
        return (KickBlock(1 - team, "pat", kicker),)
    return (PatScore(1),)
