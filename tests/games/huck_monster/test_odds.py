"""Exact odds of an Up Call (`odds.catch_probability`), checked against hand computation and
against the engine itself: enumerating the engine's chance nodes must give the same fraction."""

from __future__ import annotations

from fractions import Fraction

import pytest
from typer.testing import CliRunner

from monsterball.cli import app
from monsterball.core.game import CHANCE
from monsterball.games.huck_monster import HuckMonsterState
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.analysis.odds import UpCallSetup, catch_probability
from monsterball.games.huck_monster.matchup import dice_sum
from monsterball.games.huck_monster.rules.bid import Bid
from monsterball.games.huck_monster.rules.upcall import OffenseAction, UpCall
from tests.helpers.huck_monster import options, position


def p_sum(n: int, total: int) -> Fraction:
    return dict(dice_sum(n)).get(total, Fraction(0))


def test_an_unguarded_throw_is_always_caught() -> None:
    assert catch_probability(UpCallSetup()) == 1


def test_one_mark_wins_only_with_a_strictly_higher_roll() -> None:
    tie = sum(p * p for _, p in dice_sum(3))
    assert catch_probability(UpCallSetup(mark=True)) == 1 - (1 - tie) / 2
    # With ties to the defense the Mark also wins every tie.
    assert catch_probability(UpCallSetup(mark=True, ties="defense")) == (1 - tie) / 2


def test_odds_13_beats_any_two_dice() -> None:
    """HM-TIP-4: "If the total Throw count is 13 or higher, no amount of 2 dice defensive team
    rolls will defeat the Throw count"."""
    assert catch_probability(UpCallSetup(intercepts=7, throw_count=13)) == 1
    assert catch_probability(UpCallSetup(intercepts=1, throw_count=12)) == 1 - p_sum(2, 12) * 0
    assert catch_probability(UpCallSetup(intercepts=1, throw_count=11)) == 1 - p_sum(2, 12)


def test_intercepts_are_independent_given_the_throw() -> None:
    count = 8
    one = sum((p for t, p in dice_sum(2) if t <= count), Fraction(0))
    assert catch_probability(UpCallSetup(intercepts=3, throw_count=count)) == one**3


def test_strategy_dice_change_the_odds_both_ways() -> None:
    base = catch_probability(UpCallSetup(mark=True, intercepts=2, challenges=1))
    offense = catch_probability(
        UpCallSetup(mark=True, intercepts=2, challenges=1, offense_strategy="throw")
    )
    defense = catch_probability(
        UpCallSetup(mark=True, intercepts=2, challenges=1, defense_strategy="mark")
    )
    assert offense > base > defense


def test_bad_setups_are_refused() -> None:
    with pytest.raises(ValueError, match="only 7 defenders"):
        UpCallSetup(mark=True, intercepts=7)
    with pytest.raises(ValueError, match="defense strategy"):
        UpCallSetup(defense_strategy="pull")


# -- the engine agrees ------------------------------------------------------------------------


def engine_catch_probability(state: HuckMonsterState) -> Fraction:
    """Enumerate chance nodes until the Up Call ends; the defense's choices follow the odds
    model (a Monster stays, a losing Hot Bid re-rolls), everyone else just rolls."""
    if state.current_player() == CHANCE:
        total = Fraction(0)
        for action, p in state.chance_outcomes():
            child = state.clone()
            events = child.apply(action)
            if any(isinstance(e, ev.Caught) for e in events):
                total += p
            elif not any(isinstance(e, ev.TurnedOver) for e in events):
                total += p * engine_catch_probability(child)
        return total
    step = state.stack[-1]
    legal = {a.notation(): a for a in state.legal_actions()}
    if "monster stay" in legal:
        choice = "monster stay"
    elif "reroll" in legal:
        assert isinstance(step, Bid)
        offense = state.base // 2 if state.halved else state.base
        choice = "reroll" if step.roll <= offense else "keep"
    elif "strategy" in legal and isinstance(step, Bid) and step.role == "mark":
        choice = "strategy"
    elif "throw A2 d11" in legal:
        choice = "throw A2 d11"  # a Continue's throw, once its count is rolled
    else:
        choice = "roll"
    child = state.clone()
    events = child.apply(legal[choice])
    if any(isinstance(e, ev.Caught) for e in events):
        return Fraction(1)
    if any(isinstance(e, ev.TurnedOver) for e in events):
        return Fraction(0)
    return engine_catch_probability(child)


