"""Abandoned games (issue 32, docs/web.md "Abandoned games"): once the other side's every
connection has been gone ABANDON_SECONDS, a player may claim the win; not before, not while it
is connected, never in hot-seat, never by a spectator."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from monsterball.web.live import abandon
from tests.helpers.web import app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setattr(abandon, "ABANDON_SECONDS", 0.5)
    with TestClient(app_at(tmp_path / "games.db")) as c:
        yield c


def seated(client, gid, token):
    socket = client.websocket_connect(f"/ws/{gid}")
    ws = socket.__enter__()
    ws.receive_json()  # everyone's greeting: the spectators' state
    ws.send_json({"type": "seat", "token": token})
    assert ws.receive_json()["you"]
    return socket


def test_the_win_is_claimed_only_after_the_opponent_has_been_gone_long_enough(client):
    made = client.post("/api/games", json={"game": "paper-ultimate", "mode": "online"}).json()
    gid = made["id"]
    tokens = {c["name"]: c["token"] for c in made["chairs"]}
    a = {"seat-token": tokens["A"]}
    b_socket = seated(client, gid, tokens["B"])
    here = client.get(f"/api/games/{gid}/abandon", headers=a).json()
    assert here["gone"] == {"B": 0.0} and here["claim_in"] is None and not here["may_claim"]
    early = client.post(f"/api/games/{gid}/abandon", json={"token": tokens["A"]})
    assert early.status_code == 409 and "is connected" in early.json()["message"]
    b_socket.__exit__(None, None, None)  # B's connection is gone
    for _ in range(50):  # the server's socket handler runs its end a moment later
        left = client.get(f"/api/games/{gid}/abandon", headers=a).json()
        if left["claim_in"] is not None:
            break
        time.sleep(0.01)
    assert 0 < left["claim_in"] <= 0.5 and not left["may_claim"]
    wait = client.post(f"/api/games/{gid}/abandon", json={"token": tokens["A"]})
    assert wait.status_code == 409 and "may still come back" in wait.json()["message"]
    assert client.post(f"/api/games/{gid}/abandon", json={}).status_code == 403  # a spectator
    time.sleep(0.6)
    assert client.get(f"/api/games/{gid}/abandon", headers=a).json()["may_claim"]
    won = client.post(f"/api/games/{gid}/abandon", json={"token": tokens["A"]})
    assert won.status_code == 200, won.text
    assert won.json()["game"]["ending"] == {"termination": "abandoned", "loser": "B"}
    assert won.json()["game"]["result"].startswith("team A wins: team B abandoned")
    again = client.post(f"/api/games/{gid}/abandon", json={"token": tokens["A"]})
    assert again.status_code == 409 and again.json()["error"] == "finished"


def test_hot_seat_and_bot_games_have_nobody_to_leave(client):
    for body in (
        {"game": "paper-ultimate", "seed": 1},
        {"game": "paper-ultimate", "mode": "bot", "bots": {"B": "easy"}},
    ):
        made = client.post("/api/games", json=body).json()
        token = next(c["token"] for c in made["chairs"] if c["token"])
        time.sleep(0.6)
        told = client.get(f"/api/games/{made['id']}/abandon", headers={"seat-token": token})
        assert told.json()["claim_in"] is None
        claim = client.post(f"/api/games/{made['id']}/abandon", json={"token": token})
        assert claim.status_code == 409
