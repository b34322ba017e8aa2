"""The routes of a game the opponent has left (docs/web.md "Abandoned games"): how long the
other side has been gone, and claiming the win; the reckoning is web/live/abandon.py's."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from monsterball.web.api.accounts import seat_account, seated_room
from monsterball.web.api.services import Own
from monsterball.web.api.ui import SeatBody
from monsterball.web.hardening.security import GameId
from monsterball.web.live.abandon import absence, left_seat
from monsterball.web.live.game import Rejected

router = APIRouter()


@router.get("/api/games/{game_id}/abandon")
async def abandon_state(game_id: GameId, request: Request, own: Own) -> dict[str, Any]:
    """The other side's absence as the seat of the ``seat-token`` header sees it."""
    token = request.headers.get("seat-token")
    room = await own.rooms.get(game_id)
    account = None if token else await seat_account(request)
    return absence(room, room.live.chair_for(token, account))


@router.post("/api/games/{game_id}/abandon")
async def claim(game_id: GameId, body: SeatBody, request: Request, own: Own) -> dict[str, Any]:
    """Claim the win: the other side has been gone ABANDON_SECONDS (docs/web.md)."""
    rooms = own.rooms
    room, chair = await seated_room(rooms, game_id, body.token, request)
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
    seat = left_seat(room, told["gone"])
    # Ended off the board as resign and flag are (web/live/room_clocks.py), under the lock.
    await rooms.end_abandoned(room, seat)
    return room.live.message_for(chair)
