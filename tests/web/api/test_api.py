"""The web server's API and WebSocket rules (issue 7): seats, tokens, stale and malformed
submissions, four coaches, reconnects, restarts, records, replays and forks."""

from __future__ import annotations

import json
import random
import threading
import time

import httpx
import pytest
from fastapi.testclient import TestClient

from monsterball.core.record import read_record, replay
from monsterball.games import get_game
from monsterball.web.api.services import services_of
from monsterball.web.live.game import LiveGame, Rejected
from monsterball.web.store.games import GameRow, StaleMove, Store, StoredMove
from tests.helpers.web import app_at, first_move, server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as c:
        yield c


def create(client, **body):
    """A new game; hot-seat and bot games seeded (7) unless the body says otherwise."""
    seeded = {"seed": 7} if body.get("mode") != "online" else {}
    response = client.post("/api/games", json={**seeded, **body})
    assert response.status_code == 201, response.text
    return response.json()


def tokens(created):
    return {c["name"]: c["token"] for c in created["chairs"]}


def state(client, game_id, token=None):
    params = {"token": token} if token else {}
    return client.get(f"/api/games/{game_id}", params=params).json()


def act(client, game_id, token, action, ply):
    return client.post(
        f"/api/games/{game_id}/act", json={"token": token, "action": action, "ply": ply}
    )


def test_settings_are_read_like_the_command_lines_opt(client):
    created = create(
        client, game="huck-monster", preset="pro", settings=["points_to_win=3", "ties=defense"]
    )
    live = services_of(client.app).rooms.rooms[created["id"]].live
    assert live.state.options.points_to_win == 3 and live.state.options.ties == "defense"
    assert live.state.options.callahans  # the preset still applies


def test_catalog_lists_every_game_with_presets_and_bot_levels(client):
    catalog = client.get("/api/catalog").json()
    ids = {g["id"] for g in catalog["games"]}
    assert ids == {"paper-ultimate", "huck-monster", "midway"}
    hm = next(g for g in catalog["games"] if g["id"] == "huck-monster")
    assert hm["coaches"] == [2, 4] and "pro" in {p["name"] for p in hm["presets"]}
    assert catalog["bot_levels"] == ["easy", "medium", "hard"]


def test_hotseat_game_any_human_token_acts_for_whoever_is_to_act(client):
    created = create(client, game="paper-ultimate", mode="hotseat")
    a_token = tokens(created)["A"]
    for _ in range(30):  # both teams' moves, all through seat A's link
        message = state(client, created["id"], a_token)
        if not message["legal"]:
            break
        response = act(client, created["id"], a_token, first_move(message), message["game"]["ply"])
        assert response.status_code == 200, response.text
    assert {e["by"] for e in state(client, created["id"])["log"]} >= {"A", "B"}


def test_bot_game_bot_answers_and_the_human_gets_the_turn_back(client):
    created = create(client, game="huck-monster", mode="bot", bots={"B": "easy"})
    chairs = {c["name"]: c for c in created["chairs"]}
    assert chairs["B"]["kind"] == "bot" and chairs["B"]["token"] is None
    token = chairs["A"]["token"]
    message = state(client, created["id"], token)
    while message["to_act"] == "A" and message["game"]["ply"] < 200:
        message = act(
            client, created["id"], token, first_move(message), message["game"]["ply"]
        ).json()
    assert any(e["by"] == "B" for e in message["log"])  # the bot placed its line-up
    assert message["to_act"] == "A" and message["legal"]


def test_online_room_two_sockets_see_each_move_and_wrong_seat_is_refused(client):
    created = create(client, game="paper-ultimate", mode="online")
    t = tokens(created)
    gid = created["id"]
    with (
        client.websocket_connect(f"/ws/{gid}?token={t['A']}") as a,
        client.websocket_connect(f"/ws/{gid}?token={t['B']}") as b,
    ):
        ma, mb = a.receive_json(), b.receive_json()
        assert ma["you"] == "A" and mb["you"] == "B"
        actor, other = (a, b) if ma["legal"] else (b, a)
        mine = ma if ma["legal"] else mb
        assert not (ma["legal"] and mb["legal"])  # only the seat to act gets moves
        ply = mine["game"]["ply"]
        other.send_json({"type": "act", "action": first_move(mine), "ply": ply})
        refused = other.receive_json()
        assert refused["type"] == "error" and refused["error"] == "wrong-seat"
        assert "turn" in refused["message"]
        actor.send_json({"type": "act", "action": first_move(mine), "ply": ply})
        seen_by_actor, seen_by_other = actor.receive_json(), other.receive_json()
        assert seen_by_actor["game"]["ply"] > ply and seen_by_other["game"]["ply"] > ply
        assert seen_by_actor["board"] == seen_by_other["board"]  # Paper Ultimate is public


