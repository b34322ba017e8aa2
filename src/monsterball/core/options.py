"""Frozen, validated, documented game options.

Each game subclasses :class:`GameOptions` as a ``@dataclass(frozen=True, kw_only=True)`` and
declares every field with :func:`option`, which records the documentation, the allowed values
and, where the option settles a gap in the rulebook, the ruling id behind it. Options are
validated on construction, so an options object that exists is a legal one.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self, TypeVar

from monsterball.core.errors import OptionsError

T = TypeVar("T")

# Option values typed on a command line or a web form: ASCII only, so that "٣" or "1_0"
# (which Python's int() accepts) are refused rather than read as 3 or 10.
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_MAX_DIGITS = 100
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
# Control characters, line/paragraph separators and lone surrogates: they would break a
# record line or a terminal, and no option needs them.
_BAD_CATEGORIES = frozenset(("Cc", "Cs", "Zl", "Zp"))


def _bad_character(text: str) -> str | None:
    if text.isprintable():  # the fast common case: no character of any refused category
        return None
    for ch in text:
        if unicodedata.category(ch) in _BAD_CATEGORIES:
            return f"U+{ord(ch):04X}"
    return None


def parse_value(key: str, kind: type[Any], raw: str) -> Any:
    """One option value from text, by the option's type; raise OptionsError on bad text."""
    raw = raw.strip()
    if kind is bool:
        low = raw.lower() if raw.isascii() else raw
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise OptionsError(f"option '{key}' must be true or false; got {raw!r}")
    if kind is int:
        if not _INTEGER.fullmatch(raw) or len(raw) > _MAX_DIGITS:
            raise OptionsError(f"option '{key}' must be an integer (ASCII digits); got {raw!r}")
        return int(raw)
    if kind is float:
        value = float(raw) if _DECIMAL.fullmatch(raw) and len(raw) <= _MAX_DIGITS else math.nan
        if not math.isfinite(value):
            raise OptionsError(f"option '{key}' must be a decimal number; got {raw!r}")
        return value
    bad = _bad_character(raw)
    if bad is not None:
        raise OptionsError(f"option '{key}' may not contain the control character {bad}")
    return raw


def option(
    default: T,
    doc: str,
    *,
    choices: Sequence[T] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    ruling: str | None = None,
) -> T:
    """Declare one option field with its documentation and constraints."""
    meta = {
        "doc": doc,
        "choices": tuple(choices) if choices is not None else None,
        "minimum": minimum,
        "maximum": maximum,
        "ruling": ruling,
    }
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True, slots=True)
class OptionInfo:
    """What `rules GAME` and `games` print for one option."""

    name: str
    default: Any
    type_name: str
    doc: str
    choices: tuple[Any, ...] | None
    minimum: int | None
    maximum: int | None
    ruling: str | None


