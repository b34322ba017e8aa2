"""The same store on PostgreSQL (issue 7: "SQLite by default, PostgreSQL by URL"): a game is
played, the server is replaced, and the game continues from the database.

The test starts its own throw-away cluster with the machine's PostgreSQL binaries
(`make setup` installs Debian's postgresql when they are missing)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from monsterball.web.app import create_app
from tests.helpers.web import NO_CLIENT_LIMITS, first_move

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


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
