"""Huck + Monster, the Pro Continue (with The Rethrow and the contested count) and the Mini Cone
kit's Hot Hex: scenario tests with scripted dice, each naming the rule ids it checks
(docs/rules/huck-monster.md)."""

from __future__ import annotations

import pytest

from monsterball.core.errors import IllegalActionError, OptionsError
from monsterball.core.game import CHANCE
from monsterball.games.huck_monster import HuckMonsterState
from monsterball.games.huck_monster.rules.kits.cone_push import (
    ConeThrows,
    ConeTurn,
    cone_pushes,
)
from monsterball.games.huck_monster.rules.moves import MoveRoll, Moving, TeamMoves
from monsterball.games.huck_monster.rules.pro import ContinueChoice, ContinueOptOut
from monsterball.games.huck_monster.rules.upcall import OffenseAction, UpCall
from monsterball.games.huck_monster.views.coaching import acting_team
from tests.helpers.huck_monster import (
    LANE,
    SPEC,
    bids,
    kinds,
    lane,
    legal,
    name,
    options,
    play,
    position,
    texts,
    top,
)

# The lane of hm_scenarios (LANE) with the defenders cleared away from the path, except
# B2 (d9), who is next to e9, the path's first space. A3 on f9 is next to e9 too, with no
# defender beside him: he may Continue there. The throw A1 -> A2 flies e9, d10 and stops on d11.
OPEN = {"A3": "f9", "B1": "h4", "B3": "a10", "B4": "a11", "B5": "a13"}


def open_lane(players: dict[str, str | None] | None = None, **opts: object) -> HuckMonsterState:
    return lane({**OPEN, **(players or {})}, **opts)


# -- the Continue (one die) -------------------------------------------------------------------


def test_HM_PRO_1_HM_R48_an_unguarded_player_next_to_the_path_continues_with_one_die() -> None:
    state = open_lane(continues="one-die", strategy=True)
    play(state, "roll", "3d6=10", "throw A2 d11", "roll", "2d6=5")  # B2 intercepts and loses
    # The disc is on e9, next to A3, who has no defender beside him.
    assert isinstance(top(state), ContinueChoice) and state.current_player() == 0
    assert legal(state) == {"continue A3", "end"}
    events = play(state, "continue A3")
    assert texts(events)[0] == "A3 Continues the throw from e9."
    # 1 die added to what is left of the throw's 10 after entering one space: 9 + 4.
    assert state.current_player() == CHANCE
    assert {a.notation() for a, _ in state.chance_outcomes()} == {f"1d6={v}" for v in range(1, 7)}
    assert acting_team(state) == 0  # the offense's coach rolls the Continue's die (HM-4P-2)
    events = play(state, "1d6=4")
    assert "Team A rolls 13 for the Continue." in texts(events)
    # Rethrown at once from where he took it, in the same Up Call, with no team moves.
    assert state.holder == 2 and name(state, "A3") == "f9" and state.field.name(state.disc) == "e9"
    assert state.up_calls == 1 and state.continuing and "MoveRolled" not in kinds(events)
    # Defenders act on the Continue throw, even one who bid on the first throw: B2 now marks
    # the disc on e9; nobody may add a strategy die, so his bid rolls at once.
    play(state, "throw A2 d11")
    assert state.current_player() == CHANCE
    assert {a.notation() for a, _ in state.chance_outcomes()} >= {"3d6=3", "3d6=18"}
    events = play(state, "3d6=12")
    assert bids(events) == [("B2", "mark", False)]
    assert "Caught" in kinds(events) and state.holder == 1


def test_HM_PRO_1_a_declined_continue_lets_the_disc_fly_on() -> None:
    state = open_lane(continues="one-die")
    play(state, "3d6=10", "throw A2 d11", "2d6=5")
    events = play(state, "end")
    assert "Caught" in kinds(events) and state.holder == 1
    assert not any(isinstance(s, ContinueChoice) for s in state.stack)


