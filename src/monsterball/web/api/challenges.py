"""Open challenges and quick pairing (docs/web.md, "Challenges"), and the lobby's socket.

A challenge is posted by an account and listed in every lobby until someone accepts it,
its poster withdraws it, or it expires. Accepting starts an online game at once: colours are
drawn with ``secrets`` unless the poster chose a seat, and each account's chair is bound to it
(its session acts there; no link needed). An anonymous player may accept an unrated challenge
and gets a seat link; rated ones need accounts on both sides. Quick pairing (an unlisted
challenge) is web/api/pairing.py.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from monsterball.core.errors import MonsterballError
from monsterball.games import get_game
from monsterball.ratings.glicko import Rating
from monsterball.web.api.accounts import (
    account_of,
    require,
    session_key,
    session_of,
    social,
)
from monsterball.web.api.inputs import ClockInput, OptionValue, time_control
from monsterball.web.api.services import Social, address, services
from monsterball.web.hardening.security import origin_allowed
from monsterball.web.live.game import Rejected
from monsterball.web.live.lobby import LobbyWatcher
from monsterball.web.live.rooms import Room, Rooms
from monsterball.web.live.time_control import TimeControl
from monsterball.web.store import ratings
from monsterball.web.store.games import Store
from monsterball.web.store.people import Account, ChallengeRow, aware, now

CHALLENGE_TTL = dt.timedelta(minutes=30)
OPEN_PER_ACCOUNT = 5
EXPIRY_SWEEP = 30.0  # seconds
DEFAULT_RATING = 1500.0
router = APIRouter()


def player_key(account: int) -> str:
    """An account's key in the ratings (web/store/ratings.py; bots are "bot:<level>")."""
    return f"account:{account}"


def rating_of(store: Store, account: int, game: str) -> Rating | None:
    """The account's rating in ``game``; None before its first rated game there."""
    return ratings.rating_of(store, player_key(account), game)


def rating_value(rating: Rating | None) -> float:
    return rating.rating if rating is not None else DEFAULT_RATING


def rating_shown(rating: Rating | None) -> str:
    """As the pages show it: "1500?" before the first game, "?" while provisional."""
    return rating.shown() if rating is not None else Rating().shown()


