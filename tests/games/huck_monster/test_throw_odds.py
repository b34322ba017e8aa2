"""The catch odds shown while aiming (issue 14) count exactly the bids the engine then asks
for: over random play, every aimed throw's Up Call is run with random dice and the bids met,
role by role and in order, must be a prefix of (the whole, when the disc is caught) what
:func:`throw_odds.setup_for` counted (HM-MARK-3, HM-R9, HM-BEAT-1, HM-CATCH-3, HM-CHAL-1)."""

from __future__ import annotations

import random

import monsterball.games  # noqa: F401  (registers the games)
from monsterball.core.game import CHANCE
from monsterball.games import get_game
from monsterball.games.huck_monster.actions import ThrowTo
from monsterball.games.huck_monster.analysis.odds import catch_probability
from monsterball.games.huck_monster.analysis.throw_odds import aiming_count, setup_for, throw_odds
from monsterball.games.huck_monster.rules.bid import Bid
from monsterball.games.huck_monster.rules.upcall import UpCall


def play_out_up_call(state, rng: random.Random) -> list[str]:
    """Bids met (roles, in order) until the Up Call ends."""
    roles: list[str] = []
    seen: set[int] = set()
    while not state.is_terminal() and any(isinstance(p, UpCall) for p in state.stack):
        top = state.stack[-1]
        if isinstance(top, Bid) and top.player not in seen:
            seen.add(top.player)
            roles.append(top.role)
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_unchecked(action)
    return roles


def test_aimed_throws_meet_the_bidders_the_odds_count():
    spec = get_game("huck-monster")
    rng = random.Random(5)
    checked = caught = 0
    for game in range(6):
        state = spec.new_game(spec.options("basic"))  # no strategy dice: the odds are exact
        for _ in range(3000):
            if state.is_terminal() or checked >= 60:
                break
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                action = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
                state.apply_unchecked(action)
                continue
            count = aiming_count(state)
            if count is not None:
                throws = [a for a in state.legal_actions() if isinstance(a, ThrowTo)]
                throw = rng.choice(throws)
                setup = setup_for(state, throw, count)
                expected = (
                    ["mark"] * setup.mark
                    + ["intercept"] * setup.intercepts
                    + ["catch-mark"] * setup.catch_marks
                    + ["challenge"] * setup.challenges
                )
                trial = state.clone()
                trial.apply_unchecked(throw)
                met = play_out_up_call(trial, random.Random(game * 1000 + checked))
                assert met == expected[: len(met)], (throw.notation(), met, expected)
                if trial.holder == throw.receiver:  # caught: every counted bid was met
                    assert met == expected, (throw.notation(), met, expected)
                    caught += 1
                checked += 1
                state.apply_unchecked(throw)
                continue
            state.apply_unchecked(rng.choice(state.legal_actions()))
    assert checked >= 30 and caught >= 10


def test_throw_odds_are_the_odds_arithmetic_for_each_target():
    spec = get_game("huck-monster")
    rng = random.Random(9)
    state = spec.new_game(spec.options("basic"))
    while aiming_count(state) is None:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_unchecked(
                rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
            )
        else:
            state.apply_unchecked(rng.choice(state.legal_actions()))
    odds = throw_odds(state)
    assert {o.action for o in odds} == {a.notation() for a in state.legal_actions()}
    for one in odds:
        assert one.setup.throw_count == aiming_count(state)
        assert one.p_catch == catch_probability(one.setup)
        assert 0 < one.p_catch <= 1
