"""Accounts and sessions (docs/web.md, "Accounts"): sign up, log in and out, who am I, and
"your games".

Accounts are optional: anonymous play by seat links works as before. A session is a random
256-bit token in an HttpOnly, SameSite=Lax cookie (Secure over https); the server keeps only
its SHA-256 in the ``sessions`` table, so logging out or a moderator's lock ends it at once.
Writes authenticated by that cookie also need the session's CSRF token in the
``X-CSRF-Token`` header (the page reads it from the ``mb_csrf`` cookie, which another site
cannot read) and, when the browser names one, an Origin of this site.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response, WebSocket
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection
from zxcvbn import zxcvbn

from monsterball.games import all_games
from monsterball.web.api.services import Social, address, services, services_of
from monsterball.web.hardening.security import MAX_TOKEN, GameId, origin_allowed
from monsterball.web.live.game import Rejected
from monsterball.web.store.people import SESSION_DAYS, Account, NameTaken, Session, digest

if TYPE_CHECKING:
    from monsterball.web.live.game import Chair
    from monsterball.web.live.room_types import Room
    from monsterball.web.live.rooms import Rooms

T = TypeVar("T")
SESSION_COOKIE = "mb_session"
CSRF_COOKIE = "mb_csrf"
CSRF_HEADER = "x-csrf-token"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
RESERVED = {"admin", "moderator", "anonymous", "system", "dice", "bot", "easy", "medium", "hard"}
MIN_PASSWORD, MAX_PASSWORD = 8, 128
# Passwords are judged by zxcvbn (docs/security.md): refused below this score (0-4; 3 is "safely
# unguessable: moderate protection from an offline slow-hash attack", about 10^10 guesses),
# on their first STRENGTH_PREFIX characters (its time grows fast with length: 53 ms at 24
# random characters, 344 ms at 72), with the site's own words as the guesser's first guesses.
MIN_STRENGTH = 3
STRENGTH_PREFIX = 24
SITE_WORDS = ("monsterball", "monster", "frisbee")
router = APIRouter()
log = logging.getLogger(__name__)
# How often the open sockets' sessions are looked up: a log-out here unseats its sockets at
# once, a lock or a password change made by another process (`monsterball admin`, another
# server on the same PostgreSQL) within this long.
SESSION_SWEEP = 0.5  # seconds
SESSION_ENDED = (
    "your session ended (logged out, locked or a new password): this page now watches; "
    "log in again to play"
)


def social(connection: HTTPConnection) -> Social:
    return services(connection).social


def social_of(app: Any) -> Social:
    return services_of(app).social


# -- who is asking -----------------------------------------------------------------------


async def session_of(connection: HTTPConnection) -> Session | None:
    token = connection.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 100:
        return None
    return await anyio.to_thread.run_sync(social(connection).people.session, token)


def session_key(connection: HTTPConnection) -> str | None:
    """The hash of the session cookie a connection came with (what the sweep looks up)."""
    token = connection.cookies.get(SESSION_COOKIE)
    return digest(token) if token and len(token) <= 100 else None


# -- sessions ending everywhere at once ----------------------------------------------------


async def unseat(app: Any, ended: set[str]) -> int:
    """Every socket (game or lobby) bound to one of the ``ended`` sessions drops its account:
    a game socket seated by the session becomes a spectator's (told so, then sent the
    spectators' state), a lobby page stops hearing the account's notices. How many."""
    if not ended:
        return 0
    count = 0
    rooms = services_of(app).rooms
    for room in list(rooms.rooms.values()):
        for watcher in list(room.watchers):
            if watcher.session not in ended:
                continue
            count += 1
            # (A socket seated by a seat link's token is not bound to its session.)
            watcher.chair = watcher.account = watcher.session = None
            try:
                ended_message = {"type": "error", "error": "login-required"}
                await watcher.send({**ended_message, "message": SESSION_ENDED})
                watcher.seen = room.live.view_mark()
                await watcher.send(json.loads(room.live.text_for(None)))
            except Exception:  # a closed socket: its handler unwatches it
                room.watchers.discard(watcher)
    for lobby in list(social_of(app).hub.watchers):
        if lobby.session in ended:
            count += 1
            lobby.account = lobby.session = None
            try:
                await lobby.send({"type": "session-ended", "message": SESSION_ENDED})
            except Exception:
                social_of(app).hub.leave(lobby)
    return count


def bound_sessions(app: Any) -> set[str]:
    rooms = services_of(app).rooms
    found = {w.session for room in list(rooms.rooms.values()) for w in room.watchers}
    found |= {w.session for w in social_of(app).hub.watchers}
    return {h for h in found if h is not None}


async def sweep_sessions(app: Any) -> int:
    """Unseat the sockets whose sessions have ended since they were opened."""
    bound = bound_sessions(app)
    if not bound:
        return 0
    live = await anyio.to_thread.run_sync(social_of(app).people.live_sessions, bound)
    return await unseat(app, bound - live)


async def watch_sessions(app: Any) -> None:
    """The server's sweep for ended sessions (started by the app's lifespan)."""
    while True:
        try:
            await sweep_sessions(app)
        except Exception:
            log.exception("accounts: could not look up the open sockets' sessions")
        await asyncio.sleep(SESSION_SWEEP)


def check_origin(connection: HTTPConnection) -> None:
    """A browser's request from another site's page is refused (when it says where from)."""
    allowed = social(connection).limits.allowed_origins
    if not origin_allowed(connection.headers.raw, allowed):
        raise Rejected("csrf", "this request came from another site's page; nothing was done")


def check_csrf(request: Request, session: Session) -> None:
    check_origin(request)
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or not secrets.compare_digest(digest(sent), session.csrf_hash):
        raise Rejected(
            "csrf",
            f"a write with the session cookie needs the {CSRF_HEADER} header "
            f"(the {CSRF_COOKIE} cookie's value); nothing was done",
        )


async def account_of(connection: HTTPConnection, *, write: bool) -> Account | None:
    """The logged-in account (None: none); ``write``: the request changes something, so its
    CSRF token must be right (Rejected otherwise)."""
    session = await session_of(connection)
    if session is None:
        return None
    if write and isinstance(connection, Request):
        check_csrf(connection, session)
    return session.account


async def require(request: Request, *, write: bool = True) -> Account:
    account = await account_of(request, write=write)
    if account is None:
        raise Rejected("login-required", "log in first (or sign up: POST /api/accounts)")
    return account


async def seat_account(connection: Request | WebSocket, *, write: bool = False) -> int | None:
    """The account whose bound chairs a request without a seat token acts for (app.py)."""
    account = await account_of(connection, write=write)
    return account.id if account else None


async def seated_room(
    rooms: Rooms, game_id: str, token: str | None, request: Request
) -> tuple[Room, Chair | None]:
    """The game's room and the asker's chair: the seat token's, else the logged-in account's
    bound chair (None: a spectator)."""
    room = await rooms.get(game_id)
    account = await seat_account(request, write=True) if not token else None
    return room, room.live.chair_for(token, account)


# -- names and passwords -----------------------------------------------------------------


async def hashed_work(own: Social, work: Callable[[], T]) -> T:
    """Password hashing through the bounded pool (503 busy past its queue)."""
    own.hashing.admit()
    try:
        return await anyio.to_thread.run_sync(own.hashing.run, work)
    finally:
        own.hashing.release()


async def hash_password(own: Social, password: str) -> str:
    return await hashed_work(own, lambda: own.hasher.hash(password))


async def verify_password(own: Social, stored: str, password: str) -> bool:
    def verify() -> bool:
        try:
            return own.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    return await hashed_work(own, verify)


def check_name(name: str) -> None:
    if not NAME.fullmatch(name):
        raise Rejected(
            "bad-request",
            "a name has 3 to 20 characters: letters, digits, '_' and '-', starting with a "
            f"letter or digit (not {name[:40]!r})",
        )
    if name.lower() in RESERVED:
        raise Rejected("bad-request", f"the name '{name}' is reserved; choose another")


def check_password(name: str, password: str) -> None:
    """The cheap checks, before any rate limit is counted (the estimate is ``weak_reason``)."""
    if len(password) < MIN_PASSWORD:
        raise Rejected("bad-request", f"a password needs at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise Rejected("bad-request", f"a password has at most {MAX_PASSWORD} characters")
    if password.lower() == name.lower():
        raise Rejected("bad-request", "that password is too easy to guess: it is the name")


@cache
def site_words() -> tuple[str, ...]:
    """Words a password must not lean on: the site's, and every game's names."""
    names = (n for spec in all_games() for n in (spec.id, *spec.aliases, spec.title))
    words = (w for n in names for w in re.split(r"[^a-z]+", n.lower()) if len(w) > 3)
    return tuple(dict.fromkeys([*SITE_WORDS, *words]))


def weak_reason(name: str, password: str) -> str | None:
    """Why zxcvbn finds the password guessable (one line), or None if it is strong enough."""
    judged = zxcvbn(password[:STRENGTH_PREFIX], user_inputs=[name, *site_words()])
    if judged["score"] >= MIN_STRENGTH:
        return None
    feedback = judged["feedback"]
    why = feedback.get("warning") or (
        f"it would be found in about 10^{int(judged['guesses_log10'])} guesses"
    )
    advice = " ".join(feedback.get("suggestions") or ["Add another word or two."])
    return f"that password is too easy to guess: {why.rstrip('.')}. {advice}"


async def check_strength(own: Social, name: str, password: str) -> None:
    """The estimate runs in the bounded hashing pool: its cost is bounded like a hash's."""
    reason = await hashed_work(own, lambda: weak_reason(name, password))
    if reason is not None:
        raise Rejected("bad-request", " ".join(reason.split()))


