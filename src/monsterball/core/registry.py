"""The registry of games by id and alias.

Core never imports a game: the built-in games are registered by :mod:`monsterball.games`
(an explicit list), which the registry loads by name on the first lookup, so
``get_game("huck-monster")`` works whatever was imported before it. A plug-in game calls
:func:`register` (and a test that registers one, :func:`unregister` when it is done).

Imports: core only (the built-in games are loaded by module name, at run time).
"""

from __future__ import annotations

import importlib

from monsterball.core.errors import UnknownGameError
from monsterball.core.game import GameSpec

# The package that registers the built-in games when it is imported.
BUILTIN_GAMES = "monsterball.games"

_GAMES: dict[str, GameSpec] = {}
_NAMES: dict[str, str] = {}
_loaded = False


def register(spec: GameSpec) -> GameSpec:
    for name in (spec.id, *spec.aliases):
        key = _normalise(name)
        owner = _NAMES.get(key)
        if owner is not None and owner != spec.id:
            raise ValueError(f"name '{name}' already belongs to game '{owner}'")
        _NAMES[key] = spec.id
    _GAMES[spec.id] = spec
    return spec


def unregister(name: str) -> None:
    """Forget the game with this id or alias (a test's plug-in game, when the test ends)."""
    spec = get_game(name)
    for key in [k for k, owner in _NAMES.items() if owner == spec.id]:
        del _NAMES[key]
    del _GAMES[spec.id]


def get_game(name: str) -> GameSpec:
    """The game with this id or alias (case, ``_`` and spaces do not matter)."""
    _load_builtins()
    key = _normalise(name)
    if key not in _NAMES:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGameError(f"unknown game '{name}'; known games: {known}")
    return _GAMES[_NAMES[key]]


def all_games() -> list[GameSpec]:
    """Every registered game, by id."""
    _load_builtins()
    return [_GAMES[k] for k in sorted(_GAMES)]


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True  # first, so a lookup while the games register does not recurse
        importlib.import_module(BUILTIN_GAMES)


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")
