"""Train a policy for Paper Ultimate (``small`` preset) from scratch against the random bot.

    PYTHONPATH=src nice python examples/train_paper_ultimate.py --minutes 18 --eval-games 200

Status: meets the goal. The run above (16 minutes of training under ``nice`` on the shared
2-core machine) won 179 of 200 evaluation games against the random bot (89.5%, 95% Wilson
interval 84.5%-93.0%); docs/rl.md, "Training example", has the curve and the details.

A compact numpy actor-critic (REINFORCE with a learned linear value baseline and an entropy
bonus), no deep learning library, on the Gymnasium environment ``monsterball.rl.gym_env``.
The policy is a softmax over the legal actions of a linear score of per-action features:
the action's kind (run, end, pass, monster, ...) and its geometry relative to the direction
the learner's team attacks (how far a run goes forward, how much closer it gets to the disc,
how far forward a pass goes, whether it lands in the end zone). These features are what make
"throw forward, run forward, call the monster defense" learnable with a few dozen weights;
the earlier linear policy over action numbers collapsed to a deterministic loop and won 0 of
200. All weights start at zero (uniformly random play). The learner alternates seats A/B.

Reward: the game's +1 / -1 at the end, plus potential-based shaping (which leaves the best
policy unchanged): the potential is the learner's score lead and the disc's progress toward
the end zone its holder attacks. Training and evaluation games are cut at ``--max-steps``
learner decisions (a cut evaluation game counts as not won). Episodes are collected by
``--workers`` processes (both cores).

Writes the learning curve (win rate against the random bot, evaluated along the way) to
``--curve`` (PNG) and the weights to ``--out`` (npz). ``--smoke`` runs a few hundred steps.
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np

import monsterball.rl as rl
from monsterball.games.paper_ultimate.actions import (
    CallMonster,
    DeclareTurn,
    DeclineMonster,
    EndRun,
    GiveDisc,
    PassTo,
    Place,
    PullTo,
    RunTo,
    TakeDisc,
)
from monsterball.games.paper_ultimate.state import NOBODY

GAME, PRESET = "paper-ultimate", "small"
KINDS = (Place, GiveDisc, PullTo, RunTo, EndRun, PassTo, DeclareTurn, CallMonster)
KINDS += (DeclineMonster, TakeDisc)
GEOMETRY = ("end_on_defense", "run_forward_offense", "run_forward_defense")
GEOMETRY += ("run_to_disc_offense", "run_to_disc_defense", "pass_gain", "pass_to_end_zone")
GEOMETRY += ("take_progress",)
NAMES = tuple(k.__name__ for k in KINDS) + GEOMETRY
COLUMN = {n: i for i, n in enumerate(NAMES)}


def _progress_fn(state, seat: int):
    field = state.field
    last = state.options.length - 1
    north = (state.attacking_end_zone(seat) >> field.cell(0, last)) & 1

    def progress(cell: int) -> float:
        """0 at the learner's own end, 1 at the end it attacks."""
        row = field.coords(cell)[1]
        return row / last if north else (last - row) / last

    return progress, last


def action_features(state, seat: int, actions) -> np.ndarray:
    """One row per action: its kind (one-hot) and its geometry for ``seat``'s direction."""
    out = np.zeros((len(actions), len(NAMES)), np.float32)
    field = state.field
    progress, last = _progress_fn(state, seat)
    offense = state.offense == seat
    disc, holder = state.disc, state.holder
    zone = state.attacking_end_zone(seat)
    for i, action in enumerate(actions):
        kind = type(action)
        out[i, KINDS.index(kind)] = 1.0
        if kind is RunTo:
            old, new = state.pos[action.player], field.parse_cell(action.cell)
            side = "offense" if offense else "defense"
            out[i, COLUMN["run_forward_" + side]] = (progress(new) - progress(old)) * last / 4
            if disc >= 0:
                closer = field.distance(old, disc) - field.distance(new, disc)
                out[i, COLUMN["run_to_disc_" + side]] = closer / 4
        elif kind is EndRun and not offense:
            out[i, COLUMN["end_on_defense"]] = 1.0
        elif kind is PassTo and holder != NOBODY:
            cell = state.pos[action.player]
            gain = progress(cell) - progress(state.pos[holder])
            out[i, COLUMN["pass_gain"]] = gain * last / 4
            out[i, COLUMN["pass_to_end_zone"]] = float(zone >> cell & 1)
        elif kind is TakeDisc:
            out[i, COLUMN["take_progress"]] = progress(state.pos[action.player])
    return out


