"""Magic, and the hidden information it creates (MW-MAGIC-1..9, rulings MW-R10, MW-R11).

The state keeps the truth; what the other seat can see (view, render, legal actions, error
messages, the text of the caster's actions) must be the same whichever counter is real.
"""

from __future__ import annotations

import json

import pytest

from monsterball.core.errors import IllegalActionError
from monsterball.core.game import CHANCE
from tests.helpers.midway import (
    SPEC,
    act,
    cell,
    legal,
    mirror_play,
    moves_of,
    setup,
    start_phase,
    texts,
    top,
)

GROUP = ("f12", "g12", "g13", "h12")


def test_MW_MAGIC_2_MW_R10_images_placed_and_the_real_one_chosen_in_secret():
    state = mirror_play("h12")
    assert sorted(state.field.name(c) for c in state.images) == ["f12", "g12", "g13"]
    assert state.field.name(state.pos[0]) == "h12" and state.field.name(state.ball) == "h12"
    assert state.image_phases == 4
    real = SPEC.parse_action("real h12")
    assert "h12" not in real.public_text()  # what the other coach is told
    assert "h12" in real.notation()  # the record keeps the truth


def test_MW_MAGIC_2_placement_rules():
    state = setup({"A1": "g12", "B1": "g16"}, types={"A1": "brownie"}, carrier="A1", los="g10")
    start_phase(state, 0)
    act(state, "cast A1 mirror", "d6=3")  # 2 images
    cells = {a.split()[1] for a in legal(state)}
    assert cells == {state.field.name(c) for c in state.field.neighbours[cell(state, "g12")]}
    act(state, "image h12")
    cells = {a.split()[1] for a in legal(state)}
    assert "i12" in cells  # next to the image just placed
    with pytest.raises(IllegalActionError):
        act(state, "image a1")


@pytest.mark.parametrize("seat_view", [1, None])
def test_MW_MAGIC_4_hidden_caster_views_are_identical_whichever_counter_is_real(seat_view):
    states = [mirror_play(real) for real in GROUP]
    views = [json.dumps(s.view(seat_view), sort_keys=True) for s in states]
    assert len(set(views)) == 1
    renders = {s.render(seat_view) for s in states}
    assert len(renders) == 1
    view = json.loads(views[0])
    assert view["players"]["A1"]["hex"] is None and view["players"]["A1"]["hidden"]
    assert view["ball"] == "hidden" and view["carrier"] == "hidden"
    assert view["counters"] == sorted(GROUP, key=lambda n: cell(states[0], n))
    field = "\n".join(renders.pop().splitlines()[:24])
    assert field.count("??") == 4 and "A1" not in field
    # The caster's own coach sees the truth.
    assert states[1].view(0)["players"]["A1"]["hex"] == "g12"


def test_MW_MAGIC_4_hidden_caster_legal_actions_and_errors_reveal_nothing():
    """The defense's options and refusals are the same for every choice of real counter."""
    outcomes = []
    for real in GROUP:
        state = mirror_play(real)
        act(state, "end")  # the defense's phase
        assert state.current_player() == 1
        moves = sorted(legal(state))
        try:
            act(state, "B1-a1")
            error = ""
        except IllegalActionError as exc:
            error = str(exc)
        outcomes.append((moves, error))
    assert all(o == outcomes[0] for o in outcomes)
    assert {"B1-g13", "B1-h12"} <= set(outcomes[0][0])  # every counter may be touched


def test_MW_MAGIC_3_MW_MAGIC_4_the_example_D1_guesses():
    """If BC moves, all three images follow the same route. If D-1 tries to tackle an
    image he finds it is not there; if he guesses right he can end the play."""
    state = mirror_play("g12")
    events = act(state, "shift ne")
    assert texts(events) == ["The mirror-image counters move NE."]
    assert state.field.name(state.pos[0]) == "h13"
    assert sorted(state.field.name(c) for c in state.images) == ["g13", "g14", "i13"]
    act(state, "end")
    # D-1 moves next to three counters and at the end of his phase guesses wrong.
    act(state, "B1-h14", "end")
    assert top(state) == "TackleRound"
    targets = {a.split()[2] for a in legal(state) if a.startswith("tackle")}
    assert targets == {"g14", "h13", "i13"}  # every counter within reach, real or not
    events = act(state, "tackle B1 g14")
    assert "only a mirror image" in texts(events)[0]
    assert "g14" not in {state.field.name(c) for c in state.images}
    assert top(state) == "Phase" and state.current_player() == 0  # D-1 is done


