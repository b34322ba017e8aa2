"""Every error the engine raises on bad input. Each carries a human-readable reason."""

from __future__ import annotations


class MonsterballError(Exception):
    """Base class of all engine errors."""


class OptionsError(MonsterballError, ValueError):
    """An option name, value or preset is unknown or out of range."""


class NotationError(MonsterballError, ValueError):
    """Text could not be parsed as an action, cell or position (a syntax problem)."""


class IllegalActionError(MonsterballError, ValueError):
    """A well-formed action that the rules do not allow in this state."""


class WrongSeatError(IllegalActionError):
    """An action submitted for a seat that is not the one to act."""


class GameOverError(IllegalActionError):
    """An action submitted after the game ended."""


class PositionError(MonsterballError, ValueError):
    """A position (set-up) is malformed or describes an impossible situation."""


class RecordError(MonsterballError, ValueError):
    """A game record is malformed, tampered with or diverges on replay.

    ``line`` is 1-based; ``field`` names the offending key, when there is one.
    """

    def __init__(self, reason: str, *, line: int | None = None, field: str | None = None):
        self.reason = reason
        self.line = line
        self.field = field
        where = []
        if line is not None:
            where.append(f"line {line}")
        if field is not None:
            where.append(f"field '{field}'")
        prefix = f"{', '.join(where)}: " if where else ""
        super().__init__(prefix + reason)


class UnknownGameError(MonsterballError, KeyError):
    """No registered game has this name or alias."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"
