"""The balance lab: sweeps over options and presets, paired differences against a baseline,
sequential stopping, per-game rows, custom metrics, records in every mode."""

from __future__ import annotations

import csv
import math
import re
import signal
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from monsterball.cli import app
from monsterball.core.record import read_record, replay
from monsterball.games import get_game
from monsterball.lab.reports import sweep_html
from monsterball.lab.simulation import Z_95
from monsterball.lab.sweeps import (
    Estimate,
    LabGame,
    SweepResult,
    _summarise,
    parse_setting,
    setting_options,
    sweep,
    write_rows,
)

RANDOM = ("random", "random")


def invoke(*args: str, stdin: str | None = None) -> Result:
    result = CliRunner().invoke(app, list(args), input=stdin, env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


# -- the statistics, on constructed cases -------------------------------------------------


def test_paired_interval_is_the_interval_of_the_differences() -> None:
    setting = [3.0, 5.0, 4.0, 6.0, 8.0]
    baseline = [2.0, 5.0, 3.0, 4.0, 7.0]  # differences 1, 0, 1, 2, 1
    e = Estimate.paired(setting, baseline)
    half = Z_95 * statistics.stdev([1, 0, 1, 2, 1]) / math.sqrt(5)
    assert e.mean == pytest.approx(1.0)
    assert (e.low, e.high) == (pytest.approx(1.0 - half), pytest.approx(1.0 + half))
    # The games share their dice: the paired interval is far narrower than the two
    # settings' own intervals, which overlap although every game moved up.
    apart = Estimate.of(setting), Estimate.of(baseline)
    assert e.half_width < apart[0].half_width / 2
    assert apart[0].low < apart[1].high
    assert e.low > 0
    with pytest.raises(ValueError):
        Estimate.paired([1.0], [1.0, 2.0])


def test_rate_uses_wilson_and_an_empty_estimate_is_nan() -> None:
    e = Estimate.rate(0, 10)
    assert e.mean == 0 and e.low == 0 and 0.25 < e.high < 0.35
    assert math.isnan(Estimate.of([]).mean)


# -- sweeps -------------------------------------------------------------------------------


def test_presets_can_be_swept_and_a_preset_is_not_an_option() -> None:
    spec = get_game("hm")
    small = setting_options(spec, None, {"preset": "small"})
    scrimmage = setting_options(spec, "small", {"preset": "scrimmage", "win_by": "1"})
    assert small["length"] == 13 and scrimmage["length"] != 13 and scrimmage["win_by"] == 1
    with pytest.raises(Exception, match="'pro' is a preset of huck-monster, not an option"):
        setting_options(spec, "small", {"pro": "true"})
    assert parse_setting("preset=small, points_to_win=3") == {
        "preset": "small",
        "points_to_win": "3",
    }


def test_baseline_differences_are_paired_game_by_game() -> None:
    settings = [{"points_to_win": "1"}, {"points_to_win": "2"}]
    result = sweep("pu", settings, 4, bots=RANDOM, preset="small", jobs=1, baseline=0)
    assert result.baseline == 0
    base, other = result.settings
    assert base.versus_baseline == {}
    plies = {s: {g.index: g.plies for g in result.raw if g.setting == s} for s in (0, 1)}
    diffs = [plies[1][i] - plies[0][i] for i in range(4)]
    assert other.versus_baseline["plies"] == Estimate.of([float(d) for d in diffs])
    # The same dice: game i has one seed in both settings.
    seeds = {s: [g.seed for g in result.raw if g.setting == s] for s in (0, 1)}
    assert seeds[0] == seeds[1]
    # A baseline can be named by its values; an unknown one is refused.
    named = sweep("pu", settings, 1, bots=RANDOM, preset="small", jobs=1, baseline=settings[1])
    assert named.baseline == 1
    with pytest.raises(ValueError, match="not one of the swept settings"):
        sweep("pu", settings, 1, bots=RANDOM, preset="small", baseline={"points_to_win": "9"})


def test_until_ci_plays_batches_until_the_interval_is_narrow_enough() -> None:
    settings = [{"points_to_win": "1"}, {"points_to_win": "2"}]
    wide = sweep("pu", settings, 3, bots=RANDOM, preset="small", jobs=1, until_ci=5.0)
    assert wide.games == 3 and "reached" in wide.stopped
    narrow = sweep(
        "pu", settings, 2, bots=RANDOM, preset="small", jobs=1, until_ci=1e-6, max_games=6
    )
    assert narrow.games == 6 and "limit of 6" in narrow.stopped
    assert len(narrow.raw) == 12 and sorted({g.index for g in narrow.raw}) == list(range(6))


def test_every_mode_keeps_seat_figures_and_records(tmp_path: Path) -> None:
    settings = [{"points_to_win": "1"}, {"points_to_win": "2"}]
    result = sweep("pu", settings, 3, bots=RANDOM, preset="small", jobs=1, save_dir=tmp_path)
    for summary in result.settings:
        assert set(summary.seat_wins) == {"A", "B"}
        wins = sum(round(e.mean * 3) for e in summary.seat_wins.values())
        assert wins + summary.draws == 3
        assert set(summary.mean_score) == {"A", "B"}
    records = sorted(tmp_path.glob("setting-*/game-*.jsonl"))
    assert len(records) == 6
    assert all(replay(read_record(p)).ok for p in records)


def test_heuristic_bots_by_default() -> None:
    result = sweep("pu", [{"points_to_win": "1"}], 1, preset="small", jobs=1)
    assert result.bots == ("heuristic", "heuristic")


# -- rows and metrics ---------------------------------------------------------------------

METRIC = """
def throws(trace):
    n = sum(1 for s in trace.steps if s.action.notation().startswith("pass"))
    return {"passes": n, "seed parity": trace.seed % 2}
"""


def test_rows_and_a_custom_metric_from_a_file(tmp_path: Path) -> None:
    metric = tmp_path / "my_metrics.py"
    metric.write_text(METRIC)
    settings = [{"points_to_win": "1"}, {"points_to_win": "2"}]
    result = sweep(
        "pu", settings, 3, bots=RANDOM, preset="small", jobs=1,
        metrics=[f"{metric}:throws"], baseline=0,
    )  # fmt: skip
    rows = result.rows()
    assert len(rows) == 6
    assert {"setting", "seed", "winner", "score_A", "score_B", "plies", "passes"} <= set(rows[0])
    assert [r["seed parity"] for r in rows] == [g.seed % 2 for g in result.raw]
    assert result.settings[0].metrics["passes"].n == 3
    assert result.settings[1].versus_baseline["seed parity"].mean == 0  # same seeds
    path = tmp_path / "rows.csv"
    write_rows(rows, path)
    with path.open() as f:
        read = list(csv.DictReader(f))
    assert [int(r["plies"]) for r in read] == [r["plies"] for r in rows]
    pq = pytest.importorskip("pyarrow.parquet")
    write_rows(rows, tmp_path / "rows.parquet")
    table = pq.read_table(tmp_path / "rows.parquet")
    assert table.num_rows == 6 and table.column("seed").to_pylist() == [r["seed"] for r in rows]


def test_example_metric_catch_rate_by_throw_count() -> None:
    result = sweep(
        "hm", [{"points_to_win": "1"}], 2, bots=RANDOM, preset="small", jobs=1,
        metrics=["monsterball.lab.metrics:catch_rate_by_throw_count"],
    )  # fmt: skip
    (summary,) = result.settings
    rates = [e for k, e in summary.metrics.items() if k.startswith("catch rate, count")]
    assert rates and all(0 <= e.mean <= 1 for e in rates)


def test_a_bad_metric_is_refused_before_any_game() -> None:
    with pytest.raises(ValueError, match="has no function 'nope'"):
        sweep("pu", [{}], 1, bots=RANDOM, metrics=["monsterball.lab.metrics:nope"])
    with pytest.raises(ValueError, match="module:function"):
        sweep("pu", [{}], 1, bots=RANDOM, metrics=["nothing"])


# -- the command --------------------------------------------------------------------------

PU = ["--preset", "small", "--jobs", "1", "--bots", "random,random"]


def test_simulate_lab_command(tmp_path: Path) -> None:
    rows = tmp_path / "g.csv"
    result = invoke(
        "simulate", "pu", "-n", "2", *PU, "--sweep", "points_to_win=1,2",
        "--sweep", "preset=small,standard", "--baseline", "preset=small,points_to_win=1",
        "--rows", str(rows), "--save-dir", str(tmp_path / "out"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "A wins" in result.output and "mean score" in result.output
    assert "Paired differences against the baseline" in result.output
    assert "random bots" in result.output  # the warning
    assert len(rows.read_text().splitlines()) == 1 + 8
    assert len(list((tmp_path / "out").glob("setting-*/game-*.jsonl"))) == 8


def test_simulate_refuses_bad_lab_input() -> None:
    bad = invoke("simulate", "hm", *PU, "--sweep", "pro=false,true")
    assert bad.exit_code == 2 and "'pro' is a preset" in bad.output
    bad = invoke("simulate", "pu", *PU, "--sweep", "points_to_win=1,2", "--baseline", "x")
    assert bad.exit_code == 2 and "key=value" in bad.output
    bad = invoke("simulate", "pu", *PU, "--baseline", "points_to_win=1")
    assert bad.exit_code == 2 and "--sweep" in bad.output
    bad = invoke("simulate", "pu", *PU, "--until-ci", "0")
    assert bad.exit_code == 2 and "positive" in bad.output


def test_ray_without_a_cluster_is_one_line() -> None:
    pytest.importorskip("ray")
    sigterm = signal.getsignal(signal.SIGTERM)
    result = invoke("simulate", "pu", "-n", "1", "--bots", "random,random", "--ray", "auto")
    assert result.exit_code == 2
    # Ray's failed init must not leave its SIGTERM handler (sys.exit(15)) in this process.
    assert signal.getsignal(signal.SIGTERM) == sigterm
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "ray start --head" in lines[0], result.output
    assert "paper-ultimate" not in result.output  # refused before the progress bar


def test_preset_twice_and_bad_option_files(tmp_path: Path) -> None:
    twice = invoke("simulate", "pu", "--preset", "small", "--preset", "standard")
    assert twice.exit_code == 2 and "--preset given 2 times" in twice.output
    binary = tmp_path / "binary.bin"
    binary.write_bytes(b"\xff\xfe\x00orc")
    bad = invoke("play", "midway", "--opt", f"roster_a=@{binary}", stdin="quit\n")
    assert bad.exit_code == 2 and "is not UTF-8 text" in bad.output
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    bad = invoke("play", "midway", "--opt", f"roster_a=@{empty}", stdin="quit\n")
    assert bad.exit_code == 2 and "is empty" in bad.output


def test_replay_shows_any_ply(tmp_path: Path) -> None:
    sweep("pu", [{}], 1, bots=RANDOM, preset="small", jobs=1, save_dir=tmp_path)
    path = tmp_path / "game-00001.jsonl"
    record = read_record(path)
    shown = invoke("replay", str(path), "--ply", "2")
    assert shown.exit_code == 0
    assert f"Position after 2 of {len(record.actions)} plies" in shown.output
    assert f"Next: {record.actions[2].by}: {record.actions[2].action}" in shown.output
    end = invoke("replay", str(path), "--ply", str(len(record.actions)))
    assert "Result:" in end.output
    bad = invoke("replay", str(path), "--ply", str(len(record.actions) + 1))
    assert bad.exit_code == 2 and "--ply must be" in bad.output


# -- the report ---------------------------------------------------------------------------


def _game(setting: int, index: int, winner: int, plies: int) -> LabGame:
    return LabGame(setting, index, index, winner, 0, 2, 1.0, {"interception": 1}, plies,
                   (1.0, 0.0), {"luck": 5.0 - winner * 10})  # fmt: skip


@pytest.mark.slow
def test_report_on_a_constructed_run() -> None:
    """Two settings, four games each on the same seeds: the paired interval in the report is
    the interval of the four per-game differences, and every plot is there."""
    pytest.importorskip("matplotlib")
    base_games = [
        _game(0, i, w, p) for i, (w, p) in enumerate([(0, 100), (1, 120), (0, 90), (1, 110)])
    ]
    other_games = [
        _game(1, i, w, p) for i, (w, p) in enumerate([(0, 110), (0, 125), (0, 100), (1, 112)])
    ]
    seats = ("A", "B")
    settings = (
        _summarise({"points_to_win": "1"}, base_games, seats, None),
        _summarise({"points_to_win": "2"}, other_games, seats, base_games),
    )
    raw = tuple(base_games + other_games)
    result = SweepResult("pu", "small", RANDOM, 0, 4, settings, 1.0, "test", raw, 0, seats)
    plies = settings[1].versus_baseline["plies"]
    diffs = [10.0, 5.0, 10.0, 2.0]
    half = Z_95 * statistics.stdev(diffs) / 2
    assert plies.mean == pytest.approx(6.75) and plies.high == pytest.approx(6.75 + half)
    wins = settings[1].versus_baseline["A wins"]
    assert wins.mean == pytest.approx(0.25)
    page = sweep_html(result)
    assert f"+6.75 [{6.75 - half:+,.2f}, {6.75 + half:+,.2f}]" in page
    assert "+25.0 pts" in page  # a difference in win rates, in percentage points
    assert page.count("data:image/png;base64,") == 5  # 3 figures, sensitivity, turnovers
    assert "over points_to_win" in page  # a line plot over the numeric sweep
    assert "The dashed line is 50%" in page
    assert "Sensitivity" in page and "<h2>Luck</h2>" in page
    assert "Random bots." in page
    text = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", page)
    assert not re.search(r"\de[+-]\d", text)  # no 1.31e+03


# -- match: ratings with intervals, the leaderboard ---------------------------------------


def test_match_keeps_a_leaderboard_under_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from monsterball.lab.tournaments import default_results_path, leaderboard

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    path = default_results_path()
    assert path == tmp_path / "data" / "monsterball" / "results.sqlite"
    args = ["match", "pu", "--bots", "random,heuristic", "-n", "2", "--preset", "small"]
    first = invoke(*args, "--csv", "m.csv")
    assert first.exit_code == 0, first.output
    assert f"Stored as match 1 in {path}" in first.output.replace("\n", "")
    assert "Games written to m.csv" in first.output and "95% CI (bootstrap)" in first.output
    assert not list(tmp_path.glob("*.sqlite"))  # nothing in the working directory
    invoke(*args, "--seed", "1")
    spec = get_game("pu")
    board = leaderboard(path, "paper-ultimate", spec.options("small").to_dict(), samples=50)
    assert {r.bot for r in board} == {"random", "heuristic"}
    assert all(r.games == 4 for r in board)  # both runs count
    assert all(r.low <= r.elo <= r.high for r in board)


def test_elo_bootstrap_interval_narrows_with_more_games() -> None:
    from monsterball.lab.tournaments import MatchGame, elo_with_intervals

    def games(n: int) -> list[MatchGame]:
        # "a" wins three games in four against "b".
        return [
            MatchGame(0, i, i, ("a", "b"), (1.0, -1.0) if i % 4 else (-1.0, 1.0), 10, "", 0.0)
            for i in range(n)
        ]

    few = {r.bot: r for r in elo_with_intervals(["a", "b"], games(8), samples=100)}
    many = {r.bot: r for r in elo_with_intervals(["a", "b"], games(200), samples=100)}
    assert few["a"].elo > few["b"].elo and many["a"].elo > 1500
    assert many["a"].high - many["a"].low < few["a"].high - few["a"].low
    assert many["a"].low > 1500  # 150 wins in 200: clearly stronger
