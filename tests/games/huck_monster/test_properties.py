"""Huck + Monster invariants over random legal play (hypothesis): every preset and random
option combinations. Each game is driven by a seeded random policy and seeded dice."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monsterball.core.dice import SeededSampler
from monsterball.core.geometry import iter_bits
from monsterball.games.huck_monster import HuckMonsterOptions, HuckMonsterState
from tests.helpers.huck_monster import SPEC

PRESETS = sorted(HuckMonsterOptions.PRESETS)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SETTLED = (
    "SetUp", "PlaceTheDisc", "StartPoint", "ChooseOffense", "ChooseGameStyle", "ConePushSetUp",
)  # fmt: skip
PLAYERS = {"hot-hex": 10, "cone-push": 2}


def check_invariants(state: HuckMonsterState, previous_score: list[int]) -> None:
    placed = [c for c in state.pos if c >= 0]
    assert len(placed) == len(set(placed)), "two players on one space"
    if state.stack and type(state.stack[-1]).__name__ not in SETTLED:
        fielded = sorted([*state.roster(0), *state.roster(1)])
        on_field = [p for p, c in enumerate(state.pos) if c >= 0]
        assert on_field == fielded, "the point's players (7, 5 in Hot Hex, 1) are all placed"
        assert len(placed) == PLAYERS.get(state.style, 14)
        # In Cone Push "Disc returns to player after each throw": never on the field.
        assert (state.disc >= 0) == (state.style != "cone-push"), "one disc on the field"
    if state.style == "cone-push":
        cones = bin(state.cones).count("1") + sum(n - 1 for n in state.cone_stacks.values())
        scored_back = sum(state.score)
        assert cones <= 7 and cones + scored_back >= 7, "7 cones, less those not yet put back"
        assert not state.cones & state.any_end_zone(), "a cone in an end zone has scored"
    if state.disc >= 0:
        assert state.disc not in placed, "the disc shares a space with a player"
    assert state.occupied[0] & state.occupied[1] == 0
    assert sorted(placed) == sorted(iter_bits(state.occupied[0] | state.occupied[1]))
    if state.holder >= 0:
        assert state.holder // 7 == state.offense
        assert state.field.neighbour_mask[state.disc] >> state.pos[state.holder] & 1
    assert all(s >= p for s, p in zip(state.score, previous_score, strict=True))
    # One point at a time; in Cone Push a stack scores all its cones at once.
    assert sum(state.score) - sum(previous_score) <= (7 if state.style == "cone-push" else 1)


def random_game(
    options: HuckMonsterOptions, seed: int, *, check_every: int = 1, max_plies: int = 60_000
) -> HuckMonsterState:
    state = SPEC.new_game(options)
    assert isinstance(state, HuckMonsterState)
    policy = random.Random(seed)
    dice = SeededSampler(seed)
    score = list(state.score)
    for ply in range(max_plies):
        if state.is_terminal():
            return state
        if state.is_chance():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            action = dice.choose(outcomes)
        else:
            actions = state.legal_actions()
            assert actions, f"no legal action during {state.stack[-1].describe()}"
            action = policy.choice(actions)
            if ply % check_every == 0:
                for other in actions:
                    state.check(other)
        state.apply(action)
        check_invariants(state, score)
        score = list(state.score)
        if ply % (check_every * 25) == 0:
            again = SPEC.from_position(json.loads(json.dumps(state.to_position())))
            assert again == state and again.legal_actions() == state.legal_actions()
    raise AssertionError(f"game did not end in {max_plies} plies")


def capped(options: HuckMonsterOptions, up_calls: int) -> HuckMonsterOptions:
    return options if options.max_up_calls else options.replace(max_up_calls=up_calls)


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=SEEDS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_play_keeps_the_invariants_in_every_preset(preset: str, seed: int) -> None:
    state = random_game(capped(SPEC.options(preset), 8), seed, check_every=5)  # type: ignore[arg-type]
    assert state.is_terminal() and state.winner in (0, 1, 2)


def option_sets(draw: Any) -> HuckMonsterOptions:
    depth = draw(st.integers(1, 4))
    mini = draw(st.sampled_from([{}, {"potholes": True}, {"hot_hex": True}, {"cone_push": True}]))
    opts = SPEC.options(
        grid=draw(st.sampled_from(["hex", "square"])),
        width=draw(st.integers(8, 11)),
        end_zone_depth=depth,
        length=draw(st.integers(max(11, 2 * depth + 5), 2 * depth + 14)),
        points_to_win=draw(st.integers(1, 3)),
        win_by=draw(st.integers(1, 2)),
        strategy_dice=draw(st.booleans()),
        ties=draw(st.sampled_from(["offense", "defense"])),
        throw_path=draw(st.sampled_from(["open", "straight"])),
        pickup=draw(st.sampled_from(["strict", "free"])),
        first_offense=draw(st.sampled_from(["A", "B", "toss"])),
        coach_rotation=draw(st.sampled_from(["rulebook", "every-action"])),
        max_up_calls=draw(st.integers(1, 10)),
        strategy_equipment=draw(st.sampled_from(["dice", "pin", "game-disc"])),
        team_pins=draw(st.booleans()),
        stealth_spaces=draw(st.booleans()),
        all_stars=draw(st.booleans()),
        **mini,
        # Cone Push is a match of its own, never a point's style (HM-R53).
        style_each_point=draw(st.booleans()) and "cone_push" not in mini,
        callahans=draw(st.booleans()),
        handler_pivot=draw(st.booleans()),
        rethrow=draw(st.sampled_from(["off", "uncontested", "any"])),
        double_team=draw(st.booleans()),
        beaten_defenders=draw(st.booleans()),
        continues=draw(st.sampled_from(["off", "one-die", "rethrow"])),
        contested_count=draw(st.booleans()),
        expert_disabled=draw(st.sampled_from(["", "huck", "no-big,pin-doink"])),
    )
    assert isinstance(opts, HuckMonsterOptions)
    return opts


@pytest.mark.slow
@given(data=st.data(), seed=SEEDS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_option_combinations_keep_the_invariants(data: st.DataObject, seed: int) -> None:
    options = option_sets(data.draw)
    state = random_game(options, seed, check_every=5)
    assert state.up_calls <= options.max_up_calls


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["starting-7", "scrimmage", "small"])
def test_uncapped_games_end_with_a_winner(preset: str) -> None:
    for seed in range(3):
        state = random_game(SPEC.options(preset), seed, check_every=50)  # type: ignore[arg-type]
        target = state.options.points_to_win
        assert max(state.score) >= target and state.winner in (0, 1)
        assert abs(state.score[0] - state.score[1]) >= state.options.win_by


def test_same_seed_same_game_byte_for_byte() -> None:
    one = random_game(SPEC.options("small", max_up_calls=15), 7, check_every=50)  # type: ignore[arg-type]
    two = random_game(SPEC.options("small", max_up_calls=15), 7, check_every=50)  # type: ignore[arg-type]
    assert one.to_position() == two.to_position()
    assert one.state_hash() == two.state_hash()


def test_clones_are_independent() -> None:
    state = SPEC.new_game(SPEC.options("small"))
    policy, dice = random.Random(3), SeededSampler(3)
    for _ in range(300):
        action = (
            dice.choose(state.chance_outcomes())
            if state.is_chance()
            else policy.choice(state.legal_actions())
        )
        before = state.to_position()
        copy = state.clone()
        copy.apply(action)
        assert state.to_position() == before
        state.apply(action)
        assert copy.to_position() == state.to_position()
