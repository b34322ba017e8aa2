"""``Store.append`` on PostgreSQL through psycopg's own connection: the guarded ``UPDATE`` of
the game's move count, the ``INSERT`` of its moves and, for servers sharing the database
(web/cluster/site.py), the ``pg_notify`` telling the others and the take or release of the game's
bot lease, all in **one statement** (data-modifying CTEs), prepared once per connection and
run in autocommit: one round trip, committed (``synchronous_commit`` as the site sets it)
before the call returns. The appends that arrive while one statement is at the database are
stored together by the next (group commit, ``PostgresAppender``). The SQLAlchemy Core path
this replaces spent about 4 ms of server CPU per move, most of it building and compiling
four statements, and its commits capped a site's moves/s (CHANGELOG.md 0.1.0, "Several
servers on one PostgreSQL").

The statement changes nothing unless the game is at the move before the first: the ``UPDATE``
matches no row, so the moves, notification and lease (which select from its result) are
skipped, and the answer has no row (StaleMove). Two servers racing for one move serialize on
the game's row; the second re-checks ``plies`` after the first commits and matches nothing
(PostgreSQL's READ COMMITTED re-check of an updated row). Values are converted by the
dialect's own type processors, so rows read the same through SQLAlchemy as the Core path's
(tests/web/store/test_pg_append.py).
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Boolean, DateTime, text
from sqlalchemy.engine import URL, Connection, Engine

if TYPE_CHECKING:
    import psycopg

KEEP = 2  # idle connections kept for appends (one statement at a time uses one)
# A game's bot lease (web/cluster/leases.py) is taken if nobody holds it or it has run out (one
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
    notify ``channel`` with ``payload`` (web/cluster/bus.py), and take the game's lease for
    ``owner`` for ``seconds`` (``take``: dice or a bot move next) or free it. Called on a SQLAlchemy
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
        else "FROM (SELECT %(ply)s::int AS ply, %(by)s::text AS who, %(action)s::text AS action) u,"
        " g"
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


# Several games' appends in one statement (group commit): each game's update is guarded on
# its own, so a stale one changes nothing of its own and leaves the others to commit.
_MANY = f"""
WITH u AS (
  SELECT * FROM unnest(%(game)s::text[], %(before)s::int[], %(plies)s::int[],
    %(status)s::text[], %(result)s::text[], %(automatic)s::bool[], %(clock)s::text[],
    %(take)s::bool[], %(owner)s::text[], %(seconds)s::float8[], %(payload)s::text[])
    AS u(game, before, plies, status, result, automatic, clock, take, owner, seconds, payload)
), g AS (
  UPDATE games SET plies = u.plies, status = u.status, result = u.result,
    automatic = u.automatic, updated_at = %(now)s,
    clock = CASE WHEN u.clock IS NULL THEN games.clock ELSE u.clock::json END
  FROM u WHERE games.id = u.game AND games.plies = u.before
  RETURNING games.id, u.take, u.owner, u.seconds, u.payload
), m AS (
  INSERT INTO moves (game_id, ply, "by", action)
  SELECT v.game, v.ply, v.who, v.action
  FROM unnest(%(move_game)s::text[], %(move_ply)s::int[], %(move_by)s::text[],
    %(move_action)s::text[]) AS v(game, ply, who, action)
  WHERE v.game IN (SELECT id FROM g)
), l AS (
  INSERT INTO bot_leases (game_id, owner, until)
  SELECT g.id, g.owner, now() + make_interval(secs => g.seconds) FROM g WHERE g.take
  {LEASE_CONFLICT}
  RETURNING game_id
), d AS (
  DELETE FROM bot_leases WHERE game_id IN (SELECT id FROM g WHERE NOT g.take)
)
SELECT g.id, g.id IN (SELECT game_id FROM l),
  CASE WHEN g.payload IS NULL THEN NULL ELSE pg_notify(%(channel)s, g.payload) END
FROM g
"""
_MANY_COLUMNS = (
    *("game", "before", "plies", "status", "result", "automatic", "clock", "take", "owner"),
    *("seconds", "payload", "move_game", "move_ply", "move_by", "move_action"),
)
BATCH_MAX = 64  # games' appends in one statement


@dataclass(slots=True)
class _Append:
    """One caller's append, waiting for its batch."""

    game_id: str
    moves: Sequence[Any]
    status: str
    result: str
    automatic: bool | None
    clock: dict[str, Any] | None
    announce: Announce | None
    done: bool = False
    held: bool | None = None
    error: BaseException | None = None
    ready: threading.Event = field(default_factory=threading.Event)  # done, or to lead


