"""The defaults live in one place (monsterball.settings): every command's options, the web
app, the store and the bots' search cap read them from there, so they cannot drift apart."""

from __future__ import annotations

import inspect
from dataclasses import fields
from typing import Any

import typer.main

from monsterball.bots.registry import hard_bot
from monsterball.cli import app
from monsterball.settings import SETTINGS, Limits
from monsterball.web.app import create_app
from monsterball.web.live.bot_pool import OverBudget, check_level
from monsterball.web.store.games import Store


def commands(group: Any, path: str = "") -> dict[str, Any]:
    """Every command by its words (``db current``), from typer's click tree."""
    found: dict[str, Any] = {}
    for name, command in group.commands.items():
        found[f"{path}{name}"] = command
        if hasattr(command, "commands"):  # a group (typer's own click types)
            found |= commands(command, f"{path}{name} ")
    return found


def defaults(command: Any) -> dict[str, object]:
    return {p.name: p.default for p in command.params if p.name is not None}


CLI = commands(typer.main.get_command(app))


def test_serve_defaults_are_the_settings() -> None:
    serve = defaults(CLI["serve"])
    assert serve["host"] == SETTINGS.host
    assert serve["port"] == SETTINGS.port
    assert serve["db"] == SETTINGS.db_url
    assert serve["log_level"] == SETTINGS.log_level
    limits = {f.name for f in fields(Limits)}
    shown = sorted(limits & set(serve))
    # Every limit serve offers as an option (bot_workers is computed per worker when left out).
    assert shown == [
        "address_moves_per_second",
        "bot_workers",
        "games_per_minute",
        "idle_seconds",
        "lease_seconds",
        "max_bot_seconds",
        "moves_per_second",
        "nonce_seconds",
        "reads_per_second",
        "rooms_per_address",
        "sockets_per_address",
    ]
    for name in shown:
        expected = None if name == "bot_workers" else getattr(SETTINGS.limits, name)
        assert serve[name] == expected, name
    assert f"{SETTINGS.iterations_per_second:,} per second" in next(
        p.help or "" for p in CLI["serve"].params if p.name == "max_bot_seconds"
    )


def test_every_db_option_defaults_to_the_settings() -> None:
    # (``match --db`` is another thing, the SQLite file of bot-match results, and
    # ``db revision --db`` compares with a scratch database unless told one.)
    with_db = {
        name: defaults(c)["db"]
        for name, c in CLI.items()
        if "db" in defaults(c) and name not in ("match", "db revision")
    }
    # serve, db current/upgrade/..., ratings ..., admin ...: each says the same store.
    assert {"serve", "db current", "admin reports"} <= set(with_db)
    assert set(with_db.values()) == {SETTINGS.db_url}, with_db


def test_the_web_app_and_store_default_to_the_settings() -> None:
    assert inspect.signature(create_app).parameters["db_url"].default == SETTINGS.db_url
    assert inspect.signature(Store).parameters["url"].default == SETTINGS.db_url
    assert SETTINGS.db_url == "sqlite:///monsterball.db"  # what README and docs/web.md say


def test_the_search_cap_is_the_settings_one() -> None:
    """The hard bot's iterations per second of budget, and the server's refusal of an
    iteration budget past its seconds: the same figure."""
    assert hard_bot(1, seconds=0.5).iterations == SETTINGS.iterations_per_second // 2
    most = SETTINGS.iterations_per_second * 2
    check_level(f"mcts:{most}", max_seconds=2.0)
    try:
        check_level(f"mcts:{most + 1}", max_seconds=2.0)
    except OverBudget as exc:
        assert f"at most {most} iterations" in str(exc)
    else:
        raise AssertionError("an iteration budget over the cap was accepted")
