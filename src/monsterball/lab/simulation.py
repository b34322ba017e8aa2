"""Many bot-vs-bot games of one game, with win rates, confidence intervals and lengths.

Game ``i`` of a run seeded with ``seed`` uses the dice seed ``derive_seed(seed, i)`` and bots
seeded from that, and the summary is computed from the games sorted by index, so the results
are the same whatever the number of worker processes. Bot ``i`` always plays seat ``i``:
seat advantages (who receives first, who moves first) show up in the per-seat figures rather
than being averaged away.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from monsterball.bots.protocol import DEFAULT_MAX_PLIES, bot_seed, play_game
from monsterball.bots.registry import make_bot
from monsterball.core.dice import derive_seed
from monsterball.core.game import GameState
from monsterball.games import get_game
from monsterball.lab.pool import run_jobs

Progress = Callable[[int, int], None]
"""Called as ``progress(games_done, games_total)`` as games finish."""

Z_95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What the summary needs from one finished game (small, so cheap to send between
    processes)."""

    index: int
    seed: int
    returns: tuple[float, ...]
    plies: int
    score: dict[str, float] | None
    result: str

    @property
    def winner(self) -> int | None:
        """The seat with the strictly highest return, or None for a draw."""
        best = max(self.returns)
        leaders = [seat for seat, r in enumerate(self.returns) if r == best]
        return leaders[0] if len(leaders) == 1 else None


@dataclass(frozen=True, slots=True)
class LengthStats:
    mean: float
    median: float
    min: int
    max: int
    p90: int

    @classmethod
    def of(cls, values: Sequence[int]) -> LengthStats:
        ordered = sorted(values)
        # Nearest-rank percentile: always an observed game length.
        p90 = ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]
        return cls(
            mean=statistics.fmean(ordered),
            median=float(statistics.median(ordered)),
            min=ordered[0],
            max=ordered[-1],
            p90=p90,
        )


@dataclass(frozen=True, slots=True)
class SeatStats:
    seat: str
    bot: str
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float | None


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """What :func:`simulate` found: per seat (``seats``) the bot, its wins and win rate with
    a 95% Wilson interval and its mean score; draws, game lengths (``plies``) and speed."""

    game: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    games: int
    seats: tuple[SeatStats, ...]
    draws: int
    draw_rate: float
    plies: LengthStats
    mean_score: dict[str, float] | None
    wall_time: float
    games_per_second: float
    jobs: int

    @property
    def wins(self) -> tuple[int, ...]:
        """Each seat's number of wins, seat by seat."""
        return tuple(s.wins for s in self.seats)

    def results(self) -> dict[str, Any]:
        """Everything that is determined by the seeds: equal for any ``jobs`` or machine."""
        data = self.to_dict()
        for key in ("wall_time", "games_per_second", "jobs"):
            del data[key]
        return data

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; well-behaved near 0 and 1 and for
    few trials, unlike the normal approximation."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # Rounding can put a bound a hair past the observed rate (e.g. 3e-17 for 0 wins); the
    # interval always contains it.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def record_path(save_dir: str | Path, index: int) -> Path:
    """Where game ``index`` (0-based) of a run is saved: ``game-00001.jsonl`` for the first."""
    return Path(save_dir) / f"game-{index + 1:05d}.jsonl"


def _score_of(state: GameState) -> dict[str, float] | None:
    score = state.scores()
    if score is None:
        return None
    return {state.spec.seat_name(i): v for i, v in enumerate(score)}


@dataclass(frozen=True, slots=True)
class _Chunk:
    """A contiguous run of games for one worker; plain data so it pickles under spawn."""

    game_id: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    master_seed: int
    start: int
    stop: int
    save_dir: str | None
    max_plies: int


