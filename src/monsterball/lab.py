"""The balance lab: the same seeded games under several rule settings, measured.

For each setting (option overrides on top of a preset), game ``i`` uses the dice seed
``derive_seed(seed, i)`` and bots seeded from it in every setting (common random numbers:
differences between settings are not drowned in dice noise). Games run on a local process
pool, or on a Ray cluster when an address is given (Ray is the optional ``ray`` extra).

What is measured, through the one game contract only (a state's ``offense`` and ``score``
where the game has them, and the events each action returns):

- win rate of the first offense (the team on offense when it first acts),
- points per possession (a possession ends when ``offense`` changes),
- turnovers by kind (a possession that ends without points; the kind is the ``kind`` or
  ``what`` of the last event before the change, else its type),
- game length in plies,

each with a 95% confidence interval.
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from monsterball.bots import DEFAULT_MAX_PLIES, bot_seed, make_bot
from monsterball.core.actions import Event
from monsterball.core.dice import SeededSampler, derive_seed
from monsterball.core.game import CHANCE
from monsterball.core.registry import get_game
from monsterball.simulate import Z_95, wilson_interval

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class LabGame:
    setting: int
    index: int
    seed: int
    winner: int | None
    first_offense: int | None
    possessions: int
    points: float
    turnovers: dict[str, int]
    plies: int


@dataclass(frozen=True, slots=True)
class Estimate:
    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        if not values:
            return cls(0.0, 0.0, 0.0)
        mean = statistics.fmean(values)
        if len(values) < 2:
            return cls(mean, mean, mean)
        half = Z_95 * statistics.stdev(values) / math.sqrt(len(values))
        return cls(mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class SettingSummary:
    setting: dict[str, Any]
    label: str
    games: int
    first_offense_win: Estimate
    points_per_possession: Estimate
    turnovers_per_game: dict[str, Estimate]
    plies: Estimate
    draws: int


@dataclass(frozen=True)
class SweepResult:
    game: str
    preset: str | None
    bots: tuple[str, ...]
    seed: int
    games: int
    settings: tuple[SettingSummary, ...]
    wall_time: float
    backend: str
    raw: tuple[LabGame, ...] = field(repr=False, default=())

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["raw"]
        return data

    def results(self) -> dict[str, Any]:
        """What the seeds determine (equal for any backend or number of workers)."""
        data = self.to_dict()
        for key in ("wall_time", "backend"):
            del data[key]
        return data


@dataclass(frozen=True, slots=True)
class _Job:
    game_id: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    setting: int
    master_seed: int
    start: int
    stop: int
    max_plies: int


def _kind(event: Event) -> str:
    for attr in ("kind", "what", "reason"):
        value = getattr(event, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(event).__name__


def play_measured(job: _Job) -> list[LabGame]:
    """Play the job's games and measure them (module level so it pickles for workers)."""
    spec = get_game(job.game_id)
    options = spec.options_type.from_dict(job.options)
    out = []
    for index in range(job.start, job.stop):
        seed = derive_seed(job.master_seed, index)
        bots = [make_bot(n, bot_seed(seed, s)) for s, n in enumerate(job.bots)]
        state = spec.new_game(options)
        sampler = SeededSampler(seed)
        offense = getattr(state, "offense", None)
        first: int | None = None
        possessions = 1
        points_before = sum(getattr(state, "score", [0]))
        scored_in_possession = False
        turnovers: Counter[str] = Counter()
        last_kind = ""
        plies = 0
        while not state.is_terminal():
            if plies >= job.max_plies:
                raise RuntimeError(f"{spec.id} game {seed} ran past {job.max_plies} plies")
            actor = state.current_player()
            if actor == CHANCE:
                action = sampler.choose(state.chance_outcomes())
            else:
                if first is None and offense is not None and actor == offense:
                    first = offense
                action = bots[actor].choose(state, actor)
            events = state.apply_unchecked(action)
            plies += 1
            if events:
                last_kind = _kind(events[-1])
            score = sum(getattr(state, "score", [0]))
            if score != points_before:
                scored_in_possession = True
                points_before = score
            now = getattr(state, "offense", None)
            if now != offense:
                possessions += 1
                if not scored_in_possession and first is not None:
                    turnovers[last_kind] += 1
                scored_in_possession = False
                offense = now
        returns = state.returns()
        best = max(returns)
        leaders = [s for s, r in enumerate(returns) if r == best]
        out.append(
            LabGame(
                job.setting,
                index,
                seed,
                leaders[0] if len(leaders) == 1 else None,
                first,
                possessions,
                float(sum(getattr(state, "score", [0]))),
                dict(turnovers),
                plies,
            )
        )
    return out


def _label(setting: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in setting.items()) or "(preset)"


