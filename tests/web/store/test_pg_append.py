"""PostgreSQL appends in one statement on psycopg's connections, committed in groups
(web/store/pg_append.py): they store exactly what the SQLAlchemy Core path stores (games, moves,
bot leases, notifications), refuse a stale or doubled move with nothing of that game changed
and the other games of its group stored, and two servers racing for one move store it once.

On a throw-away PostgreSQL cluster (tests/conftest.py's `postgres_url`)."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from sqlalchemy.engine import make_url

from monsterball.web.cluster.bus import CHANNEL, payload
from monsterball.web.store.games import StaleMove, Store, StoredMove
from monsterball.web.store.pg_append import Announce, PostgresAppender, libpq_url
from tests.helpers.web import game_row

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SERVER = "server-a"
CLOCK = {"control": [60000, 0], "left": [59000, 60000], "running": 1, "since": 123}


@pytest.fixture(scope="module")
def store(postgres_url):
    store = Store(postgres_url)
    assert isinstance(store._pg, PostgresAppender)  # PostgreSQL through psycopg: the fast path
    yield store
    store.close()


@pytest.fixture
def listening(store):
    """A connection listening on the bus's channel; call it for the payloads heard so far."""
    connection = psycopg.connect(libpq_url(make_url(str(store.url))), autocommit=True)
    payloads: list[str] = []
    connection.add_notify_handler(lambda note: payloads.append(note.payload))
    connection.execute(f"LISTEN {CHANNEL}")

    def heard() -> list[str]:
        time.sleep(0.3)
        connection.execute("SELECT 1")  # reads what has arrived
        return payloads

    yield heard
    connection.close()


def new_game(store: Store, game_id: str, plies: int = 0) -> None:
    store.create(
        game_row(game_id, plies),
        [StoredMove(p, "A", f"m{p}") for p in range(1, plies + 1)],
    )


def snapshot(store: Store, game_id: str) -> tuple[Any, ...]:
    """The game's stored rows, its id left out (to compare games)."""
    with store.engine.connect() as connection:
        game = connection.exec_driver_sql(
            "SELECT plies, status, result, automatic, clock::text, ending::text, "
            "updated_at > now() - interval '1 minute' FROM games WHERE id = %(g)s",
            {"g": game_id},
        ).one()
        moves = connection.exec_driver_sql(
            'SELECT ply, "by", action FROM moves WHERE game_id = %(g)s ORDER BY ply',
            {"g": game_id},
        ).all()
        lease = connection.exec_driver_sql(
            "SELECT owner, until > now() + interval '5 seconds' FROM bot_leases "
            "WHERE game_id = %(g)s",
            {"g": game_id},
        ).all()
    return tuple(game), [tuple(m) for m in moves], [tuple(row) for row in lease]


def step_calls(game_id: str) -> list[tuple[list[StoredMove], dict[str, Any], object]]:
    """A game's appends: (moves, keywords, what it answers: held, None, or StaleMove)."""

    def announce(moves: list[StoredMove], take: bool) -> Announce:
        return Announce(game_id, CHANNEL, payload(game_id, moves, SERVER), SERVER, 10.0, take)

    one = [StoredMove(1, "A", "A1-e7")]
    two = [StoredMove(2, "chance", "roll 3"), StoredMove(3, "B", "end")]
    four = [StoredMove(4, "A", "end")]
    five = [StoredMove(5, "B", "end")]
    playing = {"status": "playing", "result": ""}
    return [
        (one, {**playing, "automatic": True, "also": announce(one, True)}, True),
        # (here another server takes the game's lease: the next take is refused)
        (two, {**playing, "automatic": True, "clock": CLOCK, "also": announce(two, True)}, False),
        ([StoredMove(3, "A", "again")], {**playing, "automatic": False}, StaleMove),
        (four, {**playing, "automatic": False, "also": announce(four, False)}, False),
        (five, {"status": "finished", "result": "A wins", "automatic": None}, None),
    ]


def foreign_lease(store: Store, game_id: str) -> None:
    with store.engine.begin() as connection:
        connection.exec_driver_sql(
            "UPDATE bot_leases SET owner = 'server-b' WHERE game_id = %(g)s", {"g": game_id}
        )


def append(store: Store, game_id: str, moves: list[StoredMove], keywords: dict[str, Any]) -> Any:
    try:
        return store.append(game_id, moves, **keywords)
    except StaleMove:
        return StaleMove


def grouped(store: Store, calls: list[tuple[str, list[StoredMove], dict[str, Any]]]) -> list:
    """The appends from threads of their own, all queued before any is stored: the first
    thread to go on stores them in one statement."""
    appender = store._pg
    assert appender is not None
    answers: list[Any] = [None] * len(calls)
    with appender._queue:
        appender._leading = True  # as if a statement were at the database

    def run(i: int) -> None:
        game_id, moves, keywords = calls[i]
        answers[i] = append(store, game_id, moves, keywords)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 10
    while len(appender._pending) < len(calls) and time.monotonic() < deadline:
        time.sleep(0.01)
    with appender._queue:
        first = appender._pending[0]
    first.ready.set()  # the lead handed to the first waiting, which stores them all
    for thread in threads:
        thread.join()
    return answers


