"""Throughput of the learning environments against the engine, interleaved in one process.

    PYTHONPATH=src python scripts/bench_rl.py --seconds 3 --rounds 2

The yardstick is the bare engine's random play on the same game and options (legal list,
a random choice, apply, dice rolled with a SeededSampler: no observation), in decisions/s.
Each env API is timed with random legal moves chosen from its mask, counting decisions (not
dice) and building the observation and mask of every decision:

- ``aec``: PettingZoo's ``last()`` then ``step`` (every decision, both seats);
- ``gym``: the learner's ``step`` against the random bot (the bot's decisions count too:
  they are the same engine work; the learner's own steps/s are about half);
- ``spiel``: OpenSpiel's ``apply_action`` with the observation filled in place
  (``make_observation(game).set_from(state, player)``, as OpenSpiel's Python algorithms
  read it) and ``legal_actions`` at each decision, chance outcomes sampled from
  ``chance_outcomes``. (``state.observation_tensor()`` also builds a fresh observer, whose
  set-up encodes an initial state, and converts the planes to a Python list: several times
  slower on a Python game);
- ``vector``: the batched vector env in this process (``--envs`` games, self-play) and with
  2 worker processes (``vector2``).

Each API runs with the full observation and with the compact one. Rounds alternate the
engine and the APIs, and each ratio is against the engine's rate of its own round.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from monsterball.bots.protocol import RandomBot
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE
from monsterball.games import get_game

CASES = [("paper-ultimate", "small"), ("paper-ultimate", None), ("huck-monster", None)]
CASES += [("midway", None)]


def engine_rate(game: str, preset: str | None, seconds: float) -> float:
    spec = get_game(game)
    options = spec.options(preset)
    decisions, seed = 0, 0
    start = time.perf_counter()
    end = start + seconds
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


def legal_of(mask: np.ndarray) -> np.ndarray:
    """The legal numbers of an int8 0/1 mask, read as bools: numpy's nonzero is several
    times faster on bool (on a 25,000-action mask: 16 us against 146 us), a learner's
    cost, not the env's."""
    return np.flatnonzero(mask.view(np.bool_))


def _timed(seconds: float, step: Callable[[], int]) -> float:
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += step()
    return decisions / (time.perf_counter() - start)


def aec_rate(game: str, preset: str | None, obs: str, seconds: float) -> float:
    import monsterball.rl as rl

    env = rl.env(game, preset, observation=obs)
    rng = np.random.default_rng(0)
    env.reset(seed=1)

    def step() -> int:
        observation, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            return 0
        legal = legal_of(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        return 1

    return _timed(seconds, step)


def gym_rate(game: str, preset: str | None, obs: str, seconds: float) -> float:
    import monsterball.rl as rl

    env = rl.gym_env(game, preset, opponent="random", observation=obs)
    rng = np.random.default_rng(0)
    observation, _ = env.reset(seed=1)
    box = [observation]

    def step() -> int:
        legal = legal_of(box[0]["action_mask"])
        core = env.core
        plies, dice = core.state.ply, core.dice_rolled
        box[0], _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
        # The learner's decision and the bot's replies: the plies less the dice.
        decisions = core.state.ply - plies - (core.dice_rolled - dice)
        if term or trunc:
            box[0], _ = env.reset()
        return decisions

    return _timed(seconds, step)


def spiel_rate(game: str, preset: str | None, obs: str, seconds: float) -> float:
    from open_spiel.python.observation import make_observation

    import monsterball.rl as rl

    g = rl.openspiel_game(game, preset, observation=obs)
    observer = make_observation(g)  # fills observer.tensor in place, as OpenSpiel's algorithms do
    rnd = random.Random(0)
    box = [g.new_initial_state()]

    def step() -> int:
        state = box[0]
        if state.is_terminal():
            box[0] = g.new_initial_state()
            return 0
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rnd.choices(outcomes, probs)[0])
            return 0
        observer.set_from(state, state.current_player())
        state.apply_action(rnd.choice(state.legal_actions()))
        return 1

    return _timed(seconds, step)


def vector_rate(game: str, preset: str | None, obs: str, seconds: float, workers: int) -> float:
    from monsterball.rl.vector import MonsterballVectorEnv, random_actions

    rng = np.random.default_rng(0)
    with MonsterballVectorEnv(
        game, preset, num_envs=ENVS, workers=workers, opponent="self", observation=obs
    ) as venv:
        observation, _ = venv.reset(seed=1)
        box = [observation["action_mask"]]

        def step() -> int:
            observation, *_ = venv.step(random_actions(box[0], rng))
            box[0] = observation["action_mask"]
            return ENVS

        return _timed(seconds, step)


ENVS = 16
APIS: dict[str, Callable[[str, str | None, str, float], float]] = {
    "aec": aec_rate,
    "gym": gym_rate,
    "spiel": spiel_rate,
    "vector": lambda g, p, o, s: vector_rate(g, p, o, s, 0),
    "vector2": lambda g, p, o, s: vector_rate(g, p, o, s, 2),
}


def main() -> None:
    global ENVS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--envs", type=int, default=ENVS)
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: all)")
    parser.add_argument("--apis", nargs="*", default=list(APIS))
    args = parser.parse_args()
    ENVS = args.envs
    cases = [c for c in CASES if args.games is None or c[0] in args.games]
    print("| game | API | observation | decisions/s | engine decisions/s | ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    for game, preset in cases:
        label = game + (f" ({preset})" if preset else "")
        rows: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(args.rounds):
            for api in args.apis:
                for obs in ("full", "compact"):
                    engine = engine_rate(game, preset, args.seconds)
                    rate = APIS[api](game, preset, obs, args.seconds)
                    rows.setdefault((api, obs), []).append((rate, engine))
        for (api, obs), runs in rows.items():
            rate = float(np.mean([r for r, _ in runs]))
            engine = float(np.mean([e for _, e in runs]))
            ratio = np.mean([r / e for r, e in runs])
            print(f"| {label} | {api} | {obs} | {rate:,.0f} | {engine:,.0f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