def test_MW_MAGIC_3_guessing_right_ends_the_spell_and_rolls_the_tackle():
    state = mirror_play("g12")
    act(state, "shift ne", "end", "B1-h14", "end")
    events = act(state, "tackle B1 h13")
    assert "finds the real ball carrier" in texts(events)[0]
    assert state.caster == -1 and state.images == []
    assert state.current_player() == CHANCE
    act(state, "d6=1")  # brownie S carrying, elf M tackling: 1 - 1 = 0, tackled
    assert state.down == 2 and state.field.name(state.spot) == "h13"


def test_MW_MAGIC_3_images_pushed_into_an_opponent_or_off_the_field_vanish():
    state = setup(
        {"A1": "b13", "B1": "m14", "B2": "m20"},
        types={"A1": "brownie"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "cast A1 mirror", "d6=2", "image a13", "real b13")
    events = act(state, "shift sw")
    assert "A mirror image leaves play at a13." in texts(events)
    assert state.images == [] and state.field.name(state.pos[0]) == "a12"
    state = setup(
        {"A1": "b12", "B1": "c13", "B2": "m20"},
        types={"A1": "brownie"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "cast A1 mirror", "d6=2", "image c12", "real b12")
    events = act(state, "shift nw")  # the image would step onto B1 on c13
    assert "A mirror image leaves play at c12." in texts(events)
    assert state.images == []


def test_MW_MAGIC_3_MW_R10_mirror_image_only_after_the_snap():
    """ "This spell cannot be cast before the ball is snapped": after a kickoff's kick (its
    snap) by default; never on a kickoff with option mirror_kickoff=never."""
    for rule, open_ in (("after_kick", True), ("never", False)):
        state = setup(
            {"A1": "g12", "B1": "g20"},
            types={"A1": "brownie"},
            carrier="A1",
            kind="kickoff",
            mirror_kickoff=rule,
        )
        start_phase(state, 0)
        assert ("cast A1 mirror" in legal(state)) == open_


def test_MW_MAGIC_1_magic_only_before_the_caster_moves():
    state = setup(
        {"A1": "g12", "A2": "c10", "B1": "g20"}, types={"A2": "werebear"}, carrier="A1", los="g10"
    )
    start_phase(state, 0)
    assert "cast A2 were" in legal(state)
    act(state, "A2-d10")
    assert "cast A2 were" not in legal(state)


def test_MW_MAGIC_9_lycanthropy_changes_size_and_speed():
    state = setup(
        {"A1": "g12", "A2": "c10", "B1": "g20"}, types={"A2": "werebear"}, carrier="A1", los="g10"
    )
    start_phase(state, 0)
    assert (state.mtype(1).size, state.mtype(1).mv) == ("M", 3)
    act(state, "cast A2 were")
    assert (state.mtype(1).size, state.mtype(1).mv) == ("L", 2)
    assert state.stack[-1].left[1] == 2
    act(state, "A2-d10", "end", "end")
    act(state, "cast A2 human")
    assert state.mtype(1).size == "M"


def test_MW_MAGIC_5_lightning_bolt_at_the_ball_or_a_player():
    state = setup(
        {"A1": "g12", "B1": "g20", "B2": "a20"},
        types={"B2": "storm-giant"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "end")
    assert {"cast B2 bolt ball", "cast B2 bolt A1"} <= legal(state)
    act(state, "cast B2 bolt ball")
    assert state.plays == 4 and state.down == 2 and state.field.name(state.spot) == "g10"
    assert state.offense == 0  # MW-R19: as an incomplete pass for the snapping team
    state = setup(
        {"A1": "g12", "A2": "c10", "B1": "g20", "B2": "a20"},
        types={"B2": "storm-giant"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "end", "cast B2 bolt A2")
    assert state.pos[1] == -1 and state.out_through[1] == state.play_no + 1
    assert "cast B2 bolt A1" not in legal(state)  # one bolt per play (MW-R18)


def test_MW_MAGIC_6_MW_R20_change_self_for_two_phases_of_either_team_is_an_option():
    state = setup(
        {"A1": "g12", "A2": "c10", "B1": "g20"},
        types={"A2": "doppelganger"},
        carrier="A1",
        los="g10",
        spell_limit="none",  # a second change in the same play
        change_self_count="all",
    )
    start_phase(state, 0)
    act(state, "cast A2 change bugbear")
    assert state.kind_of(1) == "bugbear" and state.mtype(1).size == "L"
    act(state, "end")  # B's phase: the second movement phase, still a bugbear
    assert state.kind_of(1) == "bugbear"
    act(state, "end")  # A's next phase: the spell has run out
    assert state.kind_of(1) == "doppelganger"


def test_MW_MAGIC_6_MW_R20_counting_only_the_casters_phases_is_the_default():
    """By default (change_self_count=own) the spell lasts the caster's two phases and may be
    cancelled at the start of the second ("as long as the cancellation takes place at the
    start of the caster's movement phase"), which the other count never allows."""
    state = setup(
        {"A1": "g12", "A2": "c10", "B1": "g20"},
        types={"A2": "doppelganger"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "cast A2 change bugbear", "end", "end")  # A's second phase
    assert state.kind_of(1) == "bugbear" and "cast A2 revert" in legal(state)
    state = setup(
        {"A1": "g12", "A2": "c10", "B1": "g20"},
        types={"A2": "doppelganger"},
        carrier="A1",
        los="g10",
        change_self_count="own",
    )
    start_phase(state, 0)
    act(state, "cast A2 change bugbear", "end", "end")  # A's second phase
    assert state.kind_of(1) == "bugbear"
    act(state, "end", "end")  # A's third phase: run out
    assert state.kind_of(1) == "doppelganger"
    state = setup(
        {"A1": "g12", "A2": "c10", "B1": "g20"},
        types={"A2": "doppelganger"},
        carrier="A1",
        los="g10",
        change_self_count="own",
    )
    start_phase(state, 0)
    act(state, "cast A2 change orc", "end", "end", "cast A2 revert")
    assert state.kind_of(1) == "doppelganger"


def invisible_play():
    state = setup(
        {"A1": "g10", "A3": "d12", "B1": "e14", "B2": "m20"},
        types={"A3": "pixie"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "cast A3 invisible")
    return state


def test_MW_MAGIC_7_MW_MAGIC_8_MW_R11_invisible_player_reappears_where_chosen():
    state = invisible_play()
    assert top(state) == "AppearPick" and state.current_player() == 0
    choices = {a.split()[1] for a in legal(state)}
    assert all(state.field.distance(cell(state, "d12"), cell(state, c)) <= 4 for c in choices)
    act(state, "appear e15")
    public = SPEC.parse_action("appear e15").public_text()
    assert "e15" not in public
    view = state.view(1)
    assert view["players"]["A3"]["hex"] is None and view["vanished_at"] == "d12"
    assert "[]" in state.render(1) and "[]" not in state.render(0)
    assert "A3-" not in " ".join(legal(state))  # no other action for him this phase
    act(state, "end")
    # B may pass through or stop on the hex where A3 vanished.
    assert "d12" in moves_of(state, "B1")
    act(state, "end")
    assert state.invisible == -1 and state.field.name(state.pos[2]) == "e15"
    assert state.view(1)["players"]["A3"]["hex"] == "e15"


def test_MW_MAGIC_7_hidden_views_do_not_depend_on_the_secret_hex():
    views = set()
    for where in ("e15", "b12", "f11"):
        state = invisible_play()
        act(state, f"appear {where}")
        views.add(json.dumps(state.view(1), sort_keys=True))
        views.add(state.render(1))
    assert len(views) == 2  # one JSON view and one picture, the same for all three


def test_MW_R10_with_hidden_contact_barred_a_hidden_caster_gets_no_tackle_offer():
    """Option hidden_contact=barred (the earlier reading): the hidden caster never tackles,
    so no question is asked for him (tests/games/midway/test_hidden_contact.py has the default)."""
    state = setup(
        {"A1": "g10", "B1": "h12", "B2": "m20"},
        types={"B1": "brownie"},
        carrier="A1",
        los="g10",
        hidden_contact="barred",
    )
    start_phase(state, 0)
    act(state, "end", "cast B1 mirror", "d6=2", "image i12", "real h12")
    act(state, "end")  # A's phase: the carrier steps next to the real caster
    act(state, "A1-h11")
    assert top(state) == "Phase" and state.current_player() == 0  # no pause, no offer


def test_the_terminal_does_not_show_a_bots_secret_choice(capsys, monkeypatch):
    """Against a bot that casts mirror image, the human sees the counters and is told a
    real counter was chosen, never which one."""
    from monsterball.core.dice import SeededSampler
    from monsterball.terminal.line_game import TerminalGame

    state = setup(
        {"B1": "g12", "B2": "c14", "A1": "g9", "A2": "m2"},
        types={"B1": "brownie"},
        carrier="B1",
        los="g13",
        offense=1,
    )
    start_phase(state, 1)

    class Caster:
        name = "caster"

        def choose(self, state, seat):
            options = {a.notation(): a for a in state.legal_actions()}
            for wanted in ("cast B1 mirror",):
                if wanted in options:
                    return options[wanted]
            if top(state) in ("PlaceImage", "PickReal"):
                return state.legal_actions()[-1]
            return options["end"]

    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    game = TerminalGame(SPEC, state, {1: Caster()}, SeededSampler(1), None)
    assert game.run() is False  # the human left at his first turn
    out = capsys.readouterr().out
    real_hex = state.field.name(state.pos[10])
    assert "real (the caster's counter is chosen in secret)" in out
    assert f"real {real_hex}" not in out
    assert "??" in out


def _swap_caster(state):
    """A copy where the caster stands on one of his images' hexes (and the image on his):
    a position the other coach cannot tell from the real one."""
    other = state.clone()
    real = other.pos[other.caster]
    image = other.images[0]
    other.pos[other.caster] = image
    other.images = sorted([real, *other.images[1:]])
    if other.carrier == other.caster:
        other.ball = image
    return other


@pytest.mark.parametrize("seed", range(6))
def test_random_play_never_reveals_a_hidden_caster(seed):
    """Random play with many casters: whenever a mirror image is up, swapping the caster
    with an image changes nothing the other seat sees or may do; invisible players and
    hidden casters never appear in the other seat's view."""
    import random as _random

    from monsterball.core.dice import SeededSampler

    a = "brownie,brownie,brownie,pixie,pixie,storm-giant,werebear,ettin,hobgoblin,kobold"
    b = "elf,elf,brownie,brownie,pixie,doppelganger,werebear,treant,orc,kobold"
    state = SPEC.new_game(SPEC.options(roster_a=a, roster_b=b, plays=4, max_phases=14))
    rng, dice = _random.Random(seed), SeededSampler(seed)
    checked = 0
    while not state.is_terminal():
        for hidden in (state.caster, state.invisible):
            if hidden < 0:
                continue
            opp = 1 - hidden // 10
            view = state.view(opp)
            name = f"{'AB'[hidden // 10]}{hidden % 10 + 1}"
            assert view["players"][name]["hex"] is None
            field = "\n".join(state.render(opp).splitlines()[:24])
            assert f"{name[0]}{name[1:] if name[1:] != '10' else '0'}" not in field.split()
        if state.caster >= 0 and state.images:
            opp = 1 - state.caster // 10
            twin = _swap_caster(state)
            assert json.dumps(twin.view(opp), sort_keys=True) == json.dumps(
                state.view(opp), sort_keys=True
            )
            assert twin.render(opp) == state.render(opp)
            if state.current_player() == opp:
                assert legal(twin) == legal(state)
            checked += 1
        if state.current_player() == -1:
            state.apply(dice.choose(state.chance_outcomes()))
            continue
        options = state.legal_actions()
        casts = [x for x in options if x.notation().startswith("cast")]
        pick = rng.choice(casts) if casts and rng.random() < 0.5 else rng.choice(options)
        state.apply(pick)
    assert checked > 0, "no mirror image came up: the test checked nothing"


def test_MW_R19_a_kickoff_struck_dead_is_kicked_again():
    state = setup(
        {"A1": "g9", "B1": "g20", "B2": "a20"},
        types={"B2": "storm-giant"},
        ball="g22",
        ball_state="kick",
        kind="kickoff",
        los="g10",
    )
    state.receivable = 1
    start_phase(state, 0)
    act(state, "end", "cast B2 bolt ball")
    assert state.kind == "kickoff" and state.offense == 0 and state.plays == 4  # a new play
    assert state.field.name(state.ball) == "g10"


def test_MW_MAGIC_2_the_board_names_the_carrier_only_to_seats_that_see_him() -> None:
    # The text board shows the carrier's hex as 'A*' and names him under the score; while
    # mirror image hides which counter is real, B and spectators are told nothing of him.
    state = mirror_play()
    lines = {seat: state.render(seat).splitlines() for seat in (0, 1, None)}
    assert "A* on the field: A1 carries the ball." in lines[0]
    assert not any("carries the ball" in line for line in lines[1] + lines[None])
