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
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

_PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def _die_with(parent: int) -> None:
    """A worker's first step: on Linux, ask for SIGTERM when the process that started it
    dies, so a run killed outright (kill, an out-of-memory kill) leaves no workers playing on
    unseen; elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # no prctl: the worker outlives a killed parent
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def run_jobs(
    work: Callable[[T], R],
    jobs: Sequence[T],
    workers: int,
    collect: Callable[[R], None],
    *,
    in_order: bool = False,
) -> None:
    """Call ``collect(work(job))`` for every job: in this process when ``workers`` is 1,
    else on up to ``workers`` processes, as results arrive (in job order with ``in_order``).

    An error in a job or Ctrl+C cancels the jobs still queued instead of waiting for them.
    """
    if workers == 1 or not jobs:
        for job in jobs:
            collect(work(job))
        return
    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(
        max_workers=min(workers, len(jobs)),
        mp_context=context,
        initializer=_die_with,
        initargs=(os.getpid(),),
    )
    try:
        if in_order:
            for result in executor.map(work, jobs):
                collect(result)
        else:
            pending: set[Future[R]] = {executor.submit(work, job) for job in jobs}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    collect(future.result())
    except BaseException:
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown()
