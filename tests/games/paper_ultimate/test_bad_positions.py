"""Paper Ultimate: malformed positions and bad options are refused with a specific error.

Covers positions that are not objects, carry impossible or contradictory fields, or bad
options; option presets, assignments and types.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from monsterball.core.errors import (
    MonsterballError,
    OptionsError,
    PositionError,
)
from monsterball.games.paper_ultimate import PaperUltimateOptions
from tests.helpers.paper_ultimate import SPEC, SPREAD, build, state_of

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
