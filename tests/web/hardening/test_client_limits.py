"""Fair online play's limits (issue 12; the dice and the bots are tests/web/live/test_fair.py's):
per-client limits, and WebSocket messages over the limit answered at any size."""

from __future__ import annotations

import json

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from monsterball.settings import Limits
from monsterball.web.api.services import services_of
from monsterball.web.hardening.frames import MessageLimiter
from tests.helpers.web import NO_CLIENT_LIMITS, app_at, first_move, server
from tests.web.api.test_api import tokens

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# -- per-client limits ----------------------------------------------------------------------


def limited(tmp_path, **limits):
    base = NO_CLIENT_LIMITS.__dict__ | limits
    return TestClient(app_at(tmp_path / "limited.db", Limits(**base)))


def test_too_many_new_games_from_one_address_get_429_with_retry_after(tmp_path):
    with limited(tmp_path, games_per_minute=2) as c:
        for _ in range(2):
            assert c.post("/api/games", json={"game": "midway"}).status_code == 201
        refused = c.post("/api/games", json={"game": "midway"})
        assert refused.status_code == 429 and refused.json()["error"] == "too-many"
        assert 1 <= int(refused.headers["retry-after"]) <= 30
        assert len(c.get("/api/games").json()["games"]) == 2


def test_too_many_moves_from_one_token_get_429_over_http_and_the_socket(tmp_path):
    with limited(tmp_path, moves_per_second=1) as c:
        created = c.post(
            "/api/games", json={"game": "paper-ultimate", "mode": "hotseat", "seed": 3}
        ).json()
        gid, token = created["id"], tokens(created)["A"]
        message = c.get(f"/api/games/{gid}", params={"token": token}).json()
        ply = message["game"]["ply"]
        body = {"token": token, "action": first_move(message), "ply": ply}
        assert c.post(f"/api/games/{gid}/act", json=body).status_code == 200
        again = c.post(f"/api/games/{gid}/act", json={**body, "ply": ply + 1})
        assert again.status_code == 429 and again.headers["retry-after"] == "1"
        with c.websocket_connect(f"/ws/{gid}?token={token}") as ws:
            ws.receive_json()
            ws.send_json({"type": "act", "action": "end", "ply": ply + 1})
            reply = ws.receive_json()
            assert reply["error"] == "too-many" and reply["retry_after"] == 1
        assert c.get(f"/api/games/{gid}").json()["game"]["ply"] == ply + 1


def test_an_address_may_hold_only_so_many_live_rooms(tmp_path):
    with limited(tmp_path, rooms_per_address=2) as c:
        for _ in range(2):
            assert (
                c.post("/api/games", json={"game": "midway", "mode": "online"}).status_code == 201
            )
        refused = c.post("/api/games", json={"game": "midway", "mode": "online"})
        assert refused.status_code == 429 and "games in progress" in refused.json()["message"]
        # A finished game no longer counts.
        done = c.post(
            "/api/games",
            json={"game": "paper-ultimate", "mode": "bot", "bots": {"A": "easy", "B": "easy"}},
        )
        assert done.status_code == 429
        rooms = services_of(c.app).rooms
        rooms.rooms_per_address = 3
        assert (
            c.post(
                "/api/games",
                json={"game": "paper-ultimate", "mode": "bot", "bots": {"A": "easy", "B": "easy"}},
            ).status_code
            == 201
        )
        assert c.post("/api/games", json={"game": "midway", "mode": "online"}).status_code == 201


# -- WebSocket messages over the limit ------------------------------------------------------


@pytest.mark.slow
def test_socket_messages_of_any_size_get_too_large_and_the_socket_stays_open(tmp_path):
    """Through `monsterball serve` (uvicorn closed the socket with 1009 past 64 KiB)."""
    with server(tmp_path / "games.db") as (base, _):
        created = httpx.post(base + "/api/games", json={"game": "midway", "mode": "online"}).json()
        url = base.replace("http", "ws", 1) + f"/ws/{created['id']}"
        with connect(url, max_size=1 << 22) as ws:
            json.loads(ws.recv())
            for size in (100 * 1024, 1 << 20):
                ws.send(json.dumps({"type": "act", "action": "x" * size, "ply": 1}))
                reply = json.loads(ws.recv(timeout=30))
                assert reply["type"] == "error" and reply["error"] == "too-large"
                ws.send(b"\0" * size)  # binary, too
                assert json.loads(ws.recv(timeout=30))["error"] == "too-large"
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=30)) == {"type": "pong"}


def masked_frame(opcode: int, payload: bytes, fin: bool = True, key: bytes = b"abcd") -> bytes:
    first = (0x80 if fin else 0) | opcode
    n = len(payload)
    size = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
    masked = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return bytes([first]) + size + key + masked


def unmask_all(stream: bytes) -> list[tuple[int, bytes]]:
    frames = []
    while stream:
        n = stream[1] & 0x7F
        at = 2
        if n == 126:
            n, at = int.from_bytes(stream[2:4], "big"), 4
        key, at = stream[at : at + 4], at + 4
        frames.append((stream[0], bytes(b ^ key[i % 4] for i, b in enumerate(stream[at : at + n]))))
        stream = stream[at + n :]
    return frames


def test_the_frame_limiter_cuts_long_messages_fed_byte_by_byte_and_passes_short_ones():
    limiter = MessageLimiter(10)
    request = b"GET /ws/x HTTP/1.1\r\nHost: a\r\n\r\n"
    stream = (
        request
        + masked_frame(1, b"short")
        + masked_frame(1, b"0123456789" * 30)  # one long frame
        + masked_frame(9, b"ping")
        + masked_frame(1, b"abcdef", fin=False)  # a fragmented message that grows too long
        + masked_frame(0, b"ghijkl" * 50, fin=False)
        + masked_frame(0, b"end")
        + masked_frame(1, b"ok")
    )
    out = b"".join(limiter.feed(stream[i : i + 1]) for i in range(len(stream)))
    assert out.startswith(request)
    frames = unmask_all(out[len(request) :])
    assert frames == [
        (0x81, b"short"),
        (0x81, b" " * 11),  # limit + 1 bytes: the app answers too-large
        (0x89, b"ping"),
        (0x01, b"abcdef"),
        (0x00, b" " * 5),
        (0x80, b""),
        (0x81, b"ok"),
    ]
