"""The web app (docs/web.md): ``create_app(db_url)`` wires the routers of web/api/, the
hardening middleware and the services they share over its own store, so tests run many
servers side by side and a restart is just a new app over the same database."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from monsterball.settings import SETTINGS, Limits
from monsterball.web.api import (
    abandon,
    accounts,
    challenges,
    chat,
    draws,
    game_socket,
    games,
    learn,
    pages,
    pairing,
    player_pages,
    ratings,
    server_status,
    takeback,
    ui,
)
from monsterball.web.api.errors import add_error_handlers, error, refusal, server_error
from monsterball.web.api.openapi import install as install_schema
from monsterball.web.api.services import Services, services_of
from monsterball.web.cluster.site import Cluster, janitor
from monsterball.web.hardening.gc_timer import collect_on_a_timer
from monsterball.web.hardening.limits import ClientLimits
from monsterball.web.hardening.security import (
    BodyLimit,
    ReadLimit,
    SecurityHeaders,
    ServerErrors,
    SocketCounter,
)
from monsterball.web.live.bot_pool import ThinkingPool
from monsterball.web.live.game import wall_ms
from monsterball.web.live.rooms import Rooms
from monsterball.web.store.games import Store

MAX_BODY_BYTES = 64 * 1024
MAX_MESSAGE_BYTES = game_socket.MAX_MESSAGE_BYTES
STATIC = resources.files("monsterball.web") / "static"


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
    limits = limits or SETTINGS.limits
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
    app = FastAPI(title="monsterball", lifespan=lifespan)
    app.state.services = Services(
        store=store,
        rooms=rooms,
        pool=pool,
        cluster=cluster,
        limits=limits,
        clients=clients,
        sockets=SocketCounter(limits.sockets_per_address),
        lobby_sockets=SocketCounter(limits.sockets_per_address),
        trust_client_players=trust_client_players,
    )
    # Innermost: a failure no handler took is answered 500 here, the connection kept.
    app.add_middleware(ServerErrors, answer=server_error)
    app.add_middleware(ReadLimit, take=clients.read, answer=refusal)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, answer=error)
    app.add_middleware(SecurityHeaders)  # outermost: its headers go on every answer
    add_error_handlers(app)

    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    for people_routes in (accounts, challenges, pairing, draws, chat, player_pages):
        app.include_router(people_routes.router)

    # The browser client's own routes (rules pages, rematch, odds), the teaching pages (issue
    # 33), takeback and abandoned games (issue 32), ratings and the server's status.
    for client_routes in (ui, learn, takeback, abandon, ratings, server_status):
        app.include_router(client_routes.router)
    install_schema(app)  # the OpenAPI schema as the API answers (web/api/openapi.py)
    app.include_router(games.router)  # the game API (docs/web.md, "API")
    app.include_router(game_socket.router)
    return app


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    own = services_of(app)
    rooms, cluster = own.rooms, own.cluster
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
    own.pool.close()
    own.store.close()
