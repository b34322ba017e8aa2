"""Checked random play and its runs (monsterball.lab.fuzz.play): a fast slice over every
game, every view drawn on schedule, failures reported with a reproducer, the allow-list."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from monsterball.core.errors import IllegalActionError
from monsterball.games import all_games, get_game
from monsterball.lab.fuzz.mutations import MUTATORS
from monsterball.lab.fuzz.play import KNOWN, Job, fuzz_one, known_reason, play_game, run_case

PU = get_game("paper-ultimate")


def real_failures(tally: Any) -> list[str]:
    return [f"{f.message}\n  {f.reproducer}" for f in tally.failures if not f.known]


# Two presets a game, the one with the most optional rules and a short one.
SLICE = {
    "paper-ultimate": ("standard", "coins"),
    "huck-monster": ("pro-continue", "all-stars"),
    "midway": ("exhibition", "short"),
}


def test_the_slice_covers_every_game() -> None:
    assert sorted(SLICE) == sorted(spec.id for spec in all_games())
    for game, presets in SLICE.items():
        assert set(presets) <= set(get_game(game).options_type.PRESETS)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(SLICE))
def test_fuzz_slice(game: str) -> None:
    for preset in SLICE[game]:
        job = Job(game, preset, 13, 30, 20.0, 2, window=15)
        tally = fuzz_one(job)
        assert tally.actions >= 15 and tally.games >= 1
        assert sum(tally.mutations.values()) == 2 * len(MUTATORS)
        assert not real_failures(tally), "\n".join(real_failures(tally))


def test_play_draws_every_view_every_fourth_ply(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, int | None]] = []
    kind = type(PU.new_game(PU.options("small")))
    honest = kind.render

    def counting(self: Any, seat: int | None = None) -> str:
        drawn.append((self.ply, seat))
        return honest(self, seat)

    monkeypatch.setattr(kind, "render", counting)
    checked, _ = play_game(PU, "small", 3, limit=12)
    assert checked == 12
    assert drawn == [(ply, seat) for ply in (0, 4, 8, 12) for seat in (None, 0, 1)]


def test_a_failure_is_reported_with_a_reproducer() -> None:
    def broken(text: str) -> Any:
        raise KeyError(text)  # not a NotationError: the notation fuzzer must flag it

    spec = dataclasses.replace(PU, parse_decision=broken)
    (_, _), failure = run_case("mutation-notation", spec, "small", 5)
    assert failure is not None and failure.kind == "mutation-notation"
    assert "KeyError" in failure.message
    assert failure.reproducer == (
        "python scripts/fuzz.py --repro mutation-notation:paper-ultimate:small:5"
    )
    (_, _), failure = run_case("play", spec, "small", 5, limit=30)
    assert failure is not None and failure.kind == "exception" and "KeyError" in failure.message


def test_the_allow_list_names_who_fixes_each_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    for (kind, game, text), owner in KNOWN.items():
        assert kind and text and owner
        get_game(game)
    entry = ("position", "huck-monster", "'ConeThrows' field 'left' is out of range")
    monkeypatch.setitem(KNOWN, entry, "hm-rules")
    assert known_reason("position", "huck-monster", "x " + entry[2] + ": -4") == "hm-rules"
    assert not known_reason("exception", "huck-monster", "x " + entry[2])
    assert not known_reason("position", "midway", "x " + entry[2])


def test_a_checked_apply_that_refuses_a_legal_action_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Play applies its own actions unchecked; the twin's apply and the record's replay
    # still go through the checked apply(), so a check that refuses is found.
    kind = type(PU.new_game(PU.options("small")))
    honest = kind.check

    def refusing(self: Any, action: Any, *, seat: int | None = None) -> None:
        if self.ply == 6:
            raise IllegalActionError("refused")
        honest(self, action, seat=seat)

    monkeypatch.setattr(kind, "check", refusing)
    (_, _), failure = run_case("play", PU, "small", 4, limit=20)
    assert failure is not None and "refused" in failure.message
