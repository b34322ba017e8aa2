"""``GET /api/server``: what one server holds and does, for monitoring (docs/web.md,
"Several servers"). Counts since the server started; nothing secret (no game ids)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter

from monsterball.web.api.services import Own

router = APIRouter()


@router.get("/api/server")
async def server_status(own: Own) -> dict[str, Any]:
    now = time.monotonic()
    rooms, pool, cluster = own.rooms, own.pool, own.cluster
    bus = cluster.bus if cluster is not None else None
    return {
        "server": cluster.server if cluster is not None else None,
        "shared": cluster is not None,
        "uptime_seconds": round(now - own.started, 1),
        "rooms": len(rooms.rooms),
        "watchers": sum(len(r.watchers) for r in rooms.rooms.values()),
        "leases_held": sum(1 for r in rooms.rooms.values() if r.lease_until > now),
        "listening": bus.connected.is_set() if bus is not None else None,
        "bus_reconnects": bus.reconnects if bus is not None else None,
        "bot_decisions": pool.decisions,
        "bots_cut_off": pool.cut_off,
        "counts": {
            **rooms.counts,
            **(cluster.counts if cluster is not None else {}),
            **rooms.store.counts(),
        },
    }
