"""Load test: many concurrent games over WebSockets against a local server.

Each game is an online room with a random-playing client per seat; a client sends a move when
its seat is to act (after --think seconds, about, to play at a person's pace) and times the
wait until the server's next state reaches it. --hard-bots N adds N rooms where two `hard`
bots play each other, so bots think all the time. Prints moves per second and the latency
percentiles (also as JSON with --json). Starts its own `monsterball serve` (per-client limits
off, --bot-workers passed on) on a temporary SQLite file, or on the database URL --db names
(--servers N: N servers on it), unless --url names running servers. With several servers,
rooms are spread over them (each room's clients on the server that created it), or with
--spread clients each seat's client goes to the next server (for servers that share rooms).

    python scripts/web_load.py --games 40 --seconds 30 --game paper-ultimate
    python scripts/web_load.py --games 20 --think 1 --hard-bots 20 --seconds 60
    python scripts/web_load.py --url http://127.0.0.1:8000 --url http://127.0.0.1:8001
    python scripts/web_load.py --db postgresql+psycopg://localhost/mb --servers 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from web_helpers import NO_CLIENT_LIMIT_FLAGS, server

try:
    from monsterball.web.delta import apply
except ImportError:  # an older monsterball (to compare with) sends whole states only
    apply = None  # type: ignore[assignment]


def received(text: str | bytes, held: dict | None) -> dict:
    """The message a client holds after ``text``: a state, an error, or a delta applied to
    the state it held (which must be the delta's base: the server tracks what it sent)."""
    message = json.loads(text)
    if message.get("type") != "delta":
        return message
    if apply is None or held is None or held["game"]["ply"] != message["from"]:
        got = None if held is None else held["game"]["ply"]
        raise RuntimeError(f"a delta from ply {message['from']} reached a client at {got}")
    return apply(held, message["ops"], in_place=True)


async def seat_client(
    url: str, rng: random.Random, latencies: list[float], stop: float, think: float
) -> int:
    """Plays one seat until the game ends or time is up; returns the moves it made."""
    moves = 0
    async with connect(url, max_size=1 << 22) as ws:
        message = received(await ws.recv(), None)
        while time.monotonic() < stop:
            if message.get("type") == "state" and message["game"]["status"] == "finished":
                break
            if message.get("type") == "state" and message["legal"]:
                ply = message["game"]["ply"]
                choice = rng.choice(message["legal"])["a"]
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": choice, "ply": ply}))
                while True:
                    message = received(await ws.recv(), message)
                    if message.get("type") == "error":
                        raise RuntimeError(message["message"])
                    if message["game"]["ply"] > ply:
                        break
                latencies.append(time.perf_counter() - sent)
                moves += 1
            else:
                try:
                    text = await asyncio.wait_for(ws.recv(), stop - time.monotonic())
                    message = received(text, message)
                except TimeoutError:
                    break
    return moves


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


async def run(
    bases: list[str], args: argparse.Namespace, pids: list[int] | None = None
) -> dict[str, object]:
    """``pids``: the servers' processes (when this script started them), to count their CPU."""
    latencies: list[float] = []
    base = bases[0]
    rooms: list[tuple[int, dict[str, object]]] = []  # (the server it was made on, the room)
    for i in range(args.games):
        home = i % len(bases)
        async with httpx.AsyncClient(base_url=bases[home], timeout=30) as http:
            made = await http.post(
                "/api/games", json={"game": args.game, "preset": args.preset, "mode": "online"}
            )
            made.raise_for_status()
            rooms.append((home, made.json()))
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        bot_rooms = []
        for _ in range(args.hard_bots):
            made = await http.post(
                "/api/games",
                json={"game": args.game, "mode": "bot", "bots": {"A": "hard", "B": "hard"}},
            )
            made.raise_for_status()
            bot_rooms.append(made.json()["id"])
        bot_plies_before = [await bot_ply(http, gid) for gid in bot_rooms]
    started = time.monotonic()
    cpu_before = cpu_seconds(pids) if pids else 0.0
    stop = started + args.seconds
    tasks = []
    for i, (home, room) in enumerate(rooms):
        for j, chair in enumerate(room["chairs"]):  # type: ignore[arg-type]
            at = home if args.spread == "rooms" else (home + j) % len(bases)
            ws_base = bases[at].replace("http", "ws", 1)
            deltas = "" if args.full else "&deltas=1"
            tasks.append(
                seat_client(
                    f"{ws_base}/ws/{room['id']}?token={chair['token']}{deltas}",
                    random.Random(f"{i}-{chair['name']}"),
                    latencies,
                    stop,
                    args.think,
                )
            )
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [o for o in outcomes if isinstance(o, BaseException)]
    results = [o for o in outcomes if not isinstance(o, BaseException)]
    elapsed = time.monotonic() - started
    server_cpu = cpu_seconds(pids) - cpu_before if pids else None
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        bot_plies = [await bot_ply(http, gid) for gid in bot_rooms]
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else 0.0

    return {
        "servers": len(bases),
        "game": args.game,
        "preset": args.preset,
        "games": args.games,
        "clients": len(tasks),
        "think_seconds": args.think,
        "deltas": not args.full,
        "hard_bot_rooms": args.hard_bots,
        "bot_room_moves": sum(bot_plies) - sum(bot_plies_before),
        "seconds": round(elapsed, 2),
        "moves": sum(results),
        "failed_clients": len(failures),
        "first_failure": repr(failures[0]) if failures else None,
        "moves_per_second": round(sum(results) / elapsed, 1),
        # The servers' own CPU per move (bot workers aside): unlike the rates, it hardly
        # depends on what else the machine runs. Only for servers this script started.
        "server_cpu_ms_per_move": (
            round(1000 * server_cpu / sum(results), 3)
            if server_cpu is not None and sum(results)
            else None
        ),
        "latency_ms": {
            "p50": round(pct(0.50), 2),
            "p90": round(pct(0.90), 2),
            "p99": round(pct(0.99), 2),
            "mean": round(statistics.fmean(ordered) * 1000, 2) if ordered else 0.0,
        },
    }


async def bot_ply(http: httpx.AsyncClient, game_id: str) -> int:
    return int((await http.get(f"/api/games/{game_id}")).json()["game"]["ply"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--url",
        action="append",
        help="a running server; repeat (or separate by commas) for several (default: start one)",
    )
    parser.add_argument(
        "--db", help="start the servers on this database URL (default: a temporary SQLite file)"
    )
    parser.add_argument("--servers", type=int, default=1, help="servers to start on --db")
    parser.add_argument(
        "--spread",
        choices=("rooms", "clients"),
        default="rooms",
        help="several servers: each room on one (rooms) or each seat on the next (clients)",
    )
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="paper-ultimate")
    parser.add_argument("--preset", default=None)
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds a client waits before a move (about)"
    )
    parser.add_argument(
        "--hard-bots", type=int, default=0, help="rooms of two hard bots, thinking all the time"
    )
    parser.add_argument(
        "--bot-workers", type=int, default=None, help="the server's bot pool (serve's flag)"
    )
    parser.add_argument(
        "--full", action="store_true", help="clients take whole states, not deltas (docs/web.md)"
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if args.url:
        if args.db:
            parser.error("--db starts servers; --url uses running ones: give one of them")
        urls = [u.strip().rstrip("/") for given in args.url for u in given.split(",") if u.strip()]
        results = asyncio.run(run(urls, args))
    else:
        if args.servers < 1:
            parser.error("--servers must be at least 1")
        flags = list(NO_CLIENT_LIMIT_FLAGS)
        if args.bot_workers:
            flags += ["--bot-workers", str(args.bot_workers)]
        db: Path | str = args.db or Path(tempfile.mkdtemp()) / "load.db"
        with contextlib.ExitStack() as stack:
            started = [stack.enter_context(server(db, flags=flags)) for _ in range(args.servers)]
            bases = [base for base, _ in started]
            results = asyncio.run(run(bases, args, [proc.pid for _, proc in started]))
        results["bot_workers"] = args.bot_workers or "default"
        results["db"] = args.db or "temporary SQLite file"
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
