"""Servers on one PostgreSQL tell each other of stored moves with LISTEN/NOTIFY.

A server that stores moves sends, in the same transaction (so only once they are committed),
``pg_notify('monsterball_moves', '<game id> <moves stored> <server id>')``. Every server
listens on one connection of its own; for a game whose room it holds and has fewer moves, it
reads the new moves from the store and tells its watchers. If the connection drops, it
reconnects (backing off up to RECONNECT_MAX seconds) and then brings every room it holds up to
date, since notifications sent meanwhile are lost.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from sqlalchemy import text
from sqlalchemy.engine import URL, Connection

CHANNEL = "monsterball_moves"
RECONNECT_MAX = 5.0
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
log = logging.getLogger("monsterball.web")


def notify_in(connection: Connection, game_id: str, plies: int, server: str) -> None:
    connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": f"{game_id} {plies} {server}"})


def libpq_url(url: URL) -> str:
    """The SQLAlchemy URL as psycopg takes it (no ``+psycopg`` driver part)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class Bus:
    """Listens for other servers' moves: ``on_move(game_id, moves_stored)`` for each,
    ``on_connect()`` after every (re)connection."""

    def __init__(
        self,
        url: URL,
        server: str,
        on_move: Callable[[str, int], None],
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
                    async for note in connection.notifies():
                        self._received(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: try again
                log.warning("move notifications lost (%s); reconnecting", exc)
            self.connected.clear()
            self.reconnects += 1
            await asyncio.sleep(delay)
            delay = min(2 * delay, RECONNECT_MAX)

    def _received(self, payload: str) -> None:
        self.received += 1
        try:
            game_id, plies, server = payload.split(" ")
            moves = int(plies)
        except ValueError:
            log.warning("an unreadable move notification: %r", payload[:100])
            return
        if server != self.server:
            self.on_move(game_id, moves)
