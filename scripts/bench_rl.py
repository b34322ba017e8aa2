"""Throughput of the learning environments: env steps/s of the vectorised runner per game.

    PYTHONPATH=src python scripts/bench_rl.py --seconds 5 --rounds 2

An env step is one decision: decode the action, apply it, roll the dice that follow, encode
the next acting seat's observation and mask. Measured with random masked actions chosen in
the main process, for the runner in one process and across 2 worker processes, interleaved
with a yardstick in the same process: the bare engine's random play (legal list + apply,
no observation) on the same game, in decisions/s. The ratio env/engine is the cost of the
observations and the runner.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from monsterball.bots import RandomBot
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE
from monsterball.games import get_game
from monsterball.rl.vector import VectorEnv, random_actions

CASES = [("paper-ultimate", None), ("huck-monster", None), ("midway", None)]


def engine_rate(game: str, preset: str | None, seconds: float) -> float:
    spec = get_game(game)
    options = spec.options(preset)
    decisions, seed = 0, 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        state, dice, bot = spec.new_game(options), SeededSampler(seed), RandomBot(seed)
        seed += 1
        while not state.is_terminal() and time.perf_counter() < end:
            actor = state.current_player()
            if actor == CHANCE:
                state.apply_unchecked(dice.choose(state.chance_outcomes()))
            else:
                state.apply_unchecked(bot.choose(state, actor))
                decisions += 1
    return decisions / (time.perf_counter() - start)


def env_rate(game: str, preset: str | None, workers: int, envs: int, seconds: float) -> float:
    rng = np.random.default_rng(0)
    with VectorEnv(game, preset, num_envs=envs, num_workers=workers, seed=1) as venv:
        _, masks, _ = venv.reset()
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, masks, *_ = venv.step(random_actions(masks, rng))
            steps += envs
        return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--envs", type=int, default=8)
    args = parser.parse_args()
    print(
        "| game | engine decisions/s | env steps/s, 1 process | ratio | env steps/s, 2 workers "
        "| ratio |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for game, preset in CASES:
        rows = []
        for _ in range(args.rounds):
            engine = engine_rate(game, preset, args.seconds)
            one = env_rate(game, preset, 0, args.envs, args.seconds)
            two = env_rate(game, preset, 2, args.envs, args.seconds)
            rows.append((engine, one, two))
        for engine, one, two in rows:
            print(
                f"| {game} | {engine:,.0f} | {one:,.0f} | {one / engine:.2f} | {two:,.0f} "
                f"| {two / engine:.2f} |"
            )


if __name__ == "__main__":
    main()