def state_features(state, seat: int) -> np.ndarray:
    """For the value baseline and the shaping potential: bias, score lead, possession, and
    the disc's progress toward the end zone its team attacks (signed by possession)."""
    progress, _ = _progress_fn(state, seat)
    lead = (state.score[seat] - state.score[1 - seat]) / state.options.points_to_win
    mine = 1.0 if state.offense == seat else -1.0
    disc = 0.0
    if state.disc >= 0:
        p = progress(state.disc)
        disc = p if mine > 0 else -(1 - p)
    return np.array([1.0, lead, mine, disc], np.float32)


def potential(x: np.ndarray) -> float:
    return 0.5 * float(x[1]) + 0.2 * float(x[3])


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max()
    p = np.exp(z)
    return p / p.sum()


_ENVS: dict[int, object] = {}


def _env(seat: int, max_steps: int):
    key = seat * 10**7 + max_steps
    if key not in _ENVS:
        _ENVS[key] = rl.gym_env(GAME, PRESET, opponent="random", seat=seat, max_steps=max_steps)
    return _ENVS[key]


def play(task) -> tuple:
    """One game (in a worker). Learning: returns the policy and value gradients of the episode.
    Evaluation (``learn`` false): the policy samples from its softmax; returns the reward."""
    theta, v, seed, learn, max_steps, gamma, shaping, entropy, scale = task
    env = _env(seed % 2, max_steps)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    table, seat = env.core.table, env.seat
    rows, done, reward = [], False, 0.0
    while not done:
        state = env.core.state
        actions = state.legal_actions()
        phi = action_features(state, seat, actions)
        p = softmax(scale * (phi @ theta))
        k = int(rng.choice(len(actions), p=p))
        x = state_features(state, seat) if learn else None
        _, reward, terminated, truncated, _ = env.step(table.encode(actions[k]))
        done = terminated or truncated
        if learn:
            x2 = state_features(env.core.state, seat)
            r = reward + shaping * ((0.0 if done else gamma * potential(x2)) - potential(x))
            rows.append((phi, p, k, x, r))
    if not learn:
        return (reward,)
    # Monte Carlo returns, advantage against the value baseline.
    g, returns = 0.0, np.zeros(len(rows))
    for t in range(len(rows) - 1, -1, -1):
        g = rows[t][4] + gamma * g
        returns[t] = g
    xs = np.stack([row[3] for row in rows])
    adv = returns - xs @ v
    grad_v = ((returns - xs @ v)[:, None] * xs).mean(0)
    grad = np.zeros_like(theta)
    for (phi, p, k, _, _), a in zip(rows, adv, strict=True):
        mean = p @ phi
        grad += a * (phi[k] - mean)
        logp = np.log(p + 1e-12)
        ent = -(p @ logp)
        grad -= entropy * (p * (logp + ent)) @ phi
    return reward, len(rows), grad / len(rows), grad_v


class Adam:
    """Gradient ascent with Adam's per-weight step sizes: the episode gradients are small and
    of very different scales per feature, so plain SGD barely moves the weights."""

    def __init__(self, shape: tuple[int, ...], lr: float):
        self.lr, self.t = lr, 0
        self.m, self.s = np.zeros(shape), np.zeros(shape)

    def step(self, grad: np.ndarray) -> np.ndarray:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.s = 0.999 * self.s + 0.001 * grad * grad
        m, s = self.m / (1 - 0.9**self.t), self.s / (1 - 0.999**self.t)
        return self.lr * m / (np.sqrt(s) + 1e-8)


def wilson(wins: int, games: int) -> tuple[float, float, float]:
    rate, z = wins / games, 1.96
    denom = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denom
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denom
    return rate, max(0.0, centre - half), min(1.0, centre + half)


