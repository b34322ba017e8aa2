"""``db``: the web app's game store schema (its alembic migrations: web/store/migrations)."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from monsterball.cli.common import DbOption, app, fail
from monsterball.settings import SETTINGS

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

db_app = typer.Typer(
    help="The web app's game store: its schema revision, upgrades, new migrations.",
    no_args_is_help=True,
)
app.add_typer(db_app, name="db")


def _engine(url: str) -> Engine:
    from sqlalchemy import create_engine

    try:
        return create_engine(url)
    except Exception as exc:  # a malformed URL or a missing driver: say which
        fail(f"cannot open the game store '{url}': {exc}")


@db_app.command()
def current(db: DbOption = SETTINGS.db_url) -> None:
    """Show the store's schema revision and the newest one this monsterball knows."""
    from monsterball.web.store.migrations import (
        SchemaError,
        check_known,
        legacy_revision,
        migration_connection,
        script_directory,
    )

    script = script_directory()
    engine = _engine(db)
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if path and path != ":memory:" and not Path(path).exists():  # do not create it
        fail(f"no such SQLite database: {path}")
    try:
        with migration_connection(engine) as connection:
            revisions = check_known(connection, script)
            legacy = None if revisions else legacy_revision(connection)
    except SchemaError as exc:
        fail(str(exc))
    except Exception as exc:  # an unreachable server, a refused login: one line
        fail(f"cannot read the game store '{db}': {exc}")
    finally:
        engine.dispose()
    if revisions:
        at = ", ".join(revisions)
    else:
        at = "none (empty)" if legacy is None else f"{legacy} (made before migrations)"
    typer.echo(f"{db}: at revision {at}; newest known: {', '.join(script.get_heads())}")


@db_app.command()
def upgrade(db: DbOption = SETTINGS.db_url) -> None:
    """Upgrade the store to the newest revision ('serve' does this on start)."""
    from monsterball.web.store.migrations import SchemaError, migrate, script_directory

    engine = _engine(db)
    try:
        before = migrate(engine)
    except SchemaError as exc:
        fail(str(exc))
    except Exception as exc:
        fail(f"cannot upgrade the game store '{db}': {exc}")
    finally:
        engine.dispose()
    heads = ", ".join(script_directory().get_heads())
    typer.echo(f"{db}: at revision {heads} (was {', '.join(before) or 'empty'})")


@db_app.command()
def revision(
    message: Annotated[str, typer.Option("--message", "-m", help="What the migration does.")],
    db: Annotated[
        str | None,
        typer.Option(
            help="Compare the models with this database (at the newest revision); default: a "
            "scratch SQLite database upgraded to the newest revision."
        ),
    ] = None,
) -> None:
    """Write a migration from the models' changes (web/store/games.py).

    It goes into the package's web/store/migrations/versions (in a source checkout): review it, test
    it, commit it."""
    from alembic import command

    from monsterball.web.store.migrations import (
        SchemaError,
        alembic_config,
        current_revisions,
        migrate,
        migration_connection,
        script_directory,
    )

    script = script_directory()
    heads = set(script.get_heads())
    number = f"{sum(1 for _ in script.walk_revisions()) + 1:04d}"
    with tempfile.TemporaryDirectory(prefix="monsterball-db-") as scratch:
        engine = _engine(db or f"sqlite:///{Path(scratch) / 'newest.db'}")
        try:
            if db is None:
                migrate(engine)
            with migration_connection(engine) as connection:
                if set(current_revisions(connection)) != heads:
                    fail(f"the game store '{db}' is not at the newest revision: 'db upgrade' it")
                config = alembic_config(connection)
                config.attributes["skip_empty"] = True
                if importlib.util.find_spec("ruff") is not None:  # the project's style
                    config.set_section_option("post_write_hooks", "hooks", "ruff")
                    config.set_section_option("post_write_hooks", "ruff.type", "exec")
                    config.set_section_option("post_write_hooks", "ruff.executable", sys.executable)
                    config.set_section_option(
                        "post_write_hooks",
                        "ruff.options",
                        "-m ruff format REVISION_SCRIPT_FILENAME",
                    )
                written = command.revision(config, message, autogenerate=True, rev_id=number)
        except SchemaError as exc:
            fail(str(exc))
        finally:
            engine.dispose()
    scripts = written if isinstance(written, list) else [written]
    if not any(scripts):
        fail("the models match the newest revision: no migration written", code=1)
    for done in scripts:
        if done is not None:
            typer.echo(f"wrote {done.path}: review and test it, then commit it")