@dataclasses.dataclass(frozen=True, kw_only=True)
class GameOptions:
    """Base of every game's options. Subclasses add fields declared with :func:`option`."""

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    PRESET_DOCS: ClassVar[Mapping[str, str]] = {}

    def __post_init__(self) -> None:
        for f in _fields(type(self)):
            value = getattr(self, f.name)
            expected: type[Any] = type(f.default)
            if expected is bool:
                ok = isinstance(value, bool)
            elif expected is int:
                ok = isinstance(value, int) and not isinstance(value, bool)
            else:
                ok = isinstance(value, expected)
            if not ok:
                raise OptionsError(f"option '{f.name}' must be {expected.__name__}, got {value!r}")
            if isinstance(value, str) and (bad := _bad_character(value)) is not None:
                raise OptionsError(f"option '{f.name}' may not contain the control character {bad}")
            if isinstance(value, float) and not math.isfinite(value):
                raise OptionsError(f"option '{f.name}' must be a finite number, got {value!r}")
            choices = f.metadata.get("choices")
            if choices is not None and value not in choices:
                allowed = ", ".join(str(c) for c in choices)
                raise OptionsError(f"option '{f.name}' must be one of {allowed}; got {value!r}")
            lo, hi = f.metadata.get("minimum"), f.metadata.get("maximum")
            if lo is not None and value < lo:
                raise OptionsError(f"option '{f.name}' must be at least {lo}; got {value!r}")
            if hi is not None and value > hi:
                raise OptionsError(f"option '{f.name}' must be at most {hi}; got {value!r}")
        self.validate()

    def validate(self) -> None:
        """Cross-field checks; subclasses override and raise OptionsError."""

    def can_draw(self) -> bool:
        """Whether a game under these options can end level by its rules: only then may
        its players agree a draw (docs/web.md, "Draw offers")."""
        return False

    # -- construction helpers -------------------------------------------------------------

    @classmethod
    def describe(cls) -> list[OptionInfo]:
        out = []
        for f in dataclasses.fields(cls):
            out.append(
                OptionInfo(
                    name=f.name,
                    default=f.default,
                    type_name=type(f.default).__name__,
                    doc=f.metadata.get("doc", ""),
                    choices=f.metadata.get("choices"),
                    minimum=f.metadata.get("minimum"),
                    maximum=f.metadata.get("maximum"),
                    ruling=f.metadata.get("ruling"),
                )
            )
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Build from a mapping of typed values (as stored in records); unknown keys fail."""
        # Every position and record carries its options: the same values are read again and
        # again, so a validated result is kept, keyed by each value with its exact type
        # (True, 1 and 1.0 are different keys). Options are frozen, so sharing one is safe.
        try:
            key: Any = (cls, *((k, type(v), v) for k, v in data.items()))
            known = _READ.get(key)
        except TypeError:  # an unhashable value (a list): not kept, refused below
            key, known = None, None
        if known is not None:
            return known  # type: ignore[return-value]
        names = {f.name for f in _fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise OptionsError(
                f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(names))}"
            )
        try:
            made = cls(**dict(data))
        except TypeError as exc:  # pragma: no cover - guarded by the name check above
            raise OptionsError(str(exc)) from exc
        if key is not None:
            if len(_READ) >= _READ_LIMIT:
                _READ.clear()
            _READ[key] = made
        return made

    @classmethod
    def from_preset(
        cls, preset: str | None = None, overrides: Mapping[str, Any] | None = None
    ) -> Self:
        values: dict[str, Any] = {}
        if preset is not None:
            if preset not in cls.PRESETS:
                known = ", ".join(sorted(cls.PRESETS)) or "(none)"
                raise OptionsError(f"unknown preset '{preset}'; known presets: {known}")
            values.update(cls.PRESETS[preset])
        values.update(overrides or {})
        return cls.from_dict(values)

    @classmethod
    def parse_assignments(cls, assignments: Sequence[str]) -> dict[str, Any]:
        """Parse CLI ``key=value`` strings into typed values using each field's default type."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        out: dict[str, Any] = {}
        for text in assignments:
            key, sep, raw = text.partition("=")
            key = key.strip().replace("-", "_")
            if not sep:
                raise OptionsError(f"option '{text}' must look like key=value")
            if key not in fields:
                raise OptionsError(f"unknown option '{key}'; known: {', '.join(sorted(fields))}")
            out[key] = parse_value(key, type(fields[key].default), raw)
        return out

    def to_dict(self) -> dict[str, Any]:
        # Written into every position: kept per options object (held, so its id stays its
        # own), and handed out as a copy. The values are str, int, float or bool: immutable.
        known = _WRITTEN.get(id(self))
        if known is None or known[0] is not self:
            if len(_WRITTEN) >= _READ_LIMIT:
                _WRITTEN.clear()
            values = {f.name: getattr(self, f.name) for f in _fields(type(self))}
            known = _WRITTEN[id(self)] = (self, values)
        return dict(known[1])

    def replace(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)


_FIELDS: dict[type[GameOptions], tuple[dataclasses.Field[Any], ...]] = {}
_READ: dict[Any, GameOptions] = {}  # from_dict's validated results (see there)
_READ_LIMIT = 256
_WRITTEN: dict[int, tuple[GameOptions, dict[str, Any]]] = {}  # to_dict's, by object


def _fields(cls: type[GameOptions]) -> tuple[dataclasses.Field[Any], ...]:
    # dataclasses.fields() builds its tuple afresh on every call; options are read and
    # written with every position.
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = dataclasses.fields(cls)
    return found
