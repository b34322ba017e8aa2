"""Where games live: SQLAlchemy tables for games and their moves (SQLite by default,
PostgreSQL by URL).

A move is committed before the server applies it to the live state, and the insert is
guarded by the game's move count, so a crash or a restart loses nothing that a client was told
happened, and two submissions for the same move number cannot both land.

The schema is made and upgraded by alembic (``monsterball.web.store.migrations``) when a ``Store``
opens a database: a change to the models below needs a new revision (``monsterball db
revision -m ...``, see docs/web.md).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from monsterball.settings import SETTINGS
from monsterball.web.store.migrations import SchemaError, migrate
from monsterball.web.store.pg_append import Announce, PostgresAppender
from monsterball.web.store.sqlite_append import SQLiteAppender

__all__ = [
    "Base",
    "CorruptStore",
    "GameRow",
    "LeaseRow",
    "MoveRow",
    "RatedGameRow",
    "RatingHistoryRow",
    "RatingRow",
    "SchemaError",
    "StaleMove",
    "Store",
    "StoredMove",
]


T = TypeVar("T")


class StaleMove(Exception):
    """The stored game has moved on since the move was based on it."""


class Base(DeclarativeBase):
    pass


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    preset: Mapped[str | None] = mapped_column(String(40))
    rules_version: Mapped[str] = mapped_column(String(60))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Games from before fair dice have only ``seed`` (< 2**63). Newer ones keep the dice seed
    # as decimal text in ``seed_text`` (a server-chosen seed has 128 bits, more than BigInteger
    # holds) and ``seed`` is then -1; ``seeded``: the creator chose the seed.
    seed: Mapped[int] = mapped_column(BigInteger)
    seed_text: Mapped[str | None] = mapped_column(String(80), nullable=True, default=None)
    seeded: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    start: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    mode: Mapped[str] = mapped_column(String(16))
    # One entry per chair (a coach's place): name, seat index, kind, bot level, token.
    chairs: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    result: Mapped[str] = mapped_column(Text, default="")
    plies: Mapped[int] = mapped_column(Integer, default=0)
    parent_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    parent_ply: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The next move is the dice's or a bot's: a restarted server resumes these games (None:
    # stored before this column existed, so not known).
    automatic: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    # The game's clock (web/live/time_control.py: time control and each side's time, stored with
    # every move); None: no clock. ``ending``: how a game ended off the board ({"termination":
    # "time", "loser": seat}; an agreed draw names no loser: {"termination": "agreed"}).
    # ``players``: seat name -> rating key ("account:7", "bot:hard"),
    # set by server code only; ``rated``: the result updates the players' ratings.
    clock: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True, default=None
    )
    ending: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True, default=None
    )
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    players: Mapped[dict[str, str] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True, default=None
    )
    # The dice scheme (core/dice.py; None: the legacy random.Random stream of games stored
    # before it) and the nonces the chairs contributed ({} while they may come; None: none
    # are asked for). web/live/fair_dice.py.
    dice: Mapped[str | None] = mapped_column(String(32), nullable=True, default=None)
    # Whose game it is for the bot pool's fair share (web/live/bot_pool.py): "address:" and the
    # first 16 hex digits of SHA-256 of the creating address (None: each game its own).
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    dice_nonces: Mapped[dict[str, str] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True, default=None
    )
    # Until when (epoch ms, the servers' wall clock) the first die waits for nonces: set by
    # the server that first finds it due, read by whichever rolls it (None: not due yet).
    dice_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True, default=None)

    @property
    def game_seed(self) -> int:
        """The seed of the game's dice (and, hashed with the move number, of its bots)."""
        return int(self.seed_text) if self.seed_text is not None else self.seed

    @property
    def was_seeded(self) -> bool:
        """The creator chose the dice seed (games from before fair dice count as seeded:
        nothing says the server chose theirs in secret)."""
        return self.seeded is not False


