"""Huck + Monster's second round of fast paths give exactly what their references give.

- ``Grid.quiet_path`` (the throw's path, HM-R9, no Hammer, no beaten defenders): compiled
  against the Python method, and the Python method against the state's general path search.
- The fused hex step of ``reachable`` (and so ``team_moves``) on boards of 1..6 words, with
  bits between the last cell and the word's end, and above the board's words (the old path).
- ``team_moves`` building its list at final size: the same lists, and None past its limits.
- ``core.fastinit``: every rewritten constructor builds what the dataclass's own built.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from monsterball.core import geometry
from monsterball.core.dice import SeededSampler
from monsterball.core.fastinit import ORIGINAL_INITS, fast_init
from monsterball.core.geometry import HexGrid, SquareGrid, grid
from monsterball.games import get_game
from monsterball.games.huck_monster.actions import ThrowTo
from monsterball.games.huck_monster.matchup import THROW, is_hammer, light_effect
from monsterball.games.huck_monster.rules.bid import Bid
from monsterball.games.huck_monster.rules.moves import Moving
from monsterball.games.huck_monster.rules.upcall import Aim
from monsterball.games.huck_monster.state import HuckMonsterState

needs_fast = pytest.mark.skipif(not geometry.FAST, reason="compiled kernels not built")


@needs_fast
def test_compiled_quiet_path_matches_the_reference() -> None:
    rng = random.Random(23)
    exposed_wins = 0
    for kind, w, h in (("hex", 8, 17), ("hex", 5, 9), ("square", 8, 17), ("hex", 14, 24)):
        fast = grid(kind, w, h)
        pure = (HexGrid if kind == "hex" else SquareGrid)(w, h)
        assert "quiet_path" in vars(fast) and "quiet_path" not in vars(pure)
        for trial in range(600):
            free = rng.getrandbits(pure.size) | rng.getrandbits(pure.size)
            if trial % 2:
                free |= rng.getrandbits(pure.size)
            guards = 0
            for _ in range(rng.randrange(9)):
                guards |= 1 << rng.randrange(pure.size)
            guards &= ~free
            start, final = rng.randrange(pure.size), rng.randrange(pure.size)
            count = rng.randrange(16)
            got = fast.quiet_path(start, final, count, free, guards)
            assert got == pure.quiet_path(start, final, count, free, guards)
            plain = pure.shortest_segment(start, final, free & ~pure.dilate(guards))
            if got is not None and (plain is None or len(plain) > count):
                exposed_wins += 1  # found only by letting some guards near the path
        # Arguments the words cannot hold go to the reference.
        assert fast.quiet_path(0, 3, 5, -1, 0) == pure.quiet_path(0, 3, 5, -1, 0)
        assert fast.quiet_path(2, 2, 5, free, 0) == pure.quiet_path(2, 2, 5, free, 0)
    assert exposed_wins > 20


def _throws(preset: str | None, seed: int, limit: int):
    """(state, throw) for every throw open at the Aims of one random game."""
    spec = get_game("huck-monster")
    state = spec.new_game(spec.options(preset))
    sampler, rng = SeededSampler(seed), random.Random(seed)
    seen = 0
    while not state.is_terminal() and seen < limit:
        if state.is_chance():
            state.apply_unchecked(sampler.choose(state.chance_outcomes()))
            continue
        legal = state.legal_actions()
        if isinstance(state.stack[-1], Aim):
            seen += 1
            for action in legal:
                yield state, state.stack[-1], action
        state.apply_unchecked(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("preset", [None, "small", "square-field"])
def test_quiet_path_is_the_general_search_without_hammer(preset: str | None) -> None:
    """HM-R9: "the disc takes the path meeting the fewest bidders": the one-call search
    (any kernel) and the state's general search (subsets, Hammer vias, crossable
    defenders) agree on every throw the Handlers could make."""
    checked = 0
    for seed in range(3):
        for state, aim, action in _throws(preset, seed, 60):
            assert isinstance(state, HuckMonsterState) and isinstance(action, ThrowTo)
            if is_hammer(light_effect(state.light, THROW)):
                continue  # (the Hammer's paths: the general search only)
            final = state.field.parse_cell(action.cell)
            start = state.disc
            waiting = state.adjacent(start) | state.catch_guards(final, action.receiver)
            everyone = state.defender_cells() & ~waiting
            quiet = state.field.quiet_path(start, final, aim.count, state.open_spaces(), everyone)
            assert quiet == state._path_search(start, final, aim.count, False, everyone, waiting)
            assert quiet == state.best_path(action.receiver, final, aim.count, hammer=False)
            checked += 1
    assert checked > 500


@pytest.mark.slow
@needs_fast
def test_fused_hex_reach_matches_the_reference_on_every_word_count() -> None:
    rng = random.Random(31)
    # Widths 1 (the old path) and 2 (the narrowest fused); 64 and 128 cells end on a word,
    # 364 take all six.
    for w, h in ((1, 9), (2, 40), (8, 8), (8, 16), (8, 17), (13, 29), (26, 14)):
        fast = grid("hex", w, h)
        pure = HexGrid(w, h)
        words = (pure.size + 63) // 64
        items = tuple(tuple((p, c) for c in range(384)) for p in range(9))
        for trial in range(250):
            free = rng.getrandbits(64 * words) | rng.getrandbits(64 * words)  # past the end
            through = free | rng.getrandbits(64 * words) if trial % 2 else None
            if trial % 5 == 0 and words < 6:
                free |= 1 << rng.randrange(64 * words, 384)  # above the words: the old path
            start, budget = rng.randrange(pure.size), rng.randrange(30)
            assert fast.reachable(start, budget, free, through=through) == pure.reachable(
                start, budget, free, through=through
            )
            pos = [rng.randrange(-1, pure.size) for _ in range(9)]
            args = (pos, 0, 9, rng.choice([-1, 3]), budget, 2, budget + 2, free, 0, -1, items)
            assert fast.team_moves(*args) == pure.team_moves(*args)


@needs_fast
def test_team_moves_leaves_what_it_cannot_hold_to_the_caller() -> None:
    fast = grid("hex", 8, 17)
    pure = HexGrid(8, 17)
    items = tuple(tuple(range(pure.size)) for _ in range(40))
    pos = [i * 3 for i in range(40)]
    args = [pos, 0, 33, -1, 3, -1, 3, pure.full_mask, 0, -1, items]
    assert fast.team_moves(*args) is None  # more than 32 players in one call
    args[2] = 32
    assert fast.team_moves(*args) == pure.team_moves(*args)
    short = (tuple(range(10)),) * 40  # a row too short for the cells reached
    args[10] = short
    assert fast.team_moves(*args) is None


def _values(cls: type) -> list[object]:
    return [
        (i + 3) * 7 if f.type in ("int", int) else f"v{i}"
        for i, f in enumerate(dataclasses.fields(cls))
    ]


def test_fast_constructors_build_what_the_dataclass_built() -> None:
    assert {Moving, Bid, Aim} <= set(ORIGINAL_INITS)  # Huck + Monster's steps, at import
    from monsterball.games.huck_monster import events

    assert events.Moved in ORIGINAL_INITS and events.BidDecided in ORIGINAL_INITS
    for cls, original in ORIGINAL_INITS.items():
        values = _values(cls)
        names = [f.name for f in dataclasses.fields(cls)]
        slow = object.__new__(cls)
        original(slow, *values)
        fast = cls(*values)
        assert fast == slow and repr(fast) == repr(slow) and hash(fast) == hash(slow)
        assert cls(**dict(zip(names, values, strict=True))) == slow
        required = [
            v
            for v, f in zip(values, dataclasses.fields(cls), strict=True)
            if f.default is dataclasses.MISSING
        ]
        slow_defaults = object.__new__(cls)
        original(slow_defaults, *required)
        assert cls(*required) == slow_defaults
        with pytest.raises(TypeError):
            cls(*values, 0)
        if names:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(fast, names[0], 1)
        if required:
            with pytest.raises(TypeError):
                cls(*required[:-1])


def test_fast_init_leaves_other_classes_alone() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Hook:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(slots=True)
    class Mutable:
        a: int

    for cls in (NoSlots, Factory, Hook, Mutable):
        init = cls.__init__
        assert not fast_init(cls) and cls.__init__ is init and cls not in ORIGINAL_INITS
