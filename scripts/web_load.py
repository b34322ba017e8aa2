"""Load test: many concurrent games over WebSockets against a local server.

Each game is an online room with a random-playing client per seat; a client sends a move when
its seat is to act (after --think seconds, about, to play at a person's pace) and times the
wait until the server's next state reaches it. --hard-bots N adds N rooms where two `hard`
bots play each other, so bots think all the time. Prints moves per second and the latency
percentiles (also as JSON with --json). Starts its own `monsterball serve` (per-client limits
off, --bot-workers passed on) on a temporary SQLite file, or on the database URL --db names
(--servers N: N servers on it; --postgres: on a throw-away PostgreSQL cluster), unless --url
names running servers; --server-cores C limits each server it starts to C CPUs (a cgroup,
as root), so that a scaling run measures servers, not the machine they share. --watchers K
adds K spectators per room (on another server than the room's first); after the run the
store is checked: every acknowledged move stored once in its place (``lost_moves``,
``unacknowledged_moves``), every game replays, every watcher listed every move
(``watcher_missed_moves``). With several servers, rooms are spread over them (each room's
clients on the server that created it), or with --spread clients each seat's client goes to
the next server (for servers that share rooms).

    python scripts/web_load.py --games 40 --seconds 30 --game paper-ultimate
    python scripts/web_load.py --games 20 --think 1 --hard-bots 20 --seconds 60
    python scripts/web_load.py --url http://127.0.0.1:8000 --url http://127.0.0.1:8001
    python scripts/web_load.py --db postgresql+psycopg://localhost/mb --servers 2
    python scripts/web_load.py --postgres --servers 2 --spread clients --watchers 1
    python scripts/web_load.py --postgres --servers 2 --server-cores 0.5 --watchers 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers
from tests.helpers.web import NO_CLIENT_LIMIT_FLAGS, scratch_postgres, server


class Tally:
    """What one room's clients saw: the moves acknowledged to its seats (stored move number
    -> action), when each was sent, and each watcher's view."""

    def __init__(self) -> None:
        self.acked: dict[int, str] = {}
        self.sent_at: dict[int, float] = {}  # stored move number -> when its client sent it
        self.watchers: list[Watched] = []


class Watched:
    def __init__(self) -> None:
        self.plies: set[int] = set()  # moves the watcher's messages listed (log entries)
        self.first_seen: dict[int, float] = {}  # game ply -> when a message first showed it
        self.last_ply = 0


try:
    from monsterball.web.live.delta import apply
except ImportError:  # an older monsterball (to compare with) sends whole states only
    apply = None  # type: ignore[assignment]


def received(text: str | bytes, held: dict | None) -> dict:
    """The message a client holds after ``text``: a state, an error, or a delta applied to
    the state it held (which must be the delta's base: the server tracks what it sent).
    Clients share the server's cores: they read frames as bytes and parse them with orjson,
    and keep one message, changed in place by each delta."""
    message = orjson.loads(text)
    if message.get("type") != "delta":
        return message
    if apply is None or held is None or held["game"]["ply"] != message["from"]:
        got = None if held is None else held["game"]["ply"]
        raise RuntimeError(f"a delta from ply {message['from']} reached a client at {got}")
    return apply(held, message["ops"], in_place=True)


async def seat_client(
    url: str,
    rng: random.Random,
    latencies: list[float],
    stop: float,
    think: float,
    tally: Tally | None = None,
    delay: float = 0.0,
) -> int:
    """Plays one seat until the game ends or time is up; returns the moves it made."""
    moves = 0
    await asyncio.sleep(delay)  # --ramp: clients arrive over time, not all at once
    async with connect(url, max_size=1 << 22, compression=None) as ws:
        message = received(await ws.recv(decode=False), None)
        while time.monotonic() < stop:
            if message.get("type") == "state" and message["game"]["status"] == "finished":
                break
            if message.get("type") == "state" and message["legal"]:
                ply = message["game"]["ply"]
                choice = rng.choice(message["legal"])["a"]
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent = time.perf_counter()
                if tally is not None:
                    tally.sent_at[ply + 1] = sent
                await ws.send(
                    orjson.dumps({"type": "act", "action": choice, "ply": ply}), text=True
                )
                while True:
                    message = received(await ws.recv(decode=False), message)
                    if message.get("type") == "error":
                        raise RuntimeError(message["message"])
                    if message["game"]["ply"] > ply:
                        break
                latencies.append(time.perf_counter() - sent)
                moves += 1
                if tally is not None:  # online rooms start at ply 0: move n is ply n
                    tally.acked[ply + 1] = choice
            else:
                try:
                    # (a timeout, not wait_for: that makes a task per message)
                    async with asyncio.timeout(stop - time.monotonic()):
                        text = await ws.recv(decode=False)
                except TimeoutError:
                    break
                message = received(text, message)
    return moves


