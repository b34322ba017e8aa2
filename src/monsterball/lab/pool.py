"""One way to run independent jobs on worker processes: simulations, tournaments, the lab.

Workers are started with 'spawn' rather than fork: the caller may have threads (rich's
progress refresher), and forking a threaded process can deadlock; workers only need the
engine, which is quick to import. ``work`` must be a module-level function (it is pickled).

Top layer (docs/architecture.md): imports nothing from monsterball.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sized
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

_PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def _die_with(parent: int) -> None:
    """A worker's first step: leave Ctrl+C to the parent (the terminal sends it to every
    process of the run; the parent stops the workers itself, so none dies mid-write with a
    traceback), and on Linux ask for SIGTERM when the process that started it dies, so a run
    killed outright (kill, an out-of-memory kill) leaves no workers playing on unseen."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # no prctl: the worker outlives a killed parent
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def tree_cpu_seconds() -> float | None:
    """CPU seconds (user + system) used so far by this process and its live child processes
    (the workers of a running pool), or None where /proc cannot tell (not Linux). A
    progress estimate reads it to tell how much of the machine a run is getting."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        pid = os.getpid()
        children: list[str] = []
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                children.extend(f.read().split())
    except (OSError, ValueError):
        return None
    total = time.process_time()
    for child in children:
        try:
            with open(f"/proc/{child}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended since it was listed
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def run_jobs(
    work: Callable[[T], R],
    jobs: Iterable[T],
    workers: int,
    collect: Callable[[R], None],
    *,
    in_order: bool = False,
) -> None:
    """Call ``collect(work(job))`` for every job: in this process when ``workers`` is 1,
    else on up to ``workers`` processes, as results arrive (in job order with ``in_order``).
    Without ``in_order`` the jobs are taken from the iterable a few per worker at a time, so
    a long run (a generator of a million games) holds only those in memory.

    An error in a job or Ctrl+C cancels the jobs still queued instead of waiting for them.
    """
    if isinstance(jobs, Sized) and len(jobs) == 0:
        return
    if workers == 1:
        for job in jobs:
            collect(work(job))
        return
    if isinstance(jobs, Sized):
        workers = min(workers, len(jobs))
    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_die_with,
        initargs=(os.getpid(),),
    )
    try:
        if in_order:
            for result in executor.map(work, jobs):
                collect(result)
        else:
            queued = iter(jobs)
            pending: set[Future[R]] = set()
            while True:
                for job in islice(queued, 4 * workers - len(pending)):
                    pending.add(executor.submit(work, job))
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    collect(future.result())
    except BaseException:
        # Ctrl+C or an error: the queued jobs are dropped and the running ones stopped now
        # (not played out), then the pool is joined so that nothing is left behind (no
        # worker, no semaphore of the pool's queues).
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=5)
        raise
    executor.shutdown()
