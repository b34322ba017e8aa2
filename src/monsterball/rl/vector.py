"""N environments stepped in lock-step across worker processes, for collecting data.

Each environment is one game played by both seats (self-play data): a step takes one action
per environment, for whichever seat is to act there, and returns that environment's next
acting seat, its observation and mask. A finished (or truncated) game starts again at once
with the next seed; its final rewards come back in that step. Workers are plain
``multiprocessing`` processes (spawn) talking over pipes; seeds are ``seed + index``
for the first games, then drawn from a per-environment generator, so the same seed gives the
same data whatever the number of workers.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from monsterball.rl.aec import Core


class _Slot:
    def __init__(self, core: Core, seed: int, max_steps: int | None):
        self.core = core
        self.rng = np.random.default_rng(seed)
        self.max_steps = max_steps
        self.steps = 0

    def restart(self) -> None:
        self.core.new_game(int(self.rng.integers(0, 2**62)))
        self.steps = 0

    def view(self) -> tuple[np.ndarray, np.ndarray, int]:
        seat = self.core.state.current_player()
        obs = self.core.observe(seat)
        return obs["observation"], obs["action_mask"], seat

    def step(self, action: int) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, bool]:
        seat = self.core.state.current_player()
        self.core.play(action, seat)
        self.steps += 1
        state = self.core.state
        rewards = np.zeros(2, np.float32)
        done = state.is_terminal()
        if done:
            rewards[:] = state.returns()
        if done or (self.max_steps is not None and self.steps >= self.max_steps):
            self.restart()
            done = True
        return (*self.view(), rewards, done)


def _worker(
    conn: Connection,
    game: str,
    preset: str | None,
    options: dict[str, Any],
    seeds: list[int],
    max_steps: int | None,
) -> None:
    slots = [_Slot(Core(game, preset, options), s, max_steps) for s in seeds]
    try:
        while True:
            command, data = conn.recv()
            if command == "reset":
                for slot in slots:
                    slot.restart()
                conn.send([slot.view() for slot in slots])
            elif command == "step":
                conn.send([slot.step(int(a)) for slot, a in zip(slots, data, strict=True)])
            else:
                break
    except (EOFError, KeyboardInterrupt):
        pass
    finally:
        conn.close()


class VectorEnv:
    """``num_envs`` games of ``game`` spread over ``num_workers`` processes (0: in this one).

    ``reset()`` -> (observations (N, C, H, W), masks (N, A), seats (N,));
    ``step(actions)`` -> the same plus rewards (N, 2) and dones (N,).
    """

    def __init__(
        self,
        game: str,
        preset: str | None = None,
        *,
        num_envs: int = 8,
        num_workers: int = 2,
        seed: int = 0,
        max_steps: int | None = None,
        **options: Any,
    ):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1 (got {num_envs})")
        if not 0 <= num_workers <= num_envs:
            raise ValueError(f"num_workers must be 0..{num_envs} (got {num_workers})")
        self.num_envs = num_envs
        seeds = [seed + i for i in range(num_envs)]
        self._local: list[_Slot] = []
        self._pipes: list[Connection] = []
        self._procs: list[Any] = []
        self._counts: list[int] = []
        if num_workers == 0:
            self._local = [_Slot(Core(game, preset, options), s, max_steps) for s in seeds]
            return
        ctx = mp.get_context("spawn")
        for part in np.array_split(np.arange(num_envs), num_workers):
            parent, child = ctx.Pipe()
            proc = ctx.Process(
                target=_worker,
                args=(child, game, preset, options, [seeds[i] for i in part], max_steps),
                daemon=True,
            )
            proc.start()
            child.close()
            self._pipes.append(parent)
            self._procs.append(proc)
            self._counts.append(len(part))

    def _gather(self, results: list[Any]) -> tuple[np.ndarray, ...]:
        columns = list(zip(*results, strict=True))
        return tuple(np.stack([np.asarray(x) for x in col]) for col in columns)

    def reset(self) -> tuple[np.ndarray, ...]:
        if self._local:
            for slot in self._local:
                slot.restart()
            return self._gather([slot.view() for slot in self._local])
        for pipe in self._pipes:
            pipe.send(("reset", None))
        return self._gather([r for pipe in self._pipes for r in pipe.recv()])

    def step(self, actions: Any) -> tuple[np.ndarray, ...]:
        actions = np.asarray(actions).reshape(-1)
        if len(actions) != self.num_envs:
            raise ValueError(f"step needs {self.num_envs} actions, got {len(actions)}")
        if self._local:
            return self._gather([s.step(int(a)) for s, a in zip(self._local, actions, strict=True)])
        start = 0
        for pipe, count in zip(self._pipes, self._counts, strict=True):
            pipe.send(("step", actions[start : start + count].tolist()))
            start += count
        return self._gather([r for pipe in self._pipes for r in pipe.recv()])

    def close(self) -> None:
        for pipe in self._pipes:
            with contextlib.suppress(BrokenPipeError, OSError):
                pipe.send(("close", None))
        for proc in self._procs:
            proc.join(timeout=5)
        self._pipes, self._procs = [], []

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``."""
    noise = rng.random(masks.shape) * masks
    chosen: np.ndarray = noise.argmax(axis=1)
    return chosen
