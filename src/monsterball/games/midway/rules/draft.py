"""The draft (MW-DRAFT-1/2): picks that keep a legal team possible, a random pick as a
recorded chance event, and the simple best-value pick for bots."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.midway import chart
from monsterball.games.midway.actions import (
    DraftPick,
)
from monsterball.games.midway.events.draft import Drafted, RosterComplete
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.inplay import wrong
from monsterball.games.midway.rules.kickoff import CoinToss
from monsterball.games.midway.state import (
    MidwayState,
    team_players,
)

State = MidwayState


def draft_left(state: State, team: int) -> tuple[int, int]:
    """(slots left, points left) for ``team``'s draft."""
    picked = [state.roster[p] for p in team_players(team) if state.roster[p]]
    spent = sum(state.chart.types[k].points for k in picked)
    return state.chart.team_size - len(picked), state.chart.max_points - spent


def affordable(state: State, team: int) -> list[str]:
    """MW-DRAFT-1: types that keep a full team of 10 within 210 points possible."""
    slots, points = draft_left(state, team)
    if slots <= 0:
        return []
    cheapest = state.chart.cheapest()
    return [
        k
        for k in state.chart.names
        if state.chart.types[k].points + (slots - 1) * cheapest <= points
    ]


def rating(state: State, kind: str) -> float:
    """A rough playing value for the 'best value' draft: speed, size, arm, hands, magic."""
    t = state.chart.types[kind]
    return (
        3.0 * t.mv
        + 3.0 * chart.SIZES.index(t.size)
        + 0.8 * t.qb_range
        + 1.0 * t.rec_mod
        + (4.0 if t.magic else 0.0)
    )


def best_pick(state: State, team: int) -> str:
    """The 'best value' draft: the highest-rated type that fits this pick's share of the
    points left (1.5 times the average), the best value per point otherwise."""
    slots, points = draft_left(state, team)
    options = affordable(state, team)
    share = 1.5 * points / slots
    have = [state.roster[p] for p in team_players(team)]
    varied = [k for k in options if have.count(k) < 3] or options  # at most 3 of a kind
    fits = [k for k in varied if state.chart.types[k].points <= share] or varied
    return max(fits, key=lambda k: (rating(state, k), -state.chart.types[k].points, k))


def assign(state: State, team: int, kind: str) -> None:
    p = next(q for q in team_players(team) if not state.roster[q])
    state.roster[p] = kind
    state.emit(Drafted(team, p, kind))


@dataclass(frozen=True, slots=True)
class Draft(Procedure[State]):
    """MW-DRAFT-1: a coach drafts 10 players for at most 210 points ('draft orc', or
    'draft random' / 'draft best'). A saved roster (options roster_a/b) skips this."""

    team: int
    rule = "MW-DRAFT-1"

    def actor(self, state: State) -> int:
        return self.team if affordable(state, self.team) else AUTO

    def resolve(self, state: State) -> Transition:
        state.emit(
            RosterComplete(self.team, tuple(state.roster[p] for p in team_players(self.team)))
        )
        if self.team == 0:
            return (Draft(1),)
        return (CoinToss(),)

    def legal_actions(self, state: State) -> list[Action]:
        d = state.actions.draft
        out: list[Action] = [d[k] for k in affordable(state, self.team)]
        return [*out, d["random"], d["best"]]

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, DraftPick):
            raise wrong(self, action)
        if action.kind in ("random", "best"):
            return
        if action.kind not in state.chart.types:
            raise IllegalActionError(
                f"'{action.kind}' is not on the draft chart ({', '.join(state.chart.names)})"
            )
        if action.kind not in affordable(state, self.team):
            slots, points = draft_left(state, self.team)
            raise IllegalActionError(
                f"a {action.kind} costs {state.chart.types[action.kind].points}: with {points} "
                f"points for {slots} players the team could not be completed"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, DraftPick)
        if action.kind == "random":
            return (self, DraftRandom(self.team))
        kind = best_pick(state, self.team) if action.kind == "best" else action.kind
        assign(state, self.team, kind)
        return (self,)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s draft"


@dataclass(frozen=True, slots=True)
class DraftRandom(Procedure[State]):
    """A random legal pick, as a recorded chance event (pick=orc)."""

    team: int
    rule = "MW-DRAFT-1"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform([state.actions.pick[k] for k in affordable(state, self.team)])

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        assign(state, self.team, action.value)
        return ()

    def describe(self) -> str:
        return "a random draft pick"
