"""``admin``: moderation of the web app's accounts and chat (docs/web.md, "Chat and
moderation"), run on the server's database."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from monsterball.cli.common import DbOption, app, fail
from monsterball.settings import SETTINGS

if TYPE_CHECKING:
    from monsterball.web.store.people import People

admin_app = typer.Typer(
    help="Moderate the web app: lock accounts, delete chat messages, read reports.",
    no_args_is_help=True,
)
app.add_typer(admin_app, name="admin")


def _people(db: str) -> People:
    from sqlalchemy.engine import make_url

    from monsterball.web.store.games import SchemaError, Store
    from monsterball.web.store.people import People

    try:
        url = make_url(db)
    except Exception as exc:
        fail(f"not a database URL '{db}': {exc}")
    path = url.database if url.get_backend_name() == "sqlite" else None
    if path and path != ":memory:" and not Path(path).exists():  # do not create it
        fail(f"no such SQLite database: {path}")
    try:
        return People(Store(db))
    except SchemaError as exc:
        fail(str(exc))
    except Exception as exc:  # an unreachable server, a refused login: one line
        fail(f"cannot open the game store '{db}': {exc}")


def _lock(name: str, db: str, locked: bool) -> None:
    people = _people(db)
    try:
        account = people.set_locked(name, locked)
    finally:
        people.store.close()
    if account is None:
        fail(f"no account '{name}'")
    if locked:
        typer.echo(f"locked {account.name}: logged out everywhere, open challenges withdrawn")
    else:
        typer.echo(f"unlocked {account.name}: it may log in again")


@admin_app.command("lock-account")
def lock_account(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    db: DbOption = SETTINGS.db_url,
) -> None:
    """Lock an account: its sessions end at once and it cannot log in."""
    _lock(name, db, True)


@admin_app.command("unlock-account")
def unlock_account(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    db: DbOption = SETTINGS.db_url,
) -> None:
    """Let a locked account log in again."""
    _lock(name, db, False)


@admin_app.command("delete-message")
def delete_message(
    message: Annotated[int, typer.Argument(help="The message's number (see 'admin reports').")],
    db: DbOption = SETTINGS.db_url,
) -> None:
    """Delete a chat message: nobody is shown it again (its reports are kept)."""
    people = _people(db)
    try:
        done = people.delete_message(message)
    finally:
        people.store.close()
    if not done:
        fail(f"no message {message}")
    typer.echo(f"deleted message {message}")


@admin_app.command()
def reports(db: DbOption = SETTINGS.db_url) -> None:
    """List the reported chat messages, oldest report first."""
    people = _people(db)
    try:
        found = people.reports()
        names = people.names({r.reporter_id for r, _, _ in found if r.reporter_id is not None})
    finally:
        people.store.close()
    if not found:
        typer.echo("no reports")
        return
    for report, message, count in found:
        where = f"game {message.game_id}, {message.channel}" if message.game_id else "lobby"
        by = names.get(report.reporter_id, "?") if report.reporter_id else "anonymous"
        state = " [deleted]" if message.deleted else ""
        text = message.text.replace("\n", " / ")
        typer.echo(
            f"report {report.id}: message {message.id}{state} ({where}) by {message.author}, "
            f"reported by {by} ({count} report{'s' if count != 1 else ''}): {text}"
        )
