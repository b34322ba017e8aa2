"""Monsters of the Midway's compiled kernels (games/midway/_fastmw.pyx) give exactly what
their pure-Python references give: kernel by kernel (rings, move lists with their move
context, spell lists, move prices) on random masks, positions met in random games and
scrambled copies of them, and whole random games (every legal list, every event, the last
position) of every preset in a process with the kernels and one with
``MONSTERBALL_PURE=1``; clones copy every board field."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import replace

import pytest

from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler
from monsterball.core.geometry import HexGrid
from monsterball.games import get_game
from monsterball.games.midway import moves
from monsterball.games.midway import state as mw_state
from monsterball.games.midway.moves import MoveContext, destination_rings, within
from monsterball.games.midway.rules.phases import Phase
from monsterball.games.midway.state import KERNELS, MidwayState

FAST = mw_state.FAST
needs_kernels = pytest.mark.skipif(not FAST, reason="compiled kernels not built (make setup)")
PRESETS = ("standard", "compass", "short", "match", "exhibition")


def _phase_states(preset: str, seed: int, limit: int) -> list[MidwayState]:
    """Copies of the movement-phase decisions of one random game (at most ``limit``)."""
    spec = get_game("midway")
    state = spec.new_game(spec.options(preset))
    assert isinstance(state, MidwayState)
    sampler, rng = SeededSampler(seed), random.Random(seed)
    out: list[MidwayState] = []
    while not state.is_terminal() and len(out) < limit:
        if state.is_chance():
            state.apply_unchecked(sampler.choose(state.chance_outcomes()))
            continue
        if isinstance(state.stack[-1], Phase):
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randrange(len(legal))])
    return out


@needs_kernels
def test_ring_growth_and_cell_masks_match_the_references() -> None:
    pure = HexGrid(14, 24)  # not accelerated: the reference's own dilate
    rings = moves.FAST_RINGS
    rng = random.Random(17)
    full = pure.full_mask
    for trial in range(3000):
        free = rng.getrandbits(pure.size) | rng.getrandbits(pure.size)
        if trial % 3 == 0:
            free |= rng.getrandbits(pure.size)
        contact = rng.getrandbits(pure.size) & rng.getrandbits(pure.size) & ~free & full
        barred = 0 if trial % 2 else rng.getrandbits(pure.size) & rng.getrandbits(pure.size)
        start, budget = rng.randrange(pure.size), rng.randrange(-1, 12)
        assert rings.destination_rings(start, budget, free, contact, barred) == (
            destination_rings(pure, start, budget, free, contact, barred)
        )
        cells = [rng.randrange(-3, pure.size) for _ in range(20)]
        lo, hi = rng.randrange(0, 21), rng.randrange(0, 25)
        assert mw_state.cells_mask(cells, lo, hi) == mw_state.cells_mask_py(cells, lo, hi)
    # What does not fit six 64-bit words is handed back (None: the caller uses the reference).
    assert rings.destination_rings(0, 3, 1 << 400, 0, 0) is None
    assert rings.destination_rings(-1, 3, 0, 0, 0) is None
    assert mw_state.cells_mask([500, 3, -1], 0, 3) == (1 << 500) | (1 << 3)


@needs_kernels
def test_team_moves_match_the_reference_in_random_games() -> None:
    checked, carriers, hobgoblins = 0, 0, 0
    for preset in PRESETS:
        for seed in range(2):
            for state in _phase_states(preset, seed, 250):
                phase = state.stack[-1]
                assert isinstance(phase, Phase)
                moves_list: list[Action] = []
                fast = moves_list, phase.add_moves(state, moves_list)
                assert fast == phase.team_moves_py(state, MoveContext(state, phase.team))
                checked += 1
                carriers += fast[1] != 0
                hobgoblins += any(state.kind_of(p) == "hobgoblin" for p in phase.movers(state))
    # The carrier's one-hex steps and hobgoblins (MW-SPEC-5; the chase of an elf: below).
    assert checked > 1500 and carriers > 50 and hobgoblins > 50


def _scrambled(state: MidwayState, rng: random.Random) -> MidwayState:
    """A copy with the ball, the spells and the play kind redrawn at random (not always a
    reachable position, but one the references answer): the rare branches, often."""
    out = state.clone()
    on = [p for p in range(20) if out.pos[p] >= 0]
    out.carrier = rng.choice([-1, *on])
    if out.carrier >= 0:
        out.ball, out.ball_state = out.pos[out.carrier], "held"
    else:
        out.ball = rng.randrange(out.field.size)
        out.ball_state = rng.choice(("loose", "pass", "kick", "punt", ""))
    out.caster = rng.choice([-1, -1, *on])
    out.images = sorted(rng.sample(range(out.field.size), rng.randrange(4)))
    out.invisible = rng.choice([-1, -1, *(p for p in on if p != out.caster)])
    out.receivable = rng.choice((-1, 0, 1))
    out.kind = rng.choice(("scrimmage", "kickoff", "onside", "punt", "conversion"))
    out.passed = rng.random() < 0.3
    out.throw_phase = out.phases if rng.random() < 0.5 else 0
    out.spent = rng.getrandbits(20)
    out.dazed = rng.getrandbits(20) & rng.getrandbits(20)
    out.were = rng.getrandbits(20)
    for p in rng.sample(range(20), 6):  # hobgoblins chasing elves (MW-SPEC-5), by change self
        out.form[p] = rng.choice(("hobgoblin", "elf"))
    return out


@needs_kernels
def test_move_context_and_spell_lists_match_the_references_in_random_games() -> None:
    """The compiled move context (MoveContext: counters_of, contact_mask), moves (with the
    barred players) and spell list (Phase._casts) against the references: both teams'
    views of every sampled phase and of a scrambled copy of it."""
    rings = moves.FAST_RINGS
    rng = random.Random(5)
    checked, casts, images, hidden, loose, chases = 0, 0, 0, 0, 0, 0
    for preset in PRESETS:
        for seed in range(2, 4):
            for found in _phase_states(preset, seed, 250):
                phase = found.stack[-1]
                assert isinstance(phase, Phase)
                for state in (found, _scrambled(found, rng)):
                    for team in (0, 1):
                        ctx = MoveContext(state, team)
                        fast = rings.move_context(state, team)
                        assert fast == (ctx.free, ctx.contact, ctx.opp_beyond)
                        paused = rng.choice((-1, -1, *range(team * 10, team * 10 + 10)))
                        mover = replace(phase, team=team, paused=paused)
                        moves_list: list[Action] = []
                        mask = mover.add_moves(state, moves_list)
                        assert (moves_list, mask) == mover.team_moves_py(state, ctx)
                        chases += any(
                            state.kind_of(p) == "hobgoblin"
                            and moves.hobgoblin_keep(state, p) is not None
                            for p in mover.movers(state)
                        )
                        for acted in (phase.acted, 0):
                            other = replace(phase, team=team, acted=acted)
                            spells = KERNELS.casts(state, team, acted, moves.magic_users(state))
                            assert spells == other._casts_py(state)
                            casts += bool(spells)
                    checked += 1
                    images += bool(state.images) and state.caster >= 0
                    hidden += state.invisible >= 0
                    loose += state.ball_state in ("loose", "pass", "kick", "punt")
    # Spells, mirror images, an invisible player, a ball nobody holds and hobgoblins
    # chasing elves were all met (only a defending hobgoblin chases, ruling MW-R29).
    assert checked > 3000 and casts > 1000 and images > 500 and hidden > 500 and loose > 500
    assert chases > 200
    # A position that does not fit the six words is handed back to the reference.
    state = _phase_states("standard", 0, 1)[0]
    state.images = [400]
    assert rings.move_context(state, 0) is None


@needs_kernels
def test_move_prices_match_the_reference() -> None:
    """The compiled price of a move (moves.move_price: -1 into a counter's hex, else the
    fewest steps through empty hexes) against the reference, for every hex of the field
    from a player of each sampled and scrambled position; ``None`` only where the
    reference finds no path."""
    rng = random.Random(8)
    priced = contact = unreachable = 0
    for preset in ("standard", "exhibition"):
        for found in _phase_states(preset, 6, 120):
            for state in (found, _scrambled(found, rng)):
                on = [p for p in range(20) if state.pos[p] >= 0]
                player = rng.choice(on)
                for cell in range(state.field.size):
                    fast = moves.FAST_RINGS.move_price(state, player, cell)
                    if fast is None:
                        with pytest.raises(ValueError, match="cannot be reached"):
                            moves.move_price_py(state, player, cell)
                        unreachable += 1
                        continue
                    assert fast == moves.move_price_py(state, player, cell)
                    priced += 1
                    contact += fast < 0
    # Walled in by mirror images: the hexes past them cannot be reached.
    state = _phase_states("standard", 6, 1)[0]
    player = next(p for p in range(20) if state.pos[p] >= 0)
    state.images = [
        c for c in range(state.field.size) if state.field.distance(state.pos[player], c) == 1
    ]
    for cell in range(state.field.size):
        if moves.FAST_RINGS.move_price(state, player, cell) is None:
            with pytest.raises(ValueError, match="cannot be reached"):
                moves.move_price_py(state, player, cell)
            unreachable += 1
    assert priced > 50_000 and contact > 2000 and unreachable > 200


def test_clones_copy_every_board_field_and_share_no_list() -> None:
    """The written-out field copy (state._copy_fields) against FIELDS: a clone holds every
    board field, equal, its lists fresh copies, in positions met in random games."""
    checked = 0
    for preset in ("standard", "compass"):
        for state in _phase_states(preset, 4, 60):
            state.images = [3, 7]  # a list that is usually empty, to copy too
            twin = state.clone()
            assert twin.to_position() == state.to_position()
            for name, kind in mw_state.FIELDS.items():
                mine, theirs = getattr(state, name), getattr(twin, name)
                assert mine == theirs, name
                assert (mine is not theirs) == (kind in ("ints", "strs", "list")), name
            twin.pos[0], twin.images[0] = -5, 9
            assert state.pos[0] != -5 and state.images[0] == 3
            checked += 1
    assert checked > 100


def test_within_is_the_distance_ball() -> None:
    f = HexGrid(14, 24)
    for cell in (0, 13, 100, 177, 335):
        for radius in (0, 1, 4, 30):
            expected = sum(1 << c for c in range(f.size) if f.distance(cell, c) <= radius)
            assert within(f, cell, radius) == expected


GAME_DIGEST = """
import hashlib, random, sys
from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler
from monsterball.games import get_game
from monsterball.games.midway.state import FAST
spec = get_game("midway")
out = hashlib.sha256()
for preset in sys.argv[1:]:
    for seed in range(2):
        state = spec.new_game(spec.options(preset))
        sampler, rng = SeededSampler(seed), random.Random(seed)
        for _ in range(1500):
            if state.is_terminal():
                break
            if state.is_chance():
                action = sampler.choose(state.chance_outcomes())
            else:
                legal = state.legal_actions()
                out.update(" ".join(a.notation() for a in legal).encode())
                action = legal[rng.randrange(len(legal))]
            for event in state.apply_unchecked(action):
                out.update(repr(event).encode())
        out.update(state.state_hash().encode())
