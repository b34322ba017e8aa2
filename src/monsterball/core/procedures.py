"""The procedure stack: rules written as the rulebook's steps.

A state holds a stack of :class:`Procedure` values. Only the top one is active: it says who
acts (a seat, CHANCE, or AUTO for a step that resolves with no input), which actions are legal,
and how an action is applied. Applying returns a :class:`Transition`: the procedures that
replace the top, listed bottom to top. An empty transition finishes the step and the one
below resumes; ``(self_with_progress, sub_step)`` pauses the step while a sub-step (a
decision, a die roll, an interrupt) runs. Nothing pushes itself: every change to the stack is
a value returned to the engine loop in :class:`monsterball.core.game.GameState`.

::

    bottom                                   top (active)
    [ Match ] [ Possession ] [ UpCall ] [ InterceptBid ]
                                        ^ paused until InterceptBid returns ()

Procedures are frozen dataclasses with plain fields (ints, strings, tuples), so cloning a
state copies only the tuple of references, and positions can store the stack as JSON.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

from monsterball.core.actions import Action
from monsterball.core.errors import IllegalActionError, NotationError, PositionError
from monsterball.core.geometry import Grid

# The game's state type (a core.game.GameState; not bound here: core.game imports this module).
S = TypeVar("S")

Transition = tuple["Procedure[Any]", ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Procedure(Generic[S]):
    """One step of the rules. Subclasses are frozen dataclasses named after the rule."""

    rule: ClassVar[str] = ""

    def actor(self, state: S) -> int:
        """The seat to act, CHANCE, or AUTO."""
        raise NotImplementedError

    def legal_actions(self, state: S) -> list[Action]:
        """Decisions open to the acting seat (empty at chance and auto steps)."""
        return []

    def sample_legal(self, state: S, rng: random.Random) -> Action:
        """One legal decision drawn uniformly at random: random play and rollouts use this
        instead of listing every action. The default lists them; a procedure with long lists
        may override it with a faster draw of the same distribution."""
        legal = self.legal_actions(state)
        return legal[rng.randrange(len(legal))]

    def chance_outcomes(self, state: S) -> list[tuple[Action, Fraction]]:
        """Outcomes with exact probabilities (chance steps only)."""
        return []

    def check(self, state: S, action: Action) -> None:
        """Raise IllegalActionError with a reason if ``action`` is not legal now.

        The default is a membership test; procedures with large action sets override it with
        a direct check.
        """
        if self.actor(state) < 0 and self.actor(state) != -1:
            raise IllegalActionError(f"no action is expected during {self.describe()}")
        options = (
            [a for a, _ in self.chance_outcomes(state)]
            if self.actor(state) == -1
            else self.legal_actions(state)
        )
        if action not in options:
            raise IllegalActionError(f"'{action}' is not legal during {self.describe()}")

    def apply(self, state: S, action: Action) -> Transition:
        """Carry out a legal action; mutate the state's board; return the replacement."""
        raise NotImplementedError

    def resolve(self, state: S) -> Transition:
        """Carry out an AUTO step (no input needed)."""
        raise NotImplementedError

    def describe(self) -> str:
        """A short phrase for messages and the rendered board."""
        return type(self).__name__


def wrong_kind(step: Procedure[Any], action: Action) -> IllegalActionError:
    """The error for an action of a kind the current step never takes."""
    return IllegalActionError(f"'{action}' is not possible during {step.describe()}")


def action_cell(field: Grid, name: str) -> int:
    """The cell an action names; a well-formed name off this field is an illegal action,
    not a syntax error."""
    cell = field._by_name.get(name) if isinstance(name, str) else None  # exact: no parsing
    if cell is not None:
        return cell
    try:
        return field.parse_cell(name)
    except NotationError as exc:
        raise IllegalActionError(str(exc)) from None


def procedure_to_dict(procedure: Procedure[Any]) -> dict[str, Any]:
    data: dict[str, Any] = {"step": type(procedure).__name__}
    for name in _field_names(type(procedure)):
        value = getattr(procedure, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def procedure_from_dict(
    kinds: Mapping[str, type[Procedure[Any]]], data: Mapping[str, Any]
) -> Procedure[Any]:
    if not isinstance(data, Mapping) or "step" not in data:
        raise PositionError(f"a stack entry must be an object with a 'step' key, got {data!r}")
    name = data["step"]
    if not isinstance(name, str):
        raise PositionError(f"a stack entry's 'step' must be a step name, got {name!r}")
    kind = kinds.get(name)
    if kind is None:
        raise PositionError(f"unknown step '{name}'; known: {', '.join(sorted(kinds))}")
    values: dict[str, Any] = {}
    hints = _field_types(kind)
    names = _field_names(kind)
    for field_name in names:
        if field_name not in data:
            raise PositionError(f"step '{name}' is missing field '{field_name}'")
        value = data[field_name]
        value = tuple(value) if isinstance(value, list) else value
        if not _matches(value, hints[field_name]):
            raise PositionError(f"step '{name}' field '{field_name}' has the wrong type: {value!r}")
        values[field_name] = value
    extra = set(data) - set(names) - {"step"}
    if extra:
        raise PositionError(f"step '{name}' has unknown field(s) {', '.join(sorted(extra))}")
    try:
        return kind(**values)
    except (TypeError, ValueError) as exc:
        raise PositionError(f"step '{name}': {exc}") from exc


_FIELD_TYPES: dict[str, dict[str, Any]] = {}
_INT = {int}
_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {}


def _field_names(kind: type[Procedure[Any]]) -> tuple[str, ...]:
    # dataclasses.fields() builds its tuple afresh on every call; steps are written and
    # read with every position.
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def _field_types(kind: type[Procedure[Any]]) -> dict[str, Any]:
    # get_type_hints evaluates string annotations: slow, and the same for every load.
    key = f"{kind.__module__}.{kind.__qualname__}"
    if key not in _FIELD_TYPES:
        _FIELD_TYPES[key] = typing.get_type_hints(kind)
    return _FIELD_TYPES[key]


def _matches(value: Any, hint: Any) -> bool:
    """Whether a JSON-loaded value fits a step field's annotation (int, str, bool, tuples)."""
    origin = typing.get_origin(hint)
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is int and set(map(type, value)) <= _INT:
                return True  # plain ints (all that JSON gives), seen in C
            return all(_matches(v, args[0]) for v in value)
        if len(args) != len(value):
            return False
        return all(_matches(v, a) for v, a in zip(value, args, strict=True))
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (str, bool):
        return isinstance(value, hint)
    return True


def stack_kinds(procedures: Sequence[type[Procedure[Any]]]) -> dict[str, type[Procedure[Any]]]:
    return {p.__name__: p for p in procedures}
