"""Moves/s PostgreSQL commits, from many threads at once, with and without announcing them.

Each thread stores moves of a game of its own straight through web/store/pg_append.py (no game
rules, no sockets), for a few seconds, on a throw-away PostgreSQL cluster
(tests/helpers/web.py), a listener hearing the announcements. Three ways, interleaved:
``alone``: one commit per move, not announced; ``alone+notify``: one commit per move, each
with its ``pg_notify`` (as before group commits); ``grouped+notify``: the server's path, the
moves that arrive while a commit is at the disk stored together. Prints moves/s and the
database's CPU per move: PostgreSQL serializes the commits of transactions that notify, so
the second is capped by the disk's flushes per second.

    python scripts/bench_pg_commits.py --threads 16 --seconds 6 --rounds 2
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

from monsterball.web.cluster.bus import CHANNEL, payload
from monsterball.web.store.games import GameRow, Store, StoredMove
from monsterball.web.store.pg_append import Announce, PostgresAppender, _Append, libpq_url

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers
from tests.helpers.web import scratch_postgres
from web_load import database_cpu_seconds, postmaster_pid


def new_game(store: Store, game_id: str) -> None:
    store.create(
        GameRow(
            id=game_id,
            **{"game": "paper-ultimate", "preset": None, "rules_version": "1", "options": {}},
            **{"seed": 1, "seed_text": "1", "seeded": False, "start": None, "mode": "online"},
            **{"chairs": [], "status": "playing", "result": "", "plies": 0},
        )
    )


def run(store: Store, way: str, threads: int, seconds: float, tag: str) -> tuple[float, int]:
    """Moves stored per second, and how many."""
    appender = store._pg
    assert isinstance(appender, PostgresAppender)
    counts = [0] * threads
    stop = time.monotonic() + seconds

    def work(t: int) -> None:
        game_id = f"{tag}-{way}-{t}"
        new_game(store, game_id)
        connection = appender._connection()  # for the one-commit-per-move ways
        ply = 0
        while time.monotonic() < stop:
            ply += 1
            moves = [StoredMove(ply, "A", "move")]
            announce = None
            if way != "alone":
                text = payload(game_id, moves, "bench")
                announce = Announce(game_id, CHANNEL, text, "bench", 10.0, False)
            if way == "grouped+notify":
                store.append(
                    game_id, moves, status="playing", result="", automatic=False, also=announce
                )
            else:
                one = _Append(game_id, moves, "playing", "", False, None, announce)
                appender._one(connection, one)
            counts[t] += 1
        connection.close()

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(counts) / seconds, sum(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with scratch_postgres() as url:
        postmaster = postmaster_pid(url)
        store = Store(url)
        listener = psycopg.connect(libpq_url(make_url(url)), autocommit=True)
        listener.add_notify_handler(lambda _note: None)
        listener.execute(f"LISTEN {CHANNEL}")
        try:
            for round_ in range(1, args.rounds + 1):
                for way in ("alone", "alone+notify", "grouped+notify"):
                    before = database_cpu_seconds(postmaster)
                    rate, made = run(store, way, args.threads, args.seconds, f"r{round_}")
                    cpu = database_cpu_seconds(postmaster) - before
                    listener.execute("SELECT 1")  # hears (and drops) the announcements
                    print(
                        f"round {round_} {way:15} {rate:7.1f} moves/s, "
                        f"database {1000 * cpu / made:.3f} ms CPU/move",
                        flush=True,
                    )
        finally:
            listener.close()
            store.close()


if __name__ == "__main__":
    main()
