"""Train sb3-contrib's MaskablePPO on a game's Gymnasium env, then evaluate it.

    pip install torch==2.13.0 sb3-contrib   # torch first: the CPU build (docs/rl.md)
    PYTHONPATH=src nice -n 5 python examples/maskable_ppo.py --game paper-ultimate \\
        --preset small --opponent random --minutes 28 --eval-games 200 --eval-envs 32

Result (docs/rl.md, "Baselines"): with ``--minutes 22`` on a quiet core, 200 of 200 won (95%
Wilson 98.1% - 100.0%) in 22 minutes. On a loaded machine, 28 minutes then 12 more with
``--resume`` (315,392 steps, one core, 5.9 CPU minutes) won 182 of 200 evaluation games against the
random bot on Paper Ultimate ``small`` (95% Wilson 86.2% - 94.2%). Prints the training's wall
and CPU time (this process and its children) and the evaluation's.

The learner sees the observation planes (``observation="compact"``: the board planes the
game uses as uint8 and the scalars; no hand-made features) and the action mask; the policy
is sb3's ``MultiInputPolicy`` (an MLP over the flattened planes: SB3's ``CnnPolicy`` wants
images of 36 x 36 or more, and the fields are 14 x 7 to 24 x 14). No wrapper of our own:
the env has ``action_masks()``. The learner plays seat A and B in turn
(``seat="alternate"``), against ``--opponent`` (``random`` or ``heuristic``). Reward: the
game's +1 / -1 at the end, plus ``--reward-points`` per point of lead won or lost (dense
help for games of a thousand decisions).

Evaluation: ``--eval-games`` games, seats alternating, the policy sampling from its masked
distribution; a game cut at the env's default (truncated) counts as not won. Prints wins,
losses, unfinished games and the 95% Wilson interval of the win rate.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from typing import Any

import numpy as np


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (user + system)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def make_env(args: argparse.Namespace, seed: int, max_steps: Any = "default") -> Any:
    import monsterball.rl as rl

    env = rl.gym_env(
        args.game,
        args.preset,
        opponent=args.opponent,
        seat="alternate",
        observation="compact",
        reward_points=args.reward_points,
        max_steps=max_steps,
    )
    env.reset(seed=seed)
    return env


def evaluate(model: Any, args: argparse.Namespace, games: int, max_steps: Any) -> dict[str, int]:
    """``games`` games against the opponent, ``--eval-envs`` at a time in the vector env (one
    batched policy call per step), each game's seats alternating; a cut game is unfinished."""
    from monsterball.rl.vector import MonsterballVectorEnv

    width = min(args.eval_envs, games)
    out = {"won": 0, "lost": 0, "unfinished": 0}
    with MonsterballVectorEnv(
        args.game,
        args.preset,
        num_envs=width,
        opponent=args.opponent,
        seat="alternate",
        observation="compact",
        max_steps=max_steps,
    ) as venv:
        obs, _ = venv.reset(seed=10_000)
        started = width  # games begun; a slot whose game ends starts one more if needed
        live = np.ones(width, bool)
        while live.any():
            actions, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=False)
            obs, _, terminated, truncated, info = venv.step(actions)
            for i in np.flatnonzero(live & (terminated | truncated)):
                result = info["result"][i]
                if terminated[i] and result > 0:
                    out["won"] += 1
                elif terminated[i] and result < 0:
                    out["lost"] += 1
                else:
                    out["unfinished"] += 1
                done = out["won"] + out["lost"] + out["unfinished"]
                if args.progress and done % args.progress == 0:
                    print(f"  evaluated {done}: {out}", flush=True)
                if started < games:
                    started += 1  # the slot's next game (next-step autoreset)
                else:
                    live[i] = False
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="paper-ultimate")
    parser.add_argument("--preset", default="small")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--minutes", type=float, default=25.0)
    parser.add_argument("--envs", type=int, default=32, help="games stepped per policy call")
    parser.add_argument("--n-steps", type=int, default=128, help="steps per game per rollout")
    parser.add_argument("--net", default="256,256", help="the MLP's hidden layer widths")
    parser.add_argument("--reward-points", type=float, default=0.1)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="save the model here (.zip)")
    parser.add_argument("--load", default=None, help="evaluate this saved model (no training)")
    parser.add_argument("--resume", default=None, help="go on training this saved model")
    parser.add_argument("--eval-envs", type=int, default=16, help="evaluation games at once")
    parser.add_argument("--smoke", action="store_true", help="a few hundred steps (CI)")
    parser.add_argument("--progress", type=int, default=0, help="print the tally every N games")
    args = parser.parse_args()
    preset = None if args.preset in ("", "default", "none") else args.preset
    args.preset = preset

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)  # the envs step in this process between updates
    venv = DummyVecEnv(
        [lambda i=i: make_env(args, args.seed * 1000 + i) for i in range(args.envs)]  # type: ignore[misc]
    )
    n_steps = 16 if args.smoke else args.n_steps
    model = MaskablePPO(
        "MultiInputPolicy",
        venv,
        n_steps=n_steps,
        batch_size=min(512, n_steps * args.envs),
        n_epochs=4,
        gamma=0.995,
        gae_lambda=0.95,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [int(w) for w in args.net.split(",")]},
        seed=args.seed,
        verbose=0,
    )
    if args.resume is not None:
        model = MaskablePPO.load(args.resume, env=venv)
    start, cpu = time.perf_counter(), cpu_seconds()
    budget = 0.0 if args.smoke else args.minutes * 60
    chunk = n_steps * args.envs
    while args.load is None:
        model.learn(total_timesteps=chunk, reset_num_timesteps=False)
        if time.perf_counter() - start >= budget:
            break
    if args.load is not None:
        model = MaskablePPO.load(args.load, env=venv)
    trained = time.perf_counter() - start
    print(
        f"trained {model.num_timesteps} steps; this run {trained / 60:.1f} min, "
        f"{(cpu_seconds() - cpu) / 60:.1f} CPU min",
        flush=True,
    )
    if args.out and args.load is None:
        model.save(args.out)
    games = 2 if args.smoke else args.eval_games
    eval_start, eval_cpu = time.perf_counter(), cpu_seconds()
    result = evaluate(model, args, games, 40 if args.smoke else "default")
    lo, hi = wilson(result["won"], games)
    print(
        f"{args.game} ({args.preset or 'default'}) against {args.opponent}: "
        f"won {result['won']}, lost {result['lost']}, unfinished {result['unfinished']} "
        f"of {games} ({result['won'] / games:.1%}, 95% Wilson {lo:.1%} - {hi:.1%}); "
        f"evaluation {time.perf_counter() - eval_start:.0f} s, {cpu_seconds() - eval_cpu:.0f} CPU s"
    )


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
