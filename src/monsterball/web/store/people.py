"""The tables of the site's people (docs/web.md, "Accounts"): accounts and their sessions,
who sits in which seat, open challenges, chat, mutes and blocks, and reports for moderators.

They live in the game store's database (same ``Base``, same alembic migrations, revision
0004_accounts). :class:`People` holds the short synchronous transactions over them; the
routes (web/api/accounts.py, challenges.py, chat.py, players.py) call it in a worker thread.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from monsterball.web.store.games import Base, GameRow, Store

SESSION_DAYS = 30
MAX_MESSAGE = 500  # characters in a chat message


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def aware(moment: dt.datetime) -> dt.datetime:
    """SQLite gives back naive datetimes (stored as UTC): make them comparable."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def digest(secret: str) -> str:
    # Session and CSRF tokens carry 256 random bits: a plain hash keeps a copy of the
    # database from logging anybody in, and there is nothing to guess.
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class AccountRow(Base):
    __tablename__ = "accounts"
    __table_args__ = (Index("ix_accounts_name_key", "name_key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str] = mapped_column(String(24))  # lower case: names are unique so
    password_hash: Mapped[str] = mapped_column(String(200))
    locked: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


class SessionRow(Base):
    __tablename__ = "sessions"
    __table_args__ = (Index("ix_sessions_account_id", "account_id"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    csrf_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class GameSeatRow(Base):
    """Which account sits in which chair of a game (for "your games", player pages and
    ratings); anonymous chairs have no row."""

    __tablename__ = "game_seats"
    __table_args__ = (Index("ix_game_seats_account_id", "account_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(16), primary_key=True)  # the chair's name
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))


class ChallengeRow(Base):
    __tablename__ = "challenges"
    __table_args__ = (Index("ix_challenges_status", "status"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    game: Mapped[str] = mapped_column(String(40))
    preset: Mapped[str | None] = mapped_column(String(40), nullable=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The time control, as the clocks define it (web/api/challenges.py checks its shape), or None.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    seat: Mapped[str | None] = mapped_column(String(16), nullable=True)  # challenger's choice
    quick: Mapped[bool] = mapped_column(Boolean, default=False)  # a quick-pairing entry
    status: Mapped[str] = mapped_column(String(12), default="open")
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class MessageRow(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_game_channel", "game_id", "channel", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)  # None: the lobby
    channel: Mapped[str] = mapped_column(String(12))  # players, spectators or lobby
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    author: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(MAX_MESSAGE))
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


class RelationRow(Base):
    """``account`` mutes or blocks ``other``."""

    __tablename__ = "relations"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    other_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)  # mute or block


class ReportRow(Base):
    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id"))
    reporter_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    locked: bool


@dataclass(frozen=True, slots=True)
class Session:
    account: Account
    csrf_hash: str


class _Undo(Exception):
    """Rolls a write transaction back (raised inside ``Store.writing``)."""


class NameTaken(Exception):
    pass


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.locked)


class People:
    """Synchronous, short transactions over the people tables of one store."""

    def __init__(self, store: Store):
        self.store = store

    # -- accounts ------------------------------------------------------------------------

    def create_account(self, name: str, password_hash: str) -> Account:
        try:
            with self.store.writing() as session:
                row = AccountRow(name=name, name_key=name.lower(), password_hash=password_hash)
                session.add(row)
                session.flush()
                return _account(row)
        except IntegrityError:
            raise NameTaken(name) from None

    def find(self, name: str) -> tuple[Account, str] | None:
        """The account of a name (any case) and its password hash."""
        with self.store.reading() as session:
            row = session.scalars(
                select(AccountRow).where(AccountRow.name_key == name.lower())
            ).first()
            return (_account(row), row.password_hash) if row else None

    def account(self, account_id: int) -> Account | None:
        with self.store.reading() as session:
            row = session.get(AccountRow, account_id)
            return _account(row) if row else None

    def names(self, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.store.reading() as session:
            rows = session.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(ids))
            )
            return {i: n for i, n in rows}

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        with self.store.writing() as session:
            session.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id)
                .values(password_hash=password_hash)
            )

    def set_locked(self, name: str, locked: bool) -> Account | None:
        """Lock (or unlock) an account; locking also ends its sessions and withdraws its
        open challenges."""
        with self.store.writing() as session:
            row = session.scalars(
                select(AccountRow).where(AccountRow.name_key == name.lower())
            ).first()
            if row is None:
                return None
            row.locked = locked
            if locked:
                session.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
                session.execute(
                    update(ChallengeRow)
                    .where(ChallengeRow.account_id == row.id, ChallengeRow.status == "open")
                    .values(status="withdrawn")
                )
            return _account(row)

    # -- sessions ------------------------------------------------------------------------

    def start_session(self, account_id: int) -> tuple[str, str]:
        """A new session: its cookie token and its CSRF token (only their hashes are kept)."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self.store.writing() as session:
            session.add(
                SessionRow(
                    token_hash=digest(token),
                    account_id=account_id,
                    csrf_hash=digest(csrf),
                    expires_at=now() + dt.timedelta(days=SESSION_DAYS),
                )
            )
        return token, csrf

    def session(self, token: str) -> Session | None:
        """The live session of a cookie token (None: unknown, expired or its account locked)."""
        with self.store.reading() as session:
            found = session.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.token_hash == digest(token))
            ).first()
            if found is None:
                return None
            row, account = found
            if account.locked or aware(row.expires_at) <= now():
                return None
            return Session(_account(account), row.csrf_hash)

    def end_session(self, token: str) -> None:
        with self.store.writing() as session:
            session.execute(delete(SessionRow).where(SessionRow.token_hash == digest(token)))

    def change_password(self, account_id: int, password_hash: str) -> None:
        """A new password ends every session of the account (the asker gets a new one)."""
        with self.store.writing() as session:
            session.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id)
                .values(password_hash=password_hash)
            )
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    def live_sessions(self, hashes: set[str]) -> set[str]:
        """Those of ``hashes`` (session token digests) whose sessions still hold: not ended,
        not expired, their account not locked (one query, for the sockets' sweep)."""
        if not hashes:
            return set()
        with self.store.reading() as session:
            rows = session.execute(
                select(SessionRow.token_hash, SessionRow.expires_at)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.token_hash.in_(sorted(hashes)), AccountRow.locked.is_(False))
            )
            moment = now()
            return {h for h, expires in rows if aware(expires) > moment}

    # -- seats ---------------------------------------------------------------------------

    def bind_seats(self, game_id: str, chairs: list[dict[str, Any]], seats: dict[str, int]) -> None:
        """Record who sits where (``seats``: chair name -> account) and store the chairs
        with their accounts, in one transaction."""
        with self.store.writing() as session:
            session.execute(update(GameRow).where(GameRow.id == game_id).values(chairs=chairs))
            for seat, account_id in seats.items():
                session.add(GameSeatRow(game_id=game_id, seat=seat, account_id=account_id))

    def seats_of_game(self, game_id: str) -> dict[str, tuple[int, str]]:
        """Chair name -> (account id, account name) for a game's bound chairs."""
        with self.store.reading() as session:
            rows = session.execute(
                select(GameSeatRow.seat, AccountRow.id, AccountRow.name)
                .join(AccountRow, AccountRow.id == GameSeatRow.account_id)
                .where(GameSeatRow.game_id == game_id)
            )
            return {seat: (i, n) for seat, i, n in rows}

    def games_of(
        self, account_id: int, *, status: str | None = None, limit: int = 30
    ) -> list[tuple[GameRow, str]]:
        """An account's games, newest first, with the chair it sits in."""
        with self.store.reading() as session:
            query = (
                select(GameRow, GameSeatRow.seat)
                .join(GameSeatRow, GameSeatRow.game_id == GameRow.id)
                .where(GameSeatRow.account_id == account_id)
                .order_by(GameRow.updated_at.desc())
                .limit(limit)
            )
            if status is not None:
                query = query.where(GameRow.status == status)
            return [(g, s) for g, s in session.execute(query)]

    # -- challenges ----------------------------------------------------------------------

    def add_challenge(self, row: ChallengeRow) -> None:
        with self.store.writing() as session:
            session.add(row)

    def expire_challenges(self) -> int:
        with self.store.writing() as session:
            done = session.execute(
                update(ChallengeRow)
                .where(ChallengeRow.status == "open", ChallengeRow.expires_at <= now())
                .values(status="expired")
            )
            return int(getattr(done, "rowcount", 0) or 0)

    def open_challenges(self, *, quick: bool | None = False) -> list[ChallengeRow]:
        with self.store.reading() as session:
            query = (
                select(ChallengeRow)
                .where(ChallengeRow.status == "open", ChallengeRow.expires_at > now())
                .order_by(ChallengeRow.created_at)
            )
            if quick is not None:
                query = query.where(ChallengeRow.quick.is_(quick))
            return list(session.scalars(query))

    def challenge(self, challenge_id: str) -> ChallengeRow | None:
        with self.store.reading() as session:
            return session.get(ChallengeRow, challenge_id)

    def challenge_of_game(self, game_id: str) -> ChallengeRow | None:
        """The accepted challenge (or quick pairing) that started a game: its ``rated`` and
        ``clock`` (None: the game was not started from a challenge)."""
        with self.store.reading() as session:
            return session.scalars(
                select(ChallengeRow).where(ChallengeRow.game_id == game_id)
            ).first()

    def close_challenge(self, challenge_id: str, status: str, game_id: str | None = None) -> bool:
        """Move an open challenge to ``status``; False if it was no longer open (someone
        else took it first: only one acceptance can win)."""
        with self.store.writing() as session:
            done = session.execute(
                update(ChallengeRow)
                .where(ChallengeRow.id == challenge_id, ChallengeRow.status == "open")
                .values(status=status, game_id=game_id)
            )
            return int(getattr(done, "rowcount", 0) or 0) == 1

    def close_pair(self, first: str, second: str, status: str) -> bool:
        """Close two open challenges together (two waiting quick pairings matched), or
        neither: False if either was no longer open."""
        try:
            with self.store.writing() as session:
                done = session.execute(
                    update(ChallengeRow)
                    .where(ChallengeRow.id.in_((first, second)), ChallengeRow.status == "open")
                    .values(status=status)
                )
                if int(getattr(done, "rowcount", 0) or 0) != 2:
                    raise _Undo  # one was taken meanwhile: leave the other open
        except _Undo:
            return False
        return True

    def newest_quick(self, account_id: int) -> ChallengeRow | None:
        """The account's latest quick pairing (open, matched, withdrawn or lapsed)."""
        with self.store.reading() as session:
            return session.scalars(
                select(ChallengeRow)
                .where(ChallengeRow.account_id == account_id, ChallengeRow.quick.is_(True))
                .order_by(ChallengeRow.created_at.desc())
                .limit(1)
            ).first()

    def keep_waiting(self, challenge_id: str, until: dt.datetime) -> bool:
        """Push an open quick pairing's lapse on to ``until``; False if it is not open."""
        with self.store.writing() as session:
            done = session.execute(
                update(ChallengeRow)
                .where(
                    ChallengeRow.id == challenge_id,
                    ChallengeRow.status == "open",
                    ChallengeRow.expires_at > now(),
                )
                .values(expires_at=until)
            )
            return int(getattr(done, "rowcount", 0) or 0) == 1

    def set_challenge_game(self, challenge_id: str, game_id: str) -> None:
        with self.store.writing() as session:
            session.execute(
                update(ChallengeRow).where(ChallengeRow.id == challenge_id).values(game_id=game_id)
            )

    # -- relations -----------------------------------------------------------------------

    def relate(self, account_id: int, other_id: int, kind: str, on: bool) -> None:
        with self.store.writing() as session:
            key = (account_id, other_id, kind)
            row = session.get(RelationRow, key)
            if on and row is None:
                session.add(RelationRow(account_id=account_id, other_id=other_id, kind=kind))
            elif not on and row is not None:
                session.delete(row)

    def related(self, account_id: int, kind: str) -> set[int]:
        """The accounts ``account_id`` mutes (or blocks)."""
        with self.store.reading() as session:
            return set(
                session.scalars(
                    select(RelationRow.other_id).where(
                        RelationRow.account_id == account_id, RelationRow.kind == kind
                    )
                )
            )

    def blockers_of(self, account_id: int) -> set[int]:
        """The accounts that block ``account_id``."""
        with self.store.reading() as session:
            return set(
                session.scalars(
                    select(RelationRow.account_id).where(
                        RelationRow.other_id == account_id, RelationRow.kind == "block"
                    )
                )
            )

    def blocked_by_any(self, blockers: set[int], other_id: int) -> bool:
        """One of ``blockers`` blocks ``other_id``."""
        if not blockers:
            return False
        with self.store.reading() as session:
            found = session.scalars(
                select(RelationRow.account_id).where(
                    RelationRow.account_id.in_(blockers),
                    RelationRow.other_id == other_id,
                    RelationRow.kind == "block",
                )
            ).first()
            return found is not None

    # -- chat ----------------------------------------------------------------------------

    def post(
        self, game_id: str | None, channel: str, account_id: int | None, author: str, text: str
    ) -> MessageRow:
        with self.store.writing() as session:
            row = MessageRow(
                game_id=game_id, channel=channel, account_id=account_id, author=author, text=text
            )
            session.add(row)
            session.flush()
            return row

    def messages(
        self, game_id: str | None, channels: tuple[str, ...], *, limit: int = 100
    ) -> list[MessageRow]:
        """The newest ``limit`` messages, oldest first (deleted ones left out)."""
        with self.store.reading() as session:
            where = (
                MessageRow.game_id.is_(None) if game_id is None else MessageRow.game_id == game_id
            )
            rows = session.scalars(
                select(MessageRow)
                .where(where, MessageRow.channel.in_(channels), MessageRow.deleted.is_(False))
                .order_by(MessageRow.id.desc())
                .limit(limit)
            )
            return list(reversed(list(rows)))

    def message(self, message_id: int) -> MessageRow | None:
        with self.store.reading() as session:
            return session.get(MessageRow, message_id)

    def delete_message(self, message_id: int) -> bool:
        with self.store.writing() as session:
            done = session.execute(
                update(MessageRow).where(MessageRow.id == message_id).values(deleted=True)
            )
            return int(getattr(done, "rowcount", 0) or 0) == 1

    def deleted_recently(self, window: int) -> list[tuple[int, str | None, str]]:
        """(id, game, channel) of deleted messages among the newest ``window`` (bounded work,
        for telling open pages: web/api/chat.py)."""
        with self.store.reading() as session:
            newest = session.scalar(select(func.max(MessageRow.id))) or 0
            rows = session.execute(
                select(MessageRow.id, MessageRow.game_id, MessageRow.channel).where(
                    MessageRow.id > newest - window, MessageRow.deleted.is_(True)
                )
            )
            return [(i, g, c) for i, g, c in rows]

    def report(self, message_id: int, reporter_id: int | None) -> int:
        with self.store.writing() as session:
            row = ReportRow(message_id=message_id, reporter_id=reporter_id)
            session.add(row)
            session.flush()
            return row.id

    def reports(self) -> list[tuple[ReportRow, MessageRow, int]]:
        """Every report with its message and how many reports that message has."""
        with self.store.reading() as session:
            counts = dict(
                session.execute(
                    select(ReportRow.message_id, func.count()).group_by(ReportRow.message_id)
                ).all()
            )
            rows = session.execute(
                select(ReportRow, MessageRow)
                .join(MessageRow, MessageRow.id == ReportRow.message_id)
                .order_by(ReportRow.id)
            )
            return [(r, m, int(counts.get(m.id, 1))) for r, m in rows]