class Credentials(BaseModel):
    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


def start_session(request: Request, response: Response, token: str, csrf: str) -> None:
    secure = request.url.scheme in ("https", "wss")
    age = SESSION_DAYS * 86400
    response.set_cookie(
        SESSION_COOKIE, token, max_age=age, httponly=True, samesite="lax", secure=secure
    )
    # Readable by this site's pages (to send back as the header), never by another site's.
    response.set_cookie(
        CSRF_COOKIE, csrf, max_age=age, httponly=False, samesite="lax", secure=secure
    )


def end_session(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    response.delete_cookie(CSRF_COOKIE, samesite="lax")


# -- routes ------------------------------------------------------------------------------


@router.post("/api/accounts", status_code=201)
async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    check_origin(request)
    check_name(body.name)
    check_password(body.name, body.password)
    own = social(request)
    own.signups.take(address(request))
    await check_strength(own, body.name, body.password)
    hashed = await hash_password(own, body.password)
    try:
        account = await anyio.to_thread.run_sync(own.people.create_account, body.name, hashed)
    except NameTaken:
        raise Rejected("taken", f"the name '{body.name}' is taken (names ignore case)") from None
    token, csrf = await anyio.to_thread.run_sync(own.people.start_session, account.id)
    start_session(request, response, token, csrf)
    return {"name": account.name, "csrf": csrf}


@router.post("/api/session")
async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    check_origin(request)
    own = social(request)
    # Counted before the password is checked, right or wrong: guessing is slow either way.
    own.logins.take(address(request))
    own.name_logins.take(body.name.lower()[:40])
    found = await anyio.to_thread.run_sync(own.people.find, body.name)
    stored = found[1] if found else own.dummy_hash
    right = await verify_password(own, stored, body.password)
    if found is None or not right:
        raise Rejected("bad-login", "wrong name or password")
    account = found[0]
    if account.locked:
        raise Rejected("locked", f"the account '{account.name}' is locked by a moderator")
    if own.hasher.check_needs_rehash(stored):
        rehashed = await hash_password(own, body.password)
        await anyio.to_thread.run_sync(own.people.set_password_hash, account.id, rehashed)
    token, csrf = await anyio.to_thread.run_sync(own.people.start_session, account.id)
    start_session(request, response, token, csrf)
    return {"name": account.name, "csrf": csrf}


@router.delete("/api/session")
async def log_out(request: Request, response: Response) -> dict[str, Any]:
    session = await session_of(request)
    if session is not None:
        check_csrf(request, session)
        token = request.cookies[SESSION_COOKIE]
        await anyio.to_thread.run_sync(social(request).people.end_session, token)
        await unseat(request.app, {digest(token)})
    end_session(response)
    return {"name": None}


class NewPassword(BaseModel):
    password: str = Field(max_length=1000)
    new_password: str = Field(max_length=1000)


@router.post("/api/session/password")
async def change_password(
    body: NewPassword, request: Request, response: Response
) -> dict[str, Any]:
    """A new password (the old one given again): every session of the account ends, on
    every device, and this one is replaced by a new session (new cookies)."""
    account = await require(request)
    own = social(request)
    own.logins.take(address(request))  # the old password is a guess like a log-in's
    found = await anyio.to_thread.run_sync(own.people.find, account.name)
    if found is None:
        raise Rejected("login-required", "log in first (or sign up: POST /api/accounts)")
    if not await verify_password(own, found[1], body.password):
        raise Rejected("bad-login", "the current password is wrong; nothing was changed")
    check_password(account.name, body.new_password)
    await check_strength(own, account.name, body.new_password)
    hashed = await hash_password(own, body.new_password)
    await anyio.to_thread.run_sync(own.people.change_password, account.id, hashed)
    await sweep_sessions(request.app)  # its sockets unseated now, not at the next sweep
    token, csrf = await anyio.to_thread.run_sync(own.people.start_session, account.id)
    start_session(request, response, token, csrf)
    return {"name": account.name, "csrf": csrf}


@router.get("/api/session")
async def who_am_i(request: Request) -> dict[str, Any]:
    account = await account_of(request, write=False)
    return {"name": account.name if account else None}


@router.get("/api/my/games")
async def my_games(request: Request) -> dict[str, Any]:
    """The logged-in account's games, newest first: resumed by their plain link, since the
    session acts for the account's chairs."""
    account = await require(request, write=False)
    rows = await anyio.to_thread.run_sync(
        lambda: social(request).people.games_of(account.id, limit=30)
    )
    return {
        "games": [
            {
                "id": row.id,
                "game": row.game,
                "seat": seat,
                "status": row.status,
                "result": row.result,
                "moves": row.plies,
                "url": f"/play/{row.id}" if row.status == "playing" else f"/replay/{row.id}",
            }
            for row, seat in rows
        ]
    }


class Claim(BaseModel):
    token: str = Field(max_length=MAX_TOKEN)


@router.post("/api/games/{game_id}/claim")
async def claim_seat(game_id: GameId, body: Claim, request: Request) -> dict[str, Any]:
    """Bind the chair of a seat link to the logged-in account, so its session resumes the seat
    without the link (the play page asks this when a logged-in player opens a seat link).
    Not in hot-seat games (one screen plays every chair), not a chair another account holds,
    and one chair per account and game."""
    account = await require(request)
    rooms = services(request).rooms
    room = await rooms.get(game_id)
    live = room.live
    chair = live.chair_for(body.token)
    if chair is None:
        raise Rejected("bad-token", "a claim needs the seat's token")
    if live.is_hotseat():
        raise Rejected("bad-request", "hot-seat games are played on one screen: nothing to keep")
    if chair.account == account.id:
        return {"id": game_id, "seat": chair.name}
    if chair.account is not None:
        raise Rejected("wrong-seat", f"{chair.name} is already another player's seat")
    if any(c.account == account.id for c in live.chairs):
        raise Rejected("wrong-seat", "you already sit in another chair of this game")
    async with room.lock:
        chair.account = account.id
        chairs = [c.to_dict() for c in live.chairs]
        try:
            await anyio.to_thread.run_sync(
                social(request).people.bind_seats, game_id, chairs, {chair.name: account.id}
            )
        except Exception:
            chair.account = None
            raise
    return {"id": game_id, "seat": chair.name}
