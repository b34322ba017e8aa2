"""Midway's evaluation near the end of a game and on the conversion (bots versions 3 and
4): a side whose result is settled still plays for the score, a 2-point try is worth its
points and no more, a good kick raises the scorer's value, and a finished game is valued
by its result and then its score.

Game 73 of the hard-vs-heuristic strength run stalled: the heuristic trailed 6 - 21 on its
own 2-point try in the last play. Scoring ended the game at exactly -1, standing still was
valued a hair above it, and the carrier stood for good (no rule ends such a play,
MW-SCORE-5 counts a conversion as no play).
"""

from __future__ import annotations

import pytest

from monsterball.bots.heuristic import HeuristicBot, heuristic_for
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE
from monsterball.games.midway.analysis import heuristic
from monsterball.games.midway.rules.settle import AfterConversion, Conversion
from monsterball.games.midway.state import NOBODY, MidwayState
from tests.helpers.midway import SPEC, act, play_out_conversion, setup, start_phase

SEEDS = range(4)


def two_point_try(score: tuple[int, int], plays: int, defender: str = "b10") -> MidwayState:
    """A's 2-point try, A1 carrying on g20 (a step from B's end zone), B1 on ``defender``;
    ``plays`` of the game's 25 counted; A's phase starts, and the conversion ends in
    A's kickoff or, after the last play, the final whistle."""
    state = setup({"A1": "g20", "B1": defender}, carrier="A1", kind="conversion", offense=0)
    state.score = list(score)
    state.plays = plays
    state = start_phase(state, 0)
    state.stack = (AfterConversion(0), *state.stack)
    return state


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("defender", ["b10", "g17"])
def test_a_side_that_has_lost_either_way_still_scores_its_conversion(
    seed: int, defender: str
) -> None:
    # 6 - 21 in the last play: the two points cannot change the result (MW-GEN-4), yet
    # the carrier a step from the end zone goes in and the game ends 8 - 21.
    state = two_point_try((6, 21), 25, defender)
    assert play_out_conversion(state, seed) == [8, 21]
    assert state.is_terminal() and state.winner == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_a_carrier_scores_a_two_point_try_in_mid_game(seed: int) -> None:
    # Valued as a drive (four downs on the 5), the ball was worth more than the two points
    # and the kickoff that follows: the carrier stood until he was tackled.
    state = two_point_try((6, 21), 20)
    assert play_out_conversion(state, seed) == [8, 21]
    assert state.kind == "kickoff"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 5])  # games with touchdowns (bots version 6 tackle)
def test_the_bots_kick_the_extra_point_in_mid_game(seed: int) -> None:
    # MW-SCORE-2/3: a kick is good on 1 - 5 of a d6 (automatic for a halfling); a 2-point
    # try has to carry the ball in past a full defense. Valued as a drive the try looked
    # better than the kick, and the bots went for two after every touchdown (and made
    # none: 0 of 7 in six games). Heuristic bots play a whole game; each conversion choice
    # before the last few plays is a kick.
    state = SPEC.new_game(SPEC.options())
    bots = [HeuristicBot(seed), HeuristicBot(seed + 7)]
    dice = SeededSampler(100 + seed)
    choices = []
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            state.apply(dice.choose(state.chance_outcomes()))
            continue
        action = bots[actor].choose(state, actor)
        if isinstance(state.stack[-1], Conversion) and state.plays < 20:
            choices.append(action.notation())
        state.apply(action)
    assert choices and all(c.startswith("pat ") for c in choices), choices


def test_a_good_extra_point_raises_the_scorers_value() -> None:
    # Between the touchdown and the kick the ball lay in the end zone, valued as a drive
    # at the goal line: more than the kick's point and the kickoff after it, so a good
    # kick (MW-SCORE-2) lowered A's value (tests/bots/test_evaluation_scoring.py caught it).
    state = setup({"A1": "g23", "B1": "b10"}, carrier="A1")
    state.score = [12, 0]
    state.plays = 5
    state.stack = (Conversion(0),)
    state._settle()
    pending = heuristic.evaluate(state)
    act(state, "pat A1", "d6=1", "no")  # good, and B does not try to block it
    assert state.score == [13, 0] and state.kind == "kickoff"
    assert heuristic.evaluate(state) > pending


def test_a_result_is_sure_only_when_no_score_left_can_change_it() -> None:
    state = setup({"A1": "g20", "B1": "b10"}, carrier="A1", kind="conversion", offense=0)
    state.plays = 25
    state.score = [6, 9]  # A's try in the last play: two points cannot catch up three
    assert heuristic._sure_winner(state) == 1
    state.score = [6, 8]  # ... but can draw level
    assert heuristic._sure_winner(state) == NOBODY
    state.offense = 1  # B's try: A cannot score on it (MW-SCORE-5: a recovery ends it)
    state.score = [6, 7]
    assert heuristic._sure_winner(state) == 1
    state.kind = "scrimmage"
    state.plays = 24  # this play and one more: 8 points each
    state.score = [0, 16]
    assert heuristic._sure_winner(state) == NOBODY
    state.score = [0, 17]
    assert heuristic._sure_winner(state) == 1
    state.score = [5, 5]
    assert heuristic._sure_winner(state) == NOBODY


def test_a_finished_game_is_valued_by_its_result_then_its_score() -> None:
    h = heuristic_for(SPEC)
    assert h.final is heuristic.final
    values = []
    for score in ((6, 21), (8, 21), (21, 20), (28, 0)):
        state = setup({"A1": "g20", "B1": "b10"})
        state.plays = 25
        state.score = list(score)
        state.winner = 0 if score[0] > score[1] else 1
        state.stack = ()
        assert state.is_terminal()
        values.append(h.value(state, 0))
        assert h.value(state, 1) == -values[-1]
    assert values == sorted(values) and len(set(values)) == 4
    assert -1 <= values[0] < -0.99999 and 0.99999 < values[-1] <= 1
    # Any unsettled position is worth more to the loser than a finished loss: a loss by
    # 13 is still above -1 + TIE - 1e-12 ... and below every position not yet lost.
    unsettled = two_point_try((20, 21), 24)
    assert heuristic._sure_winner(unsettled) == NOBODY
    assert values[1] < h.value(unsettled, 0) < values[2]
