"""How close `monsterball simulate`'s "left" estimate comes to the time really left.

Each setting runs a real simulation (``monsterball.simulate.simulate``, the function the
command calls, with its worker pool) and notes the moment each game is reported done. The
estimate the progress bar shows is then replayed from those moments with the bar's own
estimator (``cli.common.TimeLeftEstimate``, fed as the bar feeds it: the elapsed time since
the task was added and the games done), and compared with the time that really remained
(the last game's moment minus that moment). The yardstick is the old estimate, the mean
pace since the first game ended (``eta_seconds``), replayed from the same moments.

Issue 35's goal: within 25% of the time left from the first tenth of the run on. The
report gives the worst relative error from the first tenth while 20 or more games are left
(the "goal" column), and, for the last games, the worst error in seconds as a multiple of a
mean game's share of the run (no estimate can know how long the last few games will be).

    .venv/bin/python scripts/bench_eta.py                    # the default settings
    .venv/bin/python scripts/bench_eta.py --setting paper-ultimate/random,random/300/2
    .venv/bin/python scripts/bench_eta.py --json traces.json  # keep the moments
    .venv/bin/python scripts/bench_eta.py --traces traces.json  # re-score kept moments

A setting is GAME[:PRESET]/BOTS/GAMES/JOBS.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from monsterball.cli.common import TimeLeftEstimate, eta_seconds
from monsterball.simulate import simulate

DEFAULT_SETTINGS = (
    "paper-ultimate/random,random/300/2",  # the run issue 35 measured (120% at game 30)
    "paper-ultimate/random,random/150/1",
    "huck-monster/random,random/80/2",
    "midway:short/random,random/80/2",
    "paper-ultimate/heuristic,heuristic/60/2",
)
LEFT_AT_END = 20  # the last games: judged in seconds, not as a share of the time left

Trace = dict[str, object]


def record(setting: str) -> Trace:
    """Run one setting; the moments (seconds since the start) at which games 1..N ended."""
    game, bots, games, jobs = setting.split("/")
    game, _, preset = game.partition(":")
    moments: list[float] = []
    start = time.perf_counter()
    simulate(
        game,
        int(games),
        tuple(bots.split(",")),
        jobs=int(jobs),
        seed=1,
        preset=preset or None,
        progress=lambda done, total: moments.append(time.perf_counter() - start),
    )
    return {"setting": setting, "moments": moments, "load": os.getloadavg()[0]}


def shown_by_the_bar(moments: list[float]) -> list[float | None]:
    """The bar's estimate at each game's end, as its column computes it."""
    estimate = TimeLeftEstimate()
    total = len(moments)
    return [estimate.seconds_left(now, done, total) for done, now in enumerate(moments, 1)]


def run_mean(moments: list[float]) -> list[float | None]:
    """The old estimate: the mean pace since the first game ended."""
    since = (moments[0], 1)
    total = len(moments)
    return [eta_seconds(now, done, total, since) for done, now in enumerate(moments, 1)]


def score(moments: list[float], estimates: list[float | None]) -> tuple[float, int, float]:
    """(worst relative error from the first tenth while LEFT_AT_END or more games are left,
    the game at which it was worst, worst error in the last games in mean games)."""
    total, finish = len(moments), moments[-1]
    per_game = finish / total
    worst, at, end_worst = 0.0, 0, 0.0
    for done, (now, left) in enumerate(zip(moments, estimates, strict=True), 1):
        if done < total // 10 or done == total:
            continue
        truth = finish - now
        error = abs((left if left is not None else 0.0) - truth)
        if total - done >= LEFT_AT_END:
            if truth > 0 and error / truth > worst:
                worst, at = error / truth, done
        else:
            end_worst = max(end_worst, error / per_game)
    return worst, at, end_worst


def report(traces: list[Trace]) -> str:
    lines = [
        "| setting | load | wall s | bar: worst after the first tenth (at game) "
        "| bar: last 20 games, in mean games | old run mean: worst (at game) |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    estimators: tuple[Callable[[list[float]], list[float | None]], ...] = (
        shown_by_the_bar,
        run_mean,
    )
    for trace in traces:
        moments = [float(m) for m in trace["moments"]]  # type: ignore[attr-defined]
        (bar, bar_at, bar_end), (old, old_at, _) = (score(moments, f(moments)) for f in estimators)
        lines.append(
            f"| {trace['setting']} | {float(trace['load']):.1f} | {moments[-1]:.1f} "  # type: ignore[arg-type]
            f"| {bar:.0%} ({bar_at}) | {bar_end:.1f} | {old:.0%} ({old_at}) |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setting", action="append", help="GAME[:PRESET]/BOTS/GAMES/JOBS")
    parser.add_argument("--json", type=Path, help="write the recorded moments here")
    parser.add_argument("--traces", type=Path, help="score moments recorded before; run none")
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