class MoveRow(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    by: Mapped[str] = mapped_column(String(16))
    action: Mapped[str] = mapped_column(String(200))


class RatingRow(Base):
    """A player's current Glicko-2 rating in one game (monsterball.ratings)."""

    __tablename__ = "ratings"

    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RatingHistoryRow(Base):
    """A player's rating after each rated game (for player pages' plots)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(40))
    game_id: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RatedGameRow(Base):
    """A rated game whose result is in the ratings: its key makes settling happen once."""

    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[list[str]] = mapped_column(JSON)
    returns: Mapped[list[float]] = mapped_column(JSON)
    settled_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class LeaseRow(Base):
    """Which server makes a game's automatic moves (dice, bots) until when, by the database's
    clock (servers on one PostgreSQL: web/cluster/leases.py). A row whose ``until`` has passed is
    free to take: a killed server's games are taken over."""

    __tablename__ = "bot_leases"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    until: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class StoredMove:
    ply: int
    by: str
    action: str


class Store:
    """Synchronous, short transactions; one instance per server."""

    def __init__(self, url: str = SETTINGS.db_url):
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        # SQLite has one writer at a time: writers queue on this lock in the process instead
        # of failing with "database is locked" after the driver's busy timeout.
        # Reentrant: the event loop's thread may hold it around its own appends
        # (``writer_if_free``).
        self._write_lock: threading.RLock | contextlib.nullcontext[None] = contextlib.nullcontext()
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
            self._write_lock = threading.RLock()
        # The schema is alembic's (web/store/migrations): a new database is made, an older one
        # upgraded, one from a newer monsterball refused (SchemaError) before anything is read.
        try:
            check_integrity(self.engine)
            with self._write_lock:
                migrate(self.engine)
        except BaseException:
            self.engine.dispose()
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._fast: SQLiteAppender | None = None
        self._pg: PostgresAppender | None = None
        if not isinstance(self._write_lock, contextlib.nullcontext):  # SQLite
            self._fast = SQLiteAppender(self.engine, self._write_lock, StaleMove)
        elif self.engine.dialect.name == "postgresql" and self.engine.dialect.driver == "psycopg":
            self._pg = PostgresAppender(self.engine, StaleMove)

    def close(self) -> None:
        if self._fast is not None:
            self._fast.close()
        if self._pg is not None:
            self._pg.close()
        self.engine.dispose()

    @contextlib.contextmanager
    def writer_if_free(self) -> Iterator[bool]:
        """SQLite: hold the writer lock on this thread if no other thread holds it now (True:
        this thread's writes, ``append`` included, then go ahead at once), else False without
        waiting. False on PostgreSQL. For the event loop's thread, which must not wait."""
        lock = self._write_lock
        if isinstance(lock, contextlib.nullcontext) or not lock.acquire(blocking=False):
            yield False
            return
        try:
            yield True
        finally:
            lock.release()

    @contextlib.contextmanager
    def writing(self) -> Iterator[Session]:
        """A session in one write transaction (queued behind the SQLite writer lock), for
        the other tables' modules (web/store/people.py)."""
        with self._write_lock, self._sessions.begin() as session:
            yield session

    def reading(self) -> Session:
        return self._sessions()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One write transaction (queued behind the others on SQLite)."""
        with self._write_lock, self.engine.begin() as connection:
            yield connection

    def create(self, row: GameRow, moves: Sequence[StoredMove] = ()) -> None:
        with self._write_lock, self._sessions.begin() as session:
            session.add(row)
            session.flush()
            for move in moves:
                session.add(MoveRow(game_id=row.id, ply=move.ply, by=move.by, action=move.action))

    def append(
        self,
        game_id: str,
        moves: Sequence[StoredMove],
        *,
        status: str,
        result: str,
        automatic: bool | None = None,
        clock: dict[str, Any] | None = None,
        also: Callable[[Connection], T] | None = None,
    ) -> T | None:
        """Store ``moves`` (consecutive plies) as the game's next moves, all or none; StaleMove
        if the game is not at the ply before the first. ``automatic``: the move after them is
        the dice's or a bot's; ``clock``: the game's clock after them (None: unchanged).
        ``also``: run in the same transaction after them (servers on one PostgreSQL: tell the
        others, take the game's lease: an ``Announce``, folded into the move's one statement);
        its result is returned."""
        if not moves:
            return None
        first, last = moves[0].ply, moves[-1].ply
        if [m.ply for m in moves] != list(range(first, last + 1)):
            raise ValueError("moves to store must be consecutive")
        if self._fast is not None and also is None:
            # SQLite: the same statements, on the driver's connection.
            self._fast.append(
                game_id, moves, status=status, result=result, automatic=automatic, clock=clock
            )
            return None
        if self._pg is not None and (also is None or isinstance(also, Announce)):
            # PostgreSQL: one statement for the moves and the announcement (web/store/pg_append.py).
            held = self._pg.append(
                game_id,
                moves,
                status=status,
                result=result,
                automatic=automatic,
                clock=clock,
                announce=also,
            )
            return held  # type: ignore[return-value]  # T is bool for an Announce
        try:
            # Core statements on a connection, not an ORM session: a session's unit of work
            # cost most of a move's server CPU (scripts/profile_move.py).
            values: dict[str, Any] = {
                "plies": last,
                "status": status,
                "result": result,
                "automatic": automatic,
                "updated_at": _now(),
            }
            if clock is not None:
                values["clock"] = clock
            with self._write_lock, self.engine.begin() as connection:
                done = connection.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id, GameRow.plies == first - 1)
                    .values(**values)
                )
                if done.rowcount != 1:
                    raise StaleMove(f"game {game_id} is not at move {first - 1}")
                connection.execute(
                    insert(MoveRow),
                    [
                        {"game_id": game_id, "ply": m.ply, "by": m.by, "action": m.action}
                        for m in moves
                    ],
                )
                return also(connection) if also is not None else None
        except IntegrityError:
            raise StaleMove(f"move {first} of game {game_id} is already stored") from None

    def end(
        self,
        game_id: str,
        *,
        plies: int,
        result: str,
        ending: dict[str, Any],
        clock: dict[str, Any] | None,
    ) -> None:
        """End a game off the board (its clock ran out) at move ``plies``; StaleMove if a move
        was stored meanwhile or the game is over already."""
        with self._write_lock, self.engine.begin() as connection:
            done = connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.plies == plies, GameRow.status == "playing")
                .values(
                    status="finished",
                    result=result,
                    ending=ending,
                    clock=clock,
                    automatic=False,
                    updated_at=_now(),
                )
            )
            if done.rowcount != 1:
                raise StaleMove(f"game {game_id} is not at move {plies}, or is over")

    def clocked(self) -> list[str]:
        """Games being played with a clock: a restarted server watches their flags."""
        with self._sessions() as session:
            query = select(GameRow.id).where(
                GameRow.status == "playing", GameRow.clock.is_not(None)
            )
            return list(session.scalars(query))

    def get(self, game_id: str) -> GameRow | None:
        with self._sessions() as session:
            return session.get(GameRow, game_id)

    def moves(self, game_id: str, after: int = 0) -> list[StoredMove]:
        """The game's stored moves, from move ``after + 1`` on (a room catching up)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(MoveRow.ply, MoveRow.by, MoveRow.action)
                .where(MoveRow.game_id == game_id, MoveRow.ply > after)
                .order_by(MoveRow.ply)
            )
            return [StoredMove(ply, by, action) for ply, by, action in rows]

    def counts(self) -> dict[str, int]:
        """Appends stored in groups (PostgreSQL, web/store/pg_append.py): ``GET /api/server``."""
        if self._pg is None:
            return {}
        return {
            "append_groups": self._pg.batches,
            "appends_grouped": self._pg.batched,
            "append_group_fallbacks": self._pg.fallbacks,
        }

    @property
    def shared(self) -> bool:
        """Several servers may use this database at once (PostgreSQL; SQLite is one
        server's, web/cluster/site.py)."""
        return self.engine.dialect.name == "postgresql"

    def set_automatic(self, game_id: str, automatic: bool) -> None:
        with self._write_lock, self._sessions.begin() as session:
            session.execute(
                update(GameRow).where(GameRow.id == game_id).values(automatic=automatic)
            )

    def pending(self) -> list[str]:
        """Games being played whose next move may be the dice's or a bot's (unknown for games
        stored before that was kept): a restarted server makes those moves."""
        with self._sessions() as session:
            query = select(GameRow.id).where(
                GameRow.status == "playing",
                (GameRow.automatic.is_(True)) | (GameRow.automatic.is_(None)),
            )
            return list(session.scalars(query))

    def list(self, *, status: str | None = None, limit: int = 50) -> list[GameRow]:
        with self._sessions() as session:
            query = select(GameRow).order_by(GameRow.updated_at.desc()).limit(limit)
            if status is not None:
                query = query.where(GameRow.status == status)
            return list(session.scalars(query))


