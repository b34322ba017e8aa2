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
    ("small", 1): ("f366abbbabded61517bcfe290c1b067962185d53eb11c8d4917f50bc44b21896", 437),
    ("small", 2): ("b27fd49362efbc6920e2c02ec06ba6a02b3cf69fc5023cc749cf429601845f3a", 613),
    ("scrimmage", 3): ("632c7ab4f8bef9c554877c4a399f8f36699c09d529f8ac0ae64aee76f5d3719b", 710),
    ("basic", 4): ("568044931143e7c8b48c3c644c5b466c6662545ee04ad9e2e42ae4998ce08932", 869),
    ("emergency-pickup", 5): (
        "8e00617842b583013e73df9093fee74faf2c3d124c299fb18d55612e1ed4fe4a",
        1638,
    ),
    ("all-stars", 6): ("68c00d29cf56ac9dfe4e1d93ce568aef43d28f3283552c77428eca3888511e5b", 1263),
    ("hot-hex", 7): ("c3c140436de01c97c98720acfa7a949cc24e9b1d239e929320cfe97017a2dab2", 4562),
    ("pro-continue", 8): (
        "cb34dc453f22dc68a850b9828e512052824db71949d7d801285c0ffb36feba1c",
        1477,
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
