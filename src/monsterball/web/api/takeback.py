"""Takeback's routes (docs/web.md "Takeback"): ask, accept, decline; the policy and the undo
are web/live/takeback.py's."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from monsterball.web.api.accounts import seated_room
from monsterball.web.api.services import Own, Services, address
from monsterball.web.api.ui import SeatBody
from monsterball.web.live.takeback import Takebacks

router = APIRouter()


def takebacks(own: Services) -> Takebacks:
    return own.part(Takebacks, lambda: Takebacks(own.rooms, own.store))


def rebuild_for(own: Services, request: Request) -> Any:
    return lambda: own.clients.rebuild(address(request))


@router.post("/api/games/{game_id}/takeback")
async def takeback(game_id: str, body: SeatBody, request: Request, own: Own) -> Any:
    """Take back the seat's last move (docs/web.md "Takeback"): at once against bots and
    in hot-seat (200, the new state); with another person, an ask they are told of (202)."""
    room, chair = await seated_room(own.rooms, game_id, body.token, request)
    status, answer = await takebacks(own).ask(room, chair, rebuild_for(own, request))
    return JSONResponse(answer, status_code=status)


@router.post("/api/games/{game_id}/takeback/accept")
async def takeback_accept(game_id: str, body: SeatBody, request: Request, own: Own) -> Any:
    """Agree to the other player's ask: their last move is taken back."""
    room, chair = await seated_room(own.rooms, game_id, body.token, request)
    return await takebacks(own).accept(room, chair, rebuild_for(own, request))


@router.post("/api/games/{game_id}/takeback/decline")
async def takeback_decline(game_id: str, body: SeatBody, request: Request, own: Own) -> Any:
    room, chair = await seated_room(own.rooms, game_id, body.token, request)
    return await takebacks(own).decline(room, chair)
