"""Random-playout throughput of every registered game on one core, with python-chess as a
yardstick run interleaved in the same process, so machine speed and load mostly cancel out
of the ratio.

Per game, ``--rounds`` rounds each run ``--slice`` seconds of random play of the game and
as long of random chess, alternating in 0.1 s sub-slices (the order flips from round to
round). Each round gives one
ratio, the game's **decisions/s** (actions chosen by a seat: legal-list generation + a
uniform pick + apply) over chess's moves/s (``list(board.legal_moves)`` + a uniform pick +
``push``); the figure reported is the median ratio. The same is measured for random play
that draws with ``GameState.sample_legal`` (no full list): the rollouts' fast path. Chance
outcomes (dice) are applied with a ``SeededSampler`` and counted in ``actions_per_s`` only:
they need no legal-move generation. Playouts carry over from slice to slice (a new game
starts when one ends).

Memory is measured for each game in a fresh process of its own (so the maximum RSS is that
game's, not inherited from the games before): the tracemalloc peak over one whole game, the
bytes one mid-game ``clone()`` allocates, and the process's maximum RSS.

    python scripts/bench.py [--slice 2.0] [--rounds 5] [--seed 0] [--game ID] [--json FILE]
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import platform
import random
import resource
import statistics
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from monsterball.core.dice import SeededSampler, derive_seed
from monsterball.core.game import GameSpec, GameState
from monsterball.games import all_games, get_game

SUB_SLICE = 0.1  # seconds: each round alternates game, sampled game and chess this often
GOAL = 3.0  # the project's goal: every game at least 3x python-chess's moves/s


class GamePlayouts:
    """Random playouts of one game that can be run in time slices."""

    def __init__(self, spec: GameSpec, seed: int, *, sample: bool = False):
        self.spec = spec
        self.seed = seed
        self.sample = sample  # pick with ``sample_legal`` instead of listing every action
        self.started = 0
        self.finished_plies: list[int] = []
        self.state, self.sampler, self.rng, self.plies = self._new_game()

    def _new_game(self) -> tuple[GameState, SeededSampler, random.Random, int]:
        seed = derive_seed(self.seed, self.started)
        self.started += 1
        state = self.spec.new_game(self.spec.options())
        return state, SeededSampler(seed), random.Random(seed ^ 0x5EED), 0

    def run(self, seconds: float) -> tuple[int, int, float]:
        """Play for about ``seconds``: (decisions, all actions, elapsed seconds)."""
        clock = time.perf_counter
        start = clock()
        deadline = start + seconds
        decisions = actions = 0
        state, sampler, rng, plies = self.state, self.sampler, self.rng, self.plies
        sample = self.sample
        while True:
            if (actions & 31) == 0 and clock() >= deadline:
                break
            if state.is_terminal():
                self.finished_plies.append(plies)
                state, sampler, rng, plies = self._new_game()
                continue
            if state.is_chance():
                action = sampler.choose(state.chance_outcomes())
            else:
                if sample:
                    action = state.sample_legal(rng)
                else:
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                decisions += 1
            state.apply_unchecked(action)
            actions += 1
            plies += 1
        self.state, self.sampler, self.rng, self.plies = state, sampler, rng, plies
        return decisions, actions, clock() - start


class ChessPlayouts:
    """Random python-chess games, run in time slices."""

    def __init__(self, seed: int):
        import chess

        self.chess = chess
        self.rng = random.Random(seed)
        self.board = chess.Board()

    def run(self, seconds: float) -> tuple[int, float]:
        clock = time.perf_counter
        start = clock()
        deadline = start + seconds
        moves = 0
        board, rng = self.board, self.rng
        while True:
            if (moves & 31) == 0 and clock() >= deadline:
                break
            if board.is_game_over():
                board = self.chess.Board()
                continue
            legal = list(board.legal_moves)
            board.push(legal[rng.randrange(len(legal))])
            moves += 1
        self.board = board
        return moves, clock() - start


def bench_game(
    spec: GameSpec, chess: ChessPlayouts | None, slice_s: float, rounds: int, seed: int
) -> dict[str, Any]:
    game = GamePlayouts(spec, seed)
    sampled = GamePlayouts(spec, seed, sample=True)
    game.run(min(slice_s, 0.5))  # warm caches (action catalogues, geometry tables)
    sampled.run(min(slice_s, 0.5))
    gc.collect()
    ratios: list[float] = []
    sample_ratios: list[float] = []
    chess_rates: list[float] = []
    decisions = actions = 0
    sample_decisions = 0
    seconds = sample_seconds = 0.0
    for k in range(rounds):
        # Within a round the three alternate in short sub-slices, so a change of load
        # during the round hits them alike.
        order = ("game", "sampled", "chess") if k % 2 == 0 else ("chess", "sampled", "game")
        parts = max(1, round(slice_s / SUB_SLICE))
        done = {"game": [0, 0.0], "sampled": [0, 0.0], "chess": [0, 0.0]}
        for _ in range(parts):
            for what in order:
                if what == "chess":
                    if chess is not None:
                        n, t = chess.run(slice_s / parts)
                        done["chess"][0] += n
                        done["chess"][1] += t
                elif what == "game":
                    d, a, t = game.run(slice_s / parts)
                    decisions, actions, seconds = decisions + d, actions + a, seconds + t
                    done["game"][0] += d
                    done["game"][1] += t
                else:
                    d, _, t = sampled.run(slice_s / parts)
                    sample_decisions, sample_seconds = sample_decisions + d, sample_seconds + t
                    done["sampled"][0] += d
                    done["sampled"][1] += t
        rate = {what: n / t for what, (n, t) in done.items() if t > 0}
        if "chess" in rate:
            chess_rates.append(rate["chess"])
            ratios.append(rate["game"] / rate["chess"])
            sample_ratios.append(rate["sampled"] / rate["chess"])
    plies = game.finished_plies
    out: dict[str, Any] = {
        "game": spec.id,
        "seconds": seconds,
        "decisions": decisions,
        "actions": actions,
        "decisions_per_s": decisions / seconds,
        "actions_per_s": actions / seconds,
        "sample_legal_decisions_per_s": sample_decisions / sample_seconds,
        "games_finished": len(plies),
        "mean_plies": sum(plies) / len(plies) if plies else None,
    }
    if ratios:
        out["chess_moves_per_s"] = statistics.median(chess_rates)
        out["decisions_ratios_vs_chess"] = ratios
        out["decisions_ratio_vs_chess"] = statistics.median(ratios)
        out["sample_legal_ratio_vs_chess"] = statistics.median(sample_ratios)
    return out


def max_rss_mib() -> float:
    # ru_maxrss is KiB on Linux, bytes on macOS.
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1 << 20) if sys.platform == "darwin" else rss / 1024


def memory_of(game_id: str, seed: int) -> dict[str, float]:
    """Run in a fresh process: one game's memory figures (see the module docstring)."""
    spec = get_game(game_id)
    baseline = max_rss_mib()  # the interpreter and the project's modules, before any play
    GamePlayouts(spec, derive_seed(seed, -1)).run(1.0)  # what a playout run touches
    tracemalloc.start()
    whole = GamePlayouts(spec, derive_seed(seed, 0))
    while not whole.finished_plies:
        whole.run(10.0)
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
        "tracemalloc_peak_mib": traced_peak / (1 << 20),
        "bytes_per_clone": (after - before) / 1000,
        "max_rss_mib": max_rss_mib(),
        "rss_before_play_mib": baseline,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--slice", type=float, default=2.0, help="seconds of each per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (>= 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory processes")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 3:
        parser.error("--rounds must be at least 3 (the ratio is a median)")
    specs = [get_game(g) for g in args.game] if args.game else list(all_games())

    try:
        chess: ChessPlayouts | None = ChessPlayouts(args.seed)
    except ImportError:
        chess = None
        print("python-chess is not installed: no yardstick (pip install chess)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"python {platform.python_version()} on {platform.machine()}, one core, "
        f"{args.rounds} interleaved rounds of {args.slice:g} s slices, load average {load:.1f}"
    )
    results = []
    for spec in specs:
        r = bench_game(spec, chess, args.slice, args.rounds, args.seed)
        results.append(r)
        ratio = r.get("decisions_ratio_vs_chess")
        vs = (
            f"{ratio:.2f}x chess (goal {GOAL:g}x: {ratio / GOAL:.0%} of it; rounds "
            + ", ".join(f"{x:.2f}" for x in r["decisions_ratios_vs_chess"])
            + f"); sample_legal {r['sample_legal_ratio_vs_chess']:.2f}x"
            if ratio is not None
            else "no yardstick"
        )
        print(
            f"{spec.id:<15} {r['decisions_per_s']:>9,.0f} decisions/s "
            f"{r['actions_per_s']:>9,.0f} actions/s  {vs}",
            flush=True,
        )
    if chess is not None:
        rates = [r["chess_moves_per_s"] for r in results]
        print(f"{'python-chess':<15} {statistics.median(rates):>9,.0f} moves/s (median slice)")
    if not args.no_memory:
        ctx = multiprocessing.get_context("spawn")
        for r in results:
            with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
                r.update(pool.submit(memory_of, r["game"], args.seed).result())
            mean = f"{r['mean_plies']:.0f}" if r["mean_plies"] is not None else "n/a"
            print(
                f"{r['game']:<15} memory (own process): max RSS {r['max_rss_mib']:.1f} MiB "
                f"({r['rss_before_play_mib']:.1f} before play), "
                f"tracemalloc peak {r['tracemalloc_peak_mib']:.2f} MiB over a game, "
                f"{r['bytes_per_clone']:,.0f} bytes per clone; mean {mean} plies per game"
            )
    if args.json:
        payload = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "load_average": load,
            "slice": args.slice,
            "rounds": args.rounds,
            "seed": args.seed,
            "goal_ratio": GOAL,
            "games": results,
            "chess": {"version": chess.chess.__version__} if chess is not None else None,
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
