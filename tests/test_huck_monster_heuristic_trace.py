"""The Huck + Monster heuristic bot makes the same choices it made when these digests were
recorded: speed work on the bot and the engine must not change a single decision.

Each digest is the SHA-256 of every action's notation (decisions and dice) of one seeded
heuristic-vs-heuristic game (``play_game``: dice from ``SeededSampler(seed)``, bots seeded
by ``bot_seed``). A change of the heuristic's *decisions* on purpose (or of the rules)
re-records them (``python tests/test_huck_monster_heuristic_trace.py``) and says why.
"""

from __future__ import annotations

import hashlib
import sys

import pytest

from monsterball.bots import HeuristicBot, bot_seed
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE
from monsterball.games import get_game

# (preset, seed): the default field (strategy dice on), a field without them, pins, stars,
# a kit and the pro rules, so every branch of the bot's policy is met.
CASES = [
    ("small", 1),
    ("small", 2),
    ("scrimmage", 3),
    ("basic", 4),
    ("emergency-pickup", 5),
    ("all-stars", 6),
    ("hot-hex", 7),
    ("pro-continue", 8),
]

RECORDED = {
    # Re-recorded 2026-12-01: the evaluation weighs a position at half a point
    # (POSITION_WEIGHT), so the bot now scores where it used to wait (small 1 is unchanged).
    ("small", 1): ("f366abbbabded61517bcfe290c1b067962185d53eb11c8d4917f50bc44b21896", 437),
    ("small", 2): ("00dd39799facbdd36c6d9f634ca450ff4c1ac9dba47998e678b66d08344ddf55", 683),
    ("scrimmage", 3): ("0c50dce792e0d8094c1202c2ff6a8480864a627271fbe8d43cee615d3f45f8f6", 1604),
    ("basic", 4): ("af8c9be1c6d473c48ee329d9d6af318efab0dbdfeb915d34cc0443248b2e74db", 1086),
    ("emergency-pickup", 5): (
        "d42b9c36f7e53c19e17d27600093cd43eda2872971f82dc2237c69cc576097d0",
        1556,
    ),
    ("all-stars", 6): ("3da517140203758ecb113da56e74784ff4c258c328390913a6c2c1e9f19fc61d", 1373),
    ("hot-hex", 7): ("9a52c709c41aeea9fa9620588b6b63560f68e6b15736fc4ba5495f66c3b24662", 11284),
    ("pro-continue", 8): (
        "bf6c1e215e95556f9275d1163aad82eeae4dc5b798cbfe09c6eb40ca3f05094c",
        1153,
    ),
}


def trace(preset: str, seed: int) -> tuple[str, int]:
    """The digest of one game's actions, and its length in plies."""
    spec = get_game("huck-monster")
    state = spec.new_game(spec.options_type.from_preset(preset))
    bots = [HeuristicBot(bot_seed(seed, seat)) for seat in range(2)]
    sampler = SeededSampler(seed)
    digest = hashlib.sha256()
    plies = 0
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            action = sampler.choose(state.chance_outcomes())
        else:
            action = bots[actor].choose(state, actor)
        digest.update(action.notation().encode() + b";")
        state.apply_unchecked(action)
        plies += 1
        assert plies < 20_000, "the game did not end"
    return digest.hexdigest(), plies


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_the_heuristic_plays_the_recorded_game(preset: str, seed: int) -> None:
    assert trace(preset, seed) == RECORDED[preset, seed]


if __name__ == "__main__":
    for case in CASES:
        print(f"    {case!r}: {trace(*case)!r},", file=sys.stdout)