def test_HM_PRO_1_HM_R48_guarded_players_thrower_and_receiver_do_not_continue() -> None:
    # B1 back on f8 stands beside A3: A3 is guarded, so the throw goes on to the catch.
    guarded = open_lane({"B1": "f8"}, continues="one-die")
    events = play(guarded, "3d6=10", "throw A2 d11", "3d6=5", "2d6=5")
    assert "Caught" in kinds(events) and "Continued" not in kinds(events)
    # Without the option nobody Continues.
    off = open_lane()
    events = play(off, "3d6=10", "throw A2 d11", "2d6=5")
    assert "Caught" in kinds(events)
    # The thrower (A1, next to e9 ... no: e7 is not beside e9) and the Receiver never do:
    # with A3 away only A2 (the Receiver, beside d11) would be next to the path.
    alone = open_lane({"A3": "a5"}, continues="one-die")
    events = play(alone, "3d6=10", "throw A2 d11", "2d6=5")
    assert "Caught" in kinds(events)
    with pytest.raises(IllegalActionError):
        play(open_lane(continues="one-die"), "3d6=10", "throw A2 d11", "2d6=5", "continue A1")


def test_HM_PRO_1_HM_SD_1_no_strategy_dice_for_the_continue_or_its_bids() -> None:
    state = open_lane(continues="one-die", strategy=True)
    play(state, "roll", "3d6=10", "throw A2 d11", "roll", "2d6=5", "continue A3")
    # The Continue's die is rolled at once: no 'roll' / 'strategy' choice for the offense.
    assert state.current_player() == CHANCE
    play(state, "1d6=1", "throw A2 d11")
    assert state.current_player() == CHANCE  # B2's Mark bid: no strategy choice either


def test_HM_STAR_3_HM_R42_the_all_star_adds_continue_3() -> None:
    # A1 (the All-Star) Continues a throw by A4.
    state = position(
        {"A4": "e7", "A2": "d12", "A1": "f9", "B1": "h4", "B2": "d9", "B3": "a10"},
        disc="e8",
        holder="A4",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(
            throw_path="straight", strategy_dice=False, all_stars=True, continues="one-die"
        ),
        up_calls=1,
    )
    play(state, "3d6=10", "throw A2 d11", "monster stay", "2d6=5", "continue A1")
    events = play(state, "1d6=4")
    assert "Team A rolls 16 for the Continue." in texts(events)  # 9 left + 4 + Continue +3


def test_HM_STAR_6_HM_R55_an_all_star_is_not_involved_twice_in_one_up_call() -> None:
    # "All-Stars may only act once per Up Call, and cannot be involved in the same Up Call
    # twice". A1, the Handler All-Star, throws; A3 Continues on e9 in the same Up Call: A1
    # may not receive A3's throw, and may not Continue it either.
    state = open_lane(continues="one-die", all_stars=True)
    play(state, "3d6=7", "throw A2 d11", "monster stay", "2d6=5", "continue A3", "1d6=4")
    assert state.holder == 2 and state.up_calls == 1
    assert legal(state) and not any(a.startswith("throw A1") for a in legal(state))
    with pytest.raises(IllegalActionError, match="already acted in this Up Call"):
        play(state, "throw A1 e8")
    # A3 throws to A5 (g5) instead, along e8 and f7, right past A1 (e7), who has no defender
    # beside him; B2 marks the throw and is beaten. A1 may not Continue it.
    state = open_lane({"A5": "g5"}, continues="one-die", all_stars=True)
    play(state, "3d6=7", "throw A2 d11", "monster stay", "2d6=5", "continue A3", "1d6=4")
    events = play(state, "throw A5 f6", "monster stay", "3d6=3")
    assert "Continued" not in kinds(events) and not isinstance(top(state), ContinueChoice)
    # Without the kit A1 is an ordinary player: he may receive it, or Continue it.
    plain = open_lane({"A5": "g5"}, continues="one-die")
    play(plain, "3d6=7", "throw A2 d11", "2d6=5", "continue A3", "1d6=4")
    assert any(a.startswith("throw A1") for a in legal(plain))
    play(plain, "throw A5 f6", "3d6=3")
    assert isinstance(top(plain), ContinueChoice) and "continue A1" in legal(plain)


