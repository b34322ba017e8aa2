"""The game API (docs/web.md, "API"): the catalog, new games, a game's state for a seat, moves,
its text, replay steps, records and forks. The live socket is web/api/game_socket.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, WebSocket
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field

from monsterball.core.record import record_to_string
from monsterball.games import all_games, get_game
from monsterball.web.api.accounts import seat_account
from monsterball.web.api.inputs import BotSeats, ClockInput, OptionValue, time_control
from monsterball.web.api.services import Own, Services, address
from monsterball.web.hardening.security import MAX_TOKEN, GameId, seat_token
from monsterball.web.live.game import BOT_LEVELS, MODES, Chair, Rejected
from monsterball.web.live.room_types import Room
from monsterball.web.live.rooms import Rooms
from monsterball.web.live.time_control import Clock
from monsterball.web.store.games import GameRow

MAX_PLY = 10**9  # far past any game's length; bounds the numbers a client may send
router = APIRouter()


class NewGame(BaseModel):
    game: str = Field(max_length=40)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[Annotated[str, Field(max_length=64)], OptionValue] = Field(
        default_factory=dict, max_length=64
    )
    # key=value strings, read like `monsterball play --opt key=value`
    settings: list[Annotated[str, Field(max_length=400)]] = Field(
        default_factory=list, max_length=64
    )
    mode: Literal["hotseat", "bot", "online"] = "hotseat"
    coaches: int = Field(default=2, ge=1, le=8)
    bots: BotSeats = Field(default_factory=dict, max_length=8)
    # Hot-seat and bot games only: online, the server chooses the dice in secret.
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    # {"kind": "realtime", "minutes": M, "increment": S} or {"kind": "correspondence",
    # "days": D}, then checked against the server's shortest control (web/live/time_control.py).
    clock: ClockInput | None = None
    rated: bool = False
    # A bots-only room's pace for its watchers (web/live/rooms.py PACES; docs/web.md "Watching
    # bots").
    speed: Literal["slow", "normal", "fast", "max"] = "max"
    # Seat name -> player key: refused from clients (only server code, accounts, names
    # players), accepted only by a test server (create_app(trust_client_players=True)).
    players: (
        dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=64)]] | None
    ) = Field(default=None, max_length=8)


class Act(BaseModel):
    # Empty: the logged-in account's chair (web/api/accounts.py; the CSRF header is then needed).
    token: str = Field(default="", max_length=MAX_TOKEN)
    action: str = Field(max_length=200)
    ply: int = Field(ge=0, le=MAX_PLY)


class Fork(BaseModel):
    ply: int = Field(ge=0, le=MAX_PLY)
    mode: Literal["hotseat", "bot", "online"] = "hotseat"
    coaches: int = Field(default=2, ge=1, le=8)
    bots: BotSeats = Field(default_factory=dict, max_length=8)


async def seated(
    connection: Request | WebSocket, token: str | None, *, write: bool = False
) -> int | None:
    """The logged-in account to seat when no seat token is given (its chairs, if any)."""
    return None if token else await seat_account(connection, write=write)


def seat_key(room: Room, chair: Chair | None) -> str | None:
    """What the per-seat move limit counts by (the token's chair, never the token)."""
    return f"{room.live.id}/{chair.name}" if chair is not None else None


async def partial_record_allowed(
    rooms: Rooms, row: GameRow, token: str | None, request: Request
) -> bool:
    """Whether a game in progress may be downloaded so far: one that hides nothing, or, in a
    game with hidden moves, by a hot-seat game's own players (one screen sees every side)."""
    if not get_game(row.game).hidden_information:
        return True
    if row.mode != "hotseat":
        return False
    room = await rooms.get(row.id)
    account = None if token else await seat_account(request, write=False)
    chair = room.live.chair_for(token, account)
    return chair is not None and chair.kind == "human"


def rebuild_for(own: Services, request: Request) -> Callable[[], None]:
    """The per-address limit on replays rebuilt from the store (a CPU amplifier)."""
    return lambda: own.clients.rebuild(address(request))


@router.get("/api/catalog")
async def catalog() -> dict[str, Any]:
    return {
        "games": [
            {
                "id": spec.id,
                "title": spec.title,
                "summary": spec.summary,
                "seats": list(spec.seat_names),
                "coaches": list(spec.coaches),
                "presets": [
                    {"name": name, "doc": spec.options_type.PRESET_DOCS.get(name, "")}
                    for name in spec.options_type.PRESETS
                ],
            }
            for spec in all_games()
        ],
        "modes": list(MODES),
        "bot_levels": list(BOT_LEVELS),
    }


@router.post("/api/games", status_code=201)
async def create(body: NewGame, request: Request, own: Own) -> dict[str, Any]:
    if body.players is not None and not own.trust_client_players:
        raise Rejected(
            "bad-request",
            "players are named by the server from accounts, never by a request: "
            "leave 'players' out",
        )
    clock = time_control(body.clock, own.limits.min_clock_seconds)
    own.clients.new_game(address(request))
    room = await own.rooms.create(
        clock=clock,
        rated=body.rated,
        players=body.players,
        game=body.game,
        preset=body.preset,
        options=body.options,
        settings=body.settings,
        mode=body.mode,
        coaches=body.coaches,
        bots=body.bots,
        seed=body.seed,
        address=address(request),
        speed=body.speed,
    )
    return room.hand_out()


@router.get("/api/games")
async def list_games(
    own: Own,
    status: Annotated[Literal["playing", "finished"] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    rows = own.store.list(status=status, limit=limit)
    return {
        "games": [
            {
                "id": r.id,
                "game": r.game,
                "preset": r.preset,
                "mode": r.mode,
                "status": r.status,
                "result": r.result,
                "moves": r.plies,
                "updated": r.updated_at.isoformat(),
                "parent": r.parent_id,
                "seeded": r.was_seeded,
                "clock": Clock.from_dict(r.clock).control.describe() if r.clock else None,
                "rated": bool(r.rated),
            }
            for r in rows
        ]
    }


@router.get("/api/games/{game_id}")
async def game_state(
    game_id: GameId,
    token: Annotated[str | None, Depends(seat_token)],
    request: Request,
    own: Own,
) -> dict[str, Any]:
    """The state for the seat of the ``Seat-Token`` header (or ``?token=``); a
    spectator's without either."""
    room = await own.rooms.get(game_id)
    return room.live.message_for(room.live.chair_for(token, await seated(request, token)))


@router.post("/api/games/{game_id}/act")
async def act(game_id: GameId, body: Act, request: Request, own: Own) -> dict[str, Any]:
    own.clients.move(address(request))
    room = await own.rooms.get(game_id)
    chair = room.live.chair_for(body.token, await seated(request, body.token, write=True))
    own.clients.move_by(seat_key(room, chair))
    await own.rooms.submit(room, chair, body.action, body.ply)
    return room.live.message_for(chair)


@router.get("/api/games/{game_id}/text")
async def game_text(
    game_id: GameId,
    token: Annotated[str | None, Depends(seat_token)],
    request: Request,
    own: Own,
) -> PlainTextResponse:
    """The game as text, as the seat of the token may see it (spectators: public)."""
    room = await own.rooms.get(game_id)
    chair = room.live.chair_for(token, await seated(request, token))
    return PlainTextResponse(room.live.state.render(chair.seat if chair else None))


@router.get("/api/games/{game_id}/replay")
async def replay(
    game_id: GameId,
    request: Request,
    own: Own,
    step: Annotated[int | None, Query(ge=0, le=MAX_PLY)] = None,
) -> dict[str, Any]:
    history = await own.rooms.history(game_id, rebuild_for(own, request))
    total = len(history.actions)
    at = total if step is None else min(step, total)
    state = own.rooms.replay_state(history, at)
    return {
        "game": history.live.summary(),
        "step": at,
        "steps": total,
        "ply": state.ply,
        "board": state.board(None),
        "prompt": state.stack[-1].describe() if state.stack else state.result_text(),
        # A game lost on time ends after its last move, off the board.
        "result": history.live.result_text() if at == total else state.result_text(),
        "log": [e.for_seat(None) for e in history.live.log[max(0, at - 200) : at]],
    }


@router.get("/api/games/{game_id}/record")
async def record(
    game_id: GameId,
    request: Request,
    token: Annotated[str | None, Depends(seat_token)],
    own: Own,
) -> PlainTextResponse:
    """The game's record; a game in progress gets a partial one (no end line, the dice
    seed still secret: `X-Record: partial`) where nobody's secrets are in it."""
    row = own.store.get(game_id)
    if row is None:
        raise Rejected("not-found", f"no game '{game_id}'")
    partial = row.status != "finished"
    if partial and not await partial_record_allowed(own.rooms, row, token, request):
        raise Rejected(
            "not-finished",
            "this game has hidden moves: its record (with every secret choice) is ready "
            "when the game ends",
        )
    history = await own.rooms.history(game_id, rebuild_for(own, request))
    text = record_to_string(own.rooms.record(history, row))
    name = f"{row.game}-{row.id}{'-partial' if partial else ''}.jsonl"
    return PlainTextResponse(
        text,
        media_type="application/x-ndjson",
        headers={
            "content-disposition": f'attachment; filename="{name}"',
            "x-record": "partial" if partial else "complete",
        },
    )


@router.post("/api/games/{game_id}/fork", status_code=201)
async def fork(game_id: GameId, body: Fork, request: Request, own: Own) -> dict[str, Any]:
    own.clients.new_game(address(request))
    row = own.store.get(game_id)
    if row is None:
        raise Rejected("not-found", f"no game '{game_id}'")
    if row.status != "finished":
        raise Rejected("not-finished", "only finished games can be forked (secrets stay safe)")
    history = await own.rooms.history(game_id, rebuild_for(own, request))
    state = own.rooms.replay_state(history, body.ply)
    if state.is_terminal():
        raise Rejected("bad-request", "the game is already over at that step")
    room = await own.rooms.create(
        game=row.game,
        preset=row.preset,
        options={},
        mode=body.mode,
        coaches=body.coaches,
        bots=body.bots,
        seed=None,  # new dice, chosen in secret
        start=state.to_position(),
        parent=(row.id, body.ply),
        address=address(request),
    )
    return room.hand_out()
