"""Rematches by consent (issue 31 item 1, docs/web.md "Rematch"), written as attacks: a
stranger's rematch is refused and seats nobody; a player's hands out its own chair's link
only; the opponent is offered the rematch (on its game page and lobby socket) and gets its
own link by accepting; accounts are seated only once both agreed; two players asking make one
room; "Play on from here" seats nobody but its asker."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from monsterball.web.api import services
from monsterball.web.api.services import services_of
from monsterball.web.app import create_app
from tests.helpers.web import CHEAP_HASHING, NO_CLIENT_LIMITS
from tests.web.api.test_accounts import sign_up
from tests.web.live.test_clocks import FakeTime

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
GAME = "paper-ultimate"
CLOCK = {"kind": "realtime", "minutes": 2, "increment": 0}
LINK = re.compile(r"/play/([0-9a-f]{16})#token=([\w-]{24})")


@pytest.fixture
def now():
    return FakeTime()


@pytest.fixture
def client(tmp_path, monkeypatch, now):
    monkeypatch.setattr(services, "HASH_PARAMS", CHEAP_HASHING)
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", limits=NO_CLIENT_LIMITS, now_ms=now)
    with TestClient(app) as c:
        yield c


def other(first: TestClient) -> TestClient:
    """Another browser (no cookies) on the first one's event loop."""
    client = TestClient(first.app)
    client.portal = first.portal
    return client


def finished_link_room(client, now) -> tuple[str, dict[str, str]]:
    """A finished online room between two seat links."""
    made = client.post("/api/games", json={"game": GAME, "mode": "online", "clock": CLOCK})
    assert made.status_code == 201, made.text
    created = made.json()
    tokens = {c["name"]: c["token"] for c in created["chairs"]}
    # Ended by a resignation (the clock's first die waits for the seats' nonces a while).
    gone = client.post(f"/api/games/{created['id']}/resign", json={"token": tokens["B"]})
    assert gone.json()["game"]["status"] == "finished"
    return created["id"], tokens


def game_ids(client) -> set[str]:
    return {g["id"] for g in client.get("/api/games").json()["games"]}


def tokens_in(answer) -> list[str]:
    return re.findall(r"token=([\w-]{24})|\"token\": ?\"([\w-]+)\"", json.dumps(answer))


def test_a_strangers_rematch_is_refused_and_starts_nothing(client, now):
    playing = client.post("/api/games", json={"game": GAME, "mode": "online"}).json()
    gid, _ = finished_link_room(client, now)
    before = game_ids(client)
    stranger = other(client)
    for game in (gid, playing["id"]):
        for body in ({}, {"token": None}):
            answer = stranger.post(f"/api/games/{game}/rematch", json=body)
            assert answer.status_code in (403, 409), answer.text
            assert answer.json()["error"] in ("spectator", "not-finished")
            assert "token=" not in answer.text and "chairs" not in answer.json()
    assert game_ids(client) == before
    forged = stranger.post(f"/api/games/{gid}/rematch", json={"token": "x" * 24})
    assert forged.status_code == 403 and forged.json()["error"] == "bad-token"


def test_a_game_still_being_played_has_no_rematch(client):
    created = client.post("/api/games", json={"game": GAME, "mode": "online"}).json()
    token = created["chairs"][0]["token"]
    answer = client.post(f"/api/games/{created['id']}/rematch", json={"token": token})
    assert answer.status_code == 409 and answer.json()["error"] == "not-finished"


def test_a_players_rematch_is_an_offer_the_opponent_accepts_for_its_own_link(client, now):
    gid, tokens = finished_link_room(client, now)
    before = game_ids(client)
    with (
        client.websocket_connect(f"/ws/{gid}") as a_page,
        client.websocket_connect(f"/ws/{gid}") as b_page,
        client.websocket_connect(f"/ws/{gid}") as spectator,
    ):
        for page, name in ((a_page, "A"), (b_page, "B")):
            page.receive_json()
            page.send_json({"type": "seat", "token": tokens[name]})
            assert page.receive_json()["you"] == name
        spectator.receive_json()
        asked = client.post(f"/api/games/{gid}/rematch", json={"token": tokens["A"]})
        assert asked.status_code == 202, asked.text
        assert asked.json()["state"] == "offered" and asked.json()["waiting"] == ["B"]
        assert not tokens_in(asked.json())  # not even the asker's yet: no game exists
        assert game_ids(client) == before
        offer = b_page.receive_json()
        assert offer["type"] == "rematch" and offer["state"] == "offered"
        assert offer["agreed"] == ["A"] and offer["you"] is None
        assert a_page.receive_json()["state"] == "offered"
        # The opponent's page learns of the offer on opening too.
        seen = other(client).get(f"/api/games/{gid}/rematch", headers={"seat-token": tokens["B"]})
        assert seen.json()["state"] == "offered"
        accepted = client.post(f"/api/games/{gid}/rematch", json={"token": tokens["B"]})
        assert accepted.status_code == 201, accepted.text
        mine = LINK.fullmatch(accepted.json()["you"])
        assert mine and len(tokens_in(accepted.json())) == 1  # B's own, no other
        told = a_page.receive_json()
        assert told["state"] == "started" and told["id"] == mine.group(1)
        theirs = LINK.fullmatch(told["you"])
        assert theirs and theirs.group(2) != mine.group(2)
        spectator.send_json({"type": "ping"})
        assert spectator.receive_json() == {"type": "pong"}  # told nothing in between
    new = mine.group(1)
    assert game_ids(client) == before | {new}
    seat = lambda token: client.get(f"/api/games/{new}", headers={"seat-token": token})  # noqa: E731
    assert seat(mine.group(2)).json()["you"] == "A"  # B's coach plays A, and A's B
    assert seat(theirs.group(2)).json()["you"] == "B"
    # Asking again is not a second room: each player finds its own link of the one rematch.
    again = client.post(f"/api/games/{gid}/rematch", json={"token": tokens["A"]})
    assert again.status_code == 201 and again.json()["you"] == told["you"]
    assert game_ids(client) == before | {new}


