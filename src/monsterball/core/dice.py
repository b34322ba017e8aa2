"""Where chance outcomes come from.

The engine never rolls by itself: a state at a chance node lists its outcomes with exact
probabilities (:meth:`GameState.chance_outcomes`) and something outside picks one. Normal play
uses a :class:`SeededSampler` passed in explicitly; tests use :class:`ScriptedDice`; search and
analysis enumerate the outcomes. There is no global random state anywhere.
"""

from __future__ import annotations

import hashlib
import hmac
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


# Dice schemes (a record's header ``dice``): how a seed becomes the stream of dice.
LEGACY_DICE = "mt19937"  # random.Random(seed): records without ``dice``
CONTRIBUTED_DICE = "hmac-sha256/2"  # HmacSampler over dice_key(seed, contributions)
DICE_SCHEMES = (LEGACY_DICE, CONTRIBUTED_DICE)
MAX_NONCE = 64  # hex digits in a seat's contribution


class HmacSampler:
    """Dice from HMAC-SHA256 in counter mode: block ``i`` of the stream is
    HMAC-SHA256(key, i as 8 big-endian bytes), and draws take whole bytes from the stream in
    order. A draw of ``k`` bits takes the next ceil(k / 8) bytes (big-endian) and keeps the top
    ``k`` bits. Equally likely outcomes (``n`` of them): draws of bits(n - 1) bits until one
    is below ``n`` (no bias); others: one 53-bit point, placed among the cumulative
    probabilities exactly as :class:`SeededSampler` does. docs/web.md has the recipe by hand."""

    __slots__ = ("block", "buffer", "key", "seed")

    def __init__(self, key: bytes, seed: int | None = None):
        self.key = key
        self.seed = seed
        self.block = 0
        self.buffer = b""

    def _bytes(self, count: int) -> bytes:
        while len(self.buffer) < count:
            counter = self.block.to_bytes(8, "big")
            self.buffer += hmac.new(self.key, counter, hashlib.sha256).digest()
            self.block += 1
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def getrandbits(self, bits: int) -> int:
        size = (bits + 7) // 8
        return int.from_bytes(self._bytes(size), "big") >> (8 * size - bits)

    def randrange(self, count: int) -> int:
        bits = (count - 1).bit_length()
        while True:
            drawn = self.getrandbits(bits) if bits else 0
            if drawn < count:
                return drawn

    def choose(self, outcomes: Sequence[tuple[Action, Fraction]]) -> Action:
        count = len(outcomes)
        if count == 1:
            return outcomes[0][0]
        cumulative = _draw_table(outcomes)
        if cumulative is None:
            return outcomes[self.randrange(count)][0]
        index = bisect_right(cumulative, self.getrandbits(53))
        return outcomes[index][0] if index < count else outcomes[-1][0]


def dice_key(seed: int, contributions: Sequence[tuple[str, str]] = ()) -> bytes:
    """The key of the contributed dice: HMAC-SHA256 keyed by the seed's decimal text over
    ``monsterball-dice/2`` then, for each contributing chair in the game's order, a line
    feed, its name, ``=`` and its nonce (lowercase hex; empty if it sent none)."""
    message = "monsterball-dice/2" + "".join(f"\n{name}={nonce}" for name, nonce in contributions)
    return hmac.new(str(seed).encode("ascii"), message.encode("ascii"), hashlib.sha256).digest()


def is_nonce(text: object) -> bool:
    """A seat's contribution as the key takes it: 1 to MAX_NONCE lowercase hex digits."""
    return (
        isinstance(text, str)
        and 0 < len(text) <= MAX_NONCE
        and all(c in "0123456789abcdef" for c in text)
    )


def sampler_for(
    scheme: str | None, seed: int, contributions: Sequence[tuple[str, str]] = ()
) -> SeededSampler | HmacSampler:
    """The dice of a game rolled with ``scheme`` (None: the legacy stream)."""
    if scheme in (None, LEGACY_DICE):
        return SeededSampler(seed)
    if scheme == CONTRIBUTED_DICE:
        return HmacSampler(dice_key(seed, contributions), seed)
    raise ValueError(f"unknown dice scheme {scheme!r}; known: {', '.join(DICE_SCHEMES)}")


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
