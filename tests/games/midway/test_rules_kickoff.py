"""Monsters of the Midway scenario tests: the field, counters, draft and chart figures,
starting the game and kickoffs (MW-COMP, MW-DRAFT, MW-CHART-5, MW-START, MW-KICK of
docs/rules/monsters-of-the-midway.md).

Each test builds a position (tests/helpers/midway.py), gives every die explicitly as a chance
outcome (``d6=4``) and checks the exact outcome the rule demands. Team A attacks north.
"""

from __future__ import annotations

import json

import pytest

from monsterball.core.errors import IllegalActionError, OptionsError
from monsterball.core.game import CHANCE
from monsterball.games.midway.chart import default_chart
from monsterball.games.midway.events.ball import CatchTried, RecoveryTried
from tests.helpers.midway import (
    ROSTER,
    SPEC,
    act,
    cell,
    game,
    legal,
    moves_of,
    setup,
    start_phase,
    texts,
    top,
)

# -- the field, the counters, the draft ---------------------------------------------------------


def test_MW_COMP_1_MW_R4_MW_GEN_5_field_is_14_by_24_with_2_row_end_zones():
    state = game()
    f = state.field
    assert (f.width, f.height) == (14, 24)
    assert f.name(0) == "a1" and f.name(f.size - 1) == "n24"
    # 20 rows of 5 yards between the goal lines: the 40 is 8 rows from the goal line.
    state.north_team = 1
    assert state.yard_row(0, 40) == 9  # row 10: 35-40 yards from the south goal line
    assert state.yard_row(1, 40) == 14  # mirrored for the team defending the north
    assert state.own_end_zone(0, 0) and state.own_end_zone(0, 1)
    assert not state.own_end_zone(0, 2)
    assert state.own_end_zone(1, 22) and state.own_end_zone(1, 23)


def test_MW_COMP_2_MW_COMP_3_view_and_render_show_counters_down_and_plays():
    state = setup({"A1": "g10", "B1": "g12"}, carrier="A1")
    state.stack = (SPEC.state_type.procedure_kinds["GameOver"](),)
    view = state.view(0)
    assert view["players"]["A1"] == {
        "type": "human",
        "size": "M",
        "mv": 3,
        "hex": "g10",
        "hidden": False,
        "out": False,
    }
    assert view["down"] == 1 and view["plays_left"] == 22
    text = state.render(0)
    assert "play 3/25" in text and "down 1" in text
    assert "A1 human M3" in text


def test_MW_DRAFT_1_ten_players_within_210_points():
    state = SPEC.new_game(SPEC.options())
    assert top(state) == "Draft"
    for _ in range(4):
        act(state, "draft centaur")  # 160 points
    # 6 players left for 50 points: a 5th centaur would leave 10 for 5 players.
    with pytest.raises(IllegalActionError, match="could not be completed"):
        act(state, "draft centaur")
    with pytest.raises(IllegalActionError, match="not on the draft chart"):
        act(state, "draft dragon")
    assert "draft brownie" in legal(state) and "draft centaur" not in legal(state)
    act(state, "draft random")
    assert state.current_player() == CHANCE
    picks = {a.notation() for a, _ in state.chance_outcomes()}
    assert "pick=kobold" in picks and "pick=centaur" not in picks
    act(state, "pick=kobold", "draft best")
    while state.current_player() == 0:
        act(state, "draft best")
    team = [state.roster[p] for p in range(10)]
    assert len(team) == 10 and all(team)
    assert sum(state.chart.types[k].points for k in team) <= 210
    assert top(state) == "Draft" and state.current_player() == 1


def test_MW_DRAFT_2_saved_rosters_skip_the_draft():
    state = game()
    assert top(state) == "CoinToss"
    assert state.roster[:10] == ROSTER.split(",")
    with pytest.raises(OptionsError, match="exactly 10"):
        SPEC.options(roster_a="orc,orc")
    with pytest.raises(OptionsError, match="more than 210"):
        SPEC.options(roster_a=",".join(["centaur"] * 10))
    with pytest.raises(OptionsError, match="not on the draft chart"):
        SPEC.options(roster_a=",".join(["dragon"] * 10))