def test_a_declined_offer_tells_the_asker_and_starts_nothing(client, now):
    gid, tokens = finished_link_room(client, now)
    before = game_ids(client)
    with client.websocket_connect(f"/ws/{gid}") as a_page:
        a_page.receive_json()
        a_page.send_json({"type": "seat", "token": tokens["A"]})
        a_page.receive_json()
        client.post(f"/api/games/{gid}/rematch", json={"token": tokens["A"]})
        assert a_page.receive_json()["state"] == "offered"
        stranger = other(client).post(f"/api/games/{gid}/rematch/decline", json={})
        assert stranger.status_code == 404
        no = client.post(f"/api/games/{gid}/rematch/decline", json={"token": tokens["B"]})
        assert no.status_code == 200 and no.json()["state"] == "declined"
        assert a_page.receive_json() == {"type": "rematch", "state": "declined", "by": "B"}
    assert game_ids(client) == before
    state = client.get(f"/api/games/{gid}/rematch", headers={"seat-token": tokens["A"]})
    assert state.json()["state"] == "none"


def test_accounts_are_seated_in_a_rematch_only_once_both_agreed(client, now):
    sign_up(client, "Alice")
    bob = other(client)
    sign_up(bob, "Bob")
    cid = client.post("/api/challenges", json={"game": GAME, "clock": CLOCK, "seat": "A"})
    gid = bob.post(f"/api/challenges/{cid.json()['id']}/accept").json()["id"]
    # A stranger asking while it is played, and after it ended, gets nothing.
    assert other(client).post(f"/api/games/{gid}/rematch", json={}).status_code == 409
    assert client.post(f"/api/games/{gid}/resign", json={}).status_code == 200  # by the session
    stranger = other(client).post(f"/api/games/{gid}/rematch", json={})
    assert stranger.status_code == 403 and "token" not in stranger.text
    mine = lambda c: {g["id"] for g in c.get("/api/my/games").json()["games"]}  # noqa: E731
    before = mine(bob)
    with bob.websocket_connect("/ws-lobby") as lobby:
        assert lobby.receive_json() == {"type": "challenges"}
        asked = client.post(f"/api/games/{gid}/rematch", json={})  # by the session
        assert asked.status_code == 202, asked.text
        assert lobby.receive_json() == {
            "type": "rematch-offer",
            "game": gid,
            "by": "A",
            "url": f"/play/{gid}",
        }
        assert mine(bob) == before  # not seated anywhere new without agreeing
        accepted = bob.post(f"/api/games/{gid}/rematch", json={})
        assert accepted.status_code == 201, accepted.text
        new = accepted.json()["id"]
        assert accepted.json()["you"] == f"/play/{new}" and not tokens_in(accepted.json())
        assert lobby.receive_json() == {"type": "started", "id": new, "url": f"/play/{new}"}
    assert client.get(f"/api/games/{new}").json()["you"] == "B"
    assert bob.get(f"/api/games/{new}").json()["you"] == "A"
    assert client.get(f"/api/games/{new}/players").json()["players"] == {"A": "Bob", "B": "Alice"}
    row = services_of(client.app).rooms.store.get(new)
    assert row.rated is False and row.clock["control"]["minutes"] == 2


def test_play_on_from_here_seats_nobody_but_its_asker(client, now):
    sign_up(client, "Alice")
    bob = other(client)
    sign_up(bob, "Bob")
    cid = client.post("/api/challenges", json={"game": GAME, "clock": CLOCK}).json()["id"]
    gid = bob.post(f"/api/challenges/{cid}/accept").json()["id"]
    assert bob.post(f"/api/games/{gid}/resign", json={}).status_code == 200
    stranger = other(client)
    fork = stranger.post(f"/api/games/{gid}/fork", json={"ply": 1, "mode": "online"})
    assert fork.status_code == 201, fork.text
    new = fork.json()["id"]
    assert client.get(f"/api/games/{new}/players").json()["players"] == {}
    assert client.get(f"/api/games/{new}").json()["you"] is None  # Alice sits nowhere there
    assert new not in {g["id"] for g in bob.get("/api/my/games").json()["games"]}
