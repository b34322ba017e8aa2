"""The cyclic garbage collector of a serving process, run on a timer instead of by counts.

CPython starts a young collection when allocations minus deallocations pass a threshold.
A busy server frees about as many old objects (last ply's messages, slid-off log views) as
it makes, so the count rises slowly while the young generation fills with survivors: with
1,000 live rooms each young collection scanned 100,000+ objects and stopped every room for
50-150 ms, and a full collection (over a million objects) for 300-400 ms (CHANGELOG.md 0.1.0,
"The 1,000-room pauses"). On a clock the young generation is bounded by time instead: a
young collection every YOUNG_EVERY seconds, the middle one every MIDDLE_EVERY young ones
(10-30 ms at 1,000 rooms), and a full one every FULL_EVERY young ones (10 minutes), so the
long pause is rare. Cyclic garbage that reaches the old generation waits for it meanwhile;
acyclic garbage is freed at once by reference counting, as always.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_EVERY = 0.05  # seconds
MIDDLE_EVERY = 20  # young collections (1 s)
FULL_EVERY = 12_000  # young collections (10 min)


def generation_for_tick(tick: int) -> int:
    """The generation to collect at the ``tick``-th tick (from 1)."""
    if tick % FULL_EVERY == 0:
        return 2
    return 1 if tick % MIDDLE_EVERY == 0 else 0


async def collect_on_a_timer() -> None:
    """Runs until cancelled, with the automatic collector off; turns it back on (as it was)
    when cancelled, so a test process that served an app keeps its own collector."""
    was_enabled = gc.isenabled()
    gc.disable()
    tick = 0
    try:
        while True:
            await asyncio.sleep(YOUNG_EVERY)
            tick += 1
            gc.collect(generation_for_tick(tick))
    finally:
        if was_enabled:
            gc.enable()
