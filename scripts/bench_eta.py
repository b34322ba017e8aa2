"""How close `monsterball simulate`'s "left" estimate comes to the time really left.

Each setting runs a real simulation (``monsterball.lab.simulation.simulate``, the function the
command calls, with its worker pool) while a thread notes, every 0.1 s as the progress bar
redraws, the elapsed time, the games reported done and the CPU seconds of the run's
processes (``lab.pool.tree_cpu_seconds``, as the bar reads them). The bar's own estimator
(``cli.time_left.TimeLeftEstimate``) is then replayed on those redraws and compared with the
time that really remained (the last game's end minus that moment). The yardstick is the
estimate before issue 35's last round, the mean wall pace since the first game ended
(``eta_seconds``), replayed on the same redraws: both are judged on the same run.

Issue 35's goal: within 25% of the time left from the first tenth of the run on. The
report gives the worst relative error of the estimate as shown (whole seconds) from the
first tenth on, while 20 or more games and 5 s are left; for the rest, the worst error as a
multiple of a mean game's share of the run (no estimate can know how long the last few
games will be, and 1 s of 3 s left is a third).

    .venv/bin/python scripts/bench_eta.py                    # the default settings
    .venv/bin/python scripts/bench_eta.py --setting paper-ultimate/random,random/300/2
    .venv/bin/python scripts/bench_eta.py --json traces.json  # keep the redraws
    .venv/bin/python scripts/bench_eta.py --traces traces.json  # re-score kept redraws

A setting is GAME[:PRESET]/BOTS/GAMES/JOBS.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from monsterball.cli.time_left import TimeLeftEstimate, eta_seconds
from monsterball.lab.pool import tree_cpu_seconds
from monsterball.lab.simulation import simulate

DEFAULT_SETTINGS = (
    "paper-ultimate/random,random/300/2",  # the run issue 35 measured (120% at game 30)
    "paper-ultimate/random,random/150/1",
    "huck-monster/random,random/150/2",
    "paper-ultimate/heuristic,heuristic/60/2",
)
REDRAW = 0.1  # seconds between two redraws of the bar (rich's default refresh)
LEFT_AT_END = 20  # the last games: judged in seconds, not as a share of the time left
SHORTEST = 5.0  # nor under 5 s left, where the bar's whole seconds are a large share

Trace = dict[str, Any]  # setting, jobs, load, finish (s), ticks: [elapsed, done, cpu]


def record(setting: str) -> Trace:
    """Run one setting, noting (elapsed, games done, CPU seconds) at every redraw."""
    game, bots, games, jobs = setting.split("/")
    game, _, preset = game.partition(":")
    done = [0]
    ticks: list[tuple[float, int, float | None]] = []
    over = threading.Event()
    start = time.perf_counter()

    def redraw() -> None:
        while not over.wait(REDRAW):
            ticks.append((time.perf_counter() - start, done[0], tree_cpu_seconds()))

    def seen(count: int, total: int) -> None:
        done[0] = count

    sampler = threading.Thread(target=redraw, daemon=True)
    sampler.start()
    try:
        simulate(
            game,
            int(games),
            tuple(bots.split(",")),
            jobs=int(jobs),
            seed=1,
            preset=preset or None,
            progress=seen,
        )
    finally:
        finish = time.perf_counter() - start
        over.set()
        sampler.join()
    return {
        "setting": setting,
        "jobs": int(jobs),
        "games": int(games),
        "finish": finish,
        "ticks": ticks,
        "load": os.getloadavg()[0],
    }


def shown_by_the_bar(trace: Trace) -> list[float | None]:
    """The bar's estimate at each redraw, as its column computes it."""
    estimate = TimeLeftEstimate(trace["jobs"])
    return [estimate.seconds_left(t, d, trace["games"], cpu) for t, d, cpu in trace["ticks"]]


def run_mean(trace: Trace) -> list[float | None]:
    """The old estimate: the mean wall pace since the first game was seen done."""
    since: tuple[float, int] | None = None
    out = []
    for t, d, _ in trace["ticks"]:
        if d and since is None:
            since = (t, d)
        out.append(eta_seconds(t, d, trace["games"], since or (0.0, 0)))
    return out


def score(trace: Trace, estimates: list[float | None]) -> tuple[float, int, float]:
    """(worst relative error from the first tenth while LEFT_AT_END or more games and
    SHORTEST seconds are left, the games done when it was worst, worst error after the first
    tenth elsewhere, in mean games)."""
    total, finish = trace["games"], trace["finish"]
    per_game = finish / total
    worst, at, end_worst = 0.0, 0, 0.0
    for (now, done, _), left in zip(trace["ticks"], estimates, strict=True):
        if done < total // 10 or done == total:
            continue
        truth = finish - now
        error = abs(round(left if left is not None else 0.0) - truth)  # shown in whole seconds
        if total - done >= LEFT_AT_END and truth >= SHORTEST:
            if error / truth > worst:
                worst, at = error / truth, done
        else:
            end_worst = max(end_worst, error / per_game)
    return worst, at, end_worst


def report(traces: list[Trace]) -> str:
    lines = [
        "| setting | load | wall s | bar: worst from the first tenth (games done) "
        "| bar: last games, in mean games | old mean pace: worst (games done) |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    estimators: tuple[Callable[[Trace], list[float | None]], ...] = (shown_by_the_bar, run_mean)
    for trace in traces:
        (bar, bar_at, bar_end), (old, old_at, _) = (score(trace, f(trace)) for f in estimators)
        lines.append(
            f"| {trace['setting']} | {trace['load']:.1f} | {trace['finish']:.1f} "
            f"| {bar:.0%} ({bar_at}) | {bar_end:.1f} | {old:.0%} ({old_at}) |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--setting", action="append", help="GAME[:PRESET]/BOTS/GAMES/JOBS")
    parser.add_argument("--json", type=Path, help="write the recorded redraws here")
    parser.add_argument("--traces", type=Path, help="score redraws recorded before; run none")
    args = parser.parse_args()
    if args.traces is not None:
        traces = json.loads(args.traces.read_text(encoding="utf-8"))
    else:
        traces = []
        for setting in args.setting or DEFAULT_SETTINGS:
            print(f"running {setting} ...", file=sys.stderr, flush=True)
            traces.append(record(setting))
        if args.json is not None:
            args.json.write_text(json.dumps(traces), encoding="utf-8")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print(report(traces))


if __name__ == "__main__":
    main()
