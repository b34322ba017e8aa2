"""Issue 35 item 13, the small things: numbering, intervals, help and tables at 80 columns,
board legends and redraws, the Midway carrier named, the result said once."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from monsterball.bots.protocol import play_game
from monsterball.bots.registry import make_bot
from monsterball.cli import app
from monsterball.core.dice import SeededSampler
from monsterball.core.record import read_record
from monsterball.games import get_game
from monsterball.terminal.line_game import TerminalGame


def invoke(*args: str, columns: int = 200) -> Result:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert "Traceback" not in result.output
    return result


def test_luck_numbers_plies_as_the_record_does(tmp_path: Path) -> None:
    from monsterball.records.luck import luck_report

    spec = get_game("hm")
    options = spec.options("small", points_to_win=1, max_up_calls=8)
    bots = [make_bot("heuristic", s) for s in range(2)]
    _, record, _ = play_game(spec, options, bots, 6, record=True)
    assert record is not None
    record = read_record(record.to_text())
    by_ply = {entry.ply: entry.action for entry in record.actions}
    report = luck_report(record)
    assert report.biggest
    for ply, outcome, _ in report.biggest:
        assert by_ply[ply] == outcome  # the record's line for that ply is that outcome


def test_match_says_when_an_elo_interval_cannot_be_had() -> None:
    out = invoke("match", "pu", "--bots", "random,heuristic", "-n", "2", "--preset", "small",
                 "--opt", "max_throws=4", "--no-db").output  # fmt: skip
    ratings = out.split("Elo of this match")[1]
    assert "unknown (too few games)" in ratings
    assert not any(
        row.split("│")[3].strip().split(" - ")[0] == row.split("│")[3].strip().split(" - ")[-1]
        for row in ratings.splitlines()
        if row.count("│") == 5 and " - " in row
    )


def test_command_help_is_not_hard_wrapped() -> None:
    out = invoke("--help", columns=80).output
    simulate = out.split("│ simulate")[1].split("│ match")[0]
    ends = [line.strip("│ ").split()[-1] for line in simulate.splitlines() if line.strip("│ ")]
    # The docstring's own line breaks ('draws;' then 'with --sweep') are gone: the terminal
    # wraps each paragraph at its width.
    assert "draws;" not in ends and "(the" not in ends, simulate


def test_lab_tables_keep_settings_whole_at_80_columns() -> None:
    out = invoke("simulate", "hm", "--preset", "small", "-n", "2", "--sweep",
                 "callahans=false,true", "--jobs", "1", columns=80).output  # fmt: skip
    assert "callahans=false" in out and "callahans=true" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "UpCallStarted" not in out  # the turnover's reason, not the next step's event


def terminal_game(game: str, preset: str, **opts: object) -> tuple[TerminalGame, list[str]]:
    spec = get_game(game)
    state = spec.new_game(spec.options(preset, **opts))
    rng = random.Random(2)

    def read(_: str) -> str:
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))].notation()

    game_ = TerminalGame(spec, state, {1: make_bot("heuristic", 3)}, SeededSampler(4), None,
                         Console(highlight=False, width=120), read=read)  # fmt: skip
    return game_, []


@pytest.mark.parametrize(("game", "preset", "opts"), [
    ("pu", "small", {"max_throws": 3}),
    ("hm", "small", {"points_to_win": 1, "max_up_calls": 3}),
])  # fmt: skip
def test_boards_have_a_legend_and_the_result_is_said_once(
    game: str, preset: str, opts: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    terminal, _ = terminal_game(game, preset, **opts)
    assert terminal.run()
    terminal.draw(None)  # the final board, as 'play' draws it
    out = capsys.readouterr().out
    assert out.count("Legend: A1 team A, B1 team B") == 1  # under the first board
    result = terminal.state.result_text()
    final_board = out.split("Game over")[-1].split("\n", 1)[1]
    assert result not in final_board  # 'play' says it once, as 'Result:'


def test_the_board_is_redrawn_within_a_turn(capsys: pytest.CaptureFixture[str]) -> None:
    """HM-MOVE: a team move is several players' moves by one coach; the board is drawn
    again before each of them."""
    terminal, _ = terminal_game("hm", "small", points_to_win=1, max_up_calls=2)
    terminal.run()
    out = capsys.readouterr().out
    chunks = out.split("south end zone")
    consecutive = [c for c in chunks if c.count("\nA: ") == 1 and "B (heuristic)" not in c]
    assert len(consecutive) >= 3, "no board between two of A's moves in one turn"


def test_the_midway_carrier_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers.midway import SPEC, caster_carrying_for_b

    state = caster_carrying_for_b()
    TerminalGame(SPEC, state, {}, SeededSampler(1), None, read=lambda _: "quit").run()
    assert "B* on the field: B1 carries the ball." in capsys.readouterr().out
