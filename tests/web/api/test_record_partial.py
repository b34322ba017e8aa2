"""The record of a game in progress (docs/web.md "API"): where nobody's secrets are in it (Paper
Ultimate, Huck + Monster; a hot-seat game's own players) it downloads as a partial record that
``read_record`` reads and ``replay`` checks as far as it goes: no end line, the dice seed still
secret, ``X-Record: partial``; a game with hidden moves is withheld from everyone else."""

from __future__ import annotations

import pytest

from monsterball.core.record import read_record, replay
from monsterball.web.api.services import services_of
from tests.web.api.test_api import client, create, tokens  # noqa: F401  (the fixture)
from tests.web.live.test_takeback import act, state

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def play_some(client, gid, token, moves):  # noqa: F811
    for _ in range(moves):
        now = state(client, gid, token)
        if not now["legal"]:
            break
        act(client, gid, token, now["legal"][0]["a"])
    return state(client, gid, token)


def test_a_hot_seat_game_in_progress_downloads_as_a_partial_record_that_reads(client):  # noqa: F811
    created = create(client, game="paper-ultimate")
    gid, token = created["id"], created["chairs"][0]["token"]
    now = play_some(client, gid, token, 6)
    assert now["game"]["status"] == "playing"
    response = client.get(f"/api/games/{gid}/record")
    assert response.status_code == 200, response.text
    assert response.headers["x-record"] == "partial"
    assert "partial.jsonl" in response.headers["content-disposition"]
    record = read_record(response.text)
    assert record.end is None and record.seed is None and record.dice_commitment
    assert len(record.actions) == now["game"]["ply"]
    report = replay(record)
    assert report.ok and report.plies == now["game"]["ply"]
    assert (
        report.state.state_hash()
        == services_of(client.app).rooms.rooms[gid].live.state.state_hash()
    )


def test_an_online_game_in_progress_never_gives_its_dice_seed_away(client):  # noqa: F811
    created = create(client, game="huck-monster", mode="online")
    gid = created["id"]
    seed = services_of(client.app).rooms.rooms[gid].live.row.game_seed
    response = client.get(f"/api/games/{gid}/record")
    assert response.status_code == 200 and response.headers["x-record"] == "partial"
    assert str(seed) not in response.text
    record = read_record(response.text)
    assert record.end is None and record.seed is None


def test_a_game_with_hidden_moves_is_withheld_except_from_its_hot_seat_players(client):  # noqa: F811
    online = create(client, game="midway", mode="online")
    refused = client.get(f"/api/games/{online['id']}/record")
    assert refused.status_code == 409 and "hidden moves" in refused.json()["message"]
    seat = client.get(
        f"/api/games/{online['id']}/record", headers={"seat-token": tokens(online)["A"]}
    )
    assert seat.status_code == 409  # online, the other side's secrets are in it
    hot = create(client, game="midway")
    gid, token = hot["id"], hot["chairs"][0]["token"]
    play_some(client, gid, token, 4)
    assert client.get(f"/api/games/{gid}/record").status_code == 409  # a spectator
    mine = client.get(f"/api/games/{gid}/record", headers={"seat-token": token})
    assert mine.status_code == 200 and mine.headers["x-record"] == "partial"
    assert replay(read_record(mine.text)).ok
