"""`monsterball serve --workers N`: N server processes on one port, started by uvicorn.

uvicorn's supervisor binds the port once and starts N worker processes that share the
listening socket (the kernel hands each new connection to one of them), and starts a worker
again if one dies. Each worker is a whole server (its own rooms, bot pool and bus listener)
over the same PostgreSQL, so they act as one site like servers on several machines
(web/cluster/site.py); a client's requests and sockets may reach different workers.

A spawned worker cannot be handed the app or a class made at run time, so it builds both
from here: the settings come through the environment (``SETTINGS_VARIABLE``).

uvicorn's workers do not notice their supervisor dying (a SIGKILL, the OOM killer): left
alone they would go on holding the port and moving bot games, a server nobody runs or can
stop. Each worker watches its parent and, once it is gone, stops itself the graceful way
(SIGTERM: what is being stored is stored, the bot pool is closed). A graceful stop can
hang behind a bot's long search on a loaded machine, so a worker still there
``GRACE_SECONDS`` later ends at once: every move is already stored when it is made.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
import time
from dataclasses import asdict
from typing import Any

from fastapi import FastAPI

from monsterball.settings import Limits
from monsterball.web.app import MAX_MESSAGE_BYTES, create_app
from monsterball.web.hardening.frames import message_limited_protocol
from monsterball.web.hardening.security import RedactTokens

SETTINGS_VARIABLE = "MONSTERBALL_SERVE"  # the environment variable the workers read
SUPERVISOR_CHECK_SECONDS = 1.0
GRACE_SECONDS = 10.0  # after the SIGTERM, before the worker ends without ceremony
# uvicorn imports this by name in each worker ("monsterball.web.workers:LimitedWebSocketProtocol").
LimitedWebSocketProtocol = message_limited_protocol(MAX_MESSAGE_BYTES)


def settings_for(db: str, limits: Limits) -> str:
    return json.dumps({"db": db, "limits": asdict(limits)})


def quiet_tokens() -> None:
    for name in ("uvicorn.access", "uvicorn.error"):  # seat tokens never reach a log
        logging.getLogger(name).addFilter(RedactTokens())


def app_from_settings() -> FastAPI:
    """The app of one worker (uvicorn's factory), from the settings the parent left."""
    settings: dict[str, Any] = json.loads(os.environ[SETTINGS_VARIABLE])
    limits = settings["limits"]
    limits["allowed_origins"] = tuple(limits["allowed_origins"])
    quiet_tokens()
    stop_with_supervisor(os.getppid())
    return create_app(settings["db"], limits=Limits(**limits))


def stop_with_supervisor(
    supervisor: int, every: float = SUPERVISOR_CHECK_SECONDS, grace: float = GRACE_SECONDS
) -> None:
    """SIGTERM this process once ``supervisor`` is no longer its parent (it died, and the
    worker was handed to init); end it outright if it is still running ``grace`` later."""

    def watch() -> None:
        while os.getppid() == supervisor:
            time.sleep(every)
        logging.getLogger(__name__).warning("the supervisor is gone: this worker stops")
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(grace)
        logging.getLogger(__name__).warning("the graceful stop hung: this worker ends now")
        os._exit(1)

    threading.Thread(target=watch, name="supervisor-watch", daemon=True).start()
