"""Legal-action counts from fixed positions (perft-like), with a "divide" per player/kind.

Every expected number below is worked out by hand from the rulebook and the rulings, with
the arithmetic in the comments. The pitch is the standard 9 x 18 (columns a..i, rows 1..18);
a runner may move up to 4 king steps over free fields, so in open field he reaches a 9 x 9
block around him (80 fields), clipped at the edges. On mismatch the whole divide is printed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from monsterball.core.actions import Action
from monsterball.core.game import GameState
from monsterball.games.paper_ultimate.actions import (
    CallMonster,
    DeclareTurn,
    DeclineMonster,
    EndRun,
    PassTo,
    Place,
    PullTo,
    RunTo,
    TakeDisc,
    player_name,
)
from tests.helpers.paper_ultimate import SPEC, position_data


def position(players: dict[str, str | None], step: dict[str, Any], **kwargs: Any) -> GameState:
    """A mid-game position; north='A' means team A defends rows 1-2 and attacks 17-18."""
    return SPEC.from_position(
        position_data(players, step=step, ply=40, score=(1, 2), throws=9, **kwargs)
    )


def divide(actions: list[Action]) -> dict[str, int]:
    """Count per player for runs, passes, monster calls and takes; per kind otherwise."""
    out: Counter[str] = Counter()
    for action in actions:
        if isinstance(action, RunTo):
            out[player_name(action.player)] += 1
        elif isinstance(action, PassTo | CallMonster | TakeDisc):
            out[action.notation()] += 1
        elif isinstance(action, EndRun):
            out["end"] += 1
        elif isinstance(action, DeclareTurn):
            out["turnover"] += 1
        elif isinstance(action, DeclineMonster):
            out["decline"] += 1
        elif isinstance(action, Place):
            out["place"] += 1
        elif isinstance(action, PullTo):
            out["pull"] += 1
        else:
            out[type(action).__name__] += 1
    return dict(sorted(out.items()))


def assert_counts(state: GameState, total: int, expected: dict[str, int]) -> None:
    legal = state.legal_actions()
    got = divide(legal)
    assert sum(expected.values()) == total, "the test's own arithmetic is off"
    assert len(set(legal)) == len(legal), "duplicate legal actions"
    assert (len(legal), got) == (total, dict(sorted(expected.items()))), (
        f"\nlegal actions: {len(legal)} (expected {total})\ndivide:   {got}\nexpected: "
        f"{dict(sorted(expected.items()))}"
    )
    for action in legal:
        state.check(action)


# -- 1. a lone runner in open field --------------------------------------------------------

LONE = {
    "A1": "a1",
    "A2": "e9",
    "A3": "i1",
    "A4": "i18",
    "B1": "a18",
    "B2": "b18",
    "B3": "c18",
    "B4": "a17",
}


def test_lone_runner_in_open_field() -> None:
    # A1 holds the disc, A3 and A4 have already run: only A2 on e9 may move. Columns
    # a..i and rows 5..13 are within 4 king steps and all empty: 9 * 9 - 1 = 80.
    moved = 1 << 2 | 1 << 3
    state = position(LONE, {"step": "Running", "team": 0, "moved": moved}, holder="A1")
    assert_counts(state, 81, {"A2": 9 * 9 - 1, "end": 1})


def test_lone_runner_with_shorter_runs() -> None:
    moved = 1 << 2 | 1 << 3
    state = position(
        LONE,
        {"step": "Running", "team": 0, "moved": moved},
        holder="A1",
        options={"run_distance": 2},
    )
    assert_counts(state, 25, {"A2": 5 * 5 - 1, "end": 1})


# -- 2. three runners near edges and blockers ----------------------------------------------

THREE = {
    "A1": "e16",  # holder
    "A2": "b2",  # block a..f x 1..6 (6 x 6), B1 on c3 sits on the diagonal to f6
    "A3": "h17",  # block d..i x 13..18 (6 x 6), the holder e16 is inside it
    "A4": "e9",  # open field: rows 5..13, all columns
    "B1": "c3",
    "B2": "a18",
    "B3": "i1",
    "B4": "a14",
}


def test_three_runners_near_edges() -> None:
    state = position(THREE, {"step": "Running", "team": 0, "moved": 0}, holder="A1")
    assert_counts(
        state,
        148,
        {
            # 36 - start - c3 (occupied) - f6 (4 diagonal steps, the only path, crosses c3)
            "A2": 36 - 1 - 1 - 1,
            # 36 - start - e16 (the holder); every other field has a path around e16
            "A3": 36 - 1 - 1,
            "A4": 81 - 1,
            "end": 1,
        },
    )


def test_three_runners_through_players() -> None:
    # Option run_through_players: f6 is reachable over c3; occupied fields still are not.
    state = position(
        THREE,
        {"step": "Running", "team": 0, "moved": 0},
        holder="A1",
        options={"run_through_players": True},
    )
    assert_counts(state, 149, {"A2": 36 - 1 - 1, "A3": 36 - 1 - 1, "A4": 80, "end": 1})


def test_walled_in_runner() -> None:
    # A2 in the corner a1 behind a wall of three opponents cannot run at all (PU-R4),
    # but with run_through_players he reaches the 5 x 5 corner block minus the 3 walls.
    players = dict(THREE, A2="a1", B1="a2", B3="b2", B4="b1")
    state = position(players, {"step": "Running", "team": 0, "moved": 0}, holder="A1")
    assert_counts(state, 115, {"A3": 34, "A4": 80, "end": 1})
    state = position(
        players,
        {"step": "Running", "team": 0, "moved": 0},
        holder="A1",
        options={"run_through_players": True},
    )
    assert_counts(state, 115 + 25 - 1 - 3, {"A2": 25 - 1 - 3, "A3": 34, "A4": 80, "end": 1})


# -- 3. the defense with a marker ----------------------------------------------------------

MARKED = {
    "A1": "e9",  # holder
    "A2": "a1",
    "A3": "i18",
    "A4": "e13",
    "B1": "d10",  # marks A1 (next to e9)
    "B2": "e6",
    "B3": "a18",
    "B4": "i1",
}
RING = 8  # fields around e9: d8 e8 f8 d9 f9 d10 e10 f10


def test_defense_with_one_marker() -> None:
    state = position(MARKED, {"step": "Running", "team": 1, "moved": 0}, holder="A1")
    assert_counts(
        state,
        187,
        {
            # d10: columns a..h x rows 6..14 = 8 * 9 = 72; minus start, e9, e6, e13 (occupied)
            # and h6, whose only 4-step path is the diagonal through e9.
            "B1": 72 - 1 - 3 - 1,
            # e6: columns a..i x rows 2..10 = 81; minus start, e9, d10 (occupied) and the 7
            # free fields next to e9: B1 already marks, so no second marker (PU-MARK-2).
            "B2": 81 - 1 - 2 - (RING - 1),
            "B3": 25 - 1,  # corner a18: a..e x 14..18
            "B4": 25 - 1,  # corner i1: e..i x 1..5
            "end": 1,
        },
    )


def test_defense_after_monster_roll_only_the_marker_runs() -> None:
    state = position(
        MARKED, {"step": "Running", "team": 1, "moved": 0}, holder="A1", marker_only="B1"
    )
    assert_counts(state, 68, {"B1": 67, "end": 1})


def test_defense_without_a_marker_may_send_one() -> None:
    # B1 stands on d12 (not next to e9): nobody marks, so B1 and B2 may both end next to
    # e9. (Once one of them is there the other may not follow; that is the next node.)
    players = dict(MARKED, B1="d12")
    state = position(players, {"step": "Running", "team": 1, "moved": 0}, holder="A1")
    assert_counts(
        state,
        196,
        {
            # d12: columns a..h x rows 8..16 = 72; minus start, e9 and e13 (occupied), and
            # h16, whose only 4-step path is the diagonal through e13.
            "B1": 72 - 1 - 2 - 1,
            # e6: 81 - start - e9 (occupied); the ring is open now.
            "B2": 81 - 1 - 1,
            "B3": 24,
            "B4": 24,
            "end": 1,
        },
    )


def test_defense_may_not_pick_up_the_pull() -> None:
    # After the pull nobody holds the disc; it lies on e7 and only the offense may stop
    # there (PU-R2). No marker rule without a holder.
    players = dict(MARKED, A1="c2")
    state = position(players, {"step": "Running", "team": 1, "moved": 0}, disc="e7")
    assert_counts(
        state,
        194,
        {
            # d10: 72 - start - e6 and e13 (occupied) - e7 (the disc); with e9 empty now,
            # h6 is reachable again.
            "B1": 72 - 1 - 2 - 1,
            # e6: 81 - start - d10 (occupied) - e7 (the disc); c2 is row 2 and inside
            # the block too: columns a..i x rows 2..10, so minus c2 as well.
            "B2": 81 - 1 - 1 - 1 - 1,
            "B3": 24,
            "B4": 24,
            "end": 1,
        },
    )


def test_surplus_markers_after_a_turn() -> None:
    # After a turn A1 on e9 has two markers, d10 and f10: one of them must leave, so the
    # step may not end yet, and neither may move to another field next to e9.
    players = dict(MARKED, B2="f10")
    state = position(
        players,
        {"step": "Running", "team": 1, "moved": 0},
        holder="A1",
        surplus_must_leave=True,
    )
    assert_counts(
        state,
        170,
        {
            # d10: 72 - start - e9, e13, f10 (occupied) - the 6 other free ring fields
            # (d8 e8 f8 d9 f9 e10) - h6 (only reachable along the diagonal through e9).
            "B1": 72 - 1 - 3 - 6 - 1,
            # f10: columns b..i x rows 6..14 = 8 * 9 = 72; minus start, e9, d10, e13
            # (occupied), 6 free ring fields; b6's only path is the diagonal through e9.
            "B2": 72 - 1 - 3 - 6 - 1,
            "B3": 24,
            "B4": 24,
        },
    )


# -- 4. throwing ---------------------------------------------------------------------------

THROW = {
    "A1": "e9",  # thrower
    "A2": "b9",  # west, over teammate A3 on d9 and the free c9: a pass
    "A3": "d9",  # right next to the thrower: no free field to throw over
    "A4": "g11",  # north-east over the free f10: a pass
    "B1": "e11",  # north: nobody there to throw to anyway
    "B2": "f8",  # the marker, south-east
    "B3": "a1",
    "B4": "i18",
}


def test_throwing_targets() -> None:
    state = position(THROW, {"step": "Throwing", "team": 0}, holder="A1")
    assert_counts(state, 2, {"pass A2": 1, "pass A4": 1})


def test_throwing_blocked_everywhere_is_a_turn() -> None:
    # B1 on c9 stands between A3 and A2; B2 on f10 stands between e9 and g11.
    players = dict(THROW, B1="c9", B2="f10")
    state = position(players, {"step": "Throwing", "team": 0}, holder="A1")
    assert_counts(state, 1, {"turnover": 1})


def test_throwing_over_several_teammates() -> None:
    # The whole team on the e column north of the thrower, one free field between each:
    # A2 e11 (over e10), A3 e13 (over A2 and e12), A4 e15: all three are targets.
    players = dict(THROW, A2="e11", A3="e13", A4="e15", B1="a9", B2="i9")
    state = position(players, {"step": "Throwing", "team": 0}, holder="A1")
    assert_counts(state, 3, {"pass A2": 1, "pass A3": 1, "pass A4": 1})


# -- 5. set-up, pull, monster defense, turn ------------------------------------------------


def test_setup_and_pull_counts() -> None:
    # Team A sets up in rows 1-2 (18 fields) and has placed three: 15 fields are left.
    state = position({"A1": "a1", "A2": "e2", "A3": "i1"}, {"step": "SetUp", "team": 0})
    assert_counts(state, 15, {"place": 18 - 3})
    # Team B pulls into A's end zone (rows 1-2) with the four A players in it: 14 fields.
    players = {
        "A1": "a1",
        "A2": "e2",
        "A3": "i1",
        "A4": "b1",
        "B1": "a18",
        "B2": "b17",
        "B3": "c18",
        "B4": "d17",
    }
    state = position(players, {"step": "Pull", "team": 1}, holder="B2")
    assert_counts(state, 14, {"pull": 18 - 4})


def test_monster_defense_with_two_defenders() -> None:
    players = dict(MARKED, B2="f10")  # d10 and f10 both next to the catcher on e9
    state = position(players, {"step": "MonsterDefense", "team": 1}, holder="A1")
    assert_counts(state, 3, {"monster B1": 1, "monster B2": 1, "decline": 1})


TURN = {
    "A1": "e9",  # thrower with no free receiver:
    "A2": "b9",  # west, behind B1 on c9
    "A3": "d9",  # next to him
    "A4": "i9",  # east, behind B3 on g9
    "B1": "c9",
    "B2": "g7",
    "B3": "g9",
    "B4": "i18",
}


@pytest.mark.parametrize(
    ("pickup", "expected"),
    [
        # King distance from the disc on e9: c9, g7 and g9 are all 2 away, i18 is 9: a tie
        # of three, and the new offense chooses (PU-R5).
        ("nearest", {"take B1": 1, "take B2": 1, "take B3": 1}),
        ("any", {"take B1": 1, "take B2": 1, "take B3": 1, "take B4": 1}),
    ],
)
def test_turn_pickup_candidates(pickup: str, expected: dict[str, int]) -> None:
    state = position(
        TURN, {"step": "Throwing", "team": 0}, holder="A1", options={"turn_pickup": pickup}
    )
    assert_counts(state, 1, {"turnover": 1})
    state.apply(DeclareTurn())
    assert state.current_player() == 1
    assert_counts(state, len(expected), expected)
