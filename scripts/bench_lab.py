"""Balance-lab speed: full Huck + Monster games (default options) between two heuristic bots,
the games a lab sweep plays, on one core, with python-chess random playouts interleaved as a
yardstick.

Game ``i`` is seeded as the simulator and the lab seed it (dice ``derive_seed(seed, i)``, bots
``bot_seed``), so a given ``--seed`` always plays the same games. Each game is timed in CPU
time of this process (``time.process_time``, start-up excluded) and in wall time; after each
game, random chess runs for as long as the game took (wall), so load that comes and goes hits
both alike. Per round (``--games`` games) the ratio is games/s over chess moves/s, both in
wall time of their own slices; the figure to plan with is that median ratio times a quiet
core's chess rate (``--quiet-chess``, measured by ``scripts/bench.py``).

    python scripts/bench_lab.py [--rounds 3] [--games 5] [--seed 1] [--bots heuristic,heuristic]
        [--game huck-monster] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

from bench import ChessPlayouts

from monsterball.bots.protocol import bot_seed, play_game
from monsterball.bots.registry import make_bot
from monsterball.core.dice import derive_seed
from monsterball.games import get_game

QUIET_CHESS = 12_681.0  # moves/s of python-chess on a quiet core (CHANGELOG.md 0.1.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", default="huck-monster")
    parser.add_argument("--bots", default="heuristic,heuristic")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=5, help="games per round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet-chess", type=float, default=QUIET_CHESS)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    spec = get_game(args.game)
    options = spec.options()
    names = args.bots.split(",")
    chess = ChessPlayouts(args.seed)
    chess.run(0.3)  # warm up
    index = 0
    cpu = wall = chess_moves = chess_wall = 0.0
    plies_total = 0
    ratios: list[float] = []
    for _ in range(args.rounds):
        round_games = round_wall = round_moves = round_chess = 0.0
        for _ in range(args.games):
            seed = derive_seed(args.seed, index)
            index += 1
            bots = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(names)]
            c0, w0 = time.process_time(), time.perf_counter()
            _, _, plies = play_game(spec, options, bots, seed)
            c1, w1 = time.process_time(), time.perf_counter()
            cpu += c1 - c0
            wall += w1 - w0
            plies_total += plies
            round_games += 1
            round_wall += w1 - w0
            moves, t = chess.run(w1 - w0)
            round_moves += moves
            round_chess += t
        chess_moves += round_moves
        chess_wall += round_chess
        ratios.append((round_games / round_wall) / (round_moves / round_chess))
    ratio = statistics.median(ratios)
    out: dict[str, Any] = {
        "game": args.game,
        "bots": names,
        "games": index,
        "mean_plies": plies_total / index,
        "games_per_cpu_s": index / cpu,
        "games_per_wall_s": index / wall,
        "chess_moves_per_s": chess_moves / chess_wall,
        "ratio_games_per_chess_move": ratios,
        "median_ratio": ratio,
        "quiet_core_games_per_s": ratio * args.quiet_chess,
        "load_average": os.getloadavg(),
    }
    print(
        f"{args.game} {args.bots}: {index} games, {out['mean_plies']:.0f} plies each;"
        f" {out['games_per_cpu_s']:.2f} games per CPU second, {out['games_per_wall_s']:.2f}"
        f" per wall second; chess {out['chess_moves_per_s']:,.0f} moves/s in its slices;"
        f" per round games/s per 1,000 chess moves/s: "
        + ", ".join(f"{1000 * r:.3f}" for r in ratios)
        + f"; x quiet chess ({args.quiet_chess:,.0f}/s) = {out['quiet_core_games_per_s']:.2f}"
        f" games/s on a quiet core; load average {out['load_average'][0]:.1f}"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