def test_MW_CHART_5_MW_R1_chart_keeps_the_printed_figures():
    c = default_chart()
    b = c.types["brownie"]
    assert (b.points, b.mv, b.size, b.qb_range, b.rec_mod, b.magic) == (5, 3, "S", 3, 3, "mirror")
    bug = c.types["bugbear"]
    assert (bug.points, bug.mv, bug.size, bug.qb_range) == (10, 2, "L", 0)
    cen = c.types["centaur"]
    assert (cen.points, cen.mv, cen.size, cen.qb_range) == (40, 5, "L", 8)
    assert (c.types["dwarf"].points, c.types["dwarf"].mv) == (10, 1)
    assert (c.team_size, c.max_points) == (10, 210)
    from importlib import resources

    raw = json.loads(
        resources.files("monsterball.games.midway").joinpath("data/draft_chart.json").read_text()
    )
    assert "HOUSE RECONSTRUCTION" in raw["source"]
    assert raw["types"]["elf"]["source"] == "house"
    assert raw["types"]["brownie"]["source"] == "rulebook"


# -- starting the game -------------------------------------------------------------------------


def test_MW_START_1_MW_R31_coin_toss_winner_chooses_and_the_other_coach_completes():
    """ "The winner of the coin toss can either choose to receive the kickoff, or can pick
    which end zone": not to kick off (option toss_choices=any allows it)."""
    state = game(toss_choices="any")
    act(state, "toss=B")
    assert legal(state) == {"receive", "kickoff", "north", "south"}
    state = game()
    act(state, "toss=B")
    assert state.current_player() == 1
    assert legal(state) == {"receive", "north", "south"}
    with pytest.raises(IllegalActionError, match="receive the kickoff or an end zone"):
        act(state, "kickoff")
    act(state, "north")  # B defends north: the wind is B's
    assert state.current_player() == 0 and legal(state) == {"receive", "kickoff"}
    act(state, "kickoff")
    assert top(state) == "SetUp" and state.offense == 0 and state.north_team == 1
    assert state.plays == 1 and state.kind == "kickoff"
    assert state.field.name(state.ball) == "g10"


def test_MW_START_2_the_north_team_kicks_one_hex_farther():
    state = game()
    act(state, "toss=A", "receive", "north")  # B kicks; B chose north, so B has the wind
    assert _kick_rows(state) == {13}
    state = game()
    act(state, "toss=A", "south", "receive")  # A kicks; B has the wind
    assert _kick_rows(state) == {12}


def _kick_rows(state):
    act(state, "auto", "auto")
    assert top(state) == "KickoffKick"
    start = state.row(state.ball)
    return {
        abs(state.row(cell(state, a.split()[1])) - start)
        for a in legal(state)
        if a.startswith("kick ")
    }


# -- kickoffs ----------------------------------------------------------------------------------


def kickoff_ready(**options):
    state = game(**options)
    act(state, "toss=A", "south", "receive")  # A kicks north, B receives; B has the wind
    return state


def test_MW_KICK_1_MW_R16_kicker_behind_the_ball_and_receivers_in_their_half():
    state = kickoff_ready()
    assert legal(state) >= {"A1@g9", "A10@g9", "auto"}
    assert {a.split("@")[1] for a in legal(state) if "@" in a} == {"g9"}
    act(state, "A10@g9")
    cells = {a.split("@")[1] for a in legal(state) if "@" in a}
    assert "g10" not in cells and "g11" not in cells and "a10" in cells
    act(state, "auto")
    cells = {a.split("@")[1] for a in legal(state) if "@" in a}
    assert min(state.row(cell(state, c)) for c in cells) == 12  # beyond the 50
    act(state, "auto")
    assert top(state) == "KickoffKick"
    assert len(state.on_field(0)) == 6 and len(state.on_field(1)) == 6


