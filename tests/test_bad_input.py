"""Bad input of every kind is refused with a specific error and changes nothing.

Covers action notation, wrong seats, illegal actions in every step type, actions after the
end, chance/decision mix-ups, off-pitch cells, malformed positions, malformed and tampered
records, and unknown options.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from monsterball.core.actions import Action, Roll
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import (
    GameOverError,
    IllegalActionError,
    MonsterballError,
    NotationError,
    OptionsError,
    PositionError,
    RecordError,
    WrongSeatError,
)
from monsterball.core.game import CHANCE, TERMINAL, GameState
from monsterball.core.record import MAX_LINE_BYTES, Recorder, read_record, replay
from monsterball.games.paper_ultimate import PaperUltimateOptions
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
from pu_scenarios import SPEC, position_data, spread_players

A1, A2, A3, A4, B1, B2, B3, B4 = range(8)


def build(players: dict[str, str | None], step: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Position data (north='A': team A defends rows 1-2 and attacks rows 17-18)."""
    return position_data(players, step=step, ply=10, **kwargs)


def state_of(*args: Any, **kwargs: Any) -> GameState:
    return SPEC.from_position(build(*args, **kwargs))


SPREAD = spread_players()


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


# -- malformed positions -------------------------------------------------------------------


def valid_position() -> dict[str, Any]:
    return build(SPREAD, {"step": "Running", "team": 0, "moved": 0}, holder="A1")


def test_valid_position_is_accepted() -> None:
    state = SPEC.from_position(valid_position())
    assert state.current_player() == 0


def broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(valid_position())
    change(data)
    return data


BAD_POSITIONS: dict[str, tuple[Any, str]] = {
    "missing format": (lambda d: d.pop("format"), "format"),
    "missing game": (lambda d: d.pop("game"), "game"),
    "missing options": (lambda d: d.pop("options"), "options"),
    "missing ply": (lambda d: d.pop("ply"), "ply"),
    "missing board": (lambda d: d.pop("board"), "board"),
    "missing stack": (lambda d: d.pop("stack"), "stack"),
    "missing board players": (lambda d: d["board"].pop("players"), "players"),
    "missing board score": (lambda d: d["board"].pop("score"), "score"),
    "unknown board key": (lambda d: d["board"].update(colour="red"), "colour"),
    "wrong format": (lambda d: d.update(format=2), "format"),
    "wrong game": (lambda d: d.update(game="blood-bowl"), "blood-bowl"),
    "negative ply": (lambda d: d.update(ply=-1), "ply"),
    "ply not int": (lambda d: d.update(ply="3"), "ply"),
    "stack not list": (lambda d: d.update(stack={"step": "Running"}), "stack"),
    "board not object": (lambda d: d.update(board=[]), "board"),
    "two players on one field": (lambda d: d["board"]["players"].update(A2="e9"), "e9"),
    "seven players": (lambda d: d["board"]["players"].pop("B4"), "players"),
    "unknown player": (
        lambda d: d["board"]["players"].update(C1=d["board"]["players"].pop("B4")),
        "C1",
    ),
    "player off the pitch": (lambda d: d["board"]["players"].update(A2="z40"), "z40"),
    "player cell not a string": (lambda d: d["board"]["players"].update(A2=5), "A2"),
    "bad offense team": (lambda d: d["board"].update(offense="C"), "offense"),
    "bad north team": (lambda d: d["board"].update(north_team=1), "north_team"),
    "bad holder": (lambda d: d["board"].update(holder="Q7"), "holder"),
    "disc off the pitch": (lambda d: d["board"].update(disc="a99"), "disc"),
    "disc away from holder": (lambda d: d["board"].update(disc="a1"), "holder"),
    "loose disc on a player": (lambda d: d["board"].update(holder=None, disc="a5"), "empty field"),
    "negative score": (lambda d: d["board"].update(score=[0, -1]), "score"),
    "score too short": (lambda d: d["board"].update(score=[0]), "score"),
    "bad throws": (lambda d: d["board"].update(throws=-2), "throws"),
    "bad winner": (lambda d: d["board"].update(winner=3), "winner"),
    "winner but play goes on": (lambda d: d["board"].update(winner=0), "winner"),
    "over without winner": (lambda d: d.update(stack=[]), "winner"),
    "bad marker_only": (lambda d: d["board"].update(marker_only="B9"), "marker_only"),
    "bad surplus flag": (lambda d: d["board"].update(surplus_must_leave="yes"), "surplus"),
    "unknown step": (lambda d: d.update(stack=[{"step": "Dance", "team": 0}]), "Dance"),
    "step without name": (lambda d: d.update(stack=[{"team": 0}]), "step"),
    "step missing field": (lambda d: d.update(stack=[{"step": "Running", "team": 0}]), "moved"),
    "step extra field": (
        lambda d: d.update(stack=[{"step": "Running", "team": 0, "moved": 0, "speed": 9}]),
        "speed",
    ),
    "players missing mid-game": (lambda d: d["board"]["players"].update(B4=None), "8 players"),
    # Steps checked against the board (issue 13): these loaded before and then crashed or
    # played on from a situation the rules never reach.
    "two steps": (lambda d: d.update(stack=d["stack"] * 2), "one step"),
    "throwing by the defense": (
        lambda d: d.update(stack=[{"step": "Throwing", "team": 1}]),
        "is the offense's",
    ),
    "throwing with a loose disc": (
        lambda d: (
            d.update(stack=[{"step": "Throwing", "team": 0}]),
            d["board"].update(holder=None, disc="e12"),
        ),
        "must hold the disc",
    ),
    "pull by the offense": (lambda d: d.update(stack=[{"step": "Pull", "team": 0}]), "defending"),
    "running with another team's moved": (
        lambda d: d.update(stack=[{"step": "Running", "team": 0, "moved": 1 << 4}]),
        "moved",
    ),
    "monster die for an attacker": (
        lambda d: d.update(stack=[{"step": "MonsterDie", "marker": 1}]),
        "marker",
    ),
    "next player with no candidates": (
        lambda d: d.update(stack=[{"step": "NextPlayer", "team": 1, "candidates": []}]),
        "candidates",
    ),
    "next player from the wrong team": (
        lambda d: d.update(stack=[{"step": "NextPlayer", "team": 1, "candidates": [1]}]),
        "candidates",
    ),
    "choosing the puller with the disc handed out": (
        lambda d: d.update(stack=[{"step": "HandDisc", "team": 1}]),
        "handed out",
    ),
    "marker_only on the offense": (lambda d: d["board"].update(marker_only="A2"), "marker_only"),
    "a score that has already won": (lambda d: d["board"].update(score=[5, 0]), "already won"),
    "throws past the cap": (
        lambda d: (d["options"].update(max_throws=10), d["board"].update(throws=11)),
        "past the cap",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_POSITIONS))
