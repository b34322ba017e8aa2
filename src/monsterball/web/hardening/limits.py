"""Per-client limits (docs/web.md, "Limits"): how fast one address or one seat token may create
games and make moves, how many live rooms one address may hold, and what bots may cost.

Counted in the server's memory, so they start afresh when it restarts. The address is the
connection's own, or the one a proxy named by ``serve --trusted-proxy`` forwards (uvicorn's
proxy headers are off otherwise: X-Forwarded-For from anyone else is ignored).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from monsterball.settings import Limits
from monsterball.web.live.game import Rejected

T = TypeVar("T")
KEYS_KEPT = 10_000  # buckets kept before idle (full) ones are forgotten


class Bucket:
    __slots__ = ("stamp", "tokens")

    def __init__(self, tokens: float, stamp: float):
        self.tokens = tokens
        self.stamp = stamp


class RateLimiter:
    """Token buckets: ``rate`` actions per second on average, up to ``burst`` at once."""

    def __init__(
        self, rate: float, burst: float, what: str, clock: Callable[[], float] = time.monotonic
    ):
        self.rate = rate
        self.burst = max(1.0, burst)
        self.what = what
        self.clock = clock
        self.buckets: dict[str, Bucket] = {}

    def take(self, key: str) -> None:
        """Count one action for ``key``; Rejected('too-many', retry_after=...) if over."""
        if self.rate <= 0:
            return
        now = self.clock()
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= KEYS_KEPT:
                self._forget_idle(now)
            bucket = self.buckets[key] = Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens < 1:
            wait = (1 - bucket.tokens) / self.rate
            raise Rejected(
                "too-many",
                f"too many {self.what}; try again in {math.ceil(wait)} s",
                retry_after=math.ceil(wait),
            )
        bucket.tokens -= 1

    def _forget_idle(self, now: float) -> None:
        for key, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * self.rate >= self.burst:
                del self.buckets[key]


class ClientLimits:
    """The rate limits of one server."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        games = limits.games_per_minute
        self.games = RateLimiter(games / 60, games, "new games from this address", clock)
        self.moves = RateLimiter(
            limits.moves_per_second, limits.moves_per_second, "moves from this seat", clock
        )
        reads = limits.reads_per_second
        self.reads = RateLimiter(reads, 2 * reads, "reads from this address", clock)
        rebuilt = limits.rebuilds_per_minute
        self.rebuilds = RateLimiter(
            rebuilt / 60, rebuilt / 3, "replays of games not viewed lately from this address", clock
        )
        self.address_moves = RateLimiter(
            limits.address_moves_per_second,
            limits.address_moves_per_second,
            "moves from this address",
            clock,
        )

    def read(self, address: str) -> None:
        """An API read (GET) from this address."""
        self.reads.take(address)

    def rebuild(self, address: str) -> None:
        """A replay or record that must be rebuilt from the store for this address."""
        self.rebuilds.take(address)

    def new_game(self, address: str) -> None:
        self.games.take(address)

    def move(self, address: str) -> None:
        self.address_moves.take(address)

    def move_by(self, seat: str | None) -> None:
        """A move by a seat (its game and chair: the limit per seat token)."""
        if seat:
            self.moves.take(seat)


class Hashing:
    """A bounded pool for password hashing: at most ``workers`` Argon2 computations at once
    (each holds 64 MiB), at most ``queue`` more waiting; past that, Rejected('busy') before
    any work, so many log-ins at once cost bounded memory and time."""

    def __init__(self, workers: int, queue: int):
        self.workers = max(1, workers)
        self.queue = max(0, queue)
        self.slots = threading.BoundedSemaphore(self.workers)
        self.admitted = 0
        self.count_lock = threading.Lock()

    def admit(self) -> None:
        with self.count_lock:
            if self.admitted >= self.workers + self.queue:
                raise Rejected(
                    "busy",
                    "the server is checking too many passwords at once; try again in 1 s",
                    retry_after=1,
                )
            self.admitted += 1

    def release(self) -> None:
        with self.count_lock:
            self.admitted -= 1

    def run(self, work: Callable[[], T]) -> T:
        """``work`` in this (worker) thread once a slot is free; called after ``admit``."""
        with self.slots:
            return work()
