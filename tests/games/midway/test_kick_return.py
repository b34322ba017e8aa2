"""Midway's bots field kickoffs (issue 17): the receiving team sets up so that some
receiver reaches every hex a regular kickoff may come down on, and in its first phase
goes for the ball.

A kick nobody tries to catch in the receivers' first phase is loose (MW-KICK-7), and
the kickers recover it in the receivers' end zone for a touchdown. The standard
formation ('auto') puts all six receivers at midfield, out of reach of every kickoff:
between heuristic bots 60 of 99 touchdowns came from kickoffs.
"""

from __future__ import annotations

import pytest

from monsterball.bots.heuristic import HeuristicBot
from monsterball.core.game import CHANCE
from monsterball.games.midway.analysis.heuristic import _landing
from monsterball.games.midway.rules.kickoff import KickoffKick
from monsterball.games.midway.state import MidwayState, team_players
from tests.helpers.midway import act, game

SEEDS = range(3)


def receivers_to_set_up() -> MidwayState:
    """A kicks north from g10 (its kicker A1 behind the ball on g9, the rest 'auto');
    B receives and has the wind."""
    state = game()
    act(state, "toss=A", "south", "receive", "A1@g9", "auto")
    assert state.current_player() == 1
    return state


def uncovered(state: MidwayState) -> list[str]:
    """The landing hexes (MW-KICK-3: any path end, then its direction modifier) that no
    receiver reaches with his movement."""
    kick = state.stack[-1]
    assert isinstance(kick, KickoffKick)
    f = state.field
    out = []
    for x in _landing(state, kick):
        if not any(
            f.distance(state.pos[p], x) <= state.mtype(p).mv
            for p in team_players(1)
            if state.pos[p] >= 0
        ):
            out.append(f.name(x))
    return out


def set_up_by(state: MidwayState, bot: HeuristicBot) -> None:
    while state.current_player() == 1:
        state.apply(bot.choose(state, 1))


def test_landing_hexes_of_a_kick_from_the_40() -> None:
    # MW-KICK-3: A kicks without the wind, 12 hexes from row 10 to the ends on row 22
    # (columns a..m); the ball comes down on one of the six neighbours of an end.
    state = receivers_to_set_up()
    act(state, "auto")
    kick = state.stack[-1]
    assert isinstance(kick, KickoffKick)
    names = {state.field.name(x) for x in _landing(state, kick)}
    assert {"a21", "g21", "n22", "g23", "a23"} <= names
    assert not any(n.endswith("20") or n.endswith("24") for n in names)


def test_the_standard_formation_reaches_no_kickoff() -> None:
    # Why the bots no longer use it for a return: the check below can fail.
    state = receivers_to_set_up()
    act(state, "auto")
    assert len(uncovered(state)) > 20


@pytest.mark.parametrize("seed", SEEDS)
def test_the_heuristic_return_formation_reaches_every_landing_hex(seed: int) -> None:
    state = receivers_to_set_up()
    set_up_by(state, HeuristicBot(seed))
    assert isinstance(state.stack[-1], KickoffKick)
    assert uncovered(state) == []
    # MW-KICK-1: all still on their side of the 50.
    placed = [p for p in team_players(1) if state.pos[p] >= 0]
    assert len(placed) == 6 and all(state.row(state.pos[p]) >= 12 for p in placed)


@pytest.mark.parametrize("landing", ["a22", "g23", "m22"])
def test_the_receivers_go_for_the_kick_in_their_first_phase(landing: str) -> None:
    state = receivers_to_set_up()
    set_up_by(state, HeuristicBot(0))
    # The kick to the end of a path and the direction modifier that brings it to landing.
    f = state.field
    kick = state.stack[-1]
    assert isinstance(kick, KickoffKick)
    ends, _ = kick.ends(state)
    target = f.parse_cell(landing)
    end, d6 = next(
        (e, d)
        for e in ends
        for d in range(1, 7)
        if state.direction_target(e, state.ahead(0), d) == (state.col(target), state.row(target))
    )
    act(state, f"kick {f.name(end)}", f"d6={d6}", "end")  # the kickers wait
    assert state.field.name(state.ball) == landing and state.receivable == 1
    bot = HeuristicBot(0)
    for _ in range(40):
        if state.current_player() != 1:
            break
        state.apply(bot.choose(state, 1))
    # Someone entered the ball's hex: the catch roll (MW-KICK-7) is next.
    assert state.current_player() == CHANCE
    assert type(state.stack[-1]).__name__ == "CatchRoll"
