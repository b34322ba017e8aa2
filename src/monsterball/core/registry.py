"""The registry of games by id and alias.

Core never imports a game: the built-in games are registered by :mod:`monsterball.games`
(an explicit list), which the layers above import; a plug-in game calls :func:`register`.

Imports: core only.
"""

from __future__ import annotations

from monsterball.core.errors import UnknownGameError
from monsterball.core.game import GameSpec

_GAMES: dict[str, GameSpec] = {}
_NAMES: dict[str, str] = {}


def register(spec: GameSpec) -> GameSpec:
    for name in (spec.id, *spec.aliases):
        key = _normalise(name)
        owner = _NAMES.get(key)
        if owner is not None and owner != spec.id:
            raise ValueError(f"name '{name}' already belongs to game '{owner}'")
        _NAMES[key] = spec.id
    _GAMES[spec.id] = spec
    return spec


def get_game(name: str) -> GameSpec:
    key = _normalise(name)
    if key not in _NAMES:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGameError(f"unknown game '{name}'; known games: {known}")
    return _GAMES[_NAMES[key]]


def all_games() -> list[GameSpec]:
    return [_GAMES[k] for k in sorted(_GAMES)]


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")
