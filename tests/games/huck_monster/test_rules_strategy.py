"""Huck + Monster, standard game: the strategy dice, one test or more per face (HM-SD and
its rulings in docs/rules/huck-monster.md). Dice are scripted as chance actions
("3d6=10"), so each test checks the exact outcome the rule demands.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from monsterball.core.errors import IllegalActionError
from monsterball.core.game import CHANCE
from monsterball.games.huck_monster import HuckMonsterState
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.rules.bid import Bid
from monsterball.games.huck_monster.rules.upcall import OffenseAction, UpCall
from tests.helpers.huck_monster import (
    bids,
    kinds,
    lane,
    legal,
    play,
    position,
    texts,
    top,
)

# -- strategy dice -----------------------------------------------------------------------------


def faces(state: HuckMonsterState) -> list[str]:
    return [a.notation() for a, _ in state.chance_outcomes()]


def test_HM_SD_1_HM_SD_5_HM_R16_HM_R29_one_strategy_die_per_team_per_up_call() -> None:
    state = lane(strategy=True)
    play(state, "strategy", "light=break", "3d6=10", "throw A2 d11")
    # HM-SD-7 Break: B1's Mark may not bid, but the defense may still try its die (HM-R21).
    assert legal(state) == {"roll", "strategy"}  # HM-SD-5: the defense chooses for itself
    play(state, "roll")  # a plain roll cannot bid against Break
    assert legal(state) == {"roll", "strategy"}  # B2's Intercept
    play(state, "strategy", "dark=footer", "2d6=3", "2d6=4")  # B3: no die left, rolls at once
    # The offense used its die on the throw: the catch roll is automatic.
    assert state.current_player() == CHANCE and isinstance(top(state), OffenseAction)
    play(state, "3d6=12", "3d6=4", "2d6=4")
    assert state.holder == 1 and state.strategy_used == [True, True]
    # HM-R16: no strategy on team moves; HM-R29: a new Up Call makes both dice available.
    play(state, "3d6=3", "end", "3d6=3", "end")
    assert state.strategy_used == [False, False] and legal(state) == {"roll", "strategy"}


def test_HM_SD_2_HM_SD_3_HM_R17_the_face_is_rolled_just_before_the_team_dice() -> None:
    state = lane(strategy=True)
    play(state, "strategy")
    assert faces(state) == [
        f"light={f}" for f in ("huck", "break", "strip", "layout", "hammer", "dump")
    ]
    assert all(p == Fraction(1, 6) for _, p in state.chance_outcomes())
    play(state, "light=layout")
    assert faces(state)[0] == "3d6=3"
    play(state, "3d6=10", "throw A2 d11", "strategy")
    assert faces(state) == [
        f"dark={f}" for f in ("monster", "poach", "hot-bid", "beat", "footer", "no-big")
    ]


def test_HM_SD_6_huck_doubles_the_throw_count() -> None:
    state = lane(strategy=True)
    play(state, "strategy", "light=huck", "3d6=6")
    events = play(state, "throw A2 d11", "roll", "3d6=11")
    assert [
        (d.offense, d.defense, d.defense_wins) for d in events if isinstance(d, ev.BidDecided)
    ] == [(12, 11, False)]


def test_HM_SD_7_break_stops_the_marks_but_not_the_challenges() -> None:
    state = lane({"B1": "h5", "B2": "h4", "B3": "h3"}, strategy=True, used=(False, True))
    events = play(state, "roll", "3d6=10", "throw A2 d11", "strategy", "light=break", "3d6=8")
    assert "BidPrevented" in kinds(events)  # B4, the Mark at the catch
    events = play(state, "2d6=9")
    assert bids(events) == [("B5", "challenge", True)]


def test_HM_SD_8_HM_R18_strip_keeps_or_rerolls_and_the_second_roll_stands() -> None:
    state = lane(strategy=True)
    play(state, "strategy", "light=strip", "3d6=4")
    assert legal(state) == {"keep", "reroll"}
    events = play(state, "reroll", "3d6=3")
    assert state.base == 3 and texts(events)[-1] == "Team A re-rolls 3 for the Throw."
    kept = lane(strategy=True)
    play(kept, "strategy", "light=strip", "3d6=14", "keep")
    assert kept.base == 14


def test_HM_SD_9_HM_R23_layout_clears_the_catch_and_is_spent_on_a_throw() -> None:
    state = lane({"B1": "h5", "B2": "h4", "B3": "h3"}, strategy=True, used=(False, True))
    events = play(state, "roll", "3d6=10", "throw A2 d11", "strategy", "light=layout", "3d6=5")
    assert [e.player for e in events if isinstance(e, ev.BidPrevented)] == [10, 11]
    assert state.holder == 1
    thrown = lane(strategy=True)
    events = play(thrown, "strategy", "light=layout")
    assert texts(events) == ["Team A rolls its strategy die: layout (no effect on this action)."]


def test_HM_SD_10_HM_R20_hammer_passes_over_one_defender_who_does_not_bid() -> None:
    state = lane({"B3": "d10", "B2": "h4"}, strategy=True, used=(False, True))
    play(state, "strategy", "light=hammer", "3d6=10")
    assert "throw A2 d11" in legal(state)  # over B3 on d10
    events = play(state, "throw A2 d11", "3d6=5")
    assert state.hammered == 9
    events += play(state, "3d6=12", "3d6=4", "2d6=4")
    assert [b[0] for b in bids(events)] == ["B1", "B4", "B5"]  # B3 never bids
    # On a catch, Hammer stops the first guard (the Mark at the catch, B4).
    catch = lane({"B1": "h5", "B2": "h4", "B3": "h3"}, strategy=True, used=(False, True))
    events = play(catch, "roll", "3d6=10", "throw A2 d11", "strategy", "light=hammer", "3d6=9")
    assert [e.player for e in events if isinstance(e, ev.BidPrevented)] == [10]


def test_HM_SD_11_HM_R23_a_dump_must_go_backward_or_it_is_a_turnover() -> None:
    state = position(
        {"A1": "e7", "A2": "d12", "A3": "c6"},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
    )
    play(state, "strategy", "light=dump", "3d6=10")
    # Only spaces on rows behind the disc (row 8) qualify.
    assert legal(state) and all(int(a.split()[-1][1:]) < 8 for a in legal(state))
    nothing = lane(strategy=True)
    events = play(nothing, "strategy", "light=dump", "3d6=4")
    assert "Stall: no Dump receiver behind the disc (count 4); turnover." in texts(events)


def test_HM_SD_12_HM_R22_monster_moves_one_defender_up_to_five_spaces() -> None:
    state = lane(strategy=True, used=(True, False))
    play(state, "3d6=10", "throw A2 d11", "strategy", "dark=monster")
    assert "monster stay" in legal(state)
    with pytest.raises(IllegalActionError, match="path"):
        play(state, "monster B5 d10")  # not onto the disc's path
    with pytest.raises(IllegalActionError, match="up to 5"):
        play(state, "monster B6 d12")  # B6 waits on a17: too far
    events = play(state, "monster B5 c10", "3d6=5", "2d6=2", "2d6=2", "3d6=12")
    assert "Monster! B5 moves to c10." in texts(events)
    events += play(state, "3d6=3", "3d6=4")
    # B5 now stands next to the disc's stop: it bids as a Mark at the catch, after B4.
    assert bids(events)[-2:] == [("B4", "catch-mark", False), ("B5", "catch-mark", False)]


def test_HM_SD_12_HM_R22_a_monster_who_moves_himself_bids_from_his_new_space() -> None:
    # "Roll team dice to take any appropriate player action once the designated Monster has
    # reached their destination field space" and a Mark "must be next to the game disc to
    # take an action": B1, the Mark, moves himself away from the disc.
    state = lane({"B3": "h5"}, strategy=True, used=(True, False))
    play(state, "3d6=10", "throw A2 d11", "strategy", "dark=monster", "monster B1 e10")
    # Beside the path (e9, d10), no longer beside the disc: an Intercept with 2 dice.
    assert [a.notation() for a, _ in state.chance_outcomes()][-1] == "2d6=12"
    events = play(state, "2d6=11")
    assert bids(events) == [("B1", "intercept", True)] and state.offense == 1
    away = lane({"B3": "h5"}, strategy=True, used=(True, False))
    events = play(away, "3d6=10", "throw A2 d11", "strategy", "dark=monster", "monster B1 h9")
    # Nowhere near the disc, its path or the Receiver: no bid at all.
    assert "B1 may not roll as the Mark: no action from his new space." in texts(events)
    events = play(away, "2d6=2", "3d6=12", "3d6=3", "2d6=2")
    assert [b[0] for b in bids(events)] == ["B2", "B4", "B5"]


def test_HM_SD_13_HM_R24_a_winning_poach_rethrows_at_once() -> None:
    state = lane(strategy=True, used=(True, False))
    events = play(state, "3d6=10", "throw A2 d11", "strategy", "dark=poach", "3d6=11")
    assert bids(events) == [("B1", "mark", True)]
    assert "UpCallStarted" in kinds(events) and "MoveRolled" not in kinds(events)
    assert state.offense == 1 and state.holder == 7 and state.up_calls == 2
    assert legal(state) == {"roll", "strategy"}  # B's new throw
    lost = lane(strategy=True, used=(True, False))
    play(lost, "3d6=10", "throw A2 d11", "strategy", "dark=poach", "3d6=9")
    assert lost.poach is False and lost.offense == 0


def test_HM_SD_14_HM_R18_hot_bid_rerolls_the_defenders_dice() -> None:
    state = lane(strategy=True, used=(True, False))
    play(state, "3d6=10", "throw A2 d11", "strategy", "dark=hot-bid", "3d6=6")
    assert legal(state) == {"keep", "reroll"}
    events = play(state, "reroll", "3d6=12")
    assert bids(events) == [("B1", "mark", True)]


def test_HM_SD_14_HM_R18_hot_bid_both_lets_the_offense_reroll_too() -> None:
    # "Hot Bid: ... Offensive team may choose to re-roll team dice results. The action count of
    # second team dice roll must be applied": option hot_bid=both.
    state = lane(strategy=True, used=(True, False), hot_bid="both")
    play(state, "3d6=10", "throw A2 d11", "strategy", "dark=hot-bid", "3d6=6", "reroll", "3d6=12")
    assert state.current_player() == 0 and legal(state) == {"keep", "reroll"}
    events = play(state, "reroll", "3d6=13")
    assert "Team A re-rolls 13 for the Throw." in texts(events)
    assert bids(events) == [("B1", "mark", False)] and state.base == 13
    kept = lane(strategy=True, used=(True, False), hot_bid="both")
    play(kept, "3d6=10", "throw A2 d11", "strategy", "dark=hot-bid", "3d6=11", "keep")
    events = play(kept, "keep")  # the offense keeps its 10 too: the Mark's 11 wins
    assert bids(events) == [("B1", "mark", True)]
    # The default reading: only the defender re-rolls; no offensive choice follows.
    plain = lane(strategy=True, used=(True, False))
    play(plain, "3d6=10", "throw A2 d11", "strategy", "dark=hot-bid", "3d6=6", "reroll")
    assert bids(play(plain, "3d6=12")) == [("B1", "mark", True)]


def test_HM_SD_15_HM_R25_beat_sets_the_defense_to_zero_without_dice() -> None:
    state = lane(strategy=True, used=(True, False))
    events = play(state, "3d6=3", "throw A2 d11", "strategy", "dark=beat")
    decided = [e for e in events if isinstance(e, ev.BidDecided)]
    assert [(d.defense, d.defense_wins) for d in decided] == [(0, False)]
    assert "DiceRolled" not in kinds(events[-3:])


def test_HM_SD_16_HM_R19_footer_halves_the_offense_for_the_rest_of_the_action() -> None:
    state = lane(strategy=True, used=(True, False))
    events = play(state, "3d6=11", "throw A2 d11", "strategy", "dark=footer", "3d6=5", "2d6=5")
    decided = [e for e in events if isinstance(e, ev.BidDecided)]
    assert [(d.offense, d.defense_wins) for d in decided] == [(5, False), (5, False)]
    # A throw of 5 halved to 2 cannot cover the 3-space path: it falls short on d10.
    short = lane({"B1": "h5"}, strategy=True, used=(True, False))
    events = play(short, "3d6=5", "throw A2 d11", "strategy", "dark=footer", "2d6=2")
    assert "The halved count runs out: the disc falls at d10; turnover." in texts(events)
    assert short.offense == 1 and short.field.name(short.disc) == "d10"


def test_HM_SD_17_HM_R25_no_big_wins_a_mark_but_not_an_intercept() -> None:
    state = lane(strategy=True, used=(True, False))
    events = play(state, "3d6=18", "throw A2 d11", "strategy", "dark=no-big")
    assert bids(events) == [("B1", "mark", True)] and state.offense == 1
    other = lane({"B1": "h5"}, strategy=True, used=(True, False))
    play(other, "3d6=10", "throw A2 d11", "strategy", "dark=no-big")
    assert other.current_player() == CHANCE  # the Intercept still rolls its dice
    events = play(other, "2d6=12")
    assert bids(events) == [("B2", "intercept", True)]


def test_HM_SD_4_HM_R21_conflicting_results_cancel_in_their_matchup() -> None:
    state = lane(strategy=True)
    play(state, "strategy", "light=huck", "3d6=8", "throw A2 d11", "strategy", "dark=footer")
    events = play(state, "3d6=9")
    decided = [e for e in events if isinstance(e, ev.BidDecided)]
    assert [(d.offense, d.defense_wins, d.cancelled) for d in decided] == [(8, True, True)]
    # Break stops the Mark, whose No Big cancels it: the team dice decide.
    broken = lane(strategy=True)
    play(broken, "strategy", "light=break", "3d6=8", "throw A2 d11", "strategy", "dark=no-big")
    events = play(broken, "3d6=7")
    assert [
        (d.defense, d.defense_wins, d.cancelled) for d in events if isinstance(d, ev.BidDecided)
    ] == [(7, False, True)]


def test_HM_MARK_3_HM_SD_12_HM_R22_a_monster_never_makes_a_second_mark() -> None:
    # "Only one Mark may roll against a single Handler Throw." B3 (f8) is the Mark; his
    # Monster moves B1, numbered below him, beside the disc (d8). Issue 34: the Marks were
    # picked again in player order and B1 rolled 3 dice as a second Mark.
    state = lane({"B1": "c7", "B3": "f8"}, strategy=True, used=(True, False))
    play(state, "3d6=10", "throw A2 d11", "strategy", "dark=monster", "monster B1 d8")
    events = play(state, "3d6=5")
    assert bids(events) == [("B3", "mark", False)]
    # The throw's one Mark has rolled: B1 may still bid, but as the Intercept his space makes
    # him (beside e9), with 2 dice.
    nxt = top(state)
    assert isinstance(nxt, Bid) and (nxt.player, nxt.role) == (7, "intercept")
    assert [a.notation() for a, _ in state.chance_outcomes()][-1] == "2d6=12"


def test_HM_TO_3_HM_R22_an_intercept_moved_by_the_monster_takes_the_disc_on_its_path() -> None:
    # "An Intercept Turnover occurs when a defensive player takes control of the game disc as
    # it moves along its Throw path." The throw to A2 (b15) flies e9 d10 d11 c12 c13 b14. B2
    # (d9) bids on e9, rolls Monster and moves himself to c11, beside d11 further along: he
    # bids as the Intercept there and wins.
    state = lane({"B3": "h5", "B4": "h4", "B5": "h3", "A2": "b15"}, strategy=True,
                 used=(True, False))  # fmt: skip
    play(state, "3d6=10", "throw A2 b14", "roll", "3d6=3", "strategy", "dark=monster")
    events = play(state, "monster B2 c11", "2d6=12")
    assert bids(events) == [("B2", "intercept", True)] and state.holder == 8
    # The disc stops on d11, on its path beside him (it used to go to c10, off the path,
    # with the log calling him a Challenge).
    assert state.field.name(state.disc) == "d11"
    assert "DiscMoved" not in kinds(events)


def test_HM_SD_8_HM_R18_strip_best_keeps_the_better_of_two_rolls() -> None:
    # "a choice to re-roll Team Dice results, or to select the first roll count": with
    # strip=best the offense re-rolls and keeps the better count.
    state = lane(strategy=True, strip="best")
    events = play(state, "strategy", "light=strip", "3d6=12", "reroll", "3d6=5")
    assert state.base == 12 and "BestRollKept" in kinds(events)
    assert "Strip: team A keeps the better roll, 12, for the Throw." in texts(events)
    plain = lane(strategy=True)
    play(plain, "strategy", "light=strip", "3d6=12", "reroll", "3d6=5")
    assert plain.base == 5  # by default the second roll stands
