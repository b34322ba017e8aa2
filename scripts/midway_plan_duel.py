"""Midway's heuristic with its phase planner against the same heuristic without it.

Seats alternate (the planner in seat ``k % 2``); game k uses the dice seed
``derive_seed(seed, k // 2)``, so both seatings of a pair share the dice, or with
``--dice strength`` ``derive_seed(seed, k)``, the games ``scripts/strength.py`` plays.
``--opponent random`` plays the planner against the random bot instead. Prints each game,
then the planner's wins - losses - draws with the 95% Wilson interval on wins, the points
each side scored, and how often each side was held scoreless.

Usage::

    PYTHONPATH=src python scripts/midway_plan_duel.py --games 40 --seed 300
    PYTHONPATH=src python scripts/midway_plan_duel.py --games 100 --seed 0 --dice strength \
        --opponent random
"""

from __future__ import annotations

import argparse

from monsterball.bots.heuristic import HeuristicBot
from monsterball.bots.protocol import Bot, RandomBot, bot_seed, play_game
from monsterball.core.dice import derive_seed
from monsterball.games import get_game
from monsterball.games.midway.state import MidwayState
from monsterball.lab.simulation import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--tries", type=int, default=16, help="the planner's play-outs")
    parser.add_argument("--preset", help="default: the full-length default options")
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="first game number")
    parser.add_argument("--dice", choices=("pairs", "strength"), default="pairs")
    parser.add_argument("--opponent", choices=("heuristic", "random"), default="heuristic")
    args = parser.parse_args()
    spec = get_game("midway")
    options = spec.options(args.preset)
    won = lost = drawn = scored = conceded = blanked = blanked_other = 0
    for k in range(args.first, args.first + args.games):
        seed = derive_seed(args.seed, k if args.dice == "strength" else k // 2)
        me = k % 2
        bots: list[Bot] = [
            RandomBot(bot_seed(seed, s))
            if args.opponent == "random"
            else HeuristicBot(bot_seed(seed, s), plan_tries=0)
            for s in (0, 1)
        ]
        bots[me] = HeuristicBot(bot_seed(seed, me), plan_tries=args.tries)
        state, _, _ = play_game(spec, options, bots, seed)
        assert isinstance(state, MidwayState)
        mine, theirs = state.score[me], state.score[1 - me]
        result = state.returns()[me]
        won += result > 0
        lost += result < 0
        drawn += result == 0
        scored += mine
        conceded += theirs
        blanked += mine == 0
        blanked_other += theirs == 0
        print(f"game {k}: planner in seat {me}: {state.result_text()}", flush=True)
    n = won + lost + drawn
    lo, hi = wilson_interval(won, n)
    print(
        f"planner {won} - {lost} - {drawn} in {n} games: wins {won / n:.0%} ({lo:.0%} - {hi:.0%})"
    )
    other = "one-step" if args.opponent == "heuristic" else "random"
    print(f"points {scored} - {conceded}; scoreless: planner {blanked}, {other} {blanked_other}")


if __name__ == "__main__":
    main()
