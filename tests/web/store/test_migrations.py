"""The game store's schema migrations (issue 15: "Schema migrations with Alembic ... run on
start, tested from an empty database and from the current schema"), on SQLite and on a
throw-away PostgreSQL cluster."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    inspect,
    text,
)
from typer.testing import CliRunner

import monsterball.web.store.migrations as migrations
from monsterball.cli import app as cli_app
from monsterball.web.api.services import services_of
from monsterball.web.app import create_app
from monsterball.web.store.games import Base, SchemaError, Store
from tests.helpers import ROOT
from tests.helpers.web import NO_CLIENT_LIMITS, first_move

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
HEAD = "0009_nonce_deadline"
REVISIONS = (
    9  # files in web/store/migrations/versions; `db revision` numbers the next one REVISIONS + 1
)
NEXT = f"{REVISIONS + 1:04d}"


def old_schema(with_fair_dice_columns: bool) -> MetaData:
    """The tables as the code before migrations made them: ``create_all`` of the 0588f66 model,
    and (commit e64285b) the three columns its ``ALTER TABLE`` added at the end."""
    metadata = MetaData()
    extra = (
        [Column("seed_text", String(80)), Column("seeded", Boolean), Column("automatic", Boolean)]
        if with_fair_dice_columns
        else []
    )
    Table(
        "games",
        metadata,
        Column("id", String(32), primary_key=True),
        Column("game", String(40), nullable=False),
        Column("preset", String(40)),
        Column("rules_version", String(60), nullable=False),
        Column("options", JSON, nullable=False),
        Column("seed", BigInteger, nullable=False),
        Column("start", JSON),
        Column("mode", String(16), nullable=False),
        Column("chairs", JSON, nullable=False),
        Column("status", String(16), nullable=False),
        Column("result", Text, nullable=False),
        Column("plies", Integer, nullable=False),
        Column("parent_id", String(32)),
        Column("parent_ply", Integer),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("updated_at", DateTime(timezone=True), nullable=False),
        *extra,
    )
    Table(
        "moves",
        metadata,
        Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
        Column("ply", Integer, primary_key=True),
        Column("by", String(16), nullable=False),
        Column("action", String(200), nullable=False),
    )
    return metadata


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    """A new, empty database on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    server = request.getfixturevalue("postgres_url")
    name = f"t{uuid.uuid4().hex[:12]}"
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return server.rsplit("/", 1)[0] + f"/{name}"


def schema_differences(url: str) -> list:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return compare_metadata(MigrationContext.configure(connection), Base.metadata)
    finally:
        engine.dispose()


