"""The balance lab: the same seeded games under several rule settings, measured and compared.

For each setting (option overrides on top of a preset; ``preset`` itself may be swept), game
``i`` uses the dice seed ``derive_seed(seed, i)`` and bots seeded from it in every setting
(common random numbers). Differences against a baseline setting are therefore computed
game by game (paired): the dice noise the two settings share cancels, and the interval on
the difference is narrower than two independent intervals would suggest (docs/lab.md).

What is measured, through the one game contract only (a state's ``offense`` and ``score``
where the game has them, and the events each action returns):

- each seat's win rate, mean score and the draws,
- win rate of the first offense (the team on offense when it first acts),
- points per possession (a possession ends when ``offense`` changes),
- turnovers by kind (a possession that ends without points; the kind is the ``kind`` or
  ``what`` of the last event before the change, else its type),
- game length in plies,
- any custom metric (:mod:`monsterball.lab.metrics`: a function over a game's events),

each with a 95% interval. Games run on a local process pool, or on a Ray cluster when an
address is given (Ray is the optional ``ray`` extra).
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import signal
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from monsterball.bots.protocol import DEFAULT_MAX_PLIES, bot_seed
from monsterball.bots.registry import make_bot
from monsterball.core.dice import SeededSampler, derive_seed
from monsterball.core.errors import MonsterballError
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.record import Recorder
from monsterball.games import get_game
from monsterball.lab.metrics import GameTrace, MetricRef, Step, load_metric, metric_name
from monsterball.lab.pool import run_jobs
from monsterball.lab.simulation import Z_95, record_path, wilson_interval

Progress = Callable[[int, int], None]

KEY_METRIC = "first offense wins"
"""The figure ``--until-ci`` watches and the report leads with."""


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
    scores: tuple[float, ...] = ()
    metrics: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with a 95% interval (normal approximation; Wilson for rates via ``rate``)."""

    mean: float
    low: float
    high: float
    n: int = 0

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        if not values:
            return cls(math.nan, math.nan, math.nan, 0)
        mean = statistics.fmean(values)
        if len(values) < 2:
            return cls(mean, mean, mean, len(values))
        half = Z_95 * statistics.stdev(values) / math.sqrt(len(values))
        return cls(mean, mean - half, mean + half, len(values))

    @classmethod
    def rate(cls, successes: int, trials: int) -> Estimate:
        if trials == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        low, high = wilson_interval(successes, trials)
        return cls(successes / trials, low, high, trials)

    @classmethod
    def paired(cls, values: Sequence[float], baseline: Sequence[float]) -> Estimate:
        """The mean difference ``values - baseline`` over games played on the same seeds,
        with the interval of the per-game differences (their spread, not the sum of the
        two settings' spreads: what the common dice share cancels)."""
        return cls.of([v - b for v, b in zip(values, baseline, strict=True)])


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
    seat_wins: dict[str, Estimate] = field(default_factory=dict)
    mean_score: dict[str, Estimate] = field(default_factory=dict)
    metrics: dict[str, Estimate] = field(default_factory=dict)
    versus_baseline: dict[str, Estimate] = field(default_factory=dict)
    """Paired differences (this setting minus the baseline) per figure; empty for the
    baseline itself or when there is none."""


@dataclass(frozen=True)
class SweepResult:
    """What :func:`sweep` found: one summary per setting (``settings``, in the order given:
    games, wins, scores, plies, turnovers, metrics with 95% intervals, and the paired
    differences against the baseline in ``versus_baseline``); ``rows()`` is one row per
    game."""

    game: str
    preset: str | None
    bots: tuple[str, ...]
    seed: int
    games: int
    settings: tuple[SettingSummary, ...]
    wall_time: float
    backend: str
    raw: tuple[LabGame, ...] = field(repr=False, default=())
    baseline: int | None = None
    seat_names: tuple[str, ...] = ()
    stopped: str = ""
    """Why the run ended when ``until_ci`` was given."""

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

    def rows(self) -> list[dict[str, Any]]:
        """One row per game, for a notebook or ``--rows``: the setting, seed, winner, each
        seat's score, plies, possessions, turnovers by kind (0 when none) and every metric
        (None when a game had nothing to measure)."""
        kinds = sorted({k for g in self.raw for k in g.turnovers})
        names = sorted({k for g in self.raw for k in g.metrics})
        seats = self.seat_names or tuple(str(i) for i in range(len(self.bots)))
        out = []
        for g in self.raw:
            summary = self.settings[g.setting]
            row: dict[str, Any] = {
                "setting": summary.label,
                "game": g.index,
                "seed": g.seed,
                "winner": "draw" if g.winner is None else seats[g.winner],
            }
            for seat, score in zip(seats, g.scores, strict=False):
                row[f"score_{seat}"] = score
            row["first_offense"] = None if g.first_offense is None else seats[g.first_offense]
            row["plies"] = g.plies
            row["possessions"] = g.possessions
            for kind in kinds:
                row[f"turnovers_{kind}"] = g.turnovers.get(kind, 0)
            for name in names:
                row[name] = g.metrics.get(name)
            out.append(row)
        return out


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
    metrics: tuple[MetricRef, ...] = ()
    save_dir: str | None = None


