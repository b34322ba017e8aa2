"""Scenario tests, one or more per rule id of docs/rules/monsters-of-the-midway.md.

Each test builds a position (tests/mw_scenarios.py), gives every die explicitly as a chance
outcome (``d6=4``) and checks the exact outcome the rule demands. Team A attacks north.
"""

from __future__ import annotations

import json

import pytest

from monsterball.core.errors import IllegalActionError, OptionsError
from monsterball.core.game import CHANCE
from monsterball.games.midway import chart
from monsterball.games.midway.chart import default_chart
from monsterball.games.midway.state import FOREVER
from mw_scenarios import (
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
    whats,
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


def test_MW_START_1_coin_toss_winner_chooses_and_the_other_coach_completes():
    state = game()
    act(state, "toss=B")
    assert state.current_player() == 1
    assert legal(state) == {"receive", "kickoff", "north", "south"}
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
    act(state, "toss=A", "kickoff", "north")  # A kicks; B has the wind
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
    act(state, "toss=A", "kickoff", "north")  # A kicks north, B receives; B has the wind
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
    assert "catch" in whats(events) and state.carrier == 10
    assert top(state) == "Phase" and state.stack[-1].team == 0  # the catch ended B's phase
    state = setup({"B1": "f21", "A1": "g15"}, ball="f22", ball_state="kick", kind="kickoff")
    state.receivable = 1
    start_phase(state, 1)
    events = act(state, "B1-f22", "d6=6")  # a human receiver (+1) needs 1-5
    assert "drop" in whats(events) and state.current_player() == CHANCE
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
    assert texts(events)[-1].startswith("B1 dives for the loose ball: d6 1 (needs 1-4, 2 in")
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


# -- blocking -----------------------------------------------------------------------------------


def blocking(types=None, **extra):
    players = {"A1": "g8", "A2": "f10", "A3": "h10", "B1": "g11", "B2": "j11", **extra}
    state = setup(players, types=types, carrier="A1", los="g10")
    start_phase(state, 0)
    return state


def test_MW_BLOCK_1_MW_BLOCK_3_MW_CHART_2_block_roll_with_size_modifier():
    state = blocking(types={"A2": "bugbear", "B1": "human"})  # L blocks M: +1
    act(state, "A2-g11", "end")
    events = act(state, "d6=2")
    assert texts(events)[0] == "A2 blocks B1: d6 2 +1 = 3, neutralize."
    assert chart.size_modifier("S", "G") == -3 and chart.size_modifier("G", "S") == 3


def test_MW_BLOCK_2_blocks_come_at_the_end_of_the_phase_one_per_blocker():
    state = blocking()
    act(state, "A2-g11")
    assert "A2-g12" not in legal(state)  # entering the occupied hex ended the move
    assert state.current_player() == 0  # no roll until the phase ends
    act(state, "end")
    assert state.current_player() == CHANCE and top(state) == "BlockRoll"


@pytest.mark.parametrize(
    ("face", "result"),
    [
        ("1", "blocker defeated"),
        ("3", "neutralize"),
        ("6", "successful block"),
    ],
)
def test_MW_BLOCK_7_MW_BLOCK_8_MW_BLOCK_9_results(face, result):
    state = blocking()
    act(state, "A2-g11", "end")
    events = act(state, f"d6={face}")
    assert result in texts(events)[0]
    b1 = 10
    # B's phase has begun: a frozen defender has no movement in it.
    frozen = state.stack[-1].left[b1] == 0
    no_tackle = bool(state.no_tackle >> b1 & 1)
    assert (
        top(state) == "Phase"
        and (frozen, no_tackle)
        == {
            "blocker defeated": (False, False),
            "neutralize": (True, False),
            "successful block": (True, True),
        }[result]
    )


def test_MW_BLOCK_5_MW_BLOCK_6_MW_BLOCK_10_MW_R2_injuries():
    state = blocking(types={"A2": "dwarf", "B1": "bugbear"})  # S on L: -2
    act(state, "A2-g11", "end")
    events = act(state, "d6=1")  # -1: blocker injured for next play
    assert "blocker injured for next play" in texts(events)[0]
    assert state.pos[1] == -1 and state.out_through[1] == state.play_no + 1
    state = blocking(types={"A2": "bugbear", "B1": "gnome"})  # L on S: +2
    act(state, "A2-g11", "end")
    events = act(state, "d6=6")  # 8: defender injured for next play
    assert "defender injured for next play" in texts(events)[0]
    assert state.pos[10] == -1
    state = blocking(types={"A2": "ettin", "B1": "gnome"})  # G on S: +3
    act(state, "A2-g11", "end")
    events = act(state, "d6=6")  # 9: defender injured for game
    assert "defender injured for game" in texts(events)[0]
    assert state.out_through[10] == FOREVER
    state = blocking(types={"A2": "gnome", "B1": "ettin"})  # S on G: -3, no dwarf bonus
    state.roster[1] = "kobold"  # a kobold (S, treated as M only when blocked) on G: -3
    act(state, "A2-g11", "end")
    events = act(state, "d6=1")  # -2: blocker injured for game
    assert "blocker injured for game" in texts(events)[0]
    assert state.out_through[1] == state.play_no + 1  # MW-SPEC-7: kobolds only for a play


def test_MW_BLOCK_4_MW_R6_MW_TACK_11_blocking_example_two_blockers_on_D1():
    """The rulebook's blocking example: B-1 and B-2 both block D-1; if either block
    succeeds, the carrier has room. The second is called off after a neutralize."""
    state = blocking()
    act(state, "A2-g11", "A3-g11")
    assert "A1-g11" not in legal(state)  # the carrier never enters an occupied hex
    act(state, "end")
    events = act(state, "d6=4")  # A2: neutralize, so A3's block is called off
    assert texts(events) == ["A2 blocks B1: d6 4 +0 = 4, neutralize."]
    assert top(state) == "Phase" and state.stack[-1].team == 1
    state = blocking()
    act(state, "A2-g11", "A3-g11", "end", "d6=1")  # A2 defeated: A3 tries
    events = act(state, "d6=6")
    assert texts(events)[0] == "A3 blocks B1: d6 6 +0 = 6, successful block."


def test_MW_CHART_1_MW_R2_table_rows():
    assert [chart.BLOCK_RESULTS[r] for r in (-2, -1, 0, 3, 6, 8, 9)] == [
        "blocker injured for game",
        "blocker injured for next play",
        "blocker defeated",
        "neutralize",
        "successful block",
        "defender injured for next play",
        "defender injured for game",
    ]
    assert [chart.TACKLE_RESULTS[r] for r in (0, 3, 4, 5, 6, 7, 8, 9)] == [
        "ball carrier tackled",
        "ball carrier tackled",
        "ball carrier slowed (-2)",
        "ball carrier slowed (-1)",
        "miss",
        "miss",
        "tackler injured for next play",
        "tackler injured for game",
    ]
    assert chart.clamp_roll(-3) == -2 and chart.clamp_roll(10) == 9


# -- tackling -----------------------------------------------------------------------------------


def running(options=None, **extra):
    players = {"A1": "g10", "B1": "i12", "B2": "a20", **extra}
    state = setup(players, carrier="A1", los="g10", **(options or {}))
    start_phase(state, 0)
    return state


def test_MW_TACK_1_MW_TACK_2_MW_R5_tackle_offer_when_the_carrier_comes_adjacent():
    state = running()
    assert moves_of(state, "A1") == {"h11", "h10", "h9", "g9", "f10", "g11"}
    act(state, "A1-h11")  # not next to B1 on i12
    assert top(state) == "Phase"
    act(state, "A1-h12")  # now adjacent to B1 on i12
    assert top(state) == "TackleRound" and state.current_player() == 1
    assert legal(state) == {"tackle B1 h12", "no"}
    act(state, "no")
    assert top(state) == "Phase" and state.current_player() == 0


def test_MW_TACK_7_tackled_ends_the_play_and_spots_the_ball():
    state = running()
    act(state, "A1-h11", "A1-h12", "tackle B1 h12", "d6=2")
    assert state.plays == 4 and state.down == 2 and state.field.name(state.spot) == "h12"
    assert top(state) == "SetUp"


def test_MW_TACK_8_slowed_carrier_loses_movement_next_phase():
    state = running()
    act(state, "A1-h11", "A1-h12", "tackle B1 h12", "d6=4")  # 4: slowed -2
    assert state.slowed & 3 == 2  # A1's two bits
    act(state, "A1-h13")  # the offer is gone: B1 already tried in this set
    assert top(state) == "Phase"
    act(state, "end", "end")
    assert top(state) == "Phase" and state.stack[-1].left[0] == 1  # 3 - 2


def test_MW_TACK_9_MW_TACK_10_miss_and_tackler_injured():
    state = running(**{})
    state.roster[0] = "bugbear"  # L carrier vs M tackler: +1
    act(state, "A1-h11", "A1-h12", "tackle B1 h12")
    events = act(state, "d6=6")  # 7: miss
    assert "miss" in texts(events)[0] and state.carrier == 0
    state = running()
    state.roster[0] = "ettin"  # G carrier vs M tackler: +2
    act(state, "A1-h11", "A1-h12", "tackle B1 h12")
    events = act(state, "d6=6")  # 8: tackler injured for next play
    assert "tackler injured for next play" in texts(events)[0] and state.pos[10] == -1


def test_MW_TACK_5_MW_TACK_6_size_modifier_and_injured_carrier_is_down_and_out():
    state = running()
    state.roster[0] = "gnome"  # S carrier vs L tackler: -2
    state.roster[10] = "bugbear"
    act(state, "A1-h11", "A1-h12", "tackle B1 h12")
    events = act(state, "d6=1")  # -1: injured for next play
    assert "ball carrier injured for next play" in texts(events)[0]
    assert state.out_through[0] == 4 and state.plays == 4  # the next play has begun
    assert "A1@g10" not in legal(state)


def test_MW_TACK_3_MW_TACK_4_end_of_defensive_phase_round_in_any_order():
    state = running(B3="e12")
    act(state, "end")
    act(state, "B1-i11", "B3-f12")  # neither next to A1 on g10
    act(state, "end")
    assert top(state) == "Phase" and state.stack[-1].team == 0
    state = running(B3="e12")
    act(state, "end", "B1-h10", "B3-g11", "end")
    assert top(state) == "TackleRound"
    assert legal(state) == {"tackle B1 g10", "tackle B3 g10", "no"}
    act(state, "tackle B3 g10", "d6=6")  # miss; B1 may still try
    assert legal(state) == {"tackle B1 g10", "no"}
    act(state, "no")
    assert top(state) == "Phase" and state.current_player() == 0


def test_MW_TACK_3_handoff_lets_a_defender_try_the_new_carrier():
    state = running(A2="g12")
    act(state, "A1-h11", "A1-h12", "tackle B1 h12", "d6=6", "hand A2")
    assert state.carrier == 1 and state.tried == 0


def test_MW_TACK_1_one_would_be_tackler_per_hex_except_the_carriers():
    state = running(B3="g13")
    act(state, "end")
    assert "g11" in moves_of(state, "B3")
    act(state, "B1-h10")
    assert "h10" not in moves_of(state, "B3")  # B1 is there and it is not the carrier's hex
    act(state, "B3-g10")  # the carrier's hex: allowed, and the move ends there
    assert "B3-" not in " ".join(legal(state))


# -- plays from scrimmage -----------------------------------------------------------------------


def scrimmage_ready(**options):
    state = setup({}, los="g10", **options)
    state.plays = 3
    state.stack = (SPEC.state_type.procedure_kinds["StartScrimmage"](False),)
    state._settle()
    return state


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
    state = scrimmage_ready()
    act(state, "auto", "auto")
    # Shift: laterally or away from the line, never forward; the snapper stays.
    assert not any(m.startswith("A1-") for m in legal(state))
    for m in legal(state) - {"end"}:
        p, to = m.split("-")
        assert state.row(cell(state, to)) <= state.row(state.pos[int(p[1:]) - 1])
    act(state, sorted(legal(state) - {"end"})[0])
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
    state.stack = (SPEC.state_type.procedure_kinds["SnapStep"](0),)
    assert "fg" in legal(state) and "snap A4" in legal(state)
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
    assert "A3 tries a catch: d6 4 (needs 1-5): caught." in texts(events)  # human +1
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


# -- scoring ------------------------------------------------------------------------------------


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
    state.stack = (SPEC.state_type.procedure_kinds["SnapStep"](0),)
    act(state, "fg")
    step = state.stack[-1]
    assert step.distance == 5  # rows 20..24 and one behind
    act(state, "d6=5")  # 5 hexes: 1-4 makes it; a miss gives B the ball at the line
    assert state.score == [0, 0] and state.offense == 1 and state.field.name(state.spot) == "g20"


def test_MW_SCORE_7_MW_SCORE_8_MW_R8_blocked_field_goal_is_a_loose_ball():
    state = setup(
        {"A1": "g20", "A2": "f20", "A3": "h20", "A4": "g19", "A5": "g18", "B6": "g21"},
        los="g20",
    )
    state.stack = (SPEC.state_type.procedure_kinds["SnapStep"](0),)
    act(state, "fg", "d6=1")
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
    state.stack = (SPEC.state_type.procedure_kinds["SnapStep"](0),)
    act(state, "fg", "d6=4")
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
    assert "punt catch" in texts(events)[-1] and state.carrier == 10


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


# -- general -----------------------------------------------------------------------------------


def test_MW_GEN_2_four_downs_and_no_first_down():
    state = running(A1="g10", B1="g12")
    state.down = 4
    act(state, "A1-g11", "tackle B1 g11", "d6=1")
    assert state.offense == 1 and state.down == 1 and state.field.name(state.spot) == "g11"


def test_MW_GEN_4_a_game_is_25_plays():
    state = running()
    state.plays = 25
    act(state, "A1-h11", "A1-h12", "tackle B1 h12", "d6=1")
    assert state.is_terminal() and state.result_text() == "draw, A 0 - B 0"
    assert SPEC.options().plays == 25


def test_MW_GEN_6_hash_marks():
    state = running(A1="b10", B1="a11")
    act(state, "A1-a10", "tackle B1 a10", "d6=1")
    assert state.field.name(state.spot) == "c10"


def test_MW_GEN_1_MW_R13_stepping_out_of_bounds():
    state = running(A1="b10")
    assert "out" not in legal(state)
    act(state, "A1-a10", "out")
    assert state.field.name(state.spot) == "c10" and state.down == 2


def test_MW_R14_max_phases_caps_a_play():
    state = running({"max_phases": 2})
    act(state, "end", "end")
    assert state.plays == 4 and top(state) == "SetUp"


def test_MW_R3_compass_numbering_option():
    state = setup(
        {"B1": "f21", "A1": "g15"},
        ball="f22",
        ball_state="kick",
        kind="kickoff",
        direction="compass",
    )
    assert state.direction_target(cell(state, "f22"), 3, 1) == state.direction_target(
        cell(state, "f22"), 0, 1
    )
    state2 = setup({"B1": "f21"}, ball="f22", ball_state="kick", kind="kickoff")
    assert state2.direction_target(cell(state2, "f22"), 3, 1) != state2.direction_target(
        cell(state2, "f22"), 0, 1
    )


# -- special abilities --------------------------------------------------------------------------


def test_MW_SPEC_1_MW_SPEC_4_dwarves_and_minotaurs_block_as_giants():
    from monsterball.games.midway.moves import block_modifier

    state = setup({"A1": "g10", "A2": "g12", "B1": "g12"}, types={"A2": "dwarf", "B1": "treant"})
    assert block_modifier(state, 1, 10) == 0  # a dwarf on a treant (G): as a giant
    state.roster[10] = "bugbear"
    assert block_modifier(state, 1, 10) == -2  # on an L: still S
    state.roster[1] = "minotaur"
    assert block_modifier(state, 1, 10) == 1


def test_MW_SPEC_2_MW_SPEC_3_MW_SPEC_6_sizes_when_blocked_or_tackled():
    from monsterball.games.midway.moves import block_modifier, tackle_modifier

    state = setup({"A1": "g10", "B1": "g12"}, types={"A1": "bugbear", "B1": "elf"})
    assert block_modifier(state, 0, 10) == 2  # elf as S
    state.roster[10] = "goblin"
    assert block_modifier(state, 0, 10) == 1  # goblin as M
    state.roster[0] = "treant"
    state.roster[10] = "human"
    assert tackle_modifier(state, 0, 10) == 2 - 1  # treant carrier: G, and -1


def test_MW_SPEC_5_hobgoblin_chases_the_nearest_elf():
    state = running(A2="c10", B3="a20")
    state.roster[1] = "hobgoblin"
    state.roster[12] = "elf"
    here = state.field.distance(cell(state, "c10"), cell(state, "a20"))
    for m in moves_of(state, "A2"):
        assert state.field.distance(cell(state, m), cell(state, "a20")) <= here


def test_MW_SPEC_7_kobolds_and_orcs_are_never_out_for_the_game():
    from monsterball.games.midway.play import injure

    state = setup({"A4": "g10", "A1": "g8"}, types={"A4": "orc"})
    injure(state, 3, True)
    assert state.out_through[3] == state.play_no + 1
    injure(state, 0, True)
    assert state.out_through[0] == FOREVER


def test_MW_SPEC_8_MW_R12_ettin_turns_on_a_teammate():
    state = setup({"A1": "g10", "A2": "h10", "B1": "a20"}, types={"A2": "ettin"}, carrier="A1")
    state.stack = (
        SPEC.state_type.procedure_kinds["Play"](),
        SPEC.state_type.procedure_kinds["StartPhase"](0),
    )
    state._settle()
    assert top(state) == "EttinRoll"
    act(state, "d6=6")
    events = act(state, "d6=1")  # G on M: +2 = 3, success
    assert "A1 can do nothing this phase" in texts(events)[0]
    assert "A1-g11" not in legal(state)


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


def test_MW_R15_a_team_with_no_fit_player_forfeits():
    state = running(A1="b10")
    for p in range(10, 20):
        state.out_through[p] = FOREVER  # every B player injured for the game
    state.score = [0, 7]
    events = act(state, "A1-a10", "out")
    assert state.is_terminal() and state.winner == 0
    assert "Team B has no fit player left for the game." in texts(events)
    # Players out only for the next play come back at once if nobody else is fit.
    state = running(A1="b10")
    for p in range(10, 20):
        state.out_through[p] = state.play_no + 1  # stunned by lightning bolts
    events = act(state, "A1-a10", "out")
    assert not state.is_terminal() and "the stunned return" in " ".join(texts(events))
    assert all(state.available(p) for p in range(10, 20))


def test_MW_SPEC_5_hobgoblin_sets_up_and_adjusts_toward_the_elf():
    state = scrimmage_ready()
    state.roster[2] = "elf"  # A3
    state.roster[13] = "hobgoblin"  # B4
    act(state, "A1@g10", "A2@f10", "A3@l10", "auto")
    cells = {a.split("@")[1] for a in legal(state) if a.startswith("B4@")}
    assert cells == {"l11", "m11"}  # the nearest hexes to the elf on l10 on B's side
    with pytest.raises(IllegalActionError, match="hobgoblin"):
        act(state, "B4@a20")
    act(state, "B4@l11", "auto", "end")
    assert top(state) == "Adjust"
    here = state.field.distance(cell(state, "l11"), cell(state, "l10"))
    for m in moves_of(state, "B4"):
        assert state.field.distance(cell(state, m), cell(state, "l10")) <= here


def test_MW_MAGIC_6_MW_SPEC_7_change_self_takes_the_forms_special_abilities():
    from monsterball.games.midway.play import injure

    state = setup({"A2": "g10"}, types={"A2": "doppelganger"})
    state.form[1] = "orc"
    injure(state, 1, True)
    assert state.out_through[1] == state.play_no + 1  # as an orc: never out for the game


def test_MW_SCORE_9_MW_R13_interceptor_downed_in_his_own_end_zone_is_a_touchback():
    # B intercepted A's pass; B1 carries it back into B's own (north) end zone.
    state = setup({"B1": "g22", "A1": "h23", "A2": "a10"}, carrier="B1", los="g10", offense=0)
    start_phase(state, 1)
    act(state, "B1-g23", "tackle A1 g23", "d6=1")
    assert state.score == [0, 0]  # not a safety
    assert state.offense == 1 and state.field.name(state.spot) == "g19"  # B at its 20


def test_MW_R18_a_spell_once_per_play_by_default():
    def bolted(**options):
        state = setup(
            {"A1": "g12", "A2": "c10", "B1": "g20", "B2": "a20"},
            types={"B2": "storm-giant"},
            carrier="A1",
            los="g10",
            **options,
        )
        start_phase(state, 0)
        act(state, "end", "cast B2 bolt A2", "end", "end")  # B's next phase, same play
        return state

    assert not any(a.startswith("cast B2") for a in legal(bolted()))
    assert "cast B2 bolt A1" in legal(bolted(spell_limit="none"))
    state = bolted(spell_limit="game")
    assert state.spent >> 11 & 1
    state = bolted()
    act(state, "end", "A1-g13", "end")  # ... until the next play


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


def test_every_step_names_a_documented_rule():
    """Each procedure's ``rule`` is an id (or ruling) of docs/rules/monsters-of-the-midway.md."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs/rules/monsters-of-the-midway.md").read_text()
    for name, kind in SPEC.state_type.procedure_kinds.items():
        rule = kind.rule
        assert rule, name
        assert f"| {rule} |" in doc or f"**{rule} " in doc, (name, rule)


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


def test_MW_BLOCK_5_substitutes_come_in_and_a_short_team_plays_short():
    state = scrimmage_ready()
    for p in (0, 1, 2, 3, 4):
        state.out_through[p] = FOREVER  # A1..A5 injured for the game
    # The next set-up uses the fit players only: A6..A10 (five of them).
    assert {a.split("@")[0] for a in legal(state) if "@" in a} == {"A6", "A7", "A8", "A9", "A10"}
    act(state, "auto")
    assert sorted(state.on_field(0)) == [5, 6, 7, 8, 9]
    assert top(state) == "SetUp" and state.current_player() == 1
