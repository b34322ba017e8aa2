"""Servers on one PostgreSQL tell each other of stored moves with LISTEN/NOTIFY.

A server that stores moves sends, in the same transaction (so only once they are committed),
``pg_notify('monsterball_moves', payload)``: a line ``<game id> <moves stored> <server id>``,
then one line per move stored, ``<move number>\t<seat>\t<notation>`` (left out if they would
make the payload longer than PAYLOAD_MAX bytes). Every server listens on one connection of its
own; for a game whose room it holds and has fewer moves, it applies the moves (from the payload,
or read from the store when the payload does not bring the room up to date) and tells its
watchers. If the connection drops, it
reconnects (backing off up to RECONNECT_MAX seconds) and then brings every room it holds up to
date, since notifications sent meanwhile are lost.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import URL

from monsterball.web.store.games import StoredMove
from monsterball.web.store.pg_append import libpq_url

CHANNEL = "monsterball_moves"
PAYLOAD_MAX = 7000  # bytes (PostgreSQL's limit is 8000)
RECONNECT_MAX = 5.0
log = logging.getLogger("monsterball.web")


def payload(game_id: str, moves: Sequence[StoredMove], server: str) -> str:
    head = f"{game_id} {moves[-1].ply} {server}"
    text = head + "".join(f"\n{m.ply}\t{m.by}\t{m.action}" for m in moves)
    return text if len(text.encode()) <= PAYLOAD_MAX else head


class Bus:
    """Listens for other servers' moves: ``on_move(game_id, moves_stored, moves)`` for each
    (``moves``: those the payload brought, maybe none), ``on_connect()`` after every
    (re)connection."""

    def __init__(
        self,
        url: URL,
        server: str,
        on_move: Callable[[str, int, list[StoredMove]], None],
        on_connect: Callable[[], None],
    ):
        self.dsn = libpq_url(url)
        self.server = server
        self.on_move = on_move
        self.on_connect = on_connect
        self.connected = asyncio.Event()
        self.received = 0
        self.reconnects = 0

    async def run(self) -> None:
        import psycopg  # the `postgres` extra: only servers on PostgreSQL need it

        delay = 0.1
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.dsn, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    delay = 0.1
                    self.on_connect()
                    await self._listen(connection.pgconn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: try again
                log.warning("move notifications lost (%s); reconnecting", exc)
            self.connected.clear()
            self.reconnects += 1
            await asyncio.sleep(delay)
            delay = min(2 * delay, RECONNECT_MAX)

    async def _listen(self, pgconn: Any) -> None:
        """Hands every notification to ``_received`` until the connection breaks (raises).
        The socket is watched by the loop once, and what it brings read by libpq in one call:
        psycopg's ``notifies()`` generator registered and removed the socket with the loop for
        each notification, a good part of a move's server CPU with every server hearing every
        move."""
        loop = asyncio.get_running_loop()
        broken: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            try:
                pgconn.consume_input()
                while (note := pgconn.notifies()) is not None:
                    self._received(note.extra.decode())
            except Exception as exc:  # the connection broke (libpq's error)
                loop.remove_reader(fd)
                if not broken.done():
                    broken.set_exception(exc)

        fd = pgconn.socket
        loop.add_reader(fd, readable)
        try:
            readable()  # what arrived with the LISTEN's answer
            await broken
        finally:
            loop.remove_reader(fd)

    def _received(self, text: str) -> None:
        self.received += 1
        head, *lines = text.split("\n")
        try:
            game_id, plies, server = head.split(" ")
            if server == self.server:
                return
            moves = []
            for line in lines:
                ply, by, action = line.split("\t")
                moves.append(StoredMove(int(ply), by, action))
            self.on_move(game_id, int(plies), moves)
        except ValueError:
            log.warning("an unreadable move notification: %r", text[:100])
