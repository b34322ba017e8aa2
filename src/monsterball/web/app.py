"""The HTTP and WebSocket API (docs/web.md) and the static browser client.

``create_app(db_url)`` builds an app over its own store, so tests run many servers side by
side and a restart is just a new app over the same database.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from monsterball.core.record import record_to_string
from monsterball.games import all_games, get_game
from monsterball.settings import SETTINGS, Limits
from monsterball.web.api import accounts, challenges, chat, draws, pairing, player_pages
from monsterball.web.api.learn import install as install_learn
from monsterball.web.api.openapi import install as install_schema
from monsterball.web.api.server_status import status_router
from monsterball.web.api.ui import install as install_ui
from monsterball.web.cluster.site import Cluster, janitor
from monsterball.web.hardening.gc_timer import collect_on_a_timer
from monsterball.web.hardening.limits import ClientLimits
from monsterball.web.hardening.security import (
    HEADERS,
    MAX_JSON_DEPTH,
    MAX_TOKEN,
    URL_SAFE,
    GameId,
    ReadLimit,
    SecurityHeaders,
    ServerErrors,
    SocketCounter,
    json_depth,
    origin_allowed,
    seat_token,
)
from monsterball.web.live.abandon import install as install_abandon
from monsterball.web.live.bot_pool import ThinkingPool
from monsterball.web.live.game import BOT_LEVELS, MODES, Rejected, wall_ms
from monsterball.web.live.rooms import Room, Rooms, Watcher
from monsterball.web.live.takeback import install as install_takeback
from monsterball.web.live.time_control import BadClock, Clock, TimeControl
from monsterball.web.store.games import GameRow, Store
from monsterball.web.store.ratings import router as ratings_router

MAX_BODY_BYTES = 64 * 1024
MAX_MESSAGE_BYTES = 4 * 1024
MAX_PLY = 10**9  # far past any game's length; bounds the numbers a client may send
STATUS = {
    "bad-request": 400,
    "illegal": 400,
    "bad-json": 400,
    "spectator": 403,
    "wrong-seat": 403,
    "bad-token": 403,
    "csrf": 403,
    "locked": 403,
    "blocked": 403,
    "login-required": 401,
    "bad-login": 401,
    "taken": 409,
    "gone": 409,
    "not-found": 404,
    "stale": 409,
    "finished": 409,
    "refused": 409,
    "not-finished": 409,
    "too-large": 413,
    "too-many": 429,
    "busy": 503,
    "server-error": 500,
}
STATIC = resources.files("monsterball.web") / "static"
SERVER_ERROR = "the server could not do that (it is logged); nothing was changed, try again"
log = logging.getLogger("monsterball.web")


# seat name -> bot level
BotSeats = dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=40)]]
# option name -> value: options are flags, numbers and words, never nested
OptionValue = (
    bool
    | Annotated[int, Field(ge=-(2**53), le=2**53)]
    | float
    | Annotated[str, Field(max_length=400)]
    | None
)


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
    # "days": D}; checked by web/live/time_control.py (one-line errors).
    clock: dict[Annotated[str, Field(max_length=16)], OptionValue] | None = Field(
        default=None, max_length=4
    )
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


def error(code: str, message: str, retry_after: int | None = None) -> JSONResponse:
    # The security headers here too: a 500 is answered outside the middleware.
    headers = {name.decode(): value.decode() for name, value in HEADERS}
    if retry_after is not None:
        headers["retry-after"] = str(retry_after)
    return JSONResponse(
        {"error": code, "message": message}, status_code=STATUS.get(code, 400), headers=headers
    )


def refusal(exc: Exception) -> JSONResponse:
    """A Rejected raised outside the routes (the read limit), in the API's shape."""
    if isinstance(exc, Rejected):
        return error(exc.code, exc.message, exc.retry_after)
    return error("server-error", SERVER_ERROR)


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
    account = None if token else await accounts.seat_account(request, write=False)
    chair = room.live.chair_for(token, account)
    return chair is not None and chair.kind == "human"


def address(connection: Request | WebSocket) -> str:
    return connection.client.host if connection.client else "unknown"


