"""Takeback (issue 32, docs/web.md "Takeback"): a player's own last moves, one at a time, never
across a die or another seat's move; free in hot-seat and against bots, by consent online, off
in rated games; exact (the state is the one before the move) and kept through a restart."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from monsterball.web.app import create_app
from tests.helpers.web import NO_CLIENT_LIMITS, app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def state(client, gid, token):
    return client.get(f"/api/games/{gid}", headers={"seat-token": token}).json()


def act(client, gid, token, action):
    ply = state(client, gid, token)["game"]["ply"]
    done = client.post(f"/api/games/{gid}/act", json={"token": token, "action": action, "ply": ply})
    assert done.status_code == 200, done.text
    return done.json()


def same_position(a, b):
    return (a["game"]["ply"], a["board"], a["legal"], a["to_act"]) == (
        b["game"]["ply"],
        b["board"],
        b["legal"],
        b["to_act"],
    )


def test_hot_seat_takes_back_its_moves_exactly_down_to_the_dice_and_keeps_it(tmp_path):
    db = tmp_path / "games.db"
    with TestClient(app_at(db)) as client:
        made = client.post("/api/games", json={"game": "paper-ultimate", "seed": 3}).json()
        gid, token = made["id"], made["chairs"][0]["token"]
        after_toss = state(client, gid, token)  # ply 1: the toss (a die) is made
        assert [e["by"] for e in after_toss["log"]] == ["dice"]
        after_a1 = act(client, gid, token, "place a1")
        act(client, gid, token, "place b1")
        back = client.post(f"/api/games/{gid}/takeback", json={"token": token})
        assert back.status_code == 200, back.text
        assert same_position(back.json(), after_a1)
        back = client.post(f"/api/games/{gid}/takeback", json={"token": token}).json()
        assert same_position(back, after_toss)
        refused = client.post(f"/api/games/{gid}/takeback", json={"token": token})
        assert refused.status_code == 409
        assert "dice have rolled" in refused.json()["message"]
        act(client, gid, token, "place c1")  # a different move where a1 was
    with TestClient(app_at(db)) as client:  # a restarted server: the same game
        now = state(client, gid, token)
        assert now["game"]["ply"] == 2 and [e["action"] for e in now["log"]][-1] == "place c1"
        moves = client.get(f"/api/games/{gid}/moves").json()["moves"]
        assert [m["action"] for m in moves][1:] == ["place c1"]


def test_against_a_bot_only_your_own_moves_and_spectators_none(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as client:
        made = client.post(
            "/api/games",
            json={"game": "paper-ultimate", "mode": "bot", "bots": {"A": "easy"}, "seed": 3},
        ).json()
        gid = made["id"]
        token = next(c["token"] for c in made["chairs"] if c["token"])
        # The bot (A) placed its four and B is to place: the last move is the bot's.
        now = state(client, gid, token)
        assert now["to_act"] == "B" and now["log"][-1]["by"] == "A"
        refused = client.post(f"/api/games/{gid}/takeback", json={"token": token})
        assert refused.status_code == 409 and "only your own" in refused.json()["message"]
        before = state(client, gid, token)
        act(client, gid, token, before["legal"][0]["a"])
        back = client.post(f"/api/games/{gid}/takeback", json={"token": token})
        assert back.status_code == 200 and same_position(back.json(), before)
        stranger = client.post(f"/api/games/{gid}/takeback", json={})
        assert stranger.status_code == 403 and stranger.json()["error"] == "spectator"


def test_online_a_takeback_is_asked_and_the_other_player_agrees_or_declines(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as client:
        made = client.post("/api/games", json={"game": "paper-ultimate", "mode": "online"}).json()
        gid = made["id"]
        tokens = {c["name"]: c["token"] for c in made["chairs"]}
        mover = state(client, gid, tokens["A"])["to_act"]
        first = state(client, gid, tokens[mover])
        other = "B" if mover == "A" else "A"
        act(client, gid, tokens[mover], first["legal"][0]["a"])
        with client.websocket_connect(f"/ws/{gid}") as watcher:
            watcher.receive_json()
            asked = client.post(f"/api/games/{gid}/takeback", json={"token": tokens[mover]})
            assert asked.status_code == 202 and asked.json()["state"] == "asked"
            told = watcher.receive_json()
            assert told == {"type": "takeback", "state": "asked", "by": mover, "ply": 2}
            # The asker cannot agree for the other; the other declines.
            self_ok = client.post(
                f"/api/games/{gid}/takeback/accept", json={"token": tokens[mover]}
            )
            assert self_ok.status_code == 403
            no = client.post(f"/api/games/{gid}/takeback/decline", json={"token": tokens[other]})
            assert no.json()["state"] == "declined"
            assert watcher.receive_json()["state"] == "declined"
            assert state(client, gid, tokens[mover])["game"]["ply"] == 2
            # Asked again, and agreed: the move is gone.
            client.post(f"/api/games/{gid}/takeback", json={"token": tokens[mover]})
            watcher.receive_json()
            yes = client.post(f"/api/games/{gid}/takeback/accept", json={"token": tokens[other]})
            assert yes.status_code == 200, yes.text
            whole = watcher.receive_json()  # the whole state (deltas go only forward)
            assert whole["type"] == "state" and whole["game"]["ply"] == 1
            assert watcher.receive_json()["state"] == "done"
        assert same_position(state(client, gid, tokens[mover]), first)
        gone = client.post(f"/api/games/{gid}/takeback/accept", json={"token": tokens[other]})
        assert gone.status_code == 409


def test_rated_games_have_no_takeback(tmp_path):
    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}", limits=NO_CLIENT_LIMITS, trust_client_players=True
    )
    with TestClient(app) as client:
        made = client.post(
            "/api/games",
            json={
                "game": "paper-ultimate",
                "mode": "online",
                "rated": True,
                "players": {"A": "account:1", "B": "account:2"},
            },
        ).json()
        gid = made["id"]
        tokens = {c["name"]: c["token"] for c in made["chairs"]}
        mover = state(client, gid, tokens["A"])["to_act"]
        act(client, gid, tokens[mover], state(client, gid, tokens[mover])["legal"][0]["a"])
        refused = client.post(f"/api/games/{gid}/takeback", json={"token": tokens[mover]})
        assert refused.status_code == 409 and "rated" in refused.json()["message"]
