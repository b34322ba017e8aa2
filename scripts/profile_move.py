"""Server CPU per move, in-process, through the app's real path (``Rooms``/``LiveGame``).

One online room with both seats and one spectator watching: random moves are submitted as a
client would (``Rooms.submit``: check, store in SQLite, apply, dice, broadcast) and every
message is encoded to JSON as the WebSocket does; the watchers take deltas as the browser
client does (``--full``: whole messages, as before deltas). Prints CPU ms per move,
and under ``--profile`` the cProfile split by part (store, state messages, JSON, checking the move).

    python scripts/profile_move.py --game paper-ultimate --moves 400 --profile
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import json
import pstats
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import monsterball.games  # noqa: F401  (registers the games)
from monsterball.web.live.bot_pool import ThinkingPool
from monsterball.web.live.game import Chair
from monsterball.web.live.rooms import Rooms, Watcher
from monsterball.web.store.games import Store

WATCHER_FIELDS = {f.name for f in dataclasses.fields(Watcher)}
HAS_SEND_TEXT = "send_text" in WATCHER_FIELDS
HAS_DELTAS = "deltas" in WATCHER_FIELDS
# cProfile parts of a move: the cumulative time of these functions (file, name).
PARTS = {
    "JSON encoding": ("delta.py", "dumps"),
    "deltas": ("delta.py", "diff"),
    "state messages": ("live.py", "message_for"),
    "checking the move": ("live.py", "check_submission"),
}


STORE_CPU = [0.0]
RECEIVED = [0]  # messages the watchers were sent
START = [0.0]
PROFILER: cProfile.Profile | None = None


async def play(game: str, preset: str | None, moves: int, seed: int, full: bool = False) -> int:
    """Plays up to ``moves`` moves (new games as they end); returns the moves made."""
    path = Path(tempfile.mkdtemp()) / "profile.db"
    store = Store(f"sqlite:///{path}")
    pool = ThinkingPool(1)
    rooms = Rooms(store, pool)
    rng = random.Random(seed)
    made = 0
    append = store.append

    def timed_append(*args: Any, **kwargs: Any) -> None:
        started = time.thread_time()  # in a worker thread: cProfile does not see it
        try:
            append(*args, **kwargs)
        finally:
            STORE_CPU[0] += time.thread_time() - started

    store.append = timed_append  # type: ignore[method-assign]
    try:
        while made < moves:
            room = await rooms.create(
                game=game, preset=preset, options={}, mode="online", coaches=2, bots={}, seed=None
            )

            async def send(message: dict[str, Any]) -> None:
                # As Starlette's WebSocket.send_json encodes it.
                json.dumps(message, separators=(",", ":"), ensure_ascii=False)
                RECEIVED[0] += 1

            async def send_text(text: str) -> None:
                RECEIVED[0] += 1

            chairs: list[Chair | None] = [*room.live.chairs, None]
            for chair in chairs:
                # As the app's sockets watch (web/app.py).
                if HAS_DELTAS and not full:
                    watcher = Watcher(chair, send, send_text, deltas=True)
                    await send_text(room.live.text_for(chair))  # the first, whole message
                    watcher.seen = room.live.view_mark()
                    rooms.watch(room, watcher)
                elif HAS_SEND_TEXT:
                    rooms.watch(room, Watcher(chair, send, send_text))
                else:  # an older server (to compare with): messages as dicts
                    rooms.watch(room, Watcher(chair, send))
            if made == 0:  # the first game's set-up (tables, caches) is not a move's cost
                START[0] = time.process_time()
                STORE_CPU[0] = 0.0
                if PROFILER:
                    PROFILER.enable()
            while made < moves and not room.live.state.is_terminal():
                acting = room.live.acting_chair()
                assert acting is not None
                message = room.live.message_for(acting)  # what its socket was sent
                choice = rng.choice(message["legal"])["a"]
                await rooms.submit(room, acting, choice, message["game"]["ply"])
                made += 1
    finally:
        pool.close()
        store.close()
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="paper-ultimate")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile split by part")
    parser.add_argument("--full", action="store_true", help="whole messages, not deltas")
    parser.add_argument("--top", type=int, default=0, help="also print the N costliest calls")
    parser.add_argument("--dump", type=Path, help="also write the cProfile stats here")
    args = parser.parse_args()
    global PROFILER
    # A CPU clock of the event loop's thread: time waiting in epoll is not a move's cost.
    profiler = PROFILER = cProfile.Profile(time.thread_time) if args.profile else None
    made = asyncio.run(play(args.game, args.preset, args.moves, args.seed, args.full))
    if profiler:
        profiler.disable()
    cpu = time.process_time() - START[0]
    note = " (inflated by the profiler)" if profiler else ""
    print(f"{args.game}: {made} moves, {1000 * cpu / made:.3f} ms CPU per move{note}")
    print(f"  {'store (SQLite)':24} {1000 * STORE_CPU[0] / made:7.3f} ms/move")
    if profiler:
        if args.dump:
            profiler.dump_stats(args.dump)
        stats = pstats.Stats(profiler)
        raw = stats.stats  # type: ignore[attr-defined]
        for part, (filename, name) in PARTS.items():
            cum = sum(
                row[3]
                for (file, _line, func), row in raw.items()
                if file.endswith(filename) and func == name
            )
            print(f"  {part:24} {1000 * cum / made:7.3f} ms/move")
        if args.top:
            stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
