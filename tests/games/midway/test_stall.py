"""A play nobody plays on (ruling MW-R23, option stall_phases): three movement phases in a
row with nobody acting end the play, the ball dead where it is. Team A attacks north; dice
are given explicitly."""

from __future__ import annotations

from monsterball.games.midway.events.contact import TackleRolled
from tests.helpers.midway import SPEC, act, legal, running, setup, start_phase, texts, top


def test_MW_R23_three_idle_phases_end_the_play_where_the_carrier_stands():
    state = running(A1="g8")  # two rows behind the line of scrimmage on g10
    state.down = 2
    act(state, "end", "end")
    assert top(state) == "Phase" and state.idle == 2  # A then B did nothing: play goes on
    events = act(state, "end")
    assert "Nobody has acted for 3 phases: the play is over." in texts(events)
    # As a carrier downed where he stands: the next down starts from g8, the loss kept.
    assert state.down == 3 and state.offense == 0 and state.field.name(state.spot) == "g8"
    assert top(state) == "SetUp" and state.plays == 4


def test_MW_R23_on_fourth_down_the_stalled_offense_gives_the_ball_up():
    state = running(A1="g8")
    state.down = 4
    act(state, "end", "end", "end")
    assert state.offense == 1 and state.down == 1 and state.field.name(state.spot) == "g8"


def test_MW_R23_any_move_starts_the_count_again():
    state = running(A1="g8")
    act(state, "end", "end", "A1-f8", "end", "end", "end")
    assert top(state) == "Phase" and state.stack[-1].team == 1 and state.idle == 2
    act(state, "end")
    assert top(state) == "SetUp" and state.field.name(state.spot) == "f8"


def test_MW_R23_a_tackle_tried_is_play_but_a_tackle_declined_is_not():
    # B1 stands next to the carrier: at the end of B's phase he may try (MW-TACK-3).
    state = running(A1="g10", B1="g11")
    act(state, "end", "end")
    assert "no" in legal(state) and state.idle == 2
    events = act(state, "tackle B1 g10", "d6=6")  # tried and missed: the count starts again
    assert events[-1] == TackleRolled(10, 0, 6, 0, 6, "miss")
    assert state.idle == 0 and state.dead == "" and top(state) == "Phase"
    declining = running(A1="g10", B1="g11")
    act(declining, "end", "end", "no", "end")
    assert top(declining) == "SetUp" and declining.down == 2


def test_MW_R23_a_dive_for_a_loose_ball_is_play():
    state = setup(
        {"A1": "g12", "B1": "g12", "B3": "a20"}, ball="g12", ball_state="loose", los="g10"
    )
    start_phase(state, 0)
    for _ in range(4):  # both sides end every phase, but the two on the ball dive each time
        act(state, "end", "d6=6", "d6=6")
    assert top(state) == "Phase" and state.ball_state == "loose" and state.idle == 0


def test_MW_R23_a_carrier_stalled_in_his_own_end_zone_is_a_safety():
    state = running(A1="g2")  # A defends the south end zone (rows 1-2)
    events = act(state, "end", "end", "end")
    assert state.score == [0, 2] and any(t.startswith("Safety") for t in texts(events))


def test_MW_R23_the_punter_may_wait_his_phase_though_the_defense_stands_still():
    players = {"A1": "g7", "A2": "f10", "A3": "h10", "B1": "g14", "B2": "a20"}
    state = setup(players, carrier="A1", los="g10", linemen=("A2", "A3"))
    state.punter = 0
    start_phase(state, 0, first=True)
    act(state, "end", "end")  # MW-PUNT-2: the punter may not kick in A's first phase
    act(state, "punt g11", "2d6=7")
    assert state.kind == "punt" and state.ball_state == "punt" and state.dead == ""


def test_MW_R23_stall_phases_0_is_the_rulebooks_letter():
    state = running({"stall_phases": 0}, A1="g8")
    act(state, *["end"] * 40)
    assert top(state) == "Phase" and state.phases == 41 and state.idle == 40


def test_MW_R23_the_option_is_on_by_default_and_bounded():
    assert SPEC.options().stall_phases == 3
    assert SPEC.options(stall_phases=5).stall_phases == 5


def test_MW_R23_a_ball_in_the_air_or_bouncing_is_play():
    players = {"A1": "g7", "A2": "f10", "A3": "h10", "B1": "g14", "B2": "a20"}
    state = setup(players, carrier="A1", los="g10", linemen=("A2", "A3"))
    state.punter = 0
    start_phase(state, 0, first=True)
    act(state, "end", "end", "punt g11", "2d6=7", "end", "end", "d6=2", "d6=3", "end")
    assert state.idle == 0  # nobody acted since the punt, but it is still coming down
    act(state, "end", "d6=3", "d6=1")  # B lets it hit the ground: 3 bounces, one now
    assert state.ball_state == "loose" and state.dead == "" and state.idle == 0
