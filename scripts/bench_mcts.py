"""Search and simulation speed: MCTS iterations per second (one core) for each game, and
simulation throughput (games per second with 1 and 2 worker processes).

    python scripts/bench_mcts.py [--iterations 500] [--positions 8] [--games 8] [--json out]

MCTS is timed at ``--positions`` mid-game decision points of each game (reached by random
play from a fixed seed, decisions with more than one legal action, after the opening), with
``--iterations`` iterations each; the figure is total iterations / total search time (wall
clock), and per second of this process's CPU time, which a busy machine affects less. One
iteration = selection, one expansion, then ``--rollout`` random plies (0: none) and the
heuristic evaluation.
Simulation plays ``--games`` games between random bots, and between heuristic bots, on
each game's default options.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

from monsterball.bots.mcts import MCTSBot
from monsterball.bots.protocol import RandomBot
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE
from monsterball.games import all_games, get_game
from monsterball.lab.simulation import simulate


def mcts_speed(game: str, iterations: int, positions: int, rollout: int) -> dict[str, Any]:

    spec = get_game(game)
    state = spec.new_game(spec.options())
    sampler = SeededSampler(7)
    walker = RandomBot(7)
    rng = random.Random(7)
    # The search alone: a game's planner (Midway's offense) would take some decisions.
    bot = MCTSBot(1, iterations=iterations, rollout_depth=rollout, plan_tries=0)
    total_iterations = 0
    total_seconds = 0.0
    total_cpu = 0.0  # this process's CPU time: what the figure would be on an idle core
    nodes = 0
    searched = 0
    ply = 0
    while searched < positions and not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            state.apply_unchecked(sampler.choose(state.chance_outcomes()))
            continue
        ply += 1
        if ply > 60 and len(state.legal_actions()) > 1 and rng.random() < 0.2:
            cpu = time.process_time()
            action = bot.choose(state, actor)
            total_cpu += time.process_time() - cpu
            assert bot.last is not None
            total_iterations += bot.last.iterations
            total_seconds += bot.last.seconds
            nodes += bot.last.nodes
            searched += 1
        else:
            action = walker.choose(state, actor)
        state.apply_unchecked(action)
    return {
        "game": game,
        "positions": searched,
        "iterations_per_position": iterations,
        "rollout_depth": rollout,
        "iterations_per_second": total_iterations / total_seconds if total_seconds else 0.0,
        "iterations_per_cpu_second": total_iterations / total_cpu if total_cpu else 0.0,
        "seconds_per_position": total_seconds / max(1, searched),
    }


def sim_speed(game: str, games: int, bots: tuple[str, str], jobs: int) -> dict[str, Any]:
    began = time.perf_counter()
    summary = simulate(game, games, bots, jobs=jobs, seed=1)
    wall = time.perf_counter() - began
    return {
        "game": game,
        "bots": ",".join(bots),
        "jobs": jobs,
        "games": games,
        "games_per_second": games / wall,
        "mean_plies": summary.plies.mean,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--rollout", type=int, default=0, help="rollout depth (plies)")
    parser.add_argument("--games", type=int, default=8, help="games per simulation figure")
    parser.add_argument("--skip-sim", action="store_true")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {"python": platform.python_version(), "mcts": [], "simulation": []}
    games = [get_game(g) for g in args.game] if args.game else list(all_games())
    for spec in games:
        row = mcts_speed(spec.id, args.iterations, args.positions, args.rollout)
        out["mcts"].append(row)
        print(
            f"mcts {spec.id:15s} {row['iterations_per_second']:8.0f} iterations/s "
            f"({row['iterations_per_cpu_second']:.0f} per CPU second; "
            f"{row['positions']} positions x {args.iterations}, rollout {args.rollout})",
            flush=True,
        )
    if not args.skip_sim:
        for spec in games:
            for bots in (("random", "random"), ("heuristic", "heuristic")):
                for jobs in (1, 2):
                    row = sim_speed(spec.id, args.games, bots, jobs)
                    out["simulation"].append(row)
                    print(
                        f"sim  {spec.id:15s} {row['bots']:20s} jobs={jobs} "
                        f"{row['games_per_second']:6.2f} games/s "
                        f"(mean {row['mean_plies']:.0f} plies)",
                        flush=True,
                    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