def evaluate(pool, theta, games: int, seed: int, max_steps: int) -> tuple[float, float, float]:
    """Win rate against the random bot over ``games`` (seats alternate) and its 95% Wilson
    interval; the policy samples from its softmax (cut games count as not won)."""
    tasks = [(theta, None, seed + i, False, max_steps, 1.0, 0.0, 0.0, 1.0) for i in range(games)]
    wins = sum(r[0] > 0 for r in pool.map(play, tasks))
    return wilson(wins, games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=18.0, help="training time budget")
    parser.add_argument("--max-updates", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=4, help="episodes per update")
    parser.add_argument("--eval-every", type=int, default=25, help="updates between curve points")
    parser.add_argument("--eval-games", type=int, default=200, help="final evaluation games")
    parser.add_argument("--curve-games", type=int, default=20, help="games per curve point")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--value-lr", type=float, default=0.02)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--shaping", type=float, default=1.0)
    parser.add_argument("--max-steps", type=int, default=1500, help="learner decisions per game")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--curve", default="paper_ultimate_curve.png")
    parser.add_argument("--out", default="paper_ultimate_policy.npz")
    parser.add_argument("--smoke", action="store_true", help="a few hundred steps, for CI")
    args = parser.parse_args()
    if args.smoke:
        args.minutes, args.max_updates, args.eval_every, args.batch = 1.0, 2, 1, 2
        args.eval_games, args.curve_games, args.max_steps = 2, 2, 100

    theta = np.zeros(len(NAMES))
    v = np.zeros(4)
    actor, critic = Adam(theta.shape, args.lr), Adam(v.shape, args.value_lr)
    start = time.perf_counter()
    curve: list[tuple[int, float, float, float, float]] = []
    episodes = steps = updates = 0
    with get_context("spawn").Pool(args.workers) as pool:
        rate, lo, hi = evaluate(pool, theta, args.curve_games, 10**6, args.max_steps)
        curve.append((0, 0.0, rate, lo, hi))
        print(f"episode 0: win rate {rate:.2f} ({lo:.2f}-{hi:.2f}) against random", flush=True)
        while updates < args.max_updates and time.perf_counter() - start < args.minutes * 60:
            tasks = [
                (theta, v, args.seed + episodes + i, True, args.max_steps, args.gamma,
                 args.shaping, args.entropy, 1.0)
                for i in range(args.batch)
            ]  # fmt: skip
            results = pool.map(play, tasks)
            episodes += len(results)
            steps += sum(r[1] for r in results)
            theta = theta + actor.step(np.mean([r[2] for r in results], axis=0))
            v = v + critic.step(np.mean([r[3] for r in results], axis=0))
            updates += 1
            if updates % args.eval_every == 0:
                rate, lo, hi = evaluate(
                    pool, theta, args.curve_games, 10**6 + episodes, args.max_steps
                )
                minutes = (time.perf_counter() - start) / 60
                curve.append((episodes, minutes, rate, lo, hi))
                print(
                    f"episode {episodes} ({steps} steps, {minutes:.1f} min): "
                    f"win rate {rate:.2f} ({lo:.2f}-{hi:.2f})",
                    flush=True,
                )
                plot(curve, None, args.curve)  # kept up to date: a stopped run leaves its curve
                np.savez_compressed(args.out, w=theta, v=v, names=np.array(NAMES))
        minutes = (time.perf_counter() - start) / 60
        rate, lo, hi = evaluate(pool, theta, args.eval_games, 2 * 10**6, args.max_steps)
    print(
        f"final: {episodes} episodes, {steps} steps, {minutes:.1f} min training; "
        f"won {rate:.1%} (95% interval {lo:.1%}-{hi:.1%}) of {args.eval_games} games "
        "against the random bot"
    )
    print("weights:", ", ".join(f"{n} {w:+.2f}" for n, w in zip(NAMES, theta, strict=True)))
    np.savez_compressed(args.out, w=theta, v=v, names=np.array(NAMES))
    plot(curve, (episodes, minutes, rate, lo, hi), args.curve)


def plot(curve, final, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    x = [c[1] for c in curve]
    y = [c[2] for c in curve]
    err = [[c[2] - c[3] for c in curve], [c[4] - c[2] for c in curve]]
    ax.errorbar(x, y, yerr=err, marker="o", ms=3, capsize=2, label="policy, --curve-games games")
    if final is not None:
        ax.errorbar(
            [final[1]],
            [final[2]],
            yerr=[[final[2] - final[3]], [final[4] - final[2]]],
            marker="s",
            color="C3",
            capsize=3,
            label="final, --eval-games games",
        )
    ax.axhline(0.8, color="grey", ls="--", lw=1, label="goal: 80%")
    ax.set_xlabel("training time (minutes)")
    ax.set_ylabel("win rate vs random bot")
    ax.set_ylim(0, 1.02)
    ax.set_title("Paper Ultimate (small): numpy actor-critic, per-action features")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    Path(path).stat()


if __name__ == "__main__":
    main()
