"""Actions, chance outcomes and events: frozen values with a text notation.

Every move a coach makes and every die that falls is an :class:`Action`. Each game defines its
action types as frozen dataclasses with a ``notation()`` that its parser reads back, and an
:class:`ActionTable` that numbers every action the game can ever see (for learning
environments and compact storage). Chance outcomes use :class:`Roll`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from monsterball.core.errors import NotationError


class Action:
    """Base class of every action. Subclasses are ``@dataclass(frozen=True, slots=True)``."""

    __slots__ = ()

    def notation(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def public_text(self) -> str:
        """What the other seats may be told of this action: all of it, unless the game hides
        part of it (a secret choice overrides this)."""
        return self.notation()

    def __str__(self) -> str:
        return self.notation()


@dataclasses.dataclass(frozen=True, slots=True)
class Roll(Action):
    """The outcome of a chance event, such as ``d6=4``, ``coins=HT`` or ``toss=A``.

    ``label`` names the kind of event and ``value`` its outcome; both are plain tokens
    without ``=`` or spaces.
    """

    label: str
    value: str

    def notation(self) -> str:
        return f"{self.label}={self.value}"


def parse_roll(text: str) -> Roll:
    label, sep, value = text.strip().partition("=")
    if not sep or not label or not value or " " in label or " " in value:
        raise NotationError(f"'{text}' is not a chance outcome (expected label=value, e.g. d6=4)")
    return Roll(label, value)


class ActionTable:
    """A stable numbering of every action a game with given options can use.

    The order is the order of ``actions`` and must be built deterministically by the game,
    so the same game and options always give the same numbers.
    """

    __slots__ = ("_by_action", "_by_notation", "actions")

    def __init__(self, actions: Iterable[Action]):
        self.actions: tuple[Action, ...] = tuple(actions)
        self._by_action: dict[Action, int] = {}
        self._by_notation: dict[str, Action] = {}
        for index, action in enumerate(self.actions):
            if action in self._by_action:
                raise ValueError(f"duplicate action in table: {action}")
            self._by_action[action] = index
            self._by_notation[action.notation()] = action

    def __len__(self) -> int:
        return len(self.actions)

    def encode(self, action: Action) -> int:
        try:
            return self._by_action[action]
        except KeyError:
            raise NotationError(f"action '{action}' has no number in this game") from None

    def encoder(self) -> Callable[[Action], int]:
        """The number of an action, without :meth:`encode`'s error message (a KeyError for
        an action outside the table): for hot loops, such as a search numbering every legal
        action of a node."""
        return self._by_action.__getitem__

    def decode(self, number: int) -> Action:
        if not 0 <= number < len(self.actions):
            raise NotationError(f"action number {number} is outside 0..{len(self.actions) - 1}")
        return self.actions[number]

    def lookup(self, notation: str) -> Action | None:
        """The canonical action object for a notation, or None."""
        return self._by_notation.get(notation)

    def mask(self, legal: Sequence[Action]) -> list[bool]:
        out = [False] * len(self.actions)
        for action in legal:
            out[self._by_action[action]] = True
        return out


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Something that happened as the result of an action: feeds logs, UIs and tests.

    Subclasses add fields and override :meth:`describe` with a sentence in the rulebook's
    words.
    """

    def describe(self) -> str:
        return type(self).__name__

    def in_brief(self) -> str:
        """What a die gave, in a few words, for the odds a page lists beside a decision
        ('ball carrier tackled'): events that end a die roll override it."""
        return self.describe().rstrip(".")

    def headline(self) -> str:
        """A word or two a UI shows over the board for this event ("Point!", "Turnover"), or
        "" for the many events that need none."""
        return ""

    def is_score(self) -> bool:
        """Whether this event scores in play, so that a UI holds the position it was scored
        from before the next line-up (a touchdown, not the extra point kicked after it)."""
        return False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": type(self).__name__}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        data["text"] = self.describe()
        return data
