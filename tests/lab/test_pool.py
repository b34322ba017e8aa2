"""The worker pool (monsterball.lab.pool): results from every job, and no worker outliving a run
that was killed outright (scripts/strength.py once left its workers playing for hours)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from monsterball.lab.pool import run_jobs
from tests.helpers import ROOT

SRC = ROOT / "src"


def square(n: int) -> int:
    return n * n


def test_every_job_is_collected_on_workers_and_in_process() -> None:
    for workers in (1, 2):
        got: list[int] = []
        run_jobs(square, list(range(6)), workers, got.append)
        assert sorted(got) == [0, 1, 4, 9, 16, 25]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead too: its parent (the test's child) is gone, so init reaps it soon.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ")[-1][0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_workers_die_with_a_run_killed_outright(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    script = tmp_path / "run.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import os, time
            from monsterball.lab.pool import run_jobs

            def stall(n):
                with open({str(pids)!r}, "a") as out:
                    out.write(f"{{os.getpid()}}\\n")
                time.sleep(120)
                return n

            if __name__ == "__main__":
                run_jobs(stall, [1, 2], 2, print)
            """
        )
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    run = subprocess.Popen([sys.executable, str(script)], env=env, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if pids.exists() and len(pids.read_text().split()) == 2:
                break
            time.sleep(0.1)
        workers = [int(p) for p in pids.read_text().split()]
        assert len(workers) == 2 and all(alive(p) for p in workers)
    finally:
        run.send_signal(signal.SIGKILL)  # no handler runs: only the kernel can tell them
        run.wait()
    deadline = time.monotonic() + 10
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in workers)