def test_malformed_position(name: str) -> None:
    change, word = BAD_POSITIONS[name]
    with pytest.raises(PositionError) as info:
        SPEC.from_position(broken(change))
    assert word.lower() in str(info.value).lower()


def test_position_that_is_not_an_object() -> None:
    for bad in ([], "position", None, 5):
        with pytest.raises(PositionError):
            SPEC.from_position(bad)  # type: ignore[arg-type]


def test_position_with_bad_options() -> None:
    data = broken(lambda d: d["options"].update(width=3))
    with pytest.raises(OptionsError):
        SPEC.from_position(data)


@pytest.mark.parametrize(
    "step",
    [
        {"step": "Running", "team": 7, "moved": 0},
        {"step": "Running", "team": 0, "moved": "x"},
        {"step": "Throwing", "team": "A"},
    ],
)
def test_step_with_impossible_field_values(step: dict[str, Any]) -> None:
    with pytest.raises(PositionError):
        SPEC.from_position(broken(lambda d: d.update(stack=[step])))


def test_holder_must_be_on_offense() -> None:
    data = build(SPREAD, {"step": "Throwing", "team": 0}, holder="B1", offense="A")
    with pytest.raises(PositionError, match="offense"):
        SPEC.from_position(data)
    # ... except the puller, who holds the disc for the receiving team's opponents.
    data = build(SPREAD, {"step": "Pull", "team": 1}, holder="B1", offense="A")
    assert SPEC.from_position(data).current_player() == 1


# -- malformed records ---------------------------------------------------------------------


def small_record(seed: int = 5, hash_every: int = 16) -> tuple[str, Recorder]:
    opts = SPEC.options("small", max_throws=12)
    recorder = Recorder(SPEC.new_game(opts), seed=seed, hash_every=hash_every)
    bot, dice = random.Random(seed), SeededSampler(seed)
    state = recorder.state
    while not state.is_terminal():
        if state.is_chance():
            recorder.apply(dice.choose(state.chance_outcomes()))
        else:
            recorder.apply(bot.choice(state.legal_actions()))
    return recorder.record.to_text(), recorder


