"""Records of games that end off the board (a clock ran out: docs/web.md "Clocks"): format 2
end lines with ``termination`` and ``loser`` that verify, tampering that is caught, and
format 1 records read as before; agreed draws (docs/web.md "Draw offers"): format 3 end lines
with ``termination: agreed`` and no loser, only in games whose rules can end level."""

from __future__ import annotations

import random

import pytest

from monsterball.core.game import CHANCE, forfeit_result
from monsterball.core.record import Recorder, read_record, record_to_string, replay
from monsterball.games import get_game


def played(moves: int, seed: int = 3, game: str = "huck-monster", **options) -> Recorder:
    spec = get_game(game)
    recorder = Recorder(spec.new_game(spec.options(None, **options)), seed=None)
    rng = random.Random(seed)
    for _ in range(moves):
        step(recorder, rng)
    return recorder


def step(recorder: Recorder, rng: random.Random) -> None:
    state = recorder.state
    if state.current_player() == CHANCE:
        recorder.apply(rng.choice(state.chance_outcomes())[0])
    else:
        recorder.apply(state.sample_legal(rng))


def test_a_game_lost_on_time_records_and_verifies():
    recorder = played(30)
    recorder.forfeit(1, "time")
    text = record_to_string(recorder.record)
    record = read_record(text)
    assert record.format == 2
    assert record.end["termination"] == "time" and record.end["loser"] == "B"
    assert record.end["result"] == "team A wins on time: team B's clock ran out"
    assert record.end["returns"] == [1.0, -1.0]
    report = replay(record)
    assert report.ok and report.plies == 30


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (('"loser":"B"', '"loser":"A"'), "result"),  # the other side lost: result differs
        (('"loser":"B"', '"loser":"C"'), "loser"),
        (('"returns":[1.0,-1.0]', '"returns":[-1.0,1.0]'), "returns"),
    ],
)
def test_a_tampered_time_ending_is_caught(change, field):
    recorder = played(20)
    recorder.forfeit(1, "time")
    text = record_to_string(recorder.record).replace(*change)
    report = replay(read_record(text))
    assert not report.ok and report.divergence.field == field


def test_format_1_cannot_hold_an_off_board_end_and_unknown_terminations_are_refused():
    recorder = played(10)
    recorder.forfeit(0, "abandoned")
    text = record_to_string(recorder.record)
    with pytest.raises(Exception, match="needs format 2"):
        read_record(text.replace('"format":2', '"format":1'))
    with pytest.raises(Exception, match="must be one of time, abandoned"):
        read_record(text.replace('"termination":"abandoned"', '"termination":"conceded"'))
    with pytest.raises(Exception, match="not supported"):
        read_record(text.replace('"format":2', '"format":4'))


def test_a_finished_game_cannot_be_lost_on_time():
    spec = get_game("paper-ultimate")
    options = spec.options(None, points_to_win=1)
    recorder = Recorder(spec.new_game(options), seed=None)
    rng = random.Random(1)
    while not recorder.state.is_terminal():
        step(recorder, rng)
    with pytest.raises(ValueError, match="already over"):
        recorder.forfeit(0, "time")
    assert recorder.record.format == 1  # games that end on the board stay format 1
    assert replay(read_record(record_to_string(recorder.record))).ok


def test_forfeit_results_name_winner_and_loser():
    spec = get_game("midway")
    assert forfeit_result(spec, 0, "abandoned") == (
        "team B wins: team A abandoned the game (no move in time)",
        (-1.0, 1.0),
    )
    with pytest.raises(ValueError):
        forfeit_result(spec, 2, "time")


def test_replay_verifies_a_time_ending_and_prints_its_result(tmp_path):
    from typer.testing import CliRunner

    from monsterball.cli import app

    recorder = played(12)
    recorder.forfeit(0, "time")
    path = tmp_path / "lost-on-time.jsonl"
    path.write_text(record_to_string(recorder.record), encoding="utf-8")
    done = CliRunner().invoke(app, ["replay", str(path), "--verify"])
    assert done.exit_code == 0, done.output
    assert "Result: team B wins on time: team A's clock ran out" in done.output
    path.write_text(record_to_string(recorder.record).replace('"loser":"A"', '"loser":"B"'))
    diverged = CliRunner().invoke(app, ["replay", str(path), "--verify"])
    assert diverged.exit_code == 1


def test_an_agreed_draw_in_midway_records_and_verifies():
    # MW-GEN-4: a game of 25 plays; level scores draw, so the players may agree one.
    recorder = played(40, game="midway")
    recorder.agree_draw()
    record = read_record(record_to_string(recorder.record))
    assert record.format == 3
    assert record.end["termination"] == "agreed" and "loser" not in record.end
    score = recorder.state.score_text()
    assert record.end["result"] == f"draw by agreement, {score}"
    assert record.end["returns"] == [0.0, 0.0]
    report = replay(record)
    assert report.ok and report.plies == 40


def test_first_to_n_games_cannot_agree_a_draw_unless_a_cap_can_end_them_level():
    # PU-R10 / HM-R31: only the throw or Up Call cap ends these games level.
    with pytest.raises(ValueError, match="cannot end in a draw"):
        played(10, game="paper-ultimate").agree_draw()
    with pytest.raises(ValueError, match="cannot end in a draw"):
        played(10).agree_draw()
    capped = played(10, game="paper-ultimate", max_throws=200)
    capped.agree_draw()
    assert replay(read_record(record_to_string(capped.record))).ok
    # A resignation rewritten into an agreed draw, in a game that cannot be drawn, is caught.
    resigned = played(10, game="paper-ultimate")
    resigned.forfeit(0, "resigned")
    text = record_to_string(resigned.record).replace('"format":2', '"format":3')
    text = text.replace('"termination":"resigned","loser":"A"', '"termination":"agreed"')
    report = replay(read_record(text))
    assert not report.ok and report.divergence.field == "termination"
    assert "cannot end in a draw" in str(report.divergence)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (('"format":3', '"format":2'), "needs format 3"),
        (('"termination":"agreed"', '"termination":"agreed","loser":"A"'), "names no loser"),
    ],
)
def test_an_agreed_draw_needs_format_3_and_names_no_loser(change, why):
    recorder = played(20, game="midway")
    recorder.agree_draw()
    with pytest.raises(Exception, match=why):
        read_record(record_to_string(recorder.record).replace(*change))


def test_a_tampered_agreed_draw_is_caught():
    recorder = played(20, game="midway")
    recorder.agree_draw()
    text = record_to_string(recorder.record).replace('"returns":[0.0,0.0]', '"returns":[1.0,-1.0]')
    report = replay(read_record(text))
    assert not report.ok and report.divergence.field == "returns"
