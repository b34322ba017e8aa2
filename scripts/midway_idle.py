"""How often Midway's heuristic (medium) bot ends a movement phase without moving while a
move that gains ground existed (issue 14, item 8): seeded heuristic-vs-heuristic games in
which every kickoff is an onside kick. What counts as idle, and as a move that gains
ground, is in monsterball.games.midway.analysis.idle, which plays the games.

Usage: ``PYTHONPATH=src python scripts/midway_idle.py --games 6 --preset match --seed 0``
(``--plan-tries 0`` without the phase planner)
"""

from __future__ import annotations

import argparse
import math

from monsterball.bots.heuristic import HeuristicBot
from monsterball.bots.protocol import bot_seed
from monsterball.games import get_game
from monsterball.games.midway.analysis.idle import measure


def wilson(k: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--preset", default="short")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--bot-kicks", action="store_true", help="let the bots choose their kickoffs"
    )
    parser.add_argument(
        "--plan-tries", type=int, help="the planner's play-outs (default: the bot's own)"
    )
    args = parser.parse_args()
    tries = {} if args.plan_tries is None else {"plan_tries": args.plan_tries}

    def bots(g: int) -> list[HeuristicBot]:
        return [HeuristicBot(bot_seed(g, s), **tries) for s in range(2)]

    spec = get_game("midway")
    c = measure(spec, args.games, args.preset, args.seed, bots, onside=not args.bot_kicks)
    n, k = c["phases"], c["idle_with_gain"]
    lo, hi = wilson(k, n)
    print(
        f"{args.games} games ({args.preset}, seeds {args.seed}..{args.seed + args.games - 1}): "
        f"{n} movement phases, {c['idle']} ended without moving, "
        f"{k} of them while a move gained ground: {k / max(n, 1):.1%} "
        f"(95% CI {lo:.1%} - {hi:.1%}); onside-kick plays: "
        f"{c['onside_idle']} idle of {c['onside_phases']} phases"
    )


if __name__ == "__main__":
    main()