def create_app(
    db_url: str = SETTINGS.db_url,
    *,
    store: Store | None = None,
    limits: Limits | None = None,
    now_ms: Callable[[], int] = wall_ms,
    trust_client_players: bool = False,
) -> FastAPI:
    """``now_ms``: the clocks' time source (tests inject one); ``trust_client_players``: for
    tests only, let a request name a rated game's players (until accounts do)."""
    store = store or Store(db_url)
    limits = limits or Limits()
    pool = ThinkingPool(limits.bot_workers, limits.max_bot_seconds)
    # Servers on one PostgreSQL share its games (web/cluster/site.py); SQLite is one server's.
    cluster = Cluster(store, lease_seconds=limits.lease_seconds) if store.shared else None
    rooms = Rooms(
        store,
        pool,
        rooms_per_address=limits.rooms_per_address,
        now_ms=now_ms,
        cluster=cluster,
        idle_seconds=limits.idle_seconds,
        nonce_seconds=limits.nonce_seconds,
    )
    clients = ClientLimits(limits)
    sockets = SocketCounter(limits.sockets_per_address)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Games a restart left to dice or bots (and, sharing PostgreSQL, a killed server's:
        # taken over by their leases); clocks set again and missed ratings settled.
        if cluster is None:
            running = [asyncio.create_task(rooms.resume())]
        else:
            running = [*cluster.start(rooms), asyncio.create_task(rooms.resume_clocks())]
        running.append(asyncio.create_task(janitor(rooms)))
        running.append(asyncio.create_task(chat.watch_deletions(app)))  # moderators' deletions
        running.append(asyncio.create_task(accounts.watch_sessions(app)))  # ended sessions
        # What is loaded by now (modules, tables, caches) lives as long as the process: out of
        # the cyclic collector's scans; and its collections on a clock, not by counts (see
        # web/hardening/gc_timer.py: counted ones paused every room for up to 150 ms).
        gc.collect()  # (garbage frozen would never be freed)
        gc.freeze()
        running.append(asyncio.create_task(collect_on_a_timer()))
        yield
        # A task made in another event loop (a test client's one-off loop) died with it.
        loop = asyncio.get_running_loop()
        everything = (*running, *rooms.background(), *(cluster.tasks() if cluster else []))
        tasks = [t for t in everything if t.get_loop() is loop]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pool.close()
        store.close()

    app = FastAPI(title="monsterball", lifespan=lifespan)
    app.state.rooms = rooms
    app.state.limits = clients

    # Innermost: a failure no handler took is answered 500 here, the connection kept.
    app.add_middleware(ServerErrors, answer=lambda: error("server-error", SERVER_ERROR))
    app.add_middleware(ReadLimit, take=clients.read, answer=refusal)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(SecurityHeaders)  # outermost: its headers go on every answer

    @app.exception_handler(Rejected)
    async def rejected(_: Request, exc: Rejected) -> JSONResponse:
        return error(exc.code, exc.message, exc.retry_after)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Routing and body-parsing errors, in the API's own shape.
        code = {404: "not-found", 413: "too-large"}.get(exc.status_code, "bad-request")
        response = error(code, str(exc.detail))
        response.status_code = exc.status_code
        response.headers.update(exc.headers or {})  # a 405's Allow
        return response

    @app.exception_handler(RecursionError)
    async def too_deep(_: Request, exc: RecursionError) -> JSONResponse:
        return error("bad-request", "the JSON body is nested too deeply")

    @app.exception_handler(Exception)
    async def failed(_: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", exc_info=exc)
        return error("server-error", SERVER_ERROR)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'] if p != 'body') or 'body'}: {e['msg']}"
            for e in exc.errors()
        )
        return error("bad-request", problems or "malformed request")

    # -- pages ---------------------------------------------------------------------------

    def page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.get("/", include_in_schema=False)(page)
    app.get("/replay/{game_id}", include_in_schema=False)(page)

    @app.get("/play/{game_id}", include_in_schema=False, response_model=None)
    async def play_page(game_id: GameId, request: Request) -> FileResponse | RedirectResponse:
        """A seat's page. An old link with ``?token=T`` is sent on to ``#token=T``: the
        fragment never reaches a server, so the token leaves the URL that proxies, logs and
        history keep (the redirect's Location is not logged; the request line is, redacted)."""
        token = request.query_params.get("token")
        if token is not None and URL_SAFE.fullmatch(game_id):
            fragment = f"#token={token}" if URL_SAFE.fullmatch(token) else ""
            return RedirectResponse(f"/play/{game_id}{fragment}", status_code=303)
        return page()

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.include_router(accounts.router)
    app.include_router(challenges.router)
    app.include_router(pairing.router)
    app.include_router(draws.router)  # draw offers (issue 32)
    app.include_router(chat.router)
    app.include_router(player_pages.router)

    def admit_new_game(request: Request) -> str:
        """Counts a new game against its address's limit (429 past it); the address."""
        client = address(request)
        clients.new_game(client)
        return client

    # The browser client's own routes (rules pages, rematch, odds).
    install_ui(app, rooms, store, admit_new_game)
    install_learn(app)  # guides, lessons and hints (issue 33)
    install_takeback(app, rooms, store)  # takeback by the stated policy (issue 32)
    install_abandon(app, rooms)  # claiming a game the opponent left (issue 32)
    app.include_router(ratings_router)
    install_schema(app)  # the OpenAPI schema as the API answers (web/api/openapi.py)
    app.include_router(status_router(rooms, pool, cluster))

    # -- API -----------------------------------------------------------------------------

    @app.get("/api/catalog")
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

    @app.post("/api/games", status_code=201)
    async def create(body: NewGame, request: Request) -> dict[str, Any]:
        if body.players is not None and not trust_client_players:
            raise Rejected(
                "bad-request",
                "players are named by the server from accounts, never by a request: "
                "leave 'players' out",
            )
        try:
            clock = TimeControl.parse(body.clock, min_seconds=limits.min_clock_seconds)
        except BadClock as exc:
            raise Rejected("bad-request", str(exc)) from None
        clients.new_game(address(request))
        room = await rooms.create(
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

    @app.get("/api/games")
    async def list_games(
        status: Annotated[Literal["playing", "finished"] | None, Query()] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> dict[str, Any]:
        rows = store.list(status=status, limit=limit)
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

    @app.get("/api/games/{game_id}")
    async def game_state(
        game_id: GameId, token: Annotated[str | None, Depends(seat_token)], request: Request
    ) -> dict[str, Any]:
        """The state for the seat of the ``Seat-Token`` header (or ``?token=``); a
        spectator's without either."""
        room = await rooms.get(game_id)
        return room.live.message_for(room.live.chair_for(token, await seated(request, token)))

    @app.post("/api/games/{game_id}/act")
    async def act(game_id: GameId, body: Act, request: Request) -> dict[str, Any]:
        clients.move(address(request))
        room = await rooms.get(game_id)
        chair = room.live.chair_for(body.token, await seated(request, body.token, write=True))
        clients.move_by(seat_key(room, chair))
        await rooms.submit(room, chair, body.action, body.ply)
        return room.live.message_for(chair)

    @app.get("/api/games/{game_id}/text")
    async def game_text(
        game_id: GameId, token: Annotated[str | None, Depends(seat_token)], request: Request
    ) -> PlainTextResponse:
        """The game as text, as the seat of the token may see it (spectators: public)."""
        room = await rooms.get(game_id)
        chair = room.live.chair_for(token, await seated(request, token))
        return PlainTextResponse(room.live.state.render(chair.seat if chair else None))

    def rebuild_for(request: Request) -> Callable[[], None]:
        """The per-address limit on replays rebuilt from the store (a CPU amplifier)."""
        return lambda: clients.rebuild(address(request))

    @app.get("/api/games/{game_id}/replay")
    async def replay(
        game_id: GameId,
        request: Request,
        step: Annotated[int | None, Query(ge=0, le=MAX_PLY)] = None,
    ) -> dict[str, Any]:
        history = await rooms.history(game_id, rebuild_for(request))
        total = len(history.actions)
        at = total if step is None else min(step, total)
        state = rooms.replay_state(history, at)
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

    @app.get("/api/games/{game_id}/record")
    async def record(
        game_id: GameId, request: Request, token: Annotated[str | None, Depends(seat_token)]
    ) -> PlainTextResponse:
        """The game's record; a game in progress gets a partial one (no end line, the dice
        seed still secret: `X-Record: partial`) where nobody's secrets are in it."""
        row = store.get(game_id)
        if row is None:
            raise Rejected("not-found", f"no game '{game_id}'")
        partial = row.status != "finished"
        if partial and not await partial_record_allowed(rooms, row, token, request):
            raise Rejected(
                "not-finished",
                "this game has hidden moves: its record (with every secret choice) is ready "
                "when the game ends",
            )
        history = await rooms.history(game_id, rebuild_for(request))
        text = record_to_string(rooms.record(history, row))
        name = f"{row.game}-{row.id}{'-partial' if partial else ''}.jsonl"
        return PlainTextResponse(
            text,
            media_type="application/x-ndjson",
            headers={
                "content-disposition": f'attachment; filename="{name}"',
                "x-record": "partial" if partial else "complete",
            },
        )

    @app.post("/api/games/{game_id}/fork", status_code=201)
    async def fork(game_id: GameId, body: Fork, request: Request) -> dict[str, Any]:
        clients.new_game(address(request))
        row = store.get(game_id)
        if row is None:
            raise Rejected("not-found", f"no game '{game_id}'")
        if row.status != "finished":
            raise Rejected("not-finished", "only finished games can be forked (secrets stay safe)")
        history = await rooms.history(game_id, rebuild_for(request))
        state = rooms.replay_state(history, body.ply)
        if state.is_terminal():
            raise Rejected("bad-request", "the game is already over at that step")
        room = await rooms.create(
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

    # -- WebSocket -----------------------------------------------------------------------

    @app.websocket("/ws/{game_id}")
    async def socket(
        websocket: WebSocket,
        game_id: GameId,
        token: Annotated[str | None, Query(max_length=MAX_TOKEN)] = None,
        deltas: Annotated[bool, Query()] = False,
    ) -> None:
        if not origin_allowed(websocket.scope["headers"], limits.allowed_origins):
            # Another site's page opening a socket as its visitor: refused at the handshake.
            await websocket.close(code=1008)
            return
        client = address(websocket)
        if not sockets.enter(client):
            await websocket.accept()
            await websocket.send_json(
                ws_error(
                    "too-many",
                    f"this address has {limits.sockets_per_address} sockets open already",
                )
            )
            await websocket.close(code=1008)
            return
        try:
            await play_socket(websocket, game_id, token, client, deltas)
        finally:
            sockets.leave(client)

    async def play_socket(
        websocket: WebSocket, game_id: str, token: str | None, client: str, deltas: bool
    ) -> None:
        await websocket.accept()
        try:
            room = await rooms.get(game_id)
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
        rooms.watch(room, watcher)
        try:
            await websocket.send_text(state_text(room, watcher))
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                reply = await handle(room, watcher, client, received)
                if isinstance(reply, str):
                    await websocket.send_text(reply)
                elif reply is not None:
                    await websocket.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            rooms.unwatch(room, watcher)

    async def handle(
        room: Room, watcher: Watcher, client: str, received: Message
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
                await rooms.set_pace(room, message.get("speed"))
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
            refused = await rooms.contribute(room, chair, message.get("nonce"))
            return {"type": "nonce", "accepted": refused is None, "message": refused or ""}
        if kind != "act":
            known = "act, state, seat, nonce, speed, ping"
            return ws_error("bad-request", f"unknown message type {kind!r} ({known})")
        action, ply = message.get("action"), message.get("ply")
        if not isinstance(action, str) or not isinstance(ply, int) or isinstance(ply, bool):
            return ws_error(
                "bad-request", "an act message needs 'action' (text) and 'ply' (number)"
            )
        try:
            clients.move(client)
            clients.move_by(seat_key(room, chair))
            await rooms.submit(room, chair, action, ply)
        except Rejected as exc:
            return ws_error(exc.code, exc.message, exc.retry_after)
        except Exception:  # the store failed: the move was not applied, the socket stays open
            log.exception("game %s: could not make move %r", room.live.id, action)
            return ws_error("server-error", SERVER_ERROR)
        return None

    return app


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes, by their declared length or as they
    arrive (a chunked body has no length), and JSON nested deeper than MAX_JSON_DEPTH,
    before any handler reads them: the body (at most ``limit`` bytes) is read here first."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send, "too-large")
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > self.limit:
                await self._refuse(scope, receive, send, "too-large")
                return
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        if json_depth(body) > MAX_JSON_DEPTH:
            await self._refuse(scope, receive, send, "too-deep")
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, why: str) -> None:
        if why == "too-large":
            response = error("too-large", f"request bodies are limited to {self.limit} bytes")
        else:
            response = error("bad-request", f"JSON may nest at most {MAX_JSON_DEPTH} levels deep")
        await response(scope, receive, send)


async def seated(
    connection: Request | WebSocket, token: str | None, *, write: bool = False
) -> int | None:
    """The logged-in account to seat when no seat token is given (its chairs, if any)."""
    return None if token else await accounts.seat_account(connection, write=write)


def seat_key(room: Room, chair: Any) -> str | None:
    """What the per-seat move limit counts by (the token's chair, never the token)."""
    return f"{room.live.id}/{chair.name}" if chair is not None else None


def state_text(room: Room, watcher: Watcher) -> str:
    """The whole state message for a socket's chair, as JSON text; a socket taking deltas
    holds it from now on (the next delta starts from its ply)."""
    watcher.seen = room.live.view_mark()
    return room.live.text_for(watcher.chair)


UNENCODABLE = "text in a message must be valid Unicode (not a lone surrogate such as \\ud800)"


def encodable(message: Any) -> bool:
    """Whether every string in a decoded JSON message is valid Unicode (UTF-8 encodable)."""
    try:
        json.dumps(message, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return False
    return True


def ws_error(code: str, message: str, retry_after: int | None = None) -> dict[str, Any]:
    reply: dict[str, Any] = {"type": "error", "error": code, "message": message}
    if retry_after is not None:
        reply["retry_after"] = retry_after
    return reply
