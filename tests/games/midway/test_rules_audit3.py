"""Monsters of the Midway scenario tests for the third audit (issue 34): receptions of
kicks and punts, the two-point try's snap, announced field goals, how many may share a
hex, handoffs and second tackles, lightning bolts and possession, punts downed in the end
zone, changing form, invisibility's range, mirror image on kicks, the hobgoblin's duty and
the kickers kept off a kickoff (docs/rules/monsters-of-the-midway.md).

Each test builds a position (tests/helpers/midway.py), gives every die explicitly as a chance
outcome (``d6=4``) and checks the exact outcome the rule demands. Team A attacks north.
"""

from __future__ import annotations

import pytest

from monsterball.core.errors import IllegalActionError
from monsterball.core.game import CHANCE
from monsterball.games.midway.events.ball import CatchTried
from monsterball.games.midway.events.scoring import FieldGoalRolled
from tests.helpers.midway import (
    SPEC,
    act,
    cell,
    kinds,
    legal,
    moves_of,
    running,
    setup,
    start_phase,
    texts,
    top,
)

# -- item 1: a kick or punt coming down on a receiver (MW-PUNT-6, MW-KICK-7, ruling MW-R24) ----


def punt_landing_on_b1():
    """A punts from g7 toward g11 (7 hexes, then 2 more to g16); B1 stands on the hex the
    direction modifier 4 then picks."""
    players = {"A1": "g7", "A2": "f10", "A3": "h10", "B1": "a20", "B2": "a22"}
    state = setup(players, carrier="A1", los="g10", linemen=("A2", "A3"))
    state.punter = 0
    start_phase(state, 0, first=True)
    act(state, "end", "end", "punt g11", "2d6=7", "end", "end", "d6=2")
    assert state.field.name(state.ball) == "g16"
    col, row = state.direction_target(state.ball, state.last_dir, 4)
    state.pos[10] = row * state.field.width + col
    act(state, "d6=4")
    return state


def test_MW_PUNT_6_MW_R24_a_punt_coming_down_on_a_receiver_is_a_reception():
    """ "A punt reception is executed the same as a pass reception. If a player fails an
    attempted reception, a fumble has occurred": no Fumble Recovery roll as it lands (the
    engine rolled one before, and a miss left the ball in the air); at the end of B's phase
    B1, standing on it, tries a reception, or lets it hit the ground."""
    state = punt_landing_on_b1()
    assert state.ball_state == "punt" and state.current_player() == 0  # no roll on landing
    act(state, "end", "end")  # A's phase, then B's: B1 stays on the ball
    assert top(state) == "KickCatch" and legal(state) == {"catch B1", "no"}
    events = act(state, "catch B1", "d6=5")  # a human (+1), no opponent there: 1-5
    assert events[-1] == CatchTried(10, "punt", 5, 5, True) and state.carrier == 10
    assert top(state) == "Phase" and state.stack[-1].team == 0
    # A miss is a fumble: the punting team's direction modifier.
    state = punt_landing_on_b1()
    act(state, "end", "end", "catch B1")
    events = act(state, "d6=6")
    assert "CatchTried" in kinds(events) and not events[-1].caught and state.ball_state == "loose"
    assert state.current_player() == CHANCE and top(state) == "Scatter"
    # Or he lets it fall: the punt hits the ground and bounces (MW-PUNT-7).
    state = punt_landing_on_b1()
    act(state, "end", "end", "no")
    assert top(state) == "BounceCount"


def test_MW_KICK_7_MW_R24_a_receiver_standing_where_the_kickoff_lands_gets_his_attempt():
    """ "A kickoff can be received ... A successful reception is determined as for a pass
    reception attempt": a dwarf (movement 1) on the landing hex could never step off and
    back in one phase; he tries at the end of his team's first phase."""
    state = setup(
        {"B1": "f22", "A1": "g15"},
        types={"B1": "dwarf"},
        ball="f22",
        ball_state="kick",
        kind="kickoff",
    )
    state.receivable = 1
    start_phase(state, 1)
    act(state, "end")
    assert top(state) == "KickCatch" and legal(state) == {"catch B1", "no"}
    events = act(state, "catch B1", "d6=4")  # 0 opponents: 1-4
    assert events[-1] == CatchTried(10, "kick", 4, 4, True) and state.carrier == 10
    # Letting it fall leaves a loose ball (MW-KICK-7: "the ball is considered a fumble").
    state = setup({"B1": "f22", "A1": "g15"}, ball="f22", ball_state="kick", kind="kickoff")
    state.receivable = 1
    start_phase(state, 1)
    act(state, "end", "no")
    assert state.ball_state == "loose" and state.receivable == -1


