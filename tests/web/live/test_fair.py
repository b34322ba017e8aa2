"""Fair online play (issue 12): secret committed dice and bounded bots in a worker pool (the
per-client limits and the WebSocket messages over the limit are
tests/web/hardening/test_client_limits.py's)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from monsterball.cli import app as cli
from monsterball.core.dice import seed_commitment
from monsterball.core.record import read_record, replay
from monsterball.games import get_game
from monsterball.web.api.services import services_of
from monsterball.web.live.bot_pool import Decision, ThinkingPool, fallback_move
from monsterball.web.store.games import GameRow, Store
from tests.helpers import ROOT
from tests.helpers.web import app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SHORT = ["max_throws=12"]  # Paper Ultimate ends after 12 throws: a bot game of a few seconds


@pytest.fixture
def client(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as c:
        yield c


def tokens(created):
    return {c["name"]: c["token"] for c in created["chairs"]}


def wait_until_finished(client, game_id, seconds=60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = client.get(f"/api/games/{game_id}").json()
        if message["game"]["status"] == "finished":
            return message
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not finish in {seconds} s")


# -- fair dice ------------------------------------------------------------------------------


def test_an_online_room_refuses_a_seed_and_says_why(client):
    refused = client.post("/api/games", json={"game": "midway", "mode": "online", "seed": 12})
    assert refused.status_code == 400 and refused.json()["error"] == "bad-request"
    assert "online room cannot take a seed" in refused.json()["message"]
    assert client.get("/api/games").json()["games"] == []  # nothing was created


def test_chosen_seeds_are_marked_seeded_wherever_games_are_listed(client):
    practice = client.post(
        "/api/games", json={"game": "midway", "mode": "hotseat", "seed": 12}
    ).json()
    online = client.post("/api/games", json={"game": "midway", "mode": "online"}).json()
    assert practice["game"]["seeded"] is True and online["game"]["seeded"] is False
    listed = {g["id"]: g["seeded"] for g in client.get("/api/games").json()["games"]}
    assert listed == {practice["id"]: True, online["id"]: False}
    message = client.get(f"/api/games/{practice['id']}").json()
    assert message["game"]["seeded"] is True
    # A chosen seed is committed to like any other: the hash of its decimal text.
    assert message["game"]["dice_commitment"] == hashlib.sha256(b"12").hexdigest()


def test_an_online_room_commits_to_a_secret_seed_of_128_bits_from_its_first_message(client):
    created = client.post("/api/games", json={"game": "paper-ultimate", "mode": "online"}).json()
    gid, t = created["id"], tokens(created)
    live = services_of(client.app).rooms.rooms[gid].live
    seed = live.row.game_seed
    assert seed.bit_length() > 100  # 128 random bits (a shorter one: 1 in 2**27)
    assert created["game"]["dice_commitment"] == seed_commitment(seed)
    with client.websocket_connect(f"/ws/{gid}?token={t['A']}") as ws:
        first = ws.receive_json()
    assert first["game"]["dice_commitment"] == seed_commitment(seed)
    assert first["game"]["dice_seed"] is None and str(seed) not in json.dumps(first)
    record = client.get(f"/api/games/{gid}/record")
    # Before the end only a partial record (Paper Ultimate hides nothing), without the seed.
    assert record.headers["x-record"] == "partial" and str(seed) not in record.text


@pytest.mark.slow
def test_bot_vs_bot_game_is_watched_live_finishes_and_reveals_the_committed_seed(client, tmp_path):
    created = client.post(
        "/api/games",
        json={
            "game": "paper-ultimate",
            "mode": "bot",
            "settings": SHORT,
            "bots": {"A": "medium", "B": "mcts:50"},
        },
    ).json()
    gid = created["id"]
    assert all(c["kind"] == "bot" and c["token"] is None for c in created["chairs"])
    commitment = created["game"]["dice_commitment"]
    assert created["game"]["dice_seed"] is None
    seen = []
    with client.websocket_connect(f"/ws/{gid}") as watcher:
        while True:
            message = watcher.receive_json()
            seen.append(message["game"]["ply"])
            assert message["game"]["dice_commitment"] == commitment
            if message["game"]["status"] == "finished":
                break
            assert message["game"]["dice_seed"] is None
    assert len(seen) > 3 and seen == sorted(seen)  # the watcher saw the game move on
    revealed = message["game"]["dice_seed"]
    assert hashlib.sha256(revealed.encode()).hexdigest() == commitment
    text = client.get(f"/api/games/{gid}/record").text
    record = read_record(text)
    assert record.dice_commitment == commitment and record.end["dice_seed"] == revealed
    assert replay(record).ok
    assert services_of(client.app).rooms.pool.decisions > 0  # the bots thought in the pool


def fair_dice_recipe() -> list[str]:
    """The shell lines of docs/web.md's "Check a finished game by hand" block."""
    text = (ROOT / "docs" / "web.md").read_text("utf-8")
    block = text.split("**Check a finished game by hand.**", 1)[1].split("```sh\n", 1)[1]
    block = block.split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


