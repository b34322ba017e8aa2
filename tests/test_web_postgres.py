"""The same store on PostgreSQL (issue 7: "SQLite by default, PostgreSQL by URL"): a game is
played, the server is replaced, and the game continues from the database.

The test starts its own throw-away cluster with the machine's PostgreSQL binaries
(`make setup` installs Debian's postgresql when they are missing)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from monsterball.web.app import create_app
from web_helpers import NO_CLIENT_LIMITS, first_move, free_port

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
BINARIES = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def as_postgres(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["su", "postgres", "-c", " ".join(command)]  # initdb refuses to run as root


@pytest.fixture(scope="module")
def postgres_url():
    if not BINARIES:
        pytest.fail("PostgreSQL binaries not found: run `make setup` (installs postgresql)")
    bin_dir = Path(BINARIES[-1])
    root = Path(tempfile.mkdtemp(prefix="monsterball-pg-", dir="/tmp"))
    data, sockets = root / "data", root / "sock"
    sockets.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sockets, "postgres")
    port = free_port()
    subprocess.run(
        as_postgres([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]),
        check=True,
        capture_output=True,
    )
    options = f"-k {sockets} -p {port} -c listen_addresses=127.0.0.1"
    subprocess.run(
        as_postgres(
            [
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(root / "log"),
                "-w",
                "-o",
                f"'{options}'",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


def test_games_survive_a_server_replacement_on_postgresql(postgres_url):
    with TestClient(create_app(postgres_url, limits=NO_CLIENT_LIMITS)) as client:
        created = client.post(
            "/api/games", json={"game": "huck-monster", "mode": "bot", "bots": {"B": "easy"}}
        ).json()
        gid = created["id"]
        token = created["chairs"][0]["token"]
        message = client.get(f"/api/games/{gid}", params={"token": token}).json()
        for _ in range(20):
            ply = message["game"]["ply"]
            message = client.post(
                f"/api/games/{gid}/act",
                json={"token": token, "action": first_move(message), "ply": ply},
            ).json()
        stale = client.post(
            f"/api/games/{gid}/act", json={"token": token, "action": "end", "ply": 0}
        )
        assert stale.status_code == 409
    time.sleep(0.1)
    with TestClient(create_app(postgres_url, limits=NO_CLIENT_LIMITS)) as client:
        again = client.get(f"/api/games/{gid}", params={"token": token}).json()
        assert again["game"] == message["game"] and again["board"] == message["board"]
        listed = client.get("/api/games", params={"status": "playing"}).json()["games"]
        assert gid in {g["id"] for g in listed}