def edit_line(text: str, number: int, change: Any) -> str:
    lines = text.splitlines()
    data = json.loads(lines[number - 1])
    change(data)
    lines[number - 1] = json.dumps(data)
    return "\n".join(lines) + "\n"


def replace_line(text: str, number: int, new: str) -> str:
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


def assert_record_error(text: str, line: int, field: str | None) -> RecordError:
    with pytest.raises(RecordError) as info:
        record = read_record(text)
        replay(record)  # errors in the header that only the game can judge come here
    error = info.value
    assert error.line == line
    assert f"line {line}" in str(error)
    if field is not None:
        assert error.field == field
        assert f"'{field}'" in str(error)
    return error


def test_valid_record_reads_and_replays() -> None:
    text, _ = small_record()
    assert replay(read_record(text)).ok


MALFORMED: dict[str, tuple[Any, int, str | None]] = {
    "not json (header)": (lambda t: replace_line(t, 1, "{not json"), 1, None),
    "not json (action)": (lambda t: replace_line(t, 4, '{"ply": 3, "by": '), 4, None),
    "not an object": (lambda t: replace_line(t, 3, "[1, 2]"), 3, None),
    "empty": (lambda t: "", 1, None),
    "missing seed": (lambda t: edit_line(t, 1, lambda d: d.pop("seed")), 1, "seed"),
    "missing game": (lambda t: edit_line(t, 1, lambda d: d.pop("game")), 1, "game"),
    "missing options": (lambda t: edit_line(t, 1, lambda d: d.pop("options")), 1, "options"),
    "missing by": (lambda t: edit_line(t, 5, lambda d: d.pop("by")), 5, "by"),
    "missing action": (lambda t: edit_line(t, 6, lambda d: d.pop("action")), 6, "action"),
    "missing ply": (lambda t: edit_line(t, 2, lambda d: d.pop("ply")), 2, "ply"),
    "skipped ply": (lambda t: edit_line(t, 4, lambda d: d.update(ply=4)), 4, "ply"),
    "repeated ply": (lambda t: edit_line(t, 5, lambda d: d.update(ply=3)), 5, "ply"),
    "ply as text": (lambda t: edit_line(t, 5, lambda d: d.update(ply="4")), 5, "ply"),
    "ply as bool": (lambda t: edit_line(t, 2, lambda d: d.update(ply=True)), 2, "ply"),
    "action not a string": (lambda t: edit_line(t, 3, lambda d: d.update(action=7)), 3, "action"),
    "hash not a string": (lambda t: edit_line(t, 3, lambda d: d.update(hash=12)), 3, "hash"),
    "seed as text": (lambda t: edit_line(t, 1, lambda d: d.update(seed="5")), 1, "seed"),
    "seed as float": (lambda t: edit_line(t, 1, lambda d: d.update(seed=5.5)), 1, "seed"),
    "seed as bool": (lambda t: edit_line(t, 1, lambda d: d.update(seed=True)), 1, "seed"),
    "not monsterball": (lambda t: edit_line(t, 1, lambda d: d.update(record="chess")), 1, "record"),
    "future format": (lambda t: edit_line(t, 1, lambda d: d.update(format=3)), 1, "format"),
    "game not a string": (lambda t: edit_line(t, 1, lambda d: d.update(game=3)), 1, "game"),
    "unknown game": (lambda t: edit_line(t, 1, lambda d: d.update(game="quidditch")), 1, "game"),
    "options not an object": (
        lambda t: edit_line(t, 1, lambda d: d.update(options=[])),
        1,
        "options",
    ),
    "unknown option": (
        lambda t: edit_line(t, 1, lambda d: d["options"].update(gravity=2)),
        1,
        "options",
    ),
    "option out of range": (
        lambda t: edit_line(t, 1, lambda d: d["options"].update(width=99)),
        1,
        "options",
    ),
    "option of the wrong type": (
        lambda t: edit_line(t, 1, lambda d: d["options"].update(switch_ends="yes")),
        1,
        "options",
    ),
    "start not an object": (lambda t: edit_line(t, 1, lambda d: d.update(start=5)), 1, "start"),
    "bad start position": (
        lambda t: edit_line(t, 1, lambda d: d.update(start={"format": 1})),
        1,
        "start",
    ),
    "players not an object": (
        lambda t: edit_line(t, 1, lambda d: d.update(players=[])),
        1,
        "players",
    ),
    "unknown key in action": (lambda t: edit_line(t, 3, lambda d: d.update(note="x")), 3, None),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_record(name: str) -> None:
    text, _ = small_record()
    change, line, field = MALFORMED[name]
    assert_record_error(change(text), line, field)


def test_end_line_that_is_not_an_object() -> None:
    text, _ = small_record()
    count = len(text.splitlines())
    assert_record_error(replace_line(text, count, '{"end": 5}'), count, "end")


def test_text_after_the_end_line() -> None:
    text, _ = small_record()
    count = len(text.splitlines())
    bad = text + '{"ply": 999, "by": "A", "action": "end"}\n'
    assert_record_error(bad, count + 1, None)
    with pytest.raises(RecordError, match="end line"):
        read_record(bad)


def test_oversized_line() -> None:
    text, _ = small_record()
    huge = json.dumps({"ply": 3, "by": "A", "action": "x" * (MAX_LINE_BYTES + 10)})
    error = assert_record_error(replace_line(text, 4, huge), 4, None)
    assert "longer than" in str(error)


# -- tampered records ----------------------------------------------------------------------


def action_lines(text: str) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        data = json.loads(raw)
        if "ply" in data:
            out.append((number, data))
    return out


def divergence_of(text: str) -> RecordError:
    report = replay(read_record(text), verify=True)
    assert report.divergence is not None, "tampering went unnoticed"
    return report.divergence


def test_changed_action_to_an_illegal_one() -> None:
    text, _ = small_record()
    # The 12th recorded action: replace it with something never legal there.
    number, _ = action_lines(text)[11]
    bad = edit_line(text, number, lambda d: d.update(action="pull a5"))
    error = divergence_of(bad)
    assert error.line == number and error.field == "action"


def alternatives(text: str, start: int) -> tuple[int, int, dict[str, Any], list[str]]:
    """The first recorded decision at or after action ``start`` that had another choice."""
    lines = action_lines(text)
    record = read_record(text)
    for index in range(start, len(lines)):
        number, data = lines[index]
        state = replay(record, upto=index).state
        if state.is_chance():
            continue
        others = [a.notation() for a in state.legal_actions() if a.notation() != data["action"]]
        if others:
            return index, number, data, others
    raise AssertionError("no decision with a choice")


@pytest.mark.parametrize("start", [3, 20, 45, 80])
def test_changed_action_to_another_legal_one(start: int) -> None:
    # With a hash on every line the very line that was changed is named.
    text, _ = small_record(hash_every=1)
    _, number, _, others = alternatives(text, start)
    bad = edit_line(text, number, lambda d: d.update(action=others[0]))
    error = divergence_of(bad)
    assert error.line == number
    assert error.field in ("hash", "action")


def test_changed_action_is_caught_by_the_next_hash() -> None:
    text, _ = small_record(hash_every=16)
    lines = action_lines(text)
    index, number, _, others = alternatives(text, 17)
    assert (index + 1) % 16 != 0  # not itself a hashed line
    bad = edit_line(text, number, lambda d: d.update(action=others[-1]))
    error = divergence_of(bad)
    next_hash = next(n for n, d in lines[index:] if "hash" in d)
    assert number <= error.line <= next_hash


def test_changed_hash() -> None:
    text, _ = small_record()
    number, _ = next((n, d) for n, d in action_lines(text) if "hash" in d)
    bad = edit_line(text, number, lambda d: d.update(hash="0" * 16))
    error = divergence_of(bad)
    assert error.line == number and error.field == "hash"


def test_changed_chance_outcome_in_a_seeded_record() -> None:
    text, _ = small_record()
    # The toss is ply 1 on line 2.
    first = action_lines(text)[0]
    assert first[1]["by"] == "chance"
    flipped = "toss=B" if first[1]["action"] == "toss=A" else "toss=A"
    error = divergence_of(edit_line(text, first[0], lambda d: d.update(action=flipped)))
    assert error.line == first[0] and error.field == "action"
    assert "seed" in str(error)


def test_changed_monster_roll_in_a_seeded_record() -> None:
    for seed in range(1, 40):
        text, _ = small_record(seed=seed)
        rolls = [(n, d) for n, d in action_lines(text) if d["action"].startswith("d6=")]
        if rolls:
            break
    else:
        pytest.fail("no seed gave a monster-defense roll")
    number, data = rolls[0]
    value = int(data["action"].split("=")[1])
    other = f"d6={value % 6 + 1}"
    error = divergence_of(edit_line(text, number, lambda d: d.update(action=other)))
    assert error.line == number and error.field == "action"


def test_changed_seed() -> None:
    text, recorder = small_record(seed=5)
    toss = recorder.record.actions[0].action
    outcomes = SPEC.new_game(SPEC.options("small")).chance_outcomes()
    # A seed whose first toss differs from the recorded one.
    other = next(s for s in range(6, 100) if SeededSampler(s).choose(outcomes).notation() != toss)
    error = divergence_of(edit_line(text, 1, lambda d: d.update(seed=other)))
    assert error.line == 2 and error.field == "action"
    assert "seed" in str(error)


def test_changed_seat() -> None:
    text, _ = small_record()
    number, _ = next((n, d) for n, d in action_lines(text) if d["by"] == "A")
    error = divergence_of(edit_line(text, number, lambda d: d.update(by="B")))
    assert error.line == number and error.field == "by"


def test_truncated_record_with_end_line() -> None:
    text, _ = small_record()
    lines = text.splitlines()
    end = json.loads(lines[-1])
    # Drop the last five actions but keep a consistent plies count: the game is not over.
    kept = lines[:-6]
    end["end"]["plies"] = len(kept) - 1
    error = divergence_of("\n".join([*kept, json.dumps(end)]) + "\n")
    assert error.line == len(kept) + 1 and error.field == "end"


def test_wrong_plies_in_end_line() -> None:
    text, _ = small_record()
    count = len(text.splitlines())
    bad = edit_line(text, count, lambda d: d["end"].update(plies=d["end"]["plies"] + 1))
    error = divergence_of(bad)
    assert error.line == count and error.field == "plies"


def test_changed_final_hash() -> None:
    text, _ = small_record()
    count = len(text.splitlines())
    bad = edit_line(text, count, lambda d: d["end"].update(hash="f" * 16))
    error = divergence_of(bad)
    assert error.line == count and error.field == "hash"


def test_changed_rules_version() -> None:
    text, _ = small_record()
    error = divergence_of(edit_line(text, 1, lambda d: d.update(rules_version="x/9")))
    assert error.line == 1 and error.field == "rules_version"


# -- options -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "overrides", "word"),
    [
        ("nope", {}, "unknown preset"),
        (None, {"colour": "red"}, "unknown option"),
        (None, {"width": 4}, "at least 5"),
        (None, {"width": 27}, "at most 26"),
        (None, {"length": 41}, "at most 40"),
        (None, {"points_to_win": 0}, "at least 1"),
        (None, {"width": "9"}, "must be int"),
        (None, {"width": True}, "must be int"),
        (None, {"width": 9.0}, "must be int"),
        (None, {"switch_ends": 1}, "must be bool"),
        (None, {"monster_defense": "dice"}, "one of die, coins, off"),
        (None, {"turn_pickup": "random"}, "one of"),
        (None, {"first_receiver": "C"}, "one of"),
        (None, {"max_throws": -1}, "at least 0"),
        ("small", {"run_distance": 9}, "at most 8"),
    ],
)
def test_bad_options(preset: str | None, overrides: dict[str, Any], word: str) -> None:
    with pytest.raises(OptionsError) as info:
        SPEC.options(preset, **overrides)
    assert word in str(info.value)


