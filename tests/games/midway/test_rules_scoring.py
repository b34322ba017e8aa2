"""Monsters of the Midway scenario tests: scoring (touchdowns, conversions, field goals,
safeties, touchbacks), punting and fumbles (MW-SCORE, MW-PUNT, MW-FUM, MW-CHART-3 of
docs/rules/monsters-of-the-midway.md).

Each test builds a position (tests/helpers/midway.py), gives every die explicitly as a chance
outcome (``d6=4``) and checks the exact outcome the rule demands. Team A attacks north.
"""

from __future__ import annotations

import pytest

from monsterball.core.game import CHANCE
from monsterball.games.midway import chart
from monsterball.games.midway.events.ball import CatchTried
from tests.helpers.midway import (
    SPEC,
    act,
    cell,
    legal,
    moves_of,
    running,
    setup,
    start_phase,
    texts,
    top,
)

# -- scoring ------------------------------------------------------------------------------------


def announced_at_the_snap():
    """The steps from the field goal's announcement (ruling MW-R25) to the snap."""
    kinds = SPEC.state_type.procedure_kinds
    return (kinds["SnapStep"](0), kinds["Announce"](0))


def test_MW_SCORE_1_touchdown_and_conversion_choice():
    state = running(A1="g22", B1="a10")
    act(state, "A1-g23")
    assert state.score == [6, 0] and top(state) == "Conversion"
    assert {"two", "pat A1", "pat A10"} <= legal(state)


def test_MW_SCORE_2_MW_SCORE_3_MW_SCORE_4_pat_kick_block_and_stun():
    state = running(A1="g22", B1="a10")
    act(state, "A1-g23", "pat A1", "d6=5")
    assert top(state) == "KickBlock"
    assert "block B6" in legal(state) and "block B1" not in legal(state)  # bugbears only
    act(state, "block B6", "d6=6", "d6=6")
    assert top(state) == "SetUp" and state.kind == "kickoff"
    assert state.score == [6, 0] and state.out_through[15] == state.play_no  # this kickoff
    assert "B6@a20" not in legal(state)
    state = running(A1="g22", B1="a10")
    act(state, "A1-g23", "pat A10")  # a halfling: automatic, but still blockable
    act(state, "no")
    assert state.score == [7, 0]


def test_MW_SCORE_5_two_point_conversion_is_not_a_play():
    state = running(A1="g22", B1="a10")
    act(state, "A1-g23", "two")
    assert state.kind == "conversion" and state.plays == 3
    assert state.field.name(state.ball) == "g22"  # the row before the goal line
    # A carrier walking in scores 2; the next kickoff is play 4.
    state = setup({"A1": "g22", "B1": "a10"}, carrier="A1", kind="conversion")
    kinds = SPEC.state_type.procedure_kinds
    state.stack = (kinds["AfterConversion"](0), kinds["Play"](), kinds["StartPhase"](0))
    state._settle()
    act(state, "A1-g23")
    assert state.score == [2, 0] and state.kind == "kickoff" and state.plays == 4
    # A defensive recovery stops a conversion at once.
    state = setup({"A1": "g21", "B1": "h22"}, ball="g22", ball_state="loose", kind="conversion")
    state.stack = (kinds["AfterConversion"](0), kinds["Play"](), kinds["StartPhase"](1))
    state._settle()
    act(state, "B1-g22", "d6=1")
    assert state.score == [0, 0] and state.kind == "kickoff"


def test_MW_SCORE_6_MW_CHART_3_field_goal_range_and_success():
    assert [chart.field_goal_target(d) for d in (3, 5, 7, 9, 11, 13)] == [5, 4, 3, 2, 1, 0]
    state = setup(
        {"A1": "g20", "A2": "f20", "A3": "h20", "A4": "g19", "A5": "g18", "A6": "c18"},
        los="g20",
    )
    state.stack = announced_at_the_snap()
    act(state, "fg", "fg")
    step = state.stack[-1]
    assert step.distance == 5  # rows 20..24 and one behind
    act(state, "d6=5")  # 5 hexes: 1-4 makes it; a miss gives B the ball at the line
    assert state.score == [0, 0] and state.offense == 1 and state.field.name(state.spot) == "g20"


