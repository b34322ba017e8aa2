"""Monsters of the Midway positions (the JSON a record's ``start`` holds): every board field
and every step field is range-checked, and a bad one gives a one-line PositionError that
names it; ``replay --verify`` prints it cleanly. A position may not rest on a bookkeeping
step (one needing no decision)."""

from __future__ import annotations

import copy
import json

import pytest

from monsterball.core.errors import PositionError
from tests.helpers.midway import SPEC, act, setup, start_phase

# A live play: A1 carries, B3 (a brownie) hides among two counters, A4 (a doppelganger)
# is a bugbear for now.


def live_position() -> dict:
    state = setup(
        {"A1": "g10", "A4": "c10", "B3": "h14", "B2": "m20"},
        types={"B3": "brownie", "A4": "doppelganger"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "cast A4 change bugbear", "end", "cast B3 mirror", "d6=2", "image i14", "real h14")
    position = state.to_position()
    assert SPEC.from_position(position).to_position() == position
    return position


BASE = live_position()


def refused(change) -> str:
    data = copy.deepcopy(BASE)
    change(data)
    with pytest.raises(PositionError) as info:
        SPEC.from_position(data)
    text = str(info.value)
    assert "\n" not in text and len(text) < 200
    return text


def board(field, value):
    def change(data):
        data["board"][field] = value

    return change


def board_item(field, index, value):
    def change(data):
        data["board"][field][index] = value

    return change


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (board("offense", 7), "board field 'offense' is 7, outside 0..1"),
        (board("poss", -1), "'poss' is -1"),
        (board("north_team", 2), "board field 'north_team' is 2"),
        (board("caster", 25), "board field 'caster' is 25"),
        (board("caster", 0), "A1 cannot cast mirror image"),
        (board("invisible", 99), "board field 'invisible' is 99"),
        (board("invisible", 0), "A1 cannot turn invisible"),
        (board("images", [500]), "a mirror image's hex is 500"),
        (board("images", [1, 2, 3, 4]), "at most 3 different hexes"),
        (board_item("form", 3, "dragon"), "board field 'form' of A4 is 'dragon'"),
        (board_item("form", 0, "orc"), "A1 is changed into a orc without a change self spell"),
        (board_item("form_left", 3, 9), "board field 'form_left' of A4 is 9"),
        (board_item("out_through", 5, -7), "board field 'out_through' of A6 is -7"),
        (board("slowed", 3 << 22), "board field 'slowed' of B2 is 3"),
        (board("no_tackle", -1), "board field 'no_tackle' is -1"),
        (board("no_tackle_next", 1 << 20), "board field 'no_tackle_next'"),
        (board_item("pos", 0, 9999), "board field 'pos' of A1 is 9999"),
        (board_item("roster", 0, "dragon"), "A1 has unknown type 'dragon'"),
        (board("ball_state", "flying"), "board field 'ball_state' is 'flying'"),
        (board("kind", "rugby"), "board field 'kind' is 'rugby'"),
        (board("dead", "maybe"), "board field 'dead' is 'maybe'"),
        (board("down", 5), "board field 'down' is 5"),
        (board("tried", 1 << 25), "board field 'tried'"),
        (board("last_dir", 6), "board field 'last_dir' is 6"),
        (board("winner", 3), "board field 'winner' is 3"),
        (board("punt_path", [1] * 41), "punt_path"),
        (board("score", [1, 2, 3]), "board field 'score'"),
        (board("carrier", 2), "the ball carrier A3 is not on the field"),
        (board("ball_state", "loose"), "a ball with a carrier must be 'held'"),
        (board("vanish", 30), "'vanish' and 'appear_at' are set without an invisible player"),
    ],
)
def test_a_bad_board_field_is_refused_in_one_line(change, words):
    assert words in refused(change)


@pytest.mark.parametrize(
    "change",
    [
        board_item("pos", 3, True),  # a bool is no int: JSON true where a hex belongs
        board_item("pos", 3, 2.0),
        board("pos", BASE["board"]["pos"][:-1]),  # one short
        board("images", [1, False]),  # a free-length list of ints
        board("down", True),
    ],
)
def test_a_board_field_of_the_wrong_type_is_refused(change):
    assert "has the wrong type" in refused(change)


def test_a_number_among_the_roster_names_is_refused():
    data = copy.deepcopy(BASE)
    data["board"]["roster"][2] = 5
    with pytest.raises(PositionError, match="board field 'roster' has the wrong type"):
        SPEC.from_position(data)


def test_int_subclasses_in_board_lists_read_as_before():
    class Cell(int):  # not what JSON gives, but from_position takes any mapping
        pass

    data = copy.deepcopy(BASE)
    data["board"]["pos"] = [Cell(c) for c in data["board"]["pos"]]
    assert SPEC.from_position(data).to_position() == BASE


def step(index, field, value):
    def change(data):
        data["stack"][index][field] = value

    return change


