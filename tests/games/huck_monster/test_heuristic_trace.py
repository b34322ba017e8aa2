"""The Huck + Monster heuristic bot makes the same choices it made when these digests were
recorded: speed work on the bot and the engine must not change a single decision.

Each digest is the SHA-256 of every action's notation (decisions and dice) of one seeded
heuristic-vs-heuristic game (``play_game``: dice from ``SeededSampler(seed)``, bots seeded
by ``bot_seed``). A change of the heuristic's *decisions* on purpose (or of the rules)
re-records them (``python tests/games/huck_monster/test_heuristic_trace.py``) and says why.
"""

from __future__ import annotations

import hashlib
import sys

import pytest

from monsterball.bots.heuristic import HeuristicBot
from monsterball.bots.protocol import bot_seed
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
    # Re-recorded 2026-12-02 for rules 1.3.0 (issue 34): end-zone turnovers no longer move a
    # Handler and disc already on the line, one Mark per throw, and the other fixes change
    # the positions the bots see.
    ("small", 1): ("6662341f7271fe2eed58ee3164d9bf5522a36d1760c66dfd72e983634eb0f606", 594),
    ("small", 2): ("4a0e6ce39bf7e76ef8026926fcc36811753713eb5aa38ce27041988af8c41d0c", 463),
    ("scrimmage", 3): ("666a666b3fae522b12f6c11e81607b24efe5386d431e6d8cf5bd8529fe4beac7", 419),
    ("basic", 4): ("2603d10dcd7d5e0e3a0e6b20fc85aa0cbc1036fcf7ac185e9036e04a9f15b650", 681),
    ("emergency-pickup", 5): (
        "e9c68ff52fe1a568cf523246880efb7aa90c5a1d35978a4df567e23c01b69e0e",
        921,
    ),
    ("all-stars", 6): ("3b0e914f117cd121afc324f63ee812e3a00e432b8fa9f4f1b84d4917437d332c", 1586),
    ("hot-hex", 7): ("965f4c3801bd6f1ebe2121857f389c8b5558a94a1c07d1e67f4136763abe7fe6", 11369),
    ("pro-continue", 8): (
        "880930c04177b587582d151348da0e0a8472584a93ed921f18516d7d72d3888e",
        1529,
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


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_the_heuristic_plays_the_recorded_game(preset: str, seed: int) -> None:
    assert trace(preset, seed) == RECORDED[preset, seed]


if __name__ == "__main__":
    for case in CASES:
        print(f"    {case!r}: {trace(*case)!r},", file=sys.stdout)
