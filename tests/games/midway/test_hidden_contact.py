"""Hidden players block and tackle (MW-MAGIC-7: an invisible player "can perform as a
blocker or tackler if the opportunity presents itself"; only "A mirror-image counter
cannot ... block, or tackle", MW-MAGIC-3), rulings MW-R10 and MW-R11, without the question
itself telling the other coach where the hidden player is: the hidden side's coach is asked
wherever any of his counters could act. Option hidden_contact=barred keeps the earlier
reading."""

from __future__ import annotations

import json
import random

import pytest

from monsterball.core.dice import SeededSampler
from monsterball.core.errors import IllegalActionError
from monsterball.games.midway.actions import parse_player
from monsterball.games.midway.events.ball import CatchTried, PassIncomplete
from monsterball.games.midway.events.contact import BlockRolled
from tests.helpers.midway import (
    SPEC,
    act,
    caster_carrying_for_b,
    defending_caster,
    legal,
    pass_to_hidden,
    pass_to_hidden_receiver,
    pass_to_invisible,
    setup,
    start_phase,
    texts,
    top,
)

# -- a hidden caster on defense --------------------------------------------------------------


def public(state, seat=0):
    return json.dumps(state.view(seat), sort_keys=True), state.render(seat)


def test_MW_R10_the_defense_is_asked_next_to_any_counter_real_or_not():
    """h11 is next to the counter on h12 and not to the one on i12. Whichever is real, the
    carrier's step to h11 asks the defense; only the real one next to him may tackle."""
    states = {real: defending_caster(real) for real in ("h12", "i12")}
    for real, state in states.items():
        act(state, "A1-h11")
        assert top(state) == "TackleRound" and state.current_player() == 1
        expected = {"tackle B1 h11", "no"} if real == "h12" else {"no"}
        assert legal(state) == expected
    assert public(states["h12"]) == public(states["i12"])
    assert public(states["h12"], None) == public(states["i12"], None)
    for state in states.values():
        act(state, "no")
        assert top(state) == "Phase" and state.current_player() == 0
    assert public(states["h12"]) == public(states["i12"])
    assert legal(states["h12"]) == legal(states["i12"])


def test_MW_R10_no_question_far_from_every_counter():
    state = defending_caster("h12")
    act(state, "A1-f10")
    assert top(state) == "Phase" and state.current_player() == 0


def test_MW_R10_MW_MAGIC_3_the_hidden_caster_tackles_and_the_spell_ends():
    state = defending_caster("h12")
    act(state, "A1-h11")
    events = act(state, "tackle B1 h11")
    assert "comes out from among his counters" in texts(events)[0]
    assert state.caster == -1 and state.images == []
    assert state.view(0)["players"]["B1"]["hex"] == "h12"
    act(state, "d6=1")  # M carrier on S tackler: +1 = 2, tackled
    assert state.down == 2 and state.field.name(state.spot) == "h11"


def test_MW_R10_option_barred_asks_nothing():
    state = defending_caster("h12", hidden_contact="barred")
    act(state, "A1-h11")
    assert top(state) == "Phase" and state.current_player() == 0


# -- an invisible player on defense ------------------------------------------------------------


def invisible_defender(where: str, **options):
    """B3 (a pixie, movement 4) turns invisible on g14 and moves unseen to ``where``."""
    state = setup(
        {"A1": "g10", "B3": "g14", "B2": "m20"},
        types={"B3": "pixie"},
        carrier="A1",
        los="g10",
        **options,
    )
    start_phase(state, 0)
    act(state, "end", "cast B3 invisible", f"appear {where}")
    return state


def test_MW_MAGIC_7_MW_R11_an_invisible_player_tackles_from_where_he_moved():
    """Rulebook: "An invisible player cannot be blocked or tackled, but can perform as a blocker or
    tackler if the opportunity presents itself": at the end of his phase B3, moved unseen
    next to the carrier, may tackle; moved elsewhere, his coach is asked all the same."""
    near, far = invisible_defender("h11"), invisible_defender("g16")
    assert public(near) == public(far) and public(near, None) == public(far, None)
    for state in (near, far):
        act(state, "end")
        assert top(state) == "TackleRound" and state.current_player() == 1
    assert legal(near) == {"tackle B3 g10", "no"} and legal(far) == {"no"}
    assert public(near) == public(far)
    act(near, "tackle B3 g10", "d6=1")  # M carrier on S tackler: +1 = 2, tackled
    assert near.dead == "" and near.down == 2  # the play is over and settled
    act(far, "no")
    assert top(far) == "Phase" and far.stack[-1].team == 0
    assert far.field.name(far.pos[12]) == "g16"  # he reappears where he went


