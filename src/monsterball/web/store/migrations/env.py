"""Alembic's environment: the model's metadata, and the connection ``alembic_config`` passes
(or a new one to its URL)."""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import create_engine

import monsterball.web.store.people  # noqa: F401  (its tables are on Base too)
from monsterball.web.store.games import Base

config = context.config


def _skip_empty(context_: Any, revision: Any, directives: list[Any]) -> None:
    # `monsterball db revision` writes nothing when the model has not changed.
    if config.attributes.get("skip_empty") and directives[0].upgrade_ops.is_empty():
        directives[:] = []


def _run(connection: Any) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite alters most of a table by copying it: autogenerate writes batch operations,
        # which do that on SQLite and plain ALTERs elsewhere.
        render_as_batch=connection.dialect.name == "sqlite",
        process_revision_directives=_skip_empty,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported: run them on a database")
connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    try:
        with engine.begin() as new_connection:
            _run(new_connection)
    finally:
        engine.dispose()
