"""Steps by name, so a game's rule modules import one way.

The rules loop: a point ends by starting the next point's first step, an Up Call ends in team
moves that lead to the next Up Call. When each chapter of a rulebook is its own module, a step
that hands back to a step of a chapter above it names that step through the game's
:class:`Flow`, which the game's procedures package fills (``wire``) once every chapter module
is loaded. Steps of a chapter below are imported directly.

Imports: core only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from monsterball.core.procedures import Procedure

S = TypeVar("S")


class Flow(Generic[S]):
    """A game's step kinds by class name (the names positions store on the stack)."""

    __slots__ = ("_kinds",)

    def __init__(self) -> None:
        self._kinds: dict[str, type[Procedure[Any]]] = {}

    def wire(self, kinds: Iterable[type[Procedure[Any]]]) -> None:
        self._kinds.update((kind.__name__, kind) for kind in kinds)

    def step(self, name: str, *fields: Any) -> Procedure[Any]:
        """A new step of kind ``name`` with ``fields`` in declaration order."""
        return self._kinds[name](*fields)

    def is_kind(self, step: Procedure[Any] | None, name: str) -> bool:
        """Whether ``step`` is a step of kind ``name`` (or a subclass of it)."""
        return isinstance(step, self._kinds[name])
