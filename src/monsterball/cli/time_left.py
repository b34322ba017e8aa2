"""The "left" of a long run's progress bar (simulate, match, the lab): how long the games
still to play will take.

Two things move the pace of a run. The games differ in length, which a mean over many games
evens out: the CPU time a game takes is the mean since the workers' first games ended. And
the share of the machine the run gets changes when other work starts or stops, which a mean
over past games follows only slowly: the CPU time the run's processes get per second is the
mean since the first games too, unless the last window of the run (a quarter of it, 20 to
60 s) shows a new level, all its parts agreeing and more than a fifth off that mean; then
it is the window's, and the mean starts again from there. On a busy shared machine the
share wobbles by a third for seconds and comes back, which is why a change must hold for a
whole window. The time left is the games left times CPU seconds per game, over that rate.
Where the CPU time cannot be read (not Linux), it is the wall time per game since the first
games ended. scripts/bench_eta.py measures the estimate against the time really left.
"""

from __future__ import annotations

from collections import deque

WINDOW_SHARE = 0.25  # the rate is read over this share of the run since its first games,
WINDOW_MIN, WINDOW_MAX = 20.0, 60.0  # but 20 s at least (10 s wobbles were seen) and 60 s at most
SAMPLE_EVERY = 0.25  # seconds between the CPU readings kept for the window
PARTS = 4  # the window is read in this many parts, which must agree for a change to count
CHANGE = 0.2  # ... and differ from the whole run's rate by more than this share of it

End = tuple[float, float | None, int]  # (elapsed, cpu, games done)


def eta_seconds(
    elapsed: float, done: int, total: int, since: tuple[float, int] = (0.0, 0)
) -> float | None:
    """The time left at the run's mean wall-clock pace since ``since`` (the elapsed time and
    count when the first game was seen done: worker start-up is not a game's pace). None
    until there is a pace."""
    start, counted = since
    if done <= counted or elapsed <= start:
        return None if done < total else 0.0
    return max(0.0, (elapsed - start) / (done - counted) * (total - done))


class TimeLeftEstimate:
    """The time left of one run, asked at each redraw of its bar with the run's elapsed wall
    time, games done and, where known, the CPU seconds its processes have used so far
    (``lab.pool.tree_cpu_seconds``). ``jobs`` is the number of worker processes: the pace is
    counted from the moment ``jobs`` games have ended, once every worker is likely past its
    start-up and first game (games started together end close together, which would make
    the first moments look quick)."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)
        # (elapsed, cpu, done) when a game was first seen done, when `jobs` were, and last.
        self.first: End | None = None
        self.settled: End | None = None
        self.last: End | None = None
        self.samples: deque[tuple[float, float]] = deque()  # (elapsed, cpu), spaced
        self.level: tuple[float, float] | None = None  # (elapsed, cpu) of the last change

    def seconds_left(
        self, elapsed: float, done: int, total: int, cpu: float | None = None
    ) -> float | None:
        if done and (self.last is None or done > self.last[2]):
            self.last = (elapsed, cpu, done)
            self.first = self.first or self.last
            if self.settled is None and done >= self.jobs:
                self.settled = self.last
        if cpu is not None and (not self.samples or elapsed - self.samples[-1][0] >= SAMPLE_EVERY):
            self.samples.append((elapsed, cpu))
        if done >= total:
            return 0.0
        anchor = self.settled if self.settled is not None and self.settled[2] < done else self.first
        if anchor is None or self.last is None or anchor[2] >= done or elapsed <= anchor[0]:
            return None
        start, start_cpu, counted = anchor
        pace = (elapsed - start) / (done - counted)  # wall seconds per game
        last_cpu, last_done = self.last[1], self.last[2]
        if cpu is not None and start_cpu is not None and last_cpu is not None:
            per_game = (last_cpu - start_cpu) / (last_done - counted)  # at the games' ends
            rate = self._cpu_rate(elapsed, cpu, start, start_cpu)
            if rate is not None and per_game > 0:
                pace = per_game / rate
        return pace * (total - done)

    def _cpu_rate(self, elapsed: float, cpu: float, start: float, start_cpu: float) -> float | None:
        """CPU seconds the run gets per wall second: over the whole run since ``start``,
        unless the recent window says the machine changed (see ``changed``)."""
        if self.level is not None:  # since the last change found, else since the anchor
            start, start_cpu = self.level
        whole = (cpu - start_cpu) / (elapsed - start)
        window = min(WINDOW_MAX, max(WINDOW_MIN, WINDOW_SHARE * (elapsed - start)))
        while len(self.samples) > 1 and self.samples[1][0] <= elapsed - WINDOW_MAX:
            self.samples.popleft()  # older than any window
        if elapsed - start < 1.5 * window:  # too little before the window to compare
            return whole if whole > 0 else None
        parts, window_start = [], None
        for k in range(PARTS):
            begin, end = (
                elapsed - window * (PARTS - k) / PARTS,
                elapsed - window * (PARTS - k - 1) / PARTS,
            )
            a = next((s for s in self.samples if s[0] >= begin), None)
            b = next((s for s in self.samples if s[0] >= end), (elapsed, cpu))
            if a is None or b[0] - a[0] <= 0:
                return whole if whole > 0 else None
            parts.append((b[1] - a[1]) / (b[0] - a[0]))
            window_start = window_start or a
        recent = sum(parts) / PARTS
        if changed(recent, whole, max(parts) - min(parts)):
            self.level = window_start  # the new level is measured from here on
            return recent
        return whole if whole > 0 else None


def changed(recent: float, whole: float, spread: float) -> bool:
    """Whether the run's recent CPU rate is a new level rather than a passing wobble: the
    window's parts agree with each other (their spread is less than the step) and the step
    is more than CHANGE of the whole run's rate. On a busy machine the share wobbles by a
    third from one few seconds to the next and comes back; a mean follows that best."""
    step = abs(recent - whole)
    return whole > 0 and step > CHANGE * whole and spread < step