def test_HM_TPIN_2_HM_R48_continues_use_half_the_team_pin() -> None:
    state = open_lane(continues="one-die", team_pins=True)
    play(state, "spin=10", "throw A2 d11", "spin=5", "continue A3")
    assert {a.notation() for a, _ in state.chance_outcomes()} == {f"spin={v}" for v in range(1, 19)}
    events = play(state, "spin=7")
    assert "Team A rolls 13 for the Continue." in texts(events)  # 9 + half of 7, rounded up


def test_HM_PRO_1_HM_R48_the_remaining_count_includes_the_throws_strategy_result() -> None:
    # A Huck doubles the throw to 20; at e9 (one space flown) 19 are left.
    state = open_lane(continues="one-die", strategy=True)
    play(state, "strategy", "light=huck", "3d6=10", "throw A2 d11", "roll", "2d6=5")
    events = play(state, "continue A3", "1d6=2")
    assert "Team A rolls 21 for the Continue." in texts(events)


# -- the Continue with The Rethrow ------------------------------------------------------------


def test_HM_PRO_3_HM_R49_a_rethrow_continue_rolls_3_dice_in_a_new_up_call() -> None:
    state = open_lane(continues="rethrow")
    play(state, "3d6=10", "throw A2 d11", "2d6=5", "continue A3")
    # HM-RETHROW-3: the other team may still play on.
    assert isinstance(top(state), ContinueOptOut) and state.current_player() == 1
    assert legal(state) == {"rethrow", "play on"}
    events = play(state, "rethrow")
    assert "UpCallStarted" in kinds(events) and state.up_calls == 2
    assert {a.notation() for a, _ in state.chance_outcomes()} >= {"3d6=3", "3d6=18"}
    events = play(state, "3d6=9")
    assert "Team A rolls 9 for the Continue." in texts(events)  # 3 fresh dice, nothing added
    assert state.holder == 2 and state.field.name(state.disc) == "e9"
    assert "MoveRolled" not in kinds(events)


def test_HM_PRO_3_HM_RETHROW_3_playing_on_makes_the_continue_a_completed_catch() -> None:
    state = open_lane(continues="rethrow")
    events = play(state, "3d6=10", "throw A2 d11", "2d6=5", "continue A3", "play on")
    assert "Team B plays on: teams move." in texts(events)
    assert "A3 catches the disc, unguarded." in texts(events)
    assert state.holder == 2 and isinstance(top(state), MoveRoll)


# -- the contested count ------------------------------------------------------------------------


def test_HM_PRO_2_HM_R50_the_coach_states_the_count_from_memory() -> None:
    state = open_lane(continues="one-die", contested_count=True)
    play(state, "3d6=10", "throw A2 d11", "2d6=5")
    assert {f"continue A3 {n}" for n in range(37)} | {"end"} == legal(state)
    with pytest.raises(IllegalActionError, match="state the remaining count"):
        state.check(SPEC.parse_action("continue A3"))
    events = play(state, "continue A3 9", "1d6=4")
    assert "Team A rolls 13 for the Continue." in texts(events)
    # No count to remember when a Rethrow Continue rolls 3 fresh dice.
    rethrow = open_lane(continues="rethrow", contested_count=True)
    play(rethrow, "3d6=10", "throw A2 d11", "2d6=5")
    assert legal(rethrow) == {"continue A3", "end"}