@pytest.mark.slow
def test_the_documented_fair_dice_recipe_checks_a_finished_game(client, tmp_path):
    """Runs docs/web.md's recipe by hand, as a player would, on a finished online game."""
    created = client.post(
        "/api/games",
        json={
            "game": "paper-ultimate",
            "mode": "bot",
            "settings": SHORT,
            "bots": {"A": "easy", "B": "easy"},
        },
    ).json()
    finished = wait_until_finished(client, created["id"])
    seed, commitment = finished["game"]["dice_seed"], created["game"]["dice_commitment"]
    record = client.get(f"/api/games/{created['id']}/record").text
    (tmp_path / "game.jsonl").write_text(record, encoding="utf-8")
    monsterball = str(Path(sys.executable).with_name("monsterball"))
    outputs = []
    for line in fair_dice_recipe():
        if line.startswith("curl "):  # the record is fetched above, through the same API
            continue
        line = line.replace("DICE_SEED", seed).replace("monsterball ", f"{monsterball} ", 1)
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", line],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, (line, done.stdout, done.stderr)
        outputs.append(done.stdout)
    hashes = [out.split()[0] for out in outputs if re.fullmatch(r"[0-9a-f]{64}\s*-?\s*", out)]
    assert hashes == [commitment, commitment, commitment]  # sha256sum, python, the header
    assert any("matches the commitment" in out for out in outputs)  # replay --verify


