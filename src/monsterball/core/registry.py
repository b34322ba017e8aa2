"""The registry of games by id and alias."""

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
    _load_builtin_games()
    key = _normalise(name)
    if key not in _NAMES:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGameError(f"unknown game '{name}'; known games: {known}")
    return _GAMES[_NAMES[key]]


def all_games() -> list[GameSpec]:
    _load_builtin_games()
    return [_GAMES[k] for k in sorted(_GAMES)]


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def _load_builtin_games() -> None:
    # Importing the games package registers every built-in game exactly once.
    import monsterball.games  # noqa: F401
