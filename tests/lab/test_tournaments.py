"""Tournaments, the balance lab and the reports, on small N."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from monsterball.bots.protocol import bot_seed, play_game
from monsterball.bots.registry import make_bot
from monsterball.cli import app
from monsterball.core.record import read_record
from monsterball.games import get_game
from monsterball.lab.reports import sweep_html
from monsterball.lab.sweeps import parse_sweep, sweep
from monsterball.lab.tournaments import (
    MatchGame,
    elo_ratings,
    games_csv,
    load_games,
    run_match,
    save_match,
)
from monsterball.records.luck import luck_report

PU = ["--preset", "small", "--opt", "max_throws=6"]
PU_OVERRIDES = {"max_throws": 6}


def invoke(*args: str) -> Result:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


# -- tournaments --------------------------------------------------------------------------


def test_round_robin_swaps_seats_and_shares_dice() -> None:
    result = run_match(
        "pu", ["random", "heuristic", "mcts:8"], 2, seed=3, preset="small",
        overrides=PU_OVERRIDES,
    )  # fmt: skip
    assert [(p.bot_a, p.bot_b) for p in result.pairings] == [
        ("random", "heuristic"),
        ("random", "mcts:8"),
        ("heuristic", "mcts:8"),
    ]
    for p in range(3):
        first, second = [g for g in result.games if g.pairing == p]
        assert first.seat_bots == tuple(reversed(second.seat_bots))
    # Game k of every pairing rolls the same dice.
    assert len({g.seed for g in result.games if g.index == 0}) == 1
    for stats in result.pairings:
        assert stats.wins_a + stats.wins_b + stats.draws == 2
        assert 0 <= stats.ci_low <= stats.score_a <= stats.ci_high <= 1
    assert result.elo["heuristic"] > result.elo["random"]


@pytest.mark.slow
def test_matches_are_the_same_with_one_or_two_jobs() -> None:
    args = {"seed": 1, "preset": "small", "overrides": PU_OVERRIDES}
    one = run_match("pu", ["random", "heuristic"], 3, jobs=1, **args)  # type: ignore[arg-type]
    two = run_match("pu", ["random", "heuristic"], 3, jobs=2, **args)  # type: ignore[arg-type]
    strip = [(g.pairing, g.index, g.seat_bots, g.returns, g.plies) for g in one.games]
    assert strip == [(g.pairing, g.index, g.seat_bots, g.returns, g.plies) for g in two.games]


def test_match_input_errors() -> None:
    with pytest.raises(ValueError, match="at least two bots"):
        run_match("pu", ["random"], 1)
    with pytest.raises(ValueError, match="appear once"):
        run_match("pu", ["random", "random"], 1)
    with pytest.raises(ValueError, match="unknown bot"):
        run_match("pu", ["random", "deep-blue"], 1)


def _game(a: str, b: str, winner_seat: int | None) -> MatchGame:
    returns = (
        (0.0, 0.0) if winner_seat is None else ((1.0, -1.0) if winner_seat == 0 else (-1.0, 1.0))
    )
    return MatchGame(0, 0, 0, (a, b), returns, 10, "", 0.0)


def test_elo_orders_and_centres_ratings() -> None:
    games = [_game("x", "y", 0)] * 8 + [_game("x", "y", 1)] * 2 + [_game("y", "z", 0)] * 9
    elo = elo_ratings(["x", "y", "z"], games)
    assert elo["x"] > elo["y"] > elo["z"]
    assert sum(elo.values()) / 3 == pytest.approx(1500)
    even = elo_ratings(["x", "y"], [_game("x", "y", 0), _game("y", "x", 0)])
    assert even["x"] == pytest.approx(even["y"])


def test_results_are_stored_and_exported(tmp_path: Path) -> None:
    result = run_match("pu", ["random", "heuristic"], 2, preset="small", overrides=PU_OVERRIDES)
    db = tmp_path / "r.sqlite"
    first = save_match(result, db)
    second = save_match(result, db)
    assert second == first + 1
    rows = load_games(db)
    assert len(rows) == 2 and {rows[0]["seat0"], rows[0]["seat1"]} == {"random", "heuristic"}
    assert load_games(db, first) == rows
    table = list(csv.DictReader(io.StringIO(games_csv(result))))
    assert len(table) == 2 and table[0]["seed"] == str(result.games[0].seed)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM matches").fetchone()[0] == 2


def test_match_command(tmp_path: Path) -> None:
    db, out_csv, out_json = tmp_path / "m.sqlite", tmp_path / "m.csv", tmp_path / "m.json"
    result = invoke(
        "match", "pu", "--bots", "random,heuristic", "--games", "2", *PU,
        "--db", str(db), "--csv", str(out_csv), "--json", str(out_json),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Elo" in result.output and "95% CI" in result.output
    assert "Stored as match 1" in result.output
    assert json.loads(out_json.read_text())["games_per_pairing"] == 2
    assert out_csv.read_text().startswith("pairing,index,seed")
    bad = invoke("match", "pu", "--bots", "random,hal", "--no-db")
    assert bad.exit_code == 2 and "unknown bot 'hal'" in bad.output
    one = invoke("match", "pu", "--bots", "random", "--no-db")
    assert one.exit_code == 2 and "at least two" in one.output


# -- the balance lab ----------------------------------------------------------------------


def test_parse_sweep() -> None:
    assert parse_sweep(["a=1,2", "b=x"]) == [{"a": "1", "b": "x"}, {"a": "2", "b": "x"}]
    assert parse_sweep([]) == [{}]
    with pytest.raises(ValueError, match="key=value1,value2"):
        parse_sweep(["points_to_win"])


def test_sweep_uses_common_random_numbers_and_is_reproducible() -> None:
    settings = [{"max_throws": "6"}, {"max_throws": "6", "monster_defense": "off"}]
    one = sweep("pu", settings, 4, seed=2, preset="small", jobs=1)
    two = sweep("pu", settings, 4, seed=2, preset="small", jobs=2)
    assert one.results() == two.results()
    seeds = [[g.seed for g in one.raw if g.setting == s] for s in range(2)]
    assert seeds[0] == seeds[1]
    for summary in one.settings:
        assert summary.games == 4
        e = summary.first_offense_win
        assert 0 <= e.low <= e.mean <= e.high <= 1
        assert summary.plies.low <= summary.plies.mean <= summary.plies.high
        assert summary.points_per_possession.mean >= 0


def test_sweep_measures_every_game() -> None:
    for game, preset, setting in [
        ("huck-monster", "small", {"points_to_win": "1", "max_up_calls": "8"}),
        ("midway", "short", {"plays": "2"}),
    ]:
        result = sweep(game, [setting], 2, preset=preset, jobs=1)
        (summary,) = result.settings
        assert summary.games == 2
        assert all(g.possessions >= 1 for g in result.raw)


def test_html_report_is_self_contained(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = sweep("pu", parse_sweep(["points_to_win=1,2"]), 3, preset="small", jobs=1)
    page = sweep_html(result)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("data:image/png;base64,") >= 3
    assert "points_to_win=1" in page and "points_to_win=2" in page
    assert 'src="http' not in page and "<script" not in page


@pytest.mark.slow
def test_simulate_sweep_command(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    report, figures = tmp_path / "r.html", tmp_path / "r.json"
    result = invoke(
        "simulate", "pu", "-n", "2", "--jobs", "1", *PU, "--sweep", "points_to_win=1,2",
        "--report", str(report), "--json", str(figures),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "first offense wins" in result.output
    assert report.read_text().split("</table>")[0].count("<tr>") == 3  # header + 2 settings
    data = json.loads(figures.read_text())
    assert [s["setting"]["points_to_win"] for s in data["settings"]] == ["1", "2"]
    bad = invoke("simulate", "pu", "--sweep", "points_to_win")
    assert bad.exit_code == 2 and "key=value1,value2" in bad.output
    bad = invoke("simulate", "pu", "--sweep", "points_to_win=0")
    assert bad.exit_code == 2 and "points_to_win" in bad.output


@pytest.mark.slow
def test_sweep_on_a_local_ray_instance() -> None:
    """The Ray path, on a local instance this test starts (and stops)."""
    ray = pytest.importorskip("ray")
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    settings = [{"max_throws": "6"}, {"max_throws": "6", "points_to_win": "1"}]
    local = sweep("pu", settings, 3, seed=4, preset="small", jobs=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = sweep("pu", settings, 3, seed=4, preset="small", ray_address="auto")
    finally:
        ray.shutdown()
    assert remote.backend.startswith("ray")
    assert remote.results() == local.results()


# -- luck ---------------------------------------------------------------------------------


def test_luck_report(tmp_path: Path) -> None:
    spec = get_game("huck-monster")
    options = spec.options("small", points_to_win=1, max_up_calls=8)
    bots = [make_bot("heuristic", bot_seed(6, s)) for s in range(2)]
    state, record, _ = play_game(spec, options, bots, 6, record=True)
    assert record is not None
    report = luck_report(read_record(record.to_text()))
    assert report.chance_nodes > 0
    assert report.luck[0] == pytest.approx(-report.luck[1])
    assert report.result == state.result_text()
    assert "3d6" in report.dice and report.dice["3d6"].expected_mean == pytest.approx(10.5)
    path = tmp_path / "g.jsonl"
    path.write_text(record.to_text())
    result = invoke("luck", str(path))
    assert result.exit_code == 0 and "Luck" in result.output and "3d6" in result.output
    data = json.loads(invoke("luck", str(path), "--json").output)
    assert set(data["luck"]) == {"A", "B"} and data["unit"] == "win-probability points"
    assert "win-probability points" in result.output  # the table says its unit
    missing = invoke("luck", str(tmp_path / "nope.jsonl"))
    assert missing.exit_code == 2 and "cannot read" in missing.output


@pytest.mark.parametrize(
    ("level", "bot"), [("easy", "random"), ("medium", "heuristic"), ("hard", "hard")]
)
def test_play_against_a_difficulty(level: str, bot: str) -> None:
    result = invoke("play", "pu", "--bot", level, "--seed", "3", *PU, "--seat", "B")
    assert result.exit_code == 0, result.output
    assert f"A {bot}, B human" in result.output
    bad = invoke("play", "pu", "--bot", "impossible")
    assert bad.exit_code == 2 and "easy, medium, hard" in bad.output