async def watch_client(url: str, watched: Watched, stop: float) -> None:
    """A spectator: notes every move its messages list, and when it first saw each ply."""
    async with connect(url, max_size=1 << 22, compression=None) as ws:
        while True:
            try:
                async with asyncio.timeout(stop - time.monotonic()):
                    text = await ws.recv(decode=False)
            except TimeoutError:
                return
            message = orjson.loads(text)
            if message.get("type") != "state":
                continue
            now = time.perf_counter()
            ply = message["game"]["ply"]
            for entry in message["log"]:
                watched.plies.add(entry["ply"])
            for p in range(watched.last_ply + 1, ply + 1):
                watched.first_seen.setdefault(p, now)
            watched.last_ply = max(watched.last_ply, ply)
            if message["game"]["status"] == "finished":
                return


def check_store(db_url: str, rooms: list[tuple[str, Tally]]) -> dict[str, int]:
    """Every acknowledged move stored once at its place, every stored game replays, and
    every watcher saw every move (read from the store after the run)."""
    import monsterball.games  # noqa: F401  (registers the games)
    from monsterball.web.live.game import LiveGame
    from monsterball.web.store.games import Store

    store = Store(db_url)
    found = {"lost_moves": 0, "unacknowledged_moves": 0, "unreplayable_games": 0}
    found["watcher_missed_moves"] = 0
    try:
        for gid, tally in rooms:
            row = store.get(gid)
            moves = store.moves(gid)
            stored = {m.ply: m.action for m in moves if m.by != "chance"}
            found["lost_moves"] += sum(1 for p, a in tally.acked.items() if stored.get(p) != a)
            found["unacknowledged_moves"] += sum(1 for p in stored if p not in tally.acked)
            try:
                assert row is not None and row.plies == len(moves)
                LiveGame.load(row, moves)
            except Exception:
                found["unreplayable_games"] += 1
            for watched in tally.watchers:
                found["watcher_missed_moves"] += sum(
                    1 for m in moves if m.ply <= watched.last_ply and m.ply not in watched.plies
                )
    finally:
        store.close()
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def _stat(pid: int | str) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def postmaster_pid(db_url: str) -> int:
    """The PostgreSQL server's main process (a backend's parent), on this machine."""
    import psycopg
    from sqlalchemy.engine import make_url

    # (not web/store/pg_append.py's libpq_url: the script also measures older servers' code)
    dsn = make_url(db_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn) as connection:
        row = connection.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    return int(_stat(row[0])[1])  # ppid


def database_cpu_seconds(postmaster: int) -> float:
    """User + system CPU time of a PostgreSQL server so far: its main process, the children
    it has reaped (backends that ended) and those alive (backends, WAL writer, ...)."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = _stat(postmaster)
    total = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                child = _stat(entry.name)
            except OSError:  # ended meanwhile
                continue
            if int(child[1]) == postmaster:
                total += int(child[11]) + int(child[12])
    return total / ticks


def machine_busy_seconds() -> tuple[float, float]:
    """All cores' busy and total time so far (/proc/stat), to tell how much was idle."""
    ticks = os.sysconf("SC_CLK_TCK")
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values) - idle) / ticks, sum(values) / ticks


