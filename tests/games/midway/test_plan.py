"""Midway's phase planner (games/midway/analysis/plan.py): the offense plans its whole movement
phase, judged on determinized copies only."""

from __future__ import annotations

import json
import random

import pytest

from monsterball.bots.heuristic import HeuristicBot, heuristic_for
from monsterball.bots.mcts import MCTSBot
from monsterball.core.game import CHANCE
from monsterball.games.midway.analysis.plan import plan, should_plan
from monsterball.games.midway.state import MidwayState
from tests.helpers.midway import SPEC, act, setup, start_phase

H = heuristic_for(SPEC)


def _handoff_drive() -> MidwayState:
    """A1, a dwarf (movement 1), carries on g19, four rows short of the north end zone;
    A2, a centaur (movement 5), stands beside him on h19; nobody near. The known play: a
    handoff (MW-RUSH-2: "at no movement cost to either player") and the centaur runs in.
    A move at a time, the handoff gains no ground, and the one-step greedy bot only
    steps the dwarf forward."""
    state = setup(
        {"A1": "g19", "A2": "h19", "B4": "m5"},
        types={"A1": "dwarf", "A2": "centaur"},
        carrier="A1",
        los="g14",
    )
    return start_phase(state, 0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_plan_hands_off_and_scores(seed: int) -> None:
    state = _handoff_drive()
    actions = plan(H, state, 0, random.Random(seed), 16)
    assert actions is not None
    notations = [a.notation() for a in actions]
    assert "hand A2" in notations
    for action in actions:
        assert state.current_player() == 0
        state.apply(action)  # checked: every planned action is legal in turn
    assert tuple(state.score) == (6, 0)  # MW-SCORE: a touchdown is 6 points


def test_the_search_bot_follows_its_plan_to_the_touchdown() -> None:
    state = _handoff_drive()
    bot = MCTSBot(3, iterations=200)
    for _ in range(12):
        if tuple(state.score) != (0, 0) or state.current_player() != 0:
            break
        state.apply(bot.choose(state, 0))
    assert tuple(state.score) == (6, 0)


def test_only_the_offense_plans_at_the_start_of_its_phase() -> None:
    state = _handoff_drive()
    assert should_plan(state, 0) and not should_plan(state, 1)
    act(state, "A2-h20")  # the phase is under way: no new plan
    assert not should_plan(state, 0)
    assert plan(H, state, 0, random.Random(0), 8) is None
    act(state, "end")
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0][0])
    assert state.current_player() == 1 and not should_plan(state, 1)  # B defends


def _hidden_caster(real: str, carrier_at: str) -> MidwayState:
    """B1 (a brownie) hides among two counters on h12 and i12 (MW-MAGIC-2); A1 carries the
    ball near them, A2 may block; A's movement phase begins."""
    state = setup(
        {"A1": carrier_at, "A2": "f10", "B1": "h12", "B2": "m20"},
        types={"B1": "brownie"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "end", "cast B1 mirror", "d6=2", "image i12", f"real {real}", "end")
    assert state.current_player() == 0 and should_plan(state, 0)
    return state


@pytest.mark.parametrize(("carrier_at", "tries"), [("g10", 16), ("h10", 4), ("h10", 16)])
def test_plans_do_not_depend_on_the_defenses_hidden_caster(carrier_at: str, tries: int) -> None:
    """The plan may depend only on what A sees, so it is the same whichever counter is
    real. (A planner that read the truth gave two different plans in each case: the
    carrier runs clear of the real caster's hex, a blocker goes into it.)"""
    plans = set()
    views = set()
    for real in ("h12", "i12"):
        state = _hidden_caster(real, carrier_at)
        views.add(json.dumps(state.view(0), sort_keys=True))
        actions = plan(H, state, 0, random.Random(5), tries)
        assert actions is not None
        plans.add(tuple(a.notation() for a in actions))
    assert len(views) == 1  # the two positions look the same to A
    assert len(plans) == 1


@pytest.mark.parametrize("make", [lambda: HeuristicBot(2, plan_tries=8), lambda: MCTSBot(2)])
def test_planning_bots_choose_the_same_whichever_counter_is_real(make) -> None:  # type: ignore[no-untyped-def]
    choices = set()
    for real in ("h12", "i12"):
        state = _hidden_caster(real, "g10")
        bot = make()
        picks = []
        while state.current_player() == 0 and len(picks) < 8:
            action = bot.choose(state, 0)
            picks.append(action.notation())
            state.apply(action)
        choices.add(tuple(picks))
    assert len(choices) == 1


def test_a_player_on_a_loose_ball_steps_off_to_try_again() -> None:
    """Under loose_ball=enter (MW-R22's old reading): a kicker stands on the loose kickoff
    in the receivers' end zone after a failed recovery; the ball stays until someone
    recovers it, and only a player entering its hex rolls. Valued as if he held it, he
    stood there for good and the play never ended (a heuristic-vs-random game ran past
    200,000 plies); he must step off (to step on again and roll). Under the default
    (MW-R22) he tries again at the end of every phase, so he stays."""

    def kicked(a2: str, rule: str = "enter") -> MidwayState:
        state = setup(
            {"A2": a2, "A1": "g10", "B1": "g5", "B2": "m5"},
            ball="b1",
            ball_state="loose",
            kind="kickoff",
            loose_ball=rule,
        )
        return start_phase(state, 0)

    assert H.value(kicked("b1", "contest"), 0) > H.value(kicked("b2", "contest"), 0)
    assert H.value(kicked("b1"), 0) < H.value(kicked("b2"), 0)
    state = kicked("b1")
    bot = HeuristicBot(1)
    played = []
    while state.current_player() == 0:
        action = bot.choose(state, 0)
        played.append(action.notation())
        state.apply(action)
    assert any(n.startswith("A2-") for n in played), played