def revision_of(url: str) -> list[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return [
                r[0] for r in connection.execute(text("SELECT version_num FROM alembic_version"))
            ]
    finally:
        engine.dispose()


def to_act(client, gid, tokens):
    """The token of the chair to act and its message."""
    for token in tokens.values():
        message = client.get(f"/api/games/{gid}", params={"token": token}).json()
        if message["legal"]:
            return token, message
    raise AssertionError("no chair may act")


def play_and_copy_to_old_schema(url: str, scratch: Path, *, with_fair_dice_columns: bool):
    """A hot-seat game played 12 moves by today's server on a scratch database, written into
    ``url`` as the old code stored it (integer seed, the chairs' tokens in clear); returns the
    game id, its tokens and the last message."""
    with TestClient(create_app(f"sqlite:///{scratch}", limits=NO_CLIENT_LIMITS)) as client:
        created = client.post(
            "/api/games", json={"game": "huck-monster", "mode": "hotseat", "seed": 7}
        ).json()
        gid = created["id"]
        tokens = {c["name"]: c["token"] for c in created["chairs"]}
        for _ in range(12):
            token, message = to_act(client, gid, tokens)
            moved = client.post(
                f"/api/games/{gid}/act",
                json={"token": token, "action": first_move(message), "ply": message["game"]["ply"]},
            )
            assert moved.status_code == 200, moved.text
        token, message = to_act(client, gid, tokens)
        row = services_of(client.app).rooms.store.get(gid)
        moves = services_of(client.app).rooms.store.moves(gid)
    assert row.seed == 7 and len(moves) >= 12
    old = old_schema(with_fair_dice_columns)
    engine = create_engine(url)
    old.create_all(engine)
    chairs = [
        {k: v for k, v in chair.items() if k != "token_hash"} | {"token": tokens[chair["name"]]}
        for chair in row.chairs
    ]
    columns = {c.name for c in old.tables["games"].columns}
    values = {name: getattr(row, name) for name in columns} | {"chairs": chairs}
    if with_fair_dice_columns:
        values |= {"seed_text": None, "seeded": None, "automatic": None}
    with engine.begin() as connection:
        connection.execute(old.tables["games"].insert().values(**values))
        connection.execute(
            old.tables["moves"].insert(),
            [{"game_id": gid, "ply": m.ply, "by": m.by, "action": m.action} for m in moves],
        )
    engine.dispose()
    return gid, tokens, message


def test_an_empty_database_is_migrated_to_exactly_the_models(db_url):
    Store(db_url).close()
    assert revision_of(db_url) == [HEAD]
    assert schema_differences(db_url) == []
    Store(db_url).close()  # a second start finds it current and changes nothing
    assert revision_of(db_url) == [HEAD]


@pytest.mark.parametrize("with_fair_dice_columns", [False, True], ids=["0588f66", "e64285b"])
def test_a_database_from_before_migrations_is_stamped_upgraded_and_still_playable(
    db_url, tmp_path, with_fair_dice_columns
):
    gid, tokens, message = play_and_copy_to_old_schema(
        db_url, tmp_path / "scratch.db", with_fair_dice_columns=with_fair_dice_columns
    )
    with TestClient(create_app(db_url, limits=NO_CLIENT_LIMITS)) as client:
        token, again = to_act(client, gid, tokens)
        assert again == message  # the same position, seen by the same chair
        moved = client.post(
            f"/api/games/{gid}/act",
            json={"token": token, "action": first_move(again), "ply": again["game"]["ply"]},
        )
        assert moved.status_code == 200, moved.text
        assert moved.json()["game"]["ply"] > again["game"]["ply"]
        row = services_of(client.app).rooms.store.get(gid)
        assert row.game_seed == 7 and row.was_seeded  # from before fair dice: seeded
    assert revision_of(db_url) == [HEAD]
    assert schema_differences(db_url) == []
    # Revision 0003 replaced each clear token by its SHA-256.
    for chair in row.chairs:
        assert "token" not in chair
        assert chair["token_hash"] == hashlib.sha256(tokens[chair["name"]].encode()).hexdigest()


def test_a_database_from_a_newer_monsterball_is_refused_in_one_line(db_url):
    Store(db_url).close()
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0999'"))
    engine.dispose()
    with pytest.raises(SchemaError, match="revision 0999, which this monsterball does not know"):
        Store(db_url)
    result = CliRunner().invoke(cli_app, ["serve", "--db", db_url], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "revision 0999" in lines[0] and lines[0].startswith("error:")
    assert revision_of(db_url) == ["0999"]  # left as it was


def test_a_half_migrated_legacy_schema_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    engine = create_engine(url)
    old_schema(False).create_all(engine)
    with engine.begin() as connection:
        connection.execute(text("ALTER TABLE games ADD COLUMN seed_text VARCHAR(80)"))
    engine.dispose()
    with pytest.raises(SchemaError, match="but not automatic, seeded"):
        Store(url)


def test_servers_starting_at_once_on_postgresql_migrate_once(postgres_url):
    name = f"t{uuid.uuid4().hex[:12]}"
    engine = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    url = postgres_url.rsplit("/", 1)[0] + f"/{name}"
    # Processes, as servers are (alembic's op and context are one per process); each opens
    # the store, so each would create the tables if the lock did not make the others wait.
    program = f"from monsterball.web.store.games import Store; Store({url!r}).close()"
    starts = [
        subprocess.Popen([sys.executable, "-c", program], stderr=subprocess.PIPE) for _ in range(3)
    ]
    for start in starts:
        _, errors = start.communicate(timeout=120)
        assert start.returncode == 0, errors.decode()
    assert revision_of(url) == [HEAD] and schema_differences(url) == []


def test_db_commands_show_and_upgrade_and_write_nothing_when_the_models_match(
    tmp_path, monkeypatch
):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    runner = CliRunner()
    missing = runner.invoke(cli_app, ["db", "current", "--db", url])
    assert missing.exit_code == 2 and "no such SQLite database" in missing.output
    assert not (tmp_path / "games.db").exists()  # not created by looking
    upgraded = runner.invoke(cli_app, ["db", "upgrade", "--db", url])
    assert upgraded.output.strip() == f"{url}: at revision {HEAD} (was empty)"
    shown = runner.invoke(cli_app, ["db", "current", "--db", url])
    assert shown.output.strip() == f"{url}: at revision {HEAD}; newest known: {HEAD}"
    copy = tmp_path / "migrations"
    shutil.copytree(migrations.HERE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(migrations, "HERE", copy)
    nothing = runner.invoke(cli_app, ["db", "revision", "-m", "nothing"])
    assert nothing.exit_code == 1 and "no migration written" in nothing.output
    assert len(list((copy / "versions").glob("*.py"))) == REVISIONS


def documented_recipe() -> list[str]:
    text_ = (ROOT / "docs" / "web.md").read_text("utf-8")
    block = text_.split("# run by tests/web/store/test_migrations.py", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.splitlines()[1:] if line.strip()]


@pytest.mark.slow
def test_the_documented_recipe_writes_a_revision_from_the_models_that_upgrades(tmp_path):
    recipe = documented_recipe()
    assert recipe[0].startswith("monsterball db revision -m")
    copy = tmp_path / "migrations"
    shutil.copytree(migrations.HERE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    # In a child process, with the migrations copied and a column added to the model, so
    # neither this process's models nor the source tree change.
    program = """
import shlex, sys
from pathlib import Path
import monsterball.web.store.migrations as migrations
migrations.HERE = Path(sys.argv[1])
from sqlalchemy import Column, String
from monsterball.web.store.games import Base
Base.metadata.tables["games"].append_column(Column("note", String(50), nullable=True))
from monsterball.cli import app
for line in sys.argv[2:]:
    app(shlex.split(line)[1:], prog_name="monsterball", standalone_mode=False)
"""
    done = subprocess.run(
        [sys.executable, "-c", program, str(copy), *recipe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written = copy / "versions" / f"{NEXT}_games_a_note.py"
    assert f"wrote {written}" in done.stdout
    assert 'batch_op.add_column(sa.Column("note", sa.String(length=50), nullable=True))' in (
        written.read_text()
    )
    url = "sqlite:///monsterball.db"
    assert f"{url}: at revision {NEXT} (was empty)" in done.stdout
    assert f"{url}: at revision {NEXT}; newest known: {NEXT}" in done.stdout
    engine = create_engine(f"sqlite:///{tmp_path / 'monsterball.db'}")
    assert "note" in {c["name"] for c in inspect(engine).get_columns("games")}
    engine.dispose()


def test_0004_accounts_goes_down_and_up_again_keeping_the_games(db_url, tmp_path):
    """Revision 0004_accounts only adds tables: going down to 0003 drops them and leaves the
    games; going up again makes them anew (on SQLite and PostgreSQL)."""
    from alembic import command

    with TestClient(create_app(db_url, limits=NO_CLIENT_LIMITS)) as client:
        gid = client.post("/api/games", json={"game": "midway", "mode": "hotseat"}).json()["id"]
        made = client.post("/api/accounts", json={"name": "Mig", "password": "long enough!"})
        assert made.status_code == 201, made.text
    new_tables = {
        "accounts",
        "sessions",
        "game_seats",
        "challenges",
        "chat_messages",
        "relations",
        "reports",
    }
    engine = create_engine(db_url)
    try:
        assert new_tables <= set(inspect(engine).get_table_names())
        with migrations.migration_connection(engine) as connection:
            command.downgrade(migrations.alembic_config(connection), "0003")
        assert not new_tables & set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert revision_of(db_url) == ["0003"]
    store = Store(db_url)  # upgrades again
    try:
        assert store.get(gid) is not None
    finally:
        store.close()
    assert revision_of(db_url) == [HEAD] and schema_differences(db_url) == []


def test_0005_adds_clocks_and_ratings_and_goes_back_to_0003_keeping_the_games(db_url, tmp_path):
    """A store at 0003 with a game in it: upgraded, the game reads as before (no clock,
    unrated) and can take a clocked game beside it; downgraded to 0003, the games stay and
    the new tables and columns go."""
    from alembic import command

    engine = create_engine(db_url)
    with migrations.migration_connection(engine) as connection:
        command.upgrade(migrations.alembic_config(connection), "0003")
    assert revision_of(db_url) == ["0003"]
    # A game written into the 0003 tables (made by today's server on a scratch database).
    with TestClient(create_app(f"sqlite:///{tmp_path / 's.db'}", limits=NO_CLIENT_LIMITS)) as c:
        gid = c.post("/api/games", json={"game": "midway", "mode": "online"}).json()["id"]
        row = services_of(c.app).rooms.store.get(gid)
    old = MetaData()
    old.reflect(engine, only=["games"])
    values = {col.name: getattr(row, col.name) for col in old.tables["games"].columns}
    with engine.begin() as connection:
        connection.execute(old.tables["games"].insert().values(**values))
    engine.dispose()
    with TestClient(create_app(db_url, limits=NO_CLIENT_LIMITS)) as client:
        clocked = client.post(
            "/api/games",
            json={
                "game": "midway",
                "mode": "bot",
                "bots": {"B": "easy"},
                "clock": {"kind": "correspondence", "days": 3},
            },
        )
        assert clocked.status_code == 201, clocked.text
        store = services_of(client.app).rooms.store
        row = store.get(gid)
        assert row.clock is None and row.ending is None and not row.rated
        assert store.get(clocked.json()["id"]).clock["control"]["days"] == 3
        assert store.clocked() == [clocked.json()["id"]]
        old_game = client.get(f"/api/games/{gid}").json()
        assert old_game["clock"] is None and old_game["game"]["status"] == "playing"
    assert revision_of(db_url) == [HEAD] and schema_differences(db_url) == []
    engine = create_engine(db_url)
    with migrations.migration_connection(engine) as connection:
        command.downgrade(migrations.alembic_config(connection), "0003")
    tables = set(inspect(engine).get_table_names())
    columns = {c["name"] for c in inspect(engine).get_columns("games")}
    with engine.connect() as connection:
        games = connection.execute(text("SELECT count(*) FROM games")).scalar()
    engine.dispose()
    assert not {"ratings", "rating_history", "rated_games"} & tables
    assert not {"clock", "ending", "rated", "players"} & columns
    assert games == 2