def _play_chunk(chunk: _Chunk) -> list[GameOutcome]:
    spec = get_game(chunk.game_id)
    options = spec.options_type.from_dict(chunk.options)
    out = []
    for index in range(chunk.start, chunk.stop):
        seed = derive_seed(chunk.master_seed, index)
        bots = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(chunk.bots)]
        state, record, plies = play_game(
            spec,
            options,
            bots,
            seed,
            record=chunk.save_dir is not None,
            max_plies=chunk.max_plies,
        )
        if record is not None and chunk.save_dir is not None:
            # Workers write their own files: records can be large, outcomes are tiny. Written
            # whole then renamed, so a run stopped mid-write leaves no half record.
            path = record_path(chunk.save_dir, index)
            partial = path.with_name(f".{path.name}.part")
            partial.write_text(record.to_text(), encoding="utf-8")
            partial.replace(path)
        out.append(
            GameOutcome(
                index, seed, tuple(state.returns()), plies, _score_of(state), state.result_text()
            )
        )
    return out


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl+C during :func:`simulate`: ``summary`` has the games that finished (None when
    none did); their records, with a save directory, are saved."""

    def __init__(self, summary: SimulationSummary | None) -> None:
        super().__init__("interrupted")
        self.summary = summary


def simulate(
    game_id: str,
    n_games: int,
    bots: Sequence[str] = ("random", "random"),
    jobs: int = 1,
    seed: int = 0,
    preset: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    save_dir: str | Path | None = None,
    progress: Progress | None = None,
    *,
    max_plies: int = DEFAULT_MAX_PLIES,
) -> SimulationSummary:
    """Play ``n_games`` games of ``game_id`` between ``bots`` (bot i in seat i) and summarise.

    Raises UnknownGameError / OptionsError for a bad game or options, ValueError for bad
    bots or counts, before any game is played.
    """
    spec = get_game(game_id)
    options = spec.options_type.from_preset(preset, overrides)
    bot_names = tuple(name.strip().lower() for name in bots)
    if len(bot_names) != spec.num_seats:
        raise ValueError(
            f"{spec.id} has {spec.num_seats} seats ({', '.join(spec.seat_names)}); "
            f"got {len(bot_names)} bot(s)"
        )
    for name in bot_names:
        make_bot(name, 0)  # fail fast on an unknown name, in this process
    if n_games < 1:
        raise ValueError("the number of games must be at least 1")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    save = None
    if save_dir is not None:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
        save = str(save_dir)

    # One game per job: the progress moves game by game and an interrupted run keeps every
    # finished game. A job's pickling costs microseconds, a game milliseconds or more.
    values = options.to_dict()
    chunks = (
        _Chunk(spec.id, values, bot_names, seed, i, i + 1, save, max_plies) for i in range(n_games)
    )
    began = time.perf_counter()
    outcomes: list[GameOutcome] = []

    def collect(chunk: list[GameOutcome]) -> None:
        outcomes.extend(chunk)
        if progress is not None:
            progress(len(outcomes), n_games)

    def summary() -> SimulationSummary:
        wall = time.perf_counter() - began
        outcomes.sort(key=lambda o: o.index)
        return _summarise(
            spec.id, options.to_dict(), bot_names, seed, outcomes, wall, jobs, spec.seat_names
        )

    try:
        run_jobs(_play_chunk, chunks, jobs, collect)
    except KeyboardInterrupt:
        if save is not None:  # a game stopped while its record was being written
            for partial in Path(save).glob(".game-*.jsonl.part"):
                partial.unlink(missing_ok=True)
        raise SimulationInterrupted(summary() if outcomes else None) from None
    return summary()


def _summarise(
    game: str,
    options: dict[str, Any],
    bots: tuple[str, ...],
    seed: int,
    outcomes: list[GameOutcome],
    wall: float,
    jobs: int,
    seat_names: tuple[str, ...],
) -> SimulationSummary:
    n = len(outcomes)
    wins = [0] * len(seat_names)
    draws = 0
    for outcome in outcomes:
        winner = outcome.winner
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
    mean_score: dict[str, float] | None = None
    scores = [o.score for o in outcomes if o.score is not None]
    if scores and len(scores) == n:
        keys = list(scores[0])
        mean_score = {k: statistics.fmean(s.get(k, 0.0) for s in scores) for k in keys}
    seats = []
    for seat, name in enumerate(seat_names):
        low, high = wilson_interval(wins[seat], n)
        seats.append(
            SeatStats(
                seat=name,
                bot=bots[seat],
                wins=wins[seat],
                win_rate=wins[seat] / n,
                ci_low=low,
                ci_high=high,
                mean_score=mean_score.get(name) if mean_score is not None else None,
            )
        )
    return SimulationSummary(
        game=game,
        options=options,
        bots=bots,
        seed=seed,
        games=n,
        seats=tuple(seats),
        draws=draws,
        draw_rate=draws / n,
        plies=LengthStats.of([o.plies for o in outcomes]),
        mean_score=mean_score,
        wall_time=wall,
        games_per_second=n / wall if wall > 0 else float("inf"),
        jobs=jobs,
    )