@pytest.mark.parametrize(
    ("assignment", "word"),
    [
        ("width", "key=value"),
        ("colour=red", "unknown option"),
        ("width=wide", "integer"),
        ("switch_ends=maybe", "true or false"),
    ],
)
def test_bad_option_assignments(assignment: str, word: str) -> None:
    with pytest.raises(OptionsError) as info:
        PaperUltimateOptions.parse_assignments([assignment])
    assert word in str(info.value)


def test_good_option_assignments_are_typed() -> None:
    parsed = PaperUltimateOptions.parse_assignments(
        ["width=7", "switch-ends=off", "monster_defense=coins"]
    )
    assert parsed == {"width": 7, "switch_ends": False, "monster_defense": "coins"}
    assert SPEC.options(**parsed).width == 7


def test_options_read_again_are_checked_by_type_too() -> None:
    # from_dict keeps what it validated (every position carries its options): the same
    # values read again give an equal object, but a value of another type is still judged
    # afresh (True, 1 and 1.0 are equal in Python).
    good = SPEC.options("small").to_dict()
    assert PaperUltimateOptions.from_dict(good) == PaperUltimateOptions.from_dict(dict(good))
    for flag, number in ((True, 1), (False, 0), (False, 0.0)):
        with_flag = {**good, "switch_ends": flag}
        assert PaperUltimateOptions.from_dict(with_flag).switch_ends is flag
        with pytest.raises(OptionsError, match="switch_ends"):
            PaperUltimateOptions.from_dict({**good, "switch_ends": number})
    width = {**good, "width": 7}
    assert PaperUltimateOptions.from_dict(width).width == 7
    with pytest.raises(OptionsError, match="width"):
        PaperUltimateOptions.from_dict({**good, "width": 7.0})
    with pytest.raises(OptionsError):  # unhashable: not kept, refused as ever
        PaperUltimateOptions.from_dict({**good, "width": [7]})


