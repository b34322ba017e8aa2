"""Draw offers (issue 32; docs/web.md "Draw offers"): the players of a game whose rules can
end level may agree to end it drawn where it stands.

Only Monsters of the Midway can end level by its rules (MW-GEN-4: a game of 25 plays, level
scores draw), and Paper Ultimate or Huck + Monster played with the simulations' cap
(``max_throws``, ``max_up_calls``); first-to-so-many-points games always have a winner, so
no draw is offered there. A draw is agreed between people: not in hot-seat (one screen plays
both sides) nor against bots (they play on). A player offers; the other side (any person
seated there) accepts or declines, the offerer may withdraw, and the offer lapses as soon as
the other side makes a move. Offering while the other side's offer stands accepts it.

Offers live in the server's memory (a restart forgets them); a server cluster (PostgreSQL
shared by several servers) has none, as the players' pages may be on different servers. The
end is stored as ``{"termination": "agreed"}`` (no loser) and records are written in format
3 (core/record.py); a rated game's draw settles both ratings as a draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from monsterball.web.api.accounts import seat_account, seated_room
from monsterball.web.api.services import services
from monsterball.web.api.ui import SeatBody
from monsterball.web.hardening.security import GameId, seat_token
from monsterball.web.live.game import Chair, LiveGame, Rejected
from monsterball.web.live.room_types import Room
from monsterball.web.live.rooms import Rooms
from monsterball.web.live.takeback import refusal_code

router = APIRouter()


@dataclass(frozen=True)
class Offer:
    by: str  # the offering chair
    seat: int
    moves: int  # the game's moves when offered: a move by another seat since ends it

    def view(self) -> dict[str, Any]:
        return {"type": "draw", "state": "offered", "by": self.by}


def no_draw_reason(live: LiveGame) -> str | None:
    """Why this game can never be drawn by agreement (None: it can), in a player's words."""
    if not live.state.options.can_draw():
        return (
            f"{live.spec.title} has no draws as played here: the game goes on until a team has won"
        )
    if live.is_hotseat():
        return "a hot-seat game has one screen for both sides: there is nobody to agree a draw with"
    if any(c.kind != "human" for c in live.chairs):
        return "bots play every game to its end: a draw is agreed between people"
    return None


class Draws:
    """The open draw offers of one server."""

    def __init__(self, rooms: Rooms):
        self.rooms = rooms
        self.offers: dict[str, Offer] = {}

    def refusal(self, live: LiveGame, chair: Chair | None) -> str | None:
        if chair is None or chair.kind != "human":
            return "only a player of this game can offer or agree a draw"
        if live.over():
            return f"the game is over: {live.result_text()}"
        why = no_draw_reason(live)
        if why is not None:
            return why
        if self.rooms.cluster is not None:
            return "this server shares its games with others: draws cannot be offered here"
        return None

    def current(self, live: LiveGame) -> Offer | None:
        offer = self.offers.get(live.id)
        if offer is None:
            return None
        since = live.moves_made - offer.moves
        recent = live.log[-since:] if since > 0 else []
        moved = since > len(live.log) or any(e.seat not in (offer.seat, -1) for e in recent)
        if live.over() or since < 0 or moved:
            del self.offers[live.id]
            return None
        return offer

    def state(self, live: LiveGame, chair: Chair | None) -> dict[str, Any]:
        """What the page shows: whether this chair may offer (and why not), the open offer."""
        offer = self.current(live)
        why = self.refusal(live, chair)
        return {
            "type": "draw",
            "state": "offered" if offer else "none",
            "by": offer.by if offer else None,
            "possible": why is None,
            "why": why,
            "never": no_draw_reason(live),  # this game can never be drawn (the UI says so)
        }

    async def offer(self, room: Room, chair: Chair | None) -> tuple[int, dict[str, Any]]:
        """Offer a draw (202, the offer the others are told of), or accept the other side's
        standing offer (200, the game drawn)."""
        live = room.live
        why = self.refusal(live, chair)
        if why is not None or chair is None:
            raise Rejected(refusal_code(live, chair), why or "")
        standing = self.current(live)
        if standing is not None and standing.seat != chair.seat:
            return 200, await self._agree(room, chair)
        if standing is None:
            standing = Offer(chair.name, chair.seat, live.moves_made)
            self.offers[live.id] = standing
            await room.tell(standing.view())
        return 202, standing.view()

    async def accept(self, room: Room, chair: Chair | None) -> dict[str, Any]:
        live = room.live
        why = self.refusal(live, chair)
        if why is not None or chair is None:
            raise Rejected(refusal_code(live, chair), why or "")
        offer = self.current(live)
        if offer is None:
            raise Rejected("gone", "no draw is offered (or the game moved on)")
        if offer.seat == chair.seat:
            raise Rejected("wrong-seat", "the other side must agree to your offer")
        return await self._agree(room, chair)

    async def decline(self, room: Room, chair: Chair | None) -> dict[str, Any]:
        """Refuse the offer (the offerer: withdraw it); everyone watching is told."""
        offer = self.current(room.live)
        if offer is None:
            return {"type": "draw", "state": "none"}
        if chair is None or chair.kind != "human":
            raise Rejected("spectator", "only the players can answer a draw offer")
        del self.offers[room.live.id]
        news = {"type": "draw", "state": "declined", "by": chair.name}
        await room.tell(news)
        return news

    async def _agree(self, room: Room, chair: Chair) -> dict[str, Any]:
        self.offers.pop(room.live.id, None)
        if not await self.rooms.end_drawn(room):
            raise Rejected("stale", "the game ended meanwhile: nothing was changed")
        await room.tell({"type": "draw", "state": "agreed", "by": chair.name})
        return room.live.message_for(chair)


def draws_of(request: Request) -> Draws:
    rooms = services(request).rooms
    return services(request).part(Draws, lambda: Draws(rooms))


@router.get("/api/games/{game_id}/draw")
async def draw_state(
    game_id: GameId, request: Request, token: Annotated[str | None, Depends(seat_token)]
) -> dict[str, Any]:
    """Whether the asker may offer a draw (``possible``, else ``why``), whether the game can
    ever be drawn (``never``: why not), and the open offer (``state``, ``by``)."""
    rooms = services(request).rooms
    room = await rooms.get(game_id)
    account = await seat_account(request, write=False) if not token else None
    return draws_of(request).state(room.live, room.live.chair_for(token, account))


@router.post("/api/games/{game_id}/draw")
async def offer_draw(game_id: GameId, body: SeatBody, request: Request) -> Any:
    """Offer a draw (202, the offer everyone watching is told of), or accept the other side's
    standing offer (200: the game drawn, the new state)."""
    room, chair = await seated_room(services(request).rooms, game_id, body.token, request)
    status, answer = await draws_of(request).offer(room, chair)
    return JSONResponse(answer, status_code=status)


@router.post("/api/games/{game_id}/draw/accept")
async def accept_draw(game_id: GameId, body: SeatBody, request: Request) -> Any:
    """Agree to the other side's offer: the game ends drawn where it stands."""
    room, chair = await seated_room(services(request).rooms, game_id, body.token, request)
    return await draws_of(request).accept(room, chair)


@router.post("/api/games/{game_id}/draw/decline")
async def decline_draw(game_id: GameId, body: SeatBody, request: Request) -> Any:
    room, chair = await seated_room(services(request).rooms, game_id, body.token, request)
    return await draws_of(request).decline(room, chair)
