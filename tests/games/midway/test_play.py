"""Monsters of the Midway through the whole contract: random-play invariants over every
preset (hypothesis), notation and position round trips, determinism, records, bad input,
legal-action counts from fixed positions, and the terminal (a whole game, saved, replayed).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from monsterball.bots.protocol import bot_seed, play_game
from monsterball.bots.registry import make_bot
from monsterball.cli import app
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import (
    IllegalActionError,
    MonsterballError,
    NotationError,
    PositionError,
    WrongSeatError,
)
from monsterball.core.game import CHANCE, GameState
from monsterball.core.record import Recorder, read_record, replay
from monsterball.games.midway import MidwayOptions, MidwayState
from monsterball.games.midway.events.lineup import (
    ConversionLinedUp,
    KickoffLinedUp,
    ScrimmageLinedUp,
)
from tests.helpers.midway import SPEC, act, legal, setup, start_phase, top

PRESETS = sorted(MidwayOptions.PRESETS)
# Short games for the fast run: few plays, capped phases.
SHORT = {"plays": 3, "max_phases": 14}


def random_game(options, seed: int, check_every: int = 0, max_plies: int = 100_000):
    """Play a seeded random game, checking the invariants after every action."""
    state = SPEC.new_game(options)
    assert isinstance(state, MidwayState)
    rng = random.Random(seed)
    dice = SeededSampler(seed)
    plays_seen = [0]
    for ply in range(max_plies):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            action = dice.choose(outcomes)
        else:
            options_now = state.legal_actions()
            assert options_now, f"no legal action at {top(state)}"
            action = options_now[rng.randrange(len(options_now))]
            if check_every and ply % check_every == 0:
                state.check(action)
        before_down = state.down
        state.apply_unchecked(action)
        check_invariants(state, before_down, plays_seen)
    else:
        pytest.fail(f"game with seed {seed} did not end in {max_plies} plies")
    return state


def check_invariants(state: MidwayState, before_down: int, plays_seen: list[int]) -> None:
    for team in (0, 1):
        on = state.on_field(team)
        assert len(on) <= 6, "at most 6 players per side on the field"
        per_hex = Counter(state.pos[p] for p in on)
        assert max(per_hex.values(), default=0) <= 2
    # The ball is in exactly one place: with its carrier, or loose / in the air on a hex.
    if state.carrier >= 0:
        assert state.ball == state.pos[state.carrier] >= 0
        assert state.ball_state == "held"
    if state.ball_state in ("loose", "pass", "kick", "punt"):
        assert state.carrier < 0 and state.ball >= 0
    assert 1 <= state.down <= 4
    assert state.plays >= plays_seen[0] and state.plays <= state.options.plays
    plays_seen[0] = state.plays
    top_step = type(state.stack[-1]).__name__ if state.stack else ""
    if top_step == "SnapStep" or top_step == "KickoffKick":
        # At the snap or the kick both sides have six on the field (if six are fit).
        for team in (0, 1):
            fit = sum(1 for p in range(team * 10, team * 10 + 10) if state.available(p))
            assert len(state.on_field(team)) == min(6, fit)


# -- random play --------------------------------------------------------------------------------


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10_000))
def test_random_play_invariants_over_presets(preset: str, seed: int) -> None:
    options = SPEC.options(preset, **SHORT)
    state = random_game(options, seed, check_every=13)
    assert state.is_terminal() and state.plays == 3
    assert state.winner in (0, 1, 2)
    a, b = state.score
    assert state.returns() == ((1.0, -1.0) if a > b else (-1.0, 1.0) if b > a else (0.0, 0.0))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_full_25_play_games_end_after_25_plays(seed: int) -> None:
    state = random_game(SPEC.options(), seed)
    assert state.is_terminal() and state.plays == 25


LINE_UPS = {
    ScrimmageLinedUp: "scrimmage",
    KickoffLinedUp: "kickoff",
    ConversionLinedUp: "conversion",
}


def test_downs_and_plays_are_counted_through_a_game() -> None:
    """At the start of every play: the play count grew by one (conversions excepted), a new
    offense starts on first down, the same offense without a score is one down further,
    and a fourth down without a score hands the ball over."""
    starts = []
    for seed in range(4):
        state = SPEC.new_game(SPEC.options("exhibition", plays=12, max_phases=14))
        rng, dice = random.Random(seed), SeededSampler(seed)
        previous = None
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                events = state.apply(dice.choose(state.chance_outcomes()))
            else:
                events = state.apply(rng.choice(state.legal_actions()))
            for e in events:
                kind_now = LINE_UPS.get(type(e))
                if kind_now is None:
                    continue
                now = (kind_now, state.plays, state.offense, state.down, tuple(state.score))
                starts.append(now)
                if previous is not None and kind_now != "conversion":
                    kind, plays, offense, down, score = previous
                    assert state.plays == plays + 1, (previous, now)
                    if kind_now == "scrimmage" and kind == "scrimmage":
                        if state.offense != offense:
                            assert state.down == 1
                        elif tuple(state.score) == score:
                            assert state.down == down + 1 <= 4, (previous, now)
                if kind_now != "conversion":
                    previous = now
        assert state.plays == 12
    assert len(starts) > 40
    assert any(s[3] == 4 for s in starts)  # fourth downs did happen


# -- round trips --------------------------------------------------------------------------------


def test_every_action_notation_round_trips_and_numbers_are_stable() -> None:
    table = SPEC.action_table(SPEC.options())
    assert len(table) > 20_000
    for number, action in enumerate(table.actions):
        text = action.notation()
        assert SPEC.parse_action(text) == action, text
        assert SPEC.parse_action(f"  {text.upper()}  ") == action or "=" in text
        assert table.encode(action) == number
    again = SPEC.action_table(SPEC.options("compass"))
    assert again.actions == table.actions


@pytest.mark.parametrize("preset", PRESETS)
def test_positions_round_trip_mid_game(preset: str) -> None:
    state = SPEC.new_game(SPEC.options(preset, **SHORT))
    rng, dice = random.Random(3), SeededSampler(3)
    for ply in range(600):
        if state.is_terminal():
            break
        if ply % 37 == 0:
            data = json.loads(json.dumps(state.to_position()))
            copy = SPEC.from_position(data)
            assert copy == state and copy.state_hash() == state.state_hash()
            assert {a.notation() for a in copy.legal_actions()} == legal(state)
            assert state.clone() == state
        if state.current_player() == CHANCE:
            state.apply(dice.choose(state.chance_outcomes()))
        else:
            state.apply(rng.choice(state.legal_actions()))


def test_same_seed_same_game_byte_for_byte() -> None:
    hashes = set()
    for _ in range(2):
        bots = [make_bot("random", bot_seed(9, s)) for s in (0, 1)]
        state, record, _ = play_game(SPEC, SPEC.options("short"), bots, seed=9, record=True)
        assert record is not None
        hashes.add((state.state_hash(), record.to_text()))
    assert len(hashes) == 1


def test_records_replay_and_verify() -> None:
    bots = [make_bot("random", bot_seed(4, s)) for s in (0, 1)]
    _, record, _ = play_game(SPEC, SPEC.options("exhibition"), bots, seed=4, record=True)
    assert record is not None
    report = replay(record, verify=True)
    assert report.ok and report.state.is_terminal()


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "A11-g5",
        "C1-g5",
        "A1-z9",
        "A1@",
        "pass",
        "pass q99",
        "tackle B1",
        "cast A1 fireball",
        "shift up",
        "hand",
        "draft",
        "d6",
        "snap X3",
        "kick 12",
    ],
)
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        SPEC.parse_action(text)


def test_illegal_actions_raise_and_leave_the_state_unchanged() -> None:
    """Random actions from the whole table, tried at many points of random games: each is
    either legal (and then in legal_actions) or refused with a reason and no change."""
    table = SPEC.action_table(SPEC.options())
    rng = random.Random(11)
    dice = SeededSampler(11)
    state = SPEC.new_game(SPEC.options("exhibition", **SHORT))
    tried = refused = 0
    for ply in range(3000):
        if state.is_terminal():
            break
        if ply % 3 == 0:
            legal_now = set(state.legal_actions())
            before = state.state_hash()
            for _ in range(6):
                action = table.actions[rng.randrange(len(table))]
                tried += 1
                try:
                    state.check(action)
                except IllegalActionError as exc:
                    refused += 1
                    assert str(exc)
                    assert action not in legal_now, f"{action} is listed but refused: {exc}"
                    continue
                assert action in legal_now, f"{action} passes check but is not listed"
            for action in list(legal_now)[:10]:
                state.check(action)
            assert state.state_hash() == before
        if state.current_player() == CHANCE:
            state.apply(dice.choose(state.chance_outcomes()))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert tried > 500 and refused > 400


def test_wrong_seat_and_off_field_hexes() -> None:
    state = setup({"A1": "g10", "B1": "i12"}, carrier="A1", los="g10")
    start_phase(state, 0)
    before = state.state_hash()
    with pytest.raises(WrongSeatError):
        state.apply(SPEC.parse_action("end"), seat=1)
    with pytest.raises(IllegalActionError, match="not a cell"):
        act(state, "A1-n30")
    with pytest.raises(IllegalActionError, match="not in team A"):
        act(state, "B1-i11")
    with pytest.raises(IllegalActionError, match="one hex at a time"):
        act(state, "A1-g12")
    assert state.state_hash() == before


def test_bad_positions_are_refused() -> None:
    state = setup({"A1": "g10", "B1": "i12"}, carrier="A1", los="g10")
    start_phase(state, 0)
    data = state.to_position()
    for field, value in (("pos", [1] * 3), ("ball", 9999), ("carrier", 55), ("roster", ["x"] * 20)):
        bad = json.loads(json.dumps(data))
        bad["board"][field] = value
        with pytest.raises(PositionError):
            SPEC.from_position(bad)
    for field, value, reason in (
        ("down", 5, "down"),
        ("plays", 99, "plays"),
        ("score", [1], "score"),
        ("pos", data["board"]["pos"][:1] + [1, 2, 3, 4, 5, 6] + [-1] * 13, "more than 6"),
    ):
        bad = json.loads(json.dumps(data))
        bad["board"][field] = value
        with pytest.raises(PositionError, match=reason):
            SPEC.from_position(bad)
    bad = json.loads(json.dumps(data))
    bad["board"]["ball"] = 3  # not on the carrier's hex
    with pytest.raises(PositionError, match="carrier"):
        SPEC.from_position(bad)
    assert isinstance(PositionError("x"), MonsterballError)


# -- legal-action counts from fixed positions ---------------------------------------------------


def test_counts_from_fixed_positions() -> None:
    state = setup({"A1": "g10", "B1": "i12", "B2": "a20"}, carrier="A1", los="g10")
    start_phase(state, 0)
    counts = Counter(a.split()[0] if " " in a else a.split("-")[0] for a in legal(state))
    # The carrier: 6 steps; a pass to every hex within range 4 of g10 (60 hexes); end.
    assert counts["A1"] == 6 and counts["pass"] == 60 and counts["end"] == 1
    assert sum(counts.values()) == 67
    # A kickoff from the 40 without halfling or wind: 13 path ends and 'onside'.
    state = SPEC.new_game(SPEC.options("exhibition"))
    act(state, "toss=A", "south", "receive", "A1@g9", "auto", "auto")
    assert len(legal(state)) == 13 + 1
    # Coin toss choices (receive or an end zone, ruling MW-R31), then the other coach's two.
    state = SPEC.new_game(SPEC.options("exhibition"))
    act(state, "toss=B")
    assert len(legal(state)) == 3
    act(state, "receive")
    assert len(legal(state)) == 2
    # The draft: every chart type is affordable at first, plus random and best.
    state = SPEC.new_game(SPEC.options())
    assert len(legal(state)) == len(state.chart.types) + 2


# -- the terminal -------------------------------------------------------------------------------


def invoke(*args: str, input: str | None = None):
    result = CliRunner().invoke(app, list(args), input=input, env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def scripted_game(seed: int, bots, options) -> tuple[list[str], GameState]:
    state = SPEC.new_game(options)
    sampler = SeededSampler(seed)
    rng = random.Random(seed)
    lines = []
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            action = sampler.choose(state.chance_outcomes())
        elif actor in bots:
            action = bots[actor].choose(state, actor)
        else:
            choices = state.legal_actions()
            action = choices[rng.randrange(len(choices))]
            if len(choices) > 1:
                lines.append(action.notation())
        state.apply(action)
    return lines, state


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hotseat", "vs-bot"])
def test_a_whole_midway_game_in_the_terminal(tmp_path: Path, mode: str) -> None:
    seed = 33
    opts = ["--preset", "short", "--opt", "plays=2"]
    options = SPEC.options("short", plays=2)
    if mode == "hotseat":
        bots: dict = {}
        extra = ["--hotseat"]
    else:
        bots = {1: make_bot("random", bot_seed(seed, 1))}
        extra = ["--bot", "random", "--seat", "A"]
    lines, final = scripted_game(seed, bots, options)
    save = tmp_path / "game.jsonl"
    result = invoke(
        "play",
        "midway",
        "--seed",
        str(seed),
        "--save",
        str(save),
        *opts,
        *extra,
        input="".join(line + "\n" for line in lines),
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert f"Result: {final.result_text()}" in result.output
    assert "Not allowed" not in result.output and "Cannot read" not in result.output
    assert "Draft chart" in result.output
    record = read_record(save)
    assert record.end is not None and record.end["hash"] == final.state_hash()
    replayed = invoke("replay", str(save), "--verify")
    assert replayed.exit_code == 0 and "verified" in replayed.output


def test_rules_and_games_list_midway() -> None:
    result = invoke("games")
    assert "midway" in result.output and "Monsters of the Midway" in result.output
    result = invoke("rules", "motm")
    assert result.exit_code == 0
    for text in ("MW-R3", "compass", "exhibition", "max_phases"):
        assert text in result.output


def test_recorder_keeps_secret_choices_whole() -> None:
    """The record stores the truth (the real counter's hex); only the public text hides it."""
    state = setup({"A1": "g12", "B1": "g16"}, types={"A1": "brownie"}, carrier="A1", los="g10")
    start_phase(state, 0)
    recorder = Recorder(state, seed=1, players={"A": "human", "B": "human"})
    for text in ("cast A1 mirror", "d6=2", "image h12", "real h12"):
        recorder.apply(SPEC.parse_action(text))
    assert [a.action for a in recorder.record.actions][-1] == "real h12"


@pytest.mark.slow
def test_a_whole_25_play_game_with_the_draft_against_the_bot(tmp_path: Path) -> None:
    seed = 7
    options = SPEC.options()
    bots = {1: make_bot("random", bot_seed(seed, 1))}
    lines, final = scripted_game(seed, bots, options)
    save = tmp_path / "full.jsonl"
    result = invoke(
        "play",
        "midway",
        "--seed",
        str(seed),
        "--save",
        str(save),
        "--bot",
        "random",
        input="".join(line + "\n" for line in lines),
    )
    assert result.exit_code == 0
    assert f"Result: {final.result_text()}" in result.output
    assert final.plays == 25
    assert invoke("replay", str(save), "--verify").exit_code == 0


def test_saved_rosters_are_read_from_files(tmp_path: Path) -> None:
    roster = tmp_path / "orcs.txt"
    roster.write_text("orc, orc, orc, orc, orc,\nbugbear, bugbear, goblin, goblin, kobold\n")
    result = invoke(
        "play",
        "midway",
        "--opt",
        f"roster_a=@{roster}",
        "--opt",
        f"roster_b=@{roster}",
        "--seed",
        "3",
        input="quit\n",
    )
    assert result.exit_code == 0
    assert "Draft chart" not in result.output and "A1 orc M2" in result.output
    missing = invoke("play", "midway", "--opt", f"roster_a=@{tmp_path / 'nope.txt'}")
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_refusals_say_why() -> None:
    state = setup(
        {"A1": "g8", "A2": "f10", "A4": "c8", "B1": "i14", "B2": "a20"},
        carrier="A1",
        los="g10",
        linemen=("A2",),
    )
    start_phase(state, 0)
    with pytest.raises(IllegalActionError, match="out of A1's range of 4"):
        act(state, "pass g20")
    with pytest.raises(IllegalActionError, match="not a teammate next to"):
        act(state, "hand A4")
    with pytest.raises(IllegalActionError, match="snap receiver"):
        act(state, "punt g12")
    act(state, "A2-f11")
    with pytest.raises(IllegalActionError, match="at the start of the phase"):
        act(state, "pass g11")
    state.roster[0] = "bugbear"
    with pytest.raises(IllegalActionError, match="a bugbear may not throw"):
        state.stack = (*state.stack[:-1], type(state.stack[-1])(0, state.stack[-1].left, 0))
        act(state, "pass g11")