class CorruptStore(Exception):
    """The database file is damaged: refused at start, before anything is served."""


TOO_LATE = "too late: the dice have started (the first die waits a few seconds at most)"


def add_nonce(
    store: Store, game_id: str, asked: Sequence[str], chair: str, nonce: str
) -> tuple[str | None, dict[str, str]]:
    """Keep a chair's dice nonce unless the first die's nonces are closed (web/live/fair_dice.py):
    why not (None: kept), and the game's nonces now. The game's row is locked meanwhile, so
    a nonce sent to any server either makes it into the dice or is refused as too late."""
    with store.writing() as session:
        stored = session.scalars(
            select(GameRow.dice_nonces).where(GameRow.id == game_id).with_for_update()
        ).one()
        nonces = dict(stored or {})
        if nonces.get(chair):
            return f"{chair} has contributed its nonce already", nonces
        if closed(nonces, asked):  # the wait ended: the first die rolls without it
            return TOO_LATE, nonces
        nonces[chair] = nonce
        session.execute(update(GameRow).where(GameRow.id == game_id).values(dice_nonces=nonces))
        return None, nonces


def settle_nonces(
    store: Store, game_id: str, asked: Sequence[str], now_ms: int, wait_ms: int
) -> tuple[dict[str, str], int | None]:
    """The first die is due: the game's nonces and until when it waits for the missing ones
    (None: it rolls now, and they are closed: each missing chair stored as ``""``, so no
    server takes a nonce the dice would not hold). The wait starts the first time a server
    asks (``wait_ms``: that server's ``--nonce-seconds``) and is kept with the game, so a
    restarted server or another one keeps it, whatever its own setting."""
    with store.writing() as session:
        row = session.execute(
            select(GameRow.dice_nonces, GameRow.dice_until)
            .where(GameRow.id == game_id)
            .with_for_update()
        ).one()
        nonces, until = dict(row.dice_nonces or {}), row.dice_until
        if closed(nonces, asked):
            return nonces, None
        if until is None and wait_ms > 0:
            until = now_ms + wait_ms
            session.execute(update(GameRow).where(GameRow.id == game_id).values(dice_until=until))
        if until is not None and now_ms < until:
            return nonces, until
        nonces = {name: nonces.get(name, "") for name in asked}
        session.execute(update(GameRow).where(GameRow.id == game_id).values(dice_nonces=nonces))
        return nonces, None


