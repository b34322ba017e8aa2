"""Monsters of the Midway scenario tests: blocking, injuries and substitutes, and tackling
(MW-BLOCK, MW-TACK, MW-CHART-1/2 of docs/rules/monsters-of-the-midway.md).

Each test builds a position (tests/helpers/midway.py), gives every die explicitly as a chance
outcome (``d6=4``) and checks the exact outcome the rule demands. Team A attacks north.
"""

from __future__ import annotations

import pytest

from monsterball.core.game import CHANCE
from monsterball.games.midway import chart
from monsterball.games.midway.events.contact import BlockRolled
from monsterball.games.midway.state import FOREVER
from tests.helpers.midway import (
    act,
    legal,
    moves_of,
    running,
    scrimmage_ready,
    setup,
    start_phase,
    texts,
    top,
)

# -- blocking -----------------------------------------------------------------------------------


def blocking(types=None, options=None, **extra):
    players = {"A1": "g8", "A2": "f10", "A3": "h10", "B1": "g11", "B2": "j11", **extra}
    state = setup(players, types=types, carrier="A1", los="g10", **(options or {}))
    start_phase(state, 0)
    return state


def test_MW_BLOCK_1_MW_BLOCK_3_MW_CHART_2_block_roll_with_size_modifier():
    state = blocking(types={"A2": "bugbear", "B1": "human"})  # L blocks M: +1
    act(state, "A2-g11", "end")
    events = act(state, "d6=2")
    assert events[0] == BlockRolled(1, 10, 2, 1, 3, "neutralize")
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
    succeeds, the carrier has room. "the offensive coach decides the order in which blocks
    will be attempted ... the coach can call off the second attempt if the first one
    succeeds or if he decides not to make the second attempt"."""
    state = blocking()
    act(state, "A2-g11", "A3-g11")
    assert "A1-g11" not in legal(state)  # the carrier never enters an occupied hex
    act(state, "end")
    assert top(state) == "BlockOrder" and legal(state) == {"block A2", "block A3"}
    act(state, "block A3")  # A3 first
    events = act(state, "d6=4")
    assert events == [BlockRolled(2, 10, 4, 0, 4, "neutralize")]
    assert top(state) == "SecondBlock" and legal(state) == {"block A2", "no"}
    events = act(state, "block A2", "d6=6")  # he goes for the successful block too
    assert events[-1] == BlockRolled(1, 10, 6, 0, 6, "successful block")
    state = blocking()
    act(state, "A2-g11", "A3-g11", "end", "block A2", "d6=1", "no")  # defeated; called off
    assert top(state) == "Phase" and state.stack[-1].team == 1
    # Option block_order=auto (before 0.8.0): player order, the second only after a miss.
    state = blocking(options={"block_order": "auto"})
    act(state, "A2-g11", "A3-g11", "end")
    events = act(state, "d6=4")  # A2: neutralize, so A3's block is called off
    assert events == [BlockRolled(1, 10, 4, 0, 4, "neutralize")]
    assert top(state) == "Phase" and state.stack[-1].team == 1
    state = blocking(options={"block_order": "auto"})
    act(state, "A2-g11", "A3-g11", "end", "d6=1")  # A2 defeated: A3 tries
    events = act(state, "d6=6")
    assert events[0] == BlockRolled(2, 10, 6, 0, 6, "successful block")


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
    """The exception: "that defender may try to tackle the new ball carrier at the end of
    the current defensive movement phase" (not again in the offensive phase)."""
    state = running(A2="g12")
    act(state, "A1-h11", "A1-h12", "tackle B1 h12", "d6=6", "hand A2")
    assert state.carrier == 1 and state.tried == 1 << 10 and state.retry == 1 << 10
    act(state, "A2-h13", "A2-i13")  # next to B1 on i12: no second try in this phase
    assert top(state) == "Phase" and state.current_player() == 0
    act(state, "end", "end")  # B ends its phase with B1 still next to A2: now he may
    assert top(state) == "TackleRound" and legal(state) == {"tackle B1 i13", "no"}


def test_MW_TACK_1_one_would_be_tackler_per_hex_except_the_carriers():
    state = running(B3="g13")
    act(state, "end")
    assert "g11" in moves_of(state, "B3")
    act(state, "B1-h10")
    assert "h10" not in moves_of(state, "B3")  # B1 is there and it is not the carrier's hex
    act(state, "B3-g10")  # the carrier's hex: allowed, and the move ends there
    assert "B3-" not in " ".join(legal(state))


def test_MW_BLOCK_5_substitutes_come_in_and_a_short_team_plays_short():
    state = scrimmage_ready()
    for p in (0, 1, 2, 3, 4):
        state.out_through[p] = FOREVER  # A1..A5 injured for the game
    # The next set-up uses the fit players only: A6..A10 (five of them).
    assert {a.split("@")[0] for a in legal(state) if "@" in a} == {"A6", "A7", "A8", "A9", "A10"}
    act(state, "auto")
    assert sorted(state.on_field(0)) == [5, 6, 7, 8, 9]
    assert top(state) == "SetUp" and state.current_player() == 1
