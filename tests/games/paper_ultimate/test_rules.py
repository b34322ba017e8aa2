"""One scenario test (at least) per rule id of docs/rules/paper-ultimate.md.

Each test sets up a position, scripts any dice, acts, and checks the exact outcome the rule
demands. Team A defends the south end zone (rows 1-2) and attacks north unless said otherwise.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from monsterball.core.dice import ScriptedDice
from monsterball.core.errors import IllegalActionError, NotationError
from monsterball.core.game import CHANCE, TERMINAL
from monsterball.games.paper_ultimate import events as ev
from tests.helpers.paper_ultimate import SPEC, act, legal, position, runs_of, spread_players, top


def new_game(**options: object):
    return SPEC.new_game(SPEC.options(**options))


def set_up_both(state, a_cells=("a1", "b1", "c1", "d1"), b_cells=("a18", "b18", "c18", "d18")):
    act(state, *(f"place {c}" for c in a_cells))
    act(state, *(f"place {c}" for c in b_cells))


# -- field and teams ----------------------------------------------------------------------


def test_PU_FIELD_1_pitch_is_9_by_18_boxes():
    state = new_game()
    assert (state.field.width, state.field.height) == (9, 18)
    assert state.field.parse_cell("i18") == 9 * 18 - 1
    with pytest.raises(NotationError):
        state.field.parse_cell("j1")
    with pytest.raises(NotationError):
        state.field.parse_cell("a19")


@pytest.mark.parametrize("depth, fields", [(2, 18), (1, 9), (3, 27)])
def test_PU_FIELD_2_PU_R1_end_zone_depth(depth, fields):
    state = new_game(first_receiver="A", end_zone_depth=depth)
    rows = {int(n[1:]) for n in (a.split()[1] for a in legal(state))}
    assert len(legal(state)) == fields
    assert rows == set(range(1, depth + 1))


def test_PU_FIELD_3_the_program_draws_the_pitch():
    text = new_game().render()
    assert text.count("=" * 27) == 2  # two thick end-zone lines
    assert " 18 " in text and "  1 " in text


def test_PU_TEAM_1_four_a_side_after_set_up():
    state = new_game(first_receiver="A")
    set_up_both(state)
    view = state.view()
    assert sorted(k for k, v in view["players"].items() if v) == [
        "A1",
        "A2",
        "A3",
        "A4",
        "B1",
        "B2",
        "B3",
        "B4",
    ]


def test_PU_TEAM_2_one_disc_on_the_holders_coin():
    state = new_game(first_receiver="A")
    set_up_both(state)
    act(state, "disc B3")
    assert state.view()["holder"] == "B3"
    assert state.view()["disc"] == "c18"


# -- set-up and pull ----------------------------------------------------------------------


def test_PU_SET_1_team_without_disc_sets_up_first_in_its_end_zone():
    state = new_game(first_receiver="B")
    assert state.current_player() == 1  # B receives, so B has no disc and sets up first
    assert all(int(a.split()[1][1:]) >= 17 for a in legal(state))  # B defends north
    with pytest.raises(IllegalActionError, match="end zone"):
        act(state, "place e9")
    act(state, "place e18")
    with pytest.raises(IllegalActionError, match="occupied"):
        act(state, "place e18")


def test_PU_SET_2_then_the_other_team_sets_up_in_its_end_zone():
    state = new_game(first_receiver="A")
    act(state, "place a1", "place b1", "place c1")
    assert state.current_player() == 0
    act(state, "place d2")
    assert state.current_player() == 1
    assert top(state) == "SetUp"
    assert all(int(a.split()[1][1:]) >= 17 for a in legal(state))


def test_PU_SET_3_one_player_gets_the_disc():
    state = new_game(first_receiver="A")
    set_up_both(state)
    assert top(state) == "HandDisc"
    assert legal(state) == {"disc B1", "disc B2", "disc B3", "disc B4"}


def test_PU_PULL_1_pull_into_an_empty_field_of_the_opposing_end_zone():
    state = new_game(first_receiver="A")
    set_up_both(state)
    act(state, "disc B1")
    targets = legal(state)
    assert len(targets) == 18 - 4  # A's end zone minus A's four players
    assert "pull a1" not in targets and "pull e2" in targets
    with pytest.raises(IllegalActionError, match="opposing end zone"):
        act(state, "pull e9")
    act(state, "pull e2")
    assert state.view()["disc"] == "e2" and state.view()["holder"] is None
    assert top(state) == "Running" and state.current_player() == 0


def test_PU_R2_pulled_disc_is_picked_up_by_an_offensive_runner_only():
    players = {
        "A1": "a1",
        "A2": "b1",
        "A3": "c1",
        "A4": "i1",
        "B1": "a18",
        "B2": "b18",
        "B3": "c18",
        "B4": "e5",
    }
    state = position(players, step="Running", team=0, moved=0, disc="e2")
    assert "e2" in runs_of(state, "A3")
    act(state, "A1-a2", "end")
    assert "e2" not in runs_of(state, "B4")  # defenders may not stop on the loose disc
    with pytest.raises(IllegalActionError, match="only the offense"):
        act(state, "B4-e2")
    act(state, "end")
    assert top(state) == "Running" and state.current_player() == 0  # not picked up: run again
    act(state, "A3-e2")
    assert state.view()["holder"] == "A3"
    act(state, "end", "end")
    assert top(state) == "Throwing"


# -- throwing -----------------------------------------------------------------------------


def throwing(players, holder="A1", **kw):
    return position(players, step="Throwing", team=0, holder=holder, **kw)


def test_PU_THROW_1_only_straight_rows_columns_and_diagonals():
    players = spread_players() | {"A2": "e13", "A3": "h12", "A4": "f12"}
    state = throwing(players)  # A1 on e9: e13 straight north, h12 diagonal, f12 is neither
    assert legal(state) == {"pass A2", "pass A3"}
    with pytest.raises(IllegalActionError, match="straight"):
        act(state, "pass A4")


def test_PU_THROW_2_at_least_one_free_field():
    players = spread_players() | {"A2": "e10", "A3": "e11", "A4": "f10"}
    state = throwing(players)  # e10 next to the thrower, e11 behind it with no free field
    assert legal(state) == {"turnover"}
    with pytest.raises(IllegalActionError, match="free field"):
        act(state, "pass A3")


def test_PU_THROW_3_over_teammates_never_over_opponents():
    players = spread_players() | {"A2": "e11", "A3": "e13", "A4": "g11", "B1": "f10"}
    state = throwing(players)  # north: e10 free, A2, e12 free, A3. NE diagonal: B1 on f10
    assert legal(state) == {"pass A2", "pass A3"}
    with pytest.raises(IllegalActionError, match="opponent"):
        act(state, "pass A4")


def test_PU_THROW_4_pass_to_a_free_teammate_who_catches():
    players = spread_players() | {"A2": "e13"}
    state = throwing(players)
    events = act(state, "pass A2")
    assert state.view()["holder"] == "A2" and state.view()["disc"] == "e13"
    assert events[0] == ev.Passed(0, 1, "e9", "e13")


# -- running ------------------------------------------------------------------------------


def test_PU_RUN_1_up_to_four_fields_in_king_moves():
    players = {
        "A1": "e9",
        "A2": "a1",
        "A3": "i1",
        "A4": "a18",
        "B1": "i18",
        "B2": "c18",
        "B3": "g18",
        "B4": "e1",
    }
    state = position(players, step="Running", team=0, moved=0, holder="A2")
    assert len(runs_of(state, "A1")) == 80  # the 9x9 square around e9 minus e9
    assert "e13" in runs_of(state, "A1") and "e14" not in runs_of(state, "A1")
    with pytest.raises(IllegalActionError, match="more than 4"):
        act(state, "A1-e14")
    act(state, "A1-h12")
    with pytest.raises(IllegalActionError, match="already run"):
        act(state, "A1-h11")


def test_PU_R4_runners_do_not_pass_through_players_unless_option():
    # A1 in the corner a1 walled in by b1, a2, b2: it cannot get out.
    players = {
        "A1": "a1",
        "A2": "b1",
        "A3": "a2",
        "A4": "i9",
        "B1": "b2",
        "B2": "c18",
        "B3": "g18",
        "B4": "e18",
    }
    state = position(players, step="Running", team=0, moved=0, holder="A4")
    assert runs_of(state, "A1") == set()
    with pytest.raises(IllegalActionError, match="passing through"):
        act(state, "A1-c3")
    state = position(
        players, step="Running", team=0, moved=0, holder="A4", options={"run_through_players": True}
    )
    assert "c3" in runs_of(state, "A1") and "b2" not in runs_of(state, "A1")


def test_PU_RUN_2_the_player_with_the_disc_does_not_move():
    state = position(spread_players(), step="Running", team=0, moved=0, holder="A1")
    assert runs_of(state, "A1") == set()
    with pytest.raises(IllegalActionError, match="must not move"):
        act(state, "A1-e10")


def test_PU_RUN_3_PU_STEP_1_offense_runs_then_defense_then_the_throw():
    players = spread_players() | {"A2": "e13"}
    state = throwing(players)
    act(state, "pass A2")
    assert top(state) == "Running" and state.current_player() == 0
    movable = {n.split("-")[0] for n in legal(state) if "-" in n}
    assert movable == {"A1", "A3", "A4"}  # the 3 offense players without the disc
    act(state, "end")
    assert top(state) == "Running" and state.current_player() == 1
    assert {n.split("-")[0] for n in legal(state) if "-" in n} == {"B1", "B2", "B3", "B4"}
    act(state, "end")
    assert top(state) == "Throwing" and state.current_player() == 0


# -- marking ------------------------------------------------------------------------------


def test_PU_MARK_1_a_marker_blocks_its_throwing_direction():
    players = spread_players() | {"A2": "e13", "A3": "h12", "B1": "e10"}
    state = throwing(players)
    assert legal(state) == {"pass A3"}  # B1 on e10 marks the northward lane


def test_PU_MARK_2_only_one_marker_next_to_the_holder():
    players = spread_players() | {"B1": "e10", "B2": "c9"}
    state = position(players, step="Running", team=1, moved=0, holder="A1")
    ring = {"d8", "d9", "d10", "e8", "f8", "f9", "f10"}
    assert not ring & runs_of(state, "B2")
    with pytest.raises(IllegalActionError, match="only one marker"):
        act(state, "B2-d9")
    assert {"d9", "f9"} <= runs_of(state, "B1")  # the marker itself may move around


def test_PU_MARK_2_PU_R13_the_one_marker_limit_protects_only_the_holder():
    # "only one marker may be located in one of the neighbouring 8 fields of a player of the
    # other team": the player with the disc; other attackers "can be placed between several
    # defenders". A2 (a5, no disc) already has B1 beside him; B2 may join.
    players = spread_players() | {"B1": "a6", "B2": "c6"}
    state = position(players, step="Running", team=1, moved=0, holder="A1")
    assert "b5" in runs_of(state, "B2")
    act(state, "B2-b5")
    assert state.view()["players"]["B2"] == "b5"


def test_PU_MARK_3_PU_R11_defenders_next_to_a_catcher_may_remain():
    players = spread_players() | {"A2": "e13", "B1": "d13", "B2": "f13"}
    state = throwing(players, options={"monster_defense": "off"})
    act(state, "pass A2", "end")
    assert state.current_player() == 1 and "end" in legal(state)
    act(state, "end")
    assert top(state) == "Throwing"
    assert state.view()["players"]["B1"] == "d13" and state.view()["players"]["B2"] == "f13"


def test_PU_STEP_2_the_catcher_gets_the_disc():
    players = spread_players() | {"A2": "a9"}
    state = throwing(players)
    act(state, "pass A2")
    assert state.view()["holder"] == "A2" and state.view()["disc"] == "a9"
    assert state.view()["players"]["A1"] == "e9"


def test_PU_CANCEL_1_illegal_actions_are_refused_and_change_nothing():
    state = throwing(spread_players() | {"A2": "e13"})
    before = state.to_position()
    for bad in ("pass B1", "A3-e10", "place e1", "pull e2"):
        with pytest.raises(IllegalActionError):
            act(state, bad)
        assert state.to_position() == before
    assert not hasattr(state, "undo")


# -- turns --------------------------------------------------------------------------------


def test_PU_TURN_1_PU_R12_no_free_player_means_a_turn():
    players = spread_players() | {"A2": "e10", "A3": "f10", "A4": "d10"}
    state = throwing(players)
    assert legal(state) == {"turnover"}
    free = throwing(spread_players() | {"A2": "e13"})
    with pytest.raises(IllegalActionError, match="free receiver exists"):
        act(free, "turnover")


def test_PU_TURN_2_PU_R5_the_nearest_player_of_the_other_team_gets_the_disc():
    players = spread_players() | {"A2": "e10", "A3": "f10", "A4": "d10", "B1": "h9", "B2": "e4"}
    state = throwing(players)
    events = act(state, "turnover")
    assert state.view()["holder"] == "B1" and state.view()["offense"] == "B"
    assert state.view()["disc"] == "h9"
    assert any(isinstance(e, ev.Turnover) and e.player == 4 for e in events)  # B1


def test_PU_R5_ties_and_the_any_option_let_the_new_offense_choose():
    players = spread_players() | {"A2": "e10", "A3": "f10", "A4": "d10", "B1": "h9", "B2": "b9"}
    state = throwing(players)
    act(state, "turnover")
    assert top(state) == "NextPlayer" and state.current_player() == 1
    assert legal(state) == {"take B1", "take B2"}
    act(state, "take B2")
    assert state.view()["holder"] == "B2"
    state = throwing(players, options={"turn_pickup": "any"})
    act(state, "turnover")
    assert legal(state) == {"take B1", "take B2", "take B3", "take B4"}


def test_PU_TURN_3_the_new_offense_proceeds_with_its_steps():
    players = spread_players() | {"A2": "e10", "A3": "f10", "A4": "d10", "B1": "h9"}
    state = throwing(players)
    act(state, "turnover")
    assert top(state) == "Running" and state.current_player() == 1
    assert {n.split("-")[0] for n in legal(state) if "-" in n} == {"B2", "B3", "B4"}


def test_PU_TURN_4_surplus_markers_must_depart_after_a_turn():
    players = {
        "A1": "e9",
        "A2": "d10",
        "A3": "e10",
        "A4": "f10",
        "B1": "d11",
        "B2": "d8",
        "B3": "e8",
        "B4": "f8",
    }
    # B1 holds on d11 just after a turn, with A2 (d10) and A3 (e10) both next to him.
    state = position(
        players, step="Running", team=0, moved=0, holder="B1", offense="B", surplus_must_leave=True
    )
    assert "end" not in legal(state)
    with pytest.raises(IllegalActionError, match="surplus markers"):
        act(state, "end")
    act(state, "A3-e13")
    assert "end" in legal(state)
    act(state, "end")
    assert top(state) == "Throwing" and not state.surplus_must_leave


# -- monster defense ----------------------------------------------------------------------


def catch_next_to(defenders, **options):
    players = spread_players() | {"A2": "e13"} | defenders
    return throwing(players, options=options)


def test_PU_MON_1_defense_may_roll_when_a_defender_is_next_to_the_catcher():
    state = catch_next_to({"B1": "f14"})
    act(state, "pass A2")
    assert top(state) == "MonsterDefense" and state.current_player() == 1
    assert legal(state) == {"monster B1", "decline"}
    act(state, "decline")
    assert top(state) == "Running" and state.view()["holder"] == "A2"
    plain = catch_next_to({})
    act(plain, "pass A2")
    assert top(plain) == "Running"


def test_PU_R6_the_defense_names_the_marker_among_several():
    state = catch_next_to({"B1": "f14", "B2": "d12"})
    act(state, "pass A2")
    assert legal(state) == {"monster B1", "monster B2", "decline"}


@pytest.mark.parametrize("face", ["1", "6"])
def test_PU_MON_2_one_or_six_is_a_turn(face):
    state = catch_next_to({"B1": "f14"})
    act(state, "pass A2", "monster B1")
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [a.notation() for a, _ in outcomes] == [f"d6={v}" for v in range(1, 7)]
    assert all(p == Fraction(1, 6) for _, p in outcomes)
    act(state, dice=ScriptedDice([f"d6={face}"]))
    assert state.view()["holder"] == "B1" and state.view()["offense"] == "B"
    assert state.view()["disc"] == "f14"


@pytest.mark.parametrize("face", ["2", "3", "4", "5"])
def test_PU_MON_3_other_numbers_only_the_marker_may_move(face):
    state = catch_next_to({"B1": "f14"})
    act(state, "pass A2", "monster B1", dice=ScriptedDice([f"d6={face}"]))
    assert state.view()["holder"] == "A2" and state.view()["offense"] == "A"
    act(state, "end")  # offense runs (nothing), then the defense:
    movers = {n.split("-")[0] for n in legal(state) if "-" in n}
    assert movers == {"B1"}
    with pytest.raises(IllegalActionError, match="only the marker"):
        act(state, "B2-c14")
    act(state, "end", "pass A1", "end")  # the restriction lasts one defensive step only
    assert {n.split("-")[0] for n in legal(state) if "-" in n} == {"B1", "B2", "B3", "B4"}


def test_PU_MON_4_two_coins_twice_heads_is_a_turn():
    state = catch_next_to({"B1": "f14"}, monster_defense="coins")
    act(state, "pass A2", "monster B1")
    outcomes = state.chance_outcomes()
    assert sorted(a.notation() for a, _ in outcomes) == [
        "coins=HH",
        "coins=HT",
        "coins=TH",
        "coins=TT",
    ]
    assert all(p == Fraction(1, 4) for _, p in outcomes)
    act(state, dice=ScriptedDice(["coins=HT"]))
    assert state.view()["holder"] == "A2"
    state = catch_next_to({"B1": "f14"}, monster_defense="coins")
    act(state, "pass A2", "monster B1", dice=ScriptedDice(["coins=HH"]))
    assert state.view()["holder"] == "B1"


def test_PU_MON_5_PU_R8_monster_defense_can_be_omitted():
    state = catch_next_to({"B1": "f14"}, monster_defense="off")
    act(state, "pass A2")
    assert top(state) == "Running" and state.current_player() == 0


# -- scoring and the end ------------------------------------------------------------------


def test_PU_SCORE_1_PU_R2_a_catch_in_the_attacking_end_zone_scores():
    players = spread_players() | {"A1": "e13", "A2": "e17", "B2": "a16", "B3": "i16"}
    state = throwing(players, options={"monster_defense": "off"})
    events = act(state, "pass A2")
    assert state.score == [1, 0]
    assert any("Point for team A" in e.describe() for e in events)
    short = throwing(players | {"A2": "e16"}, options={"monster_defense": "off"})
    act(short, "pass A2")
    assert short.score == [0, 0]


def test_PU_SCORE_1_monster_turn_on_an_end_zone_catch_prevents_the_point():
    players = spread_players() | {"A1": "e13", "A2": "e17", "B2": "d17", "B3": "i16"}
    state = throwing(players)
    act(state, "pass A2", "monster B2", dice=ScriptedDice(["d6=1"]))
    assert state.score == [0, 0] and state.view()["holder"] == "B2"


@pytest.mark.parametrize("switch", [True, False])
def test_PU_SCORE_2_PU_R9_the_scorer_starts_the_next_point_on_defense(switch):
    players = spread_players() | {"A1": "e13", "A2": "e17", "B2": "a16", "B3": "i16"}
    state = throwing(players, options={"monster_defense": "off", "switch_ends": switch})
    act(state, "pass A2")
    assert top(state) == "SetUp" and state.current_player() == 1  # B receives, sets up first
    assert state.view()["offense"] == "B"
    assert all(v is None for v in state.view()["players"].values())
    b_rows = {int(a.split()[1][1:]) for a in legal(state)}
    assert b_rows == ({1, 2} if switch else {17, 18})


def test_PU_END_1_PU_R3_first_to_points_to_win():
    players = spread_players() | {"A1": "e13", "A2": "e17", "B2": "a16", "B3": "i16"}
    state = throwing(players, score=(4, 2), options={"monster_defense": "off"})
    act(state, "pass A2")
    assert state.current_player() == TERMINAL and state.is_terminal()
    assert state.returns() == (1.0, -1.0)
    assert state.result_text() == "team A wins, A 5 - B 2"
    state = throwing(players, score=(2, 2), options={"monster_defense": "off", "points_to_win": 3})
    act(state, "pass A2")
    assert state.is_terminal() and state.winner == 0


def test_PU_R7_coin_toss_decides_the_first_receiver():
    state = new_game()
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [
        (SPEC.parse_action("toss=A"), Fraction(1, 2)),
        (SPEC.parse_action("toss=B"), Fraction(1, 2)),
    ]
    act(state, dice=ScriptedDice(["toss=B"]))
    assert state.current_player() == 1 and top(state) == "SetUp"
    fixed = new_game(first_receiver="A")
    assert fixed.current_player() == 0


def test_PU_R10_throw_cap_ends_the_game_on_the_score():
    state = throwing(spread_players() | {"A2": "e13"}, score=(1, 0), options={"max_throws": 1})
    act(state, "pass A2")
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    level = throwing(spread_players() | {"A2": "e13"}, options={"max_throws": 1})
    act(level, "pass A2")
    assert level.is_terminal() and level.returns() == (0.0, 0.0)
    assert "draw" in level.result_text()


# -- issue 34: the readings players may want ----------------------------------------------


def test_PU_MARK_2_PU_R11_catch_markers_depart_sends_surplus_markers_away():
    # "only one marker may be located in one of the neighbouring 8 fields", read as applying
    # after a catch too: with catch_markers=depart the surplus markers leave at the next step,
    # as "the surplus markers must depart at the next possible step" after a turn.
    players = spread_players() | {"A2": "e13", "B1": "d13", "B2": "f13"}
    state = throwing(players, options={"monster_defense": "off", "catch_markers": "depart"})
    act(state, "pass A2", "end")
    assert state.current_player() == 1 and "end" not in legal(state)
    with pytest.raises(IllegalActionError, match="surplus markers"):
        act(state, "end")
    act(state, "B2-h13", "end")
    assert top(state) == "Throwing" and not state.surplus_must_leave
    # A pick-up of the pull is a catch of the disc lying on the field: the same.
    loose = position(
        spread_players() | {"A1": "e4", "B1": "d3", "B2": "f3"},
        step="Running",
        team=0,
        moved=0,
        disc="e2",
        options={"catch_markers": "depart"},
    )
    act(loose, "A1-e2", "end")
    assert loose.view()["holder"] == "A1" and "end" not in legal(loose)


def test_PU_PULL_2_PU_R14_a_pull_left_loose_stalls_after_three_offensive_steps():
    # A pull the offense never picks up (or cannot: defenders ringing it) would never end, as
    # max_throws counts throws only. After pull_stall (default 3) offensive running steps with
    # the disc loose it is a stall: the pulling team's nearest player takes it.
    players = spread_players() | {"B4": "e5"}
    state = position(players, step="Running", team=0, moved=0, disc="e2", loose_steps=2)
    act(state, "end")
    assert state.loose_steps == 3 and top(state) == "Running" and state.current_player() == 1
    events = act(state, "end")
    assert "Stall: the receiving team left the pull lying for 3 of its running steps." in [
        e.describe() for e in events
    ]
    assert state.view()["holder"] == "B4" and state.view()["offense"] == "B"
    assert state.view()["disc"] == "e5" and state.surplus_must_leave
    # pull_stall=0 keeps the old rule: the teams keep running.
    never = position(players, step="Running", team=0, moved=0, disc="e2", loose_steps=9,
                     options={"pull_stall": 0})  # fmt: skip
    act(never, "end", "end")
    assert never.view()["holder"] is None and top(never) == "Running"
    assert never.current_player() == 0


def test_PU_SCORE_1_PU_R2_a_standing_monster_roll_on_a_scoring_catch_scores():
    # The monster roll comes before the point: a 1 or 6 takes it away (the test above); 2..5
    # lets the catch stand and the point counts, so "only the marker may move" has no step
    # to apply to.
    players = spread_players() | {"A1": "e13", "A2": "e17", "B2": "d17", "B3": "i16"}
    state = throwing(players)
    events = act(state, "pass A2", "monster B2", dice=ScriptedDice(["d6=3"]))
    assert state.score == [1, 0] and state.marker_only == -1
    texts = [e.describe() for e in events]
    assert "The monster defense die shows 3: the catch stands." in texts
    assert not any("only the marker" in t for t in texts)


def test_PU_R14_a_stall_with_two_nearest_defenders_lets_the_pulling_team_choose():
    # PU-R5's tie rule on a stall: B4 (e5) and B1 (h2) are both 3 from the loose disc on e2.
    players = spread_players() | {"B4": "e5", "B1": "h2"}
    state = position(players, step="Running", team=1, moved=0, disc="e2", loose_steps=3)
    act(state, "end")
    assert top(state) == "NextPlayer" and legal(state) == {"take B1", "take B4"}
    again = SPEC.from_position(state.to_position())  # the disc still lies loose here
    assert legal(again) == legal(state)
    act(state, "take B1")
    assert state.view()["holder"] == "B1" and state.view()["disc"] == "h2"
