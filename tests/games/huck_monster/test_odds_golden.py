"""The exact odds (`odds.catch_probability`, integer arithmetic over common denominators with
precomputed matchup tables) give the very fractions the first implementation (a Fraction loop
over every roll) gave, for every combination of bidders under a set of rule variants.

tests/golden/huck-monster.odds.json was written by that first implementation (commit
0588f66's odds.py) over :func:`cases`; a change of rules that moves the odds on purpose
regenerates it and the diff is reviewed. Rules 1.4.0 (HM-R37: a pin Doink or Dump spun for a
catch now counts) rewrote the 31 pin catch entries whose odds moved, from this
implementation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from monsterball.games.huck_monster.analysis.odds import (
    UpCallSetup,
    catch_probability,
    clear_setup_caches,
)
from tests.helpers import TESTS

GOLDEN = TESTS / "golden" / "huck-monster.odds.json"

VARIANTS: list[dict[str, Any]] = [
    {},
    {"ties": "defense"},
    {"throw_count": 9},
    {"team_pins": True},
    {"stealth_offense": True, "stealth_defense": True, "path_length": 4},
    {"all_star_bid": "intercept", "all_star_throw": True, "all_star_catch": True},
    {"continue_dice": 1, "remaining": 5},
    {"continue_dice": 3},
]
# Strategy dice cost the most: every sixth combination of bidders.
STRATEGY_VARIANTS: list[dict[str, Any]] = [
    {"offense_strategy": "throw", "defense_strategy": "mark"},
    {"offense_strategy": "catch", "defense_strategy": "catch-mark"},
    {"offense_strategy": "throw", "defense_strategy": "intercept", "ties": "defense"},
    {"equipment": "pin", "offense_strategy": "catch", "defense_strategy": "challenge"},
    {"equipment": "game-disc", "offense_strategy": "throw", "defense_strategy": "mark"},
]


def bidders() -> Iterator[dict[str, Any]]:
    """Every combination of bidders a team of 7 can put up."""
    for mark in (False, True):
        for intercepts in range(8):
            for catch_marks in range(8):
                for challenges in range(8):
                    if mark + intercepts + catch_marks + challenges <= 7:
                        yield {
                            "mark": mark,
                            "intercepts": intercepts,
                            "catch_marks": catch_marks,
                            "challenges": challenges,
                        }


def cases() -> Iterator[dict[str, Any]]:
    for index, who in enumerate(bidders()):
        for variant in VARIANTS:
            yield {**who, **variant}
        if index % 6 == 0:
            for variant in STRATEGY_VARIANTS:
                yield {**who, **variant}


@pytest.mark.slow
def test_odds_match_the_first_implementation_for_every_combination() -> None:
    golden = json.loads(GOLDEN.read_text())
    assert [g["setup"] for g in golden] == list(cases())
    for g in golden:
        got = catch_probability(UpCallSetup(**g["setup"]))
        assert got == Fraction(g["catch"]), g["setup"]


@pytest.mark.slow
def test_odds_do_not_depend_on_what_was_asked_before() -> None:
    """The phases and bid chains are cached across queries (shared by bidder combinations):
    each answer must be the same computed alone, after others, or in the other order."""
    golden = json.loads(GOLDEN.read_text())
    # Every 37th case, and every case where the catch phase's worth depends on the dark die
    # (the throw phase is then scaled by proportions of two values, not one).
    late_dark = ("catch-mark", "challenge")
    sample = [
        g
        for i, g in enumerate(golden)
        if i % 37 == 0 or g["setup"].get("defense_strategy") in late_dark
    ]
    for g in sample:
        clear_setup_caches()
        assert catch_probability(UpCallSetup(**g["setup"])) == Fraction(g["catch"]), g["setup"]
    clear_setup_caches()
    for g in reversed(sample):
        assert catch_probability(UpCallSetup(**g["setup"])) == Fraction(g["catch"]), g["setup"]
