"""scripts/fuzz.py, run as its users run it: the command line of the harness in
monsterball.lab.fuzz (tests/lab/fuzz/ test the harness itself, in process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT

SCRIPT = ROOT / "scripts" / "fuzz.py"
FLAGS = {
    *("--actions", "--seconds", "--game", "--preset", "--seed", "--window", "--yardstick"),
    *("--mutations", "--jobs", "--json", "--repro", "--ledger", "--report", "--chunks"),
    *("--seed-from", "--stop-file", "--skip-done"),
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    paths = [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]  # this checkout's package
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
    )


def test_a_run_prints_its_table_and_adds_its_chunk_to_the_ledger(tmp_path: Path) -> None:
    path, summary = tmp_path / "ledger.json", tmp_path / "summary.json"
    one = ["--game", "paper-ultimate", "--preset", "small", "--ledger", str(path)]
    done = run(*one, "--actions", "20", "--mutations", "1", "--seed", "5", "--json", str(summary))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == [
        "game",
        "preset",
        "actions",
        "games",
        "act/s",
        "plain/s",
        "ratio",
        "fail",
    ]
    assert lines[1].split()[:4] == ["paper-ultimate", "small", "20", "1"]
    assert lines[2].startswith("total: 20 actions, 1 games, 4 mutation cases, ")
    assert lines[3] == "failures by kind: none"
    assert "chunk 1/1: seed 5" in done.stderr and f"added chunk (seed 5) to {path}" in done.stderr
    (entry,) = json.loads(path.read_text())["chunks"]
    assert (entry["seed"], entry["actions"], entry["harness"]) == (5, 20, 2)
    assert entry["commit"] != "unknown"  # this checkout's commit, found from the script
    written = json.loads(summary.read_text())
    assert written["command"] == "python scripts/fuzz.py " + " ".join(
        [*one, "--actions", "20", "--mutations", "1", "--seed", "5", "--json", str(summary)]
    )
    report = run(*one, "--report")
    assert report.returncode == 0
    assert report.stdout.startswith("| game | preset | rules version | checked actions |")


def test_repro_reruns_one_case_and_help_lists_every_flag() -> None:
    done = run("--repro", "mutation-record:paper-ultimate:small:3")
    assert done.returncode == 0 and done.stdout.strip() == "no failure"
    helped = run("--help")
    assert helped.returncode == 0
    assert helped.stdout.startswith("usage: fuzz.py ")
    assert "Fuzz every game x preset: random legal play with invariant checks" in helped.stdout
    assert all(flag in helped.stdout for flag in FLAGS)
    refused = run("--report")
    assert refused.returncode == 2 and "need --ledger FILE" in refused.stderr
