"""``serve``: the web app."""

from __future__ import annotations

from typing import Annotated

import typer

from monsterball.cli.common import (
    app,
    fail,
    make_console,
)
from monsterball.settings import SETTINGS

LIMITS = SETTINGS.limits

# -- serve --------------------------------------------------------------------------------


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = SETTINGS.host,
    port: Annotated[int, typer.Option(help="TCP port.")] = SETTINGS.port,
    db: Annotated[
        str, typer.Option(help="SQLAlchemy URL of the game store (PostgreSQL works too).")
    ] = SETTINGS.db_url,
    max_bot_seconds: Annotated[
        float,
        typer.Option(
            min=0.05,
            help="Most a bot may think per decision; iteration budgets are capped to match "
            f"({SETTINGS.iterations_per_second:,} per second).",
        ),
    ] = LIMITS.max_bot_seconds,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Bots thinking at once (one worker process each); default: the cores but one.",
        ),
    ] = None,
    games_per_minute: Annotated[
        float, typer.Option(min=0, help="New games (and forks) per minute per address; 0: off.")
    ] = LIMITS.games_per_minute,
    moves_per_second: Annotated[
        float, typer.Option(min=0, help="Moves per second per seat token; 0: off.")
    ] = LIMITS.moves_per_second,
    address_moves_per_second: Annotated[
        float, typer.Option(min=0, help="Moves per second per address; 0: off.")
    ] = LIMITS.address_moves_per_second,
    reads_per_second: Annotated[
        float,
        typer.Option(min=0, help="API reads (GET /api/...) per second per address; 0: off."),
    ] = LIMITS.reads_per_second,
    rooms_per_address: Annotated[
        int, typer.Option(min=0, help="Games in progress created per address; 0: no cap.")
    ] = LIMITS.rooms_per_address,
    sockets_per_address: Annotated[
        int, typer.Option(min=0, help="WebSockets open at once per address; 0: no cap.")
    ] = LIMITS.sockets_per_address,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="An origin (https://games.example) whose pages may open sockets, besides the "
            "server's own host; repeat for more."
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="The address of a reverse proxy in front (127.0.0.1, 10.0.0.0/8): only from it "
            "is X-Forwarded-For (and -Proto) believed, so the per-address limits count the "
            "real clients; repeat for more. Default: none, the connection's own address.",
        ),
    ] = None,
    nonce_seconds: Annotated[
        float,
        typer.Option(
            min=0,
            max=60,
            help="How long an online room's first die waits for its seats' random nonces "
            "(contributed dice) before rolling without the missing ones; 0: never waits.",
        ),
    ] = LIMITS.nonce_seconds,
    idle_seconds: Annotated[
        float,
        typer.Option(
            min=0, help="Forget a room nobody has watched or asked about this long; 0: never."
        ),
    ] = LIMITS.idle_seconds,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=1,
            help="Servers on one PostgreSQL: how long a server holds a game's dice and bots "
            "(a killed server's games are taken over after this).",
        ),
    ] = LIMITS.lease_seconds,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes on this port (PostgreSQL only: they share its games).",
        ),
    ] = 1,
    log_level: Annotated[
        str, typer.Option(help="uvicorn's log level (info shows the access log, tokens hidden).")
    ] = SETTINGS.log_level,
) -> None:
    """Serve the web app: play in the browser (hot-seat, against bots, online rooms, replays)."""
    import ipaddress
    import os

    import uvicorn
    from sqlalchemy.engine import make_url

    from monsterball.settings import Limits, default_bot_workers
    from monsterball.web.app import create_app
    from monsterball.web.store.games import Store
    from monsterball.web.workers import SETTINGS_VARIABLE, quiet_tokens, settings_for

    if workers > 1:
        try:
            backend = make_url(db).get_backend_name()
        except Exception:
            backend = "?"
        if backend != "postgresql":
            fail(
                f"--workers {workers} needs a PostgreSQL --db (postgresql+psycopg://...): "
                "the SQLite file is one process's; serve it with one worker"
            )
    for proxy in trusted_proxy or ():
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            fail(f"--trusted-proxy {proxy!r} is not an IP address or network (10.0.0.0/8)")
    limits = Limits(
        games_per_minute=games_per_minute,
        moves_per_second=moves_per_second,
        address_moves_per_second=address_moves_per_second,
        rooms_per_address=rooms_per_address,
        max_bot_seconds=max_bot_seconds,
        # The default pool is shared out between the workers (one core is left to people).
        bot_workers=bot_workers or max(1, default_bot_workers() // workers),
        sockets_per_address=sockets_per_address,
        allowed_origins=tuple(allow_origin or ()),
        idle_seconds=idle_seconds,
        lease_seconds=lease_seconds,
        nonce_seconds=nonce_seconds,
        reads_per_second=reads_per_second,
    )
    try:
        # One process: its app. Several: the store is opened (and migrated) once here, so a
        # bad URL is reported once; each worker then builds its own app.
        application = create_app(db, limits=limits) if workers == 1 else None
        if application is None:
            Store(db).close()
    except Exception as exc:  # a bad URL or an unreachable database: say which
        fail(f"cannot open the game store '{db}': {exc}")
    more = f", {workers} worker processes" if workers > 1 else ""
    make_console().print(f"monsterball: open http://{host}:{port}/ (games stored in {db}{more})")
    quiet_tokens()
    os.environ[SETTINGS_VARIABLE] = settings_for(db, limits)
    # No permessage-deflate: compressing every state message cost more CPU than the whole move
    # (scripts/web_load.py); messages are a few kB.
    uvicorn.run(
        application or "monsterball.web.workers:app_from_settings",
        factory=application is None,
        workers=workers if workers > 1 else None,
        host=host,
        port=port,
        log_level=log_level,
        ws="monsterball.web.workers:LimitedWebSocketProtocol",
        ws_max_size=1 << 16,
        ws_per_message_deflate=False,
        # uvicorn believes X-Forwarded-For from 127.0.0.1 by default: anyone on the machine (or
        # any client, behind a proxy that passes the header on) would choose its address and
        # escape every per-address limit. Only the proxies named are believed.
        proxy_headers=bool(trusted_proxy),
        forwarded_allow_ips=",".join(trusted_proxy) if trusted_proxy else "",
    )
