"""Simulation runs: determinism across worker counts, statistics and saved records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from monsterball.core.errors import OptionsError, UnknownGameError
from monsterball.core.record import read_record, replay
from monsterball.lab.simulation import (
    GameOutcome,
    LengthStats,
    SimulationSummary,
    simulate,
    wilson_interval,
)

GAME = "paper-ultimate"


def run(n_games: int, **kwargs: Any) -> SimulationSummary:
    """A short run: small pitch and a throw cap keep each game to a few hundred plies."""
    return simulate(GAME, n_games, preset="small", overrides={"max_throws": 8}, **kwargs)


def test_summary_is_consistent() -> None:
    calls: list[tuple[int, int]] = []
    summary = run(6, seed=4, progress=lambda done, total: calls.append((done, total)))
    assert summary.games == 6
    assert sum(summary.wins) + summary.draws == 6
    assert [s.seat for s in summary.seats] == ["A", "B"]
    assert [s.bot for s in summary.seats] == ["random", "random"]
    for seat in summary.seats:
        assert seat.win_rate == seat.wins / 6
        assert 0.0 <= seat.ci_low <= seat.win_rate <= seat.ci_high <= 1.0
        assert seat.mean_score is not None
    assert summary.mean_score is not None and set(summary.mean_score) == {"A", "B"}
    p = summary.plies
    assert p.min <= p.median <= p.max and p.min <= p.p90 <= p.max and p.min <= p.mean <= p.max
    assert summary.options["max_throws"] == 8 and summary.options["width"] == 7
    assert calls[-1] == (6, 6)
    assert summary.games_per_second > 0


def test_results_do_not_depend_on_jobs(tmp_path: Path) -> None:
    one = run(5, seed=9, jobs=1)
    two = run(5, seed=9, jobs=2, save_dir=tmp_path)
    assert one.results() == two.results()
    assert two.jobs == 2
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"game-{i:05d}.jsonl" for i in range(1, 6)]
    for path in tmp_path.iterdir():
        record = read_record(path)
        assert record.end is not None
        assert replay(record, verify=True).ok


def test_seed_changes_the_games() -> None:
    a = run(3, seed=1)
    b = run(3, seed=2)
    assert a.results() != b.results()


def test_bad_arguments_fail_before_playing() -> None:
    with pytest.raises(UnknownGameError):
        simulate("calvinball", 1)
    with pytest.raises(OptionsError):
        simulate(GAME, 1, overrides={"width": 2})
    with pytest.raises(OptionsError):
        simulate(GAME, 1, preset="nope")
    with pytest.raises(ValueError, match="known bots: heuristic, mcts, random"):
        simulate(GAME, 1, bots=("random", "deep-blue"))
    with pytest.raises(ValueError, match="2 seats"):
        simulate(GAME, 1, bots=("random",))
    with pytest.raises(ValueError, match="at least 1"):
        simulate(GAME, 0)


def test_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(1 - high)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert 0.0 < wilson_interval(10, 10)[0] < 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    narrow = wilson_interval(500, 1000)
    assert narrow[1] - narrow[0] < high - low


def test_length_stats() -> None:
    stats = LengthStats.of([10, 1, 7, 3, 5, 9, 2, 8, 4, 6])
    assert (stats.min, stats.max, stats.median, stats.mean, stats.p90) == (1, 10, 5.5, 5.5, 9)
    single = LengthStats.of([42])
    assert (single.min, single.max, single.p90, single.median) == (42, 42, 42, 42.0)


def test_outcome_winner() -> None:
    def outcome(*returns: float) -> GameOutcome:
        return GameOutcome(0, 0, returns, 1, None, "")

    assert outcome(1.0, -1.0).winner == 0
    assert outcome(-1.0, 1.0).winner == 1
    assert outcome(0.0, 0.0).winner is None
