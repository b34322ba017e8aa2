"""State deltas: what changed between two state messages, and how a client applies it.

A socket that asks for them (``/ws/ID?deltas=1``, docs/web.md) gets a full state message on
connect and after any gap, and otherwise ``{"type": "delta", "from": P0, "ply": P1, "ops":
[...]}``: the changes that turn the state message it holds (``game.ply == P0``) into the
next one. Most of a message stays the same from one move to the next (the chairs, the field's
shape, 39 of the 40 log entries), so a delta is a few hundred bytes where the message is
several kB. Each op is a JSON array, applied in order:

- ``[path, value]``: set the value at ``path`` (keys and list indexes from the message's root);
- ``[path, drop, items]``: the list at ``path`` loses its first ``drop`` entries and gets
  ``items`` at its end (the log sliding on).

``web/static/delta.js`` is the browser's ``apply``; both are tested against each other.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

import orjson

Path = list[str | int]
Op = list[Any]


def dumps(message: Any) -> str:
    """JSON text as Starlette's ``send_json`` writes it (compact, UTF-8 kept), made by orjson
    (about 5x faster on state messages), or by the standard encoder for what orjson refuses
    (integers past 64 bits)."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def diff(
    old: dict[str, Any],
    new: dict[str, Any],
    memo: dict[tuple[str, int, int], list[Op]] | None = None,
) -> list[Op]:
    """The ops that turn ``old`` into ``new``. ``memo``: the ops of each field already
    diffed, by the two values' ids (messages to several chairs that share a field's old and
    new value, a board several seats see alike, diff it once); it must not outlive them."""
    if memo is None or old.keys() != new.keys():
        ops: list[Op] = []
        _diff(old, new, [], ops)
        return ops
    ops = []
    for key, value in new.items():
        before = old[key]
        if _same(before, value):
            continue
        if type(value) is dict or type(value) is list:
            mark = (key, id(before), id(value))
            part = memo.get(mark)
            if part is None:
                part = memo[mark] = []
                _diff(before, value, [key], part)
            ops.extend(part)
        else:
            _diff(before, value, [key], ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    # Equal as JSON: 1 == True and 1 == 1.0 in Python, not in JSON text. (Inside containers
    # the comparisons are Python's, in C: a value never changes only between 1 and True.)
    return a is b or (a == b and type(a) is type(b))


def _diff(old: Any, new: Any, path: Path, ops: list[Op]) -> None:
    if type(old) is dict and type(new) is dict and old.keys() == new.keys():
        for key, value in new.items():
            before = old[key]
            if before is not value and (before != value or type(before) is not type(value)):
                _diff(before, value, [*path, key], ops)
        return
    if type(old) is list and type(new) is list and path:
        drop = _slid(old, new)
        if drop is not None:
            ops.append([path, drop, new[len(old) - drop :]])
            return
        if len(old) == len(new):
            changed = [i for i in range(len(new)) if old[i] != new[i]]
            if 2 * len(changed) <= len(new):  # else the whole list is shorter
                for i in changed:
                    _diff(old[i], new[i], [*path, i], ops)
                return
    if not path:
        raise ValueError("a delta changes a JSON object at its root")
    ops.append([path, new])


def _slid(old: list[Any], new: list[Any]) -> int | None:
    """``drop`` when ``new`` is ``old`` without its first ``drop`` entries plus new ones at the
    end (at least one entry kept, and not the same length unmoved); else None."""
    if not old or not new:
        return None
    try:
        drop = old.index(new[0])
    except ValueError:
        return None
    kept = len(old) - drop
    if len(new) < kept or (drop == 0 and len(new) == len(old)):
        return None
    return drop if old[drop:] == new[:kept] else None


def apply(message: dict[str, Any], ops: Sequence[Op], *, in_place: bool = False) -> dict[str, Any]:
    """``message`` with ``ops`` applied: a new message, or (``in_place``: for a client that
    keeps only the latest) ``message`` itself changed, sharing the ops' values."""
    result = message if in_place else copy.deepcopy(message)
    for op in ops:
        path = op[0]
        if not isinstance(path, list) or not path or len(op) not in (2, 3):
            raise ValueError(f"not a delta op: {op!r}")
        parent: Any = result
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        value = op[-1] if in_place else copy.deepcopy(op[-1])
        if len(op) == 2:
            parent[last] = value
        else:
            parent[last] = parent[last][op[1] :] + value
    return result