def test_MW_KICK_3_MW_R3_twelve_hex_path_then_direction_modifier():
    state = kickoff_ready()
    act(state, "A1@g9", "auto", "auto")
    ends = {a.split()[1] for a in legal(state) if a.startswith("kick ")}
    # Row 10 + 12 = row 22; a forward-only path of 12 spreads 6 columns each way.
    assert ends == {f"{c}22" for c in "abcdefghijklm"}
    assert "onside" in legal(state) and "deep" not in legal(state)
    with pytest.raises(IllegalActionError, match="never goes laterally or backward"):
        act(state, "kick g21")
    act(state, "kick g22")
    assert state.current_player() == CHANCE
    act(state, "d6=1")  # 1: straight ahead (north-east for a ball going north)
    assert state.field.name(state.ball) == "h23"
    assert state.ball_state == "kick" and state.receivable == 1


def test_MW_KICK_4_halfling_kicker_adds_up_to_two_hexes():
    state = kickoff_ready()
    act(state, "A10@g9", "auto", "auto")
    rows = {a.split()[1][1:] for a in legal(state) if a.startswith("kick ")}
    assert rows == {"22", "23", "24"}
    assert {"onside+1", "onside+2"} <= legal(state)


def test_MW_KICK_5_touchback_beyond_the_end_zone_and_by_choice():
    state = game()
    act(state, "toss=A", "receive", "north")  # B kicks south with the wind
    act(state, "B10@g16", "auto", "auto")  # a halfling kicker: 13..15 hexes
    assert "deep" in legal(state)  # 15 hexes from row 15 leave the field
    act(state, "deep")
    assert top(state) == "SetUp" and state.offense == 0 and state.kind == "scrimmage"
    assert state.field.name(state.spot) == "g6"  # A's 20 (the 15-20 row)
    # A receiver holding the kick in his own end zone may down it.
    state = setup({"B1": "g23", "A1": "g15"}, carrier="B1", kind="kickoff", offense=0)
    start_phase(state, 1)
    assert "touchback" in legal(state)
    act(state, "touchback")
    assert state.offense == 1 and state.field.name(state.spot) == "g19"


def test_MW_KICK_6_out_of_bounds_is_kicked_again_five_yards_back():
    state = kickoff_ready()
    act(state, "A1@g9", "auto", "auto", "kick a22", "d6=5")  # west of a22: off the field
    assert state.plays == 1  # the same play, kicked over
    assert top(state) == "SetUp" and state.field.name(state.ball) == "g9"


def test_MW_KICK_2_MW_KICK_13_kickers_run_plus_two_then_receivers_catch():
    state = kickoff_ready()
    act(state, "A1@g9", "auto", "auto", "kick g22", "d6=5")  # 5: west of g22
    assert state.field.name(state.ball) == "f22"
    assert top(state) == "Phase" and state.current_player() == 0
    assert state.stack[-1].left[0] == 3 + 2  # a human, with the running start
    # The kickers may not touch the kick before the receivers.
    assert all(m != "f22" for p in ("A1", "A2") for m in moves_of(state, p))
    act(state, "end")
    assert state.current_player() == 1 and state.stack[-1].left[10] == 3


def test_MW_KICK_7_MW_FUM_1_reception_roll_and_fumble():
    state = setup({"B1": "f21", "A1": "g15"}, ball="f22", ball_state="kick", kind="kickoff")
    state.receivable = 1
    start_phase(state, 1)
    events = act(state, "B1-f22", "d6=4")  # 0 opponents: 1-4 catches
    assert CatchTried(10, "kick", 4, 5, True) in events and state.carrier == 10
    assert top(state) == "Phase" and state.stack[-1].team == 0  # the catch ended B's phase
    state = setup({"B1": "f21", "A1": "g15"}, ball="f22", ball_state="kick", kind="kickoff")
    state.receivable = 1
    start_phase(state, 1)
    events = act(state, "B1-f22", "d6=6")  # a human receiver (+1) needs 1-5
    assert CatchTried(10, "kick", 6, 5, False) in events and state.current_player() == CHANCE
    act(state, "d6=4")  # the kickers' direction modifier: 4 = south-west for a ball going north
    assert state.ball_state == "loose" and state.field.name(state.ball) == "f21"
    assert "recover" not in legal(state)


