"""Midway's heuristic bot against an older version of itself (a copy of an earlier
``games/midway/analysis/heuristic.py``, e.g. from ``git show REV:src/.../heuristic.py``).

Heuristic vs random is 100% before and after most changes, so it cannot show a small loss
of strength; this head-to-head can. Seats alternate; game k of a seed uses the same dice
with either seating. Prints wins - losses - draws of the current heuristic and the score's
95% Wilson interval (a draw counts half).

Usage::

    git show REV:src/monsterball/games/midway/analysis/heuristic.py > /tmp/old_heuristic.py
    PYTHONPATH=src python scripts/midway_heuristic_duel.py /tmp/old_heuristic.py \\
        --games 40 --preset match
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import Any

from monsterball.bots.heuristic import Heuristic, HeuristicBot, sample_candidates
from monsterball.bots.protocol import bot_seed, play_game
from monsterball.core.dice import derive_seed
from monsterball.games import get_game

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from midway_idle import wilson


def load_old(path: str) -> Heuristic:
    spec = importlib.util.spec_from_file_location("old_midway_heuristic", path)
    assert spec is not None and spec.loader is not None
    module: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Heuristic(
        "midway",
        module.evaluate,
        getattr(module, "policy", None),
        getattr(module, "determinize", None),
        getattr(module, "candidates", sample_candidates),
    )


class OldBot(HeuristicBot):
    """The heuristic bot, with the old module's functions."""

    name = "old-heuristic"

    def __init__(self, seed: int, old: Heuristic):
        super().__init__(seed)
        self.old = old

    def choose(self, state: Any, seat: int) -> Any:
        import monsterball.bots.heuristic as h

        real = h.heuristic_for
        h.heuristic_for = lambda spec: self.old
        try:
            return super().choose(state, seat)
        finally:
            h.heuristic_for = real


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="path of the older heuristic.py")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--preset", default="match")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    old = load_old(args.old)
    spec = get_game("midway")
    options = spec.options(preset=args.preset)
    won = lost = drawn = 0
    for k in range(args.games):
        seed = derive_seed(args.seed, k // 2)
        new_seat = k % 2
        bots: list[Any] = [None, None]
        bots[new_seat] = HeuristicBot(bot_seed(seed, new_seat))
        bots[1 - new_seat] = OldBot(bot_seed(seed, 1 - new_seat), old)
        state, _, _ = play_game(spec, options, bots, seed)
        r = state.returns()[new_seat]
        won += r > 0
        lost += r < 0
        drawn += r == 0
        print(f"game {k}: new heuristic in seat {new_seat}: {state.view()['score']}", flush=True)
    n = won + lost + drawn
    score = won + drawn / 2
    lo, hi = wilson(score, n)  # draws count half, as in CHANGELOG.md 0.1.0
    print(
        f"new vs old heuristic, {n} games ({args.preset}, seed {args.seed}): "
        f"{won} - {lost} - {drawn}, score {score / n:.0%} (95% CI {lo:.0%} - {hi:.0%})"
    )


if __name__ == "__main__":
    main()