print(FAST, out.hexdigest())
"""


@pytest.mark.slow
@needs_kernels
def test_midway_games_with_kernels_match_the_pure_python_reference() -> None:
    digests = {}
    for pure in ("", "1"):
        env = {k: v for k, v in os.environ.items() if k != "MONSTERBALL_PURE"}
        if pure:
            env["MONSTERBALL_PURE"] = pure
        run = subprocess.run(
            [sys.executable, "-c", GAME_DIGEST, *PRESETS],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        digests[pure] = run.stdout.split()
    assert digests[""][0] == "True" and digests["1"][0] == "False"
    assert digests[""][1] == digests["1"][1]


def _magic_from_scratch(state: MidwayState) -> tuple[int, int, int]:
    users = were = change = 0
    for p, kind in enumerate(state.roster):
        magic = state.chart.types[kind].magic if kind else ""
        users |= bool(magic) << p
        were |= (magic == "were") << p
        change |= (magic == "change") << p
    return users, were, change


def test_magic_users_follow_the_rosters_through_drafts_and_between_games() -> None:
    """MW-MAGIC-1's casters, remembered for the last rosters seen: the answer follows a
    draft that fills the rosters in place and games that alternate."""
    spec = get_game("midway")
    games = [spec.new_game(spec.options()) for _ in range(3)]
    samplers = [SeededSampler(s) for s in range(3)]
    rngs = [random.Random(s) for s in range(3)]
    checked = 0
    distinct = set()
    for _ in range(400):  # the games in turn, a few actions each (the drafts included)
        for state, sampler, rng in zip(games, samplers, rngs, strict=True):
            for _ in range(3):
                if state.is_terminal():
                    break
                if state.is_chance():
                    state.apply_unchecked(sampler.choose(state.chance_outcomes()))
                else:
                    legal = state.legal_actions()
                    state.apply_unchecked(legal[rng.randrange(len(legal))])
                assert moves.magic_users(state) == _magic_from_scratch(state)
                distinct.add(tuple(state.roster))
                checked += 1
    assert checked > 3000 and len(distinct) > 10
