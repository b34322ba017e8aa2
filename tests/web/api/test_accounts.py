"""Accounts, sessions and CSRF, open challenges and quick pairing (issue 20: "API tests:
sign-up and log-in (bad passwords, duplicates, rate limit), sessions and CSRF; challenge
create/list/accept/expire")."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from monsterball.web.api import challenges, services
from monsterball.web.api.services import services_of
from tests.helpers.web import CHEAP_HASHING, app_at, first_move

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
PASSWORD = "monster truck rally"
CLOCK = {"kind": "realtime", "minutes": 5, "increment": 3}


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setattr(services, "HASH_PARAMS", CHEAP_HASHING)
    return app_at(tmp_path / "games.db")


@pytest.fixture
def alice(app):
    with TestClient(app) as client:
        sign_up(client, "Alice")
        yield client


@pytest.fixture
def bob(app, alice):
    client = TestClient(app)
    sign_up(client, "Bob")
    return client


def sign_up(client: TestClient, name: str, password: str = PASSWORD):
    made = client.post("/api/accounts", json={"name": name, "password": password})
    assert made.status_code == 201, made.text
    client.headers["x-csrf-token"] = made.json()["csrf"]
    return made


def one_line_error(response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == code and "\n" not in body["message"]
    return body["message"]


# -- accounts and sessions ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "password", "why"),
    [
        ("ab", PASSWORD, "3 to 20 characters"),
        ("a" * 21, PASSWORD, "3 to 20 characters"),
        ("<b>bold</b>", PASSWORD, "letters, digits"),
        ("_under", PASSWORD, "starting with a letter or digit"),
        ("Admin", PASSWORD, "reserved"),
        ("Carol", "short", "at least 8 characters"),
        ("Carol", "x" * 129, "at most 128 characters"),
        ("Carol", "carol", "at least 8"),
        ("Carolina", "CAROLINA", "too easy to guess"),
        ("Carol", "password", "too easy to guess"),
    ],
)
def test_bad_names_and_passwords_are_refused_in_one_line_and_nothing_is_made(
    app, name, password, why
):
    with TestClient(app) as client:
        refused = client.post("/api/accounts", json={"name": name, "password": password})
        assert why in one_line_error(refused, 400, "bad-request")
        assert "mb_session" not in refused.cookies
        login = client.post("/api/session", json={"name": name, "password": password})
        assert login.status_code in (400, 401)


def test_names_are_unique_ignoring_case(alice):
    for name in ("Alice", "alice", "ALICE"):
        taken = alice.post("/api/accounts", json={"name": name, "password": "another long one!"})
        assert "is taken" in one_line_error(taken, 409, "taken")
    # The first account's password still logs in, by any case of its name.
    again = alice.post("/api/session", json={"name": "aLiCe", "password": PASSWORD})
    assert again.status_code == 200 and again.json()["name"] == "Alice"
    _, stored = services_of(alice.app).social.people.find("alice")
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_log_in_wrong_password_log_out_and_a_dead_cookie(app, alice):
    assert alice.get("/api/session").json() == {"name": "Alice"}
    stranger = TestClient(app)
    wrong = stranger.post("/api/session", json={"name": "Alice", "password": "not it at all"})
    assert one_line_error(wrong, 401, "bad-login") == "wrong name or password"
    nobody = stranger.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
    assert one_line_error(nobody, 401, "bad-login") == "wrong name or password"  # same answer
    assert stranger.get("/api/session").json() == {"name": None}
    cookie = alice.cookies["mb_session"]
    out = alice.delete("/api/session")
    assert out.status_code == 200
    assert alice.get("/api/session").json() == {"name": None}
    # The old cookie is dead on the server, not just forgotten by this browser.
    replayed = TestClient(app, cookies={"mb_session": cookie})
    assert replayed.get("/api/session").json() == {"name": None}


def test_session_cookies_are_http_only_same_site_and_secure_over_https(app):
    with TestClient(app, base_url="https://testserver") as client:
        made = client.post("/api/accounts", json={"name": "Dora", "password": PASSWORD})
        cookies = {c.split("=", 1)[0]: c.lower() for c in made.headers.get_list("set-cookie")}
    assert "httponly" in cookies["mb_session"] and "samesite=lax" in cookies["mb_session"]
    assert "secure" in cookies["mb_session"] and "secure" in cookies["mb_csrf"]
    assert "httponly" not in cookies["mb_csrf"]  # the page reads it to send it back
    with TestClient(app) as plain:
        made = plain.post("/api/accounts", json={"name": "Eve", "password": PASSWORD})
        assert "secure" not in made.headers["set-cookie"].lower()


def test_log_in_is_rate_limited_per_name_and_per_address(app, alice):
    attacker = TestClient(app)
    for _ in range(5):
        wrong = attacker.post("/api/session", json={"name": "alice", "password": "guess guess"})
        assert wrong.status_code == 401
    limited = attacker.post("/api/session", json={"name": "ALICE", "password": PASSWORD})
    assert "log-in attempts for this name" in one_line_error(limited, 429, "too-many")
    assert int(limited.headers["retry-after"]) >= 1
    # Other names from the same address: the per-address limit (10 a minute) stops them too.
    codes = [
        attacker.post("/api/session", json={"name": f"user{i}", "password": "guess guess"})
        for i in range(6)
    ]
    assert [c.status_code for c in codes[:4]] == [401] * 4
    assert "from this address" in one_line_error(codes[-1], 429, "too-many")


def test_a_cookie_write_without_the_csrf_token_is_refused_and_changes_nothing(app, alice):
    token = alice.headers.pop("x-csrf-token")
    body = {"game": "huck-monster", "clock": CLOCK}
    missing = alice.post("/api/challenges", json=body)
    assert "x-csrf-token" in one_line_error(missing, 403, "csrf")
    wrong = alice.post("/api/challenges", json=body, headers={"x-csrf-token": "x" + token})
    one_line_error(wrong, 403, "csrf")
    elsewhere = alice.post(
        "/api/challenges",
        json=body,
        headers={"x-csrf-token": token, "origin": "https://evil.example"},
    )
    assert "another site" in one_line_error(elsewhere, 403, "csrf")
    out = alice.delete("/api/session")
    one_line_error(out, 403, "csrf")
    assert alice.get("/api/challenges").json()["challenges"] == []
    assert alice.get("/api/session").json() == {"name": "Alice"}  # still logged in
    made = alice.post("/api/challenges", json=body, headers={"x-csrf-token": token})
    assert made.status_code == 201, made.text


# -- challenges --------------------------------------------------------------------------


def test_challenge_post_list_own_accept_refused_accept_and_play_by_session(alice, bob):
    posted = alice.post("/api/challenges", json={"game": "huck-monster", "clock": CLOCK})
    assert posted.status_code == 201, posted.text
    cid = posted.json()["id"]
    listed = bob.get("/api/challenges").json()["challenges"]
    assert [(c["id"], c["by"], c["clock"], c["mine"]) for c in listed] == [
        (cid, "Alice", CLOCK, False)
    ]
    own = alice.post(f"/api/challenges/{cid}/accept")
    assert "your own challenge" in one_line_error(own, 400, "bad-request")
    accepted = bob.post(f"/api/challenges/{cid}/accept")
    assert accepted.status_code == 201, accepted.text
    gid = accepted.json()["id"]
    assert accepted.json()["url"] == f"/play/{gid}" and accepted.json()["token"] is None
    assert bob.get("/api/challenges").json()["challenges"] == []
    again = alice.app and TestClient(alice.app)
    late = again.post(f"/api/challenges/{cid}/accept")
    one_line_error(late, 409, "gone")
    # Both accounts sit in the game: their sessions act there, no link needed.
    seen = {who: c.get(f"/api/games/{gid}").json()["you"] for who, c in [("A", alice), ("B", bob)]}
    assert sorted(seen.values()) == ["A", "B"]
    assert again.get(f"/api/games/{gid}").json()["you"] is None  # a spectator
    mine = {g["id"]: g["seat"] for g in alice.get("/api/my/games").json()["games"]}
    assert mine == {gid: seen["A"]}
    # The chair to act plays by its session (empty token, CSRF header).
    state = alice.get(f"/api/games/{gid}").json()
    mover = alice if state["legal"] else bob
    state = mover.get(f"/api/games/{gid}").json()
    no_csrf = TestClient(mover.app, cookies=mover.cookies)
    body = {"token": "", "action": first_move(state), "ply": state["game"]["ply"]}
    one_line_error(no_csrf.post(f"/api/games/{gid}/act", json=body), 403, "csrf")
    moved = mover.post(f"/api/games/{gid}/act", json=body)
    assert moved.status_code == 200, moved.text
    assert moved.json()["game"]["ply"] > state["game"]["ply"]
    seats = services_of(mover.app).social.people.seats_of_game(gid)
    assert {name: n for name, (_, n) in seats.items()} == {seen["A"]: "Alice", seen["B"]: "Bob"}


def test_the_poster_chooses_a_seat_or_secrets_draws_one(alice, bob, monkeypatch):
    chosen = alice.post("/api/challenges", json={"game": "huck-monster", "seat": "B"}).json()
    gid = bob.post(f"/api/challenges/{chosen['id']}/accept").json()["id"]
    assert alice.get(f"/api/games/{gid}").json()["you"] == "B"
    draws = []
    monkeypatch.setattr(
        challenges.secrets, "randbelow", lambda n: draws.append(n) or 0, raising=True
    )
    drawn = alice.post("/api/challenges", json={"game": "huck-monster"}).json()
    gid = bob.post(f"/api/challenges/{drawn['id']}/accept").json()["id"]
    assert draws == [2] and alice.get(f"/api/games/{gid}").json()["you"] == "A"


def test_anonymous_players_take_unrated_challenges_by_link_not_rated_ones(app, alice):
    rated = alice.post("/api/challenges", json={"game": "huck-monster", "rated": True}).json()
    anonymous = TestClient(app)
    refused = anonymous.post(f"/api/challenges/{rated['id']}/accept")
    assert "accounts on both sides" in one_line_error(refused, 401, "login-required")
    posting = anonymous.post("/api/challenges", json={"game": "huck-monster"})
    one_line_error(posting, 401, "login-required")
    free = alice.post("/api/challenges", json={"game": "huck-monster"}).json()
    taken = anonymous.post(f"/api/challenges/{free['id']}/accept").json()
    gid, token = taken["id"], taken["token"]
    assert taken["url"] == f"/play/{gid}#token={token}"
    assert (
        anonymous.get(f"/api/games/{gid}", params={"token": token}).json()["you"] == taken["seat"]
    )
    assert anonymous.get(f"/api/games/{gid}").json()["you"] is None


def test_challenges_expire_and_can_be_withdrawn_by_their_poster_only(alice, bob, monkeypatch):
    monkeypatch.setattr(challenges, "CHALLENGE_TTL", dt.timedelta(seconds=-1))
    stale = alice.post("/api/challenges", json={"game": "midway"}).json()
    assert bob.get("/api/challenges").json()["challenges"] == []
    expired = bob.post(f"/api/challenges/{stale['id']}/accept")
    assert "expired" in one_line_error(expired, 409, "gone")
    monkeypatch.setattr(challenges, "CHALLENGE_TTL", dt.timedelta(minutes=30))
    live = alice.post("/api/challenges", json={"game": "midway"}).json()
    one_line_error(bob.delete(f"/api/challenges/{live['id']}"), 404, "not-found")
    assert alice.delete(f"/api/challenges/{live['id']}").json()["status"] == "withdrawn"
    assert bob.get("/api/challenges").json()["challenges"] == []
    one_line_error(bob.post(f"/api/challenges/{live['id']}/accept"), 409, "gone")


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"game": "chess"}, "chess"),
        ({"game": "midway", "seat": "C"}, "no seat 'C'"),
        (
            {"game": "midway", "clock": {"kind": "realtime", "minutes": 0, "increment": 0}},
            "minutes",
        ),
        ({"game": "midway", "clock": {"kind": "realtime", "minutes": 5}}, "increment"),
        ({"game": "midway", "clock": {"kind": "correspondence", "days": 30}}, "days"),
        ({"game": "midway", "clock": {"kind": "correspondence", "days": 3, "x": 1}}, "x"),
        ({"game": "midway", "clock": {"kind": "blitz"}}, "kind"),
        ({"game": "midway", "clock": "5+3"}, "clock"),
        ({"game": "midway", "rated": "yes"}, "rated"),
    ],
)
def test_bad_challenges_are_refused_in_one_line(alice, body, why):
    refused = alice.post("/api/challenges", json=body)
    assert why in one_line_error(refused, 400, "bad-request")
    assert alice.get("/api/challenges").json()["challenges"] == []


def test_quick_pairing_matches_the_same_game_and_clock_and_tells_the_waiting_side(alice, bob):
    with alice.websocket_connect("/ws-lobby") as lobby:
        assert lobby.receive_json() == {"type": "challenges"}
        waiting = alice.post("/api/pairing", json={"game": "huck-monster", "clock": CLOCK})
        assert waiting.json()["status"] == "waiting"
        assert alice.get("/api/challenges").json()["challenges"] == []  # not listed
        other = bob.post("/api/pairing", json={"game": "huck-monster", "clock": None})
        assert other.json()["status"] == "waiting"  # another clock: no match
        matched = bob.post("/api/pairing", json={"game": "huck-monster", "clock": CLOCK}).json()
        assert matched["status"] == "started"
        told = lobby.receive_json()
        assert told == {
            "type": "started",
            "challenge": waiting.json()["challenge"],
            "id": matched["id"],
            "url": f"/play/{matched['id']}",
        }
    gid = matched["id"]
    assert {alice.get(f"/api/games/{gid}").json()["you"], matched["seat"]} == {"A", "B"}
    # Bob's entry for the other clock went when he asked again.
    assert bob.delete("/api/pairing").json() == {"stopped": 0}


def test_anonymous_play_by_link_is_unchanged(app):
    with TestClient(app) as client:
        created = client.post("/api/games", json={"game": "huck-monster", "mode": "online"})
        gid = created.json()["id"]
        tokens = {c["name"]: c["token"] for c in created.json()["chairs"]}
        for name, token in tokens.items():
            assert client.get(f"/api/games/{gid}", params={"token": token}).json()["you"] == name
        one_line_error(
            client.post(f"/api/games/{gid}/act", json={"token": "", "action": "x", "ply": 0}),
            403,
            "spectator",
        )


def test_a_logged_in_player_keeps_a_seat_link_in_the_account(alice, bob):
    created = alice.post("/api/games", json={"game": "midway", "mode": "online"}).json()
    gid = created["id"]
    tokens = {c["name"]: c["token"] for c in created["chairs"]}
    assert alice.get(f"/api/games/{gid}").json()["you"] is None  # not bound yet
    no_csrf = TestClient(alice.app, cookies=alice.cookies)
    refused = no_csrf.post(f"/api/games/{gid}/claim", json={"token": tokens["A"]})
    one_line_error(refused, 403, "csrf")
    claimed = alice.post(f"/api/games/{gid}/claim", json={"token": tokens["A"]})
    assert claimed.json() == {"id": gid, "seat": "A"}
    assert alice.get(f"/api/games/{gid}").json()["you"] == "A"  # no link needed now
    second = alice.post(f"/api/games/{gid}/claim", json={"token": tokens["B"]})
    assert "another chair" in one_line_error(second, 403, "wrong-seat")
    taken = bob.post(f"/api/games/{gid}/claim", json={"token": tokens["A"]})
    assert "another player's seat" in one_line_error(taken, 403, "wrong-seat")
    assert bob.post(f"/api/games/{gid}/claim", json={"token": tokens["B"]}).status_code == 200
    assert [g["id"] for g in bob.get("/api/my/games").json()["games"]] == [gid]
    # The seat links still work, for anyone who has them.
    anonymous = TestClient(alice.app)
    seen = anonymous.get(f"/api/games/{gid}", headers={"seat-token": tokens["B"]}).json()
    assert seen["you"] == "B"
    hotseat = alice.post("/api/games", json={"game": "midway", "mode": "hotseat"}).json()
    token = hotseat["chairs"][0]["token"]
    refused = alice.post(f"/api/games/{hotseat['id']}/claim", json={"token": token})
    assert "hot-seat" in one_line_error(refused, 400, "bad-request")


def test_every_lobby_hears_when_the_challenge_list_changes(alice, bob):
    with bob.websocket_connect("/ws-lobby") as lobby:
        assert lobby.receive_json() == {"type": "challenges"}  # the greeting
        cid = alice.post("/api/challenges", json={"game": "midway"}).json()["id"]
        assert lobby.receive_json() == {"type": "challenges"}
        alice.delete(f"/api/challenges/{cid}")
        assert lobby.receive_json() == {"type": "challenges"}
        lobby.send_text('{"type":"ping"}')
        assert lobby.receive_json() == {"type": "pong"}
    elsewhere = TestClient(alice.app, headers={"origin": "https://evil.example"})
    with pytest.raises(WebSocketDisconnect) as closed, elsewhere.websocket_connect("/ws-lobby"):
        pass
    assert closed.value.code == 1008
