"""Any number of servers on one PostgreSQL act as one site (docs/web.md, "Several servers").

The database is the one source of truth: every move is stored only if the game is still at the
move before (web/store/games.py), so two servers racing for a move store it once and the loser
answers ``409 stale`` after bringing its room up to date. Each server keeps rooms only for the
games it is asked about (loaded on demand, evicted when idle: ``Rooms.evict_idle``), hears of
other servers' moves on the bus (web/cluster/bus.py) and passes them to its watchers, and makes a
game's automatic moves only while it holds the game's lease (web/cluster/leases.py).

One process with SQLite has no ``Cluster``: its rooms are the only ones.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import time
from collections import Counter, OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import anyio
from sqlalchemy import text

from monsterball.web.cluster.bus import CHANNEL, Bus, payload
from monsterball.web.cluster.leases import Leases
from monsterball.web.live.fair_dice import open_for_nonces
from monsterball.web.store.games import Store, StoredMove
from monsterball.web.store.pg_append import Announce

if TYPE_CHECKING:
    from monsterball.web.live.rooms import Room, Rooms

LATEST_KEPT = 10_000  # games whose newest notified move count is remembered
ORPHANS_PER_SWEEP = 20
log = logging.getLogger("monsterball.web")


def new_server_id() -> str:
    return f"{socket.gethostname()[:40]}-{secrets.token_hex(4)}"


class Cluster:
    def __init__(self, store: Store, *, lease_seconds: float = 10.0, grace: float = 1.0):
        self.server = new_server_id()
        self.store = store
        self.lease_seconds = lease_seconds
        self.grace = grace  # a game's lease is left this long to the server that stored its move
        self.leases = Leases(store, self.server, lease_seconds)
        self.latest: OrderedDict[str, int] = OrderedDict()  # game -> moves stored (notified)
        self.counts: Counter[str] = Counter()
        self.bus: Bus | None = None
        self._rooms: Rooms | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # -- in a move's transaction ---------------------------------------------------------

    def after_append(self, game_id: str, moves: Sequence[StoredMove], automatic: bool) -> Announce:
        """What a server does in the transaction that stores a game's moves: tell the others,
        and take the game's lease if dice or a bot move next (else free it). Run by the store
        in the move's own statement (web/store/pg_append.py); True: this server holds the lease."""
        return Announce(
            game=game_id,
            channel=CHANNEL,
            payload=payload(game_id, moves, self.server),
            owner=self.server,
            seconds=self.lease_seconds,
            take=automatic,
        )

    async def tell_nonces(self, game_id: str, plies: int) -> None:
        """Tell the other servers that a game took a dice nonce (web/live/fair_dice.py): a
        notification that brings no moves, so the one holding the lease rolls when the last
        is in, and the others show it."""
        note = text("SELECT pg_notify(:channel, :payload)")
        values = {"channel": CHANNEL, "payload": f"{game_id} {plies} {self.server}"}

        def send() -> None:
            with self.store.engine.begin() as connection:
                connection.execute(note, values)

        await anyio.to_thread.run_sync(send)

    async def take(self, game_id: str) -> bool:
        self.counts["lease_takes"] += 1
        return await anyio.to_thread.run_sync(self.leases.take, game_id)

    def lease_deadline(self) -> float:
        """Until when (monotonic) a lease taken now is surely still held: a margin for the
        time between the database's clock reading and this one."""
        return time.monotonic() + 0.8 * self.lease_seconds

    # -- running -------------------------------------------------------------------------

    def start(self, rooms: Rooms) -> list[asyncio.Task[None]]:
        self._rooms = rooms
        self.bus = Bus(self.store.engine.url, self.server, self._on_move, self._on_connect)
        return [self._spawn(self.bus.run()), self._spawn(self._tend_leases())]

    def tasks(self) -> list[asyncio.Task[None]]:
        return list(self._tasks)

    def _spawn(self, work: object) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _on_move(self, game_id: str, plies: int, moves: list[StoredMove]) -> None:
        self.counts["notifications"] += 1
        if self.latest.get(game_id, -1) < plies:
            self.latest[game_id] = plies
            self.latest.move_to_end(game_id)
            while len(self.latest) > LATEST_KEPT:
                self.latest.popitem(last=False)
        assert self._rooms is not None
        room = self._rooms.rooms.get(game_id)
        if room is not None:
            for move in moves:  # kept until the room applies them (or reads the store)
                if move.ply > room.live.moves_made:
                    room.heard[move.ply] = move
            self.behind(room)
            if not moves and open_for_nonces(room.live):  # maybe a nonce another server took
                self._spawn(self._rooms.refresh_nonces(room))

    def _on_connect(self) -> None:
        """(Re)connected: notifications sent meanwhile are lost, so every room catches up."""
        assert self._rooms is not None
        for room in list(self._rooms.rooms.values()):
            self.behind(room, surely=True)

    def behind(self, room: Room, *, surely: bool = False) -> None:
        """Bring ``room`` up to date with the store if a notification says it is behind (or
        ``surely``), in one task per room at a time."""
        if not surely and self.latest.get(room.live.id, -1) <= room.live.moves_made:
            return
        if room.catching_up is None or room.catching_up.done():
            room.catching_up = self._spawn(self._catch_up(room))

    async def _catch_up(self, room: Room) -> None:
        assert self._rooms is not None
        try:
            while True:
                await self._rooms.catch_up(room)
                self.counts["catch_ups"] += 1
                if self.latest.get(room.live.id, -1) <= room.live.moves_made:
                    return
        except Exception:
            log.exception("game %s could not catch up with the store", room.live.id)

    async def _tend_leases(self) -> None:
        """Every third of a lease: renew the leases of games this server is moving on, and
        take over games nobody holds (a killed server's, or a restart's)."""
        assert self._rooms is not None
        rooms = self._rooms
        while True:
            try:
                now = time.monotonic()
                mine = [
                    gid
                    for gid, room in rooms.rooms.items()
                    if room.lease_until > now and room.live.automatic() is not None
                ]
                kept = await anyio.to_thread.run_sync(self.leases.renew, mine)
                deadline = self.lease_deadline()
                for gid in mine:
                    room = rooms.rooms.get(gid)
                    if room is not None:
                        room.lease_until = deadline if gid in kept else 0.0
                taken = await anyio.to_thread.run_sync(
                    self.leases.take_orphans, ORPHANS_PER_SWEEP, self.grace
                )
                for gid in taken:
                    self.counts["adopted"] += 1
                    self._spawn(rooms.adopt(gid, deadline))
            except Exception:
                log.exception("could not tend the bot leases")
            await asyncio.sleep(self.lease_seconds / 3)


async def janitor(rooms: Rooms) -> None:
    """Evicts idle rooms, checking a few times per ``idle_seconds`` (at most every 30 s)."""
    if rooms.idle_seconds <= 0:
        return
    every = min(30.0, max(0.5, rooms.idle_seconds / 4))
    while True:
        await asyncio.sleep(every)
        rooms.evict_idle()
