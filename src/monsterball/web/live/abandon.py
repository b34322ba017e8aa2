"""A game the opponent has left (issue 32; docs/web.md "Abandoned games"): once every
connection of the other side's players has been gone ABANDON_SECONDS, a player may claim the
win, or keep waiting. Online games only (hot-seat and bot games have nobody to leave); the game
then ends off the board as "abandoned", like a correspondence game whose side made no move in
time, and a rated game is settled. "Gone" is known by this server's open sockets: a restarted
server counts from when it opened the room again.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import FastAPI, Request

from monsterball.web.api.accounts import seat_account
from monsterball.web.api.ui import SeatBody
from monsterball.web.hardening.security import GameId
from monsterball.web.live.game import Chair, Rejected
from monsterball.web.live.room_types import Room
from monsterball.web.live.rooms import Rooms

ABANDON_SECONDS = 60.0  # a side's connections gone this long: the others may claim the win


def gone_seconds(room: Room, chair: Chair, now: float) -> float:
    """How long ``chair`` has had no open socket here (0: it has one now)."""
    if any(w.chair is not None and w.chair.name == chair.name for w in room.watchers):
        return 0.0
    return now - room.left.get(chair.name, room.opened)


def absence(room: Room, chair: Chair | None) -> dict[str, Any]:
    """What ``chair`` is told of the other side's absence: how long each of its players has
    been gone, and whether the win may be claimed now (or in how many seconds)."""
    live = room.live
    now = time.monotonic()
    others = [
        c for c in live.chairs if c.kind == "human" and chair is not None and c.seat != chair.seat
    ]
    gone = {c.name: round(gone_seconds(room, c, now), 1) for c in others}
    eligible = (
        chair is not None
        and chair.kind == "human"
        and live.row.mode == "online"
        and not live.over()
        and bool(others)
    )
    # The side that left: a seat all of whose people are gone (the shortest absence counts).
    seats = {c.seat for c in others}
    waits = [
        max(0.0, ABANDON_SECONDS - min(gone[c.name] for c in others if c.seat == seat))
        for seat in seats
        if all(gone[c.name] > 0 for c in others if c.seat == seat)
    ]
    wait = min(waits) if waits and eligible else None
    return {
        "type": "abandon",
        "gone": gone,
        "claim_after": ABANDON_SECONDS,
        "claim_in": None if wait is None else round(wait, 1),
        "may_claim": wait == 0.0,
    }


def install(app: FastAPI, rooms: Rooms) -> None:
    async def seated(game_id: str, token: str | None, request: Request) -> tuple[Room, Any]:
        room = await rooms.get(game_id)
        account = await seat_account(request, write=True) if not token else None
        return room, room.live.chair_for(token, account)

    @app.get("/api/games/{game_id}/abandon")
    async def abandon_state(game_id: GameId, request: Request) -> dict[str, Any]:
        """The other side's absence as the seat of the ``seat-token`` header sees it."""
        token = request.headers.get("seat-token")
        room = await rooms.get(game_id)
        account = None if token else await seat_account(request)
        return absence(room, room.live.chair_for(token, account))

    @app.post("/api/games/{game_id}/abandon")
    async def claim(game_id: GameId, body: SeatBody, request: Request) -> dict[str, Any]:
        """Claim the win: the other side has been gone ABANDON_SECONDS (docs/web.md)."""
        room, chair = await seated(game_id, body.token, request)
        if chair is None or chair.kind != "human":
            raise Rejected("spectator", "only a player of this game can claim it")
        if room.live.over():
            raise Rejected("finished", f"the game is over: {room.live.result_text()}")
        told = absence(room, chair)
        if not told["may_claim"]:
            if told["claim_in"] is None:
                why = "your opponent is connected (or this game has nobody who could leave)"
            else:
                why = f"your opponent may still come back: wait {told['claim_in']:.0f} s more"
            raise Rejected("refused", f"the win cannot be claimed yet: {why}")
        live = room.live
        gone = told["gone"]
        seat = next(
            c.seat
            for c in live.chairs
            if c.name in gone
            and all(
                gone[o.name] >= ABANDON_SECONDS
                for o in live.chairs
                if o.name in gone and o.seat == c.seat
            )
        )
        # Ended off the board as resign and flag are (web/live/room_clocks.py), under the lock.
        async with room.lock:
            ended = not room.live.over() and await rooms._end_off_board(
                room, seat, "abandoned", rooms.now_ms()
            )
        if ended:
            await rooms._ended(room)
        return room.live.message_for(chair)
