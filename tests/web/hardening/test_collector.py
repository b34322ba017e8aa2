"""The server's cyclic collector runs on a clock (web/hardening/gc_timer.py): the automatic
one is off while an app serves and back on after, young collections happen on time, and full ones
only every FULL_EVERY ticks."""

from __future__ import annotations

import asyncio
import gc

from fastapi.testclient import TestClient

from monsterball.web.hardening import gc_timer
from tests.helpers.web import app_at


def test_the_generations_by_tick():
    ticks = range(1, 2 * gc_timer.FULL_EVERY + 1)
    chosen = [gc_timer.generation_for_tick(t) for t in ticks]
    assert [t for t, g in zip(ticks, chosen, strict=True) if g == 2] == [
        gc_timer.FULL_EVERY,
        2 * gc_timer.FULL_EVERY,
    ]
    middles = [t for t, g in zip(ticks, chosen, strict=True) if g == 1]
    assert len(middles) == 2 * (gc_timer.FULL_EVERY // gc_timer.MIDDLE_EVERY - 1)
    assert all(t % gc_timer.MIDDLE_EVERY == 0 for t in middles)
    assert chosen[:3] == [0, 0, 0]


def test_collections_come_on_the_clock_with_the_automatic_collector_off(monkeypatch):
    monkeypatch.setattr(gc_timer, "YOUNG_EVERY", 0.001)
    monkeypatch.setattr(gc_timer, "MIDDLE_EVERY", 5)
    seen: dict[str, object] = {}

    async def run() -> None:
        before = [s["collections"] for s in gc.get_stats()]
        task = asyncio.create_task(gc_timer.collect_on_a_timer())
        await asyncio.sleep(0.2)
        seen["enabled while running"] = gc.isenabled()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        after = [s["collections"] for s in gc.get_stats()]
        seen["young"] = after[0] - before[0]
        seen["middle"] = after[1] - before[1]

    assert gc.isenabled()
    asyncio.run(run())
    assert seen["enabled while running"] is False
    assert gc.isenabled()  # given back as it was
    assert seen["young"] >= 10 and seen["middle"] >= 2


def test_a_serving_app_turns_the_automatic_collector_off_and_back_on(tmp_path):
    assert gc.isenabled()
    with TestClient(app_at(tmp_path / "games.db")) as client:
        assert client.get("/api/games").status_code == 200
        assert not gc.isenabled()
    assert gc.isenabled()
