"""Scoring (PU-SCORE-*, PU-R2, PU-R3, PU-R9, PU-R10): what follows a catch (a point, the
next point's pull, the end of the game) and play going on. The lowest chapter: it starts the
steps of chapters above it (``StartPoint``, ``Running``) through ``FLOW``."""

from __future__ import annotations

from monsterball.core.procedures import Transition
from monsterball.games.paper_ultimate import events as ev
from monsterball.games.paper_ultimate.rules.common import FLOW, State
from monsterball.games.paper_ultimate.state import team_of


def after_catch(state: State) -> Transition:
    """PU-SCORE-1 (PU-R2): a catch in the attacking end zone scores."""
    receiver = state.holder
    team = team_of(receiver)
    if state.attacking_end_zone(team) & (1 << state.pos[receiver]):
        state.score[team] += 1
        state.emit(ev.PointScored(team, state.score[0], state.score[1]))
        if state.score[team] >= state.options.points_to_win:
            return _finish(state, team)
        if _throw_cap_reached(state):
            return _finish_on_score(state)
        if state.options.switch_ends:
            state.north_team = 1 - state.north_team  # PU-R9
        return (FLOW.step("StartPoint", 1 - team),)  # PU-SCORE-2: the scorer pulls (plays defense)
    if state.options.catch_markers == "depart":
        state.surplus_must_leave = True  # PU-R11: the surplus markers leave, as after a turn
    return continue_play(state)


def continue_play(state: State) -> Transition:
    if _throw_cap_reached(state):
        return _finish_on_score(state)
    return (FLOW.step("Running", state.offense, 0),)  # PU-TURN-3 / PU-STEP-1


def _throw_cap_reached(state: State) -> bool:
    cap = state.options.max_throws
    return cap > 0 and state.throws >= cap


def _finish_on_score(state: State) -> Transition:
    a, b = state.score
    return _finish(state, 0 if a > b else 1 if b > a else 2)


def _finish(state: State, winner: int) -> Transition:
    state.winner = winner
    state.emit(ev.GameOver(winner, state.score[0], state.score[1]))
    return ()
