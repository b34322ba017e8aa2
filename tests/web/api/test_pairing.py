"""Quick pairing while both wait (issue 32 item 4; docs/web.md "Quick pairing"): two players
too far apart when the second asks are paired as soon as the longer waiter's window reaches
the gap, on a waiting page's check-in, with no one asking again, and both lobbies are told;
"stop waiting" withdraws a request so nobody is paired with it; a wait nobody checks on
lapses."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient

from monsterball.web.api import pairing, services
from monsterball.web.api.services import services_of
from monsterball.web.app import create_app
from monsterball.web.store import people
from monsterball.web.store.ratings import settle
from tests.helpers.web import CHEAP_HASHING, NO_CLIENT_LIMITS
from tests.web.api.test_accounts import sign_up
from tests.web.api.test_rated import GAME, TWO_MINUTES, another, key

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
BODY = {"game": GAME, "clock": TWO_MINUTES, "rated": True}


@pytest.fixture
def alice(tmp_path, monkeypatch):
    monkeypatch.setattr(services, "HASH_PARAMS", CHEAP_HASHING)
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", limits=NO_CLIENT_LIMITS)
    with TestClient(app) as client:
        sign_up(client, "Alice")
        yield client


@pytest.fixture
def later(monkeypatch):
    """The pairing module's clock, moved on by hand (seconds added to the real time)."""
    start = pairing.now()
    moved = [0.0]
    monkeypatch.setattr(pairing, "now", lambda: start + dt.timedelta(seconds=moved[0]))
    return moved


def apart(alice, names=("Dave", "Carol")):
    """Two players whose ratings are more than 200 apart: Dave lost three, Carol won one."""
    dave, carol = (another(alice, n) for n in names)
    store = services_of(alice.app).rooms.store
    for n in range(3):
        settle(store, f"d{n}", [key(alice, names[0]), "bot:medium"], [-1.0, 1.0], game=GAME)
    settle(store, "c0", [key(alice, names[1]), "bot:hard"], [1.0, -1.0], game=GAME)
    ratings = {p["name"]: p["rating"] for p in alice.get(f"/api/ratings/{GAME}").json()["players"]}
    gap = ratings[names[1]] - ratings[names[0]]
    assert pairing.PAIR_WINDOW < gap < pairing.PAIR_WINDOW_MAX
    return dave, carol, gap


def test_two_waiting_players_are_paired_once_the_longer_waiters_window_reaches_them(alice, later):
    dave, carol, gap = apart(alice)
    seconds = (gap - pairing.PAIR_WINDOW) / pairing.PAIR_WIDENS_PER_SECOND  # Dave's window
    with dave.websocket_connect("/ws-lobby") as dave_lobby:
        assert dave_lobby.receive_json() == {"type": "challenges"}
        waiting = dave.post("/api/pairing", json=BODY).json()
        assert waiting["status"] == "waiting"
        later[0] = 1.0
        assert carol.post("/api/pairing", json=BODY).json()["status"] == "waiting"  # too far
        later[0] = seconds - 1.0  # not yet: Dave's window is a few points short
        assert carol.post("/api/pairing/check-in").json()["status"] == "waiting"
        assert dave.post("/api/pairing/check-in").json()["status"] == "waiting"
        later[0] = seconds + 1.0
        # Carol's page checks in, as it does every few seconds: the match is made now.
        matched = carol.post("/api/pairing/check-in").json()
        assert matched["status"] == "started", matched
        told = dave_lobby.receive_json()
    assert told == {
        "type": "started",
        "challenge": waiting["challenge"],
        "id": matched["id"],
        "url": f"/play/{matched['id']}",
    }
    row = services_of(alice.app).rooms.store.get(matched["id"])
    assert set(row.players.values()) == {key(alice, "Dave"), key(alice, "Carol")}
    assert row.rated is True and row.clock["control"]["minutes"] == 2
    # Both pages learn it from the state too (a lobby on another server, a dropped socket).
    for client in (dave, carol):
        state = client.get("/api/pairing").json()
        assert (state["status"], state["url"]) == ("started", f"/play/{matched['id']}")
    seats = {dave.get(f"/api/games/{matched['id']}").json()["you"]}
    seats.add(carol.get(f"/api/games/{matched['id']}").json()["you"])
    assert seats == {"A", "B"}


def test_stop_waiting_withdraws_the_request_and_nobody_is_paired_with_it(alice):
    erin, fay = another(alice, "Erin"), another(alice, "Fay")
    assert erin.post("/api/pairing", json=BODY).json()["status"] == "waiting"
    assert erin.delete("/api/pairing").json() == {"stopped": 1}
    assert erin.get("/api/pairing").json()["status"] == "none"
    assert erin.post("/api/pairing/check-in").json()["status"] == "none"  # stays withdrawn
    # Fay (the same rating as Erin) is not paired with the withdrawn request: she waits.
    assert fay.post("/api/pairing", json=BODY).json()["status"] == "waiting"
    assert fay.post("/api/pairing/check-in").json()["status"] == "waiting"
    assert erin.get("/api/pairing").json()["status"] == "none"
    assert fay.delete("/api/pairing").json() == {"stopped": 1}


def test_a_wait_nobody_checks_on_lapses_and_is_not_paired(alice, later):
    gus, hal = another(alice, "Gus"), another(alice, "Hal")
    assert gus.post("/api/pairing", json=BODY).json()["status"] == "waiting"
    # Gus's page is closed: no check-in. Past CHECK_IN his request has lapsed.
    later[0] = pairing.CHECK_IN.total_seconds() + 1
    with pytest.MonkeyPatch.context() as patch:
        moved = pairing.now()
        patch.setattr(people, "now", lambda: moved)
        assert hal.post("/api/pairing", json=BODY).json()["status"] == "waiting"
        assert gus.get("/api/pairing").json()["status"] == "none"
        assert gus.post("/api/pairing/check-in").json()["status"] == "none"


def test_a_wait_ends_after_five_minutes_however_often_it_checks_in(alice, later):
    ivy = another(alice, "Ivy")
    waiting = ivy.post("/api/pairing", json=BODY).json()
    expires = dt.datetime.fromisoformat(waiting["expires"])
    assert expires - pairing.now() == pytest.approx(pairing.QUICK_TTL, abs=dt.timedelta(seconds=2))
    later[0] = pairing.QUICK_TTL.total_seconds() - 5
    assert ivy.post("/api/pairing/check-in").json()["status"] == "waiting"
    tables = services_of(alice.app).social.people
    row = tables.newest_quick(tables.find("Ivy")[0].id)
    assert people.aware(row.expires_at) <= expires  # never past the five minutes
