"""The bot interface, the random bot and the bot game loop."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monsterball.bots.protocol import Bot, RandomBot, bot_seed, play_game
from monsterball.bots.registry import BOTS, make_bot
from monsterball.core.actions import Action
from monsterball.core.game import GameState
from monsterball.core.record import read_record, replay
from monsterball.games import get_game

SPEC = get_game("paper-ultimate")
# A small pitch and a throw cap keep every game here to a few hundred plies.
OPTIONS = SPEC.options("small", max_throws=6)


def random_bots(seed: int) -> list[Bot]:
    return [make_bot("random", bot_seed(seed, seat)) for seat in range(SPEC.num_seats)]


def test_random_bot_is_reproducible_and_legal() -> None:
    state = SPEC.new_game(OPTIONS)
    while state.is_chance():
        state.apply(state.legal_actions()[0])
    seat = state.current_player()
    first = [RandomBot(5).choose(state, seat) for _ in range(3)]
    bot_a, bot_b = RandomBot(5), RandomBot(5)
    picks_a = [bot_a.choose(state, seat) for _ in range(20)]
    picks_b = [bot_b.choose(state, seat) for _ in range(20)]
    assert picks_a == picks_b
    assert len(set(first)) == 1  # a fresh bot with the same seed makes the same first pick
    legal = state.legal_actions()
    assert all(a in legal for a in picks_a)
    assert len(set(picks_a)) > 1  # it does explore


def test_random_bot_leaves_global_random_alone() -> None:
    random.seed(1234)
    before = random.getstate()
    state, _, _ = play_game(SPEC, OPTIONS, random_bots(3), seed=3)
    assert state.is_terminal()
    assert random.getstate() == before


def test_make_bot() -> None:
    bot = make_bot(" Random ", 7)
    assert isinstance(bot, RandomBot)
    assert bot.name == "random"
    assert "random" in BOTS
    with pytest.raises(
        ValueError, match="unknown bot 'alphazero'; known bots: heuristic, mcts, random"
    ):
        make_bot("alphazero", 1)


def test_play_game_is_deterministic() -> None:
    one, _, plies_one = play_game(SPEC, OPTIONS, random_bots(11), seed=11)
    two, _, plies_two = play_game(SPEC, OPTIONS, random_bots(11), seed=11)
    assert one.is_terminal()
    assert plies_one == plies_two == one.ply
    assert one.state_hash() == two.state_hash()
    other, _, _ = play_game(SPEC, OPTIONS, random_bots(12), seed=12)
    assert other.state_hash() != one.state_hash()


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_recorded_games_replay_exactly(seed: int) -> None:
    state, record, plies = play_game(SPEC, OPTIONS, random_bots(seed), seed, record=True)
    assert record is not None
    assert record.end is not None and record.end["plies"] == plies == len(record.actions)
    assert record.players == {"A": "random", "B": "random"}
    report = replay(read_record(record.to_text()), verify=True)
    assert report.ok, report.divergence
    assert report.state.state_hash() == state.state_hash()


def test_play_game_without_record_returns_none() -> None:
    _, record, _ = play_game(SPEC, OPTIONS, random_bots(1), seed=1)
    assert record is None


class FirstBot:
    """A minimal bot written against the protocol; remembers which seats it was asked for."""

    name = "first"

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    def choose(self, state: GameState, seat: int) -> Action:
        self.asked.append((seat, state.current_player()))
        return state.legal_actions()[0]


def test_bots_are_asked_for_their_own_seat() -> None:
    bots = [FirstBot(), FirstBot()]
    play_game(SPEC, OPTIONS, bots, seed=2)
    for index, bot in enumerate(bots):
        assert bot.asked, "each seat acts at least once"
        assert all(seat == actor == index for seat, actor in bot.asked)


def test_max_plies_guards_against_endless_games() -> None:
    with pytest.raises(RuntimeError, match="did not end within 10 plies"):
        play_game(SPEC, OPTIONS, random_bots(1), seed=1, max_plies=10)


def test_wrong_number_of_bots() -> None:
    with pytest.raises(ValueError, match="needs 2 bots, got 1"):
        play_game(SPEC, OPTIONS, [RandomBot(1)], seed=1)
