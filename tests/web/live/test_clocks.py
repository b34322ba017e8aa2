"""Clocks (issue 20, docs/web.md "Clocks"): time runs only for the side with a decision to make,
never during dice; increments; flags decided by the server, with no moves made and nobody
connected; a client cannot extend its time; a restart counts the time it was down; games lost
on time are real results in records that verify, and update both ratings when rated.

Most tests run the server on an injected clock (``FakeTime``), so every figure is exact; one
runs on the real clock to see a flag fall within a second with nobody connected."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from monsterball.core.record import read_record, replay
from monsterball.settings import Limits
from monsterball.web.api.services import services_of
from monsterball.web.app import create_app
from monsterball.web.live.game import LiveGame
from monsterball.web.live.time_control import FIRST_MOVE_GRACE_MS, BadClock, Clock, TimeControl
from tests.helpers.web import NO_CLIENT_LIMITS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
LIMITS = Limits(**{**NO_CLIENT_LIMITS.__dict__, "min_clock_seconds": 0.0})
GAME = "paper-ultimate"  # a dice toss starts it; set-up placements run in turns of 4


class FakeTime:
    """The server's clock in tests: milliseconds, moved on by hand."""

    def __init__(self, ms: int = 1_800_000_000_000):
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


def app(path: Path, now: FakeTime | None = None, **kw):
    extra = {"now_ms": now} if now is not None else {}
    return create_app(f"sqlite:///{path}", limits=LIMITS, **extra, **kw)


def new_game(client, clock, game=GAME, **body):
    answer = client.post(
        "/api/games", json={"game": game, "mode": "online", "clock": clock, **body}
    )
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], {c["name"]: c["token"] for c in created["chairs"] if c["token"]}


def state(client, gid, token=None):
    headers = {"Seat-Token": token} if token else {}
    return client.get(f"/api/games/{gid}", headers=headers).json()


def act(client, gid, tokens, pick=lambda legal: legal[0]["a"]):
    seen = state(client, gid)
    token = tokens[seen["to_act"]]
    mine = state(client, gid, token)
    answer = client.post(
        f"/api/games/{gid}/act",
        json={"token": token, "action": pick(mine["legal"]), "ply": mine["game"]["ply"]},
    )
    assert answer.status_code == 200, answer.text
    return seen["to_act"], answer.json()


def stored_clock(client, gid) -> Clock:
    row = services_of(client.app).rooms.store.get(gid)
    return Clock.from_dict(row.clock)


def check_clock(client, gid) -> bool:
    rooms = services_of(client.app).rooms
    room = client.portal.call(rooms.get, gid)
    return client.portal.call(rooms.check_clock, room)


REALTIME = {"kind": "realtime", "minutes": 5, "increment": 0}


# -- time controls ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clock", "says"),
    [
        # The shape (one typed union, web/api/inputs.py), in the API's one-line errors:
        ({"kind": "blitz"}, "clock: Input tag 'blitz' found using 'kind' does not match"),
        ({"kind": "realtime", "minutes": 0}, "clock.realtime.minutes: Input should be greater"),
        ({"kind": "realtime", "minutes": 500}, "clock.realtime.minutes: Input should be less"),
        ({"kind": "realtime", "minutes": "5"}, "clock.realtime.minutes: Input should be a valid"),
        ({"kind": "realtime", "minutes": 5, "increment": -1}, "clock.realtime.increment: Input"),
        ({"kind": "realtime", "minutes": 5, "left_ms": 9}, "left_ms: Extra inputs are not"),
        ({"kind": "correspondence", "days": 0}, "clock.correspondence.days: Input should be"),
        ({"kind": "correspondence", "days": 1.5}, "clock.correspondence.days: Input should be"),
        # Then the server's shortest control (Limits.min_clock_seconds, 30 s here).
        (
            {"kind": "realtime", "minutes": 0.25, "increment": 0},
            "clock.minutes must be a number from 0.5 to 180",
        ),
    ],
)
def test_bad_time_controls_are_refused_in_one_line_and_nothing_is_stored(tmp_path, clock, says):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", limits=NO_CLIENT_LIMITS)) as c:
        answer = c.post("/api/games", json={"game": GAME, "mode": "online", "clock": clock})
        assert answer.status_code == 400
        assert says in answer.json()["message"] and "\n" not in answer.json()["message"]
        assert c.get("/api/games").json()["games"] == []
        hotseat = c.post("/api/games", json={"game": GAME, "clock": REALTIME})
        assert hotseat.status_code == 400 and "hot-seat game has no clock" in hotseat.text
    with pytest.raises(BadClock):
        TimeControl.parse(clock)


