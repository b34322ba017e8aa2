"""A loose ball among players (MW-FUM-2, ruling MW-R22): those occupying its hex try for it
at the end of every phase in which nobody entered it, any number may enter it, and games
between the bots end. Team A attacks north; dice are given explicitly."""

from __future__ import annotations

import pytest

from monsterball.bots.heuristic import HeuristicBot
from monsterball.bots.protocol import RandomBot, bot_seed, play_game
from monsterball.core.dice import derive_seed
from monsterball.core.game import CHANCE
from monsterball.games.midway.events.ball import RecoveryTried
from tests.helpers.midway import SPEC, act, legal, moves_of, setup, start_phase, texts, top


def loose(**options: str):
    """B1 and B2 (kickers) stand on a loose kickoff on g12; A1 is away; A moves."""
    state = setup(
        {"B1": "g12", "B2": "g12", "A1": "a5", "B3": "a20"},
        ball="g12",
        ball_state="loose",
        kind="kickoff",
        offense=1,
        los="g10",
        **options,
    )
    start_phase(state, 0)
    return state


def test_MW_FUM_2_MW_R22_occupants_roll_at_the_end_of_a_phase_nobody_entered():
    state = loose()
    events = act(state, "end")
    assert state.current_player() == CHANCE and top(state) == "RecoveryRoll"
    assert "scramble" in texts(events)[-1]
    # The ball is on the kickers' (offense's) side: B1 then B2, 2 in the hex need 1-4.
    events = act(state, "d6=5")
    assert events[-1] == RecoveryTried(10, 5, 4, 2)
    events = act(state, "d6=4")
    assert texts(events)[-1].startswith("B2 dives") and state.carrier == 11
    assert top(state) == "Phase" and state.stack[-1].team == 1  # B's phase follows


def test_MW_R22_a_missed_scramble_comes_again_every_phase():
    state = loose()
    act(state, "end", "d6=6", "d6=6")  # both miss at the end of A's phase
    assert top(state) == "Phase" and state.stack[-1].team == 1 and state.ball_state == "loose"
    act(state, "end")  # B's phase: nobody entered, so they try again
    assert top(state) == "RecoveryRoll"
    act(state, "d6=1")
    assert state.carrier == 10


def test_MW_R22_no_second_roll_in_a_phase_someone_entered():
    state = setup(
        {"A1": "g11", "B1": "g12", "B3": "a20"},
        ball="g12",
        ball_state="loose",
        los="g10",
    )
    start_phase(state, 0)
    events = act(state, "A1-g12", "d6=6", "d6=6")  # B1 first beyond the line, then A1
    assert [t.split()[0] for t in texts(events) if "dives" in t] == ["B1", "A1"]
    act(state, "end")
    assert top(state) == "Phase" and state.stack[-1].team == 1  # no scramble: they rolled


def test_MW_R22_any_number_may_enter_a_loose_balls_hex():
    players = {"A1": "g12", "A2": "g12", "A3": "g11", "B1": "g12", "B2": "g12", "B3": "a20"}
    state = setup(players, ball="g12", ball_state="loose", los="g10")
    start_phase(state, 0)
    assert "g12" in moves_of(state, "A3")
    act(state, "A3-g12")
    assert act(state, "d6=6")[-1] == RecoveryTried(10, 6, 1, 5)
    # The 0.3.0 reading: two of a team at most, and no scramble at the phase's end.
    state = setup(players, ball="g12", ball_state="loose", los="g10", loose_ball="enter")
    start_phase(state, 0)
    assert "g12" not in moves_of(state, "A3")
    act(state, "end")
    assert top(state) == "Phase" and state.stack[-1].team == 1


def test_MW_PUNT_3_MW_R22_a_blocked_punter_sits_out_the_scramble_of_his_barred_phase():
    state = setup({"A1": "g12", "B3": "a20"}, ball="g12", ball_state="loose", kind="blocked")
    state.no_recover = 0
    start_phase(state, 0)
    act(state, "end")
    assert top(state) == "Phase" and state.stack[-1].team == 1  # A1 may not try yet
    act(state, "end")
    assert top(state) == "RecoveryRoll"
    act(state, "d6=1")
    assert state.carrier == 0


def corner():
    """Game 17 of `scripts/strength.py --pairing heuristic-random` under 0.3.0: the kickers
    B1 and B3 stand on a loose kickoff on n2 in A's end zone and B holds every hex around
    it, so no receiver can reach it and no kicker may enter it."""
    players = {"B1": "n2", "B3": "n2", "B2": "m2", "B4": "n3", "B5": "n1", "B6": "m3", "A1": "c14"}
    return players, {"ball": "n2", "ball_state": "loose", "kind": "kickoff", "offense": 1}


def test_MW_R22_a_ball_walled_in_by_the_kickers_is_still_fought_for():
    players, where = corner()
    state = setup(players, los="g8", **where)
    start_phase(state, 0)
    assert not any(m.endswith("-n2") for m in legal(state))  # A cannot get there
    act(state, "end", "d6=6", "d6=6", "end")
    assert top(state) == "RecoveryRoll"
    act(state, "d6=2")  # B1 recovers in A's end zone: a touchdown for the kickers
    assert state.score[1] == 6
    # Under the 0.3.0 reading (and no MW-R23) the same position goes round for ever.
    state = setup(players, los="g8", loose_ball="enter", stall_phases=0, **where)
    start_phase(state, 0)
    for _ in range(10):
        act(state, "end")
        assert state.current_player() != CHANCE and state.ball_state == "loose"


def play(index: int, first: str, second: str) -> int:
    """Game ``index`` as scripts/strength.py played it under 0.3.0 (seats alternating; the
    heuristic without the phase planner, as it was then); its plies."""
    dice = derive_seed(0, index)
    names = (first, second) if index % 2 == 0 else (second, first)
    bots = [
        HeuristicBot(bot_seed(dice, s), plan_tries=0)
        if n == "heuristic"
        else RandomBot(bot_seed(dice, s))
        for s, n in enumerate(names)
    ]
    state, _, plies = play_game(SPEC, SPEC.options(), bots, dice, max_plies=30_000)
    assert state.is_terminal()
    return plies


@pytest.mark.parametrize("index", [17, 21])
def test_MW_R22_heuristic_against_random_games_that_stalled_now_end(index: int) -> None:
    # Under 0.3.0 both ran past 30,000 plies (a whole game takes 1,000-6,000).
    assert play(index, "heuristic", "random") < 30_000


@pytest.mark.slow
@pytest.mark.parametrize("pairing", [("heuristic", "random"), ("heuristic", "heuristic")])
def test_MW_R22_bot_games_cannot_stall(pairing: tuple[str, str]) -> None:
    for index in range(12):
        play(index, *pairing)