def test_HM_PRO_2_HM_R50_a_wrong_count_stops_the_disc_where_the_continue_took_it() -> None:
    state = open_lane(continues="one-die", contested_count=True)
    events = play(state, "3d6=10", "throw A2 d11", "2d6=5", "continue A3 8")
    assert (
        "A3's coach says the count is 8, but it is 9: a contested count, the disc stops "
        "where he took it." in texts(events)
    )
    # The Up Call ends there: A3 (acting on the disc) keeps it on e9; team moves follow.
    assert state.holder == 2 and state.field.name(state.disc) == "e9"
    assert "Caught" not in kinds(events) and isinstance(top(state), MoveRoll)
    assert state.score == [0, 0] and state.offense == 0


# -- Hot Hex ------------------------------------------------------------------------------------


def test_HM_KIT_1_HM_R51_hot_hex_fields_5_a_side_inside_a_hex_of_six_cones() -> None:
    state = SPEC.new_game(options(hot_hex=True))
    cones = {state.field.name(c) for c in range(state.field.size) if state.cones >> c & 1}
    centre = state.field.cell(4, 8)  # e9
    assert len(cones) == 6
    assert all(state.field.distance(centre, state.field.parse_cell(c)) == 2 for c in cones)
    # "one space between each point": no two cones side by side.
    cells = [state.field.parse_cell(c) for c in cones]
    assert min(state.field.distance(a, b) for a in cells for b in cells if a != b) == 2
    # Six cones round a 7-space (hex) or 9-space (square) scoring area on every field shape.
    for shape in ({"grid": "square"}, {"width": 11, "length": 12, "end_zone_depth": 1}):
        other = SPEC.new_game(options(hot_hex=True, **shape))  # type: ignore[arg-type]
        assert bin(other.hex_cones).count("1") == 6 and not other.hex_cones & other.hex_zone
        assert bin(other.hex_zone).count("1") == (9 if "grid" in shape else 7)
    play(state, *(f"place {c}3" for c in "abcde"))
    assert state.current_player() == 1  # five placed: B lines up
    play(state, *(f"place {c}15" for c in "abcde"), "disc f15")
    assert sum(1 for c in state.pos if c >= 0) == 10
    assert state.pos[5] == state.pos[6] == state.pos[12] == state.pos[13] == -1


def hex_throw(receiver_cell: str, **opts: object) -> HuckMonsterState:
    """A1 on e6 with the disc on e7; A2 waits at ``receiver_cell``; Hot Hex cones in place."""
    opt = options(hot_hex=True, strategy_dice=False, **opts)  # type: ignore[arg-type]
    state = position(
        {"A1": "e6", "A2": receiver_cell, "A6": None, "A7": None, "B6": None, "B7": None},
        disc="e7",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=opt,
        up_calls=1,
        cones=[],
    )
    state.cones = state.hex_cones
    return state


def test_HM_KIT_2_HM_R51_only_a_catch_inside_the_hex_scores_and_nobody_switches_ends() -> None:
    state = hex_throw("e9")  # e9 is the centre of the hex
    events = play(state, "3d6=6", "throw A2 e8")
    assert "Scored" in kinds(events) and state.score == [1, 0]
    assert state.north_team == 0 and state.offense == 1  # B receives; ends unchanged
    # A catch in the attacked end zone does not score in Hot Hex.
    deep = position(
        {"A1": "e11", "A2": "e15", "A6": None, "A7": None, "B6": None, "B7": None},
        disc="e12",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(hot_hex=True, strategy_dice=False),
        up_calls=1,
    )
    events = play(deep, "3d6=5", "throw A2 e14")
    assert "Caught" in kinds(events) and "Scored" not in kinds(events)


def test_HM_KIT_2_HM_R51_callahans_count_inside_the_hex() -> None:
    # B2 stands alone in the hex (e9) beside the path (e8, f9, f10, g11) and intercepts: a
    # Callahan, although the Pro option 'callahans' is off.
    state = hex_throw("g12", **{"throw_path": "straight"})
    state.move_player(8, state.field.parse_cell("e9"))
    events = play(state, "3d6=5", "throw A2 g11", "2d6=7")
    assert "CallahanScored" in kinds(events) and state.score == [0, 1]