def test_MW_KICK_8_MW_KICK_9_MW_KICK_11_onside_kick():
    state = kickoff_ready()
    act(state, "A10@g9", "auto", "auto", "onside+1", "d6=1")
    # 1 + 1 (halfling) + 0 wind = 2 rows: to row 12, not past midfield.
    assert state.field.name(state.ball) == "g12" and not state.onside_ok
    state = kickoff_ready()
    act(state, "A1@g9", "auto", "auto", "onside", "d6=3")
    assert state.field.name(state.ball) == "g13" and state.onside_ok


def test_MW_KICK_9_receivers_roll_first_and_short_kicks_are_theirs():
    state = setup(
        {"A1": "g12", "B1": "h12", "A2": "a10", "B2": "a20"},
        ball="g12",
        ball_state="loose",
        kind="onside",
        los="g10",
    )
    state.onside_ok = False
    start_phase(state, 1)
    events = act(state, "B1-g12", "d6=1")
    # A1 already stood there but the kick is short of midfield: only B1 may recover.
    assert events[-1] == RecoveryTried(10, 1, 4, 2)
    assert state.carrier == 10


def test_MW_KICK_10_MW_KICK_14_no_recovery_then_a_direction_modifier():
    state = kickoff_ready()
    act(state, "A1@g9", "auto", "auto", "onside", "d6=2")
    assert state.field.name(state.ball) == "g12"
    act(state, "end", "end")  # nobody recovers in a set of phases
    assert state.current_player() == CHANCE
    act(state, "d6=1")  # north-east: h13, past midfield
    assert state.field.name(state.ball) == "h13" and state.onside_ok


def test_MW_KICK_14_a_recovery_ends_the_recovering_teams_phase():
    state = setup({"A1": "g14", "B1": "a20"}, ball="g15", ball_state="loose", kind="onside")
    state.onside_ok = True
    start_phase(state, 0)
    act(state, "A1-g15", "d6=2")
    assert state.carrier == 0 and top(state) == "Phase" and state.stack[-1].team == 1


def test_MW_KICK_12_blocking_around_a_loose_onside_kick_only():
    players = {"A1": "g11", "A2": "h12", "B1": "h14", "B2": "a20"}
    state = setup(players, ball="g14", ball_state="loose", kind="onside", los="g10")
    start_phase(state, 0)
    assert "h14" in moves_of(state, "A2")  # into B1's hex: a block
    act(state, "A2-h14", "end")
    assert top(state) == "BlockRoll"
    events = act(state, "d6=6")
    assert "successful block" in texts(events)[0]
    assert state.stack[-1].left[10] == 0  # B1 cannot move to the ball this phase
    state = setup(players, ball="g14", ball_state="loose", kind="kickoff", los="g10")
    start_phase(state, 0)
    assert "h14" not in moves_of(state, "A2")  # not on a regular kickoff


def test_MW_KICK_9_any_number_may_enter_the_onside_kicks_hex():
    state = setup(
        {"A1": "g12", "A2": "h12", "A3": "f12", "A4": "f13", "B1": "a20"},
        ball="g13",
        ball_state="loose",
        kind="onside",
        los="g10",
    )
    state.onside_ok = True
    start_phase(state, 0)
    state.pos[0] = state.pos[1] = cell(state, "g13")  # two kickers already there
    assert "g13" in moves_of(state, "A3")  # a third may still join
