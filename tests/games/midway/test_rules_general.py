"""Monsters of the Midway scenario tests: general rules (downs, game length, hash marks, out
of bounds, options), special abilities and spells (MW-GEN, MW-SPEC, MW-MAGIC and rulings of
docs/rules/monsters-of-the-midway.md).

Each test builds a position (tests/helpers/midway.py), gives every die explicitly as a chance
outcome (``d6=4``) and checks the exact outcome the rule demands. Team A attacks north.
"""

from __future__ import annotations

import pytest

from monsterball.core.errors import IllegalActionError
from monsterball.games.midway.events.lineup import StunnedReturn
from monsterball.games.midway.state import FOREVER
from tests.helpers import ROOT
from tests.helpers.midway import (
    SPEC,
    act,
    cell,
    legal,
    moves_of,
    running,
    scrimmage_ready,
    setup,
    start_phase,
    texts,
    top,
)

# -- general -----------------------------------------------------------------------------------


def test_MW_GEN_2_four_downs_and_no_first_down():
    state = running(A1="g10", B1="g12")
    state.down = 4
    act(state, "A1-g11", "tackle B1 g11", "d6=1")
    assert state.offense == 1 and state.down == 1 and state.field.name(state.spot) == "g11"


def test_MW_GEN_4_a_game_is_25_plays():
    state = running()
    state.plays = 25
    act(state, "A1-h11", "A1-h12", "tackle B1 h12", "d6=1")
    assert state.is_terminal() and state.result_text() == "draw, A 0 - B 0"
    assert SPEC.options().plays == 25


def test_MW_GEN_6_hash_marks():
    state = running(A1="b10", B1="a11")
    act(state, "A1-a10", "tackle B1 a10", "d6=1")
    assert state.field.name(state.spot) == "c10"


def test_MW_GEN_1_MW_R13_stepping_out_of_bounds():
    state = running(A1="b10")
    assert "out" not in legal(state)
    act(state, "A1-a10", "out")
    assert state.field.name(state.spot) == "c10" and state.down == 2


def test_MW_R14_max_phases_caps_a_play():
    state = running({"max_phases": 2})
    act(state, "end", "end")
    assert state.plays == 4 and top(state) == "SetUp"


def test_MW_R3_compass_numbering_option():
    state = setup(
        {"B1": "f21", "A1": "g15"},
        ball="f22",
        ball_state="kick",
        kind="kickoff",
        direction="compass",
    )
    assert state.direction_target(cell(state, "f22"), 3, 1) == state.direction_target(
        cell(state, "f22"), 0, 1
    )
    state2 = setup({"B1": "f21"}, ball="f22", ball_state="kick", kind="kickoff")
    assert state2.direction_target(cell(state2, "f22"), 3, 1) != state2.direction_target(
        cell(state2, "f22"), 0, 1
    )


# -- special abilities --------------------------------------------------------------------------


def test_MW_SPEC_1_MW_SPEC_4_dwarves_and_minotaurs_block_as_giants():
    from monsterball.games.midway.moves import block_modifier

    state = setup({"A1": "g10", "A2": "g12", "B1": "g12"}, types={"A2": "dwarf", "B1": "treant"})
    assert block_modifier(state, 1, 10) == 0  # a dwarf on a treant (G): as a giant
    state.roster[10] = "bugbear"
    assert block_modifier(state, 1, 10) == -2  # on an L: still S
    state.roster[1] = "minotaur"
    assert block_modifier(state, 1, 10) == 1


def test_MW_SPEC_2_MW_SPEC_3_MW_SPEC_6_sizes_when_blocked_or_tackled():
    from monsterball.games.midway.moves import block_modifier, tackle_modifier

    state = setup({"A1": "g10", "B1": "g12"}, types={"A1": "bugbear", "B1": "elf"})
    assert block_modifier(state, 0, 10) == 2  # elf as S
    state.roster[10] = "goblin"
    assert block_modifier(state, 0, 10) == 1  # goblin as M
    state.roster[0] = "treant"
    state.roster[10] = "human"
    assert tackle_modifier(state, 0, 10) == 2 - 1  # treant carrier: G, and -1


def test_MW_SPEC_5_hobgoblin_chases_the_nearest_elf():
    state = running(B2="c14", A3="a4")
    act(state, "end")  # B defends: its hobgoblin B2 chases A's elf A3
    state.roster[11] = "hobgoblin"
    state.roster[2] = "elf"
    here = state.field.distance(cell(state, "c14"), cell(state, "a4"))
    moves = moves_of(state, "B2")
    assert moves and "c15" not in moves
    for m in moves:
        assert state.field.distance(cell(state, m), cell(state, "a4")) <= here