def test_MW_KICK_7_MW_R27_the_kickers_may_not_enter_a_kickoffs_hex():
    """ "On a regular kickoff, there will be no defenders (members of the kicking team) in
    the hex": a kicker close enough (a constructed position) may not dive on the kick
    before the receivers have had their chance (item 12 of issue 34)."""
    state = setup({"A1": "f20", "B1": "a20"}, ball="f22", ball_state="kick", kind="kickoff")
    state.receivable = 1
    start_phase(state, 0, first=True)
    assert "f22" not in moves_of(state, "A1") and "f21" in moves_of(state, "A1")


# -- item 2: the two-point try's snap (MW-MOVE-3, ruling MW-R26) ---------------------------------


def test_MW_MOVE_3_MW_R26_no_snap_penalty_on_a_two_point_try():
    """ "(any play except a kickoff or a point-after-touchdown attempt)": the -2 is not taken
    on the two-point try; option conversion_snap=penalty takes it."""
    state = setup({"A1": "g22", "B1": "a10"}, carrier="A1", kind="conversion")
    start_phase(state, 0, first=True)
    assert state.stack[-1].left[0] == 3  # a human's full 3
    state = setup(
        {"A1": "g22", "B1": "a10"}, carrier="A1", kind="conversion", conversion_snap="penalty"
    )
    start_phase(state, 0, first=True)
    assert state.stack[-1].left[0] == 1


# -- item 3: a field goal is announced (MW-SCORE-6, ruling MW-R25) -------------------------------


def field_goal_formation():
    state = setup({}, los="g20")
    state.stack = (SPEC.state_type.procedure_kinds["StartScrimmage"](False),)
    state._settle()
    act(state, "A1@g20", "A2@f20", "A3@h20", "A4@g19", "A5@g18", "A6@c18")
    return state


def test_MW_SCORE_6_MW_R25_a_field_goal_is_announced_before_the_defense_sets_up():
    """ "A field goal attempt must be announced as such" (a punt, "unlike a field goal, does
    not need to be announced ahead of the play"): with a holder and kicker set up in range,
    A announces it or not before B sets up; the snap then holds A to his word."""
    state = field_goal_formation()
    assert top(state) == "Announce" and state.current_player() == 0
    assert legal(state) == {"fg", "no"}
    act(state, "fg")
    assert state.kind == "field goal" and top(state) == "SetUp" and state.current_player() == 1
    act(state, "auto")
    assert not moves_of(state, "A4") and not moves_of(state, "A5")  # holder, kicker stay
    act(state, "end", "end")
    assert top(state) == "SnapStep" and legal(state) == {"fg"}
    with pytest.raises(IllegalActionError, match="announced: the snap is the kick"):
        act(state, "snap A4")
    act(state, "fg")
    assert top(state) == "FieldGoalRoll"
    # Not announced: no kick at the snap.
    state = field_goal_formation()
    act(state, "no", "auto", "end", "end")
    assert top(state) == "SnapStep" and "fg" not in legal(state) and "snap A4" in legal(state)
    with pytest.raises(IllegalActionError, match="not announced"):
        act(state, "fg")


# -- item 4: how many may share a hex (MW-TACK-1, MW-CHART-4, ruling MW-R27) ---------------------


def test_MW_TACK_1_MW_R27_any_number_of_tacklers_in_the_carriers_hex():
    """ "No hex can be occupied by more than one would-be tackler unless it is the hex
    containing the ball carrier": a third defender may join two on the carrier."""
    state = running(B2="g12", B3="h12")
    act(state, "end", "B1-g10", "B2-g10")
    assert "g10" in moves_of(state, "B3")
    act(state, "B3-g10")
    assert sum(1 for p in (10, 11, 12) if state.pos[p] == cell(state, "g10")) == 3