async def run(
    bases: list[str],
    args: argparse.Namespace,
    pids: list[int] | None = None,
    db_url: str | None = None,
    postmaster: int | None = None,
) -> dict[str, object]:
    """``pids``: the servers' processes (when this script started them), to count their CPU;
    ``db_url``: their store, to check every move against after the run; ``postmaster``: its
    PostgreSQL server's main process (when this script started it), to count its CPU too."""
    # The clients' own cyclic collector paused this process for 100-300 ms at a time with
    # 2,000 sockets open (a loop-lag probe showed it), and those pauses counted as the
    # server's latency: a run is short, so its clients go without the collector.
    gc.disable()
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
    db_cpu_before = database_cpu_seconds(postmaster) if postmaster else 0.0
    busy_before, all_before = machine_busy_seconds()
    own_before = time.process_time()
    stop = started + args.ramp + args.seconds
    arrivals = random.Random("arrivals")
    tasks = []
    tallies: list[tuple[str, Tally]] = []
    watchers = []
    for i, (home, room) in enumerate(rooms):
        tally = Tally()
        tallies.append((str(room["id"]), tally))
        for k in range(args.watchers):  # on the other servers first
            at = (home + 1 + k) % len(bases)
            watched = Watched()
            tally.watchers.append(watched)
            ws_base = bases[at].replace("http", "ws", 1)
            watchers.append(watch_client(f"{ws_base}/ws/{room['id']}", watched, stop + 5))
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
                    tally,
                    arrivals.uniform(0, args.ramp),
                )
            )
    watching = asyncio.gather(*watchers, return_exceptions=True)
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [o for o in outcomes if isinstance(o, BaseException)]
    results = [o for o in outcomes if not isinstance(o, BaseException)]
    elapsed = time.monotonic() - started
    server_cpu = cpu_seconds(pids) - cpu_before if pids else None
    db_cpu = database_cpu_seconds(postmaster) - db_cpu_before if postmaster else None
    client_cpu = time.process_time() - own_before
    busy_after, all_after = machine_busy_seconds()
    await asyncio.sleep(1.0)  # the last moves reach the watchers
    for task in asyncio.all_tasks():
        if task is not asyncio.current_task() and not task.done():
            task.cancel()
    watcher_failures = [o for o in await watching if isinstance(o, Exception)]
    lags = sorted(
        watched.first_seen[p] - tally.sent_at[p]
        for _, tally in tallies
        for watched in tally.watchers
        for p in tally.acked
        if p in watched.first_seen and p in tally.sent_at
    )
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        bot_plies = [await bot_ply(http, gid) for gid in bot_rooms]
    ordered = sorted(latencies)

    def pct(p: float, values: list[float] = ordered) -> float:
        return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else 0.0

    checks = check_store(db_url, tallies) if db_url else {}

    return {
        "servers": len(bases),
        "game": args.game,
        "preset": args.preset,
        "games": args.games,
        "clients": len(tasks),
        "think_seconds": args.think,
        "deltas": not args.full,
        "ramp_seconds": args.ramp,
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
        # The same for the PostgreSQL server the script started (all its processes), for
        # this script's clients, and the share of the machine's cores busy (anyone's work).
        "database_cpu_ms_per_move": (
            round(1000 * db_cpu / sum(results), 3) if db_cpu is not None and sum(results) else None
        ),
        "client_cpu_ms_per_move": (
            round(1000 * client_cpu / sum(results), 3) if sum(results) else None
        ),
        "machine_busy": round((busy_after - busy_before) / max(1e-9, all_after - all_before), 3),
        "latency_ms": {
            "p50": round(pct(0.50), 2),
            "p90": round(pct(0.90), 2),
            "p99": round(pct(0.99), 2),
            "mean": round(statistics.fmean(ordered) * 1000, 2) if ordered else 0.0,
        },
        "watchers": len(watchers),
        "failed_watchers": len(watcher_failures),
        # A spectator (on another server when there are several) first seeing a move, from
        # when its seat's client sent it.
        "watcher_lag_ms": {"p50": round(pct(0.5, lags), 2), "p99": round(pct(0.99, lags), 2)},
        **checks,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


CGROUP_CPU_V1 = Path("/sys/fs/cgroup/cpu")  # cgroup v1's cpu controller (this machine)
CGROUP_V2 = Path("/sys/fs/cgroup")


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


@contextlib.contextmanager
def cpu_quota(pid: int, cores: float) -> Iterator[None]:
    """Limits process ``pid`` (with the processes it starts later) to ``cores`` CPUs in a
    cgroup of its own: a server with a small machine of its own, so that servers and not
    the shared machine are what a scaling run measures. Needs root and a cpu controller."""
    period = 100_000  # microseconds
    quota = max(1_000, int(cores * period))
    if (CGROUP_CPU_V1 / "cpu.cfs_quota_us").exists():
        root, limits = CGROUP_CPU_V1, {"cpu.cfs_period_us": period, "cpu.cfs_quota_us": quota}
    elif "cpu" in (CGROUP_V2 / "cgroup.controllers").read_text(errors="replace").split():
        root, limits = CGROUP_V2, {"cpu.max": f"{quota} {period}"}  # type: ignore[dict-item]
    else:
        sys.exit("--server-cores needs a cgroup cpu controller (cgroup v1 or v2, as root)")
    group = root / f"monsterball-load-{pid}"
    try:
        group.mkdir(exist_ok=True)
        for name, value in limits.items():
            (group / name).write_text(f"{value}\n")
        for member in (pid, *descendants(pid)):  # (its bot workers, if started already)
            (group / "cgroup.procs").write_text(f"{member}\n")
    except OSError as exc:
        sys.exit(f"--server-cores: cannot set up the cgroup {group}: {exc.strerror}")
    try:
        yield
    finally:
        with contextlib.suppress(OSError):  # back to the root group, then the group goes
            for left in (group / "cgroup.procs").read_text().split():
                (root / "cgroup.procs").write_text(f"{left}\n")
            group.rmdir()


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
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="start the servers on a throw-away PostgreSQL cluster (the machine's binaries)",
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
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="clients connect at random times over this many seconds (then --seconds more)",
    )
    parser.add_argument(
        "--watchers", type=int, default=0, help="spectators per room (on another server first)"
    )
    parser.add_argument(
        "--server-cores",
        type=float,
        default=None,
        help="limit each server started to this many CPUs (a cgroup; root): for scaling runs",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if args.server_cores is not None and (args.url or args.server_cores <= 0):
        parser.error("--server-cores limits the servers this script starts, to more than 0 CPUs")
    if args.url:
        if args.db or args.postgres:
            parser.error("--db starts servers; --url uses running ones: give one of them")
        urls = [u.strip().rstrip("/") for given in args.url for u in given.split(",") if u.strip()]
        results = asyncio.run(run(urls, args))
    else:
        if args.servers < 1:
            parser.error("--servers must be at least 1")
        flags = [*NO_CLIENT_LIMIT_FLAGS, "--sockets-per-address", "0"]  # all on loopback
        if args.bot_workers:
            flags += ["--bot-workers", str(args.bot_workers)]
        if args.db and args.postgres:
            parser.error("--postgres starts its own database: drop --db")
        with contextlib.ExitStack() as stack:
            db: Path | str = args.db or Path(tempfile.mkdtemp()) / "load.db"
            postmaster = None
            if args.postgres:
                db = stack.enter_context(scratch_postgres())
                postmaster = postmaster_pid(db)
            started = [stack.enter_context(server(db, flags=flags)) for _ in range(args.servers)]
            if args.server_cores is not None:
                for _, proc in started:
                    stack.enter_context(cpu_quota(proc.pid, args.server_cores))
            bases = [base for base, _ in started]
            db_url = db if isinstance(db, str) else f"sqlite:///{db}"
            pids = [proc.pid for _, proc in started]
            results = asyncio.run(run(bases, args, pids, db_url, postmaster))
        results["bot_workers"] = args.bot_workers or "default"
        results["server_cores"] = args.server_cores or "unlimited"
        results["db"] = (
            "throw-away PostgreSQL" if args.postgres else args.db or "temporary SQLite file"
        )
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