class PostgresAppender:
    """Appends from any thread, committed in groups: while one statement is at the database
    (its commit waits for the WAL to reach the disk), the appends that arrive queue, and the
    next one stores them all in one statement and one commit. Each caller returns once its own
    moves are committed (or refused). Without this, each move's commit held PostgreSQL's lock
    on the notification queue through its disk flush (commits that notify are serialized),
    which capped a site at a few hundred moves/s whatever its servers' CPU
    (CHANGELOG.md 0.1.0)."""

    def __init__(self, engine: Engine, stale: type[Exception]):
        import psycopg  # the `postgres` extra: only servers on PostgreSQL need it

        self._psycopg = psycopg
        self._dsn = libpq_url(engine.url)
        self._stale = stale  # the store's StaleMove
        self._idle: list[psycopg.Connection[Any]] = []
        self._lock = threading.Lock()
        self._closed = False
        self._queue = threading.Lock()
        self._pending: list[_Append] = []
        self._leading = False  # a thread is storing a batch (or has been handed the next)
        self.batches = 0  # statements that stored several games' appends
        self.batched = 0  # appends stored in them
        self.fallbacks = 0  # batches refused whole (a doubled move), stored one by one
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
        mine = _Append(game_id, moves, status, result, automatic, clock, announce)
        with self._queue:
            self._pending.append(mine)
            leading = not self._leading  # else wait: told when stored, or handed the lead
            self._leading = True
        while True:
            if not leading:
                mine.ready.wait()
                mine.ready.clear()
                if mine.done:
                    break
            with self._queue:
                batch = self._next_batch()  # maybe without this thread's own (a game's next)
            following: _Append | None = None
            try:
                self._store(batch)
            finally:
                with self._queue:
                    for each in batch:
                        each.done = True
                    following = self._pending[0] if self._pending else None
                    self._leading = following is not None  # handed to the first waiting
                for each in batch:
                    each.ready.set()
                if following is not None and following is not mine:
                    following.ready.set()
            if mine.done:
                break
            leading = following is mine
        if mine.error is not None:
            raise mine.error
        return mine.held

    def _next_batch(self) -> list[_Append]:
        """Up to BATCH_MAX waiting appends, one per game (a game's next waits its turn)."""
        batch: dict[str, _Append] = {}
        left = []
        for each in self._pending:
            if each.game_id in batch or len(batch) >= BATCH_MAX:
                left.append(each)
            else:
                batch[each.game_id] = each
        self._pending = left
        return [batch[g] for g in sorted(batch)]  # one order of row locks for every server

    def _store(self, batch: list[_Append]) -> None:
        """Stores the batch, setting each append's outcome (never raises)."""
        try:
            connection = self._connection()
        except BaseException as exc:
            for each in batch:
                each.error = exc
            return
        try:
            if len(batch) > 1:
                try:
                    self._many(connection, batch)
                    return
                except self._psycopg.Error:
                    # A doubled move (or a deadlock with another server's batch over the same
                    # games) refuses the whole statement: store them one by one instead.
                    self.fallbacks += 1
                    if connection.broken:
                        raise
            for each in batch:
                try:
                    each.held = self._one(connection, each)
                except BaseException as exc:
                    each.error = exc
        except BaseException as exc:
            for each in batch:
                if each.error is None and each.held is None:
                    each.error = exc
        finally:
            self._done_with(connection)

    def _values(self, each: _Append) -> dict[str, Any]:
        return {
            "plies": each.moves[-1].ply,
            "status": each.status,
            "result": each.result,
            "automatic": self._flag(each.automatic) if self._flag else each.automatic,
            "game": each.game_id,
            "before": each.moves[0].ply - 1,
        }

    def _now(self) -> Any:
        now = dt.datetime.now(dt.UTC)
        return self._stamp(now) if self._stamp else now

    def _one(self, connection: psycopg.Connection[Any], each: _Append) -> bool | None:
        moves, announce = each.moves, each.announce
        first = moves[0].ply
        values = self._values(each)
        values["now"] = self._now()
        batch = len(moves) > 1
        if batch:
            values.update(
                ply=[m.ply for m in moves],
                by=[m.by for m in moves],
                action=[m.action for m in moves],
            )
        else:
            values.update(ply=first, by=moves[0].by, action=moves[0].action)
        if each.clock is not None:
            values["clock"] = self._json(each.clock) if self._json else each.clock
        if announce is not None:
            values.update(
                channel=announce.channel,
                payload=announce.payload,
                owner=announce.owner,
                seconds=announce.seconds,
            )
        take = None if announce is None else announce.take
        statement = _STATEMENTS[(each.clock is not None, take, batch)]
        try:
            row = connection.execute(statement, values).fetchone()
        except self._psycopg.errors.UniqueViolation:
            raise self._stale(f"move {first} of game {each.game_id} is already stored") from None
        if row is None:
            raise self._stale(f"game {each.game_id} is not at move {first - 1}")
        return bool(row[1]) if announce is not None else None

    def _many(self, connection: psycopg.Connection[Any], batch: list[_Append]) -> None:
        columns: dict[str, list[Any]] = {key: [] for key in _MANY_COLUMNS}
        channels = {each.announce.channel for each in batch if each.announce is not None}
        for each in batch:
            for key, value in self._values(each).items():
                columns[key].append(value)
            columns["clock"].append(None if each.clock is None else json.dumps(each.clock))
            announce = each.announce
            columns["take"].append(None if announce is None else announce.take)
            columns["owner"].append(None if announce is None else announce.owner)
            columns["seconds"].append(None if announce is None else announce.seconds)
            columns["payload"].append(None if announce is None else announce.payload)
            for move in each.moves:
                columns["move_game"].append(each.game_id)
                columns["move_ply"].append(move.ply)
                columns["move_by"].append(move.by)
                columns["move_action"].append(move.action)
        if len(channels) > 1:
            raise ValueError("one batch notifies on one channel")
        values: dict[str, Any] = {
            **columns,
            "now": self._now(),
            "channel": channels.pop() if channels else None,
        }
        rows = connection.execute(_MANY, values).fetchall()
        stored = {game_id: held for game_id, held, _ in rows}
        self.batches += 1
        self.batched += len(batch)
        for each in batch:
            if each.game_id not in stored:
                first = each.moves[0].ply
                each.error = self._stale(f"game {each.game_id} is not at move {first - 1}")
            elif each.announce is not None:
                each.held = bool(stored[each.game_id])

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()