def _kind(events: Sequence[Any]) -> str:
    """What ended a possession: the last event of the step that names a kind or reason (a
    turnover says why; the next possession's opening event, e.g. an Up Call starting,
    follows it in the same step and does not), else the last event's type."""
    for event in reversed(events):
        for attr in ("kind", "what", "reason"):
            value = getattr(event, attr, None)
            if isinstance(value, str) and value:
                return value
    return type(events[-1]).__name__


def _scores(state: GameState, seats: int) -> tuple[float, ...]:
    score = state.scores()
    if score is not None and len(score) == seats:
        return score
    return tuple(float(r) for r in state.returns())


def play_measured(job: _Job) -> list[LabGame]:
    """Play the job's games and measure them (module level so it pickles for workers)."""
    spec = get_game(job.game_id)
    options = spec.options_type.from_dict(job.options)
    metrics = [load_metric(m) for m in job.metrics]
    out = []
    for index in range(job.start, job.stop):
        seed = derive_seed(job.master_seed, index)
        bots = [make_bot(n, bot_seed(seed, s)) for s, n in enumerate(job.bots)]
        state = spec.new_game(options)
        sampler = SeededSampler(seed)
        recorder = None
        if job.save_dir is not None:
            players = {spec.seat_name(i): b.name for i, b in enumerate(bots)}
            recorder = Recorder(state, seed=seed, players=players)
        steps: list[Step] | None = [] if metrics else None
        offense = state.possession()
        first: int | None = None
        possessions = 1
        points_before = sum(state.scores() or ())
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
            if recorder is not None:
                events = recorder.apply(action, checked=False)
            else:
                events = state.apply_unchecked(action)
            if steps is not None:
                steps.append(Step(plies, actor, action, list(events), offense))
            plies += 1
            if events:
                last_kind = _kind(events)
            score = sum(state.scores() or ())
            if score != points_before:
                scored_in_possession = True
                points_before = score
            now = state.possession()
            if now != offense:
                possessions += 1
                if not scored_in_possession and first is not None:
                    turnovers[last_kind] += 1
                scored_in_possession = False
                offense = now
        if recorder is not None and job.save_dir is not None:
            record_path(job.save_dir, index).write_text(recorder.record.to_text(), encoding="utf-8")
        measured: dict[str, float] = {}
        if steps is not None:
            trace = GameTrace(spec, options, seed, tuple(steps), state)
            for metric in metrics:
                try:
                    figures = {str(k): float(v) for k, v in metric(trace).items()}
                except Exception as exc:  # a user's metric: say which, and on what game
                    raise ValueError(
                        f"metric {metric_name(metric)} failed on game {index + 1} (seed "
                        f"{seed}): {type(exc).__name__}: {exc}"
                    ) from None
                measured.update(figures)
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
                float(sum(state.scores() or ())),
                dict(turnovers),
                plies,
                _scores(state, spec.num_seats),
                measured,
            )
        )
    return out


def label(setting: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in setting.items()) or "(preset)"