def test_MW_SPEC_7_kobolds_and_orcs_are_never_out_for_the_game():
    from monsterball.games.midway.rules.inplay import injure

    state = setup({"A4": "g10", "A1": "g8"}, types={"A4": "orc"})
    injure(state, 3, True)
    assert state.out_through[3] == state.play_no + 1
    injure(state, 0, True)
    assert state.out_through[0] == FOREVER


def test_MW_SPEC_8_MW_R12_ettin_turns_on_a_teammate():
    state = setup({"A1": "g10", "A2": "h10", "B1": "a20"}, types={"A2": "ettin"}, carrier="A1")
    state.stack = (
        SPEC.state_type.procedure_kinds["Play"](),
        SPEC.state_type.procedure_kinds["StartPhase"](0),
    )
    state._settle()
    assert top(state) == "EttinRoll"
    act(state, "d6=6")
    events = act(state, "d6=1")  # G on M: +2 = 3, success
    assert "A1 can do nothing this phase" in texts(events)[0]
    assert "A1-g11" not in legal(state)


def test_MW_R15_a_team_with_no_fit_player_forfeits():
    state = running(A1="b10")
    for p in range(10, 20):
        state.out_through[p] = FOREVER  # every B player injured for the game
    state.score = [0, 7]
    events = act(state, "A1-a10", "out")
    assert state.is_terminal() and state.winner == 0
    assert "Team B has no fit player left for the game." in texts(events)
    # Players out only for the next play come back at once if nobody else is fit.
    state = running(A1="b10")
    for p in range(10, 20):
        state.out_through[p] = state.play_no + 1  # stunned by lightning bolts
    events = act(state, "A1-a10", "out")
    assert not state.is_terminal() and StunnedReturn(1) in events
    assert all(state.available(p) for p in range(10, 20))


def test_MW_SPEC_5_hobgoblin_sets_up_and_adjusts_toward_the_elf():
    state = scrimmage_ready()
    state.roster[2] = "elf"  # A3
    state.roster[13] = "hobgoblin"  # B4
    act(state, "A1@g10", "A2@f10", "A3@l10", "auto")
    cells = {a.split("@")[1] for a in legal(state) if a.startswith("B4@")}
    assert cells == {"l11", "m11"}  # the nearest hexes to the elf on l10 on B's side
    with pytest.raises(IllegalActionError, match="hobgoblin"):
        act(state, "B4@a20")
    act(state, "B4@l11", "auto", "end")
    assert top(state) == "Adjust"
    here = state.field.distance(cell(state, "l11"), cell(state, "l10"))
    for m in moves_of(state, "B4"):
        assert state.field.distance(cell(state, m), cell(state, "l10")) <= here


def test_MW_MAGIC_6_MW_SPEC_7_change_self_takes_the_forms_special_abilities():
    from monsterball.games.midway.rules.inplay import injure

    state = setup({"A2": "g10"}, types={"A2": "doppelganger"})
    state.form[1] = "orc"
    injure(state, 1, True)
    assert state.out_through[1] == state.play_no + 1  # as an orc: never out for the game


def test_MW_R18_a_spell_once_per_play_by_default():
    def bolted(**options):
        state = setup(
            {"A1": "g12", "A2": "c10", "B1": "g20", "B2": "a20"},
            types={"B2": "storm-giant"},
            carrier="A1",
            los="g10",
            **options,
        )
        start_phase(state, 0)
        act(state, "end", "cast B2 bolt A2", "end", "end")  # B's next phase, same play
        return state

    assert not any(a.startswith("cast B2") for a in legal(bolted()))
    assert "cast B2 bolt A1" in legal(bolted(spell_limit="none"))
    state = bolted(spell_limit="game")
    assert state.spent >> 11 & 1
    state = bolted()
    act(state, "end", "A1-g13", "end")  # ... until the next play


def test_every_step_names_a_documented_rule():
    """Each procedure's ``rule`` is an id (or ruling) of docs/rules/monsters-of-the-midway.md."""

    doc = (ROOT / "docs/rules/monsters-of-the-midway.md").read_text()
    for name, kind in SPEC.state_type.procedure_kinds.items():
        rule = kind.rule
        assert rule, name
        assert f"| {rule} |" in doc or f"**{rule} " in doc, (name, rule)