def test_replay_verify_fails_when_the_revealed_seed_does_not_match_the_commitment(client, tmp_path):
    created = client.post(
        "/api/games",
        json={
            "game": "paper-ultimate",
            "mode": "bot",
            "settings": SHORT,
            "bots": {"A": "easy", "B": "easy"},
        },
    ).json()
    text = client.get(f"/api/games/{created['id']}/record").text
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text(text)
    lines = text.splitlines()
    end = json.loads(lines[-1])
    end["end"]["dice_seed"] = str(int(end["end"]["dice_seed"]) + 1)
    bad.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    runner = CliRunner()
    assert runner.invoke(cli, ["replay", str(good), "--verify"]).exit_code == 0
    result = runner.invoke(cli, ["replay", str(bad), "--verify"], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert "dice_seed" in result.output and "committed" in result.output


def test_a_record_of_an_unfinished_committed_game_carries_no_seed(client):
    created = client.post("/api/games", json={"game": "midway", "mode": "online"}).json()
    rooms = services_of(client.app).rooms
    row = rooms.store.get(created["id"])
    history = asyncio.run(rooms.history(created["id"]))  # no live room involved
    text = "".join(line + "\n" for line in rooms.record(history, row).lines())
    assert str(row.game_seed) not in text
    record = read_record(text)
    assert record.dice_commitment == seed_commitment(row.game_seed) and record.end is None
    assert replay(record).ok  # it replays; the dice are checked once the seed is revealed


# -- bounded bots ---------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["mcts:3600s", "mcts:100000000", "heuristic:100000", "mcts:infs"])
def test_a_bot_over_the_cap_is_refused_at_once(client, level):
    timings = []
    for _ in range(3):  # the best of three: the machine may be busy, the server must not be
        started = time.perf_counter()
        refused = client.post(
            "/api/games", json={"game": "huck-monster", "mode": "bot", "bots": {"B": level}}
        )
        timings.append(time.perf_counter() - started)
    elapsed = min(timings)
    assert refused.status_code == 400 and refused.json()["error"] == "bad-request"
    assert (
        "this server allows" in refused.json()["message"] or "unknown" in refused.json()["message"]
    )
    assert elapsed < 0.1, elapsed
    assert services_of(client.app).rooms.pool.decisions == 0


def test_a_bot_within_the_cap_is_accepted(client):
    for level in ("hard", "mcts:2s", "mcts:4000", "heuristic:8"):
        made = client.post(
            "/api/games", json={"game": "huck-monster", "mode": "bot", "bots": {"B": level}}
        )
        assert made.status_code == 201, made.text


def pending_bot_game(db: Path) -> str:
    """A stored bot-vs-bot game waiting for its first moves, as a restart would leave it."""
    store = Store(f"sqlite:///{db}")
    spec = get_game("paper-ultimate")
    chairs = [
        {"name": n, "seat": i, "kind": "bot", "bot": "medium", "token": f"t{i}"}
        for i, n in enumerate(("A", "B"))
    ]
    row = GameRow(
        id="pending1",
        game=spec.id,
        preset=None,
        rules_version=spec.rules_version,
        options=spec.options(None, max_throws=4).to_dict(),
        seed=-1,
        seed_text=str(2**100 + 5),
        seeded=False,
        start=None,
        mode="bot",
        chairs=chairs,
        status="playing",
        result="",
        plies=0,
        automatic=True,
    )
    store.create(row)
    store.close()
    return row.id


@pytest.mark.slow
def test_a_get_starts_no_bot_and_a_restarted_server_resumes_the_bots_turn(tmp_path):
    db = tmp_path / "games.db"
    gid = pending_bot_game(db)
    reader = TestClient(app_at(db))  # not started: its start-up would resume the game
    for _ in range(3):
        assert reader.get(f"/api/games/{gid}").json()["game"]["ply"] == 0
        assert reader.get(f"/api/games/{gid}/replay").status_code == 200
    time.sleep(0.5)
    assert services_of(reader.app).rooms.pool.decisions == 0
    assert reader.get(f"/api/games/{gid}").json()["game"]["ply"] == 0
    with TestClient(app_at(db)) as restarted:  # a server start resumes it in the pool
        final = wait_until_finished(restarted, gid)
        assert services_of(restarted.app).rooms.pool.decisions > 0
    assert final["game"]["dice_seed"] == str(2**100 + 5)


@pytest.mark.slow
def test_a_store_failure_during_a_bot_move_is_retried_and_the_game_finishes(client, monkeypatch):
    store = services_of(client.app).rooms.store
    real_append = store.append
    failed = []

    def flaky(game_id, moves, **kwargs):
        if not failed and moves[0].by != "chance" and moves[0].ply > 5:
            failed.append(moves[0].ply)
            raise OSError("disk full")
        return real_append(game_id, moves, **kwargs)

    monkeypatch.setattr(store, "append", flaky)
    created = client.post(
        "/api/games",
        json={
            "game": "paper-ultimate",
            "mode": "bot",
            "settings": SHORT,
            "bots": {"A": "medium", "B": "medium"},
        },
    ).json()
    wait_until_finished(client, created["id"])
    assert failed  # a bot's move failed to store once; the room was rebuilt and went on
    record = read_record(client.get(f"/api/games/{created['id']}/record").text)
    assert replay(record).ok and [a.ply for a in record.actions] == list(
        range(1, len(record.actions) + 1)
    )


@pytest.mark.slow
def test_a_decision_that_overruns_is_cut_off_and_made_by_the_seeded_fallback():
    spec = get_game("huck-monster")
    state = spec.new_game(spec.options())
    while state.current_player() < 0:
        state.apply(state.chance_outcomes()[0][0])
    decision = Decision(spec.id, state.to_position(), state.current_player(), "medium", 99)
    pool = ThinkingPool(1, max_seconds=0.0001, grace=0.0)

    async def ask():
        return await pool.choose(decision)

    try:
        assert asyncio.run(ask()) is None
        assert pool.cut_off == 1 and not pool._all  # the overrunning worker was killed
    finally:
        pool.close()
    expected = fallback_move(state, 99)
    assert fallback_move(state, 99) == expected and expected in state.legal_actions()