class NewChallenge(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[Annotated[str, Field(max_length=64)], OptionValue] = Field(
        default_factory=dict, max_length=64
    )
    clock: ClockInput | None = None
    rated: StrictBool = False
    seat: str | None = Field(default=None, max_length=16)  # the poster's seat; None: random


def rooms_of(request: Request) -> Rooms:
    rooms = services(request).rooms
    return rooms


def store_of(request: Request) -> Store:
    return rooms_of(request).store


def check_game(game: str, preset: str | None, options: dict[str, Any], seat: str | None) -> None:
    try:
        spec = get_game(game)
        spec.options(preset, **options)
    except MonsterballError as exc:
        raise Rejected("bad-request", str(exc)) from None
    if seat is not None and seat not in spec.seat_names:
        raise Rejected(
            "bad-request", f"no seat '{seat}' in {spec.id} ({', '.join(spec.seat_names)})"
        )


def shown(
    row: ChallengeRow, names: dict[int, str], ratings: dict[int, Rating | None]
) -> dict[str, Any]:
    return {
        "id": row.id,
        "by": names.get(row.account_id, "?"),
        "game": row.game,
        "title": get_game(row.game).title,
        "preset": row.preset,
        "options": row.options,
        "clock": row.clock,
        "rated": row.rated,
        "seat": row.seat,
        "rating": round(rating_value(ratings.get(row.account_id))),
        "rating_shown": rating_shown(ratings.get(row.account_id)),
        "expires": aware(row.expires_at).isoformat(),
    }


async def announce(own: Social) -> None:
    """Tell every lobby that the challenge list changed (each page asks for its own view)."""
    await own.hub.broadcast({"type": "challenges"})


async def start_game(
    rooms: Rooms, own: Social, row: ChallengeRow, taker: Account | None
) -> tuple[Room, dict[str, Any]]:
    """Start the game of an accepted challenge; the taker's chair as handed out (with a seat
    link only when the taker has no account)."""
    spec = get_game(row.game)
    poster_seat = spec.seat_names.index(row.seat) if row.seat else secrets.randbelow(spec.num_seats)
    # Each account's seat is its rating key (a rated game needs both: take() sees to it).
    players = {spec.seat_names[poster_seat]: player_key(row.account_id)}
    if taker is not None:
        other = next(i for i in range(spec.num_seats) if i != poster_seat)
        players[spec.seat_names[other]] = player_key(taker.id)
    room = await rooms.create(
        game=row.game,
        preset=row.preset,
        options=row.options,
        mode="online",
        coaches=spec.num_seats,
        bots={},
        seed=None,
        clock=TimeControl.parse(row.clock, min_seconds=0.0),  # checked when it was posted
        rated=row.rated,
        players=players,
    )
    handed = room.hand_out()
    seats: dict[str, int] = {}
    taker_chair = None
    for chair in room.live.chairs:
        if chair.seat == poster_seat:
            chair.account = row.account_id
        elif taker_chair is None:
            taker_chair = chair
            chair.account = taker.id if taker else None
        if chair.account is not None:
            seats[chair.name] = chair.account
    chairs = [c.to_dict() for c in room.live.chairs]
    await anyio.to_thread.run_sync(own.people.bind_seats, room.live.id, chairs, seats)
    await anyio.to_thread.run_sync(own.people.set_challenge_game, row.id, room.live.id)
    assert taker_chair is not None
    mine = next(c for c in handed["chairs"] if c["name"] == taker_chair.name)
    url = f"/play/{room.live.id}" if taker else mine["url"]
    answer = {
        "challenge": row.id,
        "id": room.live.id,
        "seat": taker_chair.name,
        "url": url,
        "token": None if taker else mine["token"],
    }
    started = {"type": "started", "challenge": row.id, "id": room.live.id}
    await own.hub.tell(row.account_id, {**started, "url": f"/play/{room.live.id}"})
    return room, answer


async def take(
    request: Request, own: Social, row: ChallengeRow, taker: Account | None
) -> dict[str, Any]:
    if taker is not None and taker.id == row.account_id:
        raise Rejected("bad-request", "you cannot accept your own challenge")
    if row.rated and taker is None:
        raise Rejected("login-required", "rated challenges need accounts on both sides: log in")
    if taker is not None:
        blocked = await anyio.to_thread.run_sync(
            own.people.blocked_by_any, {row.account_id}, taker.id
        )
        if blocked:
            raise Rejected("blocked", "this player does not take challenges from you")
    closed = await anyio.to_thread.run_sync(own.people.close_challenge, row.id, "accepted")
    if not closed:
        raise Rejected("gone", "that challenge was taken, withdrawn or has expired")
    _, answer = await start_game(rooms_of(request), own, row, taker)
    await announce(own)
    return answer


@router.post("/api/challenges", status_code=201)
async def post_challenge(body: NewChallenge, request: Request) -> dict[str, Any]:
    account = await require(request)
    own = social(request)
    check_game(body.game, body.preset, body.options, body.seat)
    time_control(body.clock, social(request).limits.min_clock_seconds)
    # Each post is told to every lobby: it counts like a new game from this address.
    services(request).clients.new_game(address(request))
    mine = [
        c
        for c in await anyio.to_thread.run_sync(own.people.open_challenges)
        if c.account_id == account.id
    ]
    if len(mine) >= OPEN_PER_ACCOUNT:
        raise Rejected(
            "too-many", f"you have {len(mine)} open challenges (at most {OPEN_PER_ACCOUNT})"
        )
    row = ChallengeRow(
        id=secrets.token_hex(8),
        account_id=account.id,
        game=get_game(body.game).id,
        preset=body.preset,
        options=dict(body.options),
        clock=body.clock.model_dump() if body.clock else None,
        rated=body.rated,
        seat=body.seat,
        quick=False,
        status="open",
        expires_at=now() + CHALLENGE_TTL,
    )
    await anyio.to_thread.run_sync(own.people.add_challenge, row)
    await announce(own)
    rating = await anyio.to_thread.run_sync(rating_of, store_of(request), account.id, row.game)
    return shown(row, {account.id: account.name}, {account.id: rating})


@router.get("/api/challenges")
async def list_challenges(request: Request) -> dict[str, Any]:
    own = social(request)
    viewer = await account_of(request, write=False)
    # Expired rows are left out of every list at once; marking them (a write) and telling
    # the lobbies is done at most every EXPIRY_SWEEP seconds.
    moment = time.monotonic()
    if moment - own.swept >= EXPIRY_SWEEP:
        own.swept = moment
        if await anyio.to_thread.run_sync(own.people.expire_challenges):
            await announce(own)
    rows = await anyio.to_thread.run_sync(own.people.open_challenges)
    if viewer is not None:  # those who block the viewer do not show their challenges to it
        blockers = await anyio.to_thread.run_sync(own.people.blockers_of, viewer.id)
        rows = [r for r in rows if r.account_id not in blockers]
    names = await anyio.to_thread.run_sync(own.people.names, {r.account_id for r in rows})
    store = store_of(request)
    ratings = {
        (r.account_id, r.game): await anyio.to_thread.run_sync(
            rating_of, store, r.account_id, r.game
        )
        for r in rows
    }
    return {
        "challenges": [
            {
                **shown(r, names, {r.account_id: ratings[r.account_id, r.game]}),
                "mine": viewer is not None and viewer.id == r.account_id,
            }
            for r in rows
        ]
    }


@router.post("/api/challenges/{challenge_id}/accept", status_code=201)
async def accept(challenge_id: str, request: Request) -> dict[str, Any]:
    own = social(request)
    taker = await account_of(request, write=True)
    if taker is None:
        # An anonymous taker: counted like a new game from its address.
        services(request).clients.new_game(address(request))
    row = await anyio.to_thread.run_sync(own.people.challenge, challenge_id[:32])
    if row is None or row.quick:
        raise Rejected("not-found", f"no challenge '{challenge_id[:32]}'")
    if row.status == "open" and aware(row.expires_at) <= now():
        await anyio.to_thread.run_sync(own.people.close_challenge, row.id, "expired")
        await announce(own)
        raise Rejected("gone", "that challenge has expired")
    if row.status != "open":
        raise Rejected("gone", f"that challenge was {row.status}")
    return await take(request, own, row, taker)


@router.delete("/api/challenges/{challenge_id}")
async def withdraw(challenge_id: str, request: Request) -> dict[str, Any]:
    account = await require(request)
    own = social(request)
    row = await anyio.to_thread.run_sync(own.people.challenge, challenge_id[:32])
    if row is None or row.account_id != account.id:
        raise Rejected("not-found", f"you have no challenge '{challenge_id[:32]}'")
    if not await anyio.to_thread.run_sync(own.people.close_challenge, row.id, "withdrawn"):
        raise Rejected("gone", f"that challenge was {row.status} already")
    await announce(own)
    return {"id": row.id, "status": "withdrawn"}


# -- the lobby's socket ------------------------------------------------------------------


@router.websocket("/ws-lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    own = social(websocket)
    if not origin_allowed(websocket.scope["headers"], own.limits.allowed_origins):
        await websocket.close(code=1008)
        return
    counter = services(websocket).lobby_sockets
    client = address(websocket)
    if not counter.enter(client):
        await websocket.close(code=1008)
        return
    try:
        session = await session_of(websocket)
        await websocket.accept()
        watcher = LobbyWatcher(session.account.id if session else None, websocket.send_json)
        watcher.session = session_key(websocket) if session else None
        own.hub.join(watcher)
        try:
            await websocket.send_json({"type": "challenges"})
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                if received.get("text") == '{"type":"ping"}':
                    await websocket.send_json({"type": "pong"})
        except WebSocketDisconnect:
            pass
        finally:
            own.hub.leave(watcher)
    finally:
        counter.leave(client)