def parse_sweep(spec_text: Sequence[str]) -> list[dict[str, str]]:
    """``["points_to_win=3,5", "preset=small,scrimmage"]`` -> every combination, as text
    values (the game's options parse them; ``preset`` picks the preset of the setting)."""
    axes: list[tuple[str, list[str]]] = []
    for item in spec_text:
        key, sep, values = item.partition("=")
        choices = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not key.strip() or not choices:
            raise ValueError(f"bad sweep '{item}': write key=value1,value2,...")
        if any(key.strip() == k for k, _ in axes):
            raise ValueError(f"'{key.strip()}' is swept twice: give all its values at once")
        axes.append((key.strip(), choices))
    settings: list[dict[str, str]] = [{}]
    for key, choices in axes:
        settings = [{**s, key: v} for s in settings for v in choices]
    return settings


def parse_setting(text: str) -> dict[str, str]:
    """``"preset=small, points_to_win=3"`` -> ``{"preset": "small", "points_to_win": "3"}``
    (how ``--baseline`` names a setting)."""
    out: dict[str, str] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"bad setting '{text}': write key=value[,key=value...]")
        out[key.strip()] = value.strip()
    return out


def setting_options(
    spec: GameSpec, preset: str | None, setting: Mapping[str, Any]
) -> dict[str, Any]:
    """The full options of one setting; raises MonsterballError naming what is wrong (and
    says so when a preset's name is given as an option)."""
    chosen = str(setting["preset"]) if "preset" in setting else preset
    presets = spec.options_type.PRESETS
    text = []
    for key, value in setting.items():
        if key == "preset":
            continue
        if key in presets and key not in {i.name for i in spec.options_type.describe()}:
            raise MonsterballError(
                f"'{key}' is a preset of {spec.id}, not an option: sweep presets with "
                f"--sweep preset=NAME,NAME (presets: {', '.join(presets)})"
            )
        text.append(f"{key}={value}")
    parsed = spec.options_type.parse_assignments(text) if text else {}
    return spec.options_type.from_preset(chosen, parsed).to_dict()


def default_bots(spec: GameSpec) -> tuple[str, ...]:
    """The lab's bots unless told otherwise: the heuristic bot in every seat (random play
    says little about rules: its turnovers are mostly its own blunders)."""
    return ("heuristic",) * spec.num_seats


def sweep(
    game_id: str,
    settings: Sequence[Mapping[str, Any]],
    games: int,
    *,
    bots: Sequence[str] | None = None,
    seed: int = 0,
    preset: str | None = None,
    jobs: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    baseline: int | Mapping[str, Any] | None = None,
    until_ci: float | None = None,
    max_games: int | None = None,
    metrics: Sequence[MetricRef] = (),
    save_dir: str | Path | None = None,
) -> SweepResult:
    """Play ``games`` games per setting and summarise each (see the module docstring).

    ``baseline`` (an index into ``settings`` or one of the settings) adds paired
    differences against it. ``until_ci`` keeps playing batches of ``games`` games per
    setting until the 95% interval on the key figure (the difference against the baseline
    when there is one) is at most that wide on either side, or ``max_games`` (default 20
    batches) are played. ``metrics`` are custom metrics ("module:function", "file.py:function"
    or a picklable function; see :mod:`monsterball.lab.metrics`). ``jobs`` defaults to every
    local core; ``ray_address`` ('auto', 'local' for a fresh local instance, or host:port)
    runs the games on Ray instead. ``save_dir`` keeps every game's record."""
    spec = get_game(game_id)
    names = tuple(b.strip().lower() for b in bots) if bots else default_bots(spec)
    if len(names) != spec.num_seats:
        raise ValueError(f"{spec.id} needs {spec.num_seats} bots, got {len(names)}")
    for name in names:
        make_bot(name, 0)
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    chosen: list[dict[str, Any]] = [dict(s) for s in settings] or [{}]
    option_dicts = [setting_options(spec, preset, s) for s in chosen]
    base = _baseline_index(chosen, baseline)
    metric_refs = tuple(metrics)
    for ref in metric_refs:
        load_metric(ref)  # fail here, not in a worker
    if until_ci is not None and until_ci <= 0:
        raise ValueError("--until-ci must be a positive width, e.g. 0.02")
    limit = max_games if max_games is not None else (games * 20 if until_ci else games)
    workers = jobs if jobs is not None else (multiprocessing.cpu_count() or 1)
    if workers < 1:
        raise ValueError("jobs must be at least 1")
    dirs: list[str | None] = [None] * len(chosen)
    if save_dir is not None:
        for s in range(len(chosen)):
            folder = Path(save_dir) if len(chosen) == 1 else Path(save_dir) / f"setting-{s + 1}"
            folder.mkdir(parents=True, exist_ok=True)
            dirs[s] = str(folder)
    began = time.perf_counter()
    played: list[LabGame] = []
    done = 0
    stopped = ""
    backend = f"ray ({ray_address})" if ray_address is not None else f"processes ({workers})"
    while True:
        stop = min(done + games, limit) if until_ci else games
        size = max(1, min(16, math.ceil((stop - done) / max(1, workers * 4))))
        job_list = [
            _Job(
                spec.id,
                opts,
                names,
                s,
                seed,
                start,
                min(start + size, stop),
                max_plies,
                metric_refs,
                dirs[s],
            )
            for s, opts in enumerate(option_dicts)
            for start in range(done, stop, size)
        ]

        def advance(
            n: int, _total: int, offset: int = len(played), total: int = stop * len(option_dicts)
        ) -> None:
            if progress is not None:
                progress(offset + n, total)

        if ray_address is not None:
            played += _run_ray(job_list, ray_address, advance)
        else:
            played += _run_local(job_list, workers, advance)
        done = stop
        if not until_ci:
            break
        width = _key_half_width(played, len(chosen), base)
        if width <= until_ci:
            stopped = f"the 95% interval on '{KEY_METRIC}' reached ±{width:.3f} after {done} games"
            break
        if done >= limit:
            stopped = (
                f"stopped at the limit of {limit} games per setting with the interval on "
                f"'{KEY_METRIC}' at ±{width:.3f} (asked: ±{until_ci})"
            )
            break
    played.sort(key=lambda g: (g.setting, g.index))
    by_setting = [[g for g in played if g.setting == s] for s in range(len(chosen))]
    summaries = tuple(
        _summarise(
            chosen[s],
            by_setting[s],
            spec.seat_names,
            None if base is None or base == s else by_setting[base],
        )
        for s in range(len(chosen))
    )
    return SweepResult(
        spec.id,
        preset,
        names,
        seed,
        done,
        summaries,
        time.perf_counter() - began,
        backend,
        tuple(played),
        base,
        spec.seat_names,
        stopped,
    )


