"""scripts/web_load.py, the load test docs/benchmarks.md's serving figures come from: a short
run against its own server plays games and checks the store, and bad flags are refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT

SCRIPT = ROOT / "scripts" / "web_load.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )


@pytest.mark.slow
def test_a_short_run_plays_and_checks_the_store(tmp_path):
    out = tmp_path / "out.json"
    done = run("--games", "2", "--seconds", "3", "--watchers", "1", "--json", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert figures["moves"] > 0 and figures["moves_per_second"] > 0
    assert figures["failed_clients"] == 0 and figures["failed_watchers"] == 0
    assert figures["lost_moves"] == 0 and figures["unacknowledged_moves"] == 0
    assert figures["watcher_missed_moves"] == 0
    assert figures["server_cores"] == "unlimited"


@pytest.mark.slow
def test_server_cores_needs_servers_it_starts_and_a_positive_share():
    for args in (("--server-cores", "0"), ("--server-cores", "1", "--url", "http://x:1")):
        done = run(*args)
        assert done.returncode == 2
        assert "--server-cores limits the servers this script starts" in done.stderr