# -- who is charged -----------------------------------------------------------------------


@pytest.mark.slow
def test_time_is_charged_to_the_deciding_side_only_and_never_while_the_dice_roll(
    tmp_path, monkeypatch
):
    """Huck Monster (throws roll dice mid-play). Each human move takes 1 s of (fake) time,
    each die 7 s. After 80 moves of random play, each side has lost exactly 1 s per move of
    its own: no dice time, none of the other side's. At every roll the stored clock runs
    for nobody."""
    now = FakeTime()
    rolls: list[int | None] = []
    store_of = {}
    real_roll = LiveGame.roll

    def slow_roll(live):
        rolls.append(Clock.from_dict(store_of["store"].get(live.id).clock).running)
        now.ms += 7000
        return real_roll(live)

    monkeypatch.setattr(LiveGame, "roll", slow_roll)
    rng = random.Random(5)
    with TestClient(app(tmp_path / "g.db", now)) as client:
        store_of["store"] = services_of(client.app).rooms.store
        gid, tokens = new_game(
            client, {"kind": "realtime", "minutes": 60, "increment": 0}, game="huck-monster"
        )
        moves = {"A": 0, "B": 0}
        for _ in range(80):
            if state(client, gid)["game"]["status"] != "playing":
                break
            now.ms += 1000
            who, _ = act(client, gid, tokens, lambda legal: rng.choice(legal)["a"])
            moves[who] += 1
        clock = stored_clock(client, gid)
        running = clock.running
        for side, name in enumerate("AB"):
            charged = 3_600_000 - clock.left(side, now.ms)
            assert charged == 1000 * moves[name], (name, moves, rolls)
    assert len(rolls) > 3 and moves["A"] and moves["B"]  # dice fell between moves
    assert set(rolls) == {None}
    assert running is not None


def test_the_increment_comes_when_the_sides_turn_ends(tmp_path):
    """Set-up: B places four pieces in a row, then A. Real time 1 min + 5 s: B's first three
    placements (its turn goes on) earn nothing, the fourth (A's turn next) earns 5 s."""
    now = FakeTime()
    with TestClient(app(tmp_path / "g.db", now)) as client:
        gid, tokens = new_game(client, {"kind": "realtime", "minutes": 1, "increment": 5})
        first = state(client, gid)["to_act"]
        side = "AB".index(first)
        lefts = []
        for _ in range(4):
            now.ms += 2000
            who, message = act(client, gid, tokens)
            assert who == first
            lefts.append(stored_clock(client, gid).left_ms[side])
        assert message["to_act"] != first
        assert lefts == [58_000, 56_000, 54_000, 52_000 + 5000]


def test_correspondence_gives_the_days_again_after_each_move(tmp_path):
    now = FakeTime()
    with TestClient(app(tmp_path / "g.db", now)) as client:
        gid, tokens = new_game(client, {"kind": "correspondence", "days": 2})
        first = state(client, gid)["to_act"]
        now.ms += 30 * 3_600_000  # 30 hours
        act(client, gid, tokens)
        clock = stored_clock(client, gid)
        assert clock.left_ms["AB".index(first)] == 2 * 86_400_000
        assert clock.deadline() == (now.ms + 2 * 86_400_000, "time")


# -- flags ----------------------------------------------------------------------------------


