"""SQLite appends on the driver's connection (web/store/sqlite_append.py) store exactly what the
SQLAlchemy Core path stores, refuse a stale or doubled move with nothing changed, and store a
batch all or none."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from monsterball.web.store.games import StaleMove, Store, StoredMove
from monsterball.web.store.sqlite_append import CHECKPOINT_EVERY
from tests.helpers.web import game_row


def new_store(path, fast: bool) -> Store:
    store = Store(f"sqlite:///{path}")
    assert store._fast is not None  # SQLite takes the fast path
    if not fast:
        store._fast.close()
        store._fast = None
    store.create(game_row("g1"))
    return store


def rows(path) -> tuple[list, list]:
    with sqlite3.connect(path) as connection:
        games = connection.execute(
            "SELECT plies, status, result, automatic, typeof(automatic), typeof(updated_at), "
            "length(updated_at) FROM games"
        ).fetchall()
        moves = connection.execute("SELECT * FROM moves ORDER BY ply").fetchall()
    return games, moves


def play(store: Store) -> None:
    store.append("g1", [StoredMove(1, "A", "A1-e7")], status="playing", result="", automatic=True)
    # From another thread, as the server's worker threads call it.
    worker = threading.Thread(
        target=store.append,
        args=("g1", [StoredMove(2, "chance", "roll 3"), StoredMove(3, "B", "end")]),
        kwargs={"status": "playing", "result": "", "automatic": False},
    )
    worker.start()
    worker.join()
    for stale in ([StoredMove(3, "A", "again")], [StoredMove(5, "A", "skips")]):
        with pytest.raises(StaleMove):
            store.append("g1", stale, status="finished", result="x", automatic=None)
    store.append(
        "g1", [StoredMove(4, "A", "end")], status="finished", result="A wins", automatic=None
    )


def test_fast_appends_store_what_the_core_path_stores(tmp_path):
    stored = {}
    for fast in (True, False):
        path = tmp_path / f"{fast}.db"
        store = new_store(path, fast)
        play(store)
        row = store.get("g1")
        assert row is not None and row.updated_at.year >= 2026
        assert [m.action for m in store.moves("g1")] == ["A1-e7", "roll 3", "end", "end"]
        store.close()
        stored[fast] = rows(path)
    assert stored[True] == stored[False]
    assert stored[True][0][0][:4] == (4, "finished", "A wins", None)


def test_a_doubled_move_in_a_batch_stores_none_of_it(tmp_path):
    path = tmp_path / "g.db"
    store = new_store(path, True)
    store.append("g1", [StoredMove(1, "A", "a")], status="playing", result="", automatic=False)
    before = rows(path)
    # Move 2 is stored behind the game's back, so the batch's insert fails after its update.
    with sqlite3.connect(path) as connection:
        connection.execute("INSERT INTO moves VALUES ('g1', 2, 'B', 'sneaked')")
    with pytest.raises(StaleMove):
        store.append(
            "g1",
            [StoredMove(2, "B", "b"), StoredMove(3, "A", "c")],
            status="finished",
            result="x",
            automatic=True,
        )
    games, moves = rows(path)
    assert games == before[0] and len(moves) == 2
    with pytest.raises(StaleMove):  # the game is still at move 1: move 3 does not follow
        store.append("g1", [StoredMove(3, "A", "c")], status="playing", result="", automatic=False)
    assert rows(path) == (before[0], moves)
    store.close()


def test_appends_never_checkpoint_themselves_and_a_thread_does_it_every_so_many(tmp_path):
    """An append may run on the event loop: its connection never runs the WAL checkpoint
    (which fsyncs); one runs in a thread of its own every CHECKPOINT_EVERY appends."""
    path = tmp_path / "g.db"
    store = new_store(path, fast=True)
    appender = store._fast
    assert appender is not None and appender.checkpoints is not None
    try:
        assert appender._connection.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
        for ply in range(1, CHECKPOINT_EVERY + 1):
            store.append("g1", [StoredMove(ply, "A", "end")], status="playing", result="")
        deadline = time.monotonic() + 10
        while appender.checkpoints.done < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert appender.checkpoints.done == 1
    finally:
        store.close()
    with sqlite3.connect(path) as connection:  # every move is in the database file
        assert connection.execute("SELECT count(*) FROM moves").fetchone() == (CHECKPOINT_EVERY,)


def test_the_writer_is_held_on_this_thread_only_when_no_other_thread_holds_it(tmp_path):
    store = new_store(tmp_path / "g.db", fast=True)
    try:
        with store.writer_if_free() as free:
            assert free  # and this thread's own writes go ahead under it
            store.append("g1", [StoredMove(1, "A", "end")], status="playing", result="")
            seen: list[bool] = []

            def other() -> None:
                with store.writer_if_free() as held:
                    seen.append(held)

            worker = threading.Thread(target=other)
            worker.start()
            worker.join()
            assert seen == [False]  # another thread is told at once, without waiting
        assert len(store.moves("g1")) == 1
    finally:
        store.close()
