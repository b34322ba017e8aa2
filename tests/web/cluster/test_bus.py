"""The move bus (web/cluster/bus.py) on a throw-away PostgreSQL: a server hears the other servers'
moves with the moves they brought, not its own, and when its listening connection is cut it
reconnects, says so (so its rooms catch up) and hears the moves sent after."""

from __future__ import annotations

import asyncio

import psycopg
import pytest
from sqlalchemy.engine import make_url

from monsterball.web.cluster.bus import CHANNEL, Bus, payload
from monsterball.web.store.games import StoredMove
from monsterball.web.store.pg_append import libpq_url


async def wait_for(condition, seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)


def test_a_server_hears_the_others_moves_and_reconnects_when_cut_off(postgres_url):
    url = make_url(postgres_url)
    heard: list[tuple[str, int, list[StoredMove]]] = []
    connects: list[int] = []
    bus = Bus(url, "me", lambda *move: heard.append(move), lambda: connects.append(1))
    bus_pids: list[int] = []

    async def scenario() -> None:
        task = asyncio.create_task(bus.run())
        async with await psycopg.AsyncConnection.connect(libpq_url(url), autocommit=True) as other:

            async def notify(game: str, moves: list[StoredMove], server: str) -> None:
                await other.execute(
                    "SELECT pg_notify(%s, %s)", (CHANNEL, payload(game, moves, server))
                )

            await asyncio.wait_for(bus.connected.wait(), 10)
            await notify("g1", [StoredMove(1, "A", "a1")], "other")
            await notify("g1", [StoredMove(2, "B", "b2")], "me")  # its own: not passed on
            await notify("g2", [StoredMove(4, "chance", "roll 6"), StoredMove(5, "A", "x")], "o")
            await wait_for(lambda: len(heard) == 2)
            assert heard == [
                ("g1", 1, [StoredMove(1, "A", "a1")]),
                ("g2", 5, [StoredMove(4, "chance", "roll 6"), StoredMove(5, "A", "x")]),
            ]
            # Its listening connection is cut (a database restart, a network fault).
            cursor = await other.execute(
                "SELECT pid FROM pg_stat_activity WHERE query LIKE %s", (f"LISTEN {CHANNEL}%",)
            )
            bus_pids.extend(pid for (pid,) in await cursor.fetchall())
            assert len(bus_pids) == 1
            await other.execute("SELECT pg_terminate_backend(%s)", (bus_pids[0],))
            await wait_for(lambda: bus.reconnects == 1 and bus.connected.is_set())
            assert connects == [1, 1]  # its rooms are told to catch up
            await notify("g3", [StoredMove(7, "B", "late")], "other")
            await wait_for(lambda: len(heard) == 3)
            assert heard[-1] == ("g3", 7, [StoredMove(7, "B", "late")])
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