def test_MW_CHART_4_MW_R27_three_defenders_on_a_pass_reach_the_tables_last_row():
    """The Pass Reception table's row "3 ... 1" is reachable: three defenders may stand
    where the pass comes down (defending against a pass has no limit in the text)."""
    state = setup(
        {"A1": "g10", "A2": "g13", "B1": "f15", "B2": "h15", "B3": "g16"},
        carrier="A1",
        los="g10",
        linemen=("A2",),
    )
    start_phase(state, 0)
    act(state, "pass g14", "A2-g14", "end", "B1-g14", "B2-g14")
    assert "g14" in moves_of(state, "B3")
    act(state, "B3-g14", "end")
    events = act(state, "d6=2")  # a human receiver (+1) against 3 opponents: 1-2
    assert events[-1] == CatchTried(1, "pass", 2, 2, True) and state.carrier == 1


# -- item 6: a bolt never reverses possession (MW-MAGIC-5, ruling MW-R19) ------------------------


def test_MW_MAGIC_5_MW_R19_a_bolt_on_the_ball_keeps_an_interception():
    """ "cannot bring about a change of possession unless the casting of the bolt causes a
    play to end, and a change of possession would have occurred at that point anyway": B1
    has intercepted and runs; A's storm giant strikes the ball dead: B's ball there."""
    state = setup(
        {"A1": "g10", "A2": "c12", "B1": "g14", "B2": "m20"},
        types={"A2": "storm-giant"},
        carrier="B1",
        los="g10",
    )
    state.down = 2
    start_phase(state, 0)
    act(state, "cast A2 bolt ball")
    assert state.offense == 1 and state.down == 1
    assert state.field.name(state.spot) == "g14" and state.kind == "scrimmage"
    # The offense's own carrier struck dead: an incomplete pass, a down lost at the line.
    state = setup(
        {"A1": "g14", "B1": "g18", "B2": "c12"},
        types={"B2": "storm-giant"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 1)
    act(state, "cast B2 bolt ball")
    assert state.offense == 0 and state.down == 2 and state.field.name(state.spot) == "g10"


# -- item 7: a punt downed in the receivers' end zone (MW-PUNT-8, ruling MW-R13) -----------------


def test_MW_PUNT_8_MW_R13_a_punt_downed_in_the_receivers_end_zone_is_a_touchback():
    """Downed there by the punting team, as by the receivers' own returner: a touchback,
    B's ball on its 20 (the engine gave B the ball on its 5)."""
    state = setup({"A2": "g22", "B1": "a10"}, ball="g23", ball_state="loose", kind="punt")
    state.punt_path = [622]
    start_phase(state, 0)
    act(state, "A2-g23", "d6=1")
    assert state.offense == 1 and state.down == 1
    assert state.field.name(state.spot) == "g19"  # B's 20: the 15-20 row from its goal


# -- item 8: changing form (MW-MAGIC-6, MW-MAGIC-9, ruling MW-R28) -------------------------------


def test_MW_MAGIC_9_MW_R28_changing_form_sets_the_new_movement_with_the_phase_bonus():
    """ "Abilities include size and movement factor" and "in were form, the player is
    larger (but slower)": a werebear in were form (movement 2) on the kicking team's first
    phase has 2 + 2; taking human form (3) gives him 3 + 2, not the lower of the two."""
    state = setup(
        {"A1": "g9", "B1": "g20"}, types={"A1": "werebear"}, ball="g21", ball_state="kick"
    )
    state.kind = "kickoff"
    state.receivable = 1
    state.were = 1
    start_phase(state, 0, first=True)
    assert state.stack[-1].left[0] == 4
    act(state, "cast A1 human")
    assert state.stack[-1].left[0] == 5
    # After the snap: were form 2 - 2 (at least 1) = 1; human form 3 - 2 = 1.
    state = setup({"A1": "g9", "B1": "g20"}, types={"A1": "werebear"}, carrier="A1")
    start_phase(state, 0, first=True)
    assert state.stack[-1].left[0] == 1
    act(state, "cast A1 were")
    assert state.stack[-1].left[0] == 1


def test_MW_MAGIC_6_MW_R28_change_self_into_a_faster_form_raises_movement():
    """A doppelganger (movement 3) slowed by 1 that changes into a goblin (3) keeps 2; one
    changing into an orc (2) has 1: the slowing is kept and the form's factor counts."""
    state = setup({"A1": "g9", "B1": "g20"}, types={"A1": "doppelganger"}, carrier="A1")
    state.slowed = 1
    start_phase(state, 0)
    assert state.stack[-1].left[0] == 2
    act(state, "cast A1 change orc")
    assert state.stack[-1].left[0] == 1
    state = setup({"A1": "g9", "B1": "g20"}, types={"A1": "orc"}, carrier="A1")
    state.roster[0] = "doppelganger"
    state.form[0], state.form_left[0] = "orc", 2
    start_phase(state, 0)
    assert state.stack[-1].left[0] == 2
    act(state, "cast A1 revert")  # back to a doppelganger: 3, not the orc's 2
    assert state.stack[-1].left[0] == 3


# -- item 9: invisibility within the phase's movement (MW-MAGIC-8, ruling MW-R11) ----------------


def test_MW_MAGIC_8_MW_R11_invisibility_reaches_only_the_phases_movement():
    """ "reappears on any unoccupied hex within range": a neutralized pixie cannot move this
    phase, so he reappears where he vanished; after the snap his range is 4 - 2."""
    state = setup({"A1": "g10", "B3": "g14", "B2": "m20"}, types={"B3": "pixie"}, carrier="A1")
    state.frozen = 1 << 12
    start_phase(state, 1)
    act(state, "cast B3 invisible")
    assert legal(state) == {"appear g14"}
    state = setup({"A1": "g10", "A3": "c9", "B2": "m20"}, types={"A3": "pixie"}, carrier="A1")
    start_phase(state, 0, first=True)
    act(state, "cast A3 invisible")
    vanished = cell(state, "c9")
    reach = {state.field.distance(vanished, cell(state, n.split()[1])) for n in legal(state)}
    assert max(reach) == 2


# -- item 10: mirror image after a blocked kick (MW-MAGIC-3, ruling MW-R10) ----------------------


def test_MW_MAGIC_3_MW_R10_mirror_image_after_a_blocked_kick():
    """A blocked punt or field goal was snapped: "This spell cannot be cast before the ball
    is snapped" does not bar it."""
    state = setup(
        {"A1": "g9", "B1": "c14", "B2": "m20"},
        types={"B1": "brownie"},
        ball="g8",
        ball_state="loose",
        kind="blocked",
    )
    start_phase(state, 1)
    assert "cast B1 mirror" in legal(state)


# -- item 11: the hobgoblin's duty is the defense's (MW-SPEC-5, ruling MW-R29) -------------------


def test_MW_SPEC_5_MW_R29_a_hobgoblin_carrying_the_ball_runs_where_he_likes():
    """ "A hobgoblin will always cover or chase any elf on the opposing team": covering and
    chasing are a defender's; a hobgoblin ball carrier may run away from the elf."""
    state = running(B3="g4")
    state.roster[0] = "hobgoblin"
    state.roster[12] = "elf"
    assert {"g11", "f10", "h10"} <= moves_of(state, "A1")


# -- item 13: rulings revisited ----------------------------------------------------------------


def test_MW_CHART_4_MW_CHART_3_MW_R7_the_literal_reading_of_the_modifiers_is_an_option():
    """ "Adjust the d6 result by the amount of the player's receiving modifier" and
    "Halfling kickers add +1 to the d6 result": with option roll_modifiers=literal the
    modifier is added to the roll, so on these low-is-good charts a bonus narrows the
    range (a brownie, +3, catches an open pass only on a 1)."""
    for rule, need in (("widen", 7), ("literal", 1)):
        state = setup(
            {"A1": "g10", "A2": "g13", "B2": "m20"},
            types={"A2": "brownie"},
            carrier="A1",
            los="g10",
            linemen=("A2",),
            roll_modifiers=rule,
        )
        start_phase(state, 0)
        act(state, "pass g14", "A2-g14", "end", "end")
        events = act(state, "d6=2")
        assert any(isinstance(e, CatchTried) and e.need == need for e in events)
    state = setup(
        {"A1": "g20", "A2": "f20", "A3": "h20", "A4": "g19", "A5": "g18"},
        types={"A5": "halfling"},
        los="g20",
        roll_modifiers="literal",
    )
    kinds = SPEC.state_type.procedure_kinds
    state.stack = (kinds["SnapStep"](0), kinds["Announce"](0))
    act(state, "fg", "fg")
    events = act(state, "d6=4")  # 5 hexes: 1-4, less the halfling's +1 added to the roll
    assert any(isinstance(e, FieldGoalRolled) and e.need == 3 and not e.good for e in events)


def test_MW_MAGIC_7_MW_R11_an_invisible_player_can_block():
    """ "An invisible player cannot be blocked or tackled, but can perform as a blocker or
    tackler": A3 (a pixie) vanishes, moves unseen into B1's hex and blocks him at the end
    of A's phase, showing himself there."""
    state = setup(
        {"A1": "g8", "A3": "e10", "B1": "f12", "B2": "m20"},
        types={"A3": "pixie"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "cast A3 invisible")
    assert "appear f12" in legal(state)
    act(state, "appear f12")
    assert state.view(1)["players"]["A3"]["hex"] is None  # unseen until the block
    events = act(state, "end")
    assert "A3 reappears on f12 to block." in texts(events)
    assert state.invisible == -1 and state.field.name(state.pos[2]) == "f12"
    events = act(state, "d6=3")
    assert texts(events)[0].startswith("A3 blocks B1")


def test_MW_MAGIC_2_MW_R10_the_literal_mirror_count_is_an_option():
    """ "rolls d6 and divides the result by two ... This is the number of mirror images ...
    selects this number of blank counters, including one ... that will represent the actual
    player": with option mirror_count=literal, d6 4 makes two counters, one image."""
    state = setup(
        {"A1": "g12", "B1": "g20"},
        types={"A1": "brownie"},
        carrier="A1",
        los="g10",
        mirror_count="literal",
    )
    start_phase(state, 0)
    act(state, "cast A1 mirror", "d6=4", "image h12")
    assert top(state) == "PickReal" and len(state.images) == 1


def test_MW_SCRIM_3_MW_R30_the_offense_may_shift_its_formation():
    """ "Offense may shift formation or send one player in motion": several players, each
    once, laterally or back; linemen stay on the line (three must start there), backs in the
    backfield. Option shift=one: one player only."""
    state = setup({}, los="g10")
    state.stack = (SPEC.state_type.procedure_kinds["StartScrimmage"](False),)
    state._settle()
    act(state, "A1@g10", "A2@f10", "A3@h10", "A4@g9", "A5@e8", "A6@j8", "auto")
    assert top(state) == "ShiftStep"
    assert moves_of(state, "A2") <= {"e10", "d10", "c10"}  # along the line only
    act(state, "A5-c8")
    assert top(state) == "ShiftMore" and "A5-" not in " ".join(legal(state))
    act(state, "A6-l8", "end")
    assert top(state) == "Adjust"
    assert state.field.name(state.pos[4]) == "c8" and state.field.name(state.pos[5]) == "l8"


def test_MW_SPEC_6_MW_R1_a_treant_is_large_treated_as_a_giant_when_blocked_or_tackled():
    """ "Treants are treated as size G creatures when a block is attempted against them, and
    ... size G with an extra modifier of -1 ... when a tackle is attempted against them":
    treated as G only then, so the chart makes a treant L (it blocks and tackles as L)."""
    from monsterball.games.midway.moves import block_modifier, tackle_modifier

    state = setup({"A1": "g10", "A2": "g12", "B1": "g12"}, types={"A2": "treant", "B1": "human"})
    assert state.mtype(1).size == "L"
    assert block_modifier(state, 1, 10) == 1  # L blocks M
    state.roster[10] = "treant"
    state.roster[1] = "human"
    assert block_modifier(state, 1, 10) == -2  # a block on a treant: M against G
    state.roster[0] = "human"
    assert tackle_modifier(state, 0, 10) == -1  # a treant tackles as L: M carrier, -1
