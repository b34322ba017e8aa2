"""The event log reads as sentences (issue 33): over random games of every game, no event
says its dice in notation ('d6=3', 'd6 2 -1 = 1', 'coins=HT'), in arrows ('e3 -> e5') or in
option syntax ('roster_a=...'); each is a sentence that starts with a capital and ends with
a stop. The exact numbers stay, in words ('rolls a 2, minus 1 for size, making 1')."""

from __future__ import annotations

import random
import re

import pytest

from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE
from monsterball.games import get_game
from monsterball.games.midway.events.ball import CatchTried
from monsterball.games.midway.events.contact import BlockRolled, TackleRolled
from monsterball.games.paper_ultimate.events import MonsterRolled

NOTATION = {
    "die notation": re.compile(r"\bd6(=|\s+[-+]?\d)|\b\dd6\b"),
    "label=value": re.compile(r"\w=\w"),
    "bare arithmetic": re.compile(r"[+-]\d+\s*=|=\s*-?\d"),
    "arrow": re.compile(r"->|=>"),
    "range as a need": re.compile(r"\bneeds? 1-\d"),
    "backtick": re.compile(r"`"),
    "command-line flag": re.compile(r"(?<!\w)--\w"),
}
SENTENCE = re.compile(r"^[A-Z0-9\"].*[.!]$")

# (game, preset, games, plies per game): enough to meet every common event.
GAMES = [
    ("paper-ultimate", "standard", 3, 1500),
    ("paper-ultimate", "coins", 2, 1500),
    ("huck-monster", "standard", 3, 1500),
    ("midway", "short", 3, 2500),
]


def notation_in(text: str) -> list[str]:
    return [name for name, pattern in NOTATION.items() if pattern.search(text)]


def random_sentences(game: str, preset: str, games: int, plies: int) -> dict[str, str]:
    """One sentence per kind of event met in ``games`` random games (seeded)."""
    spec = get_game(game)
    seen: dict[str, str] = {}
    for seed in range(games):
        state = spec.new_game(spec.options(preset) if preset != "standard" else spec.options())
        rng, dice = random.Random(seed), SeededSampler(seed)
        for _ in range(plies):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                events = state.apply(dice.choose(state.chance_outcomes()))
            else:
                events = state.apply(rng.choice(state.legal_actions()))
            for event in events:
                text = event.describe()
                key = type(event).__name__
                if key not in seen or notation_in(text) or not SENTENCE.match(text):
                    seen[key] = text
    return seen


@pytest.mark.parametrize(("game", "preset", "games", "plies"), GAMES)
def test_every_event_met_in_random_games_reads_as_a_sentence(
    game: str, preset: str, games: int, plies: int
) -> None:
    seen = random_sentences(game, preset, games, plies)
    assert len(seen) >= 8, seen  # the games did get going
    bad = {k: (t, notation_in(t)) for k, t in seen.items() if notation_in(t)}
    assert not bad, bad
    unfinished = {k: t for k, t in seen.items() if not SENTENCE.match(t)}
    assert not unfinished, unfinished


def test_the_scan_catches_the_old_notation() -> None:
    """The patterns find what the log used to say, so the scan above can fail."""
    for old in (
        "A2 blocks B1: d6 2 +1 = 3, neutralize.",
        "Monster defense roll d6=6: a turn!",
        "A1 runs e3 -> e5.",
        "B1 dives for the loose ball: d6 5 (needs 1-4, 2 in the hex): missed.",
        "Team A's roster: orc (to draft it again, give a new game the option roster_a=orc).",
    ):
        assert notation_in(old), old


def test_the_numbers_stay_in_the_words() -> None:
    """MW block and tackle tables, the catch table and PU's monster die: the die, the
    modifier, the total and what was needed all appear, each said in words."""
    block = BlockRolled(1, 10, 2, -1, 1, "blocker defeated").describe()
    assert block == (
        "A2 blocks B1: he rolls a 2, minus 1 for size, making 1: blocker defeated "
        "(the block fails)."
    )
    tackle = TackleRolled(10, 0, 6, 4, 9, "tackler injured for game").describe()
    assert "rolls a 6, plus 4 for size, making 10, read as 9 (the chart's end)" in tackle
    assert "B1 is out for the rest of the game" in tackle
    catch = CatchTried(2, "pass", 4, 5, True).describe()
    assert catch == "A3 tries to catch the pass: he rolls a 4 and needed 5 or less: caught."
    sure = CatchTried(10, "intercept", 4, 7, True).describe()
    assert "7 or less was needed, so any roll does" in sure and "an interception" in sure
    assert (
        MonsterRolled("coins=HT", False)
        .describe()
        .startswith("The monster defense coins show heads, tails: the catch stands")
    )
    assert MonsterRolled("d6=6", True, True).describe() == (
        "The monster defense die shows 6: a turn! The defence takes the disc. No point."
    )