def test_HM_KIT_3_HM_R52_one_offensive_player_inside_the_hex() -> None:
    opts = options(hot_hex=True)
    players = {"A1": "e6", "A2": "e9", "A3": "c7", "A6": None, "A7": None, "B6": None,
               "B7": None}  # fmt: skip
    state = position(players, stack=[TeamMoves("normal", 1, 2), Moving(0, 6)], opts=opts,
                     disc="e7", holder="A1")  # fmt: skip
    state.cones = state.hex_cones
    zone = {state.field.name(c) for c in range(state.field.size) if state.hex_zone >> c & 1}
    moves = legal(state)
    assert not any(m.startswith("A3-") and m.split("-")[1] in zone for m in moves)
    assert any(m.startswith("A2-") and m.split("-")[1] in zone for m in moves)  # he may shift
    with pytest.raises(IllegalActionError):
        play(state, "A3-d9")
    # Once A2 leaves, A3 may enter.
    play(state, "A2-e12")
    assert any(m.startswith("A3-") and m.split("-")[1] in zone for m in legal(state))


def test_HM_KIT_2_cones_block_and_pothole_and_hot_hex_do_not_mix() -> None:
    state = hex_throw("e9")
    cone = next(c for c in range(state.field.size) if state.cones >> c & 1)
    assert not state.open_spaces() >> cone & 1
    with pytest.raises(OptionsError, match="pick one"):
        options(hot_hex=True, potholes=True)


def test_HM_CONE_5_HM_R47_HM_R53_hot_hex_can_be_chosen_for_a_point_cone_push_cannot() -> None:
    state = SPEC.new_game(options(style_each_point=True))
    assert not any("cone" in a for a in legal(state))  # HM-R53: not a point's style
    play(state, "style hot-hex")
    assert bin(state.cones).count("1") == 6 and state.style == "hot-hex"
    play(state, *(f"place {c}3" for c in "abcde"))
    assert state.current_player() == 1


def test_HM_R19_HM_R20_a_halved_hammer_throw_falls_before_the_defender_it_passes_over() -> None:
    # Hammer over B3 (d10); B2's Footer (intercepting at e9) halves the 5 to 2: the count runs
    # out on B3's space, so the disc falls on the space before him (e9), never on a player.
    state = lane({"B3": "d10", "B1": "h5"}, strategy=True)
    play(state, "strategy", "light=hammer", "3d6=5", "throw A2 d11")
    events = play(state, "strategy", "dark=footer", "2d6=2")
    assert "The halved count runs out: the disc falls at e9; turnover." in texts(events)
    assert state.field.name(state.disc) == "e9"


# -- Cone Push ----------------------------------------------------------------------------------

ROW9 = [f"{c}9" for c in "abcdefg"]  # the 7 cones on the centre line


def cone_push(a1: str, b1: str, left: int, cones: list[str], **board: object) -> HuckMonsterState:
    """Team A to throw with ``left`` count; A1 and B1 the only players; A attacks north."""
    return position(
        {"A1": a1, "B1": b1},
        park=False,
        stack=[ConeTurn(0, "move"), ConeThrows(0, left)],
        opts=options(cone_push=True),
        up_calls=1,
        cones=cones,
        **board,
    )


def test_HM_KIT_4_HM_R53_HM_R54_cone_push_sets_up_7_cones_and_one_player_a_side() -> None:
    state = SPEC.new_game(options(cone_push=True))
    assert sorted(state.field.name(c) for c in range(state.field.size) if state.cones >> c & 1) == (
        sorted(ROW9)
    )
    # "Place one player anywhere in your end zone".
    assert legal(state) == {f"place {c}{r}" for c in "abcdefgh" for r in (1, 2, 3)}
    play(state, "place e1")
    assert legal(state) == {f"place {c}{r}" for c in "abcdefgh" for r in (15, 16, 17)}
    play(state, "place d17")
    assert state.current_player() == CHANCE and state.up_calls == 1  # A rolls 3 dice to throw
    assert state.disc == -1 and [p for p, c in enumerate(state.pos) if c >= 0] == [0, 7]
    with pytest.raises(OptionsError, match="match of its own"):
        options(cone_push=True, style_each_point=True)


