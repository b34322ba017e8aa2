"""Chat (docs/web.md, "Chat and moderation"): a players' channel and a spectators' channel
per game, and the lobby's; mutes, blocks and reports.

Messages are stored as the text they were sent (at most MAX_MESSAGE characters, rate-limited
per author) and always drawn as text by the client, never as HTML. The players' channel is
for the game's chairs (a seat token or the account seated there); the spectators' channel is
for logged-in spectators, and players do not see it while the game is being played. A mute
hides an account's messages from me; a block also stops it from accepting my challenges or
writing where I play (and in the lobby I do not see it either).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from monsterball.web.api.accounts import account_of, require, social, social_of
from monsterball.web.api.services import address, services, services_of
from monsterball.web.hardening.security import MAX_TOKEN, GameId, seat_token
from monsterball.web.live.game import Chair, Rejected
from monsterball.web.live.rooms import Room, Watcher
from monsterball.web.store.people import MAX_MESSAGE, Account, MessageRow, aware

router = APIRouter()
log = logging.getLogger(__name__)
Channel = Literal["players", "spectators"]


class Say(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=4 * MAX_MESSAGE)
    token: str = Field(default="", max_length=MAX_TOKEN)


class Relation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=40)
    kind: Literal["mute", "block"]
    on: StrictBool = True


def shown(row: MessageRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "channel": row.channel,
        "author": row.author,
        "account": row.account_id is not None,
        "text": row.text,
        "at": aware(row.created_at).isoformat(),
    }


def clean(text: str) -> str:
    """The message as stored: trimmed, control characters (but line breaks) refused."""
    text = text.strip()
    if not text:
        raise Rejected("bad-request", "an empty message is not sent")
    if len(text) > MAX_MESSAGE:
        raise Rejected("bad-request", f"messages are limited to {MAX_MESSAGE} characters")
    if any(ord(c) < 32 and c != "\n" for c in text):
        raise Rejected("bad-request", "messages cannot hold control characters")
    return text


async def hidden_for(request: Request, viewer: Account | None) -> set[int]:
    """The accounts whose messages ``viewer`` does not see (muted or blocked)."""
    if viewer is None:
        return set()
    people = social(request).people
    muted = await anyio.to_thread.run_sync(people.related, viewer.id, "mute")
    blocked = await anyio.to_thread.run_sync(people.related, viewer.id, "block")
    return muted | blocked


async def seat_in(room: Room, token: str | None, viewer: Account | None) -> Chair | None:
    return room.live.chair_for(token or None, None if token or viewer is None else viewer.id)


def take_turn(request: Request, key: str) -> None:
    """The chat rate limit: per author and per address."""
    limiter = social(request).chat
    limiter.take(key)
    limiter.take(f"address:{address(request)}")


def hears(room: Room, watcher: Watcher, channel: str) -> bool:
    """Whether a socket is sent a channel's messages: the players' to the chairs; the
    spectators' during play only to logged-in spectators not seated in the game (so a player
    cannot read it by opening the page without the cookie), once it is over to everyone."""
    if channel == "players":
        return watcher.chair is not None
    if watcher.chair is not None:
        return False
    if room.live.over():
        return True
    seated = {c.account for c in room.live.chairs if c.account is not None}
    return watcher.account is not None and watcher.account not in seated


# -- a game's chat -----------------------------------------------------------------------


@router.get("/api/games/{game_id}/chat")
async def read_game_chat(
    game_id: GameId,
    request: Request,
    token: Annotated[str | None, Depends(seat_token)],
    channel: Annotated[Channel | None, Query()] = None,
) -> dict[str, Any]:
    """A channel's newest messages (default: the asker's own channel). Spectators may read
    the players' table talk (public, like the moves); players see the spectators' channel
    only once the game is over."""
    rooms = services(request).rooms
    room = await rooms.get(game_id)
    viewer = await account_of(request, write=False)
    chair = await seat_in(room, token, viewer)
    own: Channel = "players" if chair is not None else "spectators"
    wanted = channel or own
    if wanted == "spectators" and not room.live.over():
        if chair is not None:
            raise Rejected("spectator", "players see the spectators' chat once the game is over")
        if viewer is None:
            # Else a player would read it by opening the page without the cookie.
            raise Rejected(
                "login-required",
                "the spectators' chat is for logged-in spectators while the game is played "
                "(everyone may read it once it is over): log in",
            )
    rows = await anyio.to_thread.run_sync(
        lambda: social(request).people.messages(game_id, (wanted,))
    )
    hidden = await hidden_for(request, viewer)
    return {
        "channel": wanted,
        "messages": [shown(r) for r in rows if r.account_id not in hidden],
    }


@router.post("/api/games/{game_id}/chat", status_code=201)
async def say_in_game(game_id: GameId, body: Say, request: Request) -> dict[str, Any]:
    rooms = services(request).rooms
    room = await rooms.get(game_id)
    token = body.token or request.headers.get("seat-token") or ""
    viewer = await account_of(request, write=True)
    chair = await seat_in(room, token, viewer)
    text = clean(body.text)
    people = social(request).people
    if chair is None:
        if viewer is None:
            raise Rejected("login-required", "spectators chat with an account: log in first")
        channel, author = "spectators", viewer.name
    else:
        channel = "players"
        # A chair's coach writes under the account seated there, else under the chair's name.
        author = viewer.name if viewer is not None and chair.account == viewer.id else chair.name
        if viewer is not None and chair.account != viewer.id:
            viewer = None  # writing for an anonymous chair by its link
    take_turn(request, f"account:{viewer.id}" if viewer else f"chair:{game_id}/{author}")
    if viewer is not None:
        players = {c.account for c in room.live.chairs if c.account is not None}
        if await anyio.to_thread.run_sync(people.blocked_by_any, players - {viewer.id}, viewer.id):
            raise Rejected("blocked", "a player of this game has blocked you; nothing was sent")
    row = await anyio.to_thread.run_sync(
        people.post, game_id, channel, viewer.id if viewer else None, author, text
    )
    message = {"type": "chat", "message": shown(row)}
    for watcher in list(room.watchers):
        if hears(room, watcher, channel):
            try:
                await watcher.send(message)
            except Exception:  # a closed socket: its handler will unwatch it
                room.watchers.discard(watcher)
    return shown(row)


# -- the lobby's chat --------------------------------------------------------------------


@router.get("/api/lobby/chat")
async def read_lobby_chat(request: Request) -> dict[str, Any]:
    viewer = await account_of(request, write=False)
    rows = await anyio.to_thread.run_sync(lambda: social(request).people.messages(None, ("lobby",)))
    hidden = await hidden_for(request, viewer)
    return {"channel": "lobby", "messages": [shown(r) for r in rows if r.account_id not in hidden]}


@router.post("/api/lobby/chat", status_code=201)
async def say_in_lobby(body: Say, request: Request) -> dict[str, Any]:
    account = await require(request)
    text = clean(body.text)
    take_turn(request, f"account:{account.id}")
    own = social(request)
    row = await anyio.to_thread.run_sync(
        own.people.post, None, "lobby", account.id, account.name, text
    )
    await own.hub.broadcast({"type": "chat", "message": shown(row)})
    return shown(row)


# -- deletions by moderators -------------------------------------------------------------

# `monsterball admin delete-message` runs in another process: the server looks for deletions
# among the newest messages every few seconds and tells the open pages to drop them.
DELETION_SWEEP = 5.0  # seconds
DELETION_WINDOW = 5000  # the newest messages looked at


async def announce_deletions(app: Any) -> list[int]:
    """Tell the open pages of every message deleted since the last look, once; the ids told.
    The first look tells nothing: pages loaded since then never had those messages."""
    own = social_of(app)
    deletions = services_of(app).deletions
    async with deletions.lock:
        found = await anyio.to_thread.run_sync(own.people.deleted_recently, DELETION_WINDOW)
        told, deletions.told = deletions.told, {i for i, _, _ in found}
    if told is None:
        return []
    rooms = services_of(app).rooms
    new = [(i, g, c) for i, g, c in found if i not in told]
    for message_id, game_id, channel in new:
        gone = {"type": "chat-deleted", "id": message_id}
        if game_id is None:
            await own.hub.broadcast(gone)
        elif (room := rooms.rooms.get(game_id)) is not None:
            for watcher in list(room.watchers):
                if hears(room, watcher, channel):
                    try:
                        await watcher.send(gone)
                    except Exception:  # a closed socket: its handler will unwatch it
                        room.watchers.discard(watcher)
    return [i for i, _, _ in new]


async def watch_deletions(app: Any) -> None:
    """The server's sweep for moderators' deletions (started by the app's lifespan)."""
    while True:
        try:
            await announce_deletions(app)
        except Exception:
            log.exception("chat: could not look for deleted messages")
        await asyncio.sleep(DELETION_SWEEP)


# -- mutes, blocks and reports -----------------------------------------------------------


@router.get("/api/relations")
async def relations(request: Request) -> dict[str, Any]:
    account = await require(request, write=False)
    people = social(request).people
    found: dict[str, list[str]] = {}
    for kind in ("mute", "block"):
        ids = await anyio.to_thread.run_sync(people.related, account.id, kind)
        names = await anyio.to_thread.run_sync(people.names, ids)
        found[kind] = sorted(names.values(), key=str.lower)
    return found


@router.post("/api/relations")
async def relate(body: Relation, request: Request) -> dict[str, Any]:
    """Mute or block (``on``: false undoes it) the account named ``name``."""
    account = await require(request)
    people = social(request).people
    found = await anyio.to_thread.run_sync(people.find, body.name)
    if found is None:
        raise Rejected("not-found", f"no player '{body.name}'")
    other = found[0]
    if other.id == account.id:
        raise Rejected("bad-request", f"you cannot {body.kind} yourself")
    await anyio.to_thread.run_sync(people.relate, account.id, other.id, body.kind, body.on)
    return {"name": other.name, "kind": body.kind, "on": body.on}


@router.post("/api/chat/{message_id}/report", status_code=201)
async def report(
    message_id: Annotated[int, Path(ge=1, le=2**62)], request: Request
) -> dict[str, Any]:
    """Record a message for the moderators (``monsterball admin reports``)."""
    reporter = await account_of(request, write=True)
    take_turn(request, f"report:{reporter.id if reporter else address(request)}")
    people = social(request).people
    row = await anyio.to_thread.run_sync(people.message, message_id)
    if row is None or row.deleted:
        raise Rejected("not-found", f"no message {message_id}")
    number = await anyio.to_thread.run_sync(
        people.report, message_id, reporter.id if reporter else None
    )
    return {"report": number, "message": message_id}
