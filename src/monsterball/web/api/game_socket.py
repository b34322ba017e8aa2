"""A game's live socket, ``/ws/{game_id}`` (docs/web.md, "WebSocket"): the state for its chair
on connect and after every change, and the client's messages (act, state, seat, nonce,
speed, ping), each answered or refused in one line, never by a closed socket."""

from __future__ import annotations

import json
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from starlette.types import Message

from monsterball.web.api import accounts
from monsterball.web.api.errors import SERVER_ERROR, ws_error
from monsterball.web.api.games import seat_key
from monsterball.web.api.services import Own, Services, address
from monsterball.web.hardening.security import (
    MAX_JSON_DEPTH,
    MAX_TOKEN,
    GameId,
    json_depth,
    origin_allowed,
)
from monsterball.web.live.game import Rejected
from monsterball.web.live.rooms import Room, Watcher

MAX_MESSAGE_BYTES = 4 * 1024
UNENCODABLE = "text in a message must be valid Unicode (not a lone surrogate such as \\ud800)"
router = APIRouter()
log = logging.getLogger("monsterball.web")


@router.websocket("/ws/{game_id}")
async def socket(
    websocket: WebSocket,
    game_id: GameId,
    own: Own,
    token: Annotated[str | None, Query(max_length=MAX_TOKEN)] = None,
    deltas: Annotated[bool, Query()] = False,
) -> None:
    if not origin_allowed(websocket.scope["headers"], own.limits.allowed_origins):
        # Another site's page opening a socket as its visitor: refused at the handshake.
        await websocket.close(code=1008)
        return
    client = address(websocket)
    if not own.sockets.enter(client):
        await websocket.accept()
        await websocket.send_json(
            ws_error(
                "too-many",
                f"this address has {own.limits.sockets_per_address} sockets open already",
            )
        )
        await websocket.close(code=1008)
        return
    try:
        await play_socket(own, websocket, game_id, token, client, deltas)
    finally:
        own.sockets.leave(client)


async def play_socket(
    own: Services, websocket: WebSocket, game_id: str, token: str | None, client: str, deltas: bool
) -> None:
    await websocket.accept()
    try:
        room = await own.rooms.get(game_id)
        # The handshake passed the origin check: the session cookie may seat it.
        session = await accounts.session_of(websocket)
        account = session.account.id if session else None
        chair = room.live.chair_for(token, None if token else account)
    except Rejected as exc:
        await websocket.send_json({"type": "error", "error": exc.code, "message": exc.message})
        await websocket.close(code=4404 if exc.code == "not-found" else 4403)
        return
    watcher = Watcher(chair, websocket.send_json, websocket.send_text, deltas=deltas)
    watcher.account = account
    if session is not None and not (token and chair is not None):
        # Seated by the session (or a spectator's account): its end unseats this socket.
        watcher.session = accounts.session_key(websocket)
    own.rooms.watch(room, watcher)
    try:
        await websocket.send_text(state_text(room, watcher))
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            reply = await handle(own, room, watcher, client, received)
            if isinstance(reply, str):
                await websocket.send_text(reply)
            elif reply is not None:
                await websocket.send_json(reply)
    except WebSocketDisconnect:
        pass
    finally:
        own.rooms.unwatch(room, watcher)


async def handle(
    own: Services, room: Room, watcher: Watcher, client: str, received: Message
) -> dict[str, Any] | str | None:
    chair = watcher.chair
    raw = received.get("text")
    size = len(raw.encode()) if raw is not None else len(received.get("bytes") or b"")
    if size > MAX_MESSAGE_BYTES:
        # Longer messages are cut short before they get here (web/hardening/frames.py),
        # still longer than this, so the reply is the same at any size.
        return ws_error("too-large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    if raw is None:
        return ws_error("bad-json", "messages are JSON text, not binary")
    if json_depth(raw.encode()) > MAX_JSON_DEPTH:
        return ws_error("bad-json", f"JSON may nest at most {MAX_JSON_DEPTH} levels deep")
    try:
        message = json.loads(raw)
    except json.JSONDecodeError as exc:
        return ws_error("bad-json", f"not JSON: {exc.msg} at character {exc.pos}")
    except RecursionError:
        return ws_error("bad-json", "the JSON is nested too deeply")
    if not isinstance(message, dict):
        return ws_error("bad-json", "a message must be a JSON object")
    if not encodable(message):
        # A lone surrogate ("\ud800") is valid JSON but no text: echoing it in a reply
        # would fail to encode and drop the socket.
        return ws_error("bad-json", UNENCODABLE)
    kind = message.get("type")
    if kind == "ping":
        return {"type": "pong"}
    if kind == "state":
        return state_text(room, watcher)
    if kind == "speed":  # a watcher of a bots-only room sets its pace (web/live/rooms.py)
        try:
            await own.rooms.set_pace(room, message.get("speed"))
        except Rejected as exc:
            return ws_error(exc.code, exc.message)
        return None
    if kind == "seat":  # the token in a message, not in the socket's URL (and logs)
        token = message.get("token")
        if not isinstance(token, str) or len(token) > MAX_TOKEN:
            return ws_error("bad-request", "a seat message needs 'token' (text)")
        try:
            watcher.chair = room.live.chair_for(token)
        except Rejected as exc:
            return ws_error(exc.code, exc.message)
        watcher.session = None  # seated by the token now, not by a session
        return state_text(room, watcher)
    if kind == "nonce":  # the seat's part of the dice (web/live/fair_dice.py)
        refused = await own.rooms.contribute(room, chair, message.get("nonce"))
        return {"type": "nonce", "accepted": refused is None, "message": refused or ""}
    if kind != "act":
        known = "act, state, seat, nonce, speed, ping"
        return ws_error("bad-request", f"unknown message type {kind!r} ({known})")
    action, ply = message.get("action"), message.get("ply")
    if not isinstance(action, str) or not isinstance(ply, int) or isinstance(ply, bool):
        return ws_error("bad-request", "an act message needs 'action' (text) and 'ply' (number)")
    try:
        own.clients.move(client)
        own.clients.move_by(seat_key(room, chair))
        await own.rooms.submit(room, chair, action, ply)
    except Rejected as exc:
        return ws_error(exc.code, exc.message, exc.retry_after)
    except Exception:  # the store failed: the move was not applied, the socket stays open
        log.exception("game %s: could not make move %r", room.live.id, action)
        return ws_error("server-error", SERVER_ERROR)
    return None


def state_text(room: Room, watcher: Watcher) -> str:
    """The whole state message for a socket's chair, as JSON text; a socket taking deltas
    holds it from now on (the next delta starts from its ply)."""
    watcher.seen = room.live.view_mark()
    return room.live.text_for(watcher.chair)


def encodable(message: Any) -> bool:
    """Whether every string in a decoded JSON message is valid Unicode (UTF-8 encodable)."""
    try:
        json.dumps(message, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return False
    return True