def closed(nonces: dict[str, str], asked: Sequence[str]) -> bool:
    """No more nonces are taken: every chair asked has one, or ``""`` (it missed the wait)."""
    return all(name in nonces for name in asked)


def check_integrity(engine: Engine) -> None:
    """SQLite: ``PRAGMA quick_check`` (every page and b-tree, O(size), not the slower index
    cross-check of ``integrity_check``); CorruptStore naming the file and the first problem.
    PostgreSQL has no such cheap check to run at start (``amcheck`` needs an extension and
    superuser, ``pg_checksums`` a stopped cluster); it checks each page as it reads it when
    the cluster has data checksums (``initdb --data-checksums``), docs/web.md."""
    if engine.dialect.name != "sqlite":
        return
    where = engine.url.database or ":memory:"
    try:
        with engine.connect() as connection:
            found = [row[0] for row in connection.exec_driver_sql("PRAGMA quick_check")]
    except DBAPIError as exc:  # "file is not a database", "database disk image is malformed"
        problem = str(exc.orig).splitlines()[0] if exc.orig else type(exc).__name__
        raise CorruptStore(f"the database file {where} is damaged ({problem})") from None
    if found != ["ok"]:
        more = f" and {len(found) - 1} more problems" if len(found) > 1 else ""
        raise CorruptStore(
            f"the database file {where} is damaged (PRAGMA quick_check: {found[0]}{more}); "
            "nothing was served: restore it from a copy"
        )


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets readers (game lists) run beside the writer. With WAL, synchronous=NORMAL keeps
    # every committed move through a crash or kill of the server (the promise to players); only
    # a power cut or OS crash may lose the last moves, and FULL would cost an fsync per move.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")  # another process (a second server) may write
    cursor.close()