@pytest.mark.parametrize(
    ("count", "dark"),
    [(6, False), (10, False), (6, True), pytest.param(10, True, marks=pytest.mark.slow)],
)
def test_the_engine_gives_the_same_exact_probability(count: int, dark: bool) -> None:
    # Mark B1, one Intercept (B2), one Challenge (B5); straight throw e8 -> d11 for A2 (d12).
    state = position(
        {"A1": "e7", "A2": "d12", "B1": "f8", "B2": "d9", "B5": "e13"},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(throw_path="straight", strategy_dice=dark),
        strategy_used=[True, False],
        up_calls=1,
    )
    state.apply(state.actions.sums[3][count])
    state.apply(next(a for a in state.legal_actions() if a.notation() == "throw A2 d11"))
    setup = UpCallSetup(
        mark=True,
        intercepts=1,
        challenges=1,
        throw_count=count,
        defense_strategy="mark" if dark else "none",
        path_length=3,
    )
    assert engine_catch_probability(state) == catch_probability(setup)


def test_cli_odds_prints_the_exact_fraction() -> None:
    result = CliRunner().invoke(app, ["odds", "hm", "--mark"])
    assert result.exit_code == 0, result.output
    p = catch_probability(UpCallSetup(mark=True))
    assert f"{p.numerator}/{p.denominator}" in result.output
    table = CliRunner().invoke(app, ["odds", "huck-monster", "--intercepts", "1", "--by-count"])
    assert "│ 13          │ 100.0000%" in table.output
    bad = CliRunner().invoke(app, ["odds", "hm", "--defense-strategy", "pull"])
    assert bad.exit_code == 2 and "defense strategy" in bad.output
    other = CliRunner().invoke(app, ["odds", "paper-ultimate"])
    assert other.exit_code == 2 and "huck-monster" in other.output


def test_odds_cover_team_pins_stealth_and_playmaker_pins() -> None:
    """HM-TPIN-3: with Team Pins an Intercept stops a throw of 11 with 7/18, not 1/36."""
    assert catch_probability(UpCallSetup(intercepts=1, throw_count=11)) == Fraction(35, 36)
    assert catch_probability(UpCallSetup(intercepts=1, throw_count=11, team_pins=True)) == (
        Fraction(11, 18)
    )
    # A Mark on a Stealth Space bids 3d6 + 1: he wins when his roll + 1 beats the throw.
    dist = dict(dice_sum(3))
    lose = sum((dist[t] * dist[m] for t in dist for m in dist if m + 1 <= t), Fraction(0))
    assert catch_probability(UpCallSetup(mark=True, stealth_defense=True)) == lose
    assert catch_probability(UpCallSetup(mark=True, stealth_offense=True)) > catch_probability(
        UpCallSetup(mark=True)
    )
    # A shared pin gives the offense its 9 outcomes only half the time.
    base = UpCallSetup(mark=True, intercepts=2, offense_strategy="throw")
    pin = catch_probability(UpCallSetup(**{**base.__dict__, "equipment": "pin"}))
    disc = catch_probability(UpCallSetup(**{**base.__dict__, "equipment": "game-disc"}))
    plain = catch_probability(UpCallSetup(mark=True, intercepts=2))
    assert disc > pin > plain
    with pytest.raises(ValueError, match="equipment"):
        UpCallSetup(equipment="spinner")


