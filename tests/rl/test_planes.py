"""The learning environments' fast paths against their references (issue 37): the compiled
plane composer (core/_fastgeo.pyx) against the numpy one of core/learning.py, both against
the encoder that reads only the board drawing and the view, and the games' own legal masks
(``GameFeatures.legal_mask``, from the bitboards) against the legal list, numbered."""

from __future__ import annotations

import numpy as np
import pytest

from monsterball.core import learning
from monsterball.core.game import CHANCE
from monsterball.core.learning import Marks, bits_into, numbers_into
from monsterball.games import all_games, get_game
from monsterball.rl.encode import encoder_for, legal_numbers

CASES = [("paper-ultimate", "small"), ("paper-ultimate", None), ("huck-monster", "small")]
CASES += [("midway", "short")]


def positions(game, preset, count, seed=0):
    """Decision positions of random play, every third decision."""
    spec = get_game(game)
    opts = spec.options(preset)
    rng = np.random.default_rng(seed)
    state, out, n = spec.new_game(opts), [], 0
    while len(out) < count:
        if state.is_terminal():
            state = spec.new_game(opts)
        legal = state.legal_actions()
        if state.current_player() != CHANCE:
            n += 1
            if n % 3 == 0:
                out.append(state.clone())
        state.apply(legal[int(rng.integers(len(legal)))])
    return spec, opts, out


@pytest.fixture
def numpy_composer():
    was = learning.use_compiled()
    learning.use_compiled(False)
    yield
    learning.use_compiled(was)


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_the_compiled_composer_gives_the_numpy_planes_and_the_reference(game, preset) -> None:
    spec, opts, states = positions(game, preset, 120)
    enc = encoder_for(spec, opts)
    for state in states:
        for seat in (0, 1):
            fast = enc.encode(state, seat)
            board = enc.board_values(state, seat)
            was = learning.use_compiled()
            learning.use_compiled(False)
            try:
                slow, slow_board = enc.encode(state, seat), enc.board_values(state, seat)
            finally:
                learning.use_compiled(was)
            np.testing.assert_array_equal(fast, slow)
            np.testing.assert_array_equal(board, slow_board)
            np.testing.assert_array_equal(fast, enc.reference_encode(state, seat))


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_the_games_own_masks_are_the_legal_lists_numbered(game, preset) -> None:
    spec, opts, states = positions(game, preset, 300, seed=1)
    enc = encoder_for(spec, opts)
    table = spec.action_table(opts)
    own = 0
    for state in states:
        mask = np.zeros(len(table), np.int8)
        if not enc.game.legal_mask(state, mask):
            continue
        own += 1
        want = np.zeros(len(table), np.int8)
        want[[table.encode(a) for a in state.legal_actions()]] = 1
        np.testing.assert_array_equal(mask, want)
    if game == "paper-ultimate":
        assert own > 200  # its running and throwing steps: nearly every decision


EVERY_PRESET = [
    (spec.id, preset) for spec in all_games() for preset in (None, *spec.options_type.PRESETS)
]


@pytest.mark.parametrize(("game", "preset"), EVERY_PRESET)
def test_the_env_masks_are_the_legal_lists_numbered_under_every_preset(game, preset) -> None:
    """The mask every env reads (``encode.LegalMasks``: the game's own where it writes one,
    Huck + Monster's team moves among them) is the legal list numbered, at every decision of
    random play under every preset; and ``legal_numbers`` reads it back in order."""
    spec = get_game(game)
    opts = spec.options(preset)
    masks = encoder_for(spec, opts).masks
    table = spec.action_table(opts)
    rng = np.random.default_rng(7)
    state, decisions, own = spec.new_game(opts), 0, 0
    while decisions < 400:
        if state.is_terminal():
            state = spec.new_game(opts)
        legal = state.legal_actions()
        if state.current_player() != CHANCE:
            decisions += 1
            own += masks.features.legal_mask(state, np.zeros(len(table), np.int8))
            want = sorted(table.encode(a) for a in legal)
            assert legal_numbers(masks.of(state)) == want, (state.ply, type(state.stack[-1]))
        state.apply(legal[int(rng.integers(len(legal)))])
    if game != "midway":
        assert own > 30  # the game's own masks answered for many of the decisions


def test_bits_and_numbers_into_a_mask_agree_with_numpy(numpy_composer) -> None:
    rng = np.random.default_rng(3)
    table = get_game("paper-ultimate").action_table(get_game("paper-ultimate").options())
    by_id = {id(a): i for i, a in enumerate(table.actions)}
    for _ in range(50):
        mask = int(rng.integers(0, 2**62)) << int(rng.integers(0, 300))
        offset = int(rng.integers(0, 20))
        size = offset + mask.bit_length() + int(rng.integers(0, 5))
        outs = []
        for compiled in (False, True):
            learning.use_compiled(compiled)
            out = np.zeros(size, np.int8)
            bits_into(out, offset, mask)
            outs.append(out)
        np.testing.assert_array_equal(*outs)
        assert np.flatnonzero(outs[0]).tolist() == [
            offset + i for i in range(mask.bit_length()) if mask >> i & 1
        ]
        legal = [table.actions[i] for i in rng.choice(len(table), 30, replace=False)]
        outs = []
        for compiled in (False, True):
            learning.use_compiled(compiled)
            out = np.zeros(len(table), np.int8)
            assert numbers_into(out, legal, by_id) == []
            outs.append(out)
        np.testing.assert_array_equal(*outs)


def test_the_compiled_composer_refuses_an_index_outside_the_planes() -> None:
    if not learning.use_compiled():
        pytest.skip("compiled kernels not built")
    template = np.zeros((3, 10), np.float32)
    out = np.empty((4, 10), np.float32)
    marks = Marks()
    marks.ones.append(30)  # one past the board planes
    with pytest.raises(IndexError, match="outside the board planes"):
        learning.compose_full(out, template, marks, np.ones(3, np.float32), [0.5])
