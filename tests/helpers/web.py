"""Shared pieces of the web tests: an app over a temporary database, and a real server."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

import monsterball.games  # noqa: F401  (registers the games)
from monsterball.settings import Limits
from monsterball.web.app import create_app
from monsterball.web.store.games import GameRow

# Tests play faster than people: the per-client limits are off unless a test is about them.
NO_CLIENT_LIMITS = Limits(
    games_per_minute=0,
    moves_per_second=0,
    address_moves_per_second=0,
    rooms_per_address=0,
    nonce_seconds=0,  # online rooms roll at once, nonces or not (tests of them set a wait)
    reads_per_second=0,
)
NO_CLIENT_LIMIT_FLAGS = [
    "--games-per-minute",
    "0",
    "--moves-per-second",
    "0",
    "--address-moves-per-second",
    "0",
    "--rooms-per-address",
    "0",
    "--nonce-seconds",
    "0",
    "--reads-per-second",
    "0",
]


def app_at(path: Path, limits: Limits = NO_CLIENT_LIMITS):
    return create_app(f"sqlite:///{path}", limits=limits)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(
    db: Path | str, port: int | None = None, flags: list[str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`monsterball serve` in a child process, as a user runs it; yields its URL and process.
    ``db``: a SQLite file, or a database URL; ``flags``: more options for `serve` (default:
    the per-client limits off)."""
    port = port or free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "monsterball.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            db if isinstance(db, str) else f"sqlite:///{db}",
            *(NO_CLIENT_LIMIT_FLAGS if flags is None else flags),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90  # a busy 2-core machine has taken 20 s to start one
        while True:
            try:
                httpx.get(base + "/api/catalog", timeout=1)
                break
            except httpx.HTTPError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()  # its output ends only when it does
                    out = proc.stdout.read().decode() if proc.stdout else ""
                    raise RuntimeError(f"server did not start: {out}") from None
                time.sleep(0.1)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def first_move(message: dict) -> str:
    return message["legal"][0]["a"]


# Argon2 at its production cost makes each sign-up take a good fraction of a second on a
# busy machine; the account tests use the cheapest parameters (the hashing code is the same).
CHEAP_HASHING = {"time_cost": 1, "memory_cost": 1024, "parallelism": 1}


def _as_postgres(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["su", "postgres", "-c", " ".join(command)]  # initdb refuses to run as root


@contextlib.contextmanager
def scratch_postgres() -> Iterator[str]:
    """A throw-away PostgreSQL cluster from the machine's binaries (`make setup` installs
    Debian's postgresql when they are missing); yields its SQLAlchemy URL."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not binaries:
        raise RuntimeError("PostgreSQL binaries not found: run `make setup` (installs postgresql)")
    bin_dir = Path(binaries[-1])
    root = Path(tempfile.mkdtemp(prefix="monsterball-pg-", dir="/tmp"))
    data, sockets = root / "data", root / "sock"
    sockets.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sockets, "postgres")
    port = free_port()
    initdb = [str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]
    subprocess.run(_as_postgres(initdb), check=True, capture_output=True)
    # Up to 200 connections: each server holds a pool and a listening connection.
    options = f"-k {sockets} -p {port} -c listen_addresses=127.0.0.1 -c max_connections=200"
    pg_ctl = [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w"]
    subprocess.run(
        _as_postgres([*pg_ctl, "-o", f"'{options}'", "start"]), check=True, capture_output=True
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


def game_row(game_id: str, plies: int = 0) -> GameRow:
    """A bare online Paper Ultimate game row, for store tests that write moves directly."""
    return GameRow(
        id=game_id,
        game="paper-ultimate",
        preset=None,
        rules_version="1",
        options={},
        seed=1,
        seed_text="1",
        seeded=False,
        start=None,
        mode="online",
        chairs=[],
        status="playing",
        result="",
        plies=plies,
    )
