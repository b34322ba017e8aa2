"""Draw every observation plane of one position (the picture in docs/rl.md).

    PYTHONPATH=src python scripts/rl_planes.py --game huck-monster --preset small --plies 260 \
        --out docs/img/rl-observation-huck-monster.png
"""

from __future__ import annotations

import argparse
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import monsterball.rl as rl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="huck-monster")
    parser.add_argument("--preset", default="small")
    parser.add_argument("--plies", type=int, default=400, help="random decisions played first")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    env = rl.env(args.game, args.preset)
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    for _ in range(args.plies):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    agent = env.agent_selection
    planes = env.observe(agent)["observation"]
    names = env.core.encoder.planes
    cols = 10
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(cols * 1.6, rows * 2.3))
    for ax, name, plane in zip(axes.flat, names, planes, strict=False):
        ax.imshow(plane[::-1], cmap="viridis", vmin=0, vmax=1, interpolation="nearest")
        ax.set_title(name, fontsize=7)
        ax.set_xticks([])
        ax.set_yticks([])
    for ax in list(axes.flat)[len(names) :]:
        ax.axis("off")
    step = env.state_now.view(env.seat_of[agent])["step"]
    fig.suptitle(
        f"{args.game} ({args.preset or 'default'}), seat {agent} to act: {step}; "
        f"{planes.shape} float32, row 0 at the bottom",
        fontsize=10,
    )
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(args.out, dpi=80)
    print(f"wrote {args.out}: {len(names)} planes of {planes.shape[1]} x {planes.shape[2]}")
    print(env.state_now.render(env.seat_of[agent]))


if __name__ == "__main__":
    main()
