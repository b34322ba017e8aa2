"""Draw offers (issue 32, docs/web.md "Draw offers"): where the rules can end level (Midway,
MW-GEN-4; a capped Paper Ultimate, PU-R10) the players may agree a draw: an offer the other
side accepts ends the game drawn where it stands (its record, format 3, verifies); declined,
withdrawn, or lapsed once the other side moves; never where a game always has a winner, nor
in hot-seat or against bots; spectators cannot offer."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from monsterball.core.record import read_record, replay
from monsterball.web.api import services
from tests.helpers.web import app_at
from tests.web.live.test_takeback import act, state

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def online(client, game="midway", **extra):
    made = client.post("/api/games", json={"game": game, "mode": "online", **extra}).json()
    return made["id"], {c["name"]: c["token"] for c in made["chairs"]}


def post(client, gid, path, token):
    return client.post(f"/api/games/{gid}/draw{path}", json={"token": token})


def test_an_accepted_offer_ends_a_midway_game_drawn_and_its_record_verifies(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as client:
        gid, tokens = online(client)
        for _ in range(6):  # a few draft picks first
            now = state(client, gid, tokens["A"])
            mover = now["to_act"]
            act(client, gid, tokens[mover], state(client, gid, tokens[mover])["legal"][0]["a"])
        seen = client.get(f"/api/games/{gid}/draw", headers={"seat-token": tokens["A"]}).json()
        assert (seen["possible"], seen["never"], seen["state"]) == (True, None, "none")
        with client.websocket_connect(f"/ws/{gid}") as socket:
            socket.receive_json()  # a spectator's state: everyone watching is told
            offered = post(client, gid, "", tokens["A"])
            assert offered.status_code == 202, offered.text
            assert socket.receive_json() == {"type": "draw", "state": "offered", "by": "A"}
            assert post(client, gid, "/accept", tokens["A"]).status_code == 403  # not his own
            agreed = post(client, gid, "/accept", tokens["B"])
            assert agreed.status_code == 200, agreed.text
            news = [socket.receive_json() for _ in range(2)]
        assert {"type": "draw", "state": "agreed", "by": "B"} in news
        game = state(client, gid, tokens["A"])["game"]
        assert game["status"] == "finished"
        assert game["result"] == "draw by agreement, A 0 - B 0"
        record = read_record(client.get(f"/api/games/{gid}/record").text)
        assert record.format == 3 and record.end["termination"] == "agreed"
        assert record.end["returns"] == [0.0, 0.0] and replay(record).ok
        again = post(client, gid, "", tokens["A"])
        assert again.status_code == 409 and "the game is over" in again.json()["message"]


def test_an_offer_is_declined_withdrawn_or_lapses_when_the_other_side_moves(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as client:
        gid, tokens = online(client)
        assert post(client, gid, "", tokens["A"]).status_code == 202
        declined = post(client, gid, "/decline", tokens["B"]).json()
        assert declined == {"type": "draw", "state": "declined", "by": "B"}
        assert post(client, gid, "/accept", tokens["A"]).status_code == 409  # nothing offered
        assert post(client, gid, "", tokens["B"]).status_code == 202
        assert post(client, gid, "/decline", tokens["B"]).json()["state"] == "declined"  # withdrawn
        # An offer stands while its side moves, and lapses when the other side moves.
        mover = state(client, gid, tokens["A"])["to_act"]
        other = "B" if mover == "A" else "A"
        assert post(client, gid, "", tokens[mover]).status_code == 202
        act(client, gid, tokens[mover], state(client, gid, tokens[mover])["legal"][0]["a"])
        standing = client.get(f"/api/games/{gid}/draw", headers={"seat-token": tokens[other]})
        assert standing.json()["state"] == "offered"
        while state(client, gid, tokens["A"])["to_act"] != other:
            who = state(client, gid, tokens["A"])["to_act"]
            act(client, gid, tokens[who], state(client, gid, tokens[who])["legal"][0]["a"])
        act(client, gid, tokens[other], state(client, gid, tokens[other])["legal"][0]["a"])
        lapsed = client.get(f"/api/games/{gid}/draw", headers={"seat-token": tokens[other]})
        assert lapsed.json()["state"] == "none"
        assert post(client, gid, "/accept", tokens[other]).status_code == 409
        # Offering while the other side's offer stands accepts it.
        assert post(client, gid, "", tokens["A"]).status_code == 202
        crossed = post(client, gid, "", tokens["B"])
        assert crossed.status_code == 200 and crossed.json()["game"]["status"] == "finished"


def test_no_draw_where_the_game_always_has_a_winner_nor_in_hot_seat_or_against_bots(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as client:
        gid, tokens = online(client, game="paper-ultimate")
        seen = client.get(f"/api/games/{gid}/draw", headers={"seat-token": tokens["A"]}).json()
        assert seen["possible"] is False and "Paper Ultimate has no draws" in seen["never"]
        refused = post(client, gid, "", tokens["A"])
        assert refused.status_code == 409 and "has no draws" in refused.json()["message"]
        capped, capped_tokens = online(client, game="paper-ultimate", settings=["max_throws=300"])
        assert post(client, capped, "", capped_tokens["A"]).status_code == 202  # PU-R10: can draw
        made = client.post("/api/games", json={"game": "midway", "mode": "hotseat"}).json()
        hot = post(client, made["id"], "", made["chairs"][0]["token"])
        assert hot.status_code == 409 and "hot-seat" in hot.json()["message"]
        made = client.post(
            "/api/games", json={"game": "midway", "mode": "bot", "bots": {"B": "easy"}}
        ).json()
        token = next(c["token"] for c in made["chairs"] if c["token"])
        bots = post(client, made["id"], "", token)
        assert bots.status_code == 409 and "bots play" in bots.json()["message"]
        spectator = post(client, capped, "", None)
        assert spectator.status_code == 403 and spectator.json()["error"] == "spectator"


def test_a_rated_game_drawn_by_agreement_settles_both_ratings_as_a_draw(tmp_path, monkeypatch):
    from tests.helpers.web import CHEAP_HASHING
    from tests.web.api.test_accounts import sign_up

    monkeypatch.setattr(services, "HASH_PARAMS", CHEAP_HASHING)
    app = app_at(tmp_path / "games.db")
    with TestClient(app) as ann:
        sign_up(ann, "Ann")
        ben = TestClient(app)
        ben.portal = ann.portal
        sign_up(ben, "Ben")
        posted = ann.post("/api/challenges", json={"game": "midway", "rated": True, "seat": "A"})
        gid = ben.post(f"/api/challenges/{posted.json()['id']}/accept").json()["id"]
        # Seated by their sessions: no tokens.
        assert post(ann, gid, "", None).status_code == 202
        assert post(ben, gid, "/accept", None).status_code == 200
        assert ann.get(f"/api/games/{gid}").json()["game"]["result"].startswith("draw by agreement")
        for name in ("Ann", "Ben"):
            page = ann.get(f"/api/players/{name}").json()
            (rating,) = page["ratings"]
            assert rating["games"] == 1
            (game,) = page["games"]
            # Equal ratings drawn: neither moves (the deviation shrinks).
            assert game["rating_change"] == pytest.approx(0, abs=0.5)