def test_odds_cover_all_star_stats() -> None:
    """HM-STAR-3/4: a Monster All-Star's Mark adds 1, like a Stealth Space; a Handler
    All-Star's throw adds 3."""
    stealth = catch_probability(UpCallSetup(mark=True, stealth_defense=True))
    assert catch_probability(UpCallSetup(mark=True, all_star_bid="mark")) == stealth
    dist = dict(dice_sum(3))
    survive = sum((dist[t] * dist[m] for t in dist for m in dist if m <= t + 3), Fraction(0))
    assert catch_probability(UpCallSetup(mark=True, all_star_throw=True)) == survive
    # Only his own bid gets the stat: with two Intercepts, +2 on the first one only.
    one = sum((p for t, p in dice_sum(2) if t + 2 <= 10), Fraction(0))
    other = sum((p for t, p in dice_sum(2) if t <= 10), Fraction(0))
    setup = UpCallSetup(intercepts=2, throw_count=10, all_star_bid="intercept")
    assert catch_probability(setup) == one * other


# -- the Continue (HM-PRO-1, HM-PRO-3) ----------------------------------------------------------


def continue_position(**opts: object) -> HuckMonsterState:
    """A1 throws 4 to A2 (d12) along e9, d10, d11; B2 (d9) bids at e9 and loses; A3 (f9)
    Continues there. On the Continue throw B2 marks the disc on e9 and B5 (e13) challenges."""
    state = position(
        {
            "A1": "e7",
            "A2": "d12",
            "A3": "f9",
            "B1": "h4",
            "B2": "d9",
            "B3": "a10",
            "B4": "a11",
            "B5": "e13",
        },
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(throw_path="straight", strategy_dice=False, **opts),  # type: ignore[arg-type]
        up_calls=1,
    )
    pins = state.options.team_pins
    for text in ("spin=4" if pins else "3d6=4", "throw A2 d11", "spin=2" if pins else "2d6=2"):
        if state.current_player() != CHANCE:
            legal = {a.notation(): a for a in state.legal_actions()}
            if "monster stay" in legal:  # the All-Star's Up Move: he stays
                state.apply(legal["monster stay"])
        if state.current_player() == CHANCE:
            state.apply(next(a for a, _ in state.chance_outcomes() if a.notation() == text))
        else:
            state.apply(next(a for a in state.legal_actions() if a.notation() == text))
    return state


@pytest.mark.slow
@pytest.mark.parametrize("pins", [False, True])
def test_the_engine_agrees_on_a_one_die_continue(pins: bool) -> None:
    state = continue_position(continues="one-die", team_pins=pins)
    state.apply(next(a for a in state.legal_actions() if a.notation() == "continue A3"))
    setup = UpCallSetup(mark=True, challenges=1, continue_dice=1, remaining=3, team_pins=pins)
    assert engine_catch_probability(state) == catch_probability(setup)
    # The Continue's die against a Mark's 3 dice: adding it to 3 left is a long shot.
    assert catch_probability(setup) < catch_probability(UpCallSetup(mark=True, challenges=1))


@pytest.mark.slow
def test_the_engine_agrees_on_a_rethrow_continue_with_an_all_star() -> None:
    state = continue_position(continues="rethrow", all_stars=True)
    for text in ("monster stay", "continue A3", "rethrow"):
        legal = {a.notation(): a for a in state.legal_actions()}
        if text in legal:
            state.apply(legal[text])
    setup = UpCallSetup(mark=True, challenges=1, continue_dice=3)
    assert engine_catch_probability(state) == catch_probability(setup)
    star = UpCallSetup(mark=True, challenges=1, continue_dice=3, all_star_throw=True)
    assert catch_probability(star) > catch_probability(setup)
    with pytest.raises(ValueError, match="strategy dice during Continues"):
        UpCallSetup(continue_dice=1, offense_strategy="throw")


def test_cli_odds_cover_the_continue() -> None:
    result = CliRunner().invoke(
        app, ["odds", "hm", "--mark", "--continue-dice", "1", "--remaining", "6", "--by-count"]
    )
    assert result.exit_code == 0, result.output
    p = catch_probability(UpCallSetup(mark=True, continue_dice=1, remaining=6))
    assert f"{p.numerator}/{p.denominator}" in result.output and "count left" in result.output
