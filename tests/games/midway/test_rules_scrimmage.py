"""Monsters of the Midway scenario tests: plays from scrimmage (formations, the snap,
moving, rushing, handoffs) and passing (MW-SCRIM, MW-MOVE, MW-RUSH, MW-PASS, MW-CHART-4 of
docs/rules/monsters-of-the-midway.md).

Each test builds a position (tests/helpers/midway.py), gives every die explicitly as a chance
outcome (``d6=4``) and checks the exact outcome the rule demands. Team A attacks north.
"""

from __future__ import annotations

import pytest

from monsterball.core.errors import IllegalActionError
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
    scrimmage_ready,
    setup,
    start_phase,
    texts,
    top,
)

# -- plays from scrimmage -----------------------------------------------------------------------


def test_MW_SCRIM_2_MW_GEN_3_offensive_formation_three_and_three():
    state = scrimmage_ready()
    assert {a.split("@")[1] for a in legal(state) if "@" in a} == {"g10"}  # the snapper
    act(state, "A1@g10", "A2@f10", "A3@h10")
    cells = {a.split("@")[1] for a in legal(state) if "@" in a}
    assert all(state.row(cell(state, c)) < 9 for c in cells)  # the line is full
    act(state, "A4@g6", "A5@f6")  # two backs 4 hexes deep: the third must take the snap
    cells = {a.split("@")[1] for a in legal(state) if "@" in a}
    assert all(state.field.distance(cell(state, "g10"), cell(state, c)) <= 3 for c in cells)
    act(state, "A6@g7")
    assert top(state) == "SetUp" and state.current_player() == 1


def test_MW_SCRIM_2_MW_GEN_8_defense_anywhere_on_its_side():
    state = scrimmage_ready()
    act(state, "auto")
    cells = {a.split("@")[1] for a in legal(state) if "@" in a}
    assert min(state.row(cell(state, c)) for c in cells) == 10
    assert "a24" in cells  # any configuration, even the end zone
    act(state, "B1@a24", "auto")
    assert top(state) == "ShiftStep"


def test_MW_SCRIM_3_MW_SCRIM_4_shift_and_defensive_adjustment():
    state = scrimmage_ready(shift="one")
    act(state, "auto", "auto")
    # Shift: laterally or away from the line, never forward; the snapper stays.
    assert not any(m.startswith("A1-") for m in legal(state))
    for m in legal(state) - {"end"}:
        p, to = m.split("-")
        assert state.row(cell(state, to)) <= state.row(state.pos[int(p[1:]) - 1])
    act(state, sorted(legal(state) - {"end"})[0])  # option shift=one: one player in motion
    assert top(state) == "Adjust" and state.current_player() == 1
    assert all(state.row(cell(state, m.split("-")[1])) >= 10 for m in legal(state) - {"end"})
    act(state, "end")
    assert top(state) == "SnapStep"


def test_MW_SCRIM_5_MW_RUSH_1_MW_MOVE_3_snap_then_minus_two():
    state = scrimmage_ready()
    act(state, "auto", "auto", "end", "end")
    snaps = legal(state) - {"fg"}
    for s in snaps:
        p = int(s.split()[1][1:]) - 1
        assert state.field.distance(state.ball, state.pos[p]) <= 3
        assert state.row(state.pos[p]) < 9
    act(state, sorted(snaps)[0])
    assert top(state) == "Phase" and state.ball_state == "held"
    left = state.stack[-1].left
    assert all(left[p] == max(1, state.mtype(p).mv - 2) for p in state.on_field(0))
    assert state.linemen == sum(1 << p for p in state.on_field(0) if state.row(state.pos[p]) == 9)


def test_MW_SCRIM_1_four_play_choices():
    state = setup(
        {"A1": "g20", "A2": "f20", "A3": "h20", "A4": "g19", "A5": "g18", "A6": "c18"},
        los="g20",
    )
    kinds = SPEC.state_type.procedure_kinds
    state.stack = (kinds["SnapStep"](0), kinds["Announce"](0))
    assert legal(state) == {"fg", "no"}  # a field goal is announced (ruling MW-R25)
    act(state, "no")
    assert "fg" not in legal(state) and "snap A4" in legal(state)
    act(state, "snap A4")
    assert any(a.startswith("pass ") for a in legal(state))  # a pass
    assert "A4-g20" not in legal(state) and "A4-f19" in legal(state)  # a run


