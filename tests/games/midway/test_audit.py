"""Scenario tests for the rules the audit of issue 13 found wrong (MW-BLOCK-9, MW-TACK-8,
MW-MAGIC-6, MW-SPEC-8 with ruling MW-R12). Each quotes the rulebook's words and checks the
exact outcome they demand. Team A attacks north."""

from __future__ import annotations

import pytest

from monsterball.games.midway.events.contact import EttinAttacked
from tests.helpers.midway import SPEC, act, legal, setup, start_phase, texts, top


def _blocked_defender(face: str):
    """A2 blocks B1 at the end of A's phase; the carrier A1 stands next to B1 all along."""
    state = setup(
        {"A1": "g10", "A2": "f10", "B1": "g11", "B2": "m20"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "A2-g11", "end")  # A2 blocks B1
    events = act(state, f"d6={face}")
    return state, texts(events)[0]


def test_MW_BLOCK_9_a_successful_block_bars_the_end_of_phase_tackle():
    """Rulebook: "A result of 'Successful block' means the defensive player can neither move nor
    attempt a tackle for the following movement phase." The tackle round at the end of
    the defense's phase belongs to that phase: B1 is not offered it."""
    state, text = _blocked_defender("6")
    assert "successful block" in text
    assert top(state) == "Phase" and state.stack[-1].team == 1
    assert not any(a.startswith("B1-") for a in legal(state))  # no move
    act(state, "end")
    # B1 is next to the carrier, yet no tackle round: the play goes on with A's phase.
    assert top(state) == "Phase" and state.stack[-1].team == 0
    # In the next set he may tackle again: the carrier steps away and back next to him.
    act(state, "A1-h10")
    assert top(state) == "Phase"
    act(state, "A1-h11")
    assert top(state) == "TackleRound" and "tackle B1 h11" in legal(state)


def test_MW_BLOCK_8_a_neutralized_defender_still_tackles_at_the_end_of_his_phase():
    """Rulebook: "Neutralize ... cannot move for the following movement phase but can attempt a
    tackle in an adjacent hex." """
    state, text = _blocked_defender("3")
    assert "neutralize" in text
    assert not any(a.startswith("B1-") for a in legal(state))
    act(state, "end")
    assert top(state) == "TackleRound" and legal(state) == {"tackle B1 g10", "no"}


def _slowed_then_handoff():
    state = setup(
        {"A1": "g10", "A2": "g12", "B1": "i12", "B2": "a20"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "A1-h11", "A1-h12", "tackle B1 h12", "d6=4")  # 4: slowed (-2)
    act(state, "end", "end")  # B's phase passes; A's next phase begins
    return state


def test_MW_TACK_8_a_handoff_does_not_pass_the_slowing_on():
    """Rulebook: "Ball carrier slowed ... causing the ball carrier to lose 1 or 2 ... from
    its movement factor for the next offensive movement phase": the slowed player's own
    movement factor; a fresh runner taking a handoff keeps his full movement."""
    state = _slowed_then_handoff()
    phase = state.stack[-1]
    assert top(state) == "Phase" and phase.team == 0
    assert phase.left[0] == 1  # A1 (human, 3): 3 - 2
    assert phase.left[1] == 3  # A2, who was never tackled, keeps his 3
    act(state, "hand A2")
    assert state.carrier == 1 and state.stack[-1].left[1] == 3


def test_MW_TACK_8_the_slowed_player_keeps_the_loss_after_handing_off_first():
    """Handed off before his next phase, the slowed player still loses the movement and
    his new carrier does not."""
    state = setup(
        {"A1": "g10", "A2": "i13", "B1": "i12", "B2": "a20"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "A1-h11", "A1-h12", "tackle B1 h12", "d6=4")  # slowed (-2)
    act(state, "hand A2", "end", "end")
    act(state, "no")  # MW-TACK-3: B1 may try the new carrier; he does not
    phase = state.stack[-1]
    assert state.carrier == 1 and phase.team == 0
    assert (phase.left[0], phase.left[1]) == (1, 3)


def test_MW_MAGIC_6_change_self_lasts_two_movement_phases_whoever_moves():
    """Rulebook: "Change Self: This spell lasts for up to two movement phases": with option
    change_self_count=all, the caster's phase and the next one (the other team's); at the
    start of the third it has run out."""
    state = setup(
        {"A1": "g12", "A2": "c10", "B1": "g20"},
        types={"A2": "doppelganger"},
        carrier="A1",
        los="g10",
        change_self_count="all",
    )
    start_phase(state, 0)
    act(state, "cast A2 change bugbear")
    assert state.kind_of(1) == "bugbear"  # movement phase 1: A's
    act(state, "end")
    assert state.kind_of(1) == "bugbear"  # movement phase 2: B's
    events = act(state, "end")
    assert "A2 changes back." in texts(events)  # the start of phase 3
    assert state.kind_of(1) == "doppelganger"


def _ettin_next_to(mate_type: str, carrier: bool):
    players = (
        {"A1": "g10", "A2": "h10", "B1": "a20"}
        if carrier
        else {
            "A1": "c5",
            "A2": "h10",
            "A3": "g10",
            "B1": "a20",
        }
    )
    types = {"A2": "ettin", ("A1" if carrier else "A3"): mate_type}
    state = setup(players, types=types, carrier="A1", los="g10")
    state.stack = (
        SPEC.state_type.procedure_kinds["Play"](),
        SPEC.state_type.procedure_kinds["StartPhase"](0),
    )
    state._settle()
    assert top(state) == "EttinRoll"
    act(state, "d6=6")  # "A result of '6' indicates that the ettin will make a block or
    return state  # tackle attempt against his teammate."


def test_MW_SPEC_8_MW_R12_the_ettin_tackles_a_teammate_carrying_the_ball():
    """On the carrier the ettin's attempt is a tackle: the tackling column with the
    carrier's size down the left (centaur L against ettin G: -1). d6 1: 0, tackled, so
    the attempt succeeds (as a block, +1 = 2, it would have failed); the play goes on."""
    state = _ettin_next_to("centaur", carrier=True)
    events = act(state, "d6=1")
    assert events[0] == EttinAttacked(1, 0, True, 1, -1, 0, True)
    assert not state.dead and state.carrier == 0
    assert not any(a.startswith("A1-") for a in legal(state))
    # d6 6: 5, slowed: still a success; nobody is slowed or hurt.
    state = _ettin_next_to("centaur", carrier=True)
    events = act(state, "d6=6")
    assert "it succeeds" in texts(events)[0] and state.slowed == 0


def test_MW_SPEC_8_MW_R12_the_ettin_blocks_a_teammate_without_the_ball():
    """Not the carrier: a block (ettin G on centaur L: +1) that succeeds on neutralize."""
    state = _ettin_next_to("centaur", carrier=False)
    events = act(state, "d6=1")  # 2: blocker defeated
    assert events[0] == EttinAttacked(1, 2, False, 1, 1, 2, False)
    assert any(a.startswith("A3-") for a in legal(state))
    state = _ettin_next_to("centaur", carrier=False)
    events = act(state, "d6=2")  # 3: neutralize
    assert "it succeeds" in texts(events)[0]
    assert not any(a.startswith("A3-") for a in legal(state))


def test_MW_SPEC_8_the_ettin_does_not_rage_at_a_hidden_caster():
    """Ruling MW-R10: the other coach may not learn which counter is real; an ettin roll
    next to the real counter (and not next to the image) would tell him."""
    state = setup(
        {"A1": "g10", "A2": "c10", "A3": "b10", "B1": "a20"},
        types={"A2": "brownie", "A3": "ettin"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    assert top(state) == "EttinRoll"  # visible, the brownie is a teammate like any other
    act(state, "d6=1", "cast A2 mirror", "d6=2", "image d10", "real c10")
    assert state.field.distance(state.pos[2], state.images[0]) == 2  # b10 .. d10
    state.stack = (*state.stack[:-1], SPEC.state_type.procedure_kinds["StartPhase"](0))
    state._settle()
    assert top(state) == "Phase"  # no roll for the hidden caster


@pytest.mark.parametrize("face", ["4", "5"])
def test_MW_TACK_8_slowed_amounts(face):
    state = setup({"A1": "g10", "B1": "i12", "B2": "a20"}, carrier="A1", los="g10")
    start_phase(state, 0)
    act(state, "A1-h11", "A1-h12", "tackle B1 h12", f"d6={face}")
    assert state.slowed == {"4": 2, "5": 1}[face]  # A1's two bits
