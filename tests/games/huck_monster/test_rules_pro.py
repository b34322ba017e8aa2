"""Huck + Monster options: the Pro rules (Callahan, pivot, rethrow, double team, beaten
defenders), Playmaker and Team Pins, Stealth Spaces, Sideline All-Stars and the Mini Cone
kit (HM-CALL, HM-PIVOT, HM-RETHROW, HM-DT, HM-PIN, HM-GDISC, HM-TPIN, HM-STEALTH, HM-STAR,
HM-EXP, HM-CONE, HM-BEAT of docs/rules/huck-monster.md). Dice are scripted as chance
actions ("3d6=10"), so each test checks the exact outcome the rule demands.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from monsterball.core.errors import IllegalActionError
from monsterball.games.huck_monster import HuckMonsterState
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.rules.bid import Bid
from monsterball.games.huck_monster.rules.moves import MoveRoll, Moving, TeamMoves
from monsterball.games.huck_monster.rules.point import PullLanding
from monsterball.games.huck_monster.rules.upcall import OffenseAction, UpCall
from tests.helpers.huck_monster import (
    LANE,
    SPEC,
    bids,
    kinds,
    lane,
    legal,
    moving,
    name,
    neighbours,
    options,
    play,
    position,
    scoring_throw,
    texts,
    top,
)

DATA = Path(__file__).parent / "data"  # positions reached in play, as JSON

# -- Pro rules ---------------------------------------------------------------------------------


def pro_lane(players: dict[str, str | None], **opts: object) -> HuckMonsterState:
    return lane(players, **opts)


CALLAHAN = {"A1": "e12", "A2": "b16", "B1": "h10", "B2": "e15", "B3": "h9", "B4": "a9",
            "B5": "b9", "B6": "c9", "B7": "d9"}  # fmt: skip


def callahan_lane(extra: dict[str, str | None] | None = None, **opts: object) -> HuckMonsterState:
    # A attacks north: B defends rows 15-17. The disc on e13 flies the NW ray d14, d15 to stop
    # on c16 for A2 (b16); B2 stands on e15, inside B's end zone, beside d14 and d15.
    return position(
        {**CALLAHAN, **(extra or {})},
        disc="e13",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(throw_path="straight", strategy_dice=False, **opts),  # type: ignore[arg-type]
        up_calls=1,
    )


def test_HM_CALL_1_HM_CALL_3_HM_R32_an_uncontested_intercept_in_its_end_zone_scores() -> None:
    state = callahan_lane(callahans=True)
    events = play(state, "3d6=5", "throw A2 c16", "2d6=9")
    assert bids(events) == [("B2", "intercept", True)]
    assert "CallahanScored" in kinds(events) and state.score == [0, 1]
    # HM-R32: B pulls the next point from the end it defended: no switch of ends.
    assert state.north_team == 0 and state.offense == 0
    # Contested (A3 beside B2): an ordinary turnover.
    contested = callahan_lane({"A3": "e16"}, callahans=True)
    events = play(contested, "3d6=5", "throw A2 c16", "2d6=9")
    assert "CallahanScored" not in kinds(events) and contested.score == [0, 0]
    assert contested.offense == 1


def test_HM_CALL_2_without_the_option_an_end_zone_intercept_is_a_turnover() -> None:
    state = callahan_lane()
    play(state, "3d6=5", "throw A2 c16", "2d6=9")
    assert state.score == [0, 0] and state.offense == 1 and state.holder == 8


def test_HM_PIVOT_1_HM_PIVOT_2_HM_PIVOT_3_HM_R33_the_handler_pivots_before_the_defense() -> None:
    state = lane({"B1": "h5", "B2": "h4", "B3": "h3", "B4": "a5", "B5": "b5"}, handler_pivot=True)
    play(state, "3d6=10", "throw A2 d11", "3d6=3", "end")
    # After the offense's move, before the defense rolls: the Handler A2 (d12) may pivot the
    # disc from d11 around him: c12, d13, e12, e13 and e11 are open (c11... is B4? no: a5).
    assert top(state).__class__.__name__ == "Pivot" and state.current_player() == 0
    spaces = {a.split()[1] for a in legal(state) if a.startswith("pivot")}
    assert spaces == neighbours(state, "d12") - {"d11"} and "end" in legal(state)
    with pytest.raises(IllegalActionError, match="cannot pivot"):
        play(state, "pivot c10")
    events = play(state, "pivot e13")
    assert texts(events)[0] == "A2 pivots: the disc moves to e13."
    assert isinstance(top(state), MoveRoll) and top(state).team == 1  # type: ignore[attr-defined]
    # The disc cannot pass players around the Handler: with c12 and e11 (the spaces beside
    # both d11 and A2) taken, it cannot move at all, and no pivot is offered.
    walled = lane(
        {"B1": "h5", "B2": "h4", "B3": "h3", "B4": "a5", "B5": "b5", "A3": "c12", "A4": "e11"},
        handler_pivot=True,
    )
    play(walled, "3d6=10", "throw A2 d11", "3d6=3", "end")
    assert isinstance(top(walled), MoveRoll) and top(walled).team == 1  # type: ignore[attr-defined]
    # After a turnover there is no pivot.
    lost = lane(handler_pivot=True)
    play(lost, "3d6=10", "throw A2 d11", "3d6=12", "3d6=3", "end")
    assert isinstance(top(lost), MoveRoll)


def test_HM_RETHROW_1_HM_RETHROW_2_HM_RETHROW_3_HM_R34_an_uncontested_intercept_rethrows() -> None:
    state = lane(rethrow="uncontested")
    events = play(state, "3d6=6", "throw A2 d11", "3d6=5", "2d6=7")
    assert bids(events)[-1] == ("B2", "intercept", True)
    assert state.current_player() == 1 and legal(state) == {"rethrow", "play on"}
    play(state, "rethrow")
    assert state.current_player() == 0 and legal(state) == {"rethrow", "play on"}
    events = play(state, "rethrow")
    assert "UpCallStarted" in kinds(events) and state.holder == 8 and state.up_calls == 2
    # Either team may play on: team moves as usual.
    opted = lane(rethrow="uncontested")
    play(opted, "3d6=6", "throw A2 d11", "3d6=5", "2d6=7", "rethrow", "play on")
    assert isinstance(top(opted), MoveRoll) and top(opted).team == 1  # type: ignore[attr-defined]
    # Contested: B3 takes it beside A3: no rethrow offered.
    contested = lane({"A3": "e11", "B2": "h4"}, rethrow="uncontested")
    events = play(contested, "3d6=6", "throw A2 d11", "3d6=5", "2d6=7")
    assert bids(events)[-1] == ("B3", "intercept", True)
    assert isinstance(top(contested), MoveRoll)


def test_HM_RETHROW_4_the_optional_intercept_rethrow_needs_no_uncontested_intercept() -> None:
    state = lane({"A3": "e11", "B2": "h4"}, rethrow="any")
    play(state, "3d6=6", "throw A2 d11", "3d6=5", "2d6=7")
    assert legal(state) == {"rethrow", "play on"}


def double_teamed(**opts: object) -> HuckMonsterState:
    # B1 (f8) and B6 (d8) both beside the disc on e8.
    return lane({"B6": "d8"}, double_team=True, **opts)


def test_HM_DT_1_HM_DT_4_an_uncalled_double_team_lets_every_mark_bid() -> None:
    state = double_teamed()
    play(state, "3d6=10")
    assert state.current_player() == 0 and legal(state) == {"double team", "play on"}
    events = play(state, "play on", "throw A2 d11", "3d6=9")
    # HM-R35: "neither player audibly calls "double team" after the offensive, and the first
    # defensive team dice roll": the Handler may still call it, having seen B1's roll.
    assert state.current_player() == 0 and legal(state) == {"double team", "play on"}
    events += play(state, "play on", "3d6=8")
    assert bids(events) == [("B1", "mark", False), ("B6", "mark", False)]
    # HM-DT-1: with the option, defenders may join a Mark beside the Handler's disc.
    moves = moving({"A1": "e7", "B1": "f8", "B2": "c9"}, 1, 3, disc="e8", holder="A1",
                   opts=options(double_team=True))  # fmt: skip
    assert "B2-d8" in legal(moves)


def test_HM_DT_2_HM_DT_3_HM_DT_5_HM_R35_a_called_double_team_moves_the_marks_away() -> None:
    state = double_teamed()
    events = play(state, "3d6=10", "double team")
    assert "DoubleTeamCalled" in kinds(events) and state.current_player() == 1
    away = {state.field.distance(state.disc, state.field.parse_cell(a.split("-")[1]))
            for a in legal(state) if a.startswith("B1-")}  # fmt: skip
    # "must move at least 2 spaces away from the disc": 2 or more, within 2 steps (rules 1.4;
    # exactly 2 before).
    assert away == {2, 3}
    play(state, "B1-g9")
    with pytest.raises(IllegalActionError, match="2 from the disc"):
        play(state, "B6-a8")
    play(state, "B6-c8")
    assert legal(state) == {"keep", "reroll"}
    events = play(state, "reroll", "3d6=14", "throw A2 d11")
    assert state.base == 14
    events = play(state, "2d6=5", "2d6=6")  # no Mark bids: the Intercepts B2, B3 go on
    assert [b[1] for b in bids(events)] == ["intercept", "intercept"]


def test_HM_DT_3_HM_STAR_2_HM_STEALTH_1_the_double_team_reroll_keeps_the_bonuses() -> None:
    # "re-roll 3 team dice for a new Throw count"; "All-Star stats are added to the count of
    # each corresponding player action"; Stealth Spaces "add +1 advantage to the action count
    # of any player taking action from that space". A1, the Handler All-Star, throws from f7,
    # a Stealth Space: the re-roll of 9 counts 9 + 3 + 1 (it counted 9 before issue 34).
    state = lane({"A1": "f7", "B6": "d8"}, double_team=True, all_stars=True,
                 stealth_spaces=True)  # fmt: skip
    play(state, "3d6=5")
    assert state.base == 9
    play(state, "double team")
    while state.current_player() == 1:  # the defense moves each Mark 2 from the disc
        play(state, sorted(legal(state))[0])
    events = play(state, "reroll", "3d6=9")
    assert state.base == 13
    assert "Team A re-rolls 13 (+1 from a Stealth Space) for the Throw." in texts(events)


def test_HM_STAR_4_HM_R43_one_up_move_per_up_call_even_after_a_continue() -> None:
    # HM-R43 "one Up Move per Up Call": B1, the Monster All-Star, moves when A1 throws; A3
    # Continues in the same Up Call and B1 may not move again (issue 34: he could).
    state = lane({"A3": "f9", "B1": "h4", "B3": "a10", "B4": "a11", "B5": "a13"},
                 continues="one-die", all_stars=True)  # fmt: skip
    play(state, "3d6=7", "throw A2 d11", "monster B1 h8", "2d6=5", "continue A3", "1d6=4")
    assert state.up_calls == 1 and state.holder == 2
    play(state, "throw A2 d11")
    nxt = top(state)
    assert isinstance(nxt, Bid) and nxt.player == 8  # B2 marks at once: no second Up Move
    assert not any(a.startswith("monster") for a in legal(state))
    # A Continue under The Rethrow starts a new Up Call: a new Up Move is his.
    rethrow = lane({"A3": "f9", "B1": "h4", "B3": "a10", "B4": "a11", "B5": "a13"},
                   continues="rethrow", all_stars=True)  # fmt: skip
    play(rethrow, "3d6=7", "throw A2 d11", "monster B1 h8", "2d6=5", "continue A3", "rethrow")
    play(rethrow, "3d6=9", "throw A2 d11")
    assert rethrow.up_calls == 2 and "monster stay" in legal(rethrow)


def test_HM_DT_4_HM_R35_the_handler_may_call_after_the_first_marks_roll() -> None:
    # B1 rolls 12 against the throw of 10; the Handler calls the double team now: B1's roll
    # counts for nothing, both Marks move at least 2 from the disc (not onto the path), and
    # the throw goes on with the count kept.
    state = double_teamed()
    play(state, "3d6=10", "play on", "throw A2 d11", "3d6=12")
    events = play(state, "double team")
    assert "DoubleTeamCalled" in kinds(events) and "BidDecided" not in kinds(events)
    path = {state.field.name(c) for c in state.path}
    for _ in range(2):
        moves = [a for a in legal(state) if a.startswith(("B1-", "B6-"))]
        assert moves and not {a.split("-")[1] for a in moves} & path
        play(state, moves[0])
    assert legal(state) == {"keep", "reroll"}
    events = play(state, "keep", "2d6=5", "2d6=6")
    assert [b[1] for b in bids(events)][:2] == ["intercept", "intercept"]
    assert state.offense == 0


# -- Playmaker Pins, Team Pins, Stealth Spaces ---------------------------------------------------


def test_HM_PIN_1_HM_PIN_2_HM_PIN_4_HM_R36_the_shared_pin_adds_its_numbers() -> None:
    state = lane(strategy=True, strategy_equipment="pin")
    play(state, "strategy")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 18 and all(p == Fraction(1, 18) for _, p in outcomes)
    play(state, "pin=pin-flick", "3d6=7")  # Flick +3
    events = play(state, "throw A2 d11", "roll", "3d6=9")
    assert [(d.offense, d.defense_wins) for d in events if isinstance(d, ev.BidDecided)] == [
        (10, False)
    ]
    # HM-PIN-4: an outcome meant for the other team is invalid.
    wrong = lane(strategy=True, strategy_equipment="pin")
    events = play(wrong, "strategy", "pin=pin-strike")
    assert texts(events) == [
        "Team A rolls its strategy die: pin-strike (no effect on this action)."
    ]


def test_HM_PIN_3_HM_R37_pin_words_huck_doink_and_the_defensive_numbers() -> None:
    huck = lane(strategy=True, strategy_equipment="pin")
    play(huck, "strategy", "pin=pin-huck", "3d6=6", "throw A2 d11", "roll", "3d6=11")
    assert huck.offense == 0  # 12 beats 11
    doink = lane(strategy=True, strategy_equipment="pin")
    events = play(doink, "strategy", "pin=pin-doink", "3d6=12")
    assert "Stall: no Receiver within the Throw count (count 2); turnover." in texts(events)
    marked = lane(strategy=True, used=(True, False), strategy_equipment="pin")
    events = play(marked, "3d6=10", "throw A2 d11", "strategy", "pin=pin-markd", "3d6=9")
    assert [(d.defense, d.defense_wins) for d in events if isinstance(d, ev.BidDecided)] == [
        (11, True)
    ]
    beat = lane(strategy=True, used=(True, False), strategy_equipment="pin")
    events = play(beat, "3d6=10", "throw A2 d11", "strategy", "pin=pin-beat", "3d6=14")
    assert [(d.defense, d.defense_wins) for d in events if isinstance(d, ev.BidDecided)] == [
        (9, False)
    ]


def dumping(pin_dump: str) -> HuckMonsterState:
    return position(
        {"A1": "e7", "A2": "d12", "A3": "c6"},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(strategy_equipment="pin", pin_dump=pin_dump),
    )


@pytest.mark.parametrize("pin_dump", ["this", "next"])
def test_HM_PIN_3_HM_R37_a_pin_dump_binds_this_throw_or_the_next(pin_dump: str) -> None:
    # "Dump (+1): ... Forward momentum of the disc is not allowed following a Dump outcome.
    # If rolled by a Handler, or Continue, the following Throw must be toward the offensive
    # end zone": option pin_dump says which throw follows the spin.
    state = dumping(pin_dump)
    play(state, "strategy", "pin=pin-dump", "3d6=10")
    rows = {int(a.split()[-1][1:]) for a in legal(state)}
    if pin_dump == "this":
        assert rows and max(rows) < 8  # behind the disc (row 8), as the dice Dump
        return
    assert max(rows) > 8 and state.base == 10  # this throw is free (and gets its +1) ...
    play(state, "throw A2 d11", "3d6=3", "end", "3d6=3", "end")
    assert state.holder == 1 and state.dump_next
    play(state, "roll", "3d6=10")
    rows = {int(a.split()[-1][1:]) for a in legal(state)}
    assert rows and max(rows) < 11  # ... the next one must go behind the disc (row 11)
    play(state, "throw A1 e8")
    assert not state.dump_next  # spent
    # A turnover ends it: B1 beside the disc's stop wins the catch, and B's throws are free.
    lost = position(
        {"A1": "e7", "A2": "d12", "A3": "c6", "B1": "c12"},
        disc="e8",
        holder="A1",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(strategy_equipment="pin", pin_dump="next"),
    )
    play(lost, "strategy", "pin=pin-dump", "3d6=10", "throw A2 d11")
    assert lost.dump_next
    play(lost, "3d6=5", "roll", "3d6=12")
    assert lost.offense == 1 and not lost.dump_next


def test_HM_PIN_5_HM_R41_match_pairs_each_defender_with_the_closest_attacker() -> None:
    # "Match (TM): ... Each defensive player should be 1:1 with each offensive player ...
    # move each to the closest offensive player": pairs go closest first (ties: lower
    # defender, then lower attacker), not by shirt number.
    state = lane(strategy=True, used=(True, False), strategy_equipment="pin")
    events = play(state, "3d6=10", "throw A2 d11", "strategy", "pin=pin-match")
    moved = {e.player: e.cell for e in events if isinstance(e, ev.Matched)}
    # B5 (e13) is 1 from A2: the closest pair, and he is already beside A2, so he stays
    # (by number B2 would have gone to A2 and B5 to A5 on the back row).
    assert 11 not in moved and name(state, "B5") == "e13"
    # B1 (f8) and B2 (d9) are both 2 from A1: the tie goes to B1, who steps beside A1.
    assert moved[7] == "f7" and state.adjacent(state.pos[0]) >> state.pos[7] & 1
    # Everyone else is matched 1:1 with A3..A7 on the back row: each has a defender beside.
    assert all(state.adjacent(state.pos[a]) & state.occupied[1] for a in range(7))


def test_HM_PIN_5_HM_R41_a_pin_monster_moves_only_the_acting_player_and_acts_twice() -> None:
    # "Monster (1M): The acting player may move up to 5 spaces": only the spinner.
    state = lane({"B3": "h5"}, strategy=True, used=(True, False), strategy_equipment="pin")
    play(state, "3d6=10", "throw A2 d11", "strategy", "pin=pin-monster")
    assert {a.split()[1] for a in legal(state) if a != "monster stay"} == {"B1"}
    with pytest.raises(IllegalActionError, match="only the acting player, B1"):
        play(state, "monster B5 c10")
    # B1, the Mark, moves to e10, beside the path (e9, d10) but not the disc any more: HM-R22,
    # "Roll team dice to take any appropriate player action once the designated Monster has
    # reached their destination": he bids as an Intercept (2 dice), not as the Mark.
    play(state, "monster B1 e10")
    assert state.chance_outcomes()[-1][0].notation() == "2d6=12"
    events = play(state, "2d6=3", "2d6=4")
    # "Monsters who spin Playmaker Pins also have the option to ... [act] twice during the
    # same play": as the disc reaches e9, beside him, he bids again.
    assert bids(events) == [("B1", "intercept", False), ("B1", "intercept", False)]
    star = lane({"B3": "h5"}, strategy=True, used=(True, False), strategy_equipment="pin",
                all_stars=True)  # fmt: skip
    play(star, "3d6=7", "throw A2 d11", "monster stay", "strategy", "pin=pin-monster")
    events = play(star, "monster B1 e10", "2d6=3", "2d6=3")
    # HM-STAR-6: B1 is the All-Star and "may only act once per Up Call": no second bid.
    assert bids(events) == [("B1", "intercept", False), ("B2", "intercept", False)]
    twice = lane(strategy=True, used=(True, False), strategy_equipment="pin")
    play(twice, "3d6=10", "throw A2 d11", "strategy", "pin=pin-monster")
    # To c10, beside the disc's stop: nothing to do now (he waits for the catch) ...
    events = play(twice, "monster B1 c10", "2d6=3", "2d6=3", "3d6=12", "3d6=5", "3d6=5", "2d6=2")
    assert "B1 may not roll as the Mark: no action from his new space." in texts(events)
    # ... and he bids as a Mark at the catch.
    assert ("B1", "catch-mark", False) in bids(events)


def test_HM_PIN_5_HM_R41_a_matched_bidder_bids_in_the_role_his_new_space_gives_him() -> None:
    # Match moves "the entire defensive team", the bidder included, and a Mark "must be next to
    # the game disc to take an action". B1, the Mark (f9), is matched with A3 (h9) and goes to
    # g9, away from the disc, its path and the Receiver: he no longer bids (he rolled 3 dice
    # as the Mark from there before issue 34).
    state = lane({"B1": "f9", "B2": "d7", "A3": "h9"}, strategy=True, used=(True, False),
                 strategy_equipment="pin")  # fmt: skip
    events = play(state, "3d6=10", "throw A2 d11", "strategy", "pin=pin-match")
    assert name(state, "B1") == "g9"
    assert "B1 may not roll as the Mark: no action from his new space." in texts(events)
    assert bids(events) == [] and isinstance(top(state), OffenseAction)
    # "Only one Mark may roll against a single Handler Throw": B3, the Mark (f8), spins Match;
    # B1 (d9), numbered below him, is matched beside A1 on d8, next to the disc. B3 bids as
    # the Mark and B1 does not roll as a second one.
    second = lane({"A3": "f9", "B3": "f8", "B1": "d9", "B2": "h4"}, strategy=True,
                  used=(True, False), strategy_equipment="pin")  # fmt: skip
    play(second, "3d6=10", "throw A2 d11", "strategy", "pin=pin-match")
    assert name(second, "B1") == "d8"
    events = play(second, "3d6=5")
    assert bids(events) == [("B3", "mark", False)]
    nxt = top(second)
    assert not (isinstance(nxt, Bid) and nxt.role == "mark")
    # Same at the catch: B4, a Mark beside the disc's stop (c10), is matched away to c2.
    catch = lane({"B4": "c10", "A3": "c9", "B5": "h3"}, strategy=True, used=(True, False),
                 strategy_equipment="pin")  # fmt: skip
    play(catch, "3d6=10", "throw A2 d11", "roll", "3d6=3", "roll", "2d6=2", "roll", "2d6=2")
    play(catch, "3d6=12", "strategy")
    events = play(catch, "pin=pin-match")
    assert name(catch, "B4") == "c2"
    assert "B4 may not roll as the Mark at the catch: no action from his new space." in texts(
        events
    )
    assert catch.holder == 1  # nobody else guards the catch: A2 has it


def test_HM_PIN_5_HM_R41_a_pin_monster_mark_does_not_roll_twice_as_the_mark() -> None:
    # HM-R41: the pin Monster who moved may "bid again later in the same throw (as the disc
    # passes him, or at the catch)". B1, the Mark, moves one space round the disc (f8 -> f9)
    # and rolls as the Mark; he used to roll as the Mark a second time at once. Now his second
    # bid waits until the disc reaches e9, beside him: an Intercept.
    state = lane(strategy=True, used=(True, False), strategy_equipment="pin")
    play(state, "3d6=10", "throw A2 d11", "strategy", "pin=pin-monster", "monster B1 f9")
    events = play(state, "3d6=5", "2d6=3")
    assert bids(events) == [("B1", "mark", False), ("B1", "intercept", False)]


def test_HM_GDISC_1_HM_R39_each_game_disc_shows_only_its_own_side() -> None:
    state = lane(strategy=True, strategy_equipment="game-disc")
    play(state, "strategy")
    assert [a.notation() for a, _ in state.chance_outcomes()] == [
        f"pin=pin-{w}"
        for w in ("huck", "push", "brush", "flick", "hammer", "doink", "scoober", "float", "dump")
    ]
    defense = lane(strategy=True, used=(True, False), strategy_equipment="game-disc")
    play(defense, "3d6=10", "throw A2 d11", "strategy")
    assert all(
        a.notation().removeprefix("pin=pin-")
        in ("monster", "footer", "layout", "strike", "hot-bid", "flash", "match", "markd", "beat")
        for a, _ in defense.chance_outcomes()
    )


def test_HM_TPIN_1_HM_TPIN_2_HM_R38_team_pins_replace_every_team_dice_roll() -> None:
    state = lane(team_pins=True)
    outcomes = state.chance_outcomes()
    assert [a.notation() for a, _ in outcomes] == [f"spin={v}" for v in range(1, 19)]
    assert all(p == Fraction(1, 18) for _, p in outcomes)
    play(state, "spin=10", "throw A2 d11", "spin=9")
    # An Intercept spins the same 1..18 (no 2-dice limit of 12).
    assert [a.notation() for a, _ in state.chance_outcomes()][-1] == "spin=18"
    moves = position({"A1": "e7"}, disc="e8", holder="A1", stack=[TeamMoves("normal", 1, 0)],
                     opts=options(team_pins=True))  # fmt: skip
    assert len(moves.chance_outcomes()) == 18  # team moves too (HM-R38)


def test_HM_STEALTH_1_HM_R40_a_player_on_a_stealth_space_adds_one() -> None:
    state = lane(stealth_spaces=True)
    field = state.field
    spaces = sorted(field.name(c) for c in range(field.size) if state.stealth >> c & 1)
    assert spaces == ["a11", "b7", "c11", "d7", "e11", "f7", "g11", "h7"]
    # The same pattern seen from the other end (the field turned round for the other team).
    turned = {field.cell(7 - field.coords(c)[0], 16 - field.coords(c)[1]) for c in range(field.size)
              if state.stealth >> c & 1}  # fmt: skip
    assert sum(1 << c for c in turned) == state.stealth
    standing = lane({"A1": "f7"}, stealth_spaces=True)  # f7 is a Stealth Space beside e8
    events = play(standing, "3d6=9")
    assert standing.base == 10
    assert "Team A rolls 10 (+1 from a Stealth Space) for the Throw." in texts(events)
    bidder = lane({"B1": "f7"}, stealth_spaces=True)  # f7: a Stealth Space beside e8
    events = play(bidder, "3d6=10", "throw A2 d11", "3d6=10")
    assert bids(events) == [("B1", "mark", True)]  # 10 + 1 beats 10


# -- Sideline All-Stars --------------------------------------------------------------------------


def test_HM_STAR_1_HM_STAR_3_HM_R42_the_handler_all_star_adds_throw_catch_and_pull() -> None:
    state = lane(all_stars=True)  # A1 (e7) is A's All-Star and throws
    events = play(state, "3d6=7")
    assert state.base == 10 and "Team A rolls 10 for the Throw." in texts(events)
    catcher = position(
        {**LANE, "A1": "d12", "A2": "e7"},
        disc="e8",
        holder="A2",
        stack=[UpCall("aim"), OffenseAction("throw", "declare")],
        opts=options(throw_path="straight", strategy_dice=False, all_stars=True),
        up_calls=1,
    )
    play(catcher, "3d6=7", "throw A1 d11", "monster stay", "3d6=3", "2d6=2", "2d6=2", "3d6=9")
    assert catcher.base == 10  # the All-Star's catch: 9 + 1
    from monsterball.games.huck_monster.rules.point import PullRoll

    pulling = position({}, disc="d15", stack=[PullRoll()], opts=options(all_stars=True))
    play(pulling, "3d6=5")
    assert top(pulling) == PullLanding(7)  # Pull +2


def test_HM_STAR_4_HM_R43_the_monster_all_star_bids_higher_and_may_up_move() -> None:
    state = lane(all_stars=True)
    play(state, "3d6=7", "throw A2 d11")  # A1, the Handler All-Star, throws 7 + 3 = 10
    # HM-R43: once the path is known B1, the designated Monster, may move up to 5 spaces.
    assert state.current_player() == 1 and "monster stay" in legal(state)
    assert all(a.startswith("monster B1") or a == "monster stay" for a in legal(state))
    with pytest.raises(IllegalActionError, match="only the All-Star"):
        play(state, "monster B2 c9")
    events = play(state, "monster stay", "3d6=10")
    assert bids(events) == [("B1", "mark", True)]  # Mark +1: 11 beats 10
    mover = lane(all_stars=True)
    play(mover, "3d6=7", "throw A2 d11", "monster B1 c10", "2d6=2", "2d6=2", "3d6=12")
    events = play(mover, "3d6=10", "3d6=11")
    # B1 moved beside the disc's stop: he bids as a Mark at the catch, 10 + 1 against 12.
    assert bids(events)[:2] == [("B1", "catch-mark", False), ("B4", "catch-mark", False)]
    decided = [e for e in events if isinstance(e, ev.BidDecided) and e.player == 7]
    assert decided[0].defense == 11
    intercept = lane({"B1": "b7", "B2": "h4", "B3": "h3"}, all_stars=True)
    play(intercept, "3d6=7", "throw A2 d11", "monster B1 d9")
    events = play(intercept, "2d6=9")
    assert bids(events) == [("B1", "intercept", True)]  # Intercept +2: 11 beats 10


def test_HM_STAR_5_the_all_star_has_a_guaranteed_move() -> None:
    state = position({"A1": "b5", "A2": "e7"}, disc="e8", holder="A2",
                     stack=[TeamMoves("normal", 1, 0)], opts=options(all_stars=True))  # fmt: skip
    play(state, "3d6=3")
    assert top(state) == Moving(0, 3, 3)
    play(state, "A3-c4")  # the team count is spent on A3 ...
    assert top(state) == Moving(0, 0, 3)
    assert {a.split("-")[0] for a in legal(state)} == {"A1", "end"}  # ... A1 still moves 3
    play(state, "A1-b8")
    assert isinstance(top(state), MoveRoll) and top(state).team == 1  # type: ignore[attr-defined]
    play(state, "3d6=3")
    assert top(state) == Moving(1, 3, 5)  # the Monster's Move +5


def test_HM_STAR_2_HM_STAR_6_HM_STAR_7_roles_follow_possession_and_stack_with_strategy() -> None:
    state = lane(all_stars=True, strategy=True)
    play(state, "roll", "3d6=7", "throw A2 d11", "monster stay", "strategy", "dark=hot-bid")
    play(state, "3d6=12", "keep")
    assert state.offense == 1 and state.holder == 7
    # B1 is now B's designated Handler: his throw gets +3, and strategy adds on top.
    play(state, "3d6=3", "end", "3d6=3", "end", "strategy", "light=huck", "3d6=4")
    assert state.base == 7 and offense_total(state) == 14


def offense_total(state: HuckMonsterState) -> int:
    from monsterball.games.huck_monster.matchup import offense_count

    return offense_count(state.base, state.light, state.action, state.halved)


def test_HM_EXP_1_HM_R44_ruled_out_results_count_for_nothing() -> None:
    state = lane(strategy=True, expert_disabled="huck, no-big")
    events = play(state, "strategy", "light=huck", "3d6=6")
    assert "Team A rolls its strategy die: huck (no effect on this action)." in texts(events)
    assert state.light == "" and state.strategy_used[0]
    events = play(state, "throw A2 d11", "strategy", "dark=no-big", "3d6=7")
    assert bids(events) == [("B1", "mark", True)]  # a plain 7 beats the un-doubled 6
    with pytest.raises(Exception, match="unknown outcome"):
        options(expert_disabled="hucks")


# -- Mini Cone kit: Pothole Markers ---------------------------------------------------------------


def test_HM_CONE_1_HM_R45_each_point_starts_with_a_cone_in_each_end_zone_corner() -> None:
    state = SPEC.new_game(options(potholes=True))
    cones = sorted(state.field.name(c) for c in range(state.field.size) if state.cones >> c & 1)
    assert cones == ["a1", "a17", "h1", "h17"]
    assert legal(state) == {f"place {c}3" for c in "abcdefgh"}  # the line is clear of cones


def test_HM_CONE_2_HM_CONE_4_a_turnover_adds_a_cone_beside_the_new_defense() -> None:
    state = lane(potholes=True, cones=["a1", "h1", "a17", "h17"])
    play(state, "3d6=10", "throw A2 d11", "3d6=12")  # B1's Mark wins: A is now the defense
    assert state.current_player() == 0
    targets = {a.split()[1] for a in legal(state)}
    assert {"e6", "d8", "c12"} <= targets  # beside A1 (e7) or A2 (d12) ...
    assert "e9" not in targets and "a5" not in targets  # ... not elsewhere
    with pytest.raises(IllegalActionError, match="beside one of your players"):
        play(state, "cone a5")
    events = play(state, "cone e6")
    assert "Team A puts a cone on e6." in texts(events)
    # HM-CONE-4: nobody moves onto a cone, and no throw passes over one.
    play(state, "3d6=4")
    assert not any(a.endswith("-e6") for a in legal(state))
    assert "/\\" in state.render()


def test_HM_CONE_3_with_all_cones_in_play_one_is_moved() -> None:
    eight = ["a1", "h1", "a17", "h17", "b5", "c5", "e6", "g4"]
    state = lane(potholes=True, cones=eight)
    play(state, "3d6=10", "throw A2 d11", "3d6=12")
    moves = legal(state)
    # Only cones beside A's players may move: e6 (beside A1) and h1 (beside A7 on g1).
    assert moves and {a.split()[1] for a in moves} == {"e6", "h1"}
    with pytest.raises(IllegalActionError, match="all 8 cones are in play"):
        play(state, "cone e9")
    play(state, "cone e6 d6")
    assert state.cones >> state.field.parse_cell("d6") & 1
    assert not state.cones >> state.field.parse_cell("e6") & 1


# -- Pro: Beaten Defenders --------------------------------------------------------------------


def test_HM_BEAT_1_HM_R46_the_disc_passes_over_a_defender_it_has_beaten() -> None:
    state = lane({"B3": "d10"}, beaten_defenders=True)  # B3 stands on the lane
    play(state, "3d6=10")
    assert "throw A2 d11" in legal(state)
    events = play(state, "throw A2 d11", "3d6=9", "2d6=5", "2d6=6")
    # B3 bids before the disc passes over him; beaten, the disc flies on to d11.
    assert bids(events) == [("B1", "mark", False), ("B2", "intercept", False),
                            ("B3", "intercept", False)]  # fmt: skip
    assert state.field.name(state.disc) == "d11"
    won = lane({"B3": "d10"}, beaten_defenders=True)
    events = play(won, "3d6=10", "throw A2 d11", "3d6=9", "2d6=5", "2d6=11")
    assert bids(events)[-1] == ("B3", "intercept", True) and won.holder == 9
    assert won.field.name(won.disc) == "e9"  # stopped before him
    off = lane({"B3": "d10"})
    play(off, "3d6=10")
    assert "throw A2 d11" not in legal(off)  # the standard game never passes over players


def test_HM_BEAT_2_HM_BEAT_3_never_two_defenders_in_a_row_nor_an_offensive_player() -> None:
    two = lane({"B3": "d10", "B6": "e9"}, beaten_defenders=True)
    play(two, "3d6=10")
    assert "throw A2 d11" not in legal(two)
    teammate = lane({"A3": "d10"}, beaten_defenders=True)
    play(teammate, "3d6=10")
    assert "throw A2 d11" not in legal(teammate)
    # A defender who would wait for the catch still bids when the disc passes over him.
    guard = lane({"B4": "d10", "B3": "h3"}, beaten_defenders=True)  # d10 is beside d11
    events = play(guard, "3d6=10", "throw A2 d11", "3d6=9", "2d6=5", "2d6=7")
    assert bids(events)[-1] == ("B4", "intercept", False)


def test_HM_CONE_5_HM_R47_the_receiving_team_picks_each_points_style() -> None:
    state = SPEC.new_game(options(style_each_point=True))
    styles = {"style standard", "style pothole", "style hot-hex"}
    assert state.current_player() == 0 and legal(state) == styles
    events = play(state, "style pothole")
    assert "Team A chooses the game style for this point: pothole." in texts(events)
    assert bin(state.cones).count("1") == 4 and state.style == "pothole"
    plain = SPEC.new_game(options(style_each_point=True, potholes=True))
    play(plain, "style standard")
    assert plain.cones == 0 and plain.style == "standard"
    # After a point the team scored upon chooses again.
    scored = scoring_throw("e15", opts={"style_each_point": True})
    play(scored, "3d6=5", "throw A2 e14")
    assert scored.current_player() == 1 and legal(scored) == styles


# -- issue 34: the rulings revisited -------------------------------------------------------------


def test_HM_PIN_3_HM_R37_a_pin_doink_counts_on_a_catch() -> None:
    # "Doink (-10): Subtract 10 points from the offensive dice count for every "Doink"
    # outcome": unlike Huck and Hammer ("not Receivers") nothing bars it from a catch, so A2's
    # catch of 15 counts 5 and B4, the Mark at the catch, wins with 6 (before rules 1.4 the
    # spin was invalid and 15 stood).
    state = lane(strategy=True, used=(False, True), strategy_equipment="pin")
    play(state, "roll", "3d6=10", "throw A2 d11", "3d6=3", "2d6=2", "2d6=2")
    events = play(state, "strategy", "pin=pin-doink", "3d6=15", "3d6=6")
    assert bids(events) == [("B4", "catch-mark", True)] and state.offense == 1
    decided = [e for e in events if isinstance(e, ev.BidDecided)]
    assert decided[0].offense == 5


def test_HM_STAR_4_HM_R43_up_move_any_time_is_offered_again_before_the_catch() -> None:
    # "Monsters may move up to 5 spaces at any time during the offensive Up Call": with
    # up_move=any-time B1, who stayed when the path was known, may still move just before the
    # catch, and bids there as the Mark at the catch.
    layout = {"B1": "h9"}
    state = lane(layout, all_stars=True, up_move="any-time")
    play(state, "3d6=7", "throw A2 d11", "monster stay", "2d6=2", "2d6=2")
    assert "monster stay" in legal(state) and state.current_player() == 1
    events = play(state, "monster B1 e11", "3d6=12", "3d6=3")
    assert bids(events)[0] == ("B1", "catch-mark", False)
    # By default the Up Move is offered once, with the path: the catch comes straight on.
    plain = lane(layout, all_stars=True)
    play(plain, "3d6=7", "throw A2 d11", "monster stay", "2d6=2", "2d6=2")
    assert isinstance(top(plain), OffenseAction) and top(plain).kind == "catch"  # type: ignore[attr-defined]


def test_HM_PIN_5_HM_R41_match_keeps_off_a_path_that_comes_back_on_itself() -> None:
    # "move each to the closest offensive player" onto an open space, not on the disc's path
    # ahead (HM-R22: the path ahead must stay open). A hammered throw may come back over a
    # space: this path (found by the fuzz campaign, midnight-pickup) runs ... b5, b4, b5, and
    # adding each space's bit twice carried into another space, so A5 was matched onto b5 and
    # the disc then stopped on him (the position no longer loaded). Since 1.4.2 the search
    # never flies such a path (HM-R9); the position still loads and guards the masks.
    data = json.loads((DATA / "match_path_comes_back.json").read_text())
    state = SPEC.from_position(data)
    assert [state.field.name(c) for c in state.path[-3:]] == ["b5", "b4", "b5"]
    ahead = {state.field.name(c) for c in state.path}
    play(state, "pin=pin-match")
    stands = {name(state, f"A{n}") for n in range(1, 8)}
    assert not stands & ahead
    assert name(state, "A5") == "a5"  # beside B7 (a6), off the path (b5 before the fix)
    play(state, "3d6=12", "2d6=9")
    assert SPEC.from_position(state.to_position()).to_position() == state.to_position()
