"""Checked-play speed of scripts/fuzz.py against the harness at another git revision: both
play the same games (same seeds, same checks), interleaved in one process and timed in CPU
seconds, so machine load mostly cancels. Prints the speedup per game x preset.

    python scripts/bench_fuzz.py [--against 5bb5158] [--actions 1500] [--rounds 2]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
PRESETS = [
    ("paper-ultimate", "standard"),
    ("huck-monster", "pro-continue"),
    ("huck-monster", "cone-push"),
    ("midway", "exhibition"),
    ("midway", "short"),
]


def load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def timed(module: ModuleType, game: str, preset: str, seed: int, actions: int) -> float:
    start = time.process_time()
    tally = module.fuzz_one(module.Job(game, preset, seed, actions, float("inf"), 0, 0))
    spent = time.process_time() - start
    if tally.failures or tally.actions != actions:
        raise SystemExit(f"{game}/{preset}: {tally.actions} actions, {tally.failures}")
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="5bb5158", help="git revision of the old harness")
    parser.add_argument("--actions", type=int, default=1500, help="per preset and round")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    text = subprocess.run(
        ["git", "show", f"{args.against}:scripts/fuzz.py"],
        cwd=HERE,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        old_path = Path(folder) / "fuzz_old.py"
        old_path.write_text(text, encoding="utf-8")
        harnesses = {"old": load("fuzz_old", old_path), "new": load("fuzz_new", HERE / "fuzz.py")}
        for game, preset in PRESETS:  # first use builds each game's tables
            harnesses["new"].fuzz_one(harnesses["new"].Job(game, preset, 1, 10, 1e9, 0, 0))
        total = {"old": 0.0, "new": 0.0}
        for game, preset in PRESETS:
            spent = {"old": 0.0, "new": 0.0}
            for round_ in range(args.rounds):
                order = ["old", "new"] if round_ % 2 == 0 else ["new", "old"]
                for name in order:
                    spent[name] += timed(harnesses[name], game, preset, 50 + round_, args.actions)
            for name in total:
                total[name] += spent[name]
            rate = args.actions * args.rounds / spent["new"]
            print(
                f"{game:15} {preset:13} old {spent['old']:6.2f} s  new {spent['new']:6.2f} s  "
                f"speedup {spent['old'] / spent['new']:.2f}x  new {rate:5.0f} actions/CPU s",
                flush=True,
            )
    print(f"all: speedup {total['old'] / total['new']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
