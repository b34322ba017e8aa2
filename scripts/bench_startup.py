"""How long ``monsterball --version`` and a Tab completion take to start, against the
yardstick of a bare ``python -c pass`` run interleaved with them (the same interpreter, the
same moment's machine load), so a busy machine shows in the yardstick as well.

    .venv/bin/python scripts/bench_startup.py --rounds 15

Each round runs every command once, in turn; the figures are medians over the rounds, of the
wall time and of the CPU time (user + system of the child, which load inflates less). The
goal (issue 35): under 0.3 s on a quiet machine, that is with the yardstick near its idle
value (about 0.02 s here).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
COMMANDS = {
    "python -c pass (yardstick)": ([sys.executable, "-c", "pass"], {}),
    "monsterball --version": ([str(BIN / "monsterball"), "--version"], {}),
    "Tab: monsterball play <TAB>": (
        [str(BIN / "monsterball")],
        {"_MONSTERBALL_COMPLETE": "complete_bash", "COMP_WORDS": "monsterball play ",
         "COMP_CWORD": "2"},
    ),
    "Tab: monsterball play pu --preset <TAB>": (
        [str(BIN / "monsterball")],
        {"_MONSTERBALL_COMPLETE": "complete_bash", "COMP_WORDS": "monsterball play pu --preset ",
         "COMP_CWORD": "4"},
    ),
}  # fmt: skip


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(command, env={**os.environ, **env}, check=True, capture_output=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    walls: dict[str, list[float]] = {name: [] for name in COMMANDS}
    cpus: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for command, env in COMMANDS.values():
        run_once(command, env)  # warm the file cache and the bytecode
    for _ in range(args.rounds):
        for name, (command, env) in COMMANDS.items():
            wall, cpu = run_once(command, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    load = os.getloadavg()[0]
    print(f"{args.rounds} rounds, load average {load:.1f} on {os.cpu_count()} cores")
    print(f"{'command':<42} {'wall (median)':>14} {'CPU (median)':>13} {'wall / yardstick':>17}")
    yardstick = statistics.median(walls["python -c pass (yardstick)"])
    for name in COMMANDS:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"{name:<42} {wall:>12.3f} s {cpu:>11.3f} s {wall / yardstick:>16.1f}x")


if __name__ == "__main__":
    main()
