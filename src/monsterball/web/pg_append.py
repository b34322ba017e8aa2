"""``Store.append`` on PostgreSQL through psycopg's own connections: the guarded ``UPDATE`` of
the game's move count, the ``INSERT`` of its moves and, for servers sharing the database
(web/cluster.py), the ``pg_notify`` telling the others and the take or release of the game's
bot lease, all in **one statement** (data-modifying CTEs), prepared once per connection and
run in autocommit: one round trip per move, committed (``synchronous_commit`` as the site
sets it) before the call returns. The SQLAlchemy Core path it replaces spent about 4 ms of
server CPU per move, most of it building and compiling four statements and a transaction's
round trips (docs/benchmarks.md, "Several servers on one PostgreSQL").

The statement changes nothing unless the game is at the move before the first: the ``UPDATE``
matches no row, so the moves, notification and lease (which select from its result) are
skipped, and the answer has no row (StaleMove). Two servers racing for one move serialize on
the game's row; the second re-checks ``plies`` after the first commits and matches nothing
(PostgreSQL's READ COMMITTED re-check of an updated row). Values are converted by the
dialect's own type processors, so rows read the same through SQLAlchemy as the Core path's
(tests/test_web_pg_append.py).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Boolean, DateTime, text
from sqlalchemy.engine import URL, Connection, Engine

if TYPE_CHECKING:
    import psycopg

KEEP = 8  # idle connections kept for appends (more are opened while more threads append)
# A game's bot lease (web/leases.py) is taken if nobody holds it or it has run out (one
# clock: the database's).
LEASE_CONFLICT = """
    ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, until = excluded.until
    WHERE bot_leases.owner = excluded.owner OR bot_leases.until < now()
"""
TAKE_SQL = f"""
    INSERT INTO bot_leases (game_id, owner, until)
    VALUES (:game, :owner, now() + make_interval(secs => :seconds))
    {LEASE_CONFLICT}
    RETURNING game_id
"""
RELEASE_SQL = "DELETE FROM bot_leases WHERE game_id = :game"


def libpq_url(url: URL) -> str:
    """The SQLAlchemy URL as psycopg takes it (no ``+psycopg`` driver part)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


@dataclass(frozen=True, slots=True)
class Announce:
    """What a server sharing the database does in the transaction that stores a game's moves:
    notify ``channel`` with ``payload`` (web/bus.py), and take the game's lease for ``owner``
    for ``seconds`` (``take``: dice or a bot move next) or free it. Called on a SQLAlchemy
    connection it runs as a statement of its own (the Core path); ``PostgresAppender`` folds it
    into the append's one statement. Either way: True if ``owner`` holds the lease."""

    game: str
    channel: str
    payload: str
    owner: str
    seconds: float
    take: bool

    def __call__(self, connection: Connection) -> bool:
        values = {
            "channel": self.channel,
            "payload": self.payload,
            "game": self.game,
            "owner": self.owner,
            "seconds": self.seconds,
        }
        statement = _NOTIFY_AND_TAKE if self.take else _NOTIFY_AND_RELEASE
        return bool(connection.execute(statement, values).one()[1])


_NOTIFY_AND_TAKE = text(
    f"WITH t AS ({TAKE_SQL}) SELECT pg_notify(:channel, :payload), (SELECT count(*) FROM t)"
)
_NOTIFY_AND_RELEASE = text(f"WITH d AS ({RELEASE_SQL}) SELECT pg_notify(:channel, :payload), 0")