def test_MW_SCORE_7_MW_SCORE_8_MW_R8_blocked_field_goal_is_a_loose_ball():
    state = setup(
        {"A1": "g20", "A2": "f20", "A3": "h20", "A4": "g19", "A5": "g18", "B6": "g21"},
        los="g20",
    )
    state.stack = announced_at_the_snap()
    act(state, "fg", "fg", "d6=1")
    assert legal(state) == {"block B6", "no"}
    act(state, "block B6", "d6=6", "d6=1")  # blocked, not stunned
    assert state.current_player() == CHANCE  # the blockers' direction modifier
    act(state, "d6=3")
    assert state.ball_state == "loose" and state.kind == "blocked"
    assert top(state) == "Phase" and state.stack[-1].team == 1


def test_MW_SCORE_6_good_field_goal_scores_three():
    state = setup(
        {"A1": "g20", "A2": "f20", "A3": "h20", "A4": "g19", "A5": "g18", "B1": "g21"},
        los="g20",
    )
    state.stack = announced_at_the_snap()
    act(state, "fg", "fg", "d6=4")
    assert state.score == [3, 0] and state.kind == "kickoff" and state.offense == 0


def test_MW_SCORE_9_safety():
    state = running(A1="g3", B1="h2")
    act(state, "A1-g2")  # into its own end zone, next to B1
    act(state, "tackle B1 g2", "d6=1")
    assert state.score == [0, 2] and state.kind == "kickoff" and state.offense == 0
    assert state.field.name(state.ball) == "g6"  # A's 20 (the 15-20 row)
    # The free kick may be a kickoff or a punt.
    act(state, "A1@g5", "auto", "auto")
    assert "kick g18" in legal(state) and "punt g9" in legal(state)
    act(state, "punt g9", "2d6=8")
    assert state.kind == "punt" and state.ball_state == "punt"
    assert state.field.name(state.ball) == "f14"  # 8 hexes along the g6-g9 line


# -- punting ------------------------------------------------------------------------------------


def punting(**extra):
    players = {"A1": "g7", "A2": "f10", "A3": "h10", "B1": "g14", "B2": "a20", **extra}
    state = setup(players, carrier="A1", los="g10", linemen=("A2", "A3"))
    state.punter = 0
    start_phase(state, 0, first=True)
    return state


def test_MW_PUNT_1_MW_PUNT_2_punter_kicks_from_his_teams_second_phase():
    state = punting()
    assert not any(a.startswith("punt ") for a in legal(state))
    act(state, "end", "end")
    assert any(a.startswith("punt ") for a in legal(state))
    act(state, "A1-g8")
    assert not any(a.startswith("punt ") for a in legal(state))  # he has moved


def test_MW_PUNT_4_MW_PUNT_5_MW_PUNT_6_MW_PUNT_9_the_punt_example():
    """It's a punt: the path ends on B; a direction modifier other than 1 or 2 leaves the
    ball where D-1, with 3 movement, can reach it and try to catch it."""
    state = punting()
    act(state, "end", "end", "punt g11", "2d6=7")
    assert state.ball_state == "punt" and state.field.name(state.ball) == "g14"
    act(state, "end", "end")  # B's phase; then A's next phase: d6 more, then direction
    act(state, "d6=2")
    assert state.field.name(state.ball) == "g16"  # "B", the last hex of the path
    act(state, "d6=4")  # not 1 or 2: south-west, toward D-1
    landing = state.field.name(state.ball)
    assert state.field.distance(cell(state, landing), state.pos[10]) <= 3
    act(state, "end")
    assert landing in moves_of(state, "B1")
    events = act(state, f"B1-{landing}", "d6=4")
    assert events[-1] == CatchTried(10, "punt", 4, 5, True) and state.carrier == 10


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_MW_PUNT_9_the_punt_example_for_every_direction(face):
    """D-1 (movement 3) stands where every landing hex but those of rolls 1 and 2 (straight
    ahead and the next one clockwise) is within his reach, as in the rulebook's diagram."""
    state = punting(B1="a24")
    act(state, "end", "end", "punt g11", "2d6=7", "end", "end", "d6=2")
    b = state.ball
    assert state.field.name(b) == "g16"  # "B"
    targets = {d: state.direction_target(b, state.last_dir, d) for d in range(1, 7)}
    f = state.field
    cells = {d: r * f.width + c for d, (c, r) in targets.items()}

    def fits(spot):
        return (
            spot not in cells.values()
            and spot != b
            and all((f.distance(spot, cells[d]) <= 3) == (d > 2) for d in cells)
        )

    spot = next(c for c in range(f.size) if fits(c))
    state.pos[10] = spot  # D-1
    act(state, f"d6={face}")
    act(state, "end")  # the punting team's phase; then D-1's
    reachable = f.name(state.ball) in moves_of(state, "B1")
    assert reachable == (face > 2)


