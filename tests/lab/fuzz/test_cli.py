"""The fuzz harness's command (monsterball.lab.fuzz.cli, run as scripts/fuzz.py), in
process: a campaign adds its chunks to the ledger, refuses a used seed, stops at a stop file
and at a failure, and reports the ledger's totals."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from monsterball.games import get_game
from monsterball.lab.fuzz import ledger
from monsterball.lab.fuzz.cli import main, pairs_for


def test_fuzz_adds_chunks_to_the_ledger_and_refuses_a_used_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ledger.json"
    run = ["--game", "paper-ultimate", "--preset", "small", "--ledger", str(path)]
    small = ["--actions", "20", "--mutations", "1"]
    assert main([*run, *small, "--seed", "next", "--chunks", "2"]) == 0
    entries = ledger.load(path)["chunks"]
    assert [e["seed"] for e in entries] == [100, 101]
    spec = get_game("paper-ultimate")
    for entry in entries:
        assert entry["actions"] == 20 and entry["games"] >= 1
        assert entry["rules_version"] == spec.rules_version
        assert sum(entry["mutations"].values()) == 4 and entry["failures"] == {}
        assert entry["commit"]
    before = path.read_bytes()
    assert main([*run, *small, "--seed", "101"]) == 2
    assert "seed 101 is already in" in capsys.readouterr().err
    assert path.read_bytes() == before
    assert main([*run, "--report"]) == 0
    out = capsys.readouterr().out
    assert f"| paper-ultimate | small | {spec.rules_version} | 40 |" in out
    # --skip-done leaves out what is at the goal.
    data = ledger.load(path)
    data["chunks"][0]["actions"] = ledger.GOAL
    path.write_text(ledger.dumps(data))
    assert main([*run, *small, "--seed", "next", "--skip-done"]) == 0
    assert "every game x preset is at the goal" in capsys.readouterr().err
    assert len(ledger.load(path)["chunks"]) == 2


def test_the_stop_file_stops_a_campaign_between_chunks(tmp_path: Path) -> None:
    path, stop = tmp_path / "ledger.json", tmp_path / "stop"
    stop.touch()
    args = ["--game", "paper-ultimate", "--preset", "small", "--ledger", str(path)]
    assert main([*args, "--seed", "next", "--chunks", "5", "--stop-file", str(stop)]) == 0
    assert not path.exists()
    assert Counter(pairs_for(argparse.Namespace(game="midway", preset=None))) == {
        ("midway", p): 1 for p in get_game("midway").options_type.PRESETS
    }


def test_a_failure_is_added_with_its_reproducer_and_stops_the_campaign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = get_game("paper-ultimate")
    kind = type(spec.new_game(spec.options("small")))
    honest = kind._copy_board

    def careless(self: Any, other: Any) -> None:
        honest(self, other)
        other.throws = self.throws + 1  # every clone differs: a "clone" failure each game

    monkeypatch.setattr(kind, "_copy_board", careless)
    path = tmp_path / "ledger.json"
    args = ["--game", "paper-ultimate", "--preset", "small", "--ledger", str(path)]
    run = ["--actions", "3", "--mutations", "0", "--seed", "next", "--chunks", "4"]
    assert main([*args, *run]) == 1
    (entry,) = ledger.load(path)["chunks"]  # stopped after the first chunk
    assert entry["failures"] == {"clone": entry["games"]} and entry["games"] >= 1
    assert entry["reproducers"][0].startswith("python scripts/fuzz.py --repro clone:")
