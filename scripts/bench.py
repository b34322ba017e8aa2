"""Random-playout throughput of every registered game on one core, with python-chess as a
yardstick measured in the same process (so machine speed mostly cancels out of the ratio).

For each game: actions/s (legal-action generation + apply; chance nodes sampled with
SeededSampler) and full games/s over a fixed time budget, plus peak memory. Then random
chess playouts (``list(board.legal_moves)`` + ``push`` until the game is over) over the same
budget.

    python scripts/bench.py [--seconds 5] [--seed 0] [--json FILE]
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import resource
import sys
import time
import tracemalloc
from typing import Any

from monsterball.core.dice import SeededSampler, derive_seed
from monsterball.core.game import GameSpec
from monsterball.core.registry import all_games


def playout(spec: GameSpec, seed: int, deadline: float | None = None) -> tuple[int, bool]:
    """One random game: (actions applied, finished before the deadline)."""
    state = spec.new_game(spec.options())
    sampler = SeededSampler(seed)
    rng = random.Random(seed ^ 0x5EED)
    actions = 0
    clock = time.perf_counter
    while not state.is_terminal():
        if deadline is not None and (actions & 63) == 0 and clock() >= deadline:
            return actions, False
        if state.is_chance():
            action = sampler.choose(state.chance_outcomes())
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply_unchecked(action)
        actions += 1
    return actions, True


def max_rss_mib() -> float:
    # ru_maxrss is KiB on Linux, bytes on macOS.
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1 << 20) if sys.platform == "darwin" else rss / 1024


def bench_game(spec: GameSpec, seconds: float, seed: int) -> dict[str, Any]:
    playout(spec, derive_seed(seed, -1))  # warm caches (action catalogues, geometry tables)
    gc.collect()
    actions = games = 0
    lengths: list[int] = []
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        n, finished = playout(spec, derive_seed(seed, games), deadline)
        actions += n
        if finished:
            games += 1
            lengths.append(n)
    elapsed = time.perf_counter() - start
    # tracemalloc slows allocation a lot, so it gets its own (untimed) game.
    tracemalloc.start()
    playout(spec, derive_seed(seed, 0))
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # What one more position costs a search: the bytes a clone allocates, mid-game.
    state = spec.new_game(spec.options())
    sampler, rng = SeededSampler(seed), random.Random(seed)
    for _ in range(200):
        if state.is_terminal():
            break
        choices = state.legal_actions()
        state.apply(
            sampler.choose(state.chance_outcomes()) if state.is_chance() else rng.choice(choices)
        )
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    clones = [state.clone() for _ in range(1000)]
    after, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del clones
    return {
        "game": spec.id,
        "seconds": elapsed,
        "actions": actions,
        "games": games,
        "actions_per_s": actions / elapsed,
        "games_per_s": games / elapsed,
        "mean_plies": sum(lengths) / len(lengths) if lengths else None,
        "tracemalloc_peak_mib": traced_peak / (1 << 20),
        "bytes_per_clone": (after - before) / 1000,
        "max_rss_mib": max_rss_mib(),
    }


def bench_chess(seconds: float, seed: int) -> dict[str, Any] | None:
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        board = chess.Board()
        while not board.is_game_over():
            moves = list(board.legal_moves)
            board.push(moves[rng.randrange(len(moves))])
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "game": "python-chess",
        "version": chess.__version__,
        "seconds": elapsed,
        "actions": actions,
        "games": games,
        "actions_per_s": actions / elapsed,
        "games_per_s": games / elapsed,
        "mean_plies": actions / games if games else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="time budget per game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)

    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{args.seconds:g} s per game, one core"
    )
    results = []
    for spec in all_games():
        r = bench_game(spec, args.seconds, args.seed)
        results.append(r)
        mean = f"{r['mean_plies']:.0f}" if r["mean_plies"] is not None else "n/a"
        print(
            f"{spec.id:<16} {r['actions_per_s']:>10,.0f} actions/s {r['games_per_s']:>8.2f} "
            f"games/s  ({r['games']} games, mean {mean} plies)  tracemalloc peak "
            f"{r['tracemalloc_peak_mib']:.2f} MiB, {r['bytes_per_clone']:,.0f} bytes per clone, "
            f"max RSS {r['max_rss_mib']:.1f} MiB"
        )
    chess_result = bench_chess(args.seconds, args.seed)
    if chess_result is None:
        print("python-chess is not installed: no yardstick (pip install chess)")
    else:
        c = chess_result
        print(
            f"{'python-chess':<16} {c['actions_per_s']:>10,.0f} actions/s {c['games_per_s']:>8.2f} "
            f"games/s  ({c['games']} games, mean {c['mean_plies']:.0f} plies)"
        )
        for r in results:
            r["actions_ratio_vs_chess"] = r["actions_per_s"] / c["actions_per_s"]
            print(f"{r['game']:<16} ours/chess: {r['actions_ratio_vs_chess']:.2f}x actions/s")
    if args.json:
        payload = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "seconds": args.seconds,
            "seed": args.seed,
            "games": results,
            "chess": chess_result,
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
