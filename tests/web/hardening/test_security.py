"""Web hardening (issue 21, server side): security headers on every answer, seat tokens kept
only as hashes and never logged, WebSocket origin checks and a cap on sockets per address."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import re
import sqlite3

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from monsterball.settings import Limits
from monsterball.web.api.services import services_of
from monsterball.web.hardening.security import CONTENT_SECURITY_POLICY, MAX_JSON_DEPTH
from tests.helpers.web import NO_CLIENT_LIMIT_FLAGS, NO_CLIENT_LIMITS, app_at, first_move, server

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
        "rules page": client.get("/rules/midway"),
        "old seat link": client.get(f"/play/{gid}?token=abc", follow_redirects=False),
        "rules text": client.get("/api/rules/midway"),
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
    store = services_of(client.app).rooms.store
    monkeypatch.setattr(store, "list", lambda **_: 1 / 0)
    answers["server error"] = client.get("/api/games")
    expected = {
        "not found": 404,
        "no route": 404,
        "bad request": 400,
        "too large": 413,
        "old seat link": 303,
    }
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


@pytest.mark.slow
def test_a_token_appears_nowhere_in_the_servers_log(tmp_path):
    """A game played to its end over HTTP and a WebSocket, each way a token may travel (old
    ?token= links, the Seat-Token header, bodies, the socket's seat message), then a rematch:
    the server's own output at info level (its access log) never shows a token."""
    flags = [*NO_CLIENT_LIMIT_FLAGS, "--log-level", "info"]
    with server(tmp_path / "g.db", flags=flags) as (base, proc):
        # A hot-seat game (either seat's token may move) with its dice seeded: a short game.
        body = {"game": "huck-monster", "preset": "small", "settings": ["points_to_win=1"]}
        created = httpx.post(base + "/api/games", json={**body, "seed": 2}).json()
        gid = created["id"]
        tokens = [c["token"] for c in created["chairs"]]
        old_link = httpx.get(
            f"{base}/play/{gid}", params={"token": tokens[0]}, follow_redirects=True
        )
        assert old_link.status_code == 200 and old_link.history[0].status_code == 303
        for token in tokens:
            headers = {"seat-token": token}
            assert httpx.get(f"{base}/api/games/{gid}", headers=headers).json()["you"]
            httpx.get(f"{base}/api/games/{gid}/moves", params={"token": token})
            httpx.get(f"{base}/api/games/{gid}/text", headers=headers)

        def seat_state(seat: int) -> dict:
            headers = {"seat-token": tokens[seat]}
            return dict(httpx.get(f"{base}/api/games/{gid}", headers=headers).json())

        rng = random.Random(5)
        seat, state = 0, seat_state(0)
        moved = httpx.post(  # one move over HTTP, the rest over the sockets
            f"{base}/api/games/{gid}/act",
            json={"token": tokens[seat], "action": first_move(state), "ply": state["game"]["ply"]},
        )
        assert moved.status_code == 200
        ws_base = base.replace("http", "ws", 1)
        with (
            connect(f"{ws_base}/ws/{gid}?token={tokens[0]}") as a,  # an old client
            connect(f"{ws_base}/ws/{gid}") as b,  # today's: the token in the first message
        ):
            sockets = [a, b]
            assert json.loads(a.recv())["you"] == "A"
            assert json.loads(b.recv())["you"] is None
            b.send(json.dumps({"type": "seat", "token": tokens[1]}))
            assert json.loads(b.recv())["you"] == "B"
            for step in range(3000):
                seat = step % 2
                state = seat_state(seat)
                if state["game"]["status"] == "finished":
                    break
                ply = state["game"]["ply"]
                action = rng.choice(state["legal"])["a"]
                sockets[seat].send(json.dumps({"type": "act", "action": action, "ply": ply}))
                while (
                    json.loads(sockets[seat].recv(timeout=10)).get("game", {}).get("ply", 0) <= ply
                ):
                    pass
                for ws in sockets:  # what else the sockets were told
                    with contextlib.suppress(TimeoutError):
                        while True:
                            ws.recv(timeout=0)
            assert state["game"]["status"] == "finished" and step > 20
        for token in tokens:  # asked by one, accepted by the other: each gets its own link
            again = httpx.post(f"{base}/api/games/{gid}/rematch", json={"token": token})
        assert again.status_code == 201
        first = httpx.get(f"{base}/api/games/{gid}/rematch", headers={"seat-token": tokens[0]})
        proc.kill()
        proc.wait()
        log = proc.stdout.read().decode() if proc.stdout else ""
    assert f"/api/games/{gid}" in log and "WebSocket" in log  # the access log was on
    assert f"/play/{gid}?token=[redacted]" in log
    new_tokens = [link.split("token=")[1] for link in (again.json()["you"], first.json()["you"])]
    for token in [*tokens, *new_tokens]:
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


def test_seat_links_carry_the_token_in_the_fragment_and_old_links_are_sent_there(client):
    created = client.post("/api/games", json={"game": "paper-ultimate", "mode": "online"}).json()
    gid = created["id"]
    for chair in created["chairs"]:
        assert chair["url"] == f"/play/{gid}#token={chair['token']}"
    client.post(f"/api/games/{gid}/resign", json={"token": created["chairs"][1]["token"]})
    rematch = client.post(
        f"/api/games/{gid}/rematch", json={"token": created["chairs"][0]["token"]}
    )
    assert rematch.status_code == 202  # an offer to B (tests/web/live/test_rematch.py)
    rematch = client.post(
        f"/api/games/{gid}/rematch", json={"token": created["chairs"][1]["token"]}
    )
    assert re.fullmatch(r"/play/[0-9a-f]{16}#token=[\w-]{24}", rematch.json()["you"])
    token = created["chairs"][1]["token"]
    old = client.get(f"/play/{gid}?token={token}", follow_redirects=False)
    assert old.status_code == 303 and old.headers["location"] == f"/play/{gid}#token={token}"
    # A token that no server made is not copied into a header; the page then opens as a
    # spectator's (or says the link is bad).
    odd = client.get(
        f"/play/{gid}", params={"token": "a b\r\nSet-Cookie: x"}, follow_redirects=False
    )
    assert odd.status_code == 303 and odd.headers["location"] == f"/play/{gid}"
    page = client.get(f"/play/{gid}")
    assert page.status_code == 200 and "app.js" in page.text
    # The seat opens by the header, the old query string and the socket's first message.
    assert client.get(f"/api/games/{gid}", headers={"seat-token": token}).json()["you"] == "B"
    assert client.get(f"/api/games/{gid}", params={"token": token}).json()["you"] == "B"
    seen = client.get(f"/api/games/{gid}/moves", headers={"seat-token": "forged"})
    assert seen.status_code == 403


def test_a_database_copy_holds_no_usable_token(client, tmp_path):
    created = client.post("/api/games", json={"game": "paper-ultimate", "mode": "online"}).json()
    gid = created["id"]
    tokens = {c["name"]: c["token"] for c in created["chairs"]}
    for name in ("A", "B", "A"):  # moves stored, then a rematch and a hot-seat game
        state = client.get(f"/api/games/{gid}", headers={"seat-token": tokens[name]}).json()
        if state["legal"]:
            client.post(
                f"/api/games/{gid}/act",
                json={
                    "token": tokens[name],
                    "action": first_move(state),
                    "ply": state["game"]["ply"],
                },
            )
    client.post(f"/api/games/{gid}/resign", json={"token": tokens["B"]})
    links = [
        client.post(f"/api/games/{gid}/rematch", json={"token": tokens[name]}).json()["you"]
        for name in ("A", "B", "A")  # asked, accepted, A's link fetched
    ]
    _, more = hotseat(client)
    every = [*tokens.values(), *(link.split("token=")[1] for link in links[1:]), *more.values()]
    connection = sqlite3.connect(tmp_path / "games.db")
    dump = "\n".join(connection.iterdump())
    connection.close()
    assert len(client.get("/api/games").json()["games"]) == 3
    for token in every:
        assert token not in dump
    # What the store holds (the hash) opens nothing.
    digest = hashlib.sha256(tokens["A"].encode()).hexdigest()
    assert digest in dump
    for sent in ({"headers": {"seat-token": digest}}, {"params": {"token": digest}}):
        assert client.get(f"/api/games/{gid}", **sent).status_code == 403
    moved = client.post(f"/api/games/{gid}/act", json={"token": digest, "action": "x", "ply": 0})
    assert moved.status_code == 403


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/games", {"game": "midway", "options": {"a": {"nested": [1]}}}),
        ("post", "/api/games", {"game": "midway", "options": {"k" * 65: 1}}),
        ("post", "/api/games", {"game": "midway", "options": {"name": "x" * 401}}),
        ("post", "/api/games", {"game": "midway", "options": {"n": 2**60}}),
        ("post", "/api/games/GID/act", {"token": "t", "action": "end", "ply": 10**12}),
        ("post", "/api/games/GID/fork", {"ply": 10**12}),
        ("post", "/api/games/GID/rematch", {"token": "t" * 65}),
        ("get", "/api/games/GID/replay?step=1000000000000", None),
        ("get", "/api/games?limit=201", None),
        ("get", "/api/games/GID/moves?token=" + "t" * 65, None),
        ("get", "/api/games/" + "g" * 65, None),
        ("get", "/api/rules/" + "r" * 41, None),
    ],
)
def test_every_field_and_parameter_has_a_bound(client, method, path, body):
    gid, _ = hotseat(client)
    before = client.get(f"/api/games/{gid}").json()["game"]["ply"]
    sent = client.request(method.upper(), path.replace("GID", gid), json=body)
    assert sent.status_code == 400 and sent.json()["error"] == "bad-request", sent.text
    assert client.get(f"/api/games/{gid}").json()["game"]["ply"] == before
    assert len(client.get("/api/games").json()["games"]) == 1  # nothing was created


def test_a_long_seat_token_header_is_refused(client):
    gid, _ = hotseat(client)
    refused = client.get(f"/api/games/{gid}", headers={"seat-token": "t" * 65})
    assert refused.status_code == 400


def test_json_deeper_than_the_limit_is_refused_before_it_is_read(client):
    gid, tokens = hotseat(client)
    options = {"a": 1}
    deep: object = options
    for _ in range(MAX_JSON_DEPTH):
        deep = [deep]
    body = json.dumps({"game": "paper-ultimate", "x": deep}).encode()
    refused = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert refused.status_code == 400 and "nest" in refused.json()["message"]
    # Brackets inside strings are text, not nesting.
    fine = {"game": "paper-ultimate", "settings": ["[" * 300 + "=1"]}
    assert "nest" not in client.post("/api/games", json=fine).json()["message"]
    with client.websocket_connect(f"/ws/{gid}?token={tokens['A']}") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "ping", "x": deep}))
        refused_message = ws.receive_json()
        assert refused_message["error"] == "bad-json" and "nest" in refused_message["message"]
        ws.send_text(json.dumps({"type": "ping", "x": "[" * 100}))
        assert ws.receive_json() == {"type": "pong"}
