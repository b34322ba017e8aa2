"""A live room's parts: its game, lock and watchers (web/live/rooms.py moves them on), and what
rooms ask of the servers sharing one PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.engine import Connection

from monsterball.web.live.game import LOG_TAIL, Chair, LiveGame
from monsterball.web.store.games import StoredMove

Send = Callable[[dict[str, Any]], Awaitable[None]]


class Shared(Protocol):
    """What rooms ask of the servers sharing one PostgreSQL (web/cluster/site.py's ``Cluster``,
    which imports web/live/rooms.py: a protocol here keeps the imports flowing one way)."""

    @property
    def latest(self) -> Mapping[str, int]: ...

    def after_append(
        self, game_id: str, moves: Sequence[StoredMove], automatic: bool
    ) -> Callable[[Connection], bool]: ...

    async def take(self, game_id: str) -> bool: ...

    async def tell_nonces(self, game_id: str, plies: int) -> None: ...

    def lease_deadline(self) -> float: ...

    def behind(self, room: Room, *, surely: bool = False) -> None: ...


@dataclass(eq=False)
class Watcher:
    chair: Chair | None
    send: Send
    # Sends a message already encoded as JSON text (a socket's ``send_text``): the room then
    # encodes each chair's message once per move, not once per socket.
    send_text: Callable[[str], Awaitable[None]] | None = None
    # Takes deltas (web/live/delta.py) through ``send_text``; ``seen``: the ply of the state it
    # holds.
    deltas: bool = False
    seen: tuple[int, int] | None = None
    # The logged-in account of the socket and the hash of the session cookie it came with:
    # ending that session unseats the socket (web/api/accounts.py); the spectators' chat goes only
    # to accounts not seated in the game (web/api/chat.py).
    account: int | None = None
    session: str | None = None


@dataclass
class Room:
    live: LiveGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    thinking: asyncio.Task[None] | None = None  # a bot of this room thinking in the pool
    timer: asyncio.Task[None] | None = None  # asleep until the running side's flag
    # The chairs' tokens, only in the room a request has just created (the store keeps
    # their hashes): handed out once in the answer.
    new_tokens: dict[str, str] = field(default_factory=dict)
    last_used: float = field(default_factory=time.monotonic)  # asked for or watched
    # Servers sharing games: this one makes the room's automatic moves until then (monotonic,
    # web/cluster/leases.py), and the task bringing the room up to date with the store.
    lease_until: float = 0.0
    catching_up: asyncio.Task[None] | None = None
    heard: dict[int, StoredMove] = field(default_factory=dict)  # announced, not yet applied
    # A bots-only room's pace (web/live/rooms.py PACES): seconds between bot moves, the speed's
    # name, and the task that makes the next move when it is due.
    pace: float = 0.0
    speed: str = "max"
    pacer: asyncio.Task[None] | None = None
    # When each chair's last socket closed (monotonic; web/live/abandon.py), and when the room was
    # opened here (the time a chair never seen since has been gone).
    left: dict[str, float] = field(default_factory=dict)
    opened: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.live.log_limit = LOG_TAIL

    async def tell(self, message: dict[str, Any]) -> None:
        """Send ``message`` to every page watching the room (a closed socket is dropped: its
        handler unwatches it)."""
        for watcher in list(self.watchers):
            try:
                await watcher.send(message)
            except Exception:
                self.watchers.discard(watcher)

    def hand_out(self) -> dict[str, Any]:
        """The answer to the request that created this room: every chair with its token and
        link (handed out once, then forgotten) and the spectators' link. A seat link carries
        its token in the fragment (``/play/ID#token=T``), which browsers never send on."""
        live = self.live
        tokens, self.new_tokens = self.new_tokens, {}
        return {
            "id": live.id,
            "game": live.summary(),
            "chairs": [
                {
                    "name": c.name,
                    "seat": c.seat,
                    "kind": c.kind,
                    "token": tokens.get(c.name) if c.kind == "human" else None,
                    "url": (
                        f"/play/{live.id}#token={tokens[c.name]}" if c.kind == "human" else None
                    ),
                }
                for c in live.chairs
            ],
            "watch": f"/play/{live.id}",
        }


class StaleRace(Exception):
    """Another server stored the game's next move first (the room has caught up)."""
