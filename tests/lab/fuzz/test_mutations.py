"""The mutation fuzzers' own tools (monsterball.lab.fuzz.mutations): the places of a JSON
value, and mutations that leave no trace on the next case."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from monsterball.lab.fuzz.mutations import JUNK, mutate_json, paths


def test_paths_lists_every_place_depth_first() -> None:
    value = {"a": [1, {"b": 2}], "c": 3}
    assert list(paths(value)) == [(), ("a",), ("a", 0), ("a", 1), ("a", 1, "b"), ("c",)]


def test_paths_walks_data_deeper_than_the_recursion_limit() -> None:
    deep: Any = 0
    for _ in range(5000):
        deep = [deep]
    assert len(list(paths(deep))) == 5001


def test_mutations_never_change_the_shared_junk() -> None:
    # A mutation that inserted one of JUNK's lists and then appended to it grew JUNK itself,
    # so later cases mutated ever deeper data until paths() overflowed the stack (the
    # RecursionErrors of the seed-206 Huck + Monster campaign, issue 34).
    before = copy.deepcopy(JUNK)
    rng = random.Random(7)
    for _ in range(5000):
        mutate_json(rng, {"options": [1]})
    assert json.dumps(JUNK) == json.dumps(before)
