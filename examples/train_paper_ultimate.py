"""Train a policy for Paper Ultimate (``small`` preset) from scratch against the random bot.

    PYTHONPATH=src nice python examples/train_paper_ultimate.py --minutes 20 --eval-games 200

Status: this learner does NOT reach the goal (beat the random bot in 80% of 200 games): the
documented 20-minute run won 0 of 200 (docs/rl.md, "Training example"). It is kept as a
working, tested baseline of the environment's use, not as a solution.

A compact numpy policy-gradient learner (REINFORCE with a running baseline), no deep
learning library: a linear softmax policy over the game's action numbers, restricted to
the legal ones by the mask, on the Gymnasium environment ``monsterball.rl.gym_env``. The
learner alternates seats A and B. Features: the observation's board planes (pieces, each
player's own plane, disc, zones) flattened, plus each broadcast scalar plane once; the board
part is written into one of two halves by the direction the seat attacks (teams switch ends
after each point), so a linear policy can learn "forward" for both.

Reward: the game's +1 / -1 at the end, plus shaping from the observation only: +-0.5 for each
point scored, and a potential-based term for the disc's progress toward the end zone the
holder attacks (a turnover costs what the progress was worth). Potential-based shaping
leaves the best policy unchanged; it only gives the learner a signal before the first goal.

Writes the learning curve (win rate against the random bot, evaluated along the way) to
``--curve`` (PNG) and the weights to ``--out`` (npz). ``--smoke`` runs a few hundred steps.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np

import monsterball.rl as rl
from monsterball.rl.encode import SPATIAL

GAME, PRESET = "paper-ultimate", "small"


class Features:
    """Board planes flattened (into the half for the direction the seat attacks), and each
    scalar plane (constant over the field) once."""

    def __init__(self, planes: tuple[str, ...]):
        self.board = [i for i, p in enumerate(planes) if p in SPATIAL or "_player:" in p]
        self.scalar = [i for i, p in enumerate(planes) if i not in set(self.board)]
        self.index = {p: i for i, p in enumerate(planes)}

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        board = obs[self.board].reshape(-1)
        zero = np.zeros_like(board)
        north = obs[self.index["attacks_north"], 0, 0] > 0.5
        halves = [board, zero] if north else [zero, board]
        return np.concatenate([*halves, obs[self.scalar, 0, 0], [1.0]])

    def potential(self, obs: np.ndarray) -> float:
        """The disc's progress toward the end zone its holder attacks, signed for the
        learner: + when its team has the disc, - when the other team has it."""
        ball = obs[self.index["ball"]]
        if not ball.any():
            return 0.0
        row = int(np.argwhere(ball)[0][0])
        rows = ball.shape[0]
        north = obs[self.index["attacks_north"], 0, 0] > 0.5
        mine = obs[self.index["offense_me"], 0, 0] > 0.5
        progress = row / (rows - 1) if north else 1 - row / (rows - 1)
        return progress if mine else -(1 - progress)

    def score(self, obs: np.ndarray) -> tuple[float, float]:
        return (float(obs[self.index["score_me"], 0, 0]), float(obs[self.index["score_opp"], 0, 0]))


class Policy:
    def __init__(self, num_actions: int, num_features: int, seed: int):
        self.w = np.zeros((num_actions, num_features), np.float32)
        self.rng = np.random.default_rng(seed)

    def probs(self, x: tuple[np.ndarray, np.ndarray], legal: np.ndarray) -> np.ndarray:
        # x is sparse (indices, values): ~60 of ~6,000 features are non-zero.
        logits = self.w[np.ix_(legal, x[0])] @ x[1]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(
        self, x: tuple[np.ndarray, np.ndarray], mask: np.ndarray, greedy: bool = False
    ) -> tuple[int, np.ndarray, np.ndarray]:
        legal = np.flatnonzero(mask)
        p = self.probs(x, legal)
        k = int(p.argmax()) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[k]), legal, p


def play_episode(
    env,
    feats: Features,
    policy: Policy,
    seed: int,
    greedy: bool,
    learn: bool,
    gamma: float,
    shaping: float,
):
    """One game; returns (reward, decisions, trajectory for the update)."""
    obs, _ = env.reset(seed=seed)
    trajectory = []
    reward, steps, done = 0.0, 0, False
    while not done:
        planes = obs["observation"]
        dense = feats(planes).astype(np.float32)
        nz = np.flatnonzero(dense)
        x = (nz, dense[nz])
        action, legal, p = policy.act(x, obs["action_mask"], greedy)
        before_phi, before_score = feats.potential(planes), feats.score(planes)
        obs, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        steps += 1
        if learn:
            after = obs["observation"]
            phi = 0.0 if done else feats.potential(after)
            mine, theirs = feats.score(after)
            scored = (mine - before_score[0]) - (theirs - before_score[1])
            r = reward + shaping * (gamma * phi - before_phi) + 0.5 * np.sign(scored)
            trajectory.append((x, legal, p, int(np.searchsorted(legal, action)), r))
    return reward, steps, trajectory


def update(policy: Policy, trajectory, gamma: float, lr: float, baseline: float) -> float:
    g = 0.0
    returns = np.zeros(len(trajectory))
    for t in range(len(trajectory) - 1, -1, -1):
        g = trajectory[t][4] + gamma * g
        returns[t] = g
    advantages = returns - baseline
    scale = advantages.std() + 1e-6
    for (x, legal, p, k, _), adv in zip(trajectory, advantages, strict=True):
        grad = -p
        grad[k] += 1.0
        policy.w[np.ix_(legal, x[0])] += (lr * adv / scale) * np.outer(grad, x[1])
    return float(returns.mean())


def evaluate(
    envs, feats: Features, policy: Policy, games: int, seed: int
) -> tuple[float, float, float]:
    """Win rate against the random bot over ``games`` (seats alternate) and its 95% Wilson
    interval (low, high)."""
    wins = 0
    for i in range(games):
        reward, _, _ = play_episode(envs[i % 2], feats, policy, seed + i, True, False, 1.0, 0.0)
        wins += reward > 0
    rate = wins / games
    z = 1.96
    denom = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denom
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denom
    return rate, max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0, help="training time budget")
    parser.add_argument("--max-episodes", type=int, default=100_000)
    parser.add_argument("--eval-every", type=int, default=100, help="episodes between evaluations")
    parser.add_argument("--eval-games", type=int, default=200, help="final evaluation games")
    parser.add_argument("--curve-games", type=int, default=20, help="games per curve point")
    parser.add_argument("--lr", type=float, default=0.001)
    parser.add_argument("--gamma", type=float, default=0.98)
    parser.add_argument("--shaping", type=float, default=1.0)
    parser.add_argument("--max-steps", type=int, default=200, help="learner decisions per game")
    parser.add_argument(
        "--eval-max-steps",
        type=int,
        default=300,
        help="learner decisions before an evaluation game counts as not won",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--curve", default="paper_ultimate_curve.png")
    parser.add_argument("--out", default="paper_ultimate_policy.npz")
    parser.add_argument("--smoke", action="store_true", help="a few hundred steps, for CI")
    args = parser.parse_args()
    if args.smoke:
        args.minutes, args.max_episodes, args.eval_every = 1.0, 3, 2
        args.eval_games, args.curve_games, args.max_steps = 2, 2, 100
        args.eval_max_steps = 100

    train = [
        rl.gym_env(GAME, PRESET, opponent="random", seat=s, max_steps=args.max_steps)
        for s in (0, 1)
    ]
    test = [
        rl.gym_env(GAME, PRESET, opponent="random", seat=s, max_steps=args.eval_max_steps)
        for s in (0, 1)
    ]
    feats = Features(train[0].core.encoder.planes)
    obs, _ = train[0].reset(seed=args.seed)
    policy = Policy(train[0].core.num_actions, len(feats(obs["observation"])), args.seed)

    start = time.perf_counter()
    curve: list[tuple[int, float, float, float]] = []  # episode, minutes, win rate, +-
    baseline, steps, episode = 0.0, 0, 0
    rate, lo, hi = evaluate(test, feats, policy, args.curve_games, 10**6)
    curve.append((0, 0.0, rate, lo, hi))
    print(f"episode 0: win rate {rate:.2f} ({lo:.2f}-{hi:.2f}) against random", flush=True)
    while episode < args.max_episodes and time.perf_counter() - start < args.minutes * 60:
        _, n, trajectory = play_episode(
            train[episode % 2],
            feats,
            policy,
            args.seed + episode,
            False,
            True,
            args.gamma,
            args.shaping,
        )
        steps += n
        episode += 1
        mean = update(policy, trajectory, args.gamma, args.lr, baseline)
        baseline = 0.9 * baseline + 0.1 * mean
        if episode % args.eval_every == 0:
            rate, lo, hi = evaluate(test, feats, policy, args.curve_games, 10**6 + episode)
            minutes = (time.perf_counter() - start) / 60
            curve.append((episode, minutes, rate, lo, hi))
            print(
                f"episode {episode} ({steps} steps, {minutes:.1f} min): "
                f"win rate {rate:.2f} ({lo:.2f}-{hi:.2f})",
                flush=True,
            )
            plot(curve, None, args.curve)  # kept up to date, so a stopped run leaves its curve
            np.savez_compressed(args.out, w=policy.w)
    minutes = (time.perf_counter() - start) / 60
    rate, lo, hi = evaluate(test, feats, policy, args.eval_games, 2 * 10**6)
    print(
        f"final: {episode} episodes, {steps} steps, {minutes:.1f} min training; "
        f"won {rate:.1%} (95% interval {lo:.1%}-{hi:.1%}) of {args.eval_games} games "
        "against the random bot"
    )
    np.savez_compressed(args.out, w=policy.w)
    plot(curve, (episode, minutes, rate, lo, hi), args.curve)


def plot(curve, final, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    x = [c[1] for c in curve]
    y = [c[2] for c in curve]
    err = [[c[2] - c[3] for c in curve], [c[4] - c[2] for c in curve]]
    ax.errorbar(
        x, y, yerr=err, marker="o", ms=3, capsize=2, label="greedy policy, --curve-games games"
    )
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
    ax.set_title("Paper Ultimate (small): numpy policy gradient")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    Path(path).stat()


if __name__ == "__main__":
    main()