def test_the_base_position_has_the_steps_the_step_tests_change():
    steps = [s["step"] for s in BASE["stack"]]
    assert steps == ["Play", "Phase"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (step(1, "team", 5), "step 'Phase' field 'team' is 5, outside 0..1"),
        (step(1, "left", [1] * 19), "step 'Phase' field 'left' must hold 20 numbers"),
        (step(1, "left", [99] * 20), "step 'Phase' field 'left' is 99"),
        (step(1, "moving", 40), "step 'Phase' field 'moving' is 40"),
        (step(1, "acted", -1), "step 'Phase' field 'acted' is -1"),
    ],
)
def test_a_bad_step_field_is_refused_in_one_line(change, words):
    assert words in refused(change)


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"step": "TackleRoll", "tackler": 77}, "step 'TackleRoll' field 'tackler' is 77"),
        ({"step": "BlockRoll", "pairs": [0, 11, 2]}, "(blocker, defender) pairs"),
        ({"step": "SetUp", "team": 0, "mode": "sideways"}, "field 'mode' is 'sideways'"),
        ({"step": "Scatter", "reason": "x", "ahead": 0, "roller": 0}, "'reason' is 'x'"),
        ({"step": "PlaceImage", "team": 1, "count": 9}, "field 'count' is 9"),
        ({"step": "TossChoice", "team": 0, "kicker": 4, "ends_set": False}, "'kicker' is 4"),
    ],
)
def test_a_bad_step_pushed_on_the_stack_is_refused(entry, words):
    assert words in refused(lambda data: data["stack"].append(entry))


def test_a_position_resting_on_a_bookkeeping_step_is_refused():
    """StartPhase and EndPhase need no decision: the engine never stops on them."""
    text = refused(lambda data: data["stack"].append({"step": "EndPhase", "team": 0, "acted": 0}))
    assert "the top step 'EndPhase' needs no decision" in text
    text = refused(lambda data: data["stack"].append({"step": "StartPhase", "team": 1}))
    assert "'StartPhase' needs no decision" in text


def test_replay_verify_prints_a_bad_position_in_one_line(tmp_path):
    """A record whose start position has ``offense: 7`` (an IndexError traceback before)."""
    from typer.testing import CliRunner

    from monsterball.cli import app

    data = copy.deepcopy(BASE)
    data["board"]["offense"] = 7
    from monsterball.core.record import GameRecord

    record = GameRecord(
        game="midway",
        rules_version=SPEC.rules_version,
        options=BASE["options"],
        seed=None,
        start=data,
        players={},
    )
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record.header()) + "\n")
    result = CliRunner().invoke(app, ["replay", str(path), "--verify"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().endswith("field 'start': board field 'offense' is 7, outside 0..1")
    assert len(result.output.strip().splitlines()) == 1


def test_a_set_up_that_cannot_be_completed_is_refused():
    """The ball in the corner hex a1: no formation fits around it (an exception in 'auto'
    before)."""

    def change(data):
        data["board"].update(ball=0, carrier=-1, ball_state="", caster=-1, images=[])
        data["board"]["pos"] = [-1] * 20
        data["stack"] = [{"step": "SetUp", "team": 0, "mode": "offense"}]

    assert "the top step 'SetUp' cannot go on from this board" in refused(change)


def test_every_steps_number_fields_have_bounds() -> None:
    # A step added without listing its fields in validate refuses every position that
    # rests on it ("cannot be checked"): the fuzz campaign found LooseBallRound's 'barred'
    # that way (MW-R22). Every int field of every Midway step must have bounds.
    import dataclasses
    import importlib
    import pkgutil

    import monsterball.games.midway as midway
    from monsterball.core.procedures import Procedure
    from monsterball.games.midway import validate

    for module in pkgutil.iter_modules(midway.__path__):
        importlib.import_module(f"monsterball.games.midway.{module.name}")

    def subclasses(cls: type) -> list[type]:
        return [s for c in cls.__subclasses__() for s in (c, *subclasses(c))]

    steps = [c for c in subclasses(Procedure) if c.__module__.startswith(midway.__name__)]
    assert any(c.__name__ == "LooseBallRound" for c in steps)
    unbounded = [
        f"{cls.__name__}.{f.name}"
        for cls in steps
        if dataclasses.is_dataclass(cls)
        for f in dataclasses.fields(cls)
        if "int" in str(f.type)
        and f.name not in validate.STEP_INTS
        and (cls.__name__, f.name) not in validate.STEP_OVERRIDES
    ]
    assert unbounded == []


def test_a_punter_bolted_off_the_field_loses_the_punt_and_the_position_reloads():
    """Found by the fuzz campaign: the snap receiver handed off, a lightning bolt then took
    him off the field, and the position kept him as the punter (MW-PUNT-2: only the snap
    receiver on the field, holding the ball, may punt), so it failed to reload."""
    state = setup(
        {"A1": "g10", "A2": "h10", "B1": "g20", "B2": "a20"},
        types={"B2": "storm-giant"},
        carrier="A2",
        los="g10",
    )
    state.punter = 0  # A1 took the snap and handed off to A2
    start_phase(state, 0)
    act(state, "end", "cast B2 bolt A1")
    assert state.pos[0] < 0 and state.punter < 0
    position = state.to_position()
    assert SPEC.from_position(position).to_position() == position