def parse_sweep(spec_text: Sequence[str]) -> list[dict[str, str]]:
    """``["points_to_win=3,5", "pro=false,true"]`` -> every combination, as text values
    (the game's options parse them)."""
    axes: list[tuple[str, list[str]]] = []
    for item in spec_text:
        key, sep, values = item.partition("=")
        if not sep or not key.strip() or not values.strip():
            raise ValueError(f"bad sweep '{item}': write key=value1,value2,...")
        axes.append((key.strip(), [v.strip() for v in values.split(",") if v.strip()]))
    settings: list[dict[str, str]] = [{}]
    for key, choices in axes:
        settings = [{**s, key: v} for s in settings for v in choices]
    return settings


def sweep(
    game_id: str,
    settings: Sequence[Mapping[str, Any]],
    games: int,
    *,
    bots: Sequence[str] = ("random", "random"),
    seed: int = 0,
    preset: str | None = None,
    jobs: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
) -> SweepResult:
    """Play ``games`` games per setting and summarise each (see the module docstring).

    ``jobs`` defaults to every local core; ``ray_address`` ('auto', 'local' for a fresh
    local instance, or host:port) runs the games on Ray instead."""
    spec = get_game(game_id)
    names = tuple(b.strip().lower() for b in bots)
    if len(names) != spec.num_seats:
        raise ValueError(f"{spec.id} needs {spec.num_seats} bots, got {len(names)}")
    for name in names:
        make_bot(name, 0)
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    if not settings:
        settings = [{}]
    option_dicts = []
    for setting in settings:
        text = [f"{k}={v}" for k, v in setting.items()]
        parsed = spec.options_type.parse_assignments(text) if text else {}
        option_dicts.append(spec.options_type.from_preset(preset, parsed).to_dict())
    workers = jobs if jobs is not None else (multiprocessing.cpu_count() or 1)
    if workers < 1:
        raise ValueError("jobs must be at least 1")
    size = max(1, min(16, math.ceil(games / max(1, workers * 4))))
    job_list = [
        _Job(spec.id, opts, names, s, seed, start, min(start + size, games), max_plies)
        for s, opts in enumerate(option_dicts)
        for start in range(0, games, size)
    ]
    total = games * len(option_dicts)
    began = time.perf_counter()
    if ray_address is not None:
        played = _run_ray(job_list, ray_address, total, progress)
        backend = f"ray ({ray_address})"
    else:
        played = _run_local(job_list, workers, total, progress)
        backend = f"processes ({workers})"
    played.sort(key=lambda g: (g.setting, g.index))
    summaries = tuple(
        _summarise(dict(settings[s]), [g for g in played if g.setting == s])
        for s in range(len(option_dicts))
    )
    return SweepResult(
        spec.id,
        preset,
        names,
        seed,
        games,
        summaries,
        time.perf_counter() - began,
        backend,
        tuple(played),
    )


def _run_local(
    jobs: list[_Job], workers: int, total: int, progress: Progress | None
) -> list[LabGame]:
    out: list[LabGame] = []
    if workers == 1:
        for job in jobs:
            out.extend(play_measured(job))
            if progress is not None:
                progress(len(out), total)
        return out
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
        for chunk in pool.map(play_measured, jobs):
            out.extend(chunk)
            if progress is not None:
                progress(len(out), total)
    return out


def _run_ray(
    jobs: list[_Job], address: str, total: int, progress: Progress | None
) -> list[LabGame]:
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--ray needs the optional Ray extra: pip install 'monsterball[ray]'"
        ) from None
    if not ray.is_initialized():
        ray.init(
            address=None if address == "local" else address,
            include_dashboard=False,
            ignore_reinit_error=True,
            log_to_driver=False,
        )
    remote = ray.remote(play_measured)
    refs = [remote.remote(job) for job in jobs]
    out: list[LabGame] = []
    pending = list(refs)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            out.extend(ray.get(ref))
        if progress is not None:
            progress(len(out), total)
    return out


def _summarise(setting: dict[str, Any], games: list[LabGame]) -> SettingSummary:
    decided = [g for g in games if g.first_offense is not None]
    wins = sum(1 for g in decided if g.winner == g.first_offense)
    low, high = wilson_interval(wins, len(decided))
    rate = wins / len(decided) if decided else 0.0
    kinds = sorted({k for g in games for k in g.turnovers})
    return SettingSummary(
        setting,
        _label(setting),
        len(games),
        Estimate(rate, low, high),
        Estimate.of([g.points / g.possessions for g in games]),
        {k: Estimate.of([float(g.turnovers.get(k, 0)) for g in games]) for k in kinds},
        Estimate.of([float(g.plies) for g in games]),
        sum(1 for g in games if g.winner is None),
    )
