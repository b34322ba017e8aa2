"""Chat, mutes, blocks, reports and the admin commands (issue 20: "chat messages with markup
are returned and drawn as plain text; block and mute"; "an admin command to lock an account
and delete messages")."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from monsterball.cli import app as cli_app
from monsterball.web.api import services
from monsterball.web.api.services import services_of
from monsterball.web.app import create_app
from tests.helpers.web import CHEAP_HASHING, NO_CLIENT_LIMITS, app_at
from tests.web.api.test_accounts import PASSWORD, one_line_error, sign_up

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
MARKUP = '<script>alert("x")</script><b onclick="boom()">bold</b> &amp; <img src=x onerror=1>'


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.db"


@pytest.fixture
def app(db, monkeypatch):
    monkeypatch.setattr(services, "HASH_PARAMS", CHEAP_HASHING)
    return app_at(db)


@pytest.fixture
def clients(app):
    """Alice, Bob and Carol, logged in (three browsers on one server)."""
    with TestClient(app) as alice:
        sign_up(alice, "Alice")
        bob, carol = TestClient(app), TestClient(app)
        sign_up(bob, "Bob")
        sign_up(carol, "Carol")
        yield alice, bob, carol


def admin(db, *args):
    return CliRunner().invoke(
        cli_app, ["admin", *args, "--db", f"sqlite:///{db}"], env={"COLUMNS": "200"}
    )


def challenge_game(poster, taker) -> str:
    cid = poster.post("/api/challenges", json={"game": "huck-monster"}).json()["id"]
    return taker.post(f"/api/challenges/{cid}/accept").json()["id"]


def test_markup_is_stored_and_returned_as_the_text_it_was(app):
    with TestClient(app) as client:
        created = client.post("/api/games", json={"game": "huck-monster", "mode": "online"})
        gid = created.json()["id"]
        token_a, token_b = (c["token"] for c in created.json()["chairs"])
        with client.websocket_connect(f"/ws/{gid}") as socket:
            socket.send_json({"type": "seat", "token": token_b})
            assert socket.receive_json()["type"] == "state"  # the spectators' greeting
            assert socket.receive_json()["you"] == "B"
            posted = client.post(f"/api/games/{gid}/chat", json={"text": MARKUP, "token": token_a})
            assert posted.status_code == 201, posted.text
            pushed = socket.receive_json()
        assert pushed["type"] == "chat" and pushed["message"]["text"] == MARKUP
        assert pushed["message"]["author"] == "A" and pushed["message"]["channel"] == "players"
        read = client.get(f"/api/games/{gid}/chat", headers={"seat-token": token_b})
        assert read.headers["content-type"] == "application/json"
        assert [m["text"] for m in read.json()["messages"]] == [MARKUP]


def test_spectators_have_their_own_channel_that_players_do_not_see_during_play(clients, app):
    alice, bob, carol = clients
    gid = challenge_game(alice, bob)
    anonymous = TestClient(app)
    refused = anonymous.post(f"/api/games/{gid}/chat", json={"text": "hello"})
    assert "log in" in one_line_error(refused, 401, "login-required")
    with (
        alice.websocket_connect(f"/ws/{gid}") as player,
        carol.websocket_connect(f"/ws/{gid}") as spectator,
    ):
        assert player.receive_json()["you"] in ("A", "B")  # seated by the session cookie
        assert spectator.receive_json()["you"] is None
        said = carol.post(f"/api/games/{gid}/chat", json={"text": "nice throw"}).json()
        assert said["channel"] == "spectators" and said["author"] == "Carol"
        assert spectator.receive_json()["message"]["text"] == "nice throw"
        told = alice.post(f"/api/games/{gid}/chat", json={"text": "good luck"}).json()
        assert told["channel"] == "players" and told["author"] == "Alice"
        # The player's socket gets the players' message next, never the spectators'.
        assert player.receive_json()["message"]["text"] == "good luck"
    hidden = alice.get(f"/api/games/{gid}/chat", params={"channel": "spectators"})
    assert "once the game is over" in one_line_error(hidden, 403, "spectator")
    assert [m["text"] for m in alice.get(f"/api/games/{gid}/chat").json()["messages"]] == [
        "good luck"
    ]
    seen = carol.get(f"/api/games/{gid}/chat").json()
    assert seen["channel"] == "spectators" and [m["text"] for m in seen["messages"]] == [
        "nice throw"
    ]
    table_talk = carol.get(f"/api/games/{gid}/chat", params={"channel": "players"}).json()
    assert [m["text"] for m in table_talk["messages"]] == ["good luck"]


@pytest.mark.parametrize(
    ("text", "why"),
    [("   ", "empty"), ("x" * 501, "500 characters"), ("bell\x07", "control characters")],
)
def test_bad_messages_are_refused_and_not_stored(clients, text, why):
    alice, _, _ = clients
    refused = alice.post("/api/lobby/chat", json={"text": text})
    assert why in one_line_error(refused, 400, "bad-request")
    assert alice.get("/api/lobby/chat").json()["messages"] == []


def test_chat_is_rate_limited_per_author(clients):
    alice, _, _ = clients
    codes = [alice.post("/api/lobby/chat", json={"text": f"m{i}"}).status_code for i in range(13)]
    assert codes == [201] * 12 + [429]
    assert len(alice.get("/api/lobby/chat").json()["messages"]) == 12


def test_mute_hides_a_players_messages_from_me_only(clients):
    alice, bob, carol = clients
    bob.post("/api/lobby/chat", json={"text": "spam spam"})
    muted = alice.post("/api/relations", json={"name": "bob", "kind": "mute"})
    assert muted.json() == {"name": "Bob", "kind": "mute", "on": True}
    assert alice.get("/api/relations").json() == {"mute": ["Bob"], "block": []}
    assert alice.get("/api/lobby/chat").json()["messages"] == []
    assert [m["text"] for m in carol.get("/api/lobby/chat").json()["messages"]] == ["spam spam"]
    alice.post("/api/relations", json={"name": "Bob", "kind": "mute", "on": False})
    assert [m["text"] for m in alice.get("/api/lobby/chat").json()["messages"]] == ["spam spam"]
    one_line_error(
        alice.post("/api/relations", json={"name": "Zed", "kind": "mute"}), 404, "not-found"
    )
    one_line_error(
        alice.post("/api/relations", json={"name": "alice", "kind": "block"}), 400, "bad-request"
    )


def test_a_blocked_account_cannot_take_my_challenges_or_chat_where_i_play(clients):
    alice, bob, carol = clients
    gid = challenge_game(alice, bob)  # before the block
    alice.post("/api/relations", json={"name": "Bob", "kind": "block"})
    cid = alice.post("/api/challenges", json={"game": "midway"}).json()["id"]
    assert bob.get("/api/challenges").json()["challenges"] == []  # not shown to him
    assert [c["id"] for c in carol.get("/api/challenges").json()["challenges"]] == [cid]
    taken = bob.post(f"/api/challenges/{cid}/accept")
    one_line_error(taken, 403, "blocked")
    said = bob.post(f"/api/games/{gid}/chat", json={"text": "hey"})
    assert "blocked you" in one_line_error(said, 403, "blocked")
    assert alice.get(f"/api/games/{gid}/chat").json()["messages"] == []
    # Quick pairing never matches them either.
    assert alice.post("/api/pairing", json={"game": "midway"}).json()["status"] == "waiting"
    assert bob.post("/api/pairing", json={"game": "midway"}).json()["status"] == "waiting"
    assert carol.post("/api/pairing", json={"game": "midway"}).json()["status"] == "started"


def test_report_then_admin_reports_delete_message_lock_and_unlock(clients, db, app):
    alice, bob, carol = clients
    nasty = bob.post("/api/lobby/chat", json={"text": "<b>rude</b>\nwords"}).json()
    reported = alice.post(f"/api/chat/{nasty['id']}/report")
    assert reported.status_code == 201, reported.text
    carol.post(f"/api/chat/{nasty['id']}/report")
    one_line_error(alice.post("/api/chat/999/report"), 404, "not-found")
    listed = admin(db, "reports")
    assert listed.exit_code == 0, listed.output
    lines = listed.output.strip().splitlines()
    assert len(lines) == 2
    assert lines[0] == (
        f"report 1: message {nasty['id']} (lobby) by Bob, reported by Alice (2 reports): "
        "<b>rude</b> / words"
    )
    deleted = admin(db, "delete-message", str(nasty["id"]))
    assert deleted.output.strip() == f"deleted message {nasty['id']}"
    assert carol.get("/api/lobby/chat").json()["messages"] == []
    assert "[deleted]" in admin(db, "reports").output
    missing = admin(db, "delete-message", "999")
    assert missing.exit_code == 2 and missing.output.strip() == "error: no message 999"
    cid = bob.post("/api/challenges", json={"game": "midway"}).json()["id"]
    locked = admin(db, "lock-account", "BOB")
    assert locked.exit_code == 0 and locked.output.startswith("locked Bob")
    assert bob.get("/api/session").json() == {"name": None}  # its session ended
    assert carol.get("/api/challenges").json()["challenges"] == []  # withdrawn
    one_line_error(carol.post(f"/api/challenges/{cid}/accept"), 409, "gone")
    again = TestClient(app).post("/api/session", json={"name": "Bob", "password": PASSWORD})
    assert "locked by a moderator" in one_line_error(again, 403, "locked")
    assert admin(db, "unlock-account", "bob").output.startswith("unlocked Bob")
    back = TestClient(app).post("/api/session", json={"name": "Bob", "password": PASSWORD})
    assert back.status_code == 200
    unknown = admin(db, "lock-account", "nobody")
    assert unknown.exit_code == 2 and unknown.output.strip() == "error: no account 'nobody'"
    nowhere = CliRunner().invoke(cli_app, ["admin", "reports", "--db", "sqlite:///nowhere.db"])
    assert nowhere.exit_code == 2 and "no such SQLite database" in nowhere.output


def test_accounts_challenges_chat_and_reports_on_postgresql(postgres_url, monkeypatch):
    """The people tables' queries on PostgreSQL (the rest of these tests run on SQLite)."""
    monkeypatch.setattr(services, "HASH_PARAMS", CHEAP_HASHING)
    name = f"t{uuid.uuid4().hex[:12]}"
    engine = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    url = postgres_url.rsplit("/", 1)[0] + f"/{name}"
    with TestClient(create_app(url, limits=NO_CLIENT_LIMITS)) as alice:
        sign_up(alice, "Alice")
        bob = TestClient(alice.app)
        sign_up(bob, "Bob")
        one_line_error(
            bob.post("/api/accounts", json={"name": "ALICE", "password": PASSWORD}), 409, "taken"
        )
        gid = challenge_game(alice, bob)
        assert {
            alice.get(f"/api/games/{gid}").json()["you"],
            bob.get(f"/api/games/{gid}").json()["you"],
        } == {"A", "B"}
        said = bob.post(f"/api/games/{gid}/chat", json={"text": MARKUP}).json()
        assert [m["text"] for m in alice.get(f"/api/games/{gid}/chat").json()["messages"]] == [
            MARKUP
        ]
        alice.post("/api/relations", json={"name": "Bob", "kind": "mute"})
        assert alice.get(f"/api/games/{gid}/chat").json()["messages"] == []
        alice.post(f"/api/chat/{said['id']}/report")
        (report,) = services_of(alice.app).social.people.reports()
        assert report[1].text == MARKUP and report[2] == 1
        assert [g["id"] for g in bob.get("/api/players/alice").json()["games"]] == [gid]
        assert bob.post("/api/pairing", json={"game": "midway"}).json()["status"] == "waiting"
        assert alice.post("/api/pairing", json={"game": "midway"}).json()["status"] == "started"
        services_of(alice.app).social.people.set_locked("bob", True)
        assert bob.get("/api/session").json() == {"name": None}
