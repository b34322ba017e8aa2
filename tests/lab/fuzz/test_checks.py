"""The fuzz harness's per-action checks (monsterball.lab.fuzz.checks): each catches the fault
it is there for, and the work shared between checks still fails where it should."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from typing import Any

import pytest

from monsterball.core.actions import Roll
from monsterball.games import get_game
from monsterball.lab.fuzz.checks import (
    NOTATION_SAMPLE,
    ActionMemo,
    Found,
    canonical,
    check_chance,
    check_hidden,
    check_state,
    pick_decision,
    read_back,
    through_json,
)

# -- each check can fail ----------------------------------------------------------------

PU = get_game("paper-ultimate")


def a_state(spec: Any = PU, preset: str = "small", plies: int = 12) -> Any:
    state = spec.new_game(spec.options(preset))
    rng = random.Random(1)
    for _ in range(plies):
        state.apply(rng.choice(state.legal_actions()))
    return state


def found(kind: str, run: Any) -> None:
    with pytest.raises(Found) as info:
        run()
    assert info.value.kind == kind


def test_check_catches_a_clone_that_shares_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    state = a_state()
    check_state(PU, state, random.Random(0))
    kind = type(state)

    def shallow(self: Any) -> Any:
        return self  # the "clone" is the original itself

    monkeypatch.setattr(kind, "clone", shallow)
    found("clone", lambda: check_state(PU, state, random.Random(0)))


def test_check_catches_a_clone_that_shares_a_list(monkeypatch: pytest.MonkeyPatch) -> None:
    state = a_state()
    kind = type(state)
    honest = kind._copy_board
    check_state(PU, state, random.Random(0))

    def sharing(self: Any, other: Any) -> None:
        honest(self, other)
        other.pos = self.pos  # the clone moves the original's players too

    monkeypatch.setattr(kind, "_copy_board", sharing)
    with pytest.raises(Found, match="playing on a clone changed the original"):
        check_state(PU, state, random.Random(0))


def test_check_catches_a_clone_that_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    state = a_state()
    kind = type(state)
    honest = kind._copy_board

    def careless(self: Any, other: Any) -> None:
        honest(self, other)
        other.throws = self.throws + 1

    monkeypatch.setattr(kind, "_copy_board", careless)
    with pytest.raises(Found, match="a clone differs from its original"):
        check_state(PU, state, random.Random(0))


def test_check_catches_a_position_writer_that_drops_a_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = a_state()
    kind = type(state)
    honest = kind._board_to_dict

    def dropping(self: Any) -> dict[str, Any]:
        data = honest(self)
        del data["score"]
        return data

    monkeypatch.setattr(kind, "_board_to_dict", dropping)
    found("position", lambda: check_state(PU, state, random.Random(0)))


def test_check_catches_a_reload_that_plays_differently(monkeypatch: pytest.MonkeyPatch) -> None:
    state = a_state()
    honest = PU.from_position

    class Stuck(type(state)):  # type: ignore[misc]
        __slots__ = ()

        def legal_actions(self) -> list[Any]:
            return []  # the same position, yet nothing to play

    def reload(data: Any) -> Any:
        again = honest(data)
        again.__class__ = Stuck
        return again

    spec = dataclasses.replace(PU)
    object.__setattr__(spec, "from_position", reload)
    with pytest.raises(Found, match="plays differently"):
        check_state(spec, state, random.Random(0))


def test_check_catches_a_reload_that_equals_but_hashes_differently(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = a_state()
    kind = type(state)
    honest = kind._board_from_dict

    def numeric(self: Any, data: Any) -> None:
        honest(self, data)
        self.surplus_must_leave = int(self.surplus_must_leave)  # False == 0, "false" != "0"

    monkeypatch.setattr(kind, "_board_from_dict", numeric)
    with pytest.raises(Found, match="hashes differently"):
        check_state(PU, state, random.Random(0))


def test_check_compares_hashes_where_a_game_has_its_own() -> None:
    state = a_state()

    class Salted(type(state)):  # type: ignore[misc]
        __slots__ = ()

        def state_hash(self) -> str:
            return "salted"  # not the digest a reloaded state gives

    state.__class__ = Salted
    with pytest.raises(Found, match="hashes differently"):
        check_state(PU, state, random.Random(0))


def test_check_catches_outcomes_that_are_not_fractions_or_repeat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = PU.new_game(PU.options("small"))
    while not state.is_chance():
        state.apply(state.legal_actions()[0])
    outcomes = state.chance_outcomes()
    floats = [(a, float(p)) for a, p in outcomes]
    monkeypatch.setattr(type(state), "chance_outcomes", lambda self: floats)
    found("probabilities", lambda: check_state(PU, state, random.Random(0)))
    (action, p), rest = outcomes[0], outcomes[1:]
    twice = [(action, p / 2), (action, p / 2), *rest]
    monkeypatch.setattr(type(state), "chance_outcomes", lambda self: twice)
    with pytest.raises(Found, match="listed twice"):
        check_state(PU, state, random.Random(0))


def test_check_catches_a_legal_action_listed_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    state = a_state()
    legal = state.legal_actions()
    monkeypatch.setattr(type(state), "legal_actions", lambda self: [*legal, legal[0]])
    with pytest.raises(Found, match="listed twice"):
        check_state(PU, state, random.Random(0))


def test_check_catches_probabilities_that_do_not_sum_to_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = PU.new_game(PU.options("small"))
    while not state.is_chance():
        state.apply(state.legal_actions()[0])
    outcomes = state.chance_outcomes()
    skewed = [(a, p * Fraction(99, 100)) for a, p in outcomes]
    monkeypatch.setattr(type(state), "chance_outcomes", lambda self: skewed)
    found("probabilities", lambda: check_state(PU, state, random.Random(0)))


def test_check_catches_a_notation_that_does_not_read_back() -> None:
    state = a_state()
    legal = state.legal_actions()
    assert len(legal) > 1
    spec = dataclasses.replace(PU, parse_decision=lambda text: legal[0])
    found("notation", lambda: check_state(spec, state, random.Random(0)))


def test_check_catches_a_position_that_loses_a_field(monkeypatch: pytest.MonkeyPatch) -> None:
    state = a_state()
    kind = type(state)
    original = kind._board_from_dict

    def forgetful(self: Any, data: Any) -> None:
        original(self, data)
        self.score = [0, 1]  # a valid score, but not the one written

    monkeypatch.setattr(kind, "_board_from_dict", forgetful)
    with pytest.raises(Found, match="the position does not round-trip"):
        check_state(PU, state, random.Random(0))


def test_check_catches_a_seat_with_no_legal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    state = a_state()
    assert not state.is_chance()
    monkeypatch.setattr(type(state), "legal_actions", lambda self: [])
    found("no-actions", lambda: check_state(PU, state, random.Random(0)))


MW = get_game("midway")


def hidden_caster_state() -> Any:
    """A Midway state with a hidden mirror-image caster (found by seeded random play)."""
    a = "brownie,brownie,brownie,pixie,pixie,storm-giant,werebear,ettin,hobgoblin,kobold"
    b = "elf,elf,brownie,brownie,pixie,doppelganger,werebear,treant,orc,kobold"
    for seed in range(40):
        state = MW.new_game(MW.options(roster_a=a, roster_b=b, plays=4, max_phases=14))
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.caster >= 0 and state.images:
                return state
            options = state.legal_actions()
            casts = [x for x in options if x.notation().startswith("cast")]
            state.apply(rng.choice(casts) if casts and rng.random() < 0.5 else rng.choice(options))
    raise AssertionError("no mirror image came up")


def test_hidden_check_passes_and_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    state = hidden_caster_state()
    check_hidden(MW, state, random.Random(0))  # the engine hides the caster
    kind = type(state)
    honest = kind.view

    def leaky(self: Any, seat: int | None = None) -> dict[str, Any]:
        return {**honest(self, seat), "leak": self.pos[self.caster]}

    monkeypatch.setattr(kind, "view", leaky)
    found("hidden", lambda: check_hidden(MW, state, random.Random(0)))
    monkeypatch.setattr(kind, "view", honest)
    drawn = kind.render

    def telling(self: Any, seat: int | None = None) -> str:
        return drawn(self, seat) + str(self.pos[self.caster])

    monkeypatch.setattr(kind, "render", telling)
    with pytest.raises(Found, match="changes the picture"):
        check_hidden(MW, state, random.Random(0))


# -- the shared work still fails where it should ----------------------------------------


def test_the_hashed_text_tells_apart_what_the_stdlib_hash_does() -> None:
    # 1 == 1.0 == True in Python; the texts (and state_hash's) differ.
    texts = {canonical({"a": v}) for v in (1, 1.0, True)}
    assert len(texts) == 3
    assert canonical({"b": 1, "a": [2, None]}) == canonical({"a": [2, None], "b": 1})
    # What orjson refuses is written by the stdlib instead, not dropped.
    assert canonical({"a": 2**70}) == b'{"a":' + str(2**70).encode() + b"}"
    assert canonical({1: "x"}) == b'{"1":"x"}'
    assert through_json({1: ("x",)}) == {"1": ["x"]}


def test_check_catches_a_position_that_does_not_survive_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = a_state()
    kind = type(state)
    honest = kind._board_to_dict

    def keyed_by_numbers(self: Any) -> dict[str, Any]:
        data = honest(self)
        data["players"] = dict(enumerate(data["players"].values()))  # int keys: not JSON
        return data

    monkeypatch.setattr(kind, "_board_to_dict", keyed_by_numbers)
    found("position", lambda: check_state(PU, state, random.Random(0)))


def test_check_catches_probabilities_out_of_range_summing_to_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = PU.new_game(PU.options("small"))
    while not state.is_chance():
        state.apply(state.legal_actions()[0])
    outcomes = state.chance_outcomes()
    (a, p), (b, q), rest = outcomes[0], outcomes[1], outcomes[2:]
    zero = [(a, p + q), (b, Fraction(0)), *rest]
    for bad in (zero, [(a, p + q + 1), (b, Fraction(-1)), *rest]):
        assert sum(x for _, x in bad) == 1
        monkeypatch.setattr(type(state), "chance_outcomes", lambda self, bad=bad: bad)
        with pytest.raises(Found, match="has probability"):
            check_state(PU, state, random.Random(0))
    c = Roll("test", "third")
    thirds = [(a, Fraction(1, 2)), (b, Fraction(1, 3)), (c, Fraction(1, 7))]
    monkeypatch.setattr(type(state), "chance_outcomes", lambda self: thirds)
    with pytest.raises(Found, match="sum to 41/42"):
        check_state(PU, state, random.Random(0))
    sixths = [(a, Fraction(1, 2)), (b, Fraction(1, 3)), (c, Fraction(1, 6))]
    monkeypatch.setattr(type(state), "chance_outcomes", lambda self: sixths)
    assert check_chance(state) == sixths


def test_a_sample_reads_back_and_what_read_back_is_not_parsed_again() -> None:
    state = a_state(MW, "exhibition", plies=40)
    legal = state.legal_actions()
    assert len(legal) > 3 * NOTATION_SAMPLE
    parsed: list[str] = []

    def parse(text: str) -> Any:
        parsed.append(text)
        return MW.parse_decision(text)

    spec = dataclasses.replace(MW, parse_decision=parse)
    memo = ActionMemo()
    written = read_back(spec, legal, random.Random(3), memo)
    assert written == [a.notation() for a in legal]
    # The same 12 as random.sample draws (the harness's choice since it was written).
    sample = random.Random(3).sample(legal, NOTATION_SAMPLE)
    assert parsed == [a.notation() for a in sample]
    assert memo.read == {id(a) for a in sample}
    read_back(spec, legal, random.Random(3), memo)  # the same sample: all read
    assert len(parsed) == NOTATION_SAMPLE
    # A fresh action object (not yet read back) that does not read back is caught, though
    # an equal one read back before.
    liar = dataclasses.replace(sample[0])
    lying = dataclasses.replace(MW, parse_decision=lambda text: sample[1])
    with pytest.raises(Found) as info:
        read_back(lying, [liar], random.Random(0), memo)
    assert info.value.kind == "notation"


def test_check_catches_two_actions_written_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    state = a_state()
    legal = state.legal_actions()
    kind = type(legal[0])
    monkeypatch.setattr(kind, "notation", lambda self: "same")
    monkeypatch.setattr(type(state), "legal_actions", lambda self: legal[:2])
    spec = dataclasses.replace(PU, parse_decision=lambda text: legal[0])
    memo = ActionMemo()
    assert memo.notations(legal[:2]) == ["same", "same"]
    memo.read.update(id(a) for a in legal[:2])  # as if both had read back
    with pytest.raises(Found, match="both written 'same'"):
        check_state(spec, state, random.Random(0), memo)


def test_picks_by_kind_are_those_of_the_plain_grouping() -> None:
    def plain(rng: random.Random, legal: list[Any]) -> Any:  # the harness before the memo
        kinds: dict[str, list[Any]] = {}
        for action in legal:
            kinds.setdefault(f"{type(action).__name__} {action.notation().split()[0]}", [])
            kinds[f"{type(action).__name__} {action.notation().split()[0]}"].append(action)
        group = kinds[rng.choice(sorted(kinds))]
        return group[rng.randrange(len(group))]

    memo = ActionMemo()
    for spec, preset in ((MW, "exhibition"), (get_game("huck-monster"), "pro-continue")):
        state = spec.new_game(spec.options(preset))
        mine, theirs = random.Random(5), random.Random(5)
        for _ in range(150):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply(state.chance_outcomes()[0][0])
                continue
            legal = state.legal_actions()
            pick = pick_decision(mine, legal, True, memo)
            assert pick is plain(theirs, legal)
            state.apply(pick)
