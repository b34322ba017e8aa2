"""Huck + Monster, standard game: the Up Call (throws, marks, intercepts, catches,
challenges, ties, turnovers) and the end zone, points and the end of the game (HM-UP,
HM-THROW, HM-MARK, HM-INT, HM-CATCH, HM-CHAL, HM-TIE, HM-TO, HM-END of
docs/rules/huck-monster.md). Dice are scripted as chance actions ("3d6=10"), so each test
checks the exact outcome the rule demands.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monsterball.core.errors import IllegalActionError
from monsterball.core.game import CHANCE
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.rules.bid import Bid
from monsterball.games.huck_monster.rules.moves import MoveRoll, Moving, TeamMoves
from monsterball.games.huck_monster.rules.point import SetUp
from monsterball.games.huck_monster.rules.upcall import OffenseAction, UpCall
from tests.helpers.huck_monster import (
    SPEC,
    bids,
    kinds,
    lane,
    legal,
    moving,
    name,
    neighbours,
    options,
    play,
    position,
    scoring_throw,
    texts,
    top,
)

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


def test_HM_R9_a_hammered_disc_never_comes_back_over_a_space() -> None:
    # "subtracting from the Throw count for every new space" (HM-R9): a Hammer lets the disc
    # pass "over" one defender, not touch his space and return. The fuzz campaign (midnight-
    # pickup) found the search flying d10 ... b6, b5, b4, b5 to B7 at b5: onto A5 at b4 and
    # back, so that A5, beside the stop, was silenced. Now the path enters each space once.
    data = json.loads(
        (Path(__file__).parent / "data" / "hammer_path_bounces_back.json").read_text()
    )
    state = SPEC.from_position(data)
    events = play(state, "throw B7 b5")
    path = next(e for e in events if isinstance(e, ev.Thrown)).path
    assert len(set(path)) == len(path) and path[-1] == "b5"
    board = state.to_position()["board"]
    assert board["hammered"] == "A1" and "d11" in path  # over A1 instead, on the way
    assert board["players"]["A5"] == "b4" and "b4" not in path  # A5 is not flown over


# -- end zone, points and the game ---------------------------------------------------------------


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
    # "the disc and new Handler move to the closest available end zone line space": B1 (d16)
    # is 1 from both d15 and e15; e15 is the one nearer the disc (e16), and the disc goes to
    # the line space beside him nearest where it lay, f15 (not c15 or d15 by cell order).
    assert name(state, "B1") == "e15" and state.field.name(state.disc) == "f15"
    assert state.holder == 7 and "DiscMoved" in kinds(events)
    # Handler and disc already on the line stay where they are (issue 34: both used to move).
    on_line = position(
        {"A1": "e14", "A2": "e10", "B1": "d15", "B5": "a9", "B6": "b9", "B7": "c9"},
        disc="e15",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(strategy_dice=False),
        up_calls=1,
    )
    events = play(on_line, "3d6=10", "throw A2 e11", "3d6=12")
    assert bids(events) == [("B1", "mark", True)] and on_line.holder == 7
    assert name(on_line, "B1") == "d15" and on_line.field.name(on_line.disc) == "e15"
    assert "DiscMoved" not in kinds(events)


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


def test_HM_MARK_1_HM_R11_mark_waits_lets_a_mark_guarding_the_catch_bid_there() -> None:
    # A2 (f10) receives on f9, one space from the disc (e8): B1 (f8) marks the disc and is
    # also beside the disc's stop. By default he bids on the throw (the Mark first); with
    # mark_waits he waits, as an Intercept guarding the catch does, and bids at the catch.
    layout = {"A2": "f10", "B2": "a5", "B3": "a6", "B4": "a4", "B5": "a3"}
    state = lane(layout)
    events = play(state, "3d6=10", "throw A2 f9", "3d6=5")
    assert bids(events) == [("B1", "mark", False)]
    waiting = lane(layout, mark_waits=True)
    events = play(waiting, "3d6=10", "throw A2 f9", "3d6=9", "3d6=5")
    assert bids(events) == [("B1", "catch-mark", False)]
