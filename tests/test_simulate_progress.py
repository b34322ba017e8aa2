"""Issue 35 item 7, long runs: progress game by game, a time-left estimate that holds, and
Ctrl-C that keeps the finished games (in a real terminal) and leaves nothing behind."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from monsterball.cli.common import eta_seconds
from monsterball.core.record import read_record, replay
from monsterball.simulate import simulate
from tty_helpers import Pane


@pytest.mark.slow
def test_progress_moves_game_by_game_on_workers() -> None:
    calls: list[tuple[int, int]] = []
    simulate(
        "paper-ultimate",
        24,
        preset="small",
        overrides={"max_throws": 4},
        jobs=2,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(done, 24) for done in range(1, 25)]  # not in chunks of 2 (or 63)


def test_time_left_is_within_a_quarter_after_the_first_tenth() -> None:
    """Two workers, which take as long to start as 40 games (as measured under load), play
    400 games whose lengths spread like Paper Ultimate's random games (lognormal, sigma
    0.4: the 90th percentile 1.4 times the mean, as `simulate` measures). From a tenth
    of the run on, the estimate (the pace since the first game ended) is within 25% of the
    time really left while 20 or more games are left; in the last 20 the luck of a few
    long games outweighs any count (no estimate can know them), and it is within two
    games' mean length. The mean pace from the start, start-up included, misses by more
    than 25%."""
    rng = random.Random(7)
    durations = [rng.lognormvariate(0, 0.4) for _ in range(400)]
    mean = sum(durations) / len(durations)
    free = [20.0, 20.0]  # when each worker is free: after its start-up
    ends = []
    for duration in durations:
        worker = free.index(min(free))
        free[worker] += duration
        ends.append(free[worker])
    ends.sort()
    finish = ends[-1]
    since = (ends[0], 1)  # what the progress bar notes when it first sees a game done
    naive_misses = 0
    for done, now in enumerate(ends, start=1):
        if done < len(ends) // 10:
            continue
        left = eta_seconds(now, done, len(ends), since)
        assert left is not None
        truth = finish - now
        if len(ends) - done >= 20:
            assert abs(left - truth) <= 0.25 * truth, (done, left, truth)
            naive = eta_seconds(now, done, len(ends))
            naive_misses += naive is not None and abs(naive - truth) > 0.25 * truth
        else:
            assert abs(left - truth) <= 2 * mean, (done, left, truth)
    assert naive_misses > 0
    assert eta_seconds(1.0, 0, 10) is None and eta_seconds(5.0, 10, 10) == 0.0


@pytest.mark.slow
@pytest.mark.tty
def test_ctrl_c_keeps_the_finished_games_and_says_where(tmp_path: Path) -> None:
    monsterball = Path(sys.executable).with_name("monsterball")
    out = tmp_path / "out"
    command = [str(monsterball), "simulate", "pu", "--games", "1000", "--bots", "random,random",
               "--jobs", "2", "--save-dir", str(out)]  # fmt: skip
    with Pane(command, cwd=tmp_path, width=250) as pane:
        pane.wait_for(lambda s: re.search(r"\b([3-9]|\d\d+)/1000\b", s) is not None, 120)
        pane.send("C-c")
        code = pane.exit_code(60)
        screen = pane.everything()
    assert code == 130, screen
    match = re.search(r"Interrupted after (\d+) of 1000 games", screen)
    assert match is not None, screen
    finished = int(match.group(1))
    assert f"{finished} games of paper-ultimate" in screen
    assert f"The {finished} finished games' records are saved in {out}" in screen
    assert "Traceback" not in screen and "leaked" not in screen, screen
    records = sorted(out.glob("game-*.jsonl"))
    assert len(records) >= finished >= 3  # a game may end as the run stops
    assert not list(out.glob(".*.part"))  # no half-written record
    for path in records[:3]:
        assert replay(read_record(path), verify=True).divergence is None


@pytest.mark.slow
def test_sigterm_stops_a_run_cleanly(tmp_path: Path) -> None:
    """``kill PID`` during a run on workers: the finished games are kept, the workers are
    stopped and joined, and Python's resource tracker finds no leaked semaphore."""
    import os
    import signal
    import subprocess
    import time

    monsterball = Path(sys.executable).with_name("monsterball")
    out = tmp_path / "out"
    run = subprocess.Popen(
        [str(monsterball), "simulate", "pu", "--games", "1000", "--bots", "random,random",
         "--jobs", "2", "--save-dir", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while len(list(out.glob("game-*.jsonl"))) < 2:
        assert time.monotonic() < deadline and run.poll() is None, run.communicate()
        time.sleep(0.2)
    run.send_signal(signal.SIGTERM)
    stdout, stderr = run.communicate(timeout=60)
    assert run.returncode == 130, (stdout, stderr)
    assert "Interrupted after" in stdout and "Traceback" not in stdout + stderr
    assert "leaked" not in stderr, stderr