def test_options_errors_are_engine_errors() -> None:
    assert issubclass(OptionsError, MonsterballError)
    with pytest.raises(ValueError):
        PaperUltimateOptions.from_dict({"nope": 1})


# -- gaps found while writing these tests (engine bugs, now fixed) ------------------------------


def test_tampered_end_result_is_detected() -> None:
    text, _ = small_record()
    count = len(text.splitlines())

    def lie(d: dict[str, Any]) -> None:
        d["end"]["result"] = "team B wins, A 0 - B 9"
        d["end"]["returns"] = [-1.0, 1.0]

    error = divergence_of(edit_line(text, count, lie))
    assert error.line == count and error.field in ("result", "returns")


def test_header_options_must_match_the_start_position() -> None:
    state = SPEC.new_game(SPEC.options("small"))
    bot, dice = random.Random(1), SeededSampler(1)
    for _ in range(100):
        state.apply(
            dice.choose(state.chance_outcomes())
            if state.is_chance()
            else bot.choice(state.legal_actions())
        )
    recorder = Recorder(state, seed=None)
    for _ in range(30):
        recorder.apply(
            dice.choose(state.chance_outcomes())
            if state.is_chance()
            else bot.choice(state.legal_actions())
        )
    text = recorder.record.to_text()
    assert recorder.record.start is not None
    bad = edit_line(text, 1, lambda d: d["options"].update(width=9, points_to_win=1))
    error: RecordError | None
    try:
        error = replay(read_record(bad)).divergence
    except RecordError as exc:  # reported up front, or as a divergence: either will do
        error = exc
    assert error is not None, "the contradiction went unnoticed"
    assert error.line == 1


