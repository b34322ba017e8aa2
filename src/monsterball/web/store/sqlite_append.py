"""``Store.append`` on SQLite through the driver's own connection: the same two statements
(the guarded ``UPDATE`` of the game's move count, the ``INSERT`` of its moves) in one
transaction, without SQLAlchemy's per-statement machinery, which cost about 15 times the
database's own work per move (0.67 ms against 0.04 ms, CHANGELOG.md 0.1.0 "Server CPU per
move"). Values are converted by the dialect's own type processors, so rows read the same
through SQLAlchemy as before. SQLite only: PostgreSQL keeps the Core path.

An append may run on the event loop's thread (web/live/rooms.py): it is a few writes into the
WAL file, with no fsync (``synchronous=NORMAL``). What fsyncs is the checkpoint, which copies
the WAL into the database file: this connection never runs one itself
(``wal_autocheckpoint=0``) but has one run in a thread of its own every CHECKPOINT_EVERY
appends, beside the writers (``PASSIVE``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import sqlite3
import threading
from collections.abc import Sequence
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime
from sqlalchemy.engine import Engine

_UPDATE = (
    "UPDATE games SET plies = ?, status = ?, result = ?, automatic = ?, updated_at = ? "
    "WHERE games.id = ? AND games.plies = ?"
)
# A clocked game's clock is stored with its moves (web/live/time_control.py), in the same
# transaction.
_UPDATE_CLOCK = _UPDATE.replace("updated_at = ? ", "updated_at = ?, clock = ? ")
_INSERT = 'INSERT INTO moves (game_id, ply, "by", action) VALUES (?, ?, ?, ?)'
# Appends between checkpoints: a few pages each, so about SQLite's default of 1,000 pages.
CHECKPOINT_EVERY = 256
log = logging.getLogger("monsterball.web")


class SQLiteAppender:
    """One connection kept for appends, used under the store's write lock (any thread)."""

    def __init__(
        self,
        engine: Engine,
        lock: contextlib.AbstractContextManager[Any],
        stale: type[Exception],
    ):
        self._lock = lock
        self._stale = stale  # the store's StaleMove
        self._proxy = engine.raw_connection()  # the pool's connection: pragmas applied
        connection = self._proxy.driver_connection
        if not isinstance(connection, sqlite3.Connection):
            raise TypeError(f"not a sqlite3 connection: {connection!r}")
        self._connection = connection
        self.checkpoints: _Checkpointer | None = None
        if engine.url.database not in (None, "", ":memory:"):
            connection.execute("PRAGMA wal_autocheckpoint=0")
            self.checkpoints = _Checkpointer(engine)
        self._appends = 0
        dialect = engine.dialect
        self._stamp = DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
        self._flag = Boolean().dialect_impl(dialect).bind_processor(dialect)
        self._json = JSON().dialect_impl(dialect).bind_processor(dialect)

    def append(
        self,
        game_id: str,
        moves: Sequence[Any],
        *,
        status: str,
        result: str,
        automatic: bool | None,
        clock: dict[str, Any] | None = None,
    ) -> None:
        """Moves of consecutive plies (checked by the caller), all or none; the store's
        StaleMove if the game is not at the ply before the first (or that move is stored)."""
        first, last = moves[0].ply, moves[-1].ply
        now = dt.datetime.now(dt.UTC)
        stamp = self._stamp(now) if self._stamp else now
        flag = self._flag(automatic) if self._flag else automatic
        rows = [(game_id, m.ply, m.by, m.action) for m in moves]
        connection = self._connection
        with self._lock:
            try:
                if clock is None:
                    done = connection.execute(
                        _UPDATE, (last, status, result, flag, stamp, game_id, first - 1)
                    )
                else:
                    stored = self._json(clock) if self._json else clock
                    done = connection.execute(
                        _UPDATE_CLOCK,
                        (last, status, result, flag, stamp, stored, game_id, first - 1),
                    )
                if done.rowcount != 1:
                    raise self._stale(f"game {game_id} is not at move {first - 1}")
                connection.executemany(_INSERT, rows)
                connection.commit()
                self._appends += 1
                if self._appends % CHECKPOINT_EVERY == 0 and self.checkpoints is not None:
                    self.checkpoints.due()
            except sqlite3.IntegrityError:
                connection.rollback()
                raise self._stale(f"move {first} of game {game_id} is already stored") from None
            except BaseException:
                connection.rollback()
                raise

    def close(self) -> None:
        if self.checkpoints is not None:
            self.checkpoints.stop()
        self._proxy.close()


class _Checkpointer:
    """Runs ``PRAGMA wal_checkpoint(PASSIVE)`` in a thread of its own when asked (``due``)."""

    def __init__(self, engine: Engine):
        self._engine = engine
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.done = 0  # checkpoints run (tests)

    def due(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="wal-checkpoint", daemon=True)
            self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._stopping:
                return
            try:
                proxy = self._engine.raw_connection()
                try:
                    cursor = proxy.cursor()
                    cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    cursor.close()
                finally:
                    proxy.close()
                self.done += 1
            except Exception:  # the next one may do: the WAL only grows meanwhile
                log.exception("a WAL checkpoint failed")

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
