"""Replays kept and extended (web/live/history.py): a game played move by move through the rooms
has, after every move, the history a full rebuild from the store gives (states, checkpoints,
log, summary, record); a kept replay is extended by the new moves only (``histories_extended``),
never across a takeback, and a long extension is charged to the asker's rebuild allowance."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monsterball.games import all_games
from monsterball.web.live import history as history_module
from monsterball.web.live.bot_pool import ThinkingPool
from monsterball.web.live.history import Replay, replayed
from monsterball.web.live.room_types import Room
from monsterball.web.live.rooms import Rooms
from monsterball.web.live.takeback import Takebacks
from monsterball.web.store.games import Store
from tests.helpers.web import app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAMES = [spec.id for spec in all_games()]
MOVES = 24  # a person's moves per game (the dice between them are more)


def run_rooms(path: Path, body: Callable[[Rooms], Awaitable[None]]) -> None:
    store = Store(f"sqlite:///{path}")
    pool = ThinkingPool(1)
    try:
        asyncio.run(body(Rooms(store, pool)))
    finally:
        pool.close()
        store.close()


async def hot_seat(rooms: Rooms, game: str, seed: int) -> Room:
    return await rooms.create(
        game=game, preset=None, options={}, mode="hotseat", coaches=2, bots={}, seed=seed
    )


async def move(rooms: Rooms, room: Room, rng: random.Random) -> bool:
    """A random legal move by the seat to act (the dice after it roll at once)."""
    live = room.live
    chair = live.acting_chair()
    if live.over() or chair is None:
        return False
    action = rng.choice(live.state.legal_actions())
    await rooms.submit(room, chair, action.notation(), live.state.ply)
    return True


def assert_as_rebuilt(rooms: Rooms, game_id: str, got: Replay) -> None:
    """``got`` is what a full rebuild from the store makes of the game now."""
    row = rooms.store.get(game_id)
    assert row is not None
    want = replayed(row, rooms.store.moves(game_id))
    assert got.actions == want.actions
    assert got.checkpoints == want.checkpoints  # states compare by their whole position
    assert got.live.state == want.live.state
    assert got.live.log == want.live.log
    assert got.live.summary() == want.live.summary()
    assert list(got.record(row).lines()) == list(want.record(row).lines())
    for step in range(len(want.actions) + 1):
        assert got.state_at(step) == want.state_at(step)


@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**31))
def test_a_game_played_move_by_move_has_the_history_a_full_rebuild_gives(
    game: str, seed: int, tmp_path: Path
) -> None:
    rng = random.Random(seed)

    async def body(rooms: Rooms) -> None:
        room = await hot_seat(rooms, game, seed)
        gid = room.live.id
        assert_as_rebuilt(rooms, gid, await rooms.history(gid))
        assert rooms.counts["histories_built"] == 1
        for made in range(1, MOVES + 1):
            if not await move(rooms, room, rng):
                break
            replay = await rooms.history(gid)
            assert_as_rebuilt(rooms, gid, replay)
            assert (await rooms.history(gid)) is replay  # kept: asked again, not extended
            assert rooms.counts["histories_built"] == 1
            assert rooms.counts["histories_extended"] == made
            assert [k for k in rooms.histories.kept if k[0] == gid] == [(gid, len(replay.actions))]

    # Checkpoints every 3 moves: the extension crosses many of them in a short game.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(history_module, "CHECKPOINT_EVERY", 3)
        run_rooms(tmp_path / f"{game}-{seed}.db", body)


def test_a_takeback_forces_a_rebuild_never_an_extension(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        room = await hot_seat(rooms, "paper-ultimate", 3)
        gid, chair = room.live.id, room.live.chairs[0]
        takebacks = Takebacks(rooms, rooms.store)
        for text in ("place a1", "place b1"):
            await rooms.submit(room, room.live.acting_chair(), text, room.live.state.ply)
        kept = await rooms.history(gid)
        assert kept.actions[-2:] == ["place a1", "place b1"]
        await takebacks.ask(room, chair, lambda: None)
        shorter = await rooms.history(gid)
        assert_as_rebuilt(rooms, gid, shorter)
        assert rooms.counts["histories_built"] == 2 and rooms.counts["histories_extended"] == 0
        # Back at the count the first replay was kept at, with another move: not that replay.
        await takebacks.ask(room, chair, lambda: None)
        for text in ("place c1", "place d1"):
            await rooms.submit(room, room.live.acting_chair(), text, room.live.state.ply)
        again = await rooms.history(gid)
        assert len(again.actions) == len(kept.actions) and again.actions[-2:] == [
            "place c1",
            "place d1",
        ]
        assert_as_rebuilt(rooms, gid, again)
        assert rooms.counts["histories_built"] == 3 and rooms.counts["histories_extended"] == 0
        await rooms.submit(room, room.live.acting_chair(), "place e1", room.live.state.ply)
        assert_as_rebuilt(rooms, gid, await rooms.history(gid))  # extended again from there
        assert rooms.counts["histories_built"] == 3 and rooms.counts["histories_extended"] == 1

    run_rooms(tmp_path / "g.db", body)


def test_a_short_extension_is_free_and_a_long_one_is_charged_as_a_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history_module, "EXTEND_FREE", 2)
    charged: list[int] = []

    def before_building() -> None:
        charged.append(1)

    async def body(rooms: Rooms) -> None:
        room = await hot_seat(rooms, "paper-ultimate", 3)
        gid = room.live.id
        rng = random.Random(5)
        await rooms.history(gid, before_building)
        assert len(charged) == 1  # the build
        await move(rooms, room, rng)
        assert_as_rebuilt(rooms, gid, await rooms.history(gid, before_building))
        assert len(charged) == 1  # one move: free
        for _ in range(3):
            await move(rooms, room, rng)
        assert_as_rebuilt(rooms, gid, await rooms.history(gid, before_building))
        assert len(charged) == 2  # three: charged, and still only the new moves applied
        assert rooms.counts["histories_built"] == 1 and rooms.counts["histories_extended"] == 2

    run_rooms(tmp_path / "g.db", body)


def test_the_counters_are_in_the_server_status(tmp_path: Path) -> None:
    with TestClient(app_at(tmp_path / "g.db")) as client:
        made = client.post("/api/games", json={"game": "paper-ultimate", "seed": 3}).json()
        gid, token = made["id"], made["chairs"][0]["token"]
        assert client.get(f"/api/games/{gid}/replay").status_code == 200
        now = client.get(f"/api/games/{gid}", headers={"seat-token": token}).json()
        body = {"token": token, "action": now["legal"][0]["a"], "ply": now["game"]["ply"]}
        assert client.post(f"/api/games/{gid}/act", json=body).status_code == 200
        assert client.get(f"/api/games/{gid}/replay").json()["steps"] == now["game"]["ply"] + 1
        counts = client.get("/api/server").json()["counts"]
        assert counts["histories_built"] == 1 and counts["histories_extended"] == 1
