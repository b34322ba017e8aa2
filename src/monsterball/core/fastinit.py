"""Faster constructors for frozen, slotted dataclasses (procedures, events, actions).

A frozen dataclass's generated ``__init__`` sets each field with
``object.__setattr__(self, name, value)``: a generic attribute write per field that costs
several times a plain one, and the engine builds a procedure and an event or two for nearly
every action. :func:`fast_init` gives such a class an ``__init__`` with the same signature
that writes each slot through its descriptor's ``__set__`` instead (what the generic write
ends in anyway), about three times faster. Nothing else changes: equality, hashing, ``repr``,
pickling and immutability (``__setattr__`` still raises) are the dataclass's own.

Only the plain case is rewritten: fields all in ``__init__``, positional-or-keyword, with
no default factory, no ``__post_init__`` and a generated ``__init__``. Any other class is
left as it is (``fast_init`` returns False). :data:`ORIGINAL_INITS` keeps the replaced
constructors: tests build every rewritten class both ways and compare.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterable
from typing import Any

# class -> the dataclass-generated __init__ that fast_init replaced
ORIGINAL_INITS: dict[type, Callable[..., None]] = {}


def _plain(cls: type) -> bool:
    """A frozen, slotted dataclass whose ``__init__`` is the generated one, plain fields."""
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        return False
    params = cls.__dict__.get("__dataclass_params__")
    if params is None or not params.frozen or not params.init:
        return False
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if code is None or code.co_filename != "<string>" or hasattr(cls, "__post_init__"):
        return False  # a hand-written __init__ (or one with a post-init hook): keep it
    for f in dataclasses.fields(cls):
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            return False
    return True


def _slot(cls: type, name: str) -> Any:
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    raise AttributeError(name)  # pragma: no cover - a slotted dataclass has every field


def fast_init(cls: type) -> bool:
    """Give ``cls`` the faster ``__init__`` if it is a plain frozen slotted dataclass."""
    if cls in ORIGINAL_INITS:
        return True
    if not _plain(cls):
        return False
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {}
    params, body = ["self"], []
    for i, f in enumerate(fields):
        namespace[f"_set{i}"] = _slot(cls, f.name).__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        body.append(f"    _set{i}(self, {f.name})\n")
    source = f"def __init__({', '.join(params)}):\n" + ("".join(body) or "    pass\n")
    exec(source, namespace)  # the way dataclasses builds its own __init__
    init = namespace["__init__"]
    original = cls.__dict__["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = original.__doc__
    init.__annotations__ = dict(original.__annotations__)
    ORIGINAL_INITS[cls] = original
    cls.__init__ = init  # type: ignore[misc]
    return True


def fast_inits(classes: Iterable[type]) -> int:
    """:func:`fast_init` each class; how many were rewritten."""
    return sum(fast_init(cls) for cls in classes)


def module_dataclasses(*module_names: str) -> list[type]:
    """The classes defined in the named (imported) modules, in definition order: the
    candidates a game hands to :func:`fast_inits`."""
    out: list[type] = []
    for name in module_names:
        module = sys.modules[name]
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == name and value not in out:
                out.append(value)
    return out