def test_a_side_that_never_moves_loses_on_time_at_its_flag_to_the_millisecond(tmp_path):
    now = FakeTime()
    with TestClient(app(tmp_path / "g.db", now)) as client:
        gid, tokens = new_game(client, {"kind": "realtime", "minutes": 0.5, "increment": 0})
        seen = state(client, gid)
        loser = seen["clock"]["running"]
        assert seen["clock"]["flag_ms"] == now.ms + 30_000
        now.ms += 29_999
        assert not check_clock(client, gid)
        assert state(client, gid)["game"]["status"] == "playing"
        now.ms += 1
        assert check_clock(client, gid)
        over = state(client, gid)
        winner = "B" if loser == "A" else "A"
        assert over["game"]["status"] == "finished"
        assert over["game"]["result"] == f"team {winner} wins on time: team {loser}'s clock ran out"
        assert over["game"]["ending"] == {"termination": "time", "loser": loser}
        assert over["clock"]["running"] is None
        assert over["clock"]["sides"]["AB".index(loser)]["left_ms"] == 0
        assert over["game"]["dice_seed"] is not None  # the game is over: the seed revealed
        assert state(client, gid, tokens[loser])["legal"] == []  # no moves offered after it
        row = services_of(client.app).rooms.store.get(gid)
        assert row.status == "finished" and row.result == over["game"]["result"]
        # The record ends with the time result, and verifies.
        text = client.get(f"/api/games/{gid}/record").text
        record = read_record(text)
        assert record.format == 2
        assert record.end["termination"] == "time" and record.end["loser"] == loser
        report = replay(record)
        assert report.ok, report.divergence
        tampered = read_record(text.replace(f'"loser":"{loser}"', f'"loser":"{winner}"'))
        assert not replay(tampered).ok
        listed = client.get("/api/games?status=finished").json()["games"]
        assert [(g["id"], g["clock"], g["rated"]) for g in listed] == [
            (gid, "0.5 min + 0 s", False)
        ]
        # A rematch keeps the time control, with fresh clocks.
        for name in ("A", "B"):  # asked by one, accepted by the other
            again = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[name]})
        assert again.status_code == 201, again.text
        fresh = state(client, again.json()["id"])["clock"]
        assert fresh["control"] == {"kind": "realtime", "minutes": 0.5, "increment": 0.0}
        assert [side["left_ms"] for side in fresh["sides"]] == [30_000, 30_000]


def test_a_real_time_side_that_never_makes_its_first_move_abandons_after_the_grace(tmp_path):
    now = FakeTime()
    with TestClient(app(tmp_path / "g.db", now)) as client:
        gid, _ = new_game(client, REALTIME)
        loser = state(client, gid)["clock"]["running"]
        now.ms += FIRST_MOVE_GRACE_MS - 1
        assert not check_clock(client, gid)
        now.ms += 1
        assert check_clock(client, gid)
        game = state(client, gid)["game"]
        assert game["ending"] == {"termination": "abandoned", "loser": loser}
        assert "abandoned the game" in game["result"]


def test_a_move_sent_after_the_flag_is_refused_and_the_game_is_lost(tmp_path):
    """The timer has not woken yet (fake time), the client moves late: too late."""
    now = FakeTime()
    with TestClient(app(tmp_path / "g.db", now)) as client:
        gid, tokens = new_game(client, {"kind": "realtime", "minutes": 0.5, "increment": 0})
        seen = state(client, gid)
        mine = state(client, gid, tokens[seen["to_act"]])
        now.ms += 30_000
        late = client.post(
            f"/api/games/{gid}/act",
            json={
                "token": tokens[seen["to_act"]],
                "action": mine["legal"][0]["a"],
                "ply": mine["game"]["ply"],
            },
        )
        assert late.status_code == 409 and "wins on time" in late.json()["message"]
        assert services_of(client.app).rooms.store.get(gid).plies == mine["game"]["ply"]


def test_a_client_cannot_stop_or_extend_its_clock(tmp_path):
    """Stale and repeated moves, state requests, reconnecting and made-up messages leave
    the stored clock exactly as it was; only a legal move changes it."""
    now = FakeTime()
    with TestClient(app(tmp_path / "g.db", now)) as client:
        gid, tokens = new_game(client, REALTIME)
        now.ms += 3000
        act(client, gid, tokens)
        before = stored_clock(client, gid).to_dict()
        now.ms += 4000
        token = tokens[state(client, gid)["to_act"]]
        stale = client.post(
            f"/api/games/{gid}/act", json={"token": token, "action": "place a1", "ply": 0}
        )
        assert stale.status_code == 409
        for _ in range(2):
            with client.websocket_connect(f"/ws/{gid}") as ws:
                ws.receive_json()
                ws.send_json({"type": "seat", "token": token})
                assert ws.receive_json()["type"] == "state"
                ws.send_json({"type": "clock", "left_ms": [10**9, 10**9]})
                assert ws.receive_json()["error"] == "bad-request"
                ws.send_json({"type": "act", "action": "resign", "ply": 1, "left_ms": 10**9})
                assert ws.receive_json()["type"] == "error"
                ws.send_json({"type": "state"})
                assert ws.receive_json()["type"] == "state"
        assert stored_clock(client, gid).to_dict() == before
        seen = state(client, gid)
        running = "AB".index(seen["clock"]["running"])
        assert seen["server_ms"] == now.ms
        shown = seen["clock"]["sides"][running]["left_ms"] - (now.ms - seen["clock"]["since_ms"])
        assert shown == before["left_ms"][running] - 4000  # the 4 s still count


