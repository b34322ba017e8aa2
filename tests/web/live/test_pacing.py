"""Watchable bot games (issue 32 item 6, docs/web.md "Watching bots"): a bots-only room asked
for at a speed makes its bot moves that far apart on the server, whoever watches; a watcher
changes the speed for everyone (told on every socket); rooms with people are never paced."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from tests.helpers.web import app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
BOTS = {"game": "paper-ultimate", "mode": "bot", "bots": {"A": "easy", "B": "easy"}}


@pytest.fixture
def client(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as c:
        yield c


def bot_moves(client, gid) -> int:
    moves = client.get(f"/api/games/{gid}/moves").json()["moves"]
    return sum(1 for m in moves if m["by"] != "dice")


def test_a_paced_bot_game_moves_at_its_speed_and_a_watcher_changes_it(client):
    created = client.post("/api/games", json={**BOTS, "speed": "fast"})
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    time.sleep(1.0)
    made = bot_moves(client, gid)
    # 0.2 s apart: about 5 in a second (not the whole game, as unpaced: thousands).
    assert 2 <= made <= 8, made
    assert client.get(f"/api/games/{gid}").json()["game"]["status"] == "playing"
    with (
        client.websocket_connect(f"/ws/{gid}") as one,
        client.websocket_connect(f"/ws/{gid}") as two,
    ):
        one.receive_json()
        two.receive_json()
        one.send_json({"type": "speed", "speed": "warp"})
        while (reply := one.receive_json())["type"] != "error":
            pass
        assert "speed is one of slow, normal, fast, max" in reply["message"]
        one.send_json({"type": "speed", "speed": "max"})
        for socket in (one, two):
            while (told := socket.receive_json())["type"] != "speed":
                pass
            assert told == {"type": "speed", "speed": "max"}
    deadline = time.monotonic() + 60
    while client.get(f"/api/games/{gid}").json()["game"]["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish at full speed"
        time.sleep(0.2)


def test_an_unpaced_bot_game_plays_through_and_people_are_never_paced(client):
    fast = client.post("/api/games", json=BOTS).json()  # the API's default: "max"
    deadline = time.monotonic() + 60
    while client.get(f"/api/games/{fast['id']}").json()["game"]["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    people = client.post("/api/games", json={"game": "paper-ultimate", "mode": "online"}).json()
    with client.websocket_connect(f"/ws/{people['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "speed", "speed": "slow"})
        reply = ws.receive_json()
        assert reply["type"] == "error" and "only a game between bots" in reply["message"]
