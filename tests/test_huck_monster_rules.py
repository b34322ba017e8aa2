"""Huck + Monster, standard game: one scenario test (or more) per rule id and ruling in
docs/rules/huck-monster.md. Dice are scripted as chance actions ("3d6=10"), so each test
checks the exact outcome the rule demands."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hm_scenarios import (
    LANE,
    SPEC,
    bids,
    kinds,
    lane,
    legal,
    name,
    neighbours,
    options,
    play,
    position,
    texts,
    top,
)
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import CHANCE
from monsterball.core.seating import Seating
from monsterball.games.huck_monster import HuckMonsterState
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.coaching import acting_coach
from monsterball.games.huck_monster.procedures.bid import Bid
from monsterball.games.huck_monster.procedures.moves import MoveRoll, Moving, TeamMoves
from monsterball.games.huck_monster.procedures.point import PullLanding, SetUp
from monsterball.games.huck_monster.procedures.upcall import OffenseAction, UpCall

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


def moving(
    players: dict[str, str | None], team: int, left: int, **board: object
) -> HuckMonsterState:
    return position(players, stack=[TeamMoves("normal", 1, 2), Moving(team, left)], **board)


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
    assert texts(events) == ["A2 moves 3 to b8 (7 left)."]
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


# -- the Up Call -------------------------------------------------------------------------------

ALL_BEATEN = ("3d6=9", "2d6=5", "2d6=6", "3d6=12", "3d6=11", "2d6=8")


def test_HM_UP_1_HM_TO_5_the_up_call_runs_from_throw_to_catch_then_teams_move() -> None:
    state = lane()
    events = play(state, "3d6=10", "throw A2 d11", *ALL_BEATEN)
    assert kinds(events)[-1] == "Caught" and state.holder == 1
    assert state.up_calls == 1 and state.action == ""
    assert isinstance(top(state), MoveRoll) and top(state).team == 0  # type: ignore[attr-defined]


def test_HM_UP_2_HM_UP_3_each_position_rolls_its_dice() -> None:
    state = lane()
    sizes = []
    script = ["3d6=10", "throw A2 d11", *ALL_BEATEN]
    for action in script:
        if state.current_player() == CHANCE:
            label = state.chance_outcomes()[0][0].notation().split("=")[0]
            step = top(state)
            role = step.role if isinstance(step, Bid) else step.kind  # type: ignore[attr-defined]
            sizes.append((role, label))
        play(state, action)
    assert sizes == [
        ("throw", "3d6"),
        ("mark", "3d6"),
        ("intercept", "2d6"),
        ("intercept", "2d6"),
        ("catch", "3d6"),
        ("catch-mark", "3d6"),
        ("challenge", "2d6"),
    ]


def test_HM_UP_4_HM_MARK_4_no_moves_in_the_up_call_and_no_throws_over_players() -> None:
    state = lane({"B3": "d10", "A3": "f11"})  # B3 now stands on the lane itself
    play(state, "3d6=10")
    assert "throw A3 f10" in legal(state)
    assert "throw A2 d11" not in legal(state)  # the NW ray is blocked at d10
    with pytest.raises(IllegalActionError, match="cannot reach d11"):
        play(state, "throw A2 d11")
    assert not any(isinstance(step, Moving) for step in state.stack)


def test_HM_THROW_1_the_handler_rolls_three_dice_with_or_without_strategy() -> None:
    state = lane(strategy=True)
    assert state.current_player() == 0 and legal(state) == {"roll", "strategy"}
    play(state, "roll")
    assert next(a.notation() for a, _ in state.chance_outcomes()) == "3d6=3"


def test_HM_THROW_2_HM_R10_the_disc_stops_next_to_the_receiver_within_the_count() -> None:
    state = position(
        {"A1": "e7", "A2": "e12"},
        disc="e8",
        holder="A1",
        stack=[UpCall("start")],
        opts=options(strategy_dice=False),
    )
    play(state, "3d6=3")
    # With 3 the disc reaches e11 (3 spaces) but not the spaces 4 away next to A2.
    assert "throw A2 e11" in legal(state) and "throw A2 e13" not in legal(state)
    with pytest.raises(IllegalActionError, match="count of 3"):
        play(state, "throw A2 f12")
    with pytest.raises(IllegalActionError, match="cannot receive"):
        play(state, "throw A1 d8")
    # A Receiver next to the disc still needs it to move at least one space.
    near = position(
        {"A1": "e7", "A2": "d8"},
        disc="e8",
        holder="A1",
        stack=[UpCall("start")],
        opts=options(strategy_dice=False),
    )
    play(near, "3d6=3")
    assert "throw A2 e8" not in legal(near)
    assert {"throw A2 e9", "throw A2 d9"} <= legal(near)


def test_HM_THROW_3_HM_TO_4_HM_R8_a_stall_is_a_turnover_the_defense_must_claim() -> None:
    state = position(
        {"A1": "e7", "A2": "e14", "B1": "b8", "B2": "h12"},
        disc="e8",
        holder="A1",
        stack=[UpCall("start")],
        opts=options(strategy_dice=False),
    )
    # A3..A7 wait on row 1: with a throw of 3 nobody is in range.
    events = play(state, "3d6=3")
    assert "Stall: no Receiver within the Throw count (count 3); turnover." in texts(events)
    assert state.offense == 1 and state.holder == -1
    # The new offense (B) rolls and moves first, and must chase the disc (HM-R6).
    play(state, "3d6=6")
    ring = neighbours(state, "e8")
    assert legal(state) and all(a.split("-")[1] in ring for a in legal(state))
    play(state, "B1-d8")
    assert state.holder == 7  # B1 next to the disc takes it


def test_HM_R8_if_the_new_offense_cannot_reach_a_stalled_disc_its_nearest_player_takes_it() -> None:
    state = position(
        {"A1": "e7", "B1": "a14", "B2": "h16"},
        disc="e8",
        offense="B",
        stack=[TeamMoves("stall", 1, 0)],
        opts=options(pickup="free"),
    )
    disc = state.disc
    play(state, "3d6=3", "B1-a11")
    # Still nobody next to the disc: B1 (a11) is nearer than B2 (h16) and takes it.
    assert state.field.distance(disc, state.pos[7]) < state.field.distance(disc, state.pos[8])
    assert state.holder == 7
    assert state.adjacent(state.disc) >> state.pos[7] & 1
    assert isinstance(top(state), MoveRoll) and top(state).team == 0  # type: ignore[attr-defined]


def test_HM_MARK_1_the_mark_bids_first_and_a_higher_bid_turns_it_over() -> None:
    state = lane()
    events = play(state, "3d6=10", "throw A2 d11", "3d6=11")
    assert bids(events) == [("B1", "mark", True)]
    assert state.offense == 1 and state.holder == 7  # B1 is the new Handler
    assert state.field.name(state.disc) == "e8"  # the disc never left the Handler's side


def test_HM_MARK_2_an_unguarded_handler_throws_without_a_mark_bid() -> None:
    state = lane({"B1": "h5"})
    events = play(state, "3d6=10", "throw A2 d11", "2d6=5")
    assert bids(events) == [("B2", "intercept", False)]


def test_HM_MARK_3_HM_R26_only_one_defender_may_stand_next_to_the_handlers_disc() -> None:
    state = moving({"A1": "e7", "B1": "f8", "B2": "d10"}, 1, 5, disc="e8", holder="A1")
    ring = neighbours(state, "e8")
    assert not any(a.split("-")[1] in ring for a in legal(state) if a.startswith("B2-"))
    with pytest.raises(IllegalActionError, match="only one defender"):
        play(state, "B2-d8")
    # Two defenders already there (after a catch): the defense must first move one away.
    crowded = moving({"A1": "e7", "B1": "f8", "B2": "d8"}, 1, 5, disc="e8", holder="A1")
    options_now = legal(crowded)
    assert "end" not in options_now
    assert options_now and all(
        a.split("-")[0] in ("B1", "B2") and a.split("-")[1] not in ring for a in options_now
    )
    play(crowded, "B2-c8")
    assert "end" in legal(crowded)


def test_HM_INT_1_HM_INT_3_HM_R11_every_defender_next_to_the_path_bids_in_path_order() -> None:
    state = lane({"B6": "c10"})  # c10 is next to d10 on the path ... and next to d11: it waits
    events = play(state, "3d6=10", "throw A2 d11", "3d6=9", "2d6=5", "2d6=6", "3d6=12")
    assert bids(events) == [
        ("B1", "mark", False),
        ("B2", "intercept", False),
        ("B3", "intercept", False),
    ]
    events = play(state, "3d6=11", "3d6=4", "2d6=8")
    # At the catch: Marks (B4, then B6 who waited for the catch), then the Challenge.
    assert bids(events) == [
        ("B4", "catch-mark", False),
        ("B6", "catch-mark", False),
        ("B5", "challenge", False),
    ]


def test_HM_INT_2_a_beaten_intercept_leaves_the_throw_count_unchanged() -> None:
    state = lane()
    events = play(state, "3d6=10", "throw A2 d11", "3d6=9", "2d6=10", "2d6=11")
    decided = [e for e in events if isinstance(e, ev.BidDecided)]
    assert [d.offense for d in decided] == [10, 10, 10]
    assert decided[-1].defense_wins  # 11 beats the same 10
    assert state.holder == 9 and state.field.name(state.disc) == "e9"  # HM-TO-3


def test_HM_TO_3_an_intercept_takes_the_disc_where_it_was_stopped() -> None:
    state = lane()
    events = play(state, "3d6=6", "throw A2 d11", "3d6=5", "2d6=7")
    assert bids(events)[-1] == ("B2", "intercept", True)
    assert state.offense == 1 and state.holder == 8
    assert state.field.name(state.disc) == "e9"
    assert "TurnedOver" in kinds(events)


def test_HM_CATCH_1_HM_CATCH_3_HM_CATCH_4_a_guarded_catch_must_beat_every_guard() -> None:
    state = lane({"B1": "h5", "B2": "h4", "B3": "h3"})  # only the catch is guarded
    events = play(state, "3d6=10", "throw A2 d11", "3d6=11", "3d6=11")
    # 11 against 11: the Mark at the catch does not beat it (HM-R12); the Challenge rolls on.
    assert bids(events) == [("B4", "catch-mark", False)]
    events = play(state, "2d6=12")  # the Challenge beats the catch
    assert bids(events) == [("B5", "challenge", True)]
    assert state.offense == 1 and state.holder == 11


def test_HM_CATCH_2_an_unguarded_receiver_catches_without_a_roll() -> None:
    state = lane({"B1": "h5", "B2": "h4", "B3": "h3", "B4": "a5", "B5": "b5"})
    events = play(state, "3d6=10", "throw A2 d11")
    assert kinds(events)[-1] == "Caught" and "unguarded" in texts(events)[-1]
    assert state.holder == 1 and state.field.name(state.disc) == "d11"


def test_HM_CHAL_1_HM_CHAL_2_HM_R14_a_challenge_bids_two_dice_alone_and_takes_the_disc() -> None:
    state = lane({"B1": "h5", "B2": "h4", "B3": "h3", "B4": "a5", "B6": "e12"})
    # e12 is next to the Receiver (d12) but not the disc's stop (d11): a Challenge too.
    events = play(state, "3d6=10", "throw A2 d11", "3d6=9", "2d6=8")
    assert bids(events) == [("B5", "challenge", False)]
    events = play(state, "2d6=10")
    assert bids(events) == [("B6", "challenge", True)]
    # HM-R14: the Challenge stands next to the Receiver, so the disc moves next to him.
    assert state.holder == 12
    assert state.adjacent(state.disc) >> state.pos[12] & 1
    assert "DiscMoved" in kinds(events)


@pytest.mark.parametrize(("ties", "defense_wins"), [("offense", False), ("defense", True)])
def test_HM_TIE_1_HM_R12_ties_go_to_the_offense_by_default(ties: str, defense_wins: bool) -> None:
    state = lane(ties=ties)
    events = play(state, "3d6=10", "throw A2 d11", "3d6=10")
    assert bids(events) == [("B1", "mark", defense_wins)]


def test_HM_TO_1_HM_TO_2_the_winning_defender_becomes_the_handler_and_teams_move() -> None:
    state = lane()
    events = play(state, "3d6=10", "throw A2 d11", *ALL_BEATEN[:3], "3d6=7", "3d6=8")
    assert bids(events)[-1] == ("B4", "catch-mark", True)
    assert state.offense == 1 and state.holder == 10
    assert isinstance(top(state), MoveRoll) and top(state).team == 1  # type: ignore[attr-defined]


def test_HM_R13_bids_are_automatic_when_no_strategy_die_is_left() -> None:
    state = lane(strategy=True, used=(False, True))
    play(state, "roll", "3d6=10", "throw A2 d11")
    assert state.current_player() == CHANCE  # B1's Mark rolls with no decision to make
    fresh = lane(strategy=True)
    play(fresh, "roll", "3d6=10", "throw A2 d11")
    assert fresh.current_player() == 1 and legal(fresh) == {"roll", "strategy"}


def test_HM_R9_the_disc_takes_the_path_past_the_fewest_defenders() -> None:
    state = position(
        {"A1": "e7", "A2": "e12", "B1": "d9"},
        disc="e8",
        holder="A1",
        stack=[UpCall("start")],
        opts=options(strategy_dice=False),
    )
    events = play(state, "3d6=10", "throw A2 e11")
    path = next(e for e in events if isinstance(e, ev.Thrown)).path
    assert len(path) == 3 and path[-1] == "e11"
    near_b1 = neighbours(state, "d9")
    assert not set(path[:-1]) & near_b1  # the route avoids B1 (d9): no Intercept at all
    assert kinds(events)[-1] == "Caught"
    straight = position(
        {"A1": "e7", "A2": "e12", "B1": "d9"},
        disc="e8",
        holder="A1",
        stack=[UpCall("start")],
        opts=options(strategy_dice=False, throw_path="straight"),
    )
    play(straight, "3d6=10")
    assert "throw A2 e11" not in legal(straight)  # e11 is not on a straight line from e8


# -- end zone, points and the game ---------------------------------------------------------------


def scoring_throw(receiver_cell: str, **board: object) -> HuckMonsterState:
    """A1 on e11 with the disc on e12; A2 waits at ``receiver_cell``; no defenders near."""
    return position(
        {"A1": "e11", "A2": receiver_cell},
        disc="e12",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(strategy_dice=False, **board.pop("opts", {})),  # type: ignore[arg-type]
        up_calls=1,
        **board,
    )


def test_HM_END_1_HM_END_2_HM_END_5_a_catch_in_the_end_zone_scores_and_teams_switch() -> None:
    state = scoring_throw("e15")  # e15 is on B's line: inside the north end zone
    events = play(state, "3d6=5", "throw A2 e14")  # the disc stops outside, on e14
    assert "Scored" in kinds(events) and state.score == [1, 0]
    # HM-END-5: A stays at the north end and pulls; B receives and now attacks north.
    assert state.north_team == 1 and state.offense == 1
    assert isinstance(top(state), SetUp) and top(state).team == 1  # type: ignore[attr-defined]
    assert state.current_player() == 1 and all(c == -1 for c in state.pos)
    # HM-END-2: a receiver outside the end zone does not score, even with the disc inside.
    short = scoring_throw("d14")
    events = play(short, "3d6=5", "throw A2 d15")
    assert "Caught" in kinds(events) and "Scored" not in kinds(events)
    assert short.score == [0, 0] and short.field.name(short.disc) == "d15"


def test_HM_END_3_HM_R27_short_games_are_won_by_two() -> None:
    tied = scoring_throw("e15", opts={"points_to_win": 3, "win_by": 2}, score=[2, 2])
    play(tied, "3d6=5", "throw A2 e14")
    assert tied.score == [3, 2] and not tied.is_terminal()
    ahead = scoring_throw("e15", opts={"points_to_win": 3, "win_by": 2}, score=[3, 2])
    events = play(ahead, "3d6=5", "throw A2 e14")
    assert ahead.is_terminal() and ahead.winner == 0 and ahead.returns() == (1.0, -1.0)
    assert texts(events)[-1] == "Game over: team A wins, A 4 - B 2."
    regulation = scoring_throw("e15", score=[6, 6])
    play(regulation, "3d6=5", "throw A2 e14")
    assert regulation.is_terminal() and regulation.result_text() == "team A wins, A 7 - B 6"


def test_HM_END_4_HM_R15_an_end_zone_turnover_moves_handler_and_disc_to_the_line() -> None:
    state = position(
        {"A1": "e17", "A2": "e10", "B1": "d16", "B5": "a9", "B6": "b9", "B7": "c9"},
        disc="e16",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(strategy_dice=False),
        up_calls=1,
    )
    events = play(state, "3d6=10", "throw A2 e11", "3d6=12")
    assert bids(events) == [("B1", "mark", True)]
    # B1 (d16) moves to the nearest open line space (d15 before e15), the disc beside him.
    assert name(state, "B1") == "d15" and state.field.name(state.disc) == "c15"
    assert state.holder == 7 and "DiscMoved" in kinds(events)


def test_HM_R31_a_capped_game_ends_on_the_score() -> None:
    state = position(
        {"A1": "e7"},
        disc="e8",
        holder="A1",
        stack=[TeamMoves("normal", 1, 2)],
        opts=options(max_up_calls=5),
        up_calls=5,
        score=[2, 1],
    )
    assert state.is_terminal() and state.winner == 0
    level = position(
        {"A1": "e7"},
        disc="e8",
        holder="A1",
        stack=[TeamMoves("normal", 1, 2)],
        opts=options(max_up_calls=5),
        up_calls=5,
        score=[1, 1],
    )
    assert level.is_terminal() and level.result_text() == "draw, A 1 - B 1"
    assert level.returns() == (0.0, 0.0)


# -- strategy dice -----------------------------------------------------------------------------


def faces(state: HuckMonsterState) -> list[str]:
    return [a.notation() for a, _ in state.chance_outcomes()]


def test_HM_SD_1_HM_SD_5_HM_R16_HM_R29_one_strategy_die_per_team_per_up_call() -> None:
    state = lane(strategy=True)
    play(state, "strategy", "light=break", "3d6=10", "throw A2 d11")
    # HM-SD-7 Break: B1's Mark may not bid, but the defense may still try its die (HM-R21).
    assert legal(state) == {"roll", "strategy"}  # HM-SD-5: the defense chooses for itself
    play(state, "roll")  # a plain roll cannot bid against Break
    assert legal(state) == {"roll", "strategy"}  # B2's Intercept
    play(state, "strategy", "dark=footer", "2d6=3", "2d6=4")  # B3: no die left, rolls at once
    # The offense used its die on the throw: the catch roll is automatic.
    assert state.current_player() == CHANCE and isinstance(top(state), OffenseAction)
    play(state, "3d6=12", "3d6=4", "2d6=4")
    assert state.holder == 1 and state.strategy_used == [True, True]
    # HM-R16: no strategy on team moves; HM-R29: a new Up Call makes both dice available.
    play(state, "3d6=3", "end", "3d6=3", "end")
    assert state.strategy_used == [False, False] and legal(state) == {"roll", "strategy"}


def test_HM_SD_2_HM_SD_3_HM_R17_the_face_is_rolled_just_before_the_team_dice() -> None:
    state = lane(strategy=True)
    play(state, "strategy")
    assert faces(state) == [
        f"light={f}" for f in ("huck", "break", "strip", "layout", "hammer", "dump")
    ]
    assert all(p == Fraction(1, 6) for _, p in state.chance_outcomes())
    play(state, "light=layout")
    assert faces(state)[0] == "3d6=3"
    play(state, "3d6=10", "throw A2 d11", "strategy")
    assert faces(state) == [
        f"dark={f}" for f in ("monster", "poach", "hot-bid", "beat", "footer", "no-big")
    ]


def test_HM_SD_6_huck_doubles_the_throw_count() -> None:
    state = lane(strategy=True)
    play(state, "strategy", "light=huck", "3d6=6")
    events = play(state, "throw A2 d11", "roll", "3d6=11")
    assert [
        (d.offense, d.defense, d.defense_wins) for d in events if isinstance(d, ev.BidDecided)
    ] == [(12, 11, False)]


def test_HM_SD_7_break_stops_the_marks_but_not_the_challenges() -> None:
    state = lane({"B1": "h5", "B2": "h4", "B3": "h3"}, strategy=True, used=(False, True))
    events = play(state, "roll", "3d6=10", "throw A2 d11", "strategy", "light=break", "3d6=8")
    assert "BidPrevented" in kinds(events)  # B4, the Mark at the catch
    events = play(state, "2d6=9")
    assert bids(events) == [("B5", "challenge", True)]


def test_HM_SD_8_HM_R18_strip_keeps_or_rerolls_and_the_second_roll_stands() -> None:
    state = lane(strategy=True)
    play(state, "strategy", "light=strip", "3d6=4")
    assert legal(state) == {"keep", "reroll"}
    events = play(state, "reroll", "3d6=3")
    assert state.base == 3 and texts(events)[-1] == "Team A re-rolls 3 for the Throw."
    kept = lane(strategy=True)
    play(kept, "strategy", "light=strip", "3d6=14", "keep")
    assert kept.base == 14


def test_HM_SD_9_HM_R23_layout_clears_the_catch_and_is_spent_on_a_throw() -> None:
    state = lane({"B1": "h5", "B2": "h4", "B3": "h3"}, strategy=True, used=(False, True))
    events = play(state, "roll", "3d6=10", "throw A2 d11", "strategy", "light=layout", "3d6=5")
    assert [e.player for e in events if isinstance(e, ev.BidPrevented)] == [10, 11]
    assert state.holder == 1
    thrown = lane(strategy=True)
    events = play(thrown, "strategy", "light=layout")
    assert texts(events) == ["Team A rolls strategy: layout (no effect on this action)."]


def test_HM_SD_10_HM_R20_hammer_passes_over_one_defender_who_does_not_bid() -> None:
    state = lane({"B3": "d10", "B2": "h4"}, strategy=True, used=(False, True))
    play(state, "strategy", "light=hammer", "3d6=10")
    assert "throw A2 d11" in legal(state)  # over B3 on d10
    events = play(state, "throw A2 d11", "3d6=5")
    assert state.hammered == 9
    events += play(state, "3d6=12", "3d6=4", "2d6=4")
    assert [b[0] for b in bids(events)] == ["B1", "B4", "B5"]  # B3 never bids
    # On a catch, Hammer stops the first guard (the Mark at the catch, B4).
    catch = lane({"B1": "h5", "B2": "h4", "B3": "h3"}, strategy=True, used=(False, True))
    events = play(catch, "roll", "3d6=10", "throw A2 d11", "strategy", "light=hammer", "3d6=9")
    assert [e.player for e in events if isinstance(e, ev.BidPrevented)] == [10]


def test_HM_SD_11_HM_R23_a_dump_must_go_backward_or_it_is_a_turnover() -> None:
    state = position(
        {"A1": "e7", "A2": "d12", "A3": "c6"},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
    )
    play(state, "strategy", "light=dump", "3d6=10")
    # Only spaces on rows behind the disc (row 8) qualify.
    assert legal(state) and all(int(a.split()[-1][1:]) < 8 for a in legal(state))
    nothing = lane(strategy=True)
    events = play(nothing, "strategy", "light=dump", "3d6=4")
    assert "Stall: no Dump receiver behind the disc (count 4); turnover." in texts(events)


def test_HM_SD_12_HM_R22_monster_moves_one_defender_up_to_five_spaces() -> None:
    state = lane(strategy=True, used=(True, False))
    play(state, "3d6=10", "throw A2 d11", "strategy", "dark=monster")
    assert "monster stay" in legal(state)
    with pytest.raises(IllegalActionError, match="path"):
        play(state, "monster B5 d10")  # not onto the disc's path
    with pytest.raises(IllegalActionError, match="up to 5"):
        play(state, "monster B6 d12")  # B6 waits on a17: too far
    events = play(state, "monster B5 c10", "3d6=5", "2d6=2", "2d6=2", "3d6=12")
    assert "Monster! B5 moves to c10." in texts(events)
    events += play(state, "3d6=3", "3d6=4")
    # B5 now stands next to the disc's stop: it bids as a Mark at the catch, after B4.
    assert bids(events)[-2:] == [("B4", "catch-mark", False), ("B5", "catch-mark", False)]


def test_HM_SD_12_HM_R22_a_monster_who_moves_himself_bids_from_his_new_space() -> None:
    # "Roll team dice to take any appropriate player action once the designated Monster has
    # reached their destination field space" and a Mark "must be next to the game disc to
    # take an action": B1, the Mark, moves himself away from the disc.
    state = lane({"B3": "h5"}, strategy=True, used=(True, False))
    play(state, "3d6=10", "throw A2 d11", "strategy", "dark=monster", "monster B1 e10")
    # Beside the path (e9, d10), no longer beside the disc: an Intercept with 2 dice.
    assert [a.notation() for a, _ in state.chance_outcomes()][-1] == "2d6=12"
    events = play(state, "2d6=11")
    assert bids(events) == [("B1", "intercept", True)] and state.offense == 1
    away = lane({"B3": "h5"}, strategy=True, used=(True, False))
    events = play(away, "3d6=10", "throw A2 d11", "strategy", "dark=monster", "monster B1 h9")
    # Nowhere near the disc, its path or the Receiver: no bid at all.
    assert "B1 cannot bid (Mark): no action from his new space." in texts(events)
    events = play(away, "2d6=2", "3d6=12", "3d6=3", "2d6=2")
    assert [b[0] for b in bids(events)] == ["B2", "B4", "B5"]


def test_HM_SD_13_HM_R24_a_winning_poach_rethrows_at_once() -> None:
    state = lane(strategy=True, used=(True, False))
    events = play(state, "3d6=10", "throw A2 d11", "strategy", "dark=poach", "3d6=11")
    assert bids(events) == [("B1", "mark", True)]
    assert "UpCallStarted" in kinds(events) and "MoveRolled" not in kinds(events)
    assert state.offense == 1 and state.holder == 7 and state.up_calls == 2
    assert legal(state) == {"roll", "strategy"}  # B's new throw
    lost = lane(strategy=True, used=(True, False))
    play(lost, "3d6=10", "throw A2 d11", "strategy", "dark=poach", "3d6=9")
    assert lost.poach is False and lost.offense == 0


def test_HM_SD_14_HM_R18_hot_bid_rerolls_the_defenders_dice() -> None:
    state = lane(strategy=True, used=(True, False))
    play(state, "3d6=10", "throw A2 d11", "strategy", "dark=hot-bid", "3d6=6")
    assert legal(state) == {"keep", "reroll"}
    events = play(state, "reroll", "3d6=12")
    assert bids(events) == [("B1", "mark", True)]


def test_HM_SD_14_HM_R18_hot_bid_both_lets_the_offense_reroll_too() -> None:
    # "Hot Bid: ... Offensive team may choose to re-roll team dice results. The action count of
    # second team dice roll must be applied": option hot_bid=both.
    state = lane(strategy=True, used=(True, False), hot_bid="both")
    play(state, "3d6=10", "throw A2 d11", "strategy", "dark=hot-bid", "3d6=6", "reroll", "3d6=12")
    assert state.current_player() == 0 and legal(state) == {"keep", "reroll"}
    events = play(state, "reroll", "3d6=13")
    assert "Team A re-rolls 13 for the Throw." in texts(events)
    assert bids(events) == [("B1", "mark", False)] and state.base == 13
    kept = lane(strategy=True, used=(True, False), hot_bid="both")
    play(kept, "3d6=10", "throw A2 d11", "strategy", "dark=hot-bid", "3d6=11", "keep")
    events = play(kept, "keep")  # the offense keeps its 10 too: the Mark's 11 wins
    assert bids(events) == [("B1", "mark", True)]
    # The default reading: only the defender re-rolls; no offensive choice follows.
    plain = lane(strategy=True, used=(True, False))
    play(plain, "3d6=10", "throw A2 d11", "strategy", "dark=hot-bid", "3d6=6", "reroll")
    assert bids(play(plain, "3d6=12")) == [("B1", "mark", True)]


def test_HM_SD_15_HM_R25_beat_sets_the_defense_to_zero_without_dice() -> None:
    state = lane(strategy=True, used=(True, False))
    events = play(state, "3d6=3", "throw A2 d11", "strategy", "dark=beat")
    decided = [e for e in events if isinstance(e, ev.BidDecided)]
    assert [(d.defense, d.defense_wins) for d in decided] == [(0, False)]
    assert "DiceRolled" not in kinds(events[-3:])


def test_HM_SD_16_HM_R19_footer_halves_the_offense_for_the_rest_of_the_action() -> None:
    state = lane(strategy=True, used=(True, False))
    events = play(state, "3d6=11", "throw A2 d11", "strategy", "dark=footer", "3d6=5", "2d6=5")
    decided = [e for e in events if isinstance(e, ev.BidDecided)]
    assert [(d.offense, d.defense_wins) for d in decided] == [(5, False), (5, False)]
    # A throw of 5 halved to 2 cannot cover the 3-space path: it falls short on d10.
    short = lane({"B1": "h5"}, strategy=True, used=(True, False))
    events = play(short, "3d6=5", "throw A2 d11", "strategy", "dark=footer", "2d6=2")
    assert "The halved count runs out: the disc falls at d10; turnover." in texts(events)
    assert short.offense == 1 and short.field.name(short.disc) == "d10"


def test_HM_SD_17_HM_R25_no_big_wins_a_mark_but_not_an_intercept() -> None:
    state = lane(strategy=True, used=(True, False))
    events = play(state, "3d6=18", "throw A2 d11", "strategy", "dark=no-big")
    assert bids(events) == [("B1", "mark", True)] and state.offense == 1
    other = lane({"B1": "h5"}, strategy=True, used=(True, False))
    play(other, "3d6=10", "throw A2 d11", "strategy", "dark=no-big")
    assert other.current_player() == CHANCE  # the Intercept still rolls its dice
    events = play(other, "2d6=12")
    assert bids(events) == [("B2", "intercept", True)]


def test_HM_SD_4_HM_R21_conflicting_results_cancel_in_their_matchup() -> None:
    state = lane(strategy=True)
    play(state, "strategy", "light=huck", "3d6=8", "throw A2 d11", "strategy", "dark=footer")
    events = play(state, "3d6=9")
    decided = [e for e in events if isinstance(e, ev.BidDecided)]
    assert [(d.offense, d.defense_wins, d.cancelled) for d in decided] == [(8, True, True)]
    # Break stops the Mark, whose No Big cancels it: the team dice decide.
    broken = lane(strategy=True)
    play(broken, "strategy", "light=break", "3d6=8", "throw A2 d11", "strategy", "dark=no-big")
    events = play(broken, "3d6=7")
    assert [
        (d.defense, d.defense_wins, d.cancelled) for d in events if isinstance(d, ev.BidDecided)
    ] == [(7, False, True)]


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


# -- Pro rules ---------------------------------------------------------------------------------


def pro_lane(players: dict[str, str | None], **opts: object) -> HuckMonsterState:
    return lane(players, **opts)


CALLAHAN = {"A1": "e12", "A2": "b16", "B1": "h10", "B2": "e15", "B3": "h9", "B4": "a9",
            "B5": "b9", "B6": "c9", "B7": "d9"}  # fmt: skip


def callahan_lane(extra: dict[str, str | None] | None = None, **opts: object) -> HuckMonsterState:
    # A attacks north: B defends rows 15-17. The disc on e13 flies the NW ray d14, d15 to stop
    # on c16 for A2 (b16); B2 stands on e15, inside B's end zone, beside d14 and d15.
    return position(
        {**CALLAHAN, **(extra or {})},
        disc="e13",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(throw_path="straight", strategy_dice=False, **opts),  # type: ignore[arg-type]
        up_calls=1,
    )


def test_HM_CALL_1_HM_CALL_3_HM_R32_an_uncontested_intercept_in_its_end_zone_scores() -> None:
    state = callahan_lane(callahans=True)
    events = play(state, "3d6=5", "throw A2 c16", "2d6=9")
    assert bids(events) == [("B2", "intercept", True)]
    assert "CallahanScored" in kinds(events) and state.score == [0, 1]
    # HM-R32: B pulls the next point from the end it defended: no switch of ends.
    assert state.north_team == 0 and state.offense == 0
    # Contested (A3 beside B2): an ordinary turnover.
    contested = callahan_lane({"A3": "e16"}, callahans=True)
    events = play(contested, "3d6=5", "throw A2 c16", "2d6=9")
    assert "CallahanScored" not in kinds(events) and contested.score == [0, 0]
    assert contested.offense == 1


def test_HM_CALL_2_without_the_option_an_end_zone_intercept_is_a_turnover() -> None:
    state = callahan_lane()
    play(state, "3d6=5", "throw A2 c16", "2d6=9")
    assert state.score == [0, 0] and state.offense == 1 and state.holder == 8


def test_HM_PIVOT_1_HM_PIVOT_2_HM_PIVOT_3_HM_R33_the_handler_pivots_before_the_defense() -> None:
    state = lane({"B1": "h5", "B2": "h4", "B3": "h3", "B4": "a5", "B5": "b5"}, handler_pivot=True)
    play(state, "3d6=10", "throw A2 d11", "3d6=3", "end")
    # After the offense's move, before the defense rolls: the Handler A2 (d12) may pivot the
    # disc from d11 around him: c12, d13, e12, e13 and e11 are open (c11... is B4? no: a5).
    assert top(state).__class__.__name__ == "Pivot" and state.current_player() == 0
    spaces = {a.split()[1] for a in legal(state) if a.startswith("pivot")}
    assert spaces == neighbours(state, "d12") - {"d11"} and "end" in legal(state)
    with pytest.raises(IllegalActionError, match="cannot pivot"):
        play(state, "pivot c10")
    events = play(state, "pivot e13")
    assert texts(events)[0] == "A2 pivots: the disc moves to e13."
    assert isinstance(top(state), MoveRoll) and top(state).team == 1  # type: ignore[attr-defined]
    # The disc cannot pass players around the Handler: with c12 and e11 (the spaces beside
    # both d11 and A2) taken, it cannot move at all, and no pivot is offered.
    walled = lane(
        {"B1": "h5", "B2": "h4", "B3": "h3", "B4": "a5", "B5": "b5", "A3": "c12", "A4": "e11"},
        handler_pivot=True,
    )
    play(walled, "3d6=10", "throw A2 d11", "3d6=3", "end")
    assert isinstance(top(walled), MoveRoll) and top(walled).team == 1  # type: ignore[attr-defined]
    # After a turnover there is no pivot.
    lost = lane(handler_pivot=True)
    play(lost, "3d6=10", "throw A2 d11", "3d6=12", "3d6=3", "end")
    assert isinstance(top(lost), MoveRoll)


def test_HM_RETHROW_1_HM_RETHROW_2_HM_RETHROW_3_HM_R34_an_uncontested_intercept_rethrows() -> None:
    state = lane(rethrow="uncontested")
    events = play(state, "3d6=6", "throw A2 d11", "3d6=5", "2d6=7")
    assert bids(events)[-1] == ("B2", "intercept", True)
    assert state.current_player() == 1 and legal(state) == {"rethrow", "play on"}
    play(state, "rethrow")
    assert state.current_player() == 0 and legal(state) == {"rethrow", "play on"}
    events = play(state, "rethrow")
    assert "UpCallStarted" in kinds(events) and state.holder == 8 and state.up_calls == 2
    # Either team may play on: team moves as usual.
    opted = lane(rethrow="uncontested")
    play(opted, "3d6=6", "throw A2 d11", "3d6=5", "2d6=7", "rethrow", "play on")
    assert isinstance(top(opted), MoveRoll) and top(opted).team == 1  # type: ignore[attr-defined]
    # Contested: B3 takes it beside A3: no rethrow offered.
    contested = lane({"A3": "e11", "B2": "h4"}, rethrow="uncontested")
    events = play(contested, "3d6=6", "throw A2 d11", "3d6=5", "2d6=7")
    assert bids(events)[-1] == ("B3", "intercept", True)
    assert isinstance(top(contested), MoveRoll)


def test_HM_RETHROW_4_the_optional_intercept_rethrow_needs_no_uncontested_intercept() -> None:
    state = lane({"A3": "e11", "B2": "h4"}, rethrow="any")
    play(state, "3d6=6", "throw A2 d11", "3d6=5", "2d6=7")
    assert legal(state) == {"rethrow", "play on"}


def double_teamed(**opts: object) -> HuckMonsterState:
    # B1 (f8) and B6 (d8) both beside the disc on e8.
    return lane({"B6": "d8"}, double_team=True, **opts)


def test_HM_DT_1_HM_DT_4_an_uncalled_double_team_lets_every_mark_bid() -> None:
    state = double_teamed()
    play(state, "3d6=10")
    assert state.current_player() == 0 and legal(state) == {"double team", "play on"}
    events = play(state, "play on", "throw A2 d11", "3d6=9", "3d6=8")
    assert bids(events) == [("B1", "mark", False), ("B6", "mark", False)]
    # HM-DT-1: with the option, defenders may join a Mark beside the Handler's disc.
    moves = moving({"A1": "e7", "B1": "f8", "B2": "c9"}, 1, 3, disc="e8", holder="A1",
                   opts=options(double_team=True))  # fmt: skip
    assert "B2-d8" in legal(moves)


def test_HM_DT_2_HM_DT_3_HM_DT_5_HM_R35_a_called_double_team_moves_the_marks_away() -> None:
    state = double_teamed()
    events = play(state, "3d6=10", "double team")
    assert "DoubleTeamCalled" in kinds(events) and state.current_player() == 1
    two_away = {a.split("-")[1] for a in legal(state) if a.startswith("B1-")}
    assert two_away and all(state.field.distance(state.disc, state.field.parse_cell(c)) == 2
                            for c in two_away)  # fmt: skip
    play(state, "B1-g9")
    with pytest.raises(IllegalActionError, match="2 from the disc"):
        play(state, "B6-a8")
    play(state, "B6-c8")
    assert legal(state) == {"keep", "reroll"}
    events = play(state, "reroll", "3d6=14", "throw A2 d11")
    assert state.base == 14
    events = play(state, "2d6=5", "2d6=6")  # no Mark bids: the Intercepts B2, B3 go on
    assert [b[1] for b in bids(events)] == ["intercept", "intercept"]


# -- Playmaker Pins, Team Pins, Stealth Spaces ---------------------------------------------------


def test_HM_PIN_1_HM_PIN_2_HM_PIN_4_HM_R36_the_shared_pin_adds_its_numbers() -> None:
    state = lane(strategy=True, strategy_equipment="pin")
    play(state, "strategy")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 18 and all(p == Fraction(1, 18) for _, p in outcomes)
    play(state, "pin=pin-flick", "3d6=7")  # Flick +3
    events = play(state, "throw A2 d11", "roll", "3d6=9")
    assert [(d.offense, d.defense_wins) for d in events if isinstance(d, ev.BidDecided)] == [
        (10, False)
    ]
    # HM-PIN-4: an outcome meant for the other team is invalid.
    wrong = lane(strategy=True, strategy_equipment="pin")
    events = play(wrong, "strategy", "pin=pin-strike")
    assert texts(events) == ["Team A rolls strategy: pin-strike (no effect on this action)."]


def test_HM_PIN_3_HM_R37_pin_words_huck_doink_and_the_defensive_numbers() -> None:
    huck = lane(strategy=True, strategy_equipment="pin")
    play(huck, "strategy", "pin=pin-huck", "3d6=6", "throw A2 d11", "roll", "3d6=11")
    assert huck.offense == 0  # 12 beats 11
    doink = lane(strategy=True, strategy_equipment="pin")
    events = play(doink, "strategy", "pin=pin-doink", "3d6=12")
    assert "Stall: no Receiver within the Throw count (count 2); turnover." in texts(events)
    marked = lane(strategy=True, used=(True, False), strategy_equipment="pin")
    events = play(marked, "3d6=10", "throw A2 d11", "strategy", "pin=pin-markd", "3d6=9")
    assert [(d.defense, d.defense_wins) for d in events if isinstance(d, ev.BidDecided)] == [
        (11, True)
    ]
    beat = lane(strategy=True, used=(True, False), strategy_equipment="pin")
    events = play(beat, "3d6=10", "throw A2 d11", "strategy", "pin=pin-beat", "3d6=14")
    assert [(d.defense, d.defense_wins) for d in events if isinstance(d, ev.BidDecided)] == [
        (9, False)
    ]


def dumping(pin_dump: str) -> HuckMonsterState:
    return position(
        {"A1": "e7", "A2": "d12", "A3": "c6"},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(strategy_equipment="pin", pin_dump=pin_dump),
    )


@pytest.mark.parametrize("pin_dump", ["this", "next"])
def test_HM_PIN_3_HM_R37_a_pin_dump_binds_this_throw_or_the_next(pin_dump: str) -> None:
    # "Dump (+1): ... Forward momentum of the disc is not allowed following a Dump outcome.
    # If rolled by a Handler, or Continue, the following Throw must be toward the offensive
    # end zone": option pin_dump says which throw follows the spin.
    state = dumping(pin_dump)
    play(state, "strategy", "pin=pin-dump", "3d6=10")
    rows = {int(a.split()[-1][1:]) for a in legal(state)}
    if pin_dump == "this":
        assert rows and max(rows) < 8  # behind the disc (row 8), as the dice Dump
        return
    assert max(rows) > 8 and state.base == 10  # this throw is free (and gets its +1) ...
    play(state, "throw A2 d11", "3d6=3", "end", "3d6=3", "end")
    assert state.holder == 1 and state.dump_next
    play(state, "roll", "3d6=10")
    rows = {int(a.split()[-1][1:]) for a in legal(state)}
    assert rows and max(rows) < 11  # ... the next one must go behind the disc (row 11)
    play(state, "throw A1 e8")
    assert not state.dump_next  # spent
    # A turnover ends it: B1 beside the disc's stop wins the catch, and B's throws are free.
    lost = position(
        {"A1": "e7", "A2": "d12", "A3": "c6", "B1": "c12"},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(strategy_equipment="pin", pin_dump="next"),
    )
    play(lost, "strategy", "pin=pin-dump", "3d6=10", "throw A2 d11")
    assert lost.dump_next
    play(lost, "3d6=5", "roll", "3d6=12")
    assert lost.offense == 1 and not lost.dump_next


def test_HM_PIN_5_HM_R41_match_pairs_each_defender_with_the_closest_attacker() -> None:
    # "Match (TM): ... Each defensive player should be 1:1 with each offensive player ...
    # move each to the closest offensive player": pairs go closest first (ties: lower
    # defender, then lower attacker), not by shirt number.
    state = lane(strategy=True, used=(True, False), strategy_equipment="pin")
    events = play(state, "3d6=10", "throw A2 d11", "strategy", "pin=pin-match")
    moved = {e.player: e.cell for e in events if isinstance(e, ev.Matched)}
    # B5 (e13) is 1 from A2: the closest pair, and he is already beside A2, so he stays
    # (by number B2 would have gone to A2 and B5 to A5 on the back row).
    assert 11 not in moved and name(state, "B5") == "e13"
    # B1 (f8) and B2 (d9) are both 2 from A1: the tie goes to B1, who steps beside A1.
    assert moved[7] == "f7" and state.adjacent(state.pos[0]) >> state.pos[7] & 1
    # Everyone else is matched 1:1 with A3..A7 on the back row: each has a defender beside.
    assert all(state.adjacent(state.pos[a]) & state.occupied[1] for a in range(7))


def test_HM_PIN_5_HM_R41_a_pin_monster_moves_only_the_acting_player_and_acts_twice() -> None:
    # "Monster (1M): The acting player may move up to 5 spaces": only the spinner.
    state = lane({"B3": "h5"}, strategy=True, used=(True, False), strategy_equipment="pin")
    play(state, "3d6=10", "throw A2 d11", "strategy", "pin=pin-monster")
    assert {a.split()[1] for a in legal(state) if a != "monster stay"} == {"B1"}
    with pytest.raises(IllegalActionError, match="only the acting player, B1"):
        play(state, "monster B5 c10")
    # B1, the Mark, moves to e10, beside the path (e9, d10) but not the disc any more: HM-R22,
    # "Roll team dice to take any appropriate player action once the designated Monster has
    # reached their destination": he bids as an Intercept (2 dice), not as the Mark.
    play(state, "monster B1 e10")
    assert state.chance_outcomes()[-1][0].notation() == "2d6=12"
    events = play(state, "2d6=3", "2d6=4")
    # "Monsters who spin Playmaker Pins also have the option to ... [act] twice during the
    # same play": as the disc reaches e9, beside him, he bids again.
    assert bids(events) == [("B1", "intercept", False), ("B1", "intercept", False)]
    star = lane({"B3": "h5"}, strategy=True, used=(True, False), strategy_equipment="pin",
                all_stars=True)  # fmt: skip
    play(star, "3d6=7", "throw A2 d11", "monster stay", "strategy", "pin=pin-monster")
    events = play(star, "monster B1 e10", "2d6=3", "2d6=3")
    # HM-STAR-6: B1 is the All-Star and "may only act once per Up Call": no second bid.
    assert bids(events) == [("B1", "intercept", False), ("B2", "intercept", False)]
    twice = lane(strategy=True, used=(True, False), strategy_equipment="pin")
    play(twice, "3d6=10", "throw A2 d11", "strategy", "pin=pin-monster")
    # To c10, beside the disc's stop: nothing to do now (he waits for the catch) ...
    events = play(twice, "monster B1 c10", "2d6=3", "2d6=3", "3d6=12", "3d6=5", "3d6=5", "2d6=2")
    assert "B1 cannot bid (Mark): no action from his new space." in texts(events)
    # ... and he bids as a Mark at the catch.
    assert ("B1", "catch-mark", False) in bids(events)


def test_HM_GDISC_1_HM_R39_each_game_disc_shows_only_its_own_side() -> None:
    state = lane(strategy=True, strategy_equipment="game-disc")
    play(state, "strategy")
    assert [a.notation() for a, _ in state.chance_outcomes()] == [
        f"pin=pin-{w}"
        for w in ("huck", "push", "brush", "flick", "hammer", "doink", "scoober", "float", "dump")
    ]
    defense = lane(strategy=True, used=(True, False), strategy_equipment="game-disc")
    play(defense, "3d6=10", "throw A2 d11", "strategy")
    assert all(
        a.notation().removeprefix("pin=pin-")
        in ("monster", "footer", "layout", "strike", "hot-bid", "flash", "match", "markd", "beat")
        for a, _ in defense.chance_outcomes()
    )


def test_HM_TPIN_1_HM_TPIN_2_HM_R38_team_pins_replace_every_team_dice_roll() -> None:
    state = lane(team_pins=True)
    outcomes = state.chance_outcomes()
    assert [a.notation() for a, _ in outcomes] == [f"spin={v}" for v in range(1, 19)]
    assert all(p == Fraction(1, 18) for _, p in outcomes)
    play(state, "spin=10", "throw A2 d11", "spin=9")
    # An Intercept spins the same 1..18 (no 2-dice limit of 12).
    assert [a.notation() for a, _ in state.chance_outcomes()][-1] == "spin=18"
    moves = position({"A1": "e7"}, disc="e8", holder="A1", stack=[TeamMoves("normal", 1, 0)],
                     opts=options(team_pins=True))  # fmt: skip
    assert len(moves.chance_outcomes()) == 18  # team moves too (HM-R38)


def test_HM_STEALTH_1_HM_R40_a_player_on_a_stealth_space_adds_one() -> None:
    state = lane(stealth_spaces=True)
    field = state.field
    spaces = sorted(field.name(c) for c in range(field.size) if state.stealth >> c & 1)
    assert spaces == ["a11", "b7", "c11", "d7", "e11", "f7", "g11", "h7"]
    # The same pattern seen from the other end (the field turned round for the other team).
    turned = {field.cell(7 - field.coords(c)[0], 16 - field.coords(c)[1]) for c in range(field.size)
              if state.stealth >> c & 1}  # fmt: skip
    assert sum(1 << c for c in turned) == state.stealth
    standing = lane({"A1": "f7"}, stealth_spaces=True)  # f7 is a Stealth Space beside e8
    events = play(standing, "3d6=9")
    assert standing.base == 10
    assert "Team A rolls 10 (+1 from a Stealth Space) for the Throw." in texts(events)
    bidder = lane({"B1": "f7"}, stealth_spaces=True)  # f7: a Stealth Space beside e8
    events = play(bidder, "3d6=10", "throw A2 d11", "3d6=10")
    assert bids(events) == [("B1", "mark", True)]  # 10 + 1 beats 10


# -- Sideline All-Stars --------------------------------------------------------------------------


def test_HM_STAR_1_HM_STAR_3_HM_R42_the_handler_all_star_adds_throw_catch_and_pull() -> None:
    state = lane(all_stars=True)  # A1 (e7) is A's All-Star and throws
    events = play(state, "3d6=7")
    assert state.base == 10 and "Team A rolls 10 for the Throw." in texts(events)
    catcher = position(
        {**LANE, "A1": "d12", "A2": "e7"},
        disc="e8",
        holder="A2",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(throw_path="straight", strategy_dice=False, all_stars=True),
        up_calls=1,
    )
    play(catcher, "3d6=7", "throw A1 d11", "monster stay", "3d6=3", "2d6=2", "2d6=2", "3d6=9")
    assert catcher.base == 10  # the All-Star's catch: 9 + 1
    from monsterball.games.huck_monster.procedures.point import PullRoll

    pulling = position({}, disc="d15", stack=[PullRoll()], opts=options(all_stars=True))
    play(pulling, "3d6=5")
    assert top(pulling) == PullLanding(7)  # Pull +2


def test_HM_STAR_4_HM_R43_the_monster_all_star_bids_higher_and_may_up_move() -> None:
    state = lane(all_stars=True)
    play(state, "3d6=7", "throw A2 d11")  # A1, the Handler All-Star, throws 7 + 3 = 10
    # HM-R43: once the path is known B1, the designated Monster, may move up to 5 spaces.
    assert state.current_player() == 1 and "monster stay" in legal(state)
    assert all(a.startswith("monster B1") or a == "monster stay" for a in legal(state))
    with pytest.raises(IllegalActionError, match="only the All-Star"):
        play(state, "monster B2 c9")
    events = play(state, "monster stay", "3d6=10")
    assert bids(events) == [("B1", "mark", True)]  # Mark +1: 11 beats 10
    mover = lane(all_stars=True)
    play(mover, "3d6=7", "throw A2 d11", "monster B1 c10", "2d6=2", "2d6=2", "3d6=12")
    events = play(mover, "3d6=10", "3d6=11")
    # B1 moved beside the disc's stop: he bids as a Mark at the catch, 10 + 1 against 12.
    assert bids(events)[:2] == [("B1", "catch-mark", False), ("B4", "catch-mark", False)]
    decided = [e for e in events if isinstance(e, ev.BidDecided) and e.player == 7]
    assert decided[0].defense == 11
    intercept = lane({"B1": "b7", "B2": "h4", "B3": "h3"}, all_stars=True)
    play(intercept, "3d6=7", "throw A2 d11", "monster B1 d9")
    events = play(intercept, "2d6=9")
    assert bids(events) == [("B1", "intercept", True)]  # Intercept +2: 11 beats 10


def test_HM_STAR_5_the_all_star_has_a_guaranteed_move() -> None:
    state = position({"A1": "b5", "A2": "e7"}, disc="e8", holder="A2",
                     stack=[TeamMoves("normal", 1, 0)], opts=options(all_stars=True))  # fmt: skip
    play(state, "3d6=3")
    assert top(state) == Moving(0, 3, 3)
    play(state, "A3-c4")  # the team count is spent on A3 ...
    assert top(state) == Moving(0, 0, 3)
    assert {a.split("-")[0] for a in legal(state)} == {"A1", "end"}  # ... A1 still moves 3
    play(state, "A1-b8")
    assert isinstance(top(state), MoveRoll) and top(state).team == 1  # type: ignore[attr-defined]
    play(state, "3d6=3")
    assert top(state) == Moving(1, 3, 5)  # the Monster's Move +5


def test_HM_STAR_2_HM_STAR_6_HM_STAR_7_roles_follow_possession_and_stack_with_strategy() -> None:
    state = lane(all_stars=True, strategy=True)
    play(state, "roll", "3d6=7", "throw A2 d11", "monster stay", "strategy", "dark=hot-bid")
    play(state, "3d6=12", "keep")
    assert state.offense == 1 and state.holder == 7
    # B1 is now B's designated Handler: his throw gets +3, and strategy adds on top.
    play(state, "3d6=3", "end", "3d6=3", "end", "strategy", "light=huck", "3d6=4")
    assert state.base == 7 and offense_total(state) == 14


def offense_total(state: HuckMonsterState) -> int:
    from monsterball.games.huck_monster.rules import offense_count

    return offense_count(state.base, state.light, state.action, state.halved)


def test_HM_EXP_1_HM_R44_ruled_out_results_count_for_nothing() -> None:
    state = lane(strategy=True, expert_disabled="huck, no-big")
    events = play(state, "strategy", "light=huck", "3d6=6")
    assert "Team A rolls strategy: huck (no effect on this action)." in texts(events)
    assert state.light == "" and state.strategy_used[0]
    events = play(state, "throw A2 d11", "strategy", "dark=no-big", "3d6=7")
    assert bids(events) == [("B1", "mark", True)]  # a plain 7 beats the un-doubled 6
    with pytest.raises(Exception, match="unknown outcome"):
        options(expert_disabled="hucks")


# -- Mini Cone kit: Pothole Markers ---------------------------------------------------------------


def test_HM_CONE_1_HM_R45_each_point_starts_with_a_cone_in_each_end_zone_corner() -> None:
    state = SPEC.new_game(options(potholes=True))
    cones = sorted(state.field.name(c) for c in range(state.field.size) if state.cones >> c & 1)
    assert cones == ["a1", "a17", "h1", "h17"]
    assert legal(state) == {f"place {c}3" for c in "abcdefgh"}  # the line is clear of cones


def test_HM_CONE_2_HM_CONE_4_a_turnover_adds_a_cone_beside_the_new_defense() -> None:
    state = lane(potholes=True, cones=["a1", "h1", "a17", "h17"])
    play(state, "3d6=10", "throw A2 d11", "3d6=12")  # B1's Mark wins: A is now the defense
    assert state.current_player() == 0
    targets = {a.split()[1] for a in legal(state)}
    assert {"e6", "d8", "c12"} <= targets  # beside A1 (e7) or A2 (d12) ...
    assert "e9" not in targets and "a5" not in targets  # ... not elsewhere
    with pytest.raises(IllegalActionError, match="beside one of your players"):
        play(state, "cone a5")
    events = play(state, "cone e6")
    assert "Team A puts a cone on e6." in texts(events)
    # HM-CONE-4: nobody moves onto a cone, and no throw passes over one.
    play(state, "3d6=4")
    assert not any(a.endswith("-e6") for a in legal(state))
    assert "/\\" in state.render()


def test_HM_CONE_3_with_all_cones_in_play_one_is_moved() -> None:
    eight = ["a1", "h1", "a17", "h17", "b5", "c5", "e6", "g4"]
    state = lane(potholes=True, cones=eight)
    play(state, "3d6=10", "throw A2 d11", "3d6=12")
    moves = legal(state)
    # Only cones beside A's players may move: e6 (beside A1) and h1 (beside A7 on g1).
    assert moves and {a.split()[1] for a in moves} == {"e6", "h1"}
    with pytest.raises(IllegalActionError, match="all 8 cones are in play"):
        play(state, "cone e9")
    play(state, "cone e6 d6")
    assert state.cones >> state.field.parse_cell("d6") & 1
    assert not state.cones >> state.field.parse_cell("e6") & 1


# -- Pro: Beaten Defenders --------------------------------------------------------------------


def test_HM_BEAT_1_HM_R46_the_disc_passes_over_a_defender_it_has_beaten() -> None:
    state = lane({"B3": "d10"}, beaten_defenders=True)  # B3 stands on the lane
    play(state, "3d6=10")
    assert "throw A2 d11" in legal(state)
    events = play(state, "throw A2 d11", "3d6=9", "2d6=5", "2d6=6")
    # B3 bids before the disc passes over him; beaten, the disc flies on to d11.
    assert bids(events) == [("B1", "mark", False), ("B2", "intercept", False),
                            ("B3", "intercept", False)]  # fmt: skip
    assert state.field.name(state.disc) == "d11"
    won = lane({"B3": "d10"}, beaten_defenders=True)
    events = play(won, "3d6=10", "throw A2 d11", "3d6=9", "2d6=5", "2d6=11")
    assert bids(events)[-1] == ("B3", "intercept", True) and won.holder == 9
    assert won.field.name(won.disc) == "e9"  # stopped before him
    off = lane({"B3": "d10"})
    play(off, "3d6=10")
    assert "throw A2 d11" not in legal(off)  # the standard game never passes over players


def test_HM_BEAT_2_HM_BEAT_3_never_two_defenders_in_a_row_nor_an_offensive_player() -> None:
    two = lane({"B3": "d10", "B6": "e9"}, beaten_defenders=True)
    play(two, "3d6=10")
    assert "throw A2 d11" not in legal(two)
    teammate = lane({"A3": "d10"}, beaten_defenders=True)
    play(teammate, "3d6=10")
    assert "throw A2 d11" not in legal(teammate)
    # A defender who would wait for the catch still bids when the disc passes over him.
    guard = lane({"B4": "d10", "B3": "h3"}, beaten_defenders=True)  # d10 is beside d11
    events = play(guard, "3d6=10", "throw A2 d11", "3d6=9", "2d6=5", "2d6=7")
    assert bids(events)[-1] == ("B4", "intercept", False)


def test_HM_CONE_5_HM_R47_the_receiving_team_picks_each_points_style() -> None:
    state = SPEC.new_game(options(style_each_point=True))
    styles = {"style standard", "style pothole", "style hot-hex"}
    assert state.current_player() == 0 and legal(state) == styles
    events = play(state, "style pothole")
    assert "Team A chooses the game style for this point: pothole." in texts(events)
    assert bin(state.cones).count("1") == 4 and state.style == "pothole"
    plain = SPEC.new_game(options(style_each_point=True, potholes=True))
    play(plain, "style standard")
    assert plain.cones == 0 and plain.style == "standard"
    # After a point the team scored upon chooses again.
    scored = scoring_throw("e15", opts={"style_each_point": True})
    play(scored, "3d6=5", "throw A2 e14")
    assert scored.current_player() == 1 and legal(scored) == styles
