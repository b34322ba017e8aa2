"""What the routes of one app share, made once by ``create_app`` (web/app.py), and the typed
dependency that hands it to a route: a parameter ``own: Own`` (or ``services(connection)``,
``services_of(app)`` outside a route). Nothing is kept on ``app.state`` but this object."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from argon2 import PasswordHasher
from fastapi import Depends
from starlette.requests import HTTPConnection

from monsterball.settings import Limits
from monsterball.web.cluster.site import Cluster
from monsterball.web.hardening.limits import ClientLimits, Hashing, RateLimiter
from monsterball.web.hardening.security import SocketCounter
from monsterball.web.live.bot_pool import ThinkingPool
from monsterball.web.live.lobby import Hub
from monsterball.web.live.rooms import Rooms
from monsterball.web.store.games import Store
from monsterball.web.store.people import People

T = TypeVar("T")

# argon2-cffi's defaults (RFC 9106's second recommended option: Argon2id, 3 passes, 64 MiB);
# the tests lower them to keep a sign-up cheap.
HASH_PARAMS: dict[str, Any] = {}


def new_hasher() -> PasswordHasher:
    return PasswordHasher(**HASH_PARAMS)


@dataclass
class Social:
    """What the people routes of one app share: the tables, the hasher, the rate limits and
    the lobby's sockets."""

    people: People
    limits: Limits
    hasher: PasswordHasher = field(default_factory=lambda: new_hasher())
    hub: Hub = field(default_factory=Hub)
    swept: float = float("-inf")  # when expired challenges were last marked

    def __post_init__(self) -> None:
        per_min = self.limits.logins_per_minute
        per_name = self.limits.name_logins_per_minute
        made = self.limits.accounts_per_hour
        chat = self.limits.chat_per_minute
        self.logins = RateLimiter(per_min / 60, per_min, "log-in attempts from this address")
        self.name_logins = RateLimiter(per_name / 60, per_name, "log-in attempts for this name")
        self.signups = RateLimiter(made / 3600, made, "new accounts from this address")
        self.chat = RateLimiter(chat / 60, chat, "chat messages; slow down")
        self.hashing = Hashing(self.limits.hash_workers, self.limits.hash_queue)
        # A hash to verify against when the name is unknown, so both answers take as long.
        self.dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))


class Deletions:
    """The deleted chat messages the open pages were told of (None: not looked yet)."""

    def __init__(self) -> None:
        self.told: set[int] | None = None
        self.lock = asyncio.Lock()


@dataclass
class Services:
    """One app's store, rooms, bot pool, cluster (servers on one PostgreSQL; None on SQLite),
    limits and the state its routes keep between requests."""

    store: Store
    rooms: Rooms
    pool: ThinkingPool
    cluster: Cluster | None
    limits: Limits
    clients: ClientLimits  # the per-address and per-seat counters
    sockets: SocketCounter  # game sockets per address
    lobby_sockets: SocketCounter
    # For tests only: a request may name a rated game's players (create_app's flag).
    trust_client_players: bool = False
    started: float = field(default_factory=time.monotonic)  # for GET /api/server
    pairing_lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one match at a time
    deletions: Deletions = field(default_factory=Deletions)
    # Finished games' chances graphs (the newest 32: each costs a replay to draw).
    chances: dict[str, dict[str, Any]] = field(default_factory=dict)
    _social: Social | None = field(default=None, repr=False)
    _parts: dict[type, Any] = field(default_factory=dict, repr=False)

    @property
    def social(self) -> Social:
        """Made on first use: its dummy password hash costs an Argon2 hash (64 MiB)."""
        if self._social is None:
            self._social = Social(People(self.store), self.limits)
        return self._social

    def part(self, kind: type[T], make: Callable[[], T]) -> T:
        """The app's one ``kind`` that a router keeps between requests (made on first use)."""
        found = self._parts.get(kind)
        if found is None:
            found = self._parts[kind] = make()
        assert isinstance(found, kind)
        return found


def services_of(app: Any) -> Services:
    found = app.state.services
    assert isinstance(found, Services), "an app made by create_app"
    return found


def services(connection: HTTPConnection) -> Services:
    """The dependency (a request's or a socket's app's services)."""
    return services_of(connection.app)


def address(connection: HTTPConnection) -> str:
    """The client's address: the connection's own, or the one a trusted proxy forwarded
    (uvicorn rewrites it only for ``serve --trusted-proxy``)."""
    return connection.client.host if connection.client else "unknown"


Own = Annotated[Services, Depends(services)]