def test_stale_duplicate_malformed_and_oversized_socket_messages_change_nothing(client):
    created = create(client, game="paper-ultimate", mode="hotseat")
    t = tokens(created)["A"]
    gid = created["id"]
    with client.websocket_connect(f"/ws/{gid}?token={t}") as ws:
        first = ws.receive_json()
        ply, move = first["game"]["ply"], first_move(first)
        ws.send_json({"type": "act", "action": move, "ply": ply})
        after = ws.receive_json()
        assert after["game"]["ply"] == ply + 1
        ws.send_json({"type": "act", "action": move, "ply": ply})  # the same move again
        assert ws.receive_json()["error"] == "stale"
        ws.send_text("{not json")
        assert ws.receive_json()["error"] == "bad-json"
        ws.send_text(json.dumps({"type": "act", "action": "x" * 5000, "ply": ply + 1}))
        assert ws.receive_json()["error"] == "too-large"
        ws.send_json({"type": "act", "action": "fly away", "ply": ply + 1})
        illegal = ws.receive_json()
        assert illegal["error"] == "illegal" and "fly away" in illegal["message"]
        ws.send_json({"type": "act", "action": move})
        assert ws.receive_json()["error"] == "bad-request"
        ws.send_json({"type": "dance"})
        assert ws.receive_json()["error"] == "bad-request"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    final = state(client, gid)
    assert final["game"]["ply"] == ply + 1
    assert len(services_of(client.app).rooms.store.moves(gid)) == ply + 1


def test_spectators_watch_but_cannot_act_and_bad_tokens_are_refused(client):
    created = create(client, game="paper-ultimate", mode="online")
    gid = created["id"]
    with client.websocket_connect(f"/ws/{gid}") as watcher:
        seen = watcher.receive_json()
        assert seen["you"] is None and seen["legal"] == []
        watcher.send_json({"type": "act", "action": "end", "ply": seen["game"]["ply"]})
        assert watcher.receive_json()["error"] == "spectator"
    with client.websocket_connect(f"/ws/{gid}?token=forged") as forged:
        assert forged.receive_json()["error"] == "bad-token"
    response = act(client, gid, "forged", "end", 0)
    assert response.status_code == 403 and response.json()["error"] == "bad-token"


@pytest.mark.slow
def test_four_coaches_take_turns_and_the_server_names_the_acting_coach(client):
    created = create(client, game="huck-monster", mode="online", coaches=4)
    t = tokens(created)
    assert set(t) == {"A-1", "A-2", "B-1", "B-2"}
    gid = created["id"]
    acting_seen = set()
    for _ in range(120):
        message = state(client, gid)
        coach = message["to_act"]
        if coach not in t:
            break
        acting_seen.add(coach)
        mine = state(client, gid, t[coach])
        partner = coach[0] + "-" + ("2" if coach.endswith("1") else "1")
        refused = act(client, gid, t[partner], first_move(mine), mine["game"]["ply"])
        assert refused.status_code == 403 and refused.json()["error"] == "wrong-seat"
        assert state(client, gid, t[partner])["legal"] == []
        done = act(client, gid, t[coach], first_move(mine), mine["game"]["ply"])
        assert done.status_code == 200, done.text
    assert {"A-1", "A-2", "B-1", "B-2"} <= acting_seen