def test_MW_MOVE_1_MW_MOVE_2_paths_through_empty_hexes():
    # Two defenders stand just ahead of A2 (movement 3) on c11 and d11.
    state = running(A2="c10", B1="c11", B3="d11")
    mv = moves_of(state, "A2")
    assert {"c11", "d11"} <= mv  # entering an opponent's hex: a block
    # c12 is 2 hexes away as the crow flies but 4 around the defenders: out of reach;
    # d12 is 3 around them: just in reach.
    assert "c12" not in mv and "d12" in mv
    act(state, "A2-b10")
    assert state.stack[-1].left[1] == 2
    act(state, "A2-a10")
    assert state.stack[-1].left[1] == 1
    with pytest.raises(IllegalActionError, match="cannot reach"):
        act(state, "A2-a13")
    act(state, "A2-b11")  # next to B1, not into his hex: the move does not end the phase
    assert state.stack[-1].left[1] == 0


def test_MW_MOVE_4_MW_RUSH_2_MW_RUSH_3_handoff_costs_nothing():
    state = running(A2="c10")
    act(state, "A2-f10")  # c10 to f10: all 3 of A2's movement
    assert state.stack[-1].left[1] == 0
    act(state, "A1-g11", "hand A2")
    assert state.carrier == 1 and state.field.name(state.ball) == "f10"
    assert state.stack[-1].left[0] == 2  # A1 keeps its remaining movement


def test_MW_RUSH_4_MW_GEN_7_any_carrier_may_hand_off_and_it_never_fumbles():
    state = running(A2="f10")
    assert "hand A2" in legal(state)
    act(state, "hand A2")
    assert state.carrier == 1 and state.ball_state == "held"


# -- passing ------------------------------------------------------------------------------------


def passing(**extra):
    players = {"A1": "g8", "A2": "f10", "A3": "j10", "B1": "i14", "B2": "a20", **extra}
    state = setup(players, carrier="A1", los="g10", linemen=("A2", "A3"))
    start_phase(state, 0)
    return state


def test_MW_PASS_1_MW_PASS_2_pass_at_the_start_within_range():
    state = passing()
    targets = {a.split()[1] for a in legal(state) if a.startswith("pass ")}
    assert len(targets) == sum(
        1 for c in range(336) if 0 < state.field.distance(cell(state, "g8"), c) <= 4
    )
    act(state, "pass h11")
    assert state.ball_state == "pass" and state.field.name(state.ball) == "h11"
    assert state.carrier == -1 and state.passed
    state = passing()
    act(state, "A2-f11")
    assert not any(a.startswith("pass ") for a in legal(state))  # not at the start any more
    state = passing()
    state.roster[0] = "bugbear"  # QB range 0: may not throw
    assert not any(a.startswith("pass ") for a in legal(state))


def test_MW_PASS_3_MW_PASS_6_lineman_catches_one_attempt():
    state = passing()
    act(state, "pass h11", "A3-h11", "A2-g11", "end")
    act(state, "end")  # the defense does not come
    assert state.current_player() == CHANCE
    events = act(state, "d6=4")
    assert CatchTried(2, "pass", 4, 5, True) in events  # human +1
    assert state.carrier == 2 and top(state) == "Phase" and state.stack[-1].team == 0


def test_MW_PASS_3_only_linemen_receive_and_backs_crossing_forbid_a_pass():
    state = passing(A4="e9")
    act(state, "A4-e11")  # a back across the line before a pass
    assert state.crossed
    act(state, "end", "end")
    assert not any(a.startswith("pass ") for a in legal(state))
    state = passing(A4="e9")
    act(state, "pass e11", "A4-e11", "end", "end")  # only a back reaches it
    assert state.plays == 4 and state.down == 2  # incomplete


def test_MW_PASS_4_MW_PASS_8_interception_and_the_interceptors_move_next():
    state = passing()
    act(state, "pass h11", "A3-h11", "end", "B1-h11", "end")
    act(state, "d6=3")  # 1 opponent: 1-3, +1 for a human receiver: 1-4 catches
    assert state.carrier == 2
    state = passing()
    act(state, "pass h11", "A3-h11", "end", "B1-h11", "end", "d6=6")  # A3 misses
    events = act(state, "d6=2")  # B1 intercepts: 1 opponent, human +1: 1-4
    assert "interception" in " ".join(texts(events)) and state.carrier == 10
    assert top(state) == "Phase" and state.stack[-1].team == 1


