"""Paper Ultimate: bad actions are refused with a specific error and change nothing.

Covers action notation, wrong seats, chance/decision mix-ups, actions after the end,
illegal actions in every step type and off-pitch cells.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from monsterball.core.actions import Action, Roll
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    WrongSeatError,
)
from monsterball.core.game import CHANCE, TERMINAL, GameState
from monsterball.games.paper_ultimate.actions import (
    DECLARE_TURN,
    DECLINE,
    END,
    CallMonster,
    GiveDisc,
    PassTo,
    Place,
    PullTo,
    RunTo,
    TakeDisc,
)
from tests.helpers.paper_ultimate import SPEC, SPREAD, state_of

A1, A2, A3, A4, B1, B2, B3, B4 = range(8)


def assert_rejected(
    state: GameState,
    action: Action,
    error: type[Exception],
    *words: str,
    seat: int | None = None,
) -> None:
    before = state.to_position()
    legal_before = state.legal_actions()
    with pytest.raises(error) as info:
        state.apply(action, seat=seat)
    message = str(info.value).lower()
    for word in words:
        assert word.lower() in message, f"'{word}' not in '{info.value}'"
    assert state.to_position() == before
    assert state.legal_actions() == legal_before
    if error is not NotationError and seat is None:
        assert not state.is_legal(action)
        assert action not in legal_before


# -- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly A1",
        "A5-e5",
        "C1-e5",
        "A1-",
        "A1-e",
        "A1-55",
        "place",
        "place e",
        "place 5e",
        "pull",
        "pull ee5",
        "disc",
        "disc A5",
        "disc X1",
        "pass",
        "pass 3",
        "monster",
        "monster B0",
        "take",
        "take A9",
        "d6=",
        "=3",
        "d6=1 2",
        "endd",
        "pass A1 A2",
    ],
)
def test_unparsable_notation(text: str) -> None:
    with pytest.raises(NotationError):
        SPEC.parse_action(text)


def test_notation_errors_suggest_the_syntax() -> None:
    with pytest.raises(NotationError) as info:
        SPEC.parse_action("jump e5")
    assert "A2-e5" in str(info.value)
    with pytest.raises(NotationError) as info:
        SPEC.parse_action("disc Z9")
    assert "A1..A4" in str(info.value)


# -- wrong seat, chance vs decision, game over --------------------------------------------


def fresh(**overrides: Any) -> GameState:
    return SPEC.new_game(SPEC.options(**overrides))


def test_wrong_seat_is_refused() -> None:
    state = fresh(first_receiver="A")
    assert state.current_player() == 0
    action = state.legal_actions()[0]
    assert_rejected(state, action, WrongSeatError, "not B's turn", "A is to act", seat=1)
    state.apply(action, seat=0)  # the right seat is accepted


def test_seat_given_at_a_chance_node_is_refused() -> None:
    state = fresh()
    assert state.current_player() == CHANCE
    assert_rejected(state, Roll("toss", "A"), WrongSeatError, "chance", seat=0)


def test_decision_at_a_chance_node_is_refused() -> None:
    state = fresh()
    assert_rejected(state, Place("a1"), IllegalActionError, "not legal", "coin toss")
    assert_rejected(state, END, IllegalActionError, "not legal")
    assert_rejected(state, Roll("d6", "3"), IllegalActionError, "not legal")
    assert_rejected(state, Roll("toss", "C"), IllegalActionError, "not legal")


def test_chance_outcome_at_a_decision_is_refused() -> None:
    state = fresh(first_receiver="A")
    assert_rejected(state, Roll("toss", "A"), IllegalActionError, "not possible", "set-up")
    running = state_of(SPREAD, {"step": "Running", "team": 0, "moved": 0}, holder="A1")
    assert_rejected(running, Roll("d6", "1"), IllegalActionError, "not possible")
    throwing = state_of(SPREAD, {"step": "Throwing", "team": 0}, holder="A1")
    assert_rejected(throwing, Roll("coins", "HH"), IllegalActionError, "not possible")


def finished_game() -> GameState:
    state = fresh(width=7, length=14, max_throws=5)
    bot, dice = random.Random(3), SeededSampler(3)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(dice.choose(state.chance_outcomes()))
        else:
            state.apply(bot.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    "action", [END, DECLARE_TURN, Roll("d6", "3"), Place("a1"), RunTo(A1, "a1"), PassTo(A2)]
)
def test_actions_after_game_over(action: Action) -> None:
    state = finished_game()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.chance_outcomes() == []
    assert_rejected(state, action, GameOverError, "game is over")
    assert_rejected(state, action, GameOverError, "game is over", seat=0)


# -- illegal actions, step by step ---------------------------------------------------------


def setup_state() -> GameState:
    return state_of({"A1": "a1"}, {"step": "SetUp", "team": 0})


def test_setup_illegal() -> None:
    state = setup_state()
    assert_rejected(state, Place("e9"), IllegalActionError, "end zone")
    assert_rejected(state, Place("e17"), IllegalActionError, "end zone")  # the other end zone
    assert_rejected(state, Place("a1"), IllegalActionError, "occupied")
    assert_rejected(state, RunTo(A1, "a2"), IllegalActionError, "not possible", "set-up")
    assert_rejected(state, PullTo("a2"), IllegalActionError, "not possible")
    assert_rejected(state, Place("z99"), IllegalActionError, "not a cell")
    assert_rejected(state, Place("j1"), IllegalActionError, "not a cell")


def test_hand_disc_illegal() -> None:
    players = {
        "A1": "a1",
        "A2": "b1",
        "A3": "c1",
        "A4": "d1",
        "B1": "a18",
        "B2": "b18",
        "B3": "c18",
        "B4": "d18",
    }
    state = state_of(players, {"step": "HandDisc", "team": 1})
    assert_rejected(state, GiveDisc(A1), IllegalActionError, "not legal", "puller")
    assert_rejected(state, PassTo(B2), IllegalActionError, "not legal")
    state.apply(GiveDisc(B2), seat=1)


def pull_state() -> GameState:
    players = {
        "A1": "a1",
        "A2": "b1",
        "A3": "c1",
        "A4": "d1",
        "B1": "a18",
        "B2": "b18",
        "B3": "c18",
        "B4": "d18",
    }
    return state_of(players, {"step": "Pull", "team": 1}, holder="B1")


def test_pull_illegal() -> None:
    state = pull_state()
    assert_rejected(state, PullTo("e9"), IllegalActionError, "opposing end zone")
    assert_rejected(state, PullTo("e17"), IllegalActionError, "opposing end zone")  # own zone
    assert_rejected(state, PullTo("a1"), IllegalActionError, "empty field")  # occupied
    assert_rejected(state, PullTo("q1"), IllegalActionError, "not a cell")
    assert_rejected(state, Place("e2"), IllegalActionError, "not possible", "pull")
    state.apply(PullTo("e2"))


def test_running_illegal_for_the_offense() -> None:
    state = state_of(SPREAD, {"step": "Running", "team": 0, "moved": 1 << A3}, holder="A1")
    assert_rejected(state, RunTo(B1, "i13"), IllegalActionError, "not in team A")
    assert_rejected(state, RunTo(A1, "e10"), IllegalActionError, "has the disc")
    assert_rejected(state, RunTo(A3, "i6"), IllegalActionError, "already run")
    assert_rejected(state, RunTo(A2, "a10"), IllegalActionError, "more than 4 fields")
    assert_rejected(state, RunTo(A2, "e3"), IllegalActionError, "occupied")
    assert_rejected(state, RunTo(A2, "a5"), IllegalActionError, "occupied")  # its own field
    assert_rejected(state, RunTo(A2, "z5"), IllegalActionError, "not a cell")
    assert_rejected(state, PassTo(A2), IllegalActionError, "not possible", "running")
    assert_rejected(state, DECLINE, IllegalActionError, "not possible")


def test_running_blocked_path() -> None:
    players = dict(SPREAD, A2="a1", B4="a2", B2="b2", B3="b1")
    state = state_of(players, {"step": "Running", "team": 0, "moved": 0}, holder="A1")
    assert_rejected(state, RunTo(A2, "a3"), IllegalActionError, "passing through")
    assert not any(isinstance(a, RunTo) and a.player == A2 for a in state.legal_actions())


def test_running_illegal_for_the_defense() -> None:
    players = dict(SPREAD, B2="d10", B4="e6")
    state = state_of(players, {"step": "Running", "team": 1, "moved": 0}, holder="A1")
    # B2 already marks A1 on e9: nobody may join him next to the holder.
    assert_rejected(state, RunTo(B4, "e8"), IllegalActionError, "only one marker")
    assert_rejected(state, RunTo(B4, "f8"), IllegalActionError, "only one marker")
    assert_rejected(state, RunTo(A2, "a6"), IllegalActionError, "not in team B")
    state.apply(RunTo(B4, "e7"))


def test_running_only_the_marker_after_monster_roll() -> None:
    players = dict(SPREAD, B2="d10")
    state = state_of(
        players, {"step": "Running", "team": 1, "moved": 0}, holder="A1", marker_only="B2"
    )
    assert_rejected(state, RunTo(B1, "i13"), IllegalActionError, "only the marker B2")
    assert_rejected(state, RunTo(B4, "e4"), IllegalActionError, "only the marker B2")
    state.apply(RunTo(B2, "c12"))


def test_defense_may_not_pick_up_the_pulled_disc() -> None:
    players = dict(SPREAD, A1="a1")
    state = state_of(players, {"step": "Running", "team": 1, "moved": 0}, disc="e5")
    assert_rejected(state, RunTo(B4, "e5"), IllegalActionError, "only the offense")
    state.apply(RunTo(B4, "e4"))


def test_surplus_markers_must_leave_after_a_turn() -> None:
    players = dict(SPREAD, B2="d10", B3="f10")
    state = state_of(
        players,
        {"step": "Running", "team": 1, "moved": 0},
        holder="A1",
        surplus_must_leave=True,
    )
    assert_rejected(state, END, IllegalActionError, "surplus markers", "B2", "B3")
    state.apply(RunTo(B2, "c12"))
    state.apply(END)  # one marker left: fine


def throwing_state(**changes: str | None) -> GameState:
    players = {
        "A1": "e5",  # the thrower
        "A2": "e9",  # free up the e column
        "A3": "f6",  # right next to him: no free field to throw over
        "A4": "a9",  # diagonal, but B1 on c7 stands in the way
        "B1": "c7",
        "B2": "g6",
        "B3": "i14",
        "B4": "a1",
    }
    players.update(changes)
    return state_of(players, {"step": "Throwing", "team": 0}, holder="A1")


def test_throwing_illegal() -> None:
    state = throwing_state()
    assert {a.notation() for a in state.legal_actions()} == {"pass A2"}
    assert_rejected(state, PassTo(A3), IllegalActionError, "at least one free field")
    assert_rejected(state, PassTo(A4), IllegalActionError, "over an opponent")
    assert_rejected(state, PassTo(B1), IllegalActionError, "not a teammate")
    assert_rejected(state, PassTo(A1), IllegalActionError, "already has the disc")
    assert_rejected(state, DECLARE_TURN, IllegalActionError, "free receiver", "A2")
    assert_rejected(state, RunTo(A2, "e10"), IllegalActionError, "not possible", "throw")
    moved = throwing_state(A3="f7")  # a knight's move away: no straight line
    assert_rejected(moved, PassTo(A3), IllegalActionError, "straight")


def monster_state() -> GameState:
    players = dict(SPREAD, A1="e9", B2="d10")
    return state_of(players, {"step": "MonsterDefense", "team": 1}, holder="A1")


def test_monster_defense_illegal() -> None:
    state = monster_state()
    assert {a.notation() for a in state.legal_actions()} == {"monster B2", "decline"}
    assert_rejected(state, CallMonster(B1), IllegalActionError, "not legal")
    assert_rejected(state, CallMonster(A2), IllegalActionError, "not legal")
    assert_rejected(state, END, IllegalActionError, "not legal")
    assert_rejected(state, DECLINE, WrongSeatError, "not A's turn", seat=0)


def test_monster_die_illegal() -> None:
    state = monster_state()
    state.apply(CallMonster(B2))
    assert state.is_chance()
    assert_rejected(state, DECLINE, IllegalActionError, "not legal", "roll")
    assert_rejected(state, Roll("coins", "HH"), IllegalActionError, "not legal")
    assert_rejected(state, Roll("d6", "7"), IllegalActionError, "not legal")
    assert_rejected(state, Roll("d6", "3"), WrongSeatError, "chance", seat=1)
    coins = SPEC.from_position({**state.to_position(), "options": SPEC.options("coins").to_dict()})
    assert_rejected(coins, Roll("d6", "1"), IllegalActionError, "not legal")


def test_next_player_illegal() -> None:
    state = state_of(
        SPREAD,
        {"step": "NextPlayer", "team": 1, "candidates": [B2, B3]},
        holder="A1",  # the thrower holds the disc until B takes it
        offense="A",
    )
    assert_rejected(state, TakeDisc(B1), IllegalActionError, "not legal", "takes the disc")
    assert_rejected(state, TakeDisc(A1), IllegalActionError, "not legal")
    assert_rejected(state, TakeDisc(B2), WrongSeatError, "not A's turn", seat=0)
    state.apply(TakeDisc(B3), seat=1)


# An off-pitch cell is a well-formed action that can never be legal: asking whether it is
# legal should answer False, as for any other illegal action.
@pytest.mark.parametrize("which", ["setup", "pull", "run"])
def test_is_legal_is_false_for_off_pitch_cells(which: str) -> None:
    if which == "setup":
        state, action = setup_state(), Place("z99")
    elif which == "pull":
        state, action = pull_state(), PullTo("z99")
    else:
        state = state_of(SPREAD, {"step": "Running", "team": 0, "moved": 0}, holder="A1")
        action = RunTo(A2, "z99")
    assert state.is_legal(action) is False


# -- gaps found while writing these tests (engine bugs, now fixed) ------------------------------


@pytest.mark.parametrize("text", ["A1-e٣", "place e٣", "pull e٣", "A1 e١٢"])
def test_notation_takes_ascii_digits_only(text: str) -> None:
    # '٣' is a decimal digit to Python (isdecimal(), and \d in a regex): refused here.
    with pytest.raises(NotationError):
        SPEC.parse_action(text)