def _baseline_index(
    settings: Sequence[Mapping[str, Any]], baseline: int | Mapping[str, Any] | None
) -> int | None:
    if baseline is None or isinstance(baseline, int):
        if isinstance(baseline, int) and not 0 <= baseline < len(settings):
            raise ValueError(f"baseline {baseline} is not one of the {len(settings)} settings")
        return baseline
    wanted = {k: str(v) for k, v in baseline.items()}
    for i, s in enumerate(settings):
        if {k: str(v) for k, v in s.items() if k in wanted} == wanted:
            return i
    raise ValueError(
        f"the baseline '{label(wanted)}' is not one of the swept settings: "
        + "; ".join(label(s) for s in settings)
    )


def _values(game: LabGame, seats: Sequence[str]) -> dict[str, float]:
    """Every per-game figure that is averaged or paired, by name."""
    out = {
        "points per possession": game.points / game.possessions,
        "plies": float(game.plies),
        "turnovers per game": float(sum(game.turnovers.values())),
    }
    if game.first_offense is not None:
        out[KEY_METRIC] = float(game.winner == game.first_offense)
    for i, seat in enumerate(seats):
        out[f"{seat} wins"] = float(game.winner == i)
    out["draws"] = float(game.winner is None)
    out.update(game.metrics)
    return out


def _key_half_width(played: Sequence[LabGame], count: int, base: int | None) -> float:
    by = [{g.index: g for g in played if g.setting == s} for s in range(count)]
    widths = []
    for s in range(count):
        if base is not None and s == base:
            continue
        games = by[s]
        if base is None:
            vals = [
                float(g.winner == g.first_offense)
                for g in games.values()
                if g.first_offense is not None
            ]
            widths.append(Estimate.of(vals).half_width if len(vals) > 1 else math.inf)
            continue
        pairs = [
            (float(g.winner == g.first_offense), float(b.winner == b.first_offense))
            for i, g in games.items()
            if (b := by[base][i]).first_offense is not None and g.first_offense is not None
        ]
        e = Estimate.paired([a for a, _ in pairs], [b for _, b in pairs])
        widths.append(e.half_width if len(pairs) > 1 else math.inf)
    return max(widths, default=0.0)


