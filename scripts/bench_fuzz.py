"""Checked-play speed of the fuzz harness (monsterball.lab.fuzz, run as scripts/fuzz.py)
against the code at another git revision, harness and engine both (the checks call the
engine's positions, pictures and records): the old tree
is unpacked with ``git archive`` (the compiled kernels, which git does not hold, copied
from this tree), and each round runs one process on the old tree and one on this one, in
alternating order, on the same games (same seeds, so the same actions are checked), timed
in CPU seconds of fuzz_one (load mostly cancels; the order alternates against drift).

    python scripts/bench_fuzz.py [--against a146188] [--actions 1500] [--rounds 3]
                                 [--preset GAME/PRESET ...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PRESETS = [
    "paper-ultimate/standard",
    "paper-ultimate/coins",
    "huck-monster/pro-continue",
    "huck-monster/basic",
    "huck-monster/cone-push",
    "midway/exhibition",
    "midway/short",
]
SEED = 50


def worker(root: Path, actions: int, presets: list[str]) -> None:
    """In a process whose path starts with ``root``/src: play ``actions`` checked actions of
    each preset, print {preset: CPU seconds} as JSON."""
    try:  # the tree's own harness, chosen at run time (its src/ leads the path)
        from monsterball.lab.fuzz.play import Job, fuzz_one
    except ImportError:  # a tree from before the harness moved into the package
        sys.path.insert(0, str(root / "scripts"))
        from fuzz import Job, fuzz_one

    spent: dict[str, float] = {}
    for name in presets:
        game, preset = name.split("/")
        fuzz_one(Job(game, preset, 1, 10, 1e9, 0, 0))  # tables built, untimed
        start = time.process_time()
        tally = fuzz_one(Job(game, preset, SEED, actions, float("inf"), 0, 0))
        spent[name] = time.process_time() - start
        if tally.failures or tally.actions != actions:
            raise SystemExit(f"{name}: {tally.actions} actions, {tally.failures}")
    print(json.dumps(spent))


def unpack(revision: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "archive", revision], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    for built in (ROOT / "src").rglob("*.so"):  # compiled kernels: not in git
        target = into / built.relative_to(ROOT)
        if not target.exists():
            shutil.copy2(built, target)


def run(root: Path, actions: int, presets: list[str]) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    command = [sys.executable, __file__, "--worker", str(root), "--actions", str(actions)]
    done = subprocess.run(
        [*command, "--preset", *presets], env=env, capture_output=True, text=True, cwd=root
    )
    if done.returncode:
        raise SystemExit(f"{root}: {done.stderr.strip()[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="a146188", help="git revision of the old code")
    parser.add_argument("--actions", type=int, default=1500, help="per preset and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--preset", nargs="+", default=PRESETS, help="GAME/PRESET ...")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(Path(args.worker), args.actions, args.preset)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder)
        unpack(args.against, old)
        spent = {side: dict.fromkeys(args.preset, 0.0) for side in ("old", "new")}
        for round_ in range(args.rounds):
            order = [("old", old), ("new", ROOT)]
            for side, root in order if round_ % 2 == 0 else order[::-1]:
                for name, seconds in run(root, args.actions, args.preset).items():
                    spent[side][name] += seconds
            print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    total = args.actions * args.rounds
    print(
        "| game x preset | old, CPU s | new, CPU s | speed-up "
        "| old checked actions / CPU s | new checked actions / CPU s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in args.preset:
        a, b = spent["old"][name], spent["new"][name]
        print(
            f"| {name.replace('/', ' ')} | {a:.2f} | {b:.2f} | {a / b:.2f}x "
            f"| {total / a:,.0f} | {total / b:,.0f} |"
        )
    a, b = sum(spent["old"].values()), sum(spent["new"].values())
    print(f"| all | {a:.2f} | {b:.2f} | **{a / b:.2f}x** | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
