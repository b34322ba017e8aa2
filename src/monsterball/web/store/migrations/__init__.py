"""Schema migrations of the game store, with alembic.

The scripts ship inside the package (``versions/``) and alembic is configured here in code, so
an installed wheel migrates its database without an ``alembic.ini``. ``Store`` calls
``migrate`` on start; ``monsterball db`` (cli/db.py) runs the same steps by hand and writes new
revisions from the model's changes.

A database made before migrations existed has no ``alembic_version`` table: its columns say
which revision it is at (``LEGACY``), it is stamped there, then upgraded. A database at a
revision this code does not know was migrated by a newer monsterball and is refused.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

HERE = Path(__file__).resolve().parent

# Pre-alembic databases: the revision whose schema a database has, by the columns ``games``
# has beyond the first revision's (the old code added all three in one transaction).
ADDED_IN_0002 = frozenset({"seed_text", "seeded", "automatic"})
LEGACY = {frozenset(): "0001", ADDED_IN_0002: "0002"}

# Servers starting at once on one PostgreSQL migrate one after the other (any constant key
# that no other program on the database uses: b"monsterb").
_PG_LOCK_KEY = 0x6D6F6E7374657262


# alembic's ``op`` and ``context`` are one per process: stores opened at once by threads of
# one process migrate one at a time.
_IN_PROCESS = threading.Lock()


class SchemaError(Exception):
    """The database's schema is not one this code can use or migrate (one-line message)."""


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """Alembic's configuration, in code. ``connection``: run on it (the caller commits);
    otherwise env.py connects to ``url``."""
    config = Config()
    config.set_main_option("script_location", str(HERE))
    # New revisions are numbered (cli/db.py picks the next number): files sort in order.
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def script_directory() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


@contextlib.contextmanager
def migration_connection(engine: Engine) -> Iterator[Connection]:
    """One connection in one transaction, committed at the end; on PostgreSQL it holds a lock
    that other servers migrating the same database wait for (DDL is transactional there, so a
    failed migration leaves the schema as it was)."""
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
        yield connection
        connection.commit()


def current_revisions(connection: Connection) -> tuple[str, ...]:
    return tuple(MigrationContext.configure(connection).get_current_heads())


def check_known(connection: Connection, script: ScriptDirectory) -> tuple[str, ...]:
    """The database's revisions; SchemaError if one is not in ``script`` (a newer monsterball
    migrated this database: using it could lose what the newer schema holds)."""
    current = current_revisions(connection)
    for revision in current:
        try:
            known = script.get_revision(revision) is not None
        except CommandError:
            known = False
        if not known:
            heads = ", ".join(script.get_heads())
            raise SchemaError(
                f"the database's schema is at revision {revision}, which this monsterball does "
                f"not know (it knows up to {heads}): it was migrated by a newer version; "
                "run that version or a newer one"
            )
    return current


def legacy_revision(connection: Connection) -> str | None:
    """The revision of a database made before migrations (None: no tables, an empty database);
    SchemaError if its tables match no revision."""
    tables = set(inspect(connection).get_table_names())
    if not tables & {"games", "moves"}:
        return None
    if not {"games", "moves"} <= tables:
        raise SchemaError(
            "the database has only one of the tables 'games' and 'moves' and no alembic_version: "
            "not a monsterball store this code can migrate"
        )
    columns = {c["name"] for c in inspect(connection).get_columns("games")}
    added = frozenset(columns & ADDED_IN_0002)
    if added not in LEGACY:
        missing = ", ".join(sorted(ADDED_IN_0002 - added))
        raise SchemaError(
            f"the table 'games' has some of the columns of revision 0002 but not {missing}: "
            "a schema this code does not recognise"
        )
    return LEGACY[added]


def migrate(engine: Engine) -> tuple[str, ...]:
    """Bring the database to the newest revision (stamping one made before migrations first);
    return the revisions it was at (empty: a new database). SchemaError if it is newer than
    this code or not recognised."""
    with _IN_PROCESS, migration_connection(engine) as connection:
        config = alembic_config(connection)
        script = ScriptDirectory.from_config(config)
        before = check_known(connection, script)
        if not before:
            legacy = legacy_revision(connection)
            if legacy is not None:
                command.stamp(config, legacy)
                before = (legacy,)
        if set(before) != set(script.get_heads()):
            command.upgrade(config, "heads")
        return before