def test_MW_R11_no_question_when_the_carrier_is_out_of_his_reach():
    """Beyond movement 4 + 1 from the hex where he vanished the coach is not asked."""
    state = setup(
        {"A1": "g4", "B3": "g14", "B2": "m20"},
        types={"B3": "pixie"},
        carrier="A1",
        los="g4",
    )
    start_phase(state, 0)
    act(state, "end", "cast B3 invisible", "appear g16", "end")
    assert top(state) == "Phase" and state.stack[-1].team == 0


def test_MW_R11_option_barred_asks_nothing():
    state = invisible_defender("h11", hidden_contact="barred")
    act(state, "end")
    assert top(state) == "Phase" and state.stack[-1].team == 0


# -- a hidden caster on offense blocks ---------------------------------------------------------


def test_MW_R10_a_hidden_caster_blocks_by_shifting_into_a_defender():
    state = setup(
        {"A1": "g8", "A2": "f10", "B1": "g11", "B2": "m20"},
        types={"A2": "brownie"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "cast A2 mirror", "d6=2", "image e10", "real f10")
    into = [a for a in legal(state) if a.startswith("shift")]
    toward = next(a for a in into if (lambda t: t.field.name(t.pos[1]) == "g11")(_after(state, a)))
    events = act(state, toward)
    assert any("comes out from among his counters on g11" in t for t in texts(events))
    assert state.caster == -1 and state.field.name(state.pos[1]) == "g11"
    act(state, "end")
    assert top(state) == "BlockRoll"
    events = act(state, "d6=6")  # S on M: -1 = 5, neutralize
    assert events[0] == BlockRolled(1, 10, 6, -1, 5, "neutralize")
    barred = setup(
        {"A1": "g8", "A2": "f10", "B1": "g11", "B2": "m20"},
        types={"A2": "brownie"},
        carrier="A1",
        los="g10",
        hidden_contact="barred",
    )
    start_phase(barred, 0)
    act(barred, "cast A2 mirror", "d6=2", "image e10", "real f10")
    assert toward not in legal(barred)


def _after(state, action):
    twin = state.clone()
    act(twin, action)
    return twin


# -- the question pattern never depends on the secret ------------------------------------------


def _twins(state, kind):
    """Copies of ``state`` the other coach cannot tell from it: the caster swapped with each
    image, or the invisible player bound for each other hex he could reach."""
    out = []
    if kind == "caster" and state.caster >= 0 and state.images:
        for image in state.images:
            twin = state.clone()
            real = twin.pos[twin.caster]
            twin.pos = twin.pos[:]
            twin.pos[twin.caster] = image
            twin.images = sorted([real, *(c for c in twin.images if c != image)])
            if twin.carrier == twin.caster:
                twin.ball = image
            out.append(twin)
    p = state.invisible
    if kind == "invisible" and p >= 0 and state.appear_at >= 0:
        f = state.field
        row = f.distance_row(state.vanish)
        occupied = state.counters_mask()
        free = [
            c
            for c in range(f.size)
            if row[c] <= state.mtype(p).mv and not occupied >> c & 1 and c != state.appear_at
        ]
        for c in free[:: max(1, len(free) // 4)]:
            twin = state.clone()
            twin.appear_at = c
            out.append(twin)
    return out


def _touches(state, action) -> bool:
    """Whether the action turns a counter over (a touch or a tackle aimed at a counter):
    then the truth may rightly come out."""
    text = action.notation()
    cells = {state.field.name(c) for c in state.images}
    if state.caster >= 0:
        cells.add(state.field.name(state.pos[state.caster]))
    return any(text.endswith(c) for c in cells)


def _still_hidden(before, after, kind) -> bool:
    return getattr(after, kind) == getattr(before, kind) >= 0


def _blocks_unseen(state) -> bool:
    """Whether the invisible player's unseen move ends in an opponent's hex (a block)."""
    p, target = state.invisible, state.appear_at
    return target >= 0 and any(q // 10 != p // 10 for q in state.players_at(target))


def _carrier_steps(state):
    c = state.carrier
    if c < 0:
        return []
    name = f"{'AB'[c // 10]}{c % 10 + 1}-"
    return [a for a in state.legal_actions() if a.notation().startswith(name)]


def _compare(state, twin, action, watcher, kind) -> bool:
    """Apply ``action`` to both; unless the secret came out, the watcher and a spectator
    must see the same, and the same player must be asked next."""
    if (
        kind == "invisible"
        and action.notation() == "end"
        and any(map(_blocks_unseen, (state, twin)))
    ):
        return False  # his unseen block shows him at the end of the phase (ruling MW-R11)
    after, twin = state.clone(), twin.clone()
    after.apply(action)
    twin.apply(action)
    still = [_still_hidden(state, x, kind) for x in (twin, after)]
    if not any(still):
        return False  # the spell ran out or the player reappeared: the truth is public
    assert twin.current_player() == after.current_player(), action.notation()
    if all(still):
        for seat in (watcher, None):
            assert public(twin, seat) == public(after, seat), action.notation()
        if after.current_player() == watcher:
            assert legal(twin) == legal(after)
    return True


@pytest.mark.parametrize(
    "seed", [0, *(pytest.param(n, marks=pytest.mark.slow) for n in range(1, 8))]
)
def test_MW_R10_MW_R11_random_play_the_question_pattern_reveals_nothing(seed):
    """Random play with casters on both sides, the ball carriers running a lot. Whenever a
    player is hidden, every twin (the caster swapped with an image, the invisible player
    bound for another hex) must give his opponent and a spectator the same views, legal
    actions and player to act after the action played and after every step the carrier
    could take (actions that turn a counter over excepted)."""
    a = "brownie,brownie,brownie,pixie,pixie,storm-giant,werebear,ettin,hobgoblin,kobold"
    b = "elf,elf,brownie,brownie,pixie,pixie,werebear,treant,orc,kobold"
    state = SPEC.new_game(SPEC.options(roster_a=a, roster_b=b, plays=6, max_phases=16))
    rng, dice = random.Random(seed), SeededSampler(seed)
    compared = 0
    while not state.is_terminal():
        if state.current_player() == -1:
            state.apply(dice.choose(state.chance_outcomes()))
            continue
        options = state.legal_actions()
        casts = [x for x in options if x.notation().startswith("cast")]
        runs = _carrier_steps(state)
        r = rng.random()
        pick = (
            rng.choice(casts)
            if casts and r < 0.4
            else rng.choice(runs)
            if runs and r < 0.8
            else rng.choice(options)
        )
        for kind in ("caster", "invisible"):
            hidden = getattr(state, kind)
            if hidden < 0:
                continue
            watcher = 1 - hidden // 10
            for twin in _twins(state, kind):
                if state.current_player() == watcher:
                    assert legal(twin) == legal(state)
                shared = {a.notation() for a in twin.legal_actions()}
                for action in [pick, *runs]:
                    if action.notation() in shared and not _touches(state, action):
                        compared += _compare(state, twin, action, watcher, kind)
        state.apply(pick)
    assert compared > 0, "no hidden player came up: the test compared nothing"


# -- a pass comes down where a hidden defender may stand (ruling MW-R21) -------------------------


def test_MW_R21_the_pass_question_for_a_hidden_caster_shows_nothing():
    """The pass lands on g14, where one of B1's two counters stands. Whichever is real, B's
    coach is asked (only 'no' when B1 is on h14), and A's seat and a spectator see the same
    before and after his answer."""
    states = {real: pass_to_hidden(real) for real in ("g14", "h14")}
    for state in states.values():
        act(state, "end")
        assert top(state) == "HiddenIntercept" and state.current_player() == 1
    assert legal(states["g14"]) == {"intercept B1", "no"} and legal(states["h14"]) == {"no"}
    for seat in (0, None):
        assert public(states["g14"], seat) == public(states["h14"], seat)
    for state in states.values():
        assert PassIncomplete() in (act(state, "no"))
    assert public(states["g14"]) == public(states["h14"])


def test_MW_R21_MW_PASS_8_the_real_caster_intercepts_and_the_spell_ends():
    state = pass_to_hidden("g14")
    act(state, "end")
    events = act(state, "intercept B1")
    assert texts(events) == ["B1 comes out from among his counters to intercept."]
    assert state.caster == -1 and state.images == []
    events = act(state, "d6=4")  # 0 opponents: 1-4, +3 brownie receiving modifier
    assert events[0] == CatchTried(10, "intercept", 4, 7, True)
    assert state.carrier == 10 and state.field.name(state.ball) == "g14"
    assert top(state) == "Phase" and state.stack[-1].team == 1  # the interceptors move next


def test_MW_R21_MW_MAGIC_3_an_image_cannot_intercept():
    """Rulebook: "A mirror-image counter cannot carry the ball, receive a pass, recover a
    fumble, block, or tackle"."""
    state = pass_to_hidden("h14")
    act(state, "end")
    with pytest.raises(IllegalActionError):
        act(state, "intercept B1")
    assert PassIncomplete() in (act(state, "no"))
    assert state.down == 2


def test_MW_R21_option_barred_asks_nothing_and_the_caster_does_not_try():
    for real in ("g14", "h14"):
        state = pass_to_hidden(real, hidden_contact="barred")
        assert PassIncomplete() in (act(state, "end"))
        assert state.down == 2 and top(state) != "HiddenIntercept"


def test_MW_R21_the_invisible_defender_is_asked_wherever_he_could_be():
    """B3 vanished on g17 with movement 4: g14 is within his reach. Whether he moved unseen
    to g14 or to g19, B is asked; only on g14 may he try, and trying shows him there."""
    near, far = pass_to_invisible("g14"), pass_to_invisible("g19")
    for state in (near, far):
        act(state, "end")
        assert top(state) == "HiddenIntercept" and state.current_player() == 1
    assert legal(near) == {"intercept B3", "no"} and legal(far) == {"no"}
    for seat in (0, None):
        assert public(near, seat) == public(far, seat)
    events = act(near, "intercept B3")
    assert texts(events) == ["B3 reappears on g14 to intercept."]
    assert near.invisible == -1 and near.field.name(near.pos[12]) == "g14"
    act(near, "d6=1")
    assert near.carrier == 12


def test_MW_R21_MW_PASS_6_a_hidden_receiver_is_asked_whatever_is_real():
    """A's hidden caster, a lineman, may be where the pass lands: A's coach is asked (only
    'no' when the counter on g14 is an image), and B's seat sees the same either way; the
    real one catches and the spell ends."""
    states = {real: pass_to_hidden_receiver(real) for real in ("g14", "h14")}
    for state in states.values():
        act(state, "end")
        assert top(state) == "HiddenIntercept" and state.current_player() == 0
    assert legal(states["g14"]) == {"catch A2", "no"} and legal(states["h14"]) == {"no"}
    for seat in (1, None):
        assert public(states["g14"], seat) == public(states["h14"], seat)
    events = act(states["g14"], "catch A2", "d6=1")
    assert texts(events)[0] == "A2 comes out from among his counters to catch the pass."
    assert events[1] == CatchTried(1, "pass", 1, 7, True)
    assert states["g14"].carrier == 1 and states["g14"].caster == -1
    assert PassIncomplete() in (act(states["h14"], "no"))


# -- no mirror image in contact ----------------------------------------------------------------


def test_MW_R10_no_mirror_image_with_an_opponent_in_his_hex():
    """The spell lasts "until the actual caster is contacted physically by another player":
    a carrier sharing his hex with a tackler (who entered it and missed) is in contact
    already, and his counters would hide nothing from a coach who has a player on the real
    one. Found by the fuzz campaign (hidden:midway:short:5389706013753798947): a second
    tackler was offered the real counter's hex and not an image's."""
    state = caster_carrying_for_b()
    assert "cast B1 mirror" in legal(state)
    crowded = caster_carrying_for_b()
    crowded.pos[parse_player("A1")] = crowded.pos[parse_player("B1")]
    assert "cast B1 mirror" not in legal(crowded)
    phase = crowded.stack[-1]
    assert crowded.actions.spells[parse_player("B1")]["mirror"] not in phase._casts_py(crowded)


def test_MW_R10_an_unseen_opponent_in_his_hex_does_not_bar_the_spell():
    """Barring the spell for an invisible opponent would show the caster's coach where he is."""
    state = caster_carrying_for_b()
    a1 = parse_player("A1")
    state.pos[a1] = state.pos[parse_player("B1")]
    state.invisible = a1
    assert "cast B1 mirror" in legal(state)
    phase = state.stack[-1]
    assert state.actions.spells[parse_player("B1")]["mirror"] in phase._casts_py(state)
