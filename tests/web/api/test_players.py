"""Player pages (issue 20: "recent games with result and replay links, records
downloadable"): a game between two accounts, played to its end by their sessions."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from monsterball.bots.registry import bot_for_difficulty
from monsterball.core.record import read_record
from monsterball.web.api import services
from monsterball.web.api.services import services_of
from tests.helpers.web import CHEAP_HASHING, app_at
from tests.web.api.test_accounts import one_line_error, sign_up

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.slow
def test_a_finished_game_shows_on_both_player_pages_with_replay_and_record(tmp_path, monkeypatch):
    monkeypatch.setattr(services, "HASH_PARAMS", CHEAP_HASHING)
    app = app_at(tmp_path / "games.db")
    with TestClient(app) as alice:
        sign_up(alice, "Alice")
        bob = TestClient(app)
        sign_up(bob, "Bob")
        cid = alice.post(
            "/api/challenges",
            json={
                "game": "paper-ultimate",
                "preset": "small",
                "options": {"points_to_win": 1},
                "seat": "A",
            },
        ).json()["id"]
        gid = bob.post(f"/api/challenges/{cid}/accept").json()["id"]
        started_by = services_of(app).social.people.challenge_of_game(gid)
        assert started_by.id == cid and started_by.rated is False and started_by.clock is None
        seated = alice.get(f"/api/games/{gid}/players").json()
        assert seated == {
            "players": {"A": "Alice", "B": "Bob"},
            "ratings": {"A": "1500?", "B": "1500?"},  # no rated game yet
        }
        during = alice.get("/api/players/alice").json()
        assert [(g["id"], g["status"], g["record"]) for g in during["games"]] == [
            (gid, "playing", None)
        ]
        # Each account plays the heuristic bot's choice (a short game), through the API.
        live = services_of(app).rooms.rooms[gid].live
        bots = [bot_for_difficulty("paper-ultimate", "medium", seed) for seed in (1, 2)]
        for _ in range(2000):
            state = alice.get(f"/api/games/{gid}").json()
            if state["game"]["status"] == "finished":
                break
            seat = live.state.current_player()
            mover = alice if seat == 0 else bob
            action = bots[seat].choose(live.state, seat).notation()
            body = {"action": action, "ply": state["game"]["ply"]}
            assert mover.post(f"/api/games/{gid}/act", json=body).status_code == 200
        assert state["game"]["status"] == "finished"
        pages = {name: alice.get(f"/api/players/{name}").json() for name in ("Alice", "BOB")}
        assert pages["BOB"]["name"] == "Bob"
        for name, seat, other in [("Alice", "A", "Bob"), ("BOB", "B", "Alice")]:
            (game,) = pages[name]["games"]
            assert game["id"] == gid and game["seat"] == seat and game["opponents"] == [other]
            assert game["result"] == state["game"]["result"] and game["status"] == "finished"
            assert game["url"] == f"/replay/{gid}"
        record = alice.get(pages["Alice"]["games"][0]["record"])
        assert record.status_code == 200
        path = tmp_path / "game.jsonl"
        path.write_text(record.text)
        assert read_record(path).game == "paper-ultimate" and read_record(path).end is not None
        page = alice.get("/players/Bob")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        one_line_error(alice.get("/api/players/nobody"), 404, "not-found")