def test_http_errors_name_what_was_wrong(client):
    bad = client.post("/api/games", json={"game": "chess"})
    assert bad.status_code == 400 and "chess" in bad.json()["message"]
    bad = client.post("/api/games", json={"game": "midway", "bots": {"C": "easy"}})
    assert bad.status_code == 400 and "no seat 'C'" in bad.json()["message"]
    bad = client.post("/api/games", json={"game": "midway", "bots": {"B": "grandmaster"}})
    assert "unknown bot level" in bad.json()["message"]
    bad = client.post("/api/games", json={"game": "paper-ultimate", "coaches": 4})
    assert "coaches" in bad.json()["message"]
    bad = client.post("/api/games", json={"game": "paper-ultimate", "mode": "bot"})
    assert "bot seat" in bad.json()["message"]
    bad = client.post("/api/games", json={"game": "paper-ultimate", "options": {"nope": 1}})
    assert bad.status_code == 400 and "nope" in bad.json()["message"]
    bad = client.post("/api/games", content=b"{", headers={"content-type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad-request"
    big = client.post(
        "/api/games",
        content=b" " * 70_000,
        headers={"content-type": "application/json"},
    )
    assert big.status_code == 413 and big.json()["error"] == "too-large"
    missing = client.get("/api/games/doesnotexist")
    assert missing.status_code == 404 and "doesnotexist" in missing.json()["message"]


def test_reconnecting_client_gets_the_game_where_it_was(client):
    created = create(client, game="paper-ultimate", mode="online")
    t = tokens(created)
    gid = created["id"]
    with client.websocket_connect(f"/ws/{gid}?token={t['A']}") as ws:
        first = ws.receive_json()
    message = state(client, gid, t["A"] if first["legal"] else t["B"])
    token = t["A"] if first["legal"] else t["B"]
    act(client, gid, token, first_move(message), message["game"]["ply"])
    with client.websocket_connect(f"/ws/{gid}?token={t['A']}") as ws:
        again = ws.receive_json()
    assert again["game"]["ply"] == message["game"]["ply"] + 1
    assert again["log"][-1]["action"] == first_move(message)


def test_a_new_server_over_the_same_database_continues_every_game(tmp_path):
    db = tmp_path / "games.db"
    with TestClient(app_at(db)) as c:
        created = create(c, game="huck-monster", mode="bot", bots={"B": "easy"})
        token = tokens(created)["A"]
        message = state(c, created["id"], token)
        for _ in range(25):
            message = act(
                c, created["id"], token, first_move(message), message["game"]["ply"]
            ).json()
        before = message
        live = services_of(c.app).rooms.rooms[created["id"]].live
        hash_before = live.state.state_hash()
    with TestClient(app_at(db)) as c:
        after = state(c, created["id"], token)
        assert after["game"] == before["game"] and after["board"] == before["board"]
        assert services_of(c.app).rooms.rooms[created["id"]].live.state.state_hash() == hash_before
        moved = act(c, created["id"], token, first_move(after), after["game"]["ply"])
        assert moved.status_code == 200


@pytest.mark.slow
def test_killed_server_process_restarts_with_no_move_lost(tmp_path):
    db = tmp_path / "games.db"
    http = httpx.Client(timeout=60)
    with server(db) as (base, proc):
        created = http.post(
            f"{base}/api/games", json={"game": "paper-ultimate", "mode": "hotseat", "seed": 3}
        ).json()
        gid, token = created["id"], tokens(created)["A"]
        message = http.get(f"{base}/api/games/{gid}", params={"token": token}).json()
        for _ in range(15):
            message = http.post(
                f"{base}/api/games/{gid}/act",
                json={"token": token, "action": first_move(message), "ply": message["game"]["ply"]},
            ).json()
        proc.kill()  # SIGKILL: no shutdown handlers run
        proc.wait()
    with server(db) as (base, _):
        again = http.get(f"{base}/api/games/{gid}", params={"token": token}).json()
        assert again["game"]["ply"] == message["game"]["ply"]
        assert again["board"] == message["board"]
        moved = http.post(
            f"{base}/api/games/{gid}/act",
            json={"token": token, "action": first_move(again), "ply": again["game"]["ply"]},
        )
        assert moved.status_code == 200


def finished_game(client, game="paper-ultimate", preset="quick"):
    created = create(client, game=game, preset=preset, mode="bot", bots={"A": "easy", "B": "easy"})
    message = state(client, created["id"])
    assert message["game"]["status"] == "finished"
    return created["id"], message


def test_a_finished_game_downloads_as_a_record_that_replays_and_verifies(client, tmp_path):
    gid, final = finished_game(client)
    response = client.get(f"/api/games/{gid}/record")
    assert response.status_code == 200
    path = tmp_path / "game.jsonl"
    path.write_text(response.text)
    record = read_record(path)
    report = replay(record)
    assert report.ok, report.divergence
    assert record.end["result"] == final["game"]["result"]
    assert record.players == {"A": "easy", "B": "easy"}
    # The seed is revealed in the end line only, and hashes to the header's commitment.
    assert record.seed is None and record.end["dice_seed"] == "7" and record.dice_seed == 7
    assert record.dice_commitment == final["game"]["dice_commitment"]
    assert record.end["dice_seed"] == final["game"]["dice_seed"]


def test_record_of_a_game_in_progress_is_withheld(client):
    created = create(client, game="midway", mode="online")
    response = client.get(f"/api/games/{created['id']}/record")
    assert response.status_code == 409 and "ends" in response.json()["message"]


def test_replay_steps_through_the_game_and_forks_a_new_one(client):
    gid, final = finished_game(client)
    whole = client.get(f"/api/games/{gid}/replay").json()
    assert whole["step"] == whole["steps"] == final["game"]["ply"]
    assert whole["board"] == final["board"]
    three = client.get(f"/api/games/{gid}/replay", params={"step": 3}).json()
    assert three["step"] == 3 and len(three["log"]) == 3
    late = client.get(f"/api/games/{gid}/replay", params={"step": 100}).json()
    assert late["ply"] == 100
    histories = services_of(client.app).rooms.histories.kept
    assert list(histories) == [(gid, whole["steps"])]  # built once, reused for every step
    fork = client.post(f"/api/games/{gid}/fork", json={"ply": 100, "mode": "hotseat"})
    assert fork.status_code == 201, fork.text
    forked = fork.json()
    fork_state = state(client, forked["id"], tokens(forked)["A"])
    assert fork_state["board"] == late["board"] and fork_state["game"]["parent"] == gid
    assert fork_state["game"]["ply"] >= 100  # dice after the fork point may roll at once
    over = client.post(f"/api/games/{gid}/fork", json={"ply": whole["steps"]})
    assert over.status_code == 400


def test_store_refuses_a_second_move_for_the_same_ply(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    spec = get_game("paper-ultimate")
    row = GameRow(
        id="g1",
        game=spec.id,
        preset=None,
        rules_version=spec.rules_version,
        options=spec.options().to_dict(),
        seed=1,
        start=None,
        mode="hotseat",
        chairs=[],
        status="playing",
        result="",
        plies=0,
    )
    store.create(row)
    store.append("g1", [StoredMove(1, "chance", "toss=A")], status="playing", result="")
    with pytest.raises(StaleMove):
        store.append("g1", [StoredMove(1, "chance", "toss=B")], status="playing", result="")
    with pytest.raises(StaleMove):
        store.append("g1", [StoredMove(3, "A", "end")], status="playing", result="")
    assert store.moves("g1") == [StoredMove(1, "chance", "toss=A")]


def test_rejected_submission_leaves_the_live_state_unchanged(client):
    created = create(client, game="midway", mode="hotseat")
    token = tokens(created)["A"]
    live = services_of(client.app).rooms.rooms[created["id"]].live
    before = live.state.state_hash()
    for action, ply in (("draft unicorn", live.state.ply), ("end", live.state.ply - 1)):
        response = act(client, created["id"], token, action, ply)
        assert response.status_code in (400, 409)
        assert live.state.state_hash() == before


def test_store_with_moves_the_seed_would_not_roll_fails_to_load(tmp_path):
    spec = get_game("paper-ultimate")
    row = GameRow(
        id="g2",
        game=spec.id,
        preset=None,
        rules_version=spec.rules_version,
        options=spec.options().to_dict(),
        seed=1,
        start=None,
        mode="hotseat",
        chairs=[
            {"name": "A", "seat": 0, "kind": "human", "bot": None, "token": "t"},
            {"name": "B", "seat": 1, "kind": "human", "bot": None, "token": "u"},
        ],
        status="playing",
        result="",
        plies=0,
    )
    live = LiveGame.start(row)
    rolled = live.sampler.choose(live.state.chance_outcomes()).notation()
    other = "toss=B" if rolled == "toss=A" else "toss=A"
    with pytest.raises(Exception, match="the seed rolls"):
        LiveGame.load(row, [StoredMove(1, "chance", other)])
    assert LiveGame.load(row, [StoredMove(1, "chance", rolled)]).state.ply == 1
    with pytest.raises(Rejected):
        live.chair_for("not-a-token")


@pytest.mark.slow
def test_random_clients_play_a_whole_game_over_sockets(client):
    """Every message a seat sees offers only moves the server then accepts."""
    services_of(client.app).rooms._new_seed = lambda: 11  # a game known to end within the loop
    created = create(client, game="paper-ultimate", preset="quick", mode="online")
    t = tokens(created)
    rng = random.Random(5)
    gid = created["id"]
    with (
        client.websocket_connect(f"/ws/{gid}?token={t['A']}") as a,
        client.websocket_connect(f"/ws/{gid}?token={t['B']}") as b,
    ):
        latest = {"A": a.receive_json(), "B": b.receive_json()}
        sockets = {"A": a, "B": b}
        for _ in range(3000):
            if latest["A"]["game"]["status"] == "finished":
                break
            name = "A" if latest["A"]["legal"] else "B"
            mine = latest[name]
            assert mine["legal"], "one seat must be able to act"
            move = rng.choice(mine["legal"])["a"]
            sockets[name].send_json({"type": "act", "action": move, "ply": mine["game"]["ply"]})
            for seat in ("A", "B"):
                latest[seat] = sockets[seat].receive_json()
                while latest[seat]["game"]["ply"] <= mine["game"]["ply"]:
                    latest[seat] = sockets[seat].receive_json()
        assert latest["A"]["game"]["status"] == "finished"
        assert "wins" in latest["B"]["game"]["result"]


def test_four_coach_sockets_only_the_acting_coach_is_offered_moves(client):
    created = create(client, game="huck-monster", mode="online", coaches=4)
    t = tokens(created)
    gid = created["id"]
    names = ["A-1", "A-2", "B-1", "B-2"]
    sockets = [client.websocket_connect(f"/ws/{gid}?token={t[n]}") for n in names]
    opened = [s.__enter__() for s in sockets]
    try:
        latest = {n: ws.receive_json() for n, ws in zip(names, opened, strict=True)}
        acted = set()
        # Online rooms roll from a secret seed, so how soon each coach acts varies: play on
        # until all four have (HM-R28's rotation gets there within a few Up Calls).
        for _ in range(600):
            if acted == set(names) or latest[names[0]]["game"]["status"] == "finished":
                break
            offered = [n for n in names if latest[n]["legal"]]
            assert len(offered) == 1, offered  # exactly one coach may act
            coach = offered[0]
            assert all(latest[n]["to_act"] == coach for n in names)
            acted.add(coach)
            ws = opened[names.index(coach)]
            ply = latest[coach]["game"]["ply"]
            ws.send_json({"type": "act", "action": first_move(latest[coach]), "ply": ply})
            for n, other in zip(names, opened, strict=True):
                latest[n] = other.receive_json()
        assert acted == set(names)
    finally:
        for s in reversed(sockets):
            s.__exit__(None, None, None)


def test_a_store_failure_is_reported_and_changes_nothing(client, monkeypatch):
    created = create(client, game="paper-ultimate", mode="hotseat")
    token = tokens(created)["A"]
    gid = created["id"]
    store = services_of(client.app).rooms.store
    real_append = store.append
    calls = []

    def failing_once(*args, **kwargs):
        if not calls:
            calls.append(1)
            raise OSError("disk full")
        return real_append(*args, **kwargs)

    monkeypatch.setattr(store, "append", failing_once)
    with client.websocket_connect(f"/ws/{gid}?token={token}") as ws:
        first = ws.receive_json()
        move = {"type": "act", "action": first_move(first), "ply": first["game"]["ply"]}
        ws.send_json(move)
        failed = ws.receive_json()
        assert failed["error"] == "server-error" and "nothing was changed" in failed["message"]
        ws.send_json({"type": "state"})
        assert ws.receive_json()["game"]["ply"] == first["game"]["ply"]
        ws.send_json(move)  # the same move again, now stored
        assert ws.receive_json()["game"]["ply"] == first["game"]["ply"] + 1
    assert len(store.moves(gid)) == first["game"]["ply"] + 1


def test_a_move_while_another_thread_writes_waits_for_that_write_and_then_lands(client):
    """On SQLite a move is stored on the event loop only when no other thread holds the
    writer; otherwise it waits for it in a worker thread (and nothing is applied before)."""
    created = create(client, game="paper-ultimate", mode="hotseat")
    gid = created["id"]
    store = services_of(client.app).rooms.store
    held, release = threading.Event(), threading.Event()

    def writer():
        with store.transaction():
            held.set()
            release.wait(10)

    worker = threading.Thread(target=writer)
    worker.start()
    try:
        held.wait(10)
        with client.websocket_connect(f"/ws/{gid}?token={tokens(created)['A']}") as ws:
            first = ws.receive_json()
            ply = first["game"]["ply"]
            ws.send_json({"type": "act", "action": first_move(first), "ply": ply})
            time.sleep(0.3)
            assert len(store.moves(gid)) == ply  # not stored while the other write holds
            assert client.get(f"/api/games/{gid}").json()["game"]["ply"] == ply  # nor applied
            release.set()
            assert ws.receive_json()["game"]["ply"] > ply
        assert len(store.moves(gid)) > ply
    finally:
        release.set()
        worker.join()
