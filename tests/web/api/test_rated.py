"""Where accounts meet ratings (issue 20, docs/web.md "Challenges" and "Ratings"): a rated
challenge between two accounts starts a clocked, rated game whose end (here a flag, on an
injected clock) moves both accounts' ratings, which the leaderboard, the game page and both
player pages then show; quick pairing takes the closer-rated of two waiting players; clients
cannot name a rated game's players."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from monsterball.web.api import pairing, services
from monsterball.web.api.services import services_of
from monsterball.web.app import create_app
from monsterball.web.store.ratings import settle
from tests.helpers.web import CHEAP_HASHING, NO_CLIENT_LIMITS
from tests.web.api.test_accounts import one_line_error, sign_up
from tests.web.live.test_clocks import FakeTime

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
GAME = "paper-ultimate"
TWO_MINUTES = {"kind": "realtime", "minutes": 2, "increment": 0}


@pytest.fixture
def now():
    return FakeTime()


@pytest.fixture
def alice(tmp_path, monkeypatch, now):
    monkeypatch.setattr(services, "HASH_PARAMS", CHEAP_HASHING)
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", limits=NO_CLIENT_LIMITS, now_ms=now)
    with TestClient(app) as client:
        sign_up(client, "Alice")
        yield client


def another(first: TestClient, name: str) -> TestClient:
    """A second player's client, on the first one's event loop (where the rooms' timers run)."""
    client = TestClient(first.app)
    client.portal = first.portal
    sign_up(client, name)
    return client


def key(client: TestClient, name: str) -> str:
    account = services_of(client.app).social.people.find(name)[0]
    return f"account:{account.id}"


def test_a_rated_challenge_lost_on_time_moves_both_ratings_everywhere_they_show(alice, now):
    bob = another(alice, "Bob")
    posted = alice.post(
        "/api/challenges", json={"game": GAME, "clock": TWO_MINUTES, "rated": True, "seat": "A"}
    )
    assert posted.status_code == 201, posted.text
    (listed,) = bob.get("/api/challenges").json()["challenges"]
    assert (listed["rated"], listed["rating"], listed["rating_shown"]) == (True, 1500, "1500?")
    gid = bob.post(f"/api/challenges/{posted.json()['id']}/accept").json()["id"]
    row = services_of(alice.app).rooms.store.get(gid)
    players = {"A": key(alice, "Alice"), "B": key(alice, "Bob")}
    assert row.rated is True and row.players == players
    assert row.clock is not None and row.clock["control"]["minutes"] == 2
    seen = alice.get(f"/api/games/{gid}").json()
    assert seen["clock"]["running"] in ("A", "B")
    assert alice.get(f"/api/games/{gid}/players").json()["ratings"] == {"A": "1500?", "B": "1500?"}
    spectators = f"/api/games/{gid}/chat?channel=spectators"
    one_line_error(alice.get(spectators), 403, "spectator")  # not while it is played
    # Nobody moves: three (server) minutes on, the running side's flag has fallen.
    loser = seen["clock"]["running"]
    winner = "B" if loser == "A" else "A"
    now.ms += 180_000
    rooms = services_of(alice.app).rooms
    assert alice.portal.call(rooms.check_clock, alice.portal.call(rooms.get, gid))
    ended = services_of(alice.app).rooms.store.get(gid)
    assert ended.status == "finished" and ended.ending["loser"] == loser
    assert alice.get(spectators).status_code == 200  # a game lost on time is over too
    # The leaderboard lists both accounts by name, the winner above 1500, the loser below.
    board = {p["name"]: p for p in alice.get(f"/api/ratings/{GAME}").json()["players"]}
    names = {"A": "Alice", "B": "Bob"}
    assert set(board) == {"Alice", "Bob"}
    assert board[names[winner]]["rating"] > 1500 > board[names[loser]]["rating"]
    assert board[names[winner]]["player"] == players[winner]
    # Both player pages: the rating now, its history (one point: this game), the change.
    for seat, name in names.items():
        page = alice.get(f"/api/players/{name}").json()
        (rating,) = page["ratings"]
        assert rating["game"] == GAME and rating["shown"] == board[name]["shown"]
        assert [p["game_id"] for p in rating["history"]] == [gid]
        assert rating["history"][0]["rating"] == board[name]["rating"]
        (game,) = page["games"]
        assert game["rated"] is True and game["rating_after"] == board[name]["shown"]
        change = game["rating_change"]
        assert change == pytest.approx(board[name]["rating"] - 1500, abs=0.11)
        assert (change > 0) == (seat == winner) and change != 0
    shown = alice.get(f"/api/games/{gid}/players").json()["ratings"]
    assert shown == {s: board[n]["shown"] for s, n in names.items()}


def test_a_second_rated_game_adds_a_history_point_and_an_unrated_one_none(alice, now):
    bob = another(alice, "Bob")
    store = services_of(alice.app).rooms.store
    for n, rated in enumerate([True, True, False]):
        cid = alice.post(
            "/api/challenges", json={"game": GAME, "clock": TWO_MINUTES, "rated": rated}
        ).json()["id"]
        gid = bob.post(f"/api/challenges/{cid}/accept").json()["id"]
        now.ms += 180_000
        rooms = services_of(alice.app).rooms
        assert alice.portal.call(rooms.check_clock, alice.portal.call(rooms.get, gid))
        assert store.get(gid).rated is rated, n
    page = alice.get("/api/players/Alice").json()
    (rating,) = page["ratings"]
    assert len(rating["history"]) == 2 and rating["games"] == 2
    unrated, *rated_games = page["games"]  # newest first
    assert unrated["rated"] is False and unrated["rating_change"] is None
    assert all(g["rating_change"] is not None for g in rated_games)


def test_quick_pairing_takes_the_closer_rated_of_two_waiting_players(alice, monkeypatch):
    # Alice (1500) reaches both waiting players; they are too far apart to pair each other.
    monkeypatch.setattr(pairing, "PAIR_WINDOW", 300.0)
    monkeypatch.setattr(pairing, "PAIR_WIDENS_PER_SECOND", 0.0)
    dave, carol = another(alice, "Dave"), another(alice, "Carol")
    store = services_of(alice.app).rooms.store
    for n in range(3):  # Dave loses three games, Carol wins one: she is nearer Alice's 1500
        settle(store, f"d{n}", [key(alice, "Dave"), "bot:medium"], [-1.0, 1.0], game=GAME)
    settle(store, "c0", [key(alice, "Carol"), "bot:hard"], [1.0, -1.0], game=GAME)
    ratings = {p["name"]: p["rating"] for p in alice.get(f"/api/ratings/{GAME}").json()["players"]}
    assert abs(ratings["Carol"] - 1500) < abs(ratings["Dave"] - 1500) < 300
    assert ratings["Carol"] - ratings["Dave"] > 300
    body = {"game": GAME, "clock": TWO_MINUTES, "rated": True}
    assert dave.post("/api/pairing", json=body).json()["status"] == "waiting"  # waits longer
    assert carol.post("/api/pairing", json=body).json()["status"] == "waiting"
    matched = alice.post("/api/pairing", json=body).json()
    assert matched["status"] == "started"
    row = store.get(matched["id"])
    assert set(row.players.values()) == {key(alice, "Alice"), key(alice, "Carol")}
    assert row.rated is True and row.clock["control"]["minutes"] == 2
    assert dave.delete("/api/pairing").json() == {"stopped": 1}  # Dave still waits


def test_rated_games_are_only_made_by_the_server_between_accounts(alice):
    anonymous = TestClient(alice.app)
    anonymous.portal = alice.portal
    named = anonymous.post(
        "/api/games",
        json={"game": GAME, "mode": "online", "rated": True, "players": {"A": "account:1"}},
    )
    assert "never by a request" in one_line_error(named, 400, "bad-request")
    unnamed = anonymous.post("/api/games", json={"game": GAME, "mode": "online", "rated": True})
    assert "needs a player for seat" in one_line_error(unnamed, 400, "bad-request")
    assert alice.get("/api/games").json()["games"] == []
    rated = alice.post("/api/challenges", json={"game": GAME, "rated": True}).json()
    refused = anonymous.post(f"/api/challenges/{rated['id']}/accept")
    one_line_error(refused, 401, "login-required")
    short = alice.post(
        "/api/challenges",
        json={"game": GAME, "clock": {"kind": "realtime", "minutes": 0.1, "increment": 0}},
    )
    assert "clock.minutes" in one_line_error(short, 400, "bad-request")  # under 30 s


def test_a_rematch_seats_both_accounts_swapped_unrated_with_the_same_clock(alice, now):
    bob = another(alice, "Bob")
    cid = alice.post(
        "/api/challenges", json={"game": GAME, "clock": TWO_MINUTES, "rated": True, "seat": "A"}
    ).json()["id"]
    gid = bob.post(f"/api/challenges/{cid}/accept").json()["id"]
    now.ms += 180_000
    rooms = services_of(alice.app).rooms
    assert alice.portal.call(rooms.check_clock, alice.portal.call(rooms.get, gid))
    with bob.websocket_connect("/ws-lobby") as lobby:
        assert lobby.receive_json() == {"type": "challenges"}
        asked = alice.post(f"/api/games/{gid}/rematch", json={})  # by the session, no token
        assert asked.status_code == 202, asked.text  # an offer (tests/web/live/test_rematch.py)
        assert lobby.receive_json()["type"] == "rematch-offer"
        again = bob.post(f"/api/games/{gid}/rematch", json={})  # accepted
        assert again.status_code == 201, again.text
        new = again.json()["id"]
        assert again.json()["you"] == f"/play/{new}"
        assert lobby.receive_json() == {"type": "started", "id": new, "url": f"/play/{new}"}
    assert alice.get(f"/api/games/{new}").json()["you"] == "B"
    assert bob.get(f"/api/games/{new}").json()["you"] == "A"
    assert new in {g["id"] for g in bob.get("/api/my/games").json()["games"]}
    assert alice.get(f"/api/games/{new}/players").json()["players"] == {"A": "Bob", "B": "Alice"}
    row = rooms.store.get(new)
    assert row.rated is False and row.clock["control"]["minutes"] == 2


def test_a_message_a_moderator_deletes_leaves_the_open_game_and_lobby_pages(alice):
    """`monsterball admin delete-message` writes the store from another process; the server's
    sweep finds the deletion and tells the sockets of that channel (chat.announce_deletions)."""
    from monsterball.web.api import chat

    bob = another(alice, "Bob")
    cid = alice.post("/api/challenges", json={"game": GAME}).json()["id"]
    gid = bob.post(f"/api/challenges/{cid}/accept").json()["id"]
    people = services_of(alice.app).social.people
    sweep = lambda: alice.portal.call(chat.announce_deletions, alice.app)  # noqa: E731
    sweep()  # (the server's own sweep may have looked first: either way, a first look)
    with bob.websocket_connect(f"/ws/{gid}") as player, bob.websocket_connect("/ws-lobby") as lobby:
        assert player.receive_json()["you"] in ("A", "B")
        assert lobby.receive_json() == {"type": "challenges"}
        kept = alice.post(f"/api/games/{gid}/chat", json={"text": "hello"}).json()
        rude = alice.post(f"/api/games/{gid}/chat", json={"text": "something rude"}).json()
        shouted = alice.post("/api/lobby/chat", json={"text": "rude in the lobby"}).json()
        assert player.receive_json()["message"]["id"] == kept["id"]
        assert player.receive_json()["message"]["id"] == rude["id"]
        assert lobby.receive_json()["message"]["id"] == shouted["id"]
        assert sweep() == []  # nothing deleted: nothing told
        assert people.delete_message(rude["id"]) and people.delete_message(shouted["id"])
        sweep()  # (or the server's own sweep, a moment before: the pages are told once)
        assert player.receive_json() == {"type": "chat-deleted", "id": rude["id"]}
        assert lobby.receive_json() == {"type": "chat-deleted", "id": shouted["id"]}
        assert sweep() == []  # told once
        player.send_json({"type": "ping"})
        assert player.receive_json()["type"] != "chat-deleted"
    texts = [m["text"] for m in bob.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert texts == ["hello"]
