"""Server CPU per move on PostgreSQL against SQLite, in-process, through the app's real path.

One server's ``Rooms`` (with its ``Cluster``, bus listener and leases on PostgreSQL, as
``monsterball serve`` makes them) plays online rooms with both seats and one spectator
watching: random moves are submitted as a client would (``Rooms.submit``: check, store,
apply, dice, broadcast), and messages are encoded as the sockets do. Runs alternate between a
throw-away PostgreSQL cluster (tests/helpers/web.py) and a temporary SQLite file, so the
ratio is taken under the same machine load. Prints CPU ms per move of this process (the
database server's own CPU is not counted, as web_load.py does not count it); ``--profile``:
cProfile on a CPU clock with the worker threads' calls made inline (so it sees the store's
work), the costliest calls by own time.

    python scripts/profile_pg_move.py --moves 600 --rounds 2
    python scripts/profile_pg_move.py --moves 600 --rounds 1 --profile --top 25
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import itertools
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio.to_thread

import monsterball.games  # noqa: F401  (registers the games)
from monsterball.web.cluster.site import Cluster
from monsterball.web.live.bot_pool import ThinkingPool
from monsterball.web.live.game import Chair
from monsterball.web.live.rooms import Rooms, Watcher
from monsterball.web.store.games import Store

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers
from tests.helpers.web import scratch_postgres


async def _inline(func: Callable[..., Any], *args: Any, **_kwargs: Any) -> Any:
    return func(*args)


async def play(
    url: str, game: str, moves: int, seed: int, profiler: cProfile.Profile | None
) -> tuple[int, float]:
    """Plays ``moves`` moves (new games as they end): (moves made, CPU seconds spent)."""
    store = Store(url)
    pool = ThinkingPool(1)
    cluster = Cluster(store) if store.shared else None
    seeds = itertools.count(seed)  # both databases see the same games and moves
    rooms = Rooms(store, pool, cluster=cluster, new_seed=lambda: next(seeds))
    tasks = cluster.start(rooms) if cluster is not None else []
    if cluster is not None:
        assert cluster.bus is not None
        await asyncio.wait_for(cluster.bus.connected.wait(), 30)
    rng = random.Random(seed)
    made, started = 0, 0.0
    try:
        while made < moves:
            room = await rooms.create(
                game=game, preset=None, options={}, mode="online", coaches=2, bots={}, seed=None
            )

            async def send(message: dict[str, Any]) -> None:
                pass

            async def send_text(text: str) -> None:
                pass

            chairs: list[Chair | None] = [*room.live.chairs, None]
            for chair in chairs:  # as the app's sockets watch (web/app.py)
                watcher = Watcher(chair, send, send_text, deltas=True)
                await send_text(room.live.text_for(chair))
                watcher.seen = room.live.view_mark()
                rooms.watch(room, watcher)
            if made == 0:  # the first game's set-up (tables, caches) is not a move's cost
                started = time.process_time()
                if profiler:
                    profiler.enable()
            while made < moves and not room.live.state.is_terminal():
                acting = room.live.acting_chair()
                assert acting is not None
                message = room.live.message_for(acting)
                choice = rng.choice(message["legal"])["a"]
                await rooms.submit(room, acting, choice, message["game"]["ply"])
                await asyncio.sleep(0)  # the bus hears this server's own notification
                made += 1
        await asyncio.sleep(0.05)
        spent = time.process_time() - started
        if profiler:
            profiler.disable()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pool.close()
        store.close()
    return made, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="paper-ultimate")
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--dump", help="write the profiles to DUMP.postgresql, DUMP.sqlite")
    args = parser.parse_args()
    if args.profile:
        anyio.to_thread.run_sync = _inline  # type: ignore[assignment]
    with scratch_postgres() as pg_url:
        for round_ in range(1, args.rounds + 1):
            figures = {}
            for name in ("postgresql", "sqlite"):
                url = pg_url if name == "postgresql" else f"sqlite:///{tempfile.mkdtemp()}/p.db"
                profiler = cProfile.Profile(time.process_time) if args.profile else None
                made, spent = asyncio.run(play(url, args.game, args.moves, args.seed, profiler))
                figures[name] = 1000 * spent / made
                note = " (inflated by the profiler)" if profiler else ""
                print(f"round {round_} {name:10}: {made} moves, {figures[name]:.3f} ms/move{note}")
                if profiler and args.dump:
                    profiler.dump_stats(f"{args.dump}.{name}")
                if profiler:
                    stats = pstats.Stats(profiler)
                    stats.sort_stats("tottime").print_stats(args.top)
                    stats.sort_stats("cumulative").print_stats(args.top)
            ratio = figures["postgresql"] / figures["sqlite"]
            print(f"round {round_}: PostgreSQL / SQLite = {ratio:.2f}")


if __name__ == "__main__":
    main()
