"""The defaults of the command line, the web app and its worker processes, in one place.

``monsterball serve``'s options, ``create_app``, ``Store``, the bots' search cap and the CLI's
``--db`` all default to :data:`SETTINGS` (tests/test_settings.py holds them to it). Nothing of
the project is imported here, so every layer may read it (docs/architecture.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def default_bot_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class Limits:
    """The server's limits; 0 turns a rate limit or the room cap off."""

    games_per_minute: float = 20.0  # per address (a fork counts as a new game)
    moves_per_second: float = 10.0  # per seat token
    address_moves_per_second: float = 30.0  # per address, all its tokens together
    rooms_per_address: int = 20  # games in progress created from one address
    max_bot_seconds: float = 2.0  # a bot's thinking per decision
    # Bots thinking at once (one process each): one core is left to answer people (measured:
    # docs/benchmarks.md, "Human-paced rooms beside thinking bots").
    bot_workers: int = field(default_factory=default_bot_workers)
    sockets_per_address: int = 50  # WebSockets open at once from one address
    # Origins (besides the server's own host) whose pages may open sockets, for a site served
    # under another name by a proxy: "https://games.example".
    allowed_origins: tuple[str, ...] = ()
    # Accounts and chat (web/api/accounts.py, web/api/chat.py): log-in attempts per address and per
    # name (against guessing passwords), new accounts per address, chat messages per author.
    logins_per_minute: float = 10.0
    name_logins_per_minute: float = 5.0
    accounts_per_hour: float = 20.0
    chat_per_minute: float = 12.0
    # Password hashes (Argon2id, 64 MiB each) computed at once, and how many more may wait for
    # one; a log-in or sign-up past them is answered 503 busy at once (web/api/accounts.py).
    # Replays and records rebuilt (a long game's costs ~0.2 s of CPU; one kept in memory costs
    # nothing) per address: a minute's worth, and bursts of up to this many.
    rebuilds_per_minute: float = 30.0
    # API reads (GET /api/...) per address per second, in bursts of twice as many.
    reads_per_second: float = 50.0
    hash_workers: int = 2
    hash_queue: int = 8
    # Contributed dice (web/live/fair_dice.py): how long an online room's first die waits for its
    # human chairs' nonces before it rolls without the missing ones (0: it never waits).
    nonce_seconds: float = 5.0
    # The shortest real-time clock a game may have (tests go lower to see flags fall fast).
    min_clock_seconds: float = 30.0
    # Rooms nobody watches or asks about are evicted after this long (0: never); servers on one
    # PostgreSQL hold a game's automatic moves for this long at a time (web/cluster/leases.py).
    idle_seconds: float = 600.0
    lease_seconds: float = 10.0


@dataclass(frozen=True)
class Settings:
    """What a server or a command uses when nothing says otherwise."""

    # The game store: a SQLite file in the working directory (any SQLAlchemy URL: PostgreSQL).
    db_url: str = "sqlite:///monsterball.db"
    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "warning"  # uvicorn's (info shows the access log, tokens hidden)
    # The hard bot's search: at most this many iterations per second of its time budget, so
    # a budget in seconds bounds the work on any machine (the web caps budgets by it too).
    iterations_per_second: int = 2000
    limits: Limits = field(default_factory=Limits)


SETTINGS = Settings()
