"""Huck + Monster, standard game: setting up, the pull, team moves and possession, four
coaches and the field (HM-SET, HM-PULL, HM-MOVE, HM-POSS, HM-4P, HM-R1 to HM-R7, HM-R28,
HM-R30 of docs/rules/huck-monster.md). Dice are scripted as chance actions ("3d6=10"), so each test
checks the exact outcome the rule demands.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from monsterball.core.errors import IllegalActionError
from monsterball.core.game import CHANCE
from monsterball.core.seating import Seating
from monsterball.games.huck_monster import HuckMonsterState
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.rules.moves import MoveRoll, Moving, TeamMoves
from monsterball.games.huck_monster.rules.point import PullLanding, SetUp
from monsterball.games.huck_monster.rules.upcall import UpCall
from monsterball.games.huck_monster.views.coaching import acting_coach
from tests.helpers.huck_monster import (
    SPEC,
    lane,
    legal,
    moving,
    name,
    options,
    play,
    position,
    texts,
    top,
)

# -- setting up ------------------------------------------------------------------------------


def test_HM_SET_1_HM_SET_2_HM_SET_7_HM_R2_teams_line_up_on_their_lines() -> None:
    state = SPEC.new_game(options())
    # HM-R3: A has the Huck bag, receives, and lines up first on its line (row 3: the south
    # end zone's row next to the field).
    assert state.current_player() == 0
    assert legal(state) == {f"place {c}3" for c in "abcdefgh"}
    play(state, *(f"place {c}3" for c in "abcdefg"))
    assert [name(state, f"A{i}") for i in range(1, 8)] == [f"{c}3" for c in "abcdefg"]
    # Then B lines up on the north line (row 15).
    assert state.current_player() == 1
    assert legal(state) == {f"place {c}15" for c in "abcdefgh"}
    with pytest.raises(IllegalActionError, match="not an open space on team B's line"):
        play(state, "place c14")


def test_HM_SET_3_the_disc_goes_on_the_open_defensive_line_space() -> None:
    state = SPEC.new_game(options())
    play(state, *(f"place {c}3" for c in "abcdefg"))
    play(state, *(f"place {c}15" for c in "abcdeg" + "h"))
    assert legal(state) == {"disc f15"}
    with pytest.raises(IllegalActionError, match="defensive line"):
        play(state, "disc h3")
    play(state, "disc f15")
    assert state.field.name(state.disc) == "f15"
    assert state.current_player() == CHANCE


@pytest.mark.parametrize(("choice", "offense"), [("A", 0), ("B", 1)])
def test_HM_SET_5_HM_R3_the_huck_bag_starts_on_offense(choice: str, offense: int) -> None:
    state = SPEC.new_game(options(first_offense=choice))
    assert state.offense == offense
    assert state.current_player() == offense  # the offense lines up first
    tossed = SPEC.new_game(options(first_offense="toss"))
    assert tossed.current_player() == CHANCE
    assert [(a.notation(), p) for a, p in tossed.chance_outcomes()] == [
        ("toss=A", Fraction(1, 2)),
        ("toss=B", Fraction(1, 2)),
    ]
    play(tossed, "toss=B")
    assert tossed.offense == 1 and tossed.north_team == 1


# -- the pull --------------------------------------------------------------------------------


def lined_up(**opts: object) -> HuckMonsterState:
    state = SPEC.new_game(options(**opts))  # type: ignore[arg-type]
    play(state, *(f"place {c}3" for c in "abcdefh"))  # A leaves g3 open
    play(state, *(f"place {c}15" for c in "abcefgh"), "disc d15")
    return state


def test_HM_PULL_1_the_pull_is_three_team_dice() -> None:
    state = lined_up()
    outcomes = dict((a.notation(), p) for a, p in state.chance_outcomes())
    assert len(outcomes) == 16 and sum(outcomes.values()) == 1
    assert outcomes["3d6=3"] == Fraction(1, 216) and outcomes["3d6=10"] == Fraction(27, 216)


def test_HM_PULL_2_HM_PULL_5_HM_R4_the_pull_travels_the_full_count_toward_the_offense() -> None:
    state = lined_up()
    play(state, "3d6=4")
    assert isinstance(top(state), PullLanding) and state.current_player() == 1
    landings = legal(state)
    # Four steps, each one row nearer A's end: every landing is on row 11 (15 - 4), and the
    # first step leaves from d15 (its resting space is not counted).
    assert landings and all(a.endswith("11") for a in landings)
    assert landings == {"pull b11", "pull c11", "pull d11", "pull e11", "pull f11"}
    with pytest.raises(IllegalActionError, match="full count"):
        play(state, "pull d12")
    events = play(state, "pull d11")
    assert texts(events)[0] == "Team B pulls 4: the disc lands on d11."


def test_HM_PULL_3_HM_PULL_4_the_pull_may_pass_the_line_and_stays_where_it_lands() -> None:
    state = lined_up()
    play(state, "3d6=14")  # from row 15 down to row 1: through A's line at its gap (g3)
    # HM-R4, "Disc must travel the full distance of the Throw count on the Pull": paths
    # through the gap travel all 14, so a path that meets A's wall may not stop in front of it.
    assert legal(state) == {"pull f1", "pull g1", "pull h1"}
    with pytest.raises(IllegalActionError, match="full count"):
        play(state, "pull d4")
    play(state, "pull g1")
    # HM-PULL-4: no catch roll; the disc lies there and team moves begin (offense first).
    assert state.field.name(state.disc) == "g1" and state.holder == -1
    assert isinstance(top(state), MoveRoll) and top(state).team == 0  # type: ignore[attr-defined]


def test_HM_PULL_6_HM_R4_a_pull_stops_at_the_back_line_or_a_wall() -> None:
    state = SPEC.new_game(options())
    play(state, *(f"place {c}3" for c in "abcdefg"))
    play(state, *(f"place {c}15" for c in "abcefgh"), "disc d15")
    play(state, "3d6=18")
    # A's line is full from a3 to g3: the only way through is h3, and paths through it run
    # on to the back line (row 1), 14 spaces: the most any path can travel of the 18. The
    # disc "cannot be thrown out of bounds", so it stops there; no path stops at the wall.
    assert legal(state) == {"pull g1", "pull h1"}


def test_HM_R4_a_pull_that_no_path_can_run_in_full_goes_as_far_as_it_can() -> None:
    # A wall of players across row 6: no path can travel 12 from d15, so the disc goes as far
    # as any path can (row 7, 8 spaces) and only the ends of those longest paths are landings.
    wall = {f"A{i + 1}": f"{c}6" for i, c in enumerate("abcdefg")} | {"B1": "h6"}
    state = position(wall, disc="d15", stack=[PullLanding(12)])
    assert legal(state) == {f"pull {c}7" for c in "abcdefgh"}
    state = position(wall, disc="d15", stack=[PullLanding(5)])
    assert legal(state) == {f"pull {c}10" for c in "abcdef"}  # a count that can be run: in full


# -- team moves and possession -----------------------------------------------------------------


def test_HM_MOVE_1_offense_rolls_and_moves_first_then_defense() -> None:
    state = position(
        {"A1": "e7", "B1": "h10"},
        disc="e8",
        holder="A1",
        stack=[TeamMoves("normal", 1, 0)],
    )
    assert isinstance(top(state), MoveRoll) and top(state).team == 0  # type: ignore[attr-defined]
    play(state, "3d6=5", "end")
    assert isinstance(top(state), MoveRoll) and top(state).team == 1  # type: ignore[attr-defined]
    play(state, "3d6=7", "end")
    assert isinstance(state.stack[-2], UpCall)  # the Up Call follows both moves


def test_HM_MOVE_2_HM_R5_the_count_is_split_and_may_be_left_unused() -> None:
    state = moving({"A1": "e7", "A2": "b5"}, 0, 10, disc="e8", holder="A1")
    events = play(state, "A2-b8")
    assert texts(events) == ["A2 moves 3 spaces to b8 (7 left to move)."]
    play(state, "A3-c4")  # A3 from c1: 3 spaces
    play(state, "A2-b9")  # a player may move again
    assert top(state) == Moving(0, 3)
    events = play(state, "end")  # HM-R5: ending early is allowed
    assert texts(events)[0] == "Team A ends its move, 3 unused."


def test_HM_MOVE_3_players_never_move_through_players_or_the_disc() -> None:
    # B1 on d8 is walled in by the disc (e8), A1 (e7) and four B players.
    wall = {"A1": "e7", "B1": "d8", "B2": "e9", "B3": "d7", "B4": "c8", "B5": "d9"}
    state = moving(wall, 1, 6, disc="e8", holder="A1")
    assert not any(a.startswith("B1-") for a in legal(state))
    with pytest.raises(IllegalActionError, match="cannot reach"):
        play(state, "B1-e10")
    with pytest.raises(IllegalActionError, match="cannot reach"):
        play(state, "B2-e8")  # onto the disc


def test_HM_MOVE_4_the_handler_and_the_disc_do_not_move() -> None:
    state = moving({"A1": "e7"}, 0, 8, disc="e8", holder="A1")
    assert not any(a.startswith("A1-") for a in legal(state))
    with pytest.raises(IllegalActionError, match="in possession"):
        play(state, "A1-e6")


def loose(players: dict[str, str | None], left: int, **opts: object) -> HuckMonsterState:
    return position(
        players,
        disc="e10",
        stack=[TeamMoves("loose", 1, 1), Moving(0, left)],
        opts=options(**opts),  # type: ignore[arg-type]
    )


def test_HM_POSS_1_HM_R6_the_offense_must_chase_the_loose_disc() -> None:
    state = loose({"A1": "e6", "A2": "b5"}, 4)
    # A1 can reach a space next to e10 with 4: only such moves are legal, and no 'end'.
    assert legal(state) == {"A1-e9", "A1-f9", "A1-d10", "A1-f10"}
    with pytest.raises(IllegalActionError, match="next to the loose disc"):
        play(state, "A2-b6")
    with pytest.raises(IllegalActionError, match="cannot end yet"):
        play(state, "end")
    far = loose({"A1": "e4", "A2": "b3"}, 3)
    # Nobody can reach the disc: the moves that end closest (A1 to row 7) are the only ones.
    assert legal(far) and all(a.startswith("A1-") and a.endswith("7") for a in legal(far))
    free = loose({"A1": "e6", "A2": "b5"}, 4, pickup="free")
    assert "A2-b6" in legal(free) and "end" in legal(free)


def test_HM_POSS_2_HM_R30_a_player_next_to_the_loose_disc_takes_possession() -> None:
    state = loose({"A1": "e6", "A2": "b5"}, 6)
    events = play(state, "A1-e9")
    assert state.holder == 0 and "A1 takes possession of the disc." in texts(events)
    assert "A2-b6" in legal(state)  # once claimed, the rest of the count is free
    # A pull landing next to two receivers: the lowest number takes it.
    pulled = position(
        {"A3": "d9", "A2": "f10"},
        disc="d15",
        stack=[PullLanding(5)],
        offense="A",
    )
    play(pulled, "pull e10")
    assert pulled.holder == 1  # A2 (index 1) before A3


def test_HM_POSS_3_an_unclaimed_pull_means_a_second_round_of_moves() -> None:
    state = position({"A1": "e3"}, disc="e12", stack=[TeamMoves("loose", 1, 0)])
    play(state, "3d6=3", *[a for a in ["A1-e6"]], "3d6=3", "end")
    assert state.holder == -1
    assert isinstance(top(state), MoveRoll) and top(state).team == 0  # type: ignore[attr-defined]
    assert state.stack[-2] == TeamMoves("loose", 2, 1)


def test_HM_POSS_4_HM_R7_no_possession_after_the_second_move_restarts_the_point() -> None:
    state = position({"A1": "e3"}, disc="e14", stack=[TeamMoves("loose", 2, 0)])
    events = play(state, "3d6=3", "A1-e6")
    assert isinstance(events[-1], ev.PointStarted) and events[-1].restart
    assert all(c == -1 for c in state.pos)  # both teams line up again
    assert state.offense == 0 and state.current_player() == 0
    assert isinstance(top(state), SetUp)


# -- four coaches ------------------------------------------------------------------------------

SEATING = Seating.of(["ann", "amy"], ["bob", "ben"])


def test_HM_4P_1_HM_4P_2_HM_4P_3_HM_R28_coaches_rotate_as_the_rulebook_says() -> None:
    state = lane(strategy=True)
    assert acting_coach(state, SEATING) == "ann"  # the starting offensive coach throws
    play(state, "roll", "3d6=10", "throw A2 d11")
    seen = [acting_coach(state, SEATING)]  # B1's Mark: the defensive co-coach
    play(state, "roll", "3d6=5")
    seen.append(acting_coach(state, SEATING))  # B2: the other defensive coach
    play(state, "roll", "2d6=3")
    seen.append(acting_coach(state, SEATING))  # B3
    play(state, "roll", "2d6=3")
    seen.append(acting_coach(state, SEATING))  # the catch: the offensive co-coach
    assert seen == ["ben", "bob", "ben", "amy"]
    play(state, "roll", "3d6=12", "roll", "3d6=3", "roll", "2d6=3", "3d6=3")
    assert acting_coach(state, SEATING) == "amy"  # the catcher's coach moves and throws next


def test_HM_4P_4_the_coach_who_wins_a_bid_acts_for_the_new_offense() -> None:
    state = lane(strategy=True)
    play(state, "roll", "3d6=10", "throw A2 d11", "roll", "3d6=5", "roll", "2d6=12")
    assert state.offense == 1
    assert acting_coach(state, SEATING) == "bob"  # B2's coach rolls B's team move


def test_HM_R28_every_action_rotation_switches_at_each_team_action() -> None:
    state = lane(strategy=True, coach_rotation="every-action")
    first = acting_coach(state, SEATING)
    play(state, "roll", "3d6=10", "throw A2 d11", "roll", "3d6=11")
    # B1's winning bid was one B action; B's team move is the next.
    assert state.offense == 1
    assert acting_coach(state, SEATING) == "bob"
    assert first == "ann"


# -- the field ---------------------------------------------------------------------------------


def test_HM_R1_the_field_is_an_8_by_17_hex_field_with_3_row_end_zones() -> None:
    state = SPEC.new_game(options())
    field = state.field
    assert (field.kind, field.width, field.height) == ("hex", 8, 17)
    assert len(field.neighbours[field.parse_cell("e9")]) == 6
    south, north = state.end_zone(0), state.end_zone(1)
    assert bin(south).count("1") == bin(north).count("1") == 3 * 8
    assert state.line_row(0) == 2 and state.line_row(1) == 14  # rows 3 and 15
    square = SPEC.new_game(options(grid="square", width=10, length=21, end_zone_depth=4))
    assert square.field.kind == "square" and len(square.field.neighbours[55]) == 8
    assert square.line_row(0) == 3
    with pytest.raises(Exception, match="too little field"):
        options(length=11, end_zone_depth=4)
    with pytest.raises(Exception, match="at least 8"):
        options(width=7)


def test_HM_MOVE_2_HM_R5_full_moves_spends_the_whole_count() -> None:
    # "Players move individually until the full move count has been distributed": with
    # full_moves the team may not end with count left while a player can still move.
    state = moving({"A1": "e7", "A2": "b5"}, 0, 4, disc="e8", holder="A1",
                   opts=options(full_moves=True))  # fmt: skip
    assert "end" not in legal(state)
    with pytest.raises(IllegalActionError, match="4 of the move count is left"):
        play(state, "end")
    play(state, "A2-b8")
    assert top(state) == Moving(0, 1) and "end" not in legal(state)
    play(state, "A2-b9")  # 3 + 1: the whole count, and the move is over
    assert not isinstance(top(state), Moving)
