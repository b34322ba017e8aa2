"""Golden replays: fixed-seed random games per preset, stored under tests/golden/.

Each game is regenerated in-process by ``tests/helpers/golden.py`` and must match the stored
file byte for byte; each stored file must also replay and verify on its own. After an
intended behaviour change, run ``make golden`` and review the diff.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from monsterball.core.record import read_record, replay
from monsterball.games import get_game
from tests.helpers import ROOT, TESTS
from tests.helpers import golden as MAKE

GOLDEN_DIR = TESTS / "golden"
MAX_FILE_BYTES = 300 * 1024
MAX_TOTAL_BYTES = 1536 * 1024
PRESETS = sorted(MAKE.all_presets())


def first_difference(stored: str, fresh: str) -> str:
    old, new = stored.splitlines(), fresh.splitlines()
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            return f"first difference on line {number}:\n  stored: {a}\n  now:    {b}"
    if len(old) != len(new):
        return f"same first {min(len(old), len(new))} lines; stored has {len(old)}, now {len(new)}"
    return "the texts differ only in line endings or a final newline"


def test_every_preset_has_a_golden_game() -> None:
    assert sorted(MAKE.GAMES) == PRESETS
    assert MAKE.GOLDEN_DIR == GOLDEN_DIR


@pytest.mark.parametrize("preset", PRESETS, ids="{0[0]}.{0[1]}".format)
def test_golden_game_is_reproduced_byte_for_byte(preset: tuple[str, str]) -> None:
    path = MAKE.golden_path(preset)
    assert path.exists(), f"{path.name} is missing: run `make golden`"
    stored = path.read_bytes()
    fresh = MAKE.play_golden(preset).encode("utf-8")
    if stored != fresh:
        where = first_difference(stored.decode(), fresh.decode())
        pytest.fail(
            f"{path.name} no longer matches the engine; {where}\n"
            "If the change is intended, run `make golden` and review the diff."
        )


@pytest.mark.parametrize("preset", PRESETS, ids="{0[0]}.{0[1]}".format)
def test_golden_file_replays_and_verifies(preset: tuple[str, str]) -> None:
    path = MAKE.golden_path(preset)
    record = read_record(path)
    seed, overrides = MAKE.GAMES[preset]
    spec = get_game(preset[0])
    assert record.game == spec.id
    assert record.seed == seed
    assert record.options == spec.options(preset[1], **overrides).to_dict()
    assert record.end is not None, "a golden game is played to the end"
    report = replay(record, verify=True)
    assert report.ok, f"{path.name}: {report.divergence}"
    assert report.plies == len(record.actions) == record.end["plies"]
    assert report.state.is_terminal()
    assert report.state.state_hash() == record.end["hash"]
    assert report.state.result_text() == record.end["result"]
    assert list(report.state.returns()) == record.end["returns"]
    # Each line is one compact JSON object (the stored text is what to_text writes).
    for raw in path.read_text(encoding="utf-8").splitlines():
        assert json.dumps(json.loads(raw), separators=(",", ":"), ensure_ascii=False) == raw


def test_golden_files_are_small() -> None:
    files = sorted(GOLDEN_DIR.glob("*.jsonl"))
    assert files
    sizes = {f.name: f.stat().st_size for f in files}
    assert all(size < MAX_FILE_BYTES for size in sizes.values()), sizes
    assert sum(sizes.values()) < MAX_TOTAL_BYTES, sizes
    expected = {MAKE.golden_path(p).name for p in PRESETS}
    assert set(sizes) == expected, "stale or unexpected golden files"


@pytest.mark.slow
def test_make_golden_check_mode_reports_no_change() -> None:
    """What `make golden` runs, with --check: every file the same, nothing written."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.helpers.golden", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("same") == len(PRESETS)
