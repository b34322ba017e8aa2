"""Where chance outcomes come from.

The engine never rolls by itself: a state at a chance node lists its outcomes with exact
probabilities (:meth:`GameState.chance_outcomes`) and something outside picks one. Normal play
uses a :class:`SeededSampler` passed in explicitly; tests use :class:`ScriptedDice`; search and
analysis enumerate the outcomes. There is no global random state anywhere.
"""

from __future__ import annotations

import hashlib
import math
import random
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from fractions import Fraction
from operator import is_
from typing import Protocol

from monsterball.core.actions import Action


class ChanceSource(Protocol):
    def choose(self, outcomes: Sequence[tuple[Action, Fraction]]) -> Action: ...


class SeededSampler:
    """Samples chance outcomes (and bot choices) from one seeded generator.

    ``random.Random`` with an integer seed gives the same stream on every platform and Python
    version, which is what makes a (seed, actions) record replayable.
    """

    __slots__ = ("rng", "seed")

    def __init__(self, seed: int):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, outcomes: Sequence[tuple[Action, Fraction]]) -> Action:
        count = len(outcomes)
        if count == 1:
            return outcomes[0][0]
        cumulative = _draw_table(outcomes)
        if cumulative is None:
            return outcomes[self.rng.randrange(count)][0]
        # Integers over a common denominator: the same draw as comparing a point
        # bits / 2**53 with the running Fraction sums, at a fraction of the cost.
        # The first bound above the point (bisect: the loop ``point < bound`` in C).
        index = bisect_right(cumulative, self.rng.getrandbits(53))
        return outcomes[index][0] if index < count else outcomes[-1][0]


_DRAW_TABLES: dict[tuple[int, ...], tuple[tuple[Fraction, ...], tuple[int, ...] | None]] = {}
_MAX_DRAW_TABLES = 1024
# (id of the first pair, count) -> (the pairs, their table): see _draw_table.
_Pairs = tuple[tuple[Action, Fraction], ...]
_BY_PAIRS: dict[tuple[int, int], tuple[_Pairs, tuple[int, ...] | None]] = {}


def _draw_table(outcomes: Sequence[tuple[Action, Fraction]]) -> tuple[int, ...] | None:
    """None if the outcomes are equally likely, else per outcome the bound a 53-bit point
    must stay under: ``cumulative * 2**53 / common`` rounded up, over a common denominator
    (``point < cum / common * 2**53`` exactly when ``point * common < cum << 53``).

    Cached by the identity of the probability objects (games keep their dice tables, so the
    same Fractions come back; the cache holds them, so an id is not reused while cached).
    Before that, by the identity of the (action, probability) pairs, which games hand out
    from their tables too: a comparison in C, no tuple of ids to build and hash."""
    head = (id(outcomes[0]), len(outcomes))
    seen = _BY_PAIRS.get(head)
    if seen is not None and all(map(is_, outcomes, seen[0])):
        return seen[1]
    key = tuple([id(p) for _, p in outcomes])
    found = _DRAW_TABLES.get(key)
    if found is None:
        probs = tuple([p for _, p in outcomes])
        nums = [p.numerator for p in probs]
        dens = [p.denominator for p in probs]
        count = len(probs)
        table: tuple[int, ...] | None = None
        if not (nums.count(nums[0]) == count and dens.count(dens[0]) == count):
            common = math.lcm(*dens)
            bounds = []
            cumulative = 0
            for num, den in zip(nums, dens, strict=True):
                cumulative += num * (common // den)
                bounds.append(-((-cumulative << 53) // common))  # ceil(cum * 2**53 / common)
            table = tuple(bounds)
        if len(_DRAW_TABLES) >= _MAX_DRAW_TABLES:
            _DRAW_TABLES.clear()
        found = _DRAW_TABLES[key] = (probs, table)
    if len(_BY_PAIRS) >= _MAX_DRAW_TABLES:
        _BY_PAIRS.clear()
    _BY_PAIRS[head] = (tuple(outcomes), found[1])  # holds the pairs: ids stay theirs
    return found[1]


class ScriptedDice:
    """Chance outcomes given in advance by notation, for scenario tests.

    Raises if the script runs out, or names an outcome that is not possible here, so a test
    cannot silently roll something other than what it meant.
    """

    __slots__ = ("_script", "used")

    def __init__(self, script: Iterable[str]):
        self._script = list(script)
        self.used = 0

    def choose(self, outcomes: Sequence[tuple[Action, Fraction]]) -> Action:
        if self.used >= len(self._script):
            raise AssertionError("scripted dice ran out")
        wanted = self._script[self.used]
        self.used += 1
        for action, _ in outcomes:
            if action.notation() == wanted:
                return action
        possible = ", ".join(a.notation() for a, _ in outcomes)
        raise AssertionError(f"scripted outcome '{wanted}' is not possible here ({possible})")

    @property
    def remaining(self) -> int:
        return len(self._script) - self.used


def derive_seed(master: int, index: int) -> int:
    """An independent 63-bit seed for game ``index`` of a run seeded with ``master``.

    A hash keeps seeds independent of how many games each worker plays, so a simulation
    gives the same games whatever the number of jobs.
    """
    digest = hashlib.sha256(f"monsterball:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seed_commitment(seed: int) -> str:
    """The commitment to a dice seed: the SHA-256 (hex) of the seed's decimal text, published
    before the first roll so the seed, revealed at the end, can be checked by anyone
    (``printf %s SEED | sha256sum``). The text is canonical (no sign, no leading zeros)."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def is_seed_text(text: object) -> bool:
    """``text`` is a seed written as :func:`seed_commitment` hashes it: canonical decimal."""
    return isinstance(text, str) and text.isascii() and text.isdigit() and str(int(text)) == text