def test_player_named_twice_in_a_position() -> None:
    data = build({"A1": "a1"}, {"step": "SetUp", "team": 0})
    players = data["board"]["players"]
    del players["B4"]
    players["a1"] = "b1"
    with pytest.raises(PositionError):
        SPEC.from_position(data)


def test_setup_position_with_a_player_outside_the_end_zone() -> None:
    with pytest.raises(PositionError):
        state_of({"A1": "e9"}, {"step": "SetUp", "team": 0})


def test_position_ply_must_not_be_a_bool() -> None:
    with pytest.raises(PositionError):
        SPEC.from_position(broken(lambda d: d.update(ply=True)))


def test_a_position_resting_on_the_start_of_a_point_is_settled() -> None:
    # StartPoint needs no decision: the position runs on to the receiving team's set-up
    # instead of resting where nobody acts.
    data = build({}, {"step": "StartPoint", "receiver": 1})
    state = SPEC.from_position(data)
    assert state.current_player() == 1 and type(state.stack[-1]).__name__ == "SetUp"
    assert state.view()["to_act"] is not None
    assert SPEC.from_position(state.to_position()).to_position() == state.to_position()


@pytest.mark.parametrize("text", ["A1-e٣", "place e٣", "pull e٣", "A1 e١٢"])
def test_notation_takes_ascii_digits_only(text: str) -> None:
    # '٣' is a decimal digit to Python (isdecimal(), and \d in a regex): refused here.
    with pytest.raises(NotationError):
        SPEC.parse_action(text)
