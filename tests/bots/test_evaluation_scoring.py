"""Each game's evaluation wants points: a search that maximises it must score when it can.

Before the position weights (``POSITION_WEIGHT`` in the Huck + Monster and Paper Ultimate
heuristics), a point in a full-length game was worth less than the position it gave up
(the disc at the goal line with open receivers), so the hard bot, a better optimiser of the
evaluation than the heuristic bot, learned not to score and lost to it (CHANGELOG.md 0.1.0,
"A point outweighs a position"). Here, over whole heuristic-vs-heuristic games, every point
must leave the scorer's value at least as high as at any of the plies just before it.
"""

from __future__ import annotations

import pytest

from monsterball.bots.heuristic import HeuristicBot, heuristic_for
from monsterball.bots.protocol import bot_seed
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE, GameState
from monsterball.games import get_game

LOOK_BACK = 10  # plies before a point whose values the point must beat


def score_of(state: GameState) -> list[int]:
    score = state.view()["score"]
    return [int(v) for v in (score.values() if isinstance(score, dict) else score)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "preset", "seed"),
    [
        ("huck-monster", None, 5),
        ("huck-monster", None, 6),
        ("huck-monster", "small", 7),
        ("paper-ultimate", None, 3),
        ("paper-ultimate", None, 4),
        ("midway", None, 6),  # full length: the short game scores too seldom (kicks are fielded)
    ],
)
def test_scoring_raises_the_scorers_value(game: str, preset: str | None, seed: int) -> None:
    spec = get_game(game)
    options = spec.options_type.from_preset(preset) if preset else spec.options_type()
    heuristic = heuristic_for(spec)
    state = spec.new_game(options)
    bots = [HeuristicBot(bot_seed(seed, seat)) for seat in range(2)]
    sampler = SeededSampler(seed)
    recent: list[float] = []
    points = 0
    while not state.is_terminal():
        actor = state.current_player()
        before = score_of(state)
        recent = [*recent[-(LOOK_BACK - 1) :], heuristic.evaluate(state)]
        if actor == CHANCE:
            action = sampler.choose(state.chance_outcomes())
        else:
            action = bots[actor].choose(state, actor)
        state.apply_unchecked(action)
        after_score = score_of(state)
        if after_score != before:
            sign = 1.0 if after_score[0] > before[0] else -1.0
            after = sign * heuristic.evaluate(state)
            best_before = max(sign * v for v in recent)
            assert after >= best_before, (before, after_score, after, best_before)
            points += 1
    assert points >= 3  # the games score often enough for the check to bite