def test_MW_PUNT_7_MW_PUNT_8_letting_it_bounce_and_the_punters_downing_it():
    state = punting()
    act(state, "end", "end", "punt g11", "2d6=7", "end", "end", "d6=2", "d6=3")
    act(state, "end", "end")  # B lets it hit the ground
    assert state.current_player() == CHANCE
    act(state, "d6=3", "d6=1")  # 3 bounces, the first now...
    assert state.current_player() == CHANCE  # ...the next at the punters' phase, at once
    act(state, "d6=1")
    assert state.ball_state == "loose" and state.bounces == 1
    # The punting team recovering the bouncing ball stops the play: B's ball there.
    state = setup({"A2": "g15", "B1": "a20"}, ball="g16", ball_state="loose", kind="punt")
    state.punt_path = [616]
    start_phase(state, 0)
    act(state, "A2-g16", "d6=1")
    assert state.offense == 1 and state.down == 1 and state.field.name(state.spot) == "g16"


def test_MW_PUNT_3_MW_R9_defender_in_the_punters_hex_blocks_it():
    state = punting(B3="g9")
    act(state, "end", "B3-g7", "end")
    assert top(state) == "TackleRound"
    act(state, "no")
    act(state, "punt g11")
    assert state.kind == "blocked" and state.current_player() == CHANCE
    act(state, "d6=1")
    assert state.no_recover == 0


# -- fumbles ------------------------------------------------------------------------------------


def test_MW_FUM_2_MW_FUM_3_recovery_order_and_table():
    assert [chart.recovery_target(n) for n in (1, 2, 3, 4, 5, 6)] == [5, 4, 3, 2, 1, 1]
    # Ball on the offense's side of the line: the offense rolls first.
    state = setup({"A1": "g8", "B1": "g9", "A2": "a5"}, ball="g9", ball_state="loose", los="g10")
    start_phase(state, 0)
    events = act(state, "A1-g9", "d6=5")
    assert texts(events)[-1].startswith("A1 dives")  # A1 first: needs 1-4 with 2 in the hex
    assert "missed" in texts(events)[-1]
    events = act(state, "d6=4")
    assert texts(events)[-1].startswith("B1 dives") and state.carrier == 10
    # Beyond the line, the defense first.
    state = setup({"A1": "g12", "B1": "g13", "A2": "a5"}, ball="g13", ball_state="loose", los="g10")
    start_phase(state, 0)
    events = act(state, "A1-g13", "d6=1")
    assert texts(events)[-1].startswith("B1 dives") and state.carrier == 10


def test_MW_SCORE_9_MW_R13_interceptor_downed_in_his_own_end_zone_is_a_touchback():
    # B intercepted A's pass; B1 carries it back into B's own (north) end zone.
    state = setup({"B1": "g22", "A1": "h23", "A2": "a10"}, carrier="B1", los="g10", offense=0)
    start_phase(state, 1)
    act(state, "B1-g23", "tackle A1 g23", "d6=1")
    assert state.score == [0, 0]  # not a safety
    assert state.offense == 1 and state.field.name(state.spot) == "g19"  # B at its 20


def test_MW_R13_loose_ball_over_an_end_line_safety_or_touchback():
    # A's own fumble bounces out of A's (south) end zone: a safety.
    state = setup({"A1": "g5", "B1": "a20"}, ball="g1", ball_state="loose", los="g10")
    start_phase(state, 1)
    state.stack = (*state.stack, SPEC.state_type.procedure_kinds["Scatter"]("fumble", 3, 1))
    act(state, "d6=1")  # south-west of g1: over the end line
    assert state.score == [0, 2] and state.kind == "kickoff" and state.offense == 0
    # A's fumble out of B's end zone: a touchback for B.
    state = setup({"A1": "g15", "B1": "a20"}, ball="g24", ball_state="loose", los="g10")
    start_phase(state, 1)
    state.stack = (*state.stack, SPEC.state_type.procedure_kinds["Scatter"]("fumble", 0, 1))
    act(state, "d6=1")  # north-east of g24: over the end line
    assert state.score == [0, 0] and state.offense == 1 and state.field.name(state.spot) == "g19"


def test_MW_PUNT_4_the_punt_line_is_shown():
    state = punting()
    act(state, "end", "end", "punt g11", "2d6=4")
    view = state.view(1)
    assert view["ball_state"] == "punt" and view["punt_line"][:3] == ["g8", "g9", "g10"]
    field = state.render(1).splitlines()
    assert any("--" in line for line in field) and any("()" in line for line in field)
