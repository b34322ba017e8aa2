"""``serve``: the web app."""

from __future__ import annotations

from typing import Annotated

import typer

from monsterball.cli.common import (
    _console,
    _fail,
    app,
)

# -- serve --------------------------------------------------------------------------------


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLAlchemy URL of the game store (PostgreSQL works too).")
    ] = "sqlite:///monsterball.db",
) -> None:
    """Serve the web app: play in the browser (hot-seat, against bots, online rooms, replays)."""
    import uvicorn

    from monsterball.web.app import create_app

    try:
        application = create_app(db)
    except Exception as exc:  # a bad URL or an unreachable database: say which
        _fail(f"cannot open the game store '{db}': {exc}")
    _console().print(f"monsterball: open http://{host}:{port}/ (games stored in {db})")
    # No permessage-deflate: compressing every state message cost more CPU than the whole move
    # (scripts/web_load.py); messages are a few kB.
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=1 << 16,
        ws_per_message_deflate=False,
    )
