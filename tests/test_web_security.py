"""Web hardening (issue 21, server side): security headers on every answer, seat tokens kept
only as hashes and never logged, WebSocket origin checks and a cap on sockets per address."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from monsterball.web.limits import Limits
from monsterball.web.security import CONTENT_SECURITY_POLICY
from web_helpers import NO_CLIENT_LIMIT_FLAGS, NO_CLIENT_LIMITS, app_at, first_move, server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    with TestClient(app_at(tmp_path / "games.db"), raise_server_exceptions=False) as c:
        yield c


def hotseat(client):
    created = client.post("/api/games", json={"game": "paper-ultimate", "seed": 3}).json()
    return created["id"], {c["name"]: c["token"] for c in created["chairs"]}


def assert_hardened(response):
    headers = response.headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-frame-options"] == "DENY"
    assert "camera=()" in headers["permissions-policy"]
    assert "strict-transport-security" not in headers  # plain HTTP


def test_every_kind_of_answer_carries_the_security_headers(client, monkeypatch):
    gid, _ = hotseat(client)
    answers = {
        "page": client.get("/"),
        "seat page": client.get(f"/play/{gid}"),
        "replay page": client.get(f"/replay/{gid}"),
        "static": client.get("/static/app.js"),
        "api": client.get("/api/catalog"),
        "state": client.get(f"/api/games/{gid}"),
        "not found": client.get("/api/games/nope"),
        "no route": client.get("/nowhere"),
        "bad request": client.post("/api/games", json={"game": "chess"}),
        "too large": client.post(
            "/api/games", content=b" " * 70_000, headers={"content-type": "application/json"}
        ),
    }
    store = client.app.state.rooms.store
    monkeypatch.setattr(store, "list", lambda **_: 1 / 0)
    answers["server error"] = client.get("/api/games")
    expected = {"not found": 404, "no route": 404, "bad request": 400, "too large": 413}
    for what, response in answers.items():
        assert response.status_code == expected.get(what, 500 if what == "server error" else 200)
        assert_hardened(response)


def test_hsts_only_over_https(tmp_path):
    with TestClient(app_at(tmp_path / "g.db"), base_url="https://testserver") as c:
        assert c.get("/api/catalog").headers["strict-transport-security"].startswith("max-age=")


def test_the_store_keeps_only_a_hash_of_each_seat_token(client, tmp_path):
    gid, tokens = hotseat(client)
    connection = sqlite3.connect(tmp_path / "games.db")
    dump = "\n".join(connection.iterdump())
    connection.close()
    for token in tokens.values():
        assert token not in dump
        assert hashlib.sha256(token.encode()).hexdigest() in dump
    # ... and the token still opens its seat, by the old ?token= links too.
    assert client.get(f"/api/games/{gid}", params={"token": tokens["B"]}).json()["you"] == "B"
    assert client.get(f"/api/games/{gid}", params={"token": "x" + tokens["B"]}).status_code == 403


def test_a_token_appears_nowhere_in_the_servers_log(tmp_path):
    with server(tmp_path / "g.db", flags=[*NO_CLIENT_LIMIT_FLAGS, "--log-level", "info"]) as (
        base,
        proc,
    ):
        created = httpx.post(base + "/api/games", json={"game": "paper-ultimate"}).json()
        gid = created["id"]
        token = created["chairs"][0]["token"]
        message = httpx.get(f"{base}/api/games/{gid}", params={"token": token}).json()
        moved = httpx.post(
            f"{base}/api/games/{gid}/act",
            json={"token": token, "action": first_move(message), "ply": message["game"]["ply"]},
        )
        assert moved.status_code == 200
        httpx.get(f"{base}/api/games/{gid}/text", params={"token": token})
        url = base.replace("http", "ws", 1) + f"/ws/{gid}?token={token}"
        with connect(url) as ws:
            state = json.loads(ws.recv())
            ws.send(json.dumps({"type": "act", "action": "nonsense", "ply": state["game"]["ply"]}))
            assert json.loads(ws.recv())["error"] == "illegal"
        proc.kill()
        proc.wait()
        log = proc.stdout.read().decode() if proc.stdout else ""
    assert f"/api/games/{gid}" in log and "WebSocket" in log  # the access log was on
    assert "[redacted]" in log
    assert token not in log


def test_a_socket_from_another_sites_page_is_refused(tmp_path):
    limits = Limits(**(NO_CLIENT_LIMITS.__dict__ | {"allowed_origins": ("https://games.example",)}))
    with TestClient(app_at(tmp_path / "g.db", limits)) as c:
        gid, tokens = hotseat(c)
        path = f"/ws/{gid}?token={tokens['A']}"
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            c.websocket_connect(path, headers={"origin": "https://evil.example"}),
        ):
            pass
        assert refused.value.code == 1008
        for origin in ("http://testserver", "https://games.example"):
            with c.websocket_connect(path, headers={"origin": origin}) as ws:
                assert ws.receive_json()["you"] == "A"
        with c.websocket_connect(path) as ws:  # no Origin: not a browser
            assert ws.receive_json()["you"] == "A"


def test_sockets_per_address_are_capped(tmp_path):
    limits = Limits(**(NO_CLIENT_LIMITS.__dict__ | {"sockets_per_address": 2}))
    with TestClient(app_at(tmp_path / "g.db", limits)) as c:
        gid, _ = hotseat(c)
        with c.websocket_connect(f"/ws/{gid}") as one, c.websocket_connect(f"/ws/{gid}") as two:
            one.receive_json(), two.receive_json()
            with c.websocket_connect(f"/ws/{gid}") as three:
                refused = three.receive_json()
                assert refused["error"] == "too-many"
        with c.websocket_connect(f"/ws/{gid}") as again:  # closed sockets no longer count
            assert again.receive_json()["type"] == "state"


def test_json_nested_too_deeply_is_refused_without_a_server_error(client):
    deep = "[" * 20_000 + "]" * 20_000
    refused = client.post(
        "/api/games", content=deep.encode(), headers={"content-type": "application/json"}
    )
    assert refused.status_code == 400 and refused.json()["error"] == "bad-request"
    gid, tokens = hotseat(client)
    with client.websocket_connect(f"/ws/{gid}?token={tokens['A']}") as ws:
        ws.receive_json()
        ws.send_text("[" * 2000 + "]" * 2000)
        assert ws.receive_json()["error"] == "bad-json"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_the_token_may_travel_in_a_header_or_a_socket_message_instead_of_the_url(client):
    gid, tokens = hotseat(client)
    mine = client.get(f"/api/games/{gid}", headers={"seat-token": tokens["B"]}).json()
    assert mine["you"] == "B"
    with client.websocket_connect(f"/ws/{gid}") as ws:
        assert ws.receive_json()["you"] is None
        ws.send_json({"type": "seat", "token": "forged"})
        assert ws.receive_json()["error"] == "bad-token"
        ws.send_json({"type": "seat", "token": tokens["A"]})
        seated = ws.receive_json()
        assert seated["you"] == "A" and seated["legal"]
        ply = seated["game"]["ply"]
        ws.send_json({"type": "act", "action": first_move(seated), "ply": ply})
        assert ws.receive_json()["game"]["ply"] > ply


def test_every_string_in_a_new_game_has_a_maximum(client):
    for body in (
        {"game": "midway", "mode": "bot", "bots": {"B": "m" * 41}},
        {"game": "midway", "mode": "bot", "bots": {"B" * 9: "easy"}},
        {"game": "x" * 41},
        {"game": "midway", "settings": ["a=" + "1" * 400]},
    ):
        refused = client.post("/api/games", json=body)
        assert refused.status_code == 400 and refused.json()["error"] == "bad-request", body
    assert client.get("/api/games").json()["games"] == []
