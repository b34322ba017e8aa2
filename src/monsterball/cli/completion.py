"""Tab completion of game names, presets and bots, without loading the games: completing a
word must be instant (scripts/bench_startup.py), and importing the three engines is not.

The names are data beside the games (``games/names.json``); tests/cli/test_startup.py fails
when they differ from the registry's, so a new game, alias or preset cannot be forgotten.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

# The built-in games' names, read as data (games/names.json, beside the games) so that no
# engine is imported; a plug-in game is completed once registered in this process.
NAMES_FILE = Path(__file__).resolve().parents[1] / "games" / "names.json"


def _names() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    data = json.loads(NAMES_FILE.read_text(encoding="utf-8"))
    return {g: (tuple(v["aliases"]), tuple(v["presets"])) for g, v in data.items()}


GAMES = _names()

BOT_WORDS = ("heuristic", "random", "mcts:200", "mcts:0.5s", "easy", "medium", "hard", "none")


def game_id(name: str) -> str | None:
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    for game, (aliases, _) in GAMES.items():
        if key == game or key in aliases:
            return game
    return None


def complete_game(incomplete: str) -> list[str]:
    names = [name for game, (aliases, _) in GAMES.items() for name in (game, *aliases)]
    return [name for name in names if name.startswith(incomplete.lower())]


def complete_preset(ctx: typer.Context, incomplete: str) -> list[str]:
    """The presets of the game already on the line (every game's when none is)."""
    # While completing, the game may still be among the unparsed words (ctx.args).
    typed = (ctx.params or {}).get("game") or next(iter(ctx.args or []), "")
    game = game_id(str(typed))
    chosen = [game] if game else list(GAMES)
    presets = dict.fromkeys(p for g in chosen for p in GAMES[g][1])
    return [p for p in presets if p.startswith(incomplete.lower())]


def complete_bot(incomplete: str) -> list[str]:
    return [word for word in BOT_WORDS if word.startswith(incomplete.lower())]