def test_HM_KIT_5_HM_R54_a_throw_pays_the_flight_and_the_push_and_may_be_split() -> None:
    state = cone_push("e5", "d17", 12, ROW9)
    field = state.field
    e9, a1 = field.parse_cell("e9"), field.parse_cell("e5")
    flight = 1 + min(field.distance(a1, n) for n in field.neighbours[e9])
    ray = field.rays[e9][0]  # pushed straight along the first direction, 2 spaces
    target = field.name(ray[1])
    events = play(state, f"cone e9 {target}")
    pushed = next(e for e in events if type(e).__name__ == "ConePushed")
    assert pushed.cost == flight + 2 and pushed.left == 12 - flight - 2  # type: ignore[attr-defined]
    assert state.cones >> ray[1] & 1 and not state.cones >> e9 & 1
    # The rest of the count stays for another throw; 'end' passes to the 2-dice move.
    assert isinstance(top(state), ConeThrows) and top(state).left == 12 - flight - 2  # type: ignore[attr-defined]
    play(state, "end")
    assert {a.notation() for a, _ in state.chance_outcomes()} == {f"2d6={v}" for v in range(2, 13)}
    play(state, "2d6=4")
    assert isinstance(top(state), Moving) and top(state).left == 4  # type: ignore[attr-defined]
    # A push that costs more than the count left is refused.
    poor = cone_push("e5", "d17", 4, ROW9)
    with pytest.raises(IllegalActionError, match="no throw of 4"):
        play(poor, f"cone e9 {target}")


def test_HM_KIT_6_HM_R54_a_cone_in_the_end_zone_scores_and_goes_back_to_the_line() -> None:
    state = cone_push("e12", "a17", 10, ["e14"])
    field = state.field
    e14 = field.parse_cell("e14")
    into = next(ray for ray in field.rays[e14] if ray and field.coords(ray[0])[1] == 14)
    events = play(state, f"cone e14 {field.name(into[0])}")
    assert "Team A pushes a cone into the end zone! A 1 - B 0." in texts(events)
    assert state.score == [1, 0] and state.cones == 0
    # B defends that end zone: it puts the cone back on the centre line, then A throws on.
    assert state.current_player() == 1
    assert legal(state) == {f"cone {c}9" for c in "abcdefgh"}
    play(state, "cone c9")
    assert state.current_player() == 0 and isinstance(top(state), ConeThrows)


def test_HM_KIT_5_HM_KIT_6_HM_R54_cones_stack_and_the_fourth_cone_wins() -> None:
    state = cone_push("e12", "a17", 18, ["e14", "f14"], score=[2, 0])
    field = state.field
    # Push f14 one space onto e14 (a stack of 2), then the stack into the end zone: 2 cones.
    events = play(state, "cone f14 e14")
    assert state.cone_stacks == {field.parse_cell("e14"): 2}
    assert "stack" not in texts(events)[0]
    into = next(r for r in field.rays[field.parse_cell("e14")] if r and field.coords(r[0])[1] == 14)
    events = play(state, f"cone e14 {field.name(into[0])}")
    assert "Team A pushes 2 cones into the end zone! A 4 - B 0." in texts(events)
    assert state.winner == 0 and state.is_terminal()


