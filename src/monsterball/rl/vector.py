"""Many games stepped per call: a ``gymnasium.vector.VectorEnv``, in this process or
spread over worker processes that write their observations into shared memory.

Each of the ``num_envs`` games is a :class:`monsterball.rl.single.MonsterballGym` (the
learner's seat against ``opponent``, or ``opponent="self"`` for self-play), so a game of
the vector env is the single env's game for the same seed, move for move (tested):
``reset(seed=s)`` seeds game ``i`` with ``s + i``, and each game draws its next games' seeds
from its own generator, whatever the number of workers.

Gymnasium 1.x's next-step autoreset (``metadata["autoreset_mode"]``): the step that ends a
game returns that game's final observation with ``terminated`` (the game ended: reward
+1 / -1 / 0) or ``truncated`` (the cut, ``max_steps``: reward 0, the game unfinished); the
next step of that game ignores its action, starts a new game and returns its first
observation with reward 0 and neither flag. Observations are a dict of batched arrays,
new on every call: ``observation`` (N, C, H, W) float32 (``compact``: ``planes`` uint8 and
``scalars``) and ``action_mask`` (N, A) int8; ``action_masks()`` gives the masks as bools.
``infos["seat"]`` is the seat each game's learner plays now, ``infos["result"]`` the game's
return for that seat where a game ended this step (NaN elsewhere; without ``reward_points``).

``workers=k`` runs the games in ``k`` spawned processes: each writes its games' rows into
shared-memory arrays and sends back only rewards and flags over a pipe.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
from multiprocessing import shared_memory
from multiprocessing.connection import Connection
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from monsterball.rl.single import MonsterballGym

_Result = tuple[float, bool, bool, int, float]  # reward, ended, cut, seat, result (nan)


class _Games:
    """A block of games with next-step autoreset, writing observations into given rows."""

    def __init__(self, make: dict[str, Any], count: int):
        self.envs = [MonsterballGym(**make) for _ in range(count)]
        self.pending = [False] * count  # ended last step: reset on the next

    def reset(self, seeds: list[int | None], out: dict[str, np.ndarray]) -> list[int]:
        seats = []
        for i, (env, seed) in enumerate(zip(self.envs, seeds, strict=True)):
            env._start(seed)
            self.pending[i] = False
            env.core.observe_into(env.seat, out, i)
            seats.append(env.seat)
        return seats

    def step(self, actions: list[int], out: dict[str, np.ndarray]) -> list[_Result]:
        results = []
        nan = float("nan")
        for i, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            if self.pending[i]:
                env._start(None)
                reward, terminated, truncated, result = 0.0, False, False, nan
                self.pending[i] = False
            else:
                reward, terminated, truncated, extra = env._advance(action)
                result = extra.get("result", nan)
                self.pending[i] = terminated or truncated
            # Written straight into the batch's row: no arrays of the game's own.
            env.core.observe_into(env.seat, out, i)
            results.append((reward, terminated, truncated, env.seat, result))
        return results


def _worker(
    conn: Connection, make: dict[str, Any], count: int, shm_names: dict[str, Any], lo: int
) -> None:
    games = _Games(make, count)
    blocks = {k: shared_memory.SharedMemory(name=name) for k, (name, _, _) in shm_names.items()}
    out = {
        k: np.ndarray(shape, dtype=dtype, buffer=blocks[k].buf)[lo : lo + count]
        for k, (_, shape, dtype) in shm_names.items()
    }
    try:
        while True:
            command, data = conn.recv()
            if command == "reset":
                conn.send(games.reset(data, out))
            elif command == "step":
                conn.send(games.step(data, out))
            else:
                break
    except (EOFError, KeyboardInterrupt):
        pass
    finally:
        del out
        for block in blocks.values():
            block.close()
        conn.close()


class MonsterballVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``game``; ``workers`` processes (0: all in this one)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        preset: str | None = None,
        *,
        num_envs: int = 8,
        workers: int = 0,
        opponent: str = "random",
        seat: int | str = 0,
        max_steps: int | str | None = "default",
        observation: str = "full",
        **options: Any,
    ):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1 (got {num_envs})")
        if not 0 <= workers <= num_envs:
            raise ValueError(f"workers must be 0..{num_envs} (got {workers})")
        if not isinstance(opponent, str):
            raise ValueError("opponent must be a bot's name or 'self' (workers rebuild it)")
        make = dict(
            game=game,
            preset=preset,
            opponent=opponent,
            seat=seat,
            max_steps=max_steps,
            observation=observation,
            **options,
        )
        probe = MonsterballGym(**make)  # checks the arguments here, with a clear error
        actions = probe.core.num_actions
        obs_space = probe.core.observation_space()
        self.num_envs = num_envs
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete(
            np.full(num_envs, actions, dtype=np.int64)
        )
        self.version = probe.version
        self._shapes: dict[str, tuple[tuple[int, ...], Any]] = {}
        for key, space in obs_space.spaces.items():
            assert space.shape is not None
            self._shapes[key] = ((num_envs, *space.shape), space.dtype)
        self._local: _Games | None = None
        self._pipes: list[Connection] = []
        self._procs: list[Any] = []
        self._slices: list[tuple[int, int]] = []
        self._blocks: dict[str, shared_memory.SharedMemory] = {}
        self._shared: dict[str, np.ndarray] = {}
        self._last_masks = np.zeros((num_envs, actions), np.int8)
        if workers == 0:
            self._local = _Games(make, num_envs)
            return
        names = {}
        for key, (shape, dtype) in self._shapes.items():
            size = max(1, int(np.prod(shape)) * np.dtype(dtype).itemsize)
            block = shared_memory.SharedMemory(create=True, size=size)
            self._blocks[key] = block
            self._shared[key] = np.ndarray(shape, dtype=dtype, buffer=block.buf)
            names[key] = (block.name, shape, dtype)
        ctx = mp.get_context("spawn")
        for part in np.array_split(np.arange(num_envs), workers):
            lo, count = int(part[0]), len(part)
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(child, make, count, names, lo), daemon=True)
            proc.start()
            child.close()
            self._pipes.append(parent)
            self._procs.append(proc)
            self._slices.append((lo, count))

    # -- the API ------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset needs {self.num_envs} seeds, got {len(seeds)}")
        if self._local is not None:
            out = self._fresh()
            seats = self._local.reset(seeds, out)
        else:
            for pipe, (lo, count) in zip(self._pipes, self._slices, strict=True):
                pipe.send(("reset", seeds[lo : lo + count]))
            seats = [s for pipe in self._pipes for s in self._recv(pipe)]
            out = {k: v.copy() for k, v in self._shared.items()}
        self._last_masks = out["action_mask"]
        return out, {"seat": np.array(seats, np.int64)}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        acts = np.asarray(actions).reshape(-1)
        if len(acts) != self.num_envs:
            raise ValueError(f"step needs {self.num_envs} actions, got {len(acts)}")
        numbers = [int(a) for a in acts]
        if self._local is not None:
            out = self._fresh()
            results = self._local.step(numbers, out)
        else:
            for pipe, (lo, count) in zip(self._pipes, self._slices, strict=True):
                pipe.send(("step", numbers[lo : lo + count]))
            results = [r for pipe in self._pipes for r in self._recv(pipe)]
            out = {k: v.copy() for k, v in self._shared.items()}
        rewards, terminated, truncated, seats, ends = zip(*results, strict=True)
        self._last_masks = out["action_mask"]
        return (
            out,
            np.array(rewards, np.float64),
            np.array(terminated, bool),
            np.array(truncated, bool),
            {"seat": np.array(seats, np.int64), "result": np.array(ends, np.float64)},
        )

    def action_masks(self) -> np.ndarray:
        """The masks of the last observations, as bools (N, A)."""
        masks: np.ndarray = self._last_masks.astype(bool)
        return masks

    @staticmethod
    def _recv(pipe: Connection) -> Any:
        try:
            return pipe.recv()
        except (EOFError, OSError):
            raise RuntimeError("a vector env worker process died (see its error above)") from None

    def _fresh(self) -> dict[str, np.ndarray]:
        return {k: np.empty(shape, dtype) for k, (shape, dtype) in self._shapes.items()}

    def close_extras(self, **kwargs: Any) -> None:
        for pipe in self._pipes:
            with contextlib.suppress(BrokenPipeError, OSError):
                pipe.send(("close", None))
        for proc in self._procs:
            proc.join(timeout=5)
        self._shared = {}
        for block in self._blocks.values():
            block.close()
            with contextlib.suppress(FileNotFoundError):
                block.unlink()
        self._pipes, self._procs, self._blocks = [], [], {}

    def __enter__(self) -> MonsterballVectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (0 for a row with none): the
    rows' set positions found at once, one uniform draw per row (not one per action: a
    16-row batch of a 25,000-action table is 400,000 draws)."""
    flags = masks.view(np.bool_) if masks.dtype.itemsize == 1 else masks.astype(bool)
    flat = np.flatnonzero(flags)  # far cheaper than np.nonzero's row and column arrays
    n, width = masks.shape
    firsts = np.arange(n + 1) * width
    bounds = np.searchsorted(flat, firsts)  # each row's stretch of ``flat``
    starts, counts = bounds[:-1], np.diff(bounds)
    picks = starts + (rng.random(n) * counts).astype(np.int64)
    live = counts > 0
    chosen: np.ndarray = np.zeros(n, np.int64)
    chosen[live] = flat[picks[live]] - firsts[:-1][live]
    return chosen
