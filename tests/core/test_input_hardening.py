"""Hostile input to the core readers (issue 13): records, option values and positions are
refused with one specific error, never a traceback, and the engine's own records always
read back. Each test here failed before the fix it names."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from monsterball.cli import app
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import OptionsError, PositionError, RecordError
from monsterball.core.record import MAX_LINE_BYTES, Recorder, read_record, replay
from monsterball.games import get_game

PU = get_game("paper-ultimate")
MW = get_game("midway")


def small_record(players: dict[str, str] | None = None) -> str:
    recorder = Recorder(PU.new_game(PU.options("small", max_throws=2)), seed=3, players=players)
    dice, rng = SeededSampler(3), random.Random(3)
    state = recorder.state
    while not state.is_terminal():
        if state.is_chance():
            recorder.apply(dice.choose(state.chance_outcomes()))
        else:
            recorder.apply(rng.choice(state.legal_actions()))
    return recorder.record.to_text()


def edit(text: str, number: int, change: Any) -> str:
    lines = text.split("\n")
    data = json.loads(lines[number - 1])
    change(data)
    lines[number - 1] = json.dumps(data)
    return "\n".join(lines)


def swap_line(text: str, number: int, raw: str) -> str:
    lines = text.split("\n")
    lines[number - 1] = raw
    return "\n".join(lines)


def refused(text: str, match: str | None = None) -> RecordError:
    with pytest.raises(RecordError, match=match) as info:
        replay(read_record(text))
    return info.value


# -- records: values Python's json cannot take --------------------------------------------


def test_record_with_a_number_over_4300_digits_is_a_record_error() -> None:
    text = swap_line(
        small_record(), 3, '{"ply": 2, "by": "A", "action": "x", "n": ' + "9" * 5000 + "}"
    )
    assert refused(text, "usable JSON value").line == 3  # was ValueError


def test_record_with_deep_nesting_is_a_record_error() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    text = swap_line(small_record(), 2, '{"ply": 1, "by": "chance", "action": ' + deep + "}")
    assert refused(text, "nested").line == 2  # was RecursionError
    modest = "[" * 40 + "]" * 40  # parses, but deeper than any record needs
    text = swap_line(small_record(), 2, '{"ply": 1, "by": "chance", "action": ' + modest + "}")
    assert refused(text, "nested deeper").line == 2


def test_record_with_an_unpaired_surrogate_is_a_record_error() -> None:
    text = edit(small_record(), 1, lambda d: d["players"].update(A="\ud800"))
    assert refused(text, "surrogate").line == 1


@pytest.mark.parametrize(
    "bad", ['{"ply": 2, "n": ' + "9" * 5000 + "}", "[" * 50_000, '{"ply": "\\udc00"}']
)
def test_cli_replay_verify_gives_a_one_line_error_and_exit_2(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(swap_line(small_record(), 3, bad), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--verify"])
    assert result.exit_code == 2  # 1 is a divergence; this file is not a record
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1 and "line 3" in result.output


# -- records: strict types and keys -------------------------------------------------------


@pytest.mark.parametrize("value", [True, 1.0, "1"])
def test_record_format_must_be_the_integer_1(value: Any) -> None:
    text = edit(small_record(), 1, lambda d: d.update(format=value))
    assert refused(text, "not supported").field == "format"


def test_unknown_keys_are_refused_on_every_line_kind() -> None:
    text = small_record()
    last = len(text.rstrip("\n").split("\n"))
    assert refused(edit(text, 1, lambda d: d.update(note="x")), "unknown key").line == 1
    assert refused(edit(text, last, lambda d: d["end"].update(note=1)), "unknown key").line == last
    assert refused(edit(text, last, lambda d: d.update(note=1)), "unknown key").line == last


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda d: d["end"].update(plies=True), "plies"),
        (lambda d: d["end"].pop("plies"), "plies"),
        (lambda d: d["end"].update(returns="win"), "returns"),
        (lambda d: d["end"].update(result=3), "result"),
    ],
)
def test_end_line_fields_are_typed(change: Any, field: str) -> None:
    text = small_record()
    last = len(text.rstrip("\n").split("\n"))
    assert refused(edit(text, last, change)).field == field


def test_header_strings_are_strings() -> None:
    text = small_record()
    assert refused(edit(text, 1, lambda d: d.update(rules_version=1))).field == "rules_version"
    bad_players = edit(text, 1, lambda d: d.update(players={"A": 5}))
    assert refused(bad_players).field == "players"


class CountingStream(io.StringIO):
    """Counts the characters a reader asked for."""

    taken = 0

    def read(self, size: int | None = -1) -> str:
        out = super().read(size)
        self.taken += len(out)
        return out

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        out = super().readline(size)
        self.taken += len(out)
        return out


def test_an_oversized_line_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    header = small_record().split("\n")[0]
    huge = header + "\n" + '{"ply": 1, "by": "A", "action": "' + "x" * (8 * MAX_LINE_BYTES)
    stream = CountingStream(huge)
    with pytest.raises(RecordError, match="longer than") as info:
        read_record(stream)
    assert info.value.line == 2
    assert stream.taken < len(header) + 2 * MAX_LINE_BYTES  # was: read whole
    path = tmp_path / "huge.jsonl"
    path.write_text(huge, encoding="utf-8")
    with pytest.raises(RecordError, match="longer than"):
        read_record(path)


def test_a_file_that_is_not_utf8_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "bin.jsonl"
    path.write_bytes(small_record().split("\n")[0].encode() + b"\n\xff\xfe\n")
    with pytest.raises(RecordError, match="UTF-8") as info:
        read_record(path)
    assert info.value.line == 2


# -- the engine's own records read back ---------------------------------------------------


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x1c"])
def test_a_record_with_unicode_line_separators_in_a_label_verifies(
    tmp_path: Path, separator: str
) -> None:
    text = small_record(players={"A": f"Ann{separator}Lee", "B": "bot"})
    assert replay(read_record(text)).ok  # was: the header split in two
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    record = read_record(path)
    assert record.players["A"] == f"Ann{separator}Lee"
    assert replay(record).ok
    with path.open(encoding="utf-8", newline="") as handle:
        assert replay(read_record(handle)).ok


ROSTER = "human,human,elf,orc,orc,bugbear,bugbear,dwarf,gnome,halfling"


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\x00", "\x1b", "\n"])
def test_control_characters_in_option_strings_are_refused(char: str) -> None:
    roster = ROSTER.replace("elf,", f"elf{char},")
    with pytest.raises(OptionsError, match="control character"):
        MW.options(roster_a=roster)  # was: accepted, and stored raw
    with pytest.raises(OptionsError, match="control character"):
        MW.options_type.parse_assignments([f"roster_a={roster}"])


# -- option values from text --------------------------------------------------------------


@pytest.mark.parametrize("raw", ["٣", "1_0", "３", "1.0", "0x10", "", "9" * 200, " 1 2"])
def test_integer_options_take_ascii_digits_only(raw: str) -> None:
    with pytest.raises(OptionsError, match="ASCII digits"):
        PU.options_type.parse_assignments([f"max_throws={raw}"])


def test_integer_options_still_read_plain_numbers() -> None:
    assert PU.options_type.parse_assignments(["max_throws= 12 ", "width=-3"]) == {
        "max_throws": 12,
        "width": -3,
    }


@pytest.mark.parametrize("raw", ["ｔrue", "tru", "2", "", "TRUE\x00"])
def test_bool_options_are_strict(raw: str) -> None:
    with pytest.raises(OptionsError, match="true or false"):
        PU.options_type.parse_assignments([f"switch_ends={raw}"])
    assert PU.options_type.parse_assignments(["switch_ends=Yes"]) == {"switch_ends": True}


# -- positions: structure checked before the game reads it --------------------------------


def position() -> dict[str, Any]:
    return PU.new_game(PU.options("small")).to_position()


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda d: d.update(options=None), "'options' must be an object"),
        (lambda d: d.update(options=[1]), "'options' must be an object"),
        (lambda d: d["stack"][0].update(step=["Throwing"]), "step name"),
        (lambda d: d["stack"][0].update(step={"a": 1}), "step name"),
        (lambda d: d.update(format=True), "format"),
        (lambda d: d.update(format=1.0), "format"),
        (lambda d: d.update(ply=2.0), "ply"),
        (lambda d: d.update(game=["paper-ultimate"]), "game"),
        (lambda d: d.update(rules_version=7), "rules_version"),
        (lambda d: d.update(extra=1), "unknown key"),
    ],
)
def test_malformed_position_structure_is_a_position_error(change: Any, match: str) -> None:
    data = position()
    change(data)
    with pytest.raises(PositionError, match=match):
        PU.from_position(data)
