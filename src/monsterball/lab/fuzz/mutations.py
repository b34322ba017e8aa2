"""The mutation fuzzers: each takes a state reached by random play and feeds a broken record,
position, notation or option text to the game's readers, which must refuse it with the
game's own error (or give something that plays without any other exception)."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from monsterball.core.dice import SeededSampler
from monsterball.core.errors import (
    IllegalActionError,
    NotationError,
    OptionsError,
    PositionError,
    RecordError,
)
from monsterball.core.game import GameSpec, GameState
from monsterball.core.record import Recorder, read_record, replay
from monsterball.lab.fuzz.checks import Found, check_chance, pick_decision

JUNK: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.0,
    1e308,
    10**30,
    "",
    "x",
    "\x85",
    "\u2028",
    "²",
    "٣",
    "A1",
    "a1",
    [],
    [1],
    {},
    {"step": "x"},
    "\ud800",
]
CHARS = "0123456789abcdefghABCDXYZ -=,;:./\n\r\t\x00\x85\u2028²٣１ⅷ'\"{}[]"


def mutate_text(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        where = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(where, len(chars) - 1)]
        elif op == 1:
            chars.insert(where, rng.choice(CHARS))
        elif op == 2 and chars:
            chars[min(where, len(chars) - 1)] = rng.choice(CHARS)
        else:
            chars[where:where] = list(rng.choice(["1" * 40, " ", "=", "-", "²", "99"]))
    return "".join(chars)


def paths(value: Any) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, depth first (an explicit stack: mutated data may nest
    deeper than Python's recursion limit)."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        item, prefix = stack.pop()
        yield prefix
        if isinstance(item, dict):
            children = list(item.items())
        elif isinstance(item, list):
            children = list(enumerate(item))
        else:
            continue
        stack.extend((child, (*prefix, key)) for key, child in reversed(children))


def junk(rng: random.Random) -> Any:
    """A fresh copy of one JUNK value: inserting the shared list or dict itself let a later
    append grow it, and the growth leaked into every later case (and could nest it in
    itself)."""
    return json.loads(json.dumps(rng.choice(JUNK)))  # copied as the module copies JSON


def mutate_json(rng: random.Random, data: Any) -> Any:
    data = json.loads(json.dumps(data))
    for _ in range(rng.randint(1, 2)):
        where = rng.choice(list(paths(data)))
        if not where:
            continue
        parent = data
        for step in where[:-1]:
            parent = parent[step]
        key, old = where[-1], parent[where[-1]]
        op = rng.randrange(5)
        if op == 0:
            parent[key] = junk(rng)
        elif op == 1 and isinstance(old, int) and not isinstance(old, bool):
            parent[key] = old + rng.choice([-1, 1, -100, 100, 1000])
        elif op == 2 and isinstance(old, str):
            parent[key] = mutate_text(rng, old)
        elif op == 3 and isinstance(parent, dict):
            del parent[key]
        elif op == 4 and isinstance(parent, list):
            parent.append(json.loads(json.dumps(old)))
        else:
            parent[key] = junk(rng)
    return data


def sample_states(spec: GameSpec, preset: str, seed: int, count: int) -> list[GameState]:
    """States along the first plies (a random number under 1500) of one random game, for
    the mutation fuzzers to start from."""
    rng, sampler = random.Random(seed), SeededSampler(seed)
    state = spec.new_game(spec.options(preset))
    seen = [state.clone()]
    stop = rng.randrange(1500)
    while not state.is_terminal() and state.ply < stop:
        if state.is_chance():
            state.apply(sampler.choose(state.chance_outcomes()))
        else:
            state.apply(pick_decision(rng, state.legal_actions(), by_kind=True))
        seen.append(state.clone())
    return rng.sample(seen, min(count, len(seen)))


def exercise(state: GameState, rng: random.Random, steps: int = 6) -> None:
    """Use a state that loaded: every view, then a few random actions."""
    for _ in range(steps):
        for seat in (None, *range(state.num_seats)):
            state.view(seat)
            state.render(seat)
        state.to_position()
        if state.is_terminal():
            return
        actions = [a for a, _ in check_chance(state)] if state.is_chance() else None
        actions = actions if actions is not None else state.legal_actions()
        if not actions:
            raise Found("no-actions", "a loaded position offers no action")
        state.apply(rng.choice(actions))


def mutate_record(spec: GameSpec, preset: str, seed: int) -> None:
    rng = random.Random(seed)
    state = sample_states(spec, preset, seed, 1)[0]
    recorder = Recorder(state, seed=None, hash_every=4)
    for _ in range(rng.randint(0, 30)):
        if state.is_terminal():
            break
        actions = state.legal_actions()  # at a chance node: the outcomes
        recorder.apply(rng.choice(actions))
    lines = recorder.record.to_text().split("\n")[:-1]
    number = rng.randrange(len(lines))
    op = rng.randrange(5)
    if op == 0:
        lines[number] = json.dumps(mutate_json(rng, json.loads(lines[number])), ensure_ascii=False)
    elif op == 1:
        lines[number] = mutate_text(rng, lines[number])
    elif op == 2:
        del lines[number]
    elif op == 3:
        lines.insert(number, lines[rng.randrange(len(lines))])
    else:
        lines[number] = rng.choice(
            ["[" * 5000, '{"ply": ' + "9" * 5000 + "}", "\x00", '{"end": {}}', "null", ""]
        )
    text = "\n".join(lines) + "\n"
    with contextlib.suppress(RecordError):  # refused cleanly, or replayed to a divergence
        replay(read_record(text), verify=True)


def mutate_position(spec: GameSpec, preset: str, seed: int) -> None:
    rng = random.Random(seed)
    state = sample_states(spec, preset, seed, 1)[0]
    data = mutate_json(rng, state.to_position())
    try:
        loaded = spec.from_position(data)
    except (PositionError, OptionsError):
        return
    exercise(loaded, rng)


def mutate_notation(spec: GameSpec, preset: str, seed: int) -> None:
    rng = random.Random(seed)
    for state in sample_states(spec, preset, seed, 5):
        if state.is_terminal():
            continue
        actions = state.legal_actions()  # at a chance node: the outcomes
        text = mutate_text(rng, rng.choice(actions).notation())
        try:
            action = spec.parse_action(text)
        except NotationError:
            continue
        try:
            state.apply(action)
        except IllegalActionError:
            continue
        exercise(state, rng, steps=2)


def mutate_options(spec: GameSpec, preset: str, seed: int) -> None:
    rng = random.Random(seed)
    kind = spec.options_type
    infos = kind.describe()
    info = rng.choice(infos)
    base = spec.options(preset).to_dict()
    if rng.random() < 0.5:
        raw = mutate_text(rng, str(base[info.name]).lower())
        try:
            overrides = kind.parse_assignments([f"{info.name}={raw}"])
            options = kind.from_preset(preset, overrides)
        except OptionsError:
            return
    else:
        values = mutate_json(rng, base)
        try:
            options = kind.from_dict(values if isinstance(values, dict) else {})
        except OptionsError:
            return
    state = spec.new_game(options)
    exercise(state, rng, steps=20)


MUTATORS: dict[str, Callable[[GameSpec, str, int], None]] = {
    "mutation-record": mutate_record,
    "mutation-position": mutate_position,
    "mutation-notation": mutate_notation,
    "mutation-options": mutate_options,
}