@pytest.mark.parametrize("left", range(1, 13))
def test_HM_KIT_5_HM_R54_a_throw_never_spends_more_than_the_count_left(left: int) -> None:
    # "Players may split count into multiple throws per turn": a throw spends part of the
    # count, never more. A1 on e5 is 4 from the cone on e9 (3 to the space beside it, 1 onto
    # it), so with 4 or less left no push is possible; the count never goes negative.
    state = cone_push("e5", "d17", left, ["e9"])
    pushes = cone_pushes(state, 0, left)
    assert all(cost <= left for cost in pushes.values())
    field = state.field
    e9, e5 = field.parse_cell("e9"), field.parse_cell("e5")
    flight = 1 + min(field.distance(e5, n) for n in field.neighbours[e9])
    assert flight == 4
    assert bool(pushes) == (left > flight)
    for (_, cell), cost in pushes.items():
        probe = cone_push("e5", "d17", left, ["e9"])
        play(probe, f"cone e9 {field.name(cell)}")
        throws = [s.left for s in probe.stack if isinstance(s, ConeThrows)]
        assert throws == ([left - cost] if left > cost else [])  # (a score puts ConeBack on top)
        assert SPEC.from_position(probe.to_position()).to_position() == probe.to_position()


def test_HM_KIT_3_HM_R52_per_move_lets_one_player_in_per_team_move() -> None:
    # hex_limit=per-move, the card word for word: "Only one offensive players is allowed
    # inside the hex per team move": A2 already stands inside and A3 may still step in; once
    # A3 has, no third player may enter in this team move.
    opts = options(hot_hex=True, hex_limit="per-move")
    players = {"A1": "e6", "A2": "e9", "A3": "c7", "A4": "c6", "A6": None, "A7": None,
               "B6": None, "B7": None}  # fmt: skip
    state = position(players, stack=[TeamMoves("normal", 1, 2), Moving(0, 8)], opts=opts,
                     disc="e7", holder="A1")  # fmt: skip
    state.cones = state.hex_cones
    zone = {state.field.name(c) for c in range(state.field.size) if state.hex_zone >> c & 1}
    assert any(m.startswith("A3-") and m.split("-")[1] in zone for m in legal(state))
    play(state, "A3-d9")
    assert isinstance(top(state), Moving) and top(state).entered  # type: ignore[attr-defined]
    moves = legal(state)
    assert not any(m.startswith("A4-") and m.split("-")[1] in zone for m in moves)
    assert any(m.startswith("A2-") and m.split("-")[1] in zone for m in moves)  # may shift
    with pytest.raises(IllegalActionError):
        play(state, "A4-d8")


def test_HM_THROW_2_HM_R9_HM_PRO_1_steer_lets_the_handler_fly_the_disc_past_a_continue() -> None:
    # "The game disc moves one space at a time": with steer the Handler names each space.
    # The quietest path to d11 runs e9, d10; steering d8 c8 c9 c10 takes the disc past A3
    # (b9), who may then Continue it (HM-PRO-1).
    layout = {"A3": "b9", "B1": "h5", "B2": "h4", "B3": "h3"}
    state = position(
        {**LANE, **layout},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(steer=True, strategy_dice=False, continues="one-die"),
        up_calls=1,
    )
    play(state, "3d6=10", "throw A2 d11")
    assert legal(state) == {"via d8", "via e9", "via f7", "via f8", "via f9"}
    play(state, "via d8", "via c8")
    copy = SPEC.from_position(state.to_position())  # a position mid-steer loads
    assert legal(copy) == legal(state)
    with pytest.raises(IllegalActionError, match="cannot enter d8"):
        play(state, "via d8")  # never twice the same space
    events = play(state, "via c9", "via c10", "via d11")
    assert "The disc flies toward A2 at d11 (d8 c8 c9 c10 d11)." in texts(events)
    assert isinstance(top(state), ContinueChoice) and "continue A3" in legal(state)
    # Without steer the engine flies the quietest path, e9 d10, past nobody.
    plain = position(
        {**LANE, **layout},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(strategy_dice=False, continues="one-die"),
        up_calls=1,
    )
    events = play(plain, "3d6=10", "throw A2 d11")
    assert "The disc flies toward A2 at d11 (e9 d10 d11)." in texts(events)