def test_one_statement_and_groups_store_what_the_core_path_stores(store, listening):
    games = {"core": "pa-core", "one": "pa-one", "group1": "pa-group1", "group2": "pa-group2"}
    for game_id in games.values():
        new_game(store, game_id)
    steps = {name: step_calls(game_id) for name, game_id in games.items()}
    fast = store._pg
    assert fast is not None
    batches = fast.batches
    states: dict[str, list[tuple[Any, ...]]] = {name: [] for name in games}
    for k in range(len(steps["core"])):
        store._pg = None  # the SQLAlchemy Core path, the Announce run as a statement of its own
        try:
            moves, keywords, expected = steps["core"][k]
            assert append(store, games["core"], moves, keywords) == expected
        finally:
            store._pg = fast
        moves, keywords, expected = steps["one"][k]
        assert append(store, games["one"], moves, keywords) == expected
        calls = [(games[name], *steps[name][k][:2]) for name in ("group1", "group2")]
        assert grouped(store, calls) == [expected, expected]
        for name, game_id in games.items():
            states[name].append(snapshot(store, game_id))
            if k == 0:
                foreign_lease(store, game_id)
    assert fast.batches - batches == len(steps["core"])  # every group in one statement
    assert store.counts()["append_groups"] == fast.batches  # GET /api/server's
    assert states["one"] == states["core"] == states["group1"] == states["group2"]
    final = states["core"][-1]
    clock = '{"control": [60000, 0], "left": [59000, 60000], "running": 1, "since": 123}'
    assert final[0] == (5, "finished", "A wins", None, clock, None, True)  # the clock kept
    assert states["core"][0][2] == [(SERVER, True)] and states["core"][1][2] == [("server-b", True)]
    assert states["core"][0][0][4] is None and states["core"][3][2] == []
    assert [m[2] for m in final[1]] == ["A1-e7", "roll 3", "end", "end", "end"]
    heard = listening()
    for game_id in games.values():  # three notifications each, in order, none of the stale
        mine = [p.replace(game_id, "G") for p in heard if p.startswith(game_id + " ")]
        assert mine == [
            "G 1 server-a\n1\tA\tA1-e7",
            "G 3 server-a\n2\tchance\troll 3\n3\tB\tend",
            "G 4 server-a\n4\tA\tend",
        ]


def test_a_stale_append_in_a_group_changes_nothing_and_the_others_are_stored(store, listening):
    new_game(store, "pa-fine", plies=1)
    new_game(store, "pa-stale", plies=1)
    before = snapshot(store, "pa-stale")
    move = [StoredMove(2, "B", "b")]
    keywords = {"status": "playing", "result": "", "automatic": False}

    def announced(game_id: str, moves: list[StoredMove]) -> dict[str, Any]:
        also = Announce(game_id, CHANNEL, payload(game_id, moves, SERVER), SERVER, 10.0, False)
        return {**keywords, "also": also}

    late = [StoredMove(5, "B", "late")]
    answers = grouped(
        store,
        [
            ("pa-fine", move, announced("pa-fine", move)),
            ("pa-stale", late, announced("pa-stale", late)),
        ],
    )
    assert answers == [False, StaleMove]
    assert snapshot(store, "pa-stale") == before
    assert snapshot(store, "pa-fine")[1][-1] == (2, "B", "b")
    assert [p for p in listening() if p.startswith("pa-")] == ["pa-fine 2 server-a\n2\tB\tb"]


def test_a_doubled_move_in_a_group_is_refused_alone(store, listening):
    new_game(store, "pa-d1", plies=1)
    new_game(store, "pa-d2", plies=1)
    # Move 2 of pa-d2 is stored behind the game's back: the group's statement fails whole,
    # and its appends are stored one by one.
    with store.engine.begin() as connection:
        connection.exec_driver_sql("INSERT INTO moves VALUES ('pa-d2', 2, 'B', 'sneaked')")
    before = snapshot(store, "pa-d2")
    fast = store._pg
    assert fast is not None
    fallbacks = fast.fallbacks
    move = [StoredMove(2, "B", "b")]
    keywords = {"status": "playing", "result": "", "automatic": False}
    answers = grouped(store, [("pa-d1", move, keywords), ("pa-d2", move, keywords)])
    assert answers == [None, StaleMove]
    assert fast.fallbacks == fallbacks + 1
    assert snapshot(store, "pa-d2") == before
    assert snapshot(store, "pa-d1")[1][-1] == (2, "B", "b")


def race(servers: list[Store], game_id: str, ply: int) -> list[Any]:
    """The same move number sent to each server at once: what each answered."""
    start = threading.Barrier(len(servers))
    answers: list[Any] = []

    def send(server: Store, action: str) -> None:
        start.wait()
        keywords = {"status": "playing", "result": "", "automatic": False}
        answers.append(append(server, game_id, [StoredMove(ply, "A", action)], keywords))

    threads = [threading.Thread(target=send, args=(s, f"from-{i}")) for i, s in enumerate(servers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_two_servers_racing_for_one_move_store_it_once(store, postgres_url):
    other = Store(postgres_url)  # a second server: its own connections and groups
    try:
        for n in range(20):
            game_id = f"pa-race-{n}"
            new_game(store, game_id, plies=n % 3)
            ply = n % 3 + 1
            answers = race([store, other], game_id, ply)
            assert sorted(map(str, answers)) == sorted(map(str, [None, StaleMove]))
            stored = snapshot(store, game_id)
            assert stored[0][0] == ply and len(stored[1]) == ply
            assert stored[1][-1][2] in {"from-0", "from-1"}
    finally:
        other.close()
