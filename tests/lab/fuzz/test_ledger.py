"""The fuzz campaign's ledger (monsterball.lab.fuzz.ledger): chunks add up, a seed is never
counted twice for a game x preset, totals under different rules versions are kept apart, and
the campaign's own ledger still reads."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from monsterball.lab.fuzz import ledger
from monsterball.lab.fuzz.play import Tally
from tests.helpers import ROOT


def chunk(game: str, preset: str, seed: int, actions: int, rules: str, **more: Any) -> Any:
    return {
        "game": game,
        "preset": preset,
        "rules_version": rules,
        "seed": seed,
        "window": 0,
        "actions": actions,
        "games": 2,
        "mutations": {"mutation-record": 3},
        "hidden_twins": {},
        "failures": {},
        "known": 0,
        "reproducers": [],
        "seconds": 20.0,
        "cpu_seconds": 10.0,
        "commit": "abc",
        "finished": "2026-11-30T14:00:00Z",
        **more,
    }


def test_chunks_add_up_and_a_seed_is_never_counted_twice(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    ledger.add_chunk(path, [chunk("g", "a", 100, 500, "g/1"), chunk("g", "b", 100, 700, "g/1")])
    ledger.add_chunk(path, [chunk("g", "a", 101, 250, "g/1")])
    data = ledger.load(path)
    assert ledger.counted(data, "g", "a", "g/1") == 750
    assert ledger.counted(data, "g", "b", "g/1") == 700
    assert ledger.next_seed(data) == 102
    assert ledger.next_seed(data, 1_000_000) == 1_000_000  # another machine's block
    before = path.read_bytes()
    # Seed 100 is taken for g/a: the whole chunk is refused, g/c included, file unchanged.
    with pytest.raises(ledger.LedgerError, match="seed 100 is already in"):
        ledger.add_chunk(path, [chunk("g", "c", 100, 5, "g/1"), chunk("g", "a", 100, 5, "g/1")])
    assert path.read_bytes() == before
    assert ledger.clashes(data, [("g", "a"), ("g", "b"), ("g", "c")], 101) == ["g/a"]
    # One entry a line, and the file is plain JSON.
    assert len(path.read_text().splitlines()) == 2 + 3
    assert json.loads(path.read_text())["chunks"][2]["seed"] == 101


def test_the_report_keeps_rules_versions_apart(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    ledger.add_chunk(path, [chunk("g", "a", 100, 400_000, "g/1")])
    ledger.add_chunk(path, [chunk("g", "a", 101, 300_000, "g/2", cpu_seconds=100.0)])
    failed = {"failures": {"clone": 1}, "reproducers": ["python scripts/fuzz.py --repro x"]}
    ledger.add_chunk(path, [chunk("g", "a", 102, 100_000, "g/2", cpu_seconds=100.0, **failed)])
    text = ledger.report(ledger.load(path), {"g": "g/2"}, [("g", "a"), ("g", "b")])
    lines = [line for line in text.splitlines() if line.startswith("| g | a |")]
    rows = {line.split(" | ")[2]: line for line in lines}
    # Under the current rules g/2: 400,000 actions in 200 CPU s, 600,000 to go at 2,000/s.
    assert "| 400,000 | 4 | 6 | clone 1 | 2 |" in rows["g/2"]
    assert rows["g/2"].endswith("| 600,000 | 0.08 |")
    assert "older rules: not counted" in rows["g/1"]
    assert "| 400,000 |" in rows["g/1"]
    # g/b has no chunk yet: shown at 0, its time to go from its game's rate.
    assert "| b | g/2 | 0 |" in text and "| 1,000,000 | 0.14 |" in text
    assert "**400,000**" in text and "**clone 1**" in text
    assert "not counted: 400,000" in text
    assert "python scripts/fuzz.py --repro x" in text
    # Two ledgers merged with the same seed in both: those games count once.
    data = ledger.load(path)
    data["chunks"].append(data["chunks"][-1])
    again = ledger.report(data, {"g": "g/2"}, [("g", "a")])
    assert "**400,000**" in again and "repeating a seed already counted, left out: 1" in again


def test_time_to_go_uses_the_rate_of_the_newest_harness(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    # Old chunks (no harness version: 1) at 1,000 actions/CPU s; g/a then 3,000/s on v2.
    ledger.add_chunk(path, [chunk("g", "a", 100, 100_000, "g/1", cpu_seconds=100.0)])
    ledger.add_chunk(path, [chunk("g", "b", 100, 100_000, "g/1", cpu_seconds=100.0)])
    ledger.add_chunk(path, [chunk("g", "a", 101, 300_000, "g/1", cpu_seconds=100.0, harness=2)])
    ledger.add_chunk(path, [chunk("h", "a", 100, 100_000, "h/1", cpu_seconds=100.0)])
    text = ledger.report(ledger.load(path), {"g": "g/1", "h": "h/1"})
    # Every chunk still counts: 400,000 for g/a, 600,000 to go at 3,000/s (not 2,000/s).
    by_name = {tuple(line.split(" | ")[:2]): line for line in text.splitlines()}
    assert "| 400,000 |" in by_name[("| g", "a")]
    assert by_name[("| g", "a")].endswith(f"| 600,000 | {600_000 / 3_000 / 3600:.2f} |")
    # g/b has only old chunks: its game's rate on the newest harness, 3,000/s.
    assert by_name[("| g", "b")].endswith(f"| 900,000 | {900_000 / 3_000 / 3600:.2f} |")
    # h never ran on the newest harness: every chunk's rate, 1,000/s.
    assert by_name[("| h", "a")].endswith(f"| 900,000 | {900_000 / 1_000 / 3600:.2f} |")
    assert "newest harness in the ledger (version 2)" in text
    assert ledger.harness(chunk("g", "a", 1, 1, "g/1")) == 1
    assert ledger.entry(Tally("g", "a"), 1, "abc", "g/1", 0)["harness"] == ledger.HARNESS


def test_a_ledger_that_is_not_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    path.write_text('{"format": 7, "chunks": []}')
    with pytest.raises(ledger.LedgerError, match="not a fuzz ledger"):
        ledger.load(path)
    path.write_text("{")
    with pytest.raises(ledger.LedgerError, match="cannot read"):
        ledger.load(path)


def test_the_campaigns_ledger_reads_and_no_entry_is_newer_than_the_harness() -> None:
    """The campaign (scripts/ledgers/fuzz.json) is continued and merged across versions of
    the code: its format reads, and the harness version entries record is never ahead of
    the one the code writes (a change that bumps HARNESS must keep reading the old ones)."""
    data = ledger.load(ROOT / "scripts" / "ledgers" / "fuzz.json")
    assert data["format"] == ledger.FORMAT and data["chunks"]
    assert max(ledger.harness(e) for e in data["chunks"]) <= ledger.HARNESS
    text = ledger.report(data, {e["game"]: e["rules_version"] for e in data["chunks"]})
    assert text.startswith("| game | preset | rules version |")


def test_the_commit_is_dirty_for_code_changes_not_for_the_ledgers(tmp_path: Path) -> None:
    # A campaign writes scripts/ledgers/fuzz.json after each chunk: that must not mark the
    # next chunk's code as changed (every chunk after the first read "+dirty").
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    (tmp_path / "src").mkdir()
    (tmp_path / "scripts" / "ledgers").mkdir(parents=True)
    (tmp_path / "src" / "rules.py").write_text("A = 1\n")
    (tmp_path / "scripts" / "ledgers" / "fuzz.json").write_text("{}\n")
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    clean = ledger.code_version(tmp_path)
    assert len(clean) == 12 and "+" not in clean
    (tmp_path / "scripts" / "ledgers" / "fuzz.json").write_text('{"chunks": []}\n')
    assert ledger.code_version(tmp_path) == clean
    (tmp_path / "src" / "rules.py").write_text("A = 2\n")
    assert ledger.code_version(tmp_path) == clean + "+dirty"
