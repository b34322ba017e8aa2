"""The engine's fast paths give exactly what the plain ones give.

- ``GameState.sample_legal(rng)`` draws the same distribution as picking uniformly from
  ``legal_actions()``: proved exactly, not statistically, by driving it with a generator
  whose ``randrange(n)`` returns each k in turn: it must ask for n = len(legal) and return
  ``legal[k]`` (a bijection, so a uniform k gives a uniform legal action).
- ``SeededSampler.choose`` (integers over a common denominator) draws what the Fraction
  loop it replaced drew, for the same generator state.
- ``Grid.steps_to`` and ``MaskSelector.nth`` agree with ``step_distances`` and ``select``.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction

import pytest

from monsterball.core import geometry
from monsterball.core.actions import Action, Roll
from monsterball.core.dice import SeededSampler
from monsterball.core.geometry import Grid, HexGrid, MaskSelector, SquareGrid, grid
from monsterball.core.geometry import plain_segment as _plain_segment
from monsterball.games import get_game
from monsterball.games.huck_monster.matchup import THROW, light_effect
from monsterball.games.huck_monster.rules import upcall
from monsterball.games.huck_monster.rules.common import receivers
from monsterball.games.huck_monster.rules.moves import Moving
from monsterball.games.huck_monster.rules.upcall import Aim
from monsterball.games.huck_monster.state import HuckMonsterState
from monsterball.games.huck_monster.throw_paths import route


class Fixed(random.Random):
    """A generator whose next ``randrange(n)`` returns ``k`` and records ``n``."""

    def __init__(self, k: int):
        super().__init__(0)
        self.k = k
        self.asked: list[int] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        assert stop is None and step == 1, "sample_legal draws with randrange(n)"
        self.asked.append(start)
        return self.k


def _decisions(game: str, preset: str | None, seed: int, every: int, limit: int, **overrides):
    """Decision states met in one random game (every ``every``-th, at most ``limit``)."""
    spec = get_game(game)
    state = spec.new_game(spec.options(preset, **overrides))
    sampler, rng = SeededSampler(seed), random.Random(seed)
    seen = 0
    while not state.is_terminal() and seen < limit * every:
        if state.is_chance():
            state.apply_unchecked(sampler.choose(state.chance_outcomes()))
            continue
        if seen % every == 0:
            yield state
        seen += 1
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(
    ("game", "preset"),
    [
        ("huck-monster", None),
        ("huck-monster", "pro"),
        ("huck-monster", "hot-hex"),
        ("huck-monster", "all-stars"),
        ("huck-monster", "square-field"),
        ("midway", None),
        ("paper-ultimate", None),
    ],
)
def test_sample_legal_is_a_uniform_pick_from_legal_actions(game: str, preset: str | None) -> None:
    spec = get_game(game)
    if preset is not None and preset not in spec.options_type.PRESETS:  # type: ignore[attr-defined]
        pytest.skip(f"{game} has no preset {preset}")
    checked = 0
    for index, state in enumerate(_decisions(game, preset, 11, 3, 150)):
        legal = state.legal_actions()
        # Every k at some positions; the ends and a few at the others (lists run to 800).
        ks = range(len(legal)) if index % 15 == 0 else {0, len(legal) - 1, len(legal) // 2}
        for k in ks:
            fixed = Fixed(k)
            assert state.sample_legal(fixed) == legal[k]
            assert fixed.asked == [len(legal)]
            checked += 1
    assert checked > 150


def _fraction_choose(rng: random.Random, outcomes: Sequence[tuple[Action, Fraction]]) -> Action:
    """The Fraction loop SeededSampler.choose used before: the reference."""
    count = len(outcomes)
    if count == 1:
        return outcomes[0][0]
    if all(p == outcomes[0][1] for _, p in outcomes):
        return outcomes[rng.randrange(count)][0]
    point = Fraction(rng.getrandbits(53), 1 << 53)
    cumulative = Fraction(0)
    for action, probability in outcomes:
        cumulative += probability
        if point < cumulative:
            return action
    return outcomes[-1][0]


def test_seeded_sampler_draws_what_the_fraction_loop_drew() -> None:
    shapes = random.Random(5)
    for trial in range(400):
        n = shapes.randint(1, 9)
        weights = [shapes.choice([1, 1, 2, 3, 5, 7, 36, 1000]) for _ in range(n)]
        if trial % 4 == 0:
            weights = [weights[0]] * n  # equal probabilities: the uniform branch
        total = sum(weights)
        outcomes = [(Roll("x", str(i)), Fraction(w, total)) for i, w in enumerate(weights)]
        sampler = SeededSampler(trial)
        reference = random.Random(trial)
        for _ in range(25):
            assert sampler.choose(outcomes) == _fraction_choose(reference, outcomes)
    # Lists that share their first pairs (the table cache's quick key) but differ later.
    first = (Roll("x", "a"), Fraction(1, 4))
    for tail in ([Fraction(3, 4)], [Fraction(1, 4), Fraction(1, 2)], [Fraction(1, 2)] * 2):
        pairs = [(Roll("x", f"t{i}"), p) for i, p in enumerate(tail)]
        for rest in (pairs, pairs[::-1]):
            outcomes = [first, *rest]
            sampler, reference = SeededSampler(9), random.Random(9)
            for _ in range(40):
                assert sampler.choose(outcomes) == _fraction_choose(reference, outcomes)
    # Near a boundary: a point exactly on a cumulative sum goes to the next outcome.
    outcomes = [(Roll("x", "a"), Fraction(1, 2)), (Roll("x", "b"), Fraction(1, 2) + 0)]
    assert len({SeededSampler(s).choose(outcomes) for s in range(64)}) == 2


def test_steps_to_and_nth_agree_with_the_plain_kernels() -> None:
    rng = random.Random(3)
    for kind, w, h in (("hex", 8, 17), ("square", 7, 14), ("hex", 5, 9)):
        g = grid(kind, w, h)
        selector = MaskSelector(list(range(g.size)))
        for _ in range(200):
            passable = rng.getrandbits(g.size) | rng.getrandbits(g.size)
            start = rng.randrange(g.size)
            dist = g.step_distances(start, passable)
            for target in range(g.size):
                expected = dist.get(target, -1)
                assert g.steps_to(start, target, passable) == expected
            picked = selector.select(passable)
            for n in {0, len(picked) - 1, len(picked) // 3}:
                if picked:
                    assert selector.nth(passable, n) == picked[n]


# -- compiled kernels against the pure-Python reference ------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not geometry.FAST, reason="compiled kernels not built (make setup)")
def test_compiled_kernels_match_the_pure_python_ones() -> None:
    rng = random.Random(8)
    for kind, w, h in (("hex", 8, 17), ("hex", 14, 24), ("square", 7, 14), ("square", 19, 20)):
        fast = grid(kind, w, h)
        pure = (HexGrid if kind == "hex" else SquareGrid)(w, h)
        assert "reachable" in vars(fast) and "reachable" not in vars(pure)
        selector = MaskSelector(list(range(pure.size)))
        for trial in range(300):
            passable = rng.getrandbits(pure.size) | rng.getrandbits(pure.size)
            if trial % 3 == 0:
                passable |= rng.getrandbits(pure.size)
            start, budget = rng.randrange(pure.size), rng.randrange(25)
            through = passable | rng.getrandbits(pure.size) if trial % 2 else None
            assert fast.reachable(start, budget, passable, through=through) == pure.reachable(
                start, budget, passable, through=through
            )
            assert fast.dilate(passable) == pure.dilate(passable)
            for limit in (None, 0, budget):
                got = fast.step_distances(start, passable, limit)
                assert list(got.items()) == list(
                    pure.step_distances(start, passable, limit).items()
                )
            target = rng.randrange(pure.size)
            assert fast.steps_to(start, target, passable) == pure.steps_to(start, target, passable)
            assert selector.select(passable) == selector._select_py(passable)  # type: ignore[attr-defined]
        # Arguments that do not fit six words go to the reference, with its result.
        big = (1 << 400) | 5
        assert fast.dilate(big) == pure.dilate(big)
        assert fast.reachable(0, 3, -1) == pure.reachable(0, 3, -1)
        # Bits above the board's own words (the kernels use only those): the reference too.
        high = (1 << 383) | (1 << 200) | passable
        assert fast.dilate(high) == pure.dilate(high)
        assert fast.reachable(0, 5, high, through=high) == pure.reachable(0, 5, high, through=high)
        assert fast.steps_to(0, 7, high) == pure.steps_to(0, 7, high)


@pytest.mark.skipif(not geometry.FAST, reason="compiled kernels not built (make setup)")
def test_compiled_team_moves_and_throw_searches_match_the_reference() -> None:
    """``team_moves`` (a team's Moving list), ``hop_finals`` (where a throw may stop) and
    ``shortest_segment`` (the throw's path), compiled against Grid's Python methods."""
    rng = random.Random(17)
    for kind, w, h in (("hex", 8, 17), ("hex", 14, 24), ("square", 8, 17), ("square", 3, 3)):
        fast = grid(kind, w, h)
        pure = (HexGrid if kind == "hex" else SquareGrid)(w, h)
        for name in ("team_moves", "hop_finals", "shortest_segment"):
            assert name in vars(fast) and name not in vars(pure)
        items = tuple(tuple((p, c) for c in range(pure.size)) for p in range(14))
        for trial in range(400):
            free = rng.getrandbits(pure.size) | rng.getrandbits(pure.size)
            other = rng.getrandbits(pure.size) & rng.getrandbits(pure.size)
            start, target = rng.randrange(pure.size), rng.randrange(pure.size)
            count = rng.randrange(14)
            assert fast.hop_finals(start, count, free, other) == pure.hop_finals(
                start, count, free, other
            )
            assert fast.shortest_segment(start, target, free) == pure.shortest_segment(
                start, target, free
            )
            pos = [rng.randrange(-1, pure.size) for _ in range(14)]
            args = (
                pos,
                7 * (trial % 2),
                7 * (trial % 2) + 7,
                rng.choice([-1, 0, 8, 9]),
                rng.randrange(8),
                rng.choice([-1, 0, 7]),
                rng.randrange(10),
                free,
                other if trial % 3 else 0,
                rng.choice([-1, 1, 7, 10]),
                items,
            )
            assert fast.team_moves(*args) == pure.team_moves(*args)
        # Arguments that do not fit six words: the reference answers (or None: the caller's).
        assert fast.hop_finals(0, 4, -1, 0) == pure.hop_finals(0, 4, -1, 0)
        assert fast.shortest_segment(0, 0, 1 << 500) == pure.shortest_segment(0, 0, 1 << 500)
        assert fast.team_moves([0], 0, 1, -1, 3, -1, 0, 1 << 500, 0, -1, items) is None


@pytest.mark.parametrize(
    ("preset", "pickup"),
    [(None, "strict"), (None, "free"), ("pro", "strict"), ("hot-hex", "free")]
    + [(p, "strict") for p in ("hot-hex", "all-stars", "square-field", "small")],
)
def test_moving_lists_from_team_moves_match_the_rule_by_rule_lists(
    preset: str | None, pickup: str
) -> None:
    """Huck + Monster's team move: the one-call list (``Grid.team_moves`` with the rule as
    one forbidden mask) equals the list built from ``_allowed`` (chase, Marks, Hot Hex)."""
    checked = fast = 0
    for seed in range(3):
        for state in _decisions("huck-monster", preset, seed, 1, 1500, pickup=pickup):
            top = state.stack[-1]
            if isinstance(top, Moving):
                assert top.legal_actions(state) == top.legal_actions_py(state)
                checked += 1
                fast += top._restriction(state) is not None
    assert checked > 300 and fast > 0.9 * checked


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [(None, {"full_moves": True}), ("hot-hex", {"hex_limit": "per-move", "full_moves": True})],
)
def test_moving_lists_match_under_full_moves_and_the_per_move_hex(
    preset: str | None, overrides: dict[str, object]
) -> None:
    """HM-R5 ``full_moves`` (no ``end`` while a player can move) and HM-R52
    ``hex_limit=per-move`` (one entry into the hex per team move): the one-call list still
    equals the rule-by-rule one."""
    checked = 0
    for seed in range(2):
        for state in _decisions("huck-monster", preset, seed, 1, 800, **overrides):
            top = state.stack[-1]
            if isinstance(top, Moving):
                assert top.legal_actions(state) == top.legal_actions_py(state)
                checked += 1
    assert checked > 150


GAME_DIGEST = """
import hashlib, random, sys
from monsterball.core.dice import SeededSampler
from monsterball.core.geometry import FAST
from monsterball.games import get_game
out = hashlib.sha256()
for game, preset in (("huck-monster", None), ("huck-monster", "square-field"),
                     ("midway", None), ("paper-ultimate", None)):
    spec = get_game(game)
    for seed in range(2):
        state = spec.new_game(spec.options(preset))
        sampler, rng = SeededSampler(seed), random.Random(seed)
        for _ in range(700):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_unchecked(sampler.choose(state.chance_outcomes()))
                continue
            legal = state.legal_actions()
            out.update(" ".join(a.notation() for a in legal).encode())
            state.apply_unchecked(legal[rng.randrange(len(legal))])
        out.update(state.state_hash().encode())
print(FAST, out.hexdigest())
"""


@pytest.mark.slow
@pytest.mark.skipif(not geometry.FAST, reason="compiled kernels not built (make setup)")
def test_games_with_compiled_kernels_match_the_pure_python_reference() -> None:
    """Every legal list and the final positions of random games, in two fresh processes."""
    digests = {}
    for pure in ("", "1"):
        env = {**os.environ, "MONSTERBALL_PURE": pure}
        if not pure:
            env.pop("MONSTERBALL_PURE")
        run = subprocess.run(
            [sys.executable, "-c", GAME_DIGEST], env=env, capture_output=True, text=True, check=True
        )
        digests[pure] = run.stdout.split()
    assert digests[""][0] == "True" and digests["1"][0] == "False"
    assert digests[""][1] == digests["1"][1]


def _tuple_segment(field: Grid, start: int, target: int, inter: int) -> tuple[int, ...] | None:
    """The throw's path search as first written (nodes are (space, crossed) pairs)."""
    root = (start, False)
    parent = {root: root}
    frontier = [root]
    while frontier:
        nxt = []
        for node in frontier:
            for n in field.neighbours[node[0]]:
                if n == target:
                    path, back = [n], node
                    while back != root:
                        path.append(back[0])
                        back = parent[back]
                    return tuple(reversed(path))
                child = (n, False)
                if inter >> n & 1 and child not in parent:
                    parent[child] = node
                    nxt.append(child)
        frontier = nxt
    return None


def test_throw_route_shortcuts_find_the_same_paths() -> None:
    spec = get_game("huck-monster")
    state = spec.new_game(spec.options())
    assert isinstance(state, HuckMonsterState)
    field = state.field
    rng = random.Random(4)
    for _ in range(1500):
        inter = rng.getrandbits(field.size) | rng.getrandbits(field.size)
        start, final, count = (
            rng.randrange(field.size),
            rng.randrange(field.size),
            rng.randrange(12),
        )
        via = rng.choice([None, rng.randrange(field.size)])
        assert _plain_segment(field.neighbours, start, final, inter) == _tuple_segment(
            field, start, final, inter
        )
        if via is None:
            first = _tuple_segment(field, start, final, inter)
            expected = first if first is not None and len(first) <= count else None
        else:
            # HM-R9 (1.4.2): the way on from ``via`` enters no space already flown over.
            a = _tuple_segment(field, start, via, inter)
            flown = sum(1 << c for c in set(a or ()))
            b = (
                None
                if a is None or final in a
                else _tuple_segment(field, via, final, inter & ~flown)
            )
            expected = None if a is None or b is None or len(a) + len(b) > count else a + b
        assert route(field, start, final, inter, count, via) == expected


def _aim_list_from_scratch(state: HuckMonsterState, aim: Aim) -> list[Action]:
    """HM-THROW-2's list with the receivers found afresh (no memo): the reference."""
    out: list[Action] = []
    for r, mask in receivers(state, aim.count, light_effect(state.light, THROW)).items():
        out.extend(state.actions.throw_by_mask[r].select(mask))
    return out


@pytest.mark.parametrize("preset", [None, "pro", "all-stars", "hot-hex"])
def test_aim_reuses_the_receivers_found_when_the_throw_began(preset: str | None) -> None:
    """``UpCall._aim_now`` finds the receivers (to stall when there are none) and hands them
    to the Aim it pushes: its legal list is the one computed from scratch."""
    checked = reused = 0
    for seed in range(4):
        for state in _decisions("huck-monster", preset, seed, 1, 1500):
            top = state.stack[-1]
            if isinstance(top, Aim):
                assert top.legal_actions(state) == _aim_list_from_scratch(state, top)
                checked += 1
                reused += any(aim is top and seen is state for aim, seen, *_ in upcall._AIMED)
    assert checked > 40 and reused == checked


def test_aim_does_not_reuse_receivers_after_the_position_changed() -> None:
    """A position edited under a pending Aim (a what-if, a test set-up) gets a fresh list."""
    changed = 0
    for seed in range(6):
        for state in _decisions("huck-monster", None, seed, 1, 1500):
            top = state.stack[-1]
            if not isinstance(top, Aim) or not top.legal_actions(state):
                continue
            # Move a receiver to some open space.
            team = range(state.offense * 7, state.offense * 7 + 7)
            p = next(q for q in team if q != state.holder and state.pos[q] >= 0)
            spaces = [c for c in range(state.field.size) if state.open_spaces() >> c & 1]
            target = spaces[(seed * 31 + p) % len(spaces)]
            before = top.legal_actions(state)
            state.move_player(p, target)
            after = _aim_list_from_scratch(state, top)
            assert top.legal_actions(state) == after
            changed += before != after
    assert changed > 0