def _run_local(jobs: list[_Job], workers: int, progress: Progress) -> list[LabGame]:
    out: list[LabGame] = []

    def collect(chunk: list[LabGame]) -> None:
        out.extend(chunk)
        progress(len(out), 0)

    run_jobs(play_measured, jobs, workers, collect, in_order=True)
    return out


def connect_ray(address: str) -> None:
    """Connect to the Ray cluster at ``address`` ('local' starts a local instance); a
    ValueError in one line says why it cannot."""
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--ray needs the optional Ray extra: pip install 'monsterball[ray]'"
        ) from None
    if ray.is_initialized():
        return
    sigterm = signal.getsignal(signal.SIGTERM)
    try:
        ray.init(
            address=None if address == "local" else address,
            include_dashboard=False,
            ignore_reinit_error=True,
            log_to_driver=False,
        )
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError...
        # A failed init leaves Ray's SIGTERM handler (sys.exit) behind: a later SIGTERM to
        # this process, or to a worker it forks, would raise SystemExit(15) mid-task.
        with contextlib.suppress(ValueError, TypeError):  # (not the main thread; not Python's)
            signal.signal(signal.SIGTERM, sigterm)
        text = str(exc).strip()
        first = text.splitlines()[0] if text else type(exc).__name__
        raise ValueError(
            f"cannot reach a Ray cluster at '{address}' ({first[:160]}); start one with "
            "'ray start --head', or use --ray local to start a local instance"
        ) from None


def _run_ray(jobs: list[_Job], address: str, progress: Progress) -> list[LabGame]:
    connect_ray(address)
    import ray

    remote = ray.remote(play_measured)
    pending = [remote.remote(job) for job in jobs]
    out: list[LabGame] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            out.extend(ray.get(ref))
        progress(len(out), 0)
    return out


def _summarise(
    setting: dict[str, Any],
    games: list[LabGame],
    seats: Sequence[str],
    baseline: list[LabGame] | None,
) -> SettingSummary:
    decided = [g for g in games if g.first_offense is not None]
    kinds = sorted({k for g in games for k in g.turnovers})
    values = [_values(g, seats) for g in games]
    names = sorted({k for g in games for k in g.metrics})
    versus: dict[str, Estimate] = {}
    if baseline is not None:
        base_values = {g.index: _values(g, seats) for g in baseline}
        keys = sorted({k for v in values for k in v})
        for key in keys:
            pairs = [
                (v[key], base_values[g.index][key])
                for g, v in zip(games, values, strict=True)
                if key in v and g.index in base_values and key in base_values[g.index]
            ]
            if pairs:
                versus[key] = Estimate.paired([a for a, _ in pairs], [b for _, b in pairs])
    return SettingSummary(
        setting,
        label(setting),
        len(games),
        Estimate.rate(sum(1 for g in decided if g.winner == g.first_offense), len(decided)),
        Estimate.of([v["points per possession"] for v in values]),
        {k: Estimate.of([float(g.turnovers.get(k, 0)) for g in games]) for k in kinds},
        Estimate.of([float(g.plies) for g in games]),
        sum(1 for g in games if g.winner is None),
        {
            seat: Estimate.rate(sum(1 for g in games if g.winner == i), len(games))
            for i, seat in enumerate(seats)
        },
        {
            seat: Estimate.of([g.scores[i] for g in games if len(g.scores) > i])
            for i, seat in enumerate(seats)
        },
        {n: Estimate.of([g.metrics[n] for g in games if n in g.metrics]) for n in names},
        versus,
    )


def write_rows(rows: Sequence[Mapping[str, Any]], path: str | Path) -> None:
    """``rows`` as CSV, or as Parquet when the name ends in ``.parquet`` (needs pyarrow, the
    ``rows`` extra). Raises ValueError without pyarrow, OSError when it cannot write."""
    target = Path(path)
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    if target.suffix.lower() == ".parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ValueError(
                "Parquet rows need pyarrow: pip install 'monsterball[rows]' (or write .csv)"
            ) from None
        table = pa.table({c: [row.get(c) for row in rows] for c in columns})
        pq.write_table(table, target)
        return
    import csv

    with target.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