def _statement(*, clock: bool, announce: bool | None, batch: bool) -> str:
    """The append statement: with the clock column or not; ``announce``: None (one server),
    True (notify and take the lease), False (notify and free it); ``batch``: several moves
    (as arrays; one move's values go as they are, cheaper to send)."""
    clock_set = ", clock = %(clock)s::json" if clock else ""
    rows = (
        "FROM g, unnest(%(ply)s::int[], %(by)s::text[], %(action)s::text[]) AS u(ply, who, action)"
        if batch
        else "FROM (SELECT %(ply)s::int AS ply, %(by)s::text AS who, %(action)s::text AS action) u, g"
    )
    parts = [
        "WITH g AS (UPDATE games SET plies = %(plies)s, status = %(status)s, "
        "result = %(result)s, automatic = %(automatic)s, updated_at = %(now)s"
        f"{clock_set} WHERE id = %(game)s AND plies = %(before)s RETURNING id), "
        'm AS (INSERT INTO moves (game_id, ply, "by", action) '
        f"SELECT g.id, u.ply, u.who, u.action {rows})"
    ]
    if announce is None:
        parts.append(" SELECT false FROM g")
    elif announce:
        parts.append(
            ", l AS (INSERT INTO bot_leases (game_id, owner, until) "
            "SELECT g.id, %(owner)s, now() + make_interval(secs => %(seconds)s) FROM g "
            f"{LEASE_CONFLICT} RETURNING game_id) "
            "SELECT pg_notify(%(channel)s, %(payload)s), EXISTS (SELECT 1 FROM l) FROM g"
        )
    else:
        parts.append(
            ", l AS (DELETE FROM bot_leases WHERE game_id IN (SELECT id FROM g)) "
            "SELECT pg_notify(%(channel)s, %(payload)s), false FROM g"
        )
    return "".join(parts)


_STATEMENTS = {
    (clock, announce, batch): _statement(clock=clock, announce=announce, batch=batch)
    for clock in (False, True)
    for announce in (None, True, False)
    for batch in (False, True)
}


class PostgresAppender:
    """A few psycopg connections kept for appends, one per appending thread at a time."""

    def __init__(self, engine: Engine, stale: type[Exception]):
        import psycopg  # the `postgres` extra: only servers on PostgreSQL need it

        self._psycopg = psycopg
        self._dsn = libpq_url(engine.url)
        self._stale = stale  # the store's StaleMove
        self._idle: list[psycopg.Connection[Any]] = []
        self._lock = threading.Lock()
        self._closed = False
        dialect = engine.dialect
        self._stamp = DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
        self._flag = Boolean().dialect_impl(dialect).bind_processor(dialect)
        self._json = JSON().dialect_impl(dialect).bind_processor(dialect)

    def _connection(self) -> psycopg.Connection[Any]:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        # Autocommit: the one statement is its own transaction, committed when it returns.
        # Prepared on first use: a move's statement is parsed and planned once per connection.
        connection = self._psycopg.Connection.connect(self._dsn, autocommit=True)
        connection.prepare_threshold = 0
        return connection

    def _done_with(self, connection: psycopg.Connection[Any]) -> None:
        with self._lock:
            if not self._closed and not connection.broken and len(self._idle) < KEEP:
                self._idle.append(connection)
                return
        connection.close()

    def append(
        self,
        game_id: str,
        moves: Sequence[Any],
        *,
        status: str,
        result: str,
        automatic: bool | None,
        clock: dict[str, Any] | None = None,
        announce: Announce | None = None,
    ) -> bool | None:
        """Moves of consecutive plies (checked by the caller), all or none, with the
        announcement; the store's StaleMove if the game is not at the ply before the first
        (or that move is stored). The announcement's answer (holds the lease), else None."""
        first, last = moves[0].ply, moves[-1].ply
        now = dt.datetime.now(dt.UTC)
        values: dict[str, Any] = {
            "plies": last,
            "status": status,
            "result": result,
            "automatic": self._flag(automatic) if self._flag else automatic,
            "now": self._stamp(now) if self._stamp else now,
            "game": game_id,
            "before": first - 1,
        }
        batch = len(moves) > 1
        if batch:
            values.update(
                ply=[m.ply for m in moves],
                by=[m.by for m in moves],
                action=[m.action for m in moves],
            )
        else:
            values.update(ply=first, by=moves[0].by, action=moves[0].action)
        if clock is not None:
            values["clock"] = self._json(clock) if self._json else clock
        if announce is not None:
            values.update(
                channel=announce.channel,
                payload=announce.payload,
                owner=announce.owner,
                seconds=announce.seconds,
            )
        take = None if announce is None else announce.take
        statement = _STATEMENTS[(clock is not None, take, batch)]
        connection = self._connection()
        try:
            row = connection.execute(statement, values).fetchone()  # type: ignore[call-overload]
        except self._psycopg.errors.UniqueViolation:
            raise self._stale(f"move {first} of game {game_id} is already stored") from None
        finally:
            self._done_with(connection)
        if row is None:
            raise self._stale(f"game {game_id} is not at move {first - 1}")
        return bool(row[1]) if announce is not None else None

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()