def test_a_restart_counts_the_time_the_server_was_down(tmp_path):
    now = FakeTime()
    db = tmp_path / "g.db"
    with TestClient(app(db, now)) as client:
        gid, tokens = new_game(client, REALTIME)
        now.ms += 2000
        act(client, gid, tokens)
        runner = state(client, gid)["clock"]["running"]
        before = stored_clock(client, gid)
    now.ms += 10_000  # down for 10 s
    with TestClient(app(db, now)) as client:
        assert stored_clock(client, gid) == before  # resumed as stored
        now.ms += 1000
        who, _ = act(client, gid, tokens)
        assert who == runner
        side = "AB".index(runner)
        assert stored_clock(client, gid).left_ms[side] == before.left_ms[side] - 11_000
    # Down past a side's flag: the restarted server ends the game at once.
    now.ms += 10 * 60_000
    with TestClient(app(db, now)) as client:
        deadline = time.monotonic() + 10  # the resume runs beside the first requests
        while state(client, gid)["game"]["status"] == "playing" and time.monotonic() < deadline:
            time.sleep(0.02)
        game = state(client, gid)["game"]
        assert game["status"] == "finished" and game["ending"]["termination"] == "time"


# -- the real clock, end to end ---------------------------------------------------------------


def test_a_rated_game_nobody_plays_ends_within_a_second_of_the_flag_and_rates_both(tmp_path):
    """Real time, a 1.2 s clock (the test server's limit allows it), no moves, no sockets:
    the server's timer ends it within a second of the flag, and both players' ratings move."""
    with TestClient(app(tmp_path / "g.db", trust_client_players=True)) as client:
        players = {"A": "account:1", "B": "account:2"}
        gid, _ = new_game(
            client,
            {"kind": "realtime", "minutes": 0.02, "increment": 0},
            rated=True,
            players=players,
        )
        seen = state(client, gid)
        flag_s = seen["clock"]["flag_ms"] / 1000
        loser = seen["clock"]["running"]
        while time.time() < flag_s + 1.0:
            time.sleep(0.05)
        row = services_of(client.app).rooms.store.get(gid)
        assert row.status == "finished"
        assert row.ending == {"termination": "time", "loser": loser}
        ended_at = row.updated_at.timestamp()
        assert flag_s <= ended_at < flag_s + 1.0
        board = client.get(f"/api/ratings/{GAME}").json()["players"]
        by_key = {p["player"]: p for p in board}
        assert set(by_key) == set(players.values())
        winner_key = players["B" if loser == "A" else "A"]
        assert by_key[winner_key]["rating"] > 1500 > by_key[players[loser]]["rating"]
        assert all(p["games"] == 1 and p["shown"].endswith("?") for p in board)


def test_four_coaches_share_their_sides_clock(tmp_path):
    """Huck + Monster with four coaches: two chairs per seat take turns; the clock is the
    side's, so each move is charged to the seat, whichever of its coaches made it."""
    now = FakeTime()
    with TestClient(app(tmp_path / "g.db", now)) as client:
        answer = client.post(
            "/api/games",
            json={"game": "huck-monster", "mode": "online", "coaches": 4, "clock": REALTIME},
        )
        assert answer.status_code == 201, answer.text
        gid = answer.json()["id"]
        tokens = {c["name"]: c["token"] for c in answer.json()["chairs"]}
        assert len(tokens) == 4
        assert [s["side"] for s in state(client, gid)["clock"]["sides"]] == ["A", "B"]
        spent = {"A": 0, "B": 0}
        chairs = set()
        for k in range(300):  # until both coaches of each side have moved
            seen = state(client, gid)
            if seen["clock"]["running"] is None or len(chairs) == 4:
                break
            now.ms += 100 + k
            spent[seen["clock"]["running"]] += 100 + k
            chair, _ = act(client, gid, tokens)
            chairs.add(chair)
        clock = stored_clock(client, gid)
        for side, name in enumerate("AB"):
            assert 300_000 - clock.left(side, now.ms) == spent[name]
        assert spent["A"] > 0
        assert chairs == {"A-1", "A-2", "B-1", "B-2"}  # coaches took turns in each seat
