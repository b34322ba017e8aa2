"""Resign (issue 32, docs/web.md "Resign"): a seated player gives the game up and loses it, at
any moment; spectators and strangers cannot; the record ends with the resignation and
verifies; a bot thinking meanwhile makes no move after the end."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from monsterball.core.record import read_record, replay
from tests.helpers.web import app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as c:
        yield c


def test_a_player_resigns_and_the_record_says_so_and_verifies(client):
    created = client.post("/api/games", json={"game": "paper-ultimate", "mode": "online"}).json()
    gid = created["id"]
    tokens = {c["name"]: c["token"] for c in created["chairs"]}
    stranger = client.post(f"/api/games/{gid}/resign", json={})
    assert stranger.status_code == 403 and stranger.json()["error"] == "spectator"
    with client.websocket_connect(f"/ws/{gid}") as watcher:
        watcher.receive_json()
        # B resigns though A is to act (a resignation needs no turn).
        over = client.post(f"/api/games/{gid}/resign", json={"token": tokens["B"]})
        assert over.status_code == 200, over.text
        assert over.json()["game"]["result"] == "team A wins: team B resigned"
        assert over.json()["legal"] == []
        told = watcher.receive_json()
        assert told["game"]["status"] == "finished"
        assert told["game"]["ending"] == {"termination": "resigned", "loser": "B"}
    again = client.post(f"/api/games/{gid}/resign", json={"token": tokens["A"]})
    assert again.status_code == 409 and again.json()["error"] == "finished"
    record = read_record(client.get(f"/api/games/{gid}/record").text)
    assert record.end["termination"] == "resigned" and record.end["loser"] == "B"
    assert replay(record).ok


def test_in_hot_seat_the_side_to_act_resigns(client):
    created = client.post("/api/games", json={"game": "paper-ultimate", "seed": 4}).json()
    gid = created["id"]
    token = created["chairs"][0]["token"]
    acting = client.get(f"/api/games/{gid}", headers={"seat-token": token}).json()["to_act"]
    over = client.post(f"/api/games/{gid}/resign", json={"token": token}).json()
    assert over["game"]["ending"]["loser"] == acting