def test_MW_PASS_5_MW_PASS_6_incomplete_when_nobody_reaches_the_ball():
    state = passing()
    act(state, "pass h11", "end", "end")
    assert state.down == 2 and state.field.name(state.spot) == "g10"


def test_MW_PASS_7_same_hex_tackles_after_the_catch():
    state = passing()
    act(state, "pass h11", "A3-h11", "end", "B1-h11", "end", "d6=1")
    assert top(state) == "TackleRound" and legal(state) == {"tackle B1 h11", "no"}


def test_MW_PASS_9_MW_R17_no_blocks_beyond_the_line_after_the_throw():
    state = passing(B3="f12")
    assert "f12" in moves_of(state, "A2")  # before the throw: a block
    act(state, "pass h11")
    assert "f12" not in moves_of(state, "A2")


def test_MW_PASS_10_no_pass_from_beyond_the_line():
    state = running()
    state.roster[0] = "human"
    act(state, "A1-g11", "end", "end")
    assert not any(a.startswith("pass ") for a in legal(state))


def test_MW_PASS_11_MW_FUM_1_uncaught_lateral_is_a_fumble():
    state = passing()
    act(state, "pass c8", "end", "end")
    assert state.current_player() == CHANCE  # the defense's direction modifier
    act(state, "d6=1")
    assert state.ball_state == "loose" and state.kind == "scrimmage"


def test_MW_CHART_4_MW_R7_receiving_modifier_widens_the_range():
    assert chart.reception_target(0) == 4 and chart.reception_target(3) == 1
    state = passing()
    state.roster[2] = "brownie"  # +3
    act(state, "pass h11", "A3-h11", "end", "B1-h11", "end")
    step = state.stack[-1]
    assert step.target(state) == 3 + 3


def test_MW_PASS_7_blocker_in_the_receivers_hex_takes_a_named_defender():
    state = passing(B3="i12")
    act(state, "pass h11", "A3-h11", "A2-h11", "end", "B1-h11", "B3-h11", "end")
    act(state, "d6=1")  # A3 catches (2 opponents: 1-2, +1)
    assert top(state) == "DesignateBlock" and legal(state) == {"block B1", "block B3"}
    act(state, "block B3", "d6=6")  # A2 (M) on B3 (M): 6, successful block
    assert top(state) == "TackleRound"
    assert legal(state) == {"tackle B1 h11", "no"}  # B3 is held off; no adjacent tackles


def test_MW_PASS_8_interceptor_leaves_his_teammates_hex_first():
    state = passing(B3="i12")
    act(state, "pass h11", "A3-h11", "end", "B1-h11", "B3-h11", "end")
    act(state, "d6=6")  # A3 misses; B's coach picks who tries first
    assert top(state) == "InterceptOrder" and legal(state) == {"intercept B1", "intercept B3"}
    act(state, "intercept B3", "d6=6", "d6=1")  # B3 misses; then B1 intercepts
    assert state.carrier == 10 and top(state) == "Phase" and state.current_player() == 1
    assert "end" not in legal(state)
    with pytest.raises(IllegalActionError, match="must first leave"):
        act(state, "end")
    step = sorted(m for m in legal(state) if m.startswith("B1-"))[0]
    act(state, step)
    if top(state) == "TackleRound":
        act(state, "no")
    assert "end" in legal(state)


def test_MW_RUSH_3_one_player_at_a_time_except_for_a_handoff():
    state = running(A2="c10", A3="e8")
    act(state, "A2-b10")  # A2 starts his move...
    act(state, "A3-e9")  # ...and A3 starting his ends it
    assert "A2-a10" not in legal(state) and state.stack[-1].left[1] == 0
    # The carrier may stop part-way while a teammate comes over for the handoff.
    state = running(A2="d10")
    act(state, "A1-f10")  # 1 of A1's 3
    act(state, "A2-e10")  # A2 comes next to him; A1 waits
    with pytest.raises(IllegalActionError, match="stopped for a handoff"):
        act(state, "A1-f11")
    act(state, "hand A2")
    assert state.carrier == 1
    assert state.stack[-1].left[0] == 2 and state.stack[-1].left[1] == 2  # both keep the rest
    act(state, "A2-d10")  # the new carrier goes on; then the old one may too
    assert "A1-f11" in legal(state)
    # Without the handoff, a third player acting ends the carrier's wait.
    state = running(A2="d10", A3="e8")
    act(state, "A1-f10", "A2-e10", "A3-e9")
    assert state.stack[-1].left[0] == 0 and not any(m.startswith("A1-") for m in legal(state))
