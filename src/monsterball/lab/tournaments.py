"""Round-robin matches between bots: win rates with confidence intervals, Elo ratings, and
results kept in SQLite (exportable as CSV or JSON).

Every pairing plays ``games`` games; game ``k`` of every pairing uses the dice seed
``derive_seed(seed, k)`` (the same dice for every pairing: common random numbers) and the
bots swap seats from one game to the next, so a seat advantage cancels out. Results are
the same for any number of worker processes.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from monsterball.bots.protocol import DEFAULT_MAX_PLIES, Bot, bot_seed, play_game
from monsterball.bots.registry import DIFFICULTIES, bot_for_difficulty, make_bot
from monsterball.core.dice import derive_seed
from monsterball.games import get_game
from monsterball.lab.pool import run_jobs
from monsterball.lab.simulation import wilson_interval

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One finished game: ``seat_bots[i]`` played seat i."""

    pairing: int
    index: int
    seed: int
    seat_bots: tuple[str, ...]
    returns: tuple[float, ...]
    plies: int
    result: str
    seconds: float

    @property
    def winner(self) -> str | None:
        best = max(self.returns)
        leaders = [i for i, r in enumerate(self.returns) if r == best]
        return self.seat_bots[leaders[0]] if len(leaders) == 1 else None


@dataclass(frozen=True, slots=True)
class PairingStats:
    bot_a: str
    bot_b: str
    games: int
    wins_a: int
    wins_b: int
    draws: int
    score_a: float  # (wins + draws / 2) / games
    ci_low: float
    ci_high: float
    mean_plies: float
    seconds_per_game: float


@dataclass(frozen=True, slots=True)
class MatchResult:
    game: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    games_per_pairing: int
    pairings: tuple[PairingStats, ...]
    elo: dict[str, float]
    games: tuple[MatchGame, ...]
    wall_time: float

    def to_dict(self, *, with_games: bool = True) -> dict[str, Any]:
        data = asdict(self)
        if not with_games:
            del data["games"]
        return data


@dataclass(frozen=True, slots=True)
class _Task:
    game_id: str
    options: dict[str, Any]
    pairing: int
    index: int
    master_seed: int
    seat_bots: tuple[str, ...]
    max_plies: int


def match_bot(game_id: str, name: str, seed: int) -> Bot:
    """A bot by registry name (``mcts:200``), or the bot behind a difficulty the web app
    offers (``easy``, ``medium``, ``hard``: what rated bot seats play, so matches between them
    anchor the bots' ratings)."""
    if name in DIFFICULTIES:
        return bot_for_difficulty(game_id, name, seed)
    return make_bot(name, seed)


def _play(task: _Task) -> MatchGame:
    spec = get_game(task.game_id)
    options = spec.options_type.from_dict(task.options)
    seed = derive_seed(task.master_seed, task.index)
    bots = [
        match_bot(task.game_id, name, bot_seed(seed, seat))
        for seat, name in enumerate(task.seat_bots)
    ]
    began = time.perf_counter()
    state, _, plies = play_game(spec, options, bots, seed, max_plies=task.max_plies)
    return MatchGame(
        task.pairing,
        task.index,
        seed,
        task.seat_bots,
        tuple(state.returns()),
        plies,
        state.result_text(),
        time.perf_counter() - began,
    )


def elo_ratings(
    bots: Sequence[str], games: Sequence[MatchGame], *, iterations: int = 200
) -> dict[str, float]:
    """Elo ratings (mean 1500) fitted to the results by maximum likelihood (Bradley-Terry,
    a draw half a win), with one virtual draw per pairing so a clean sweep stays finite."""
    index = {b: i for i, b in enumerate(bots)}
    n = len(bots)
    wins = [[0.0] * n for _ in range(n)]  # wins[i][j]: points of i against j
    for i, j in combinations(range(n), 2):
        wins[i][j] += 0.5
        wins[j][i] += 0.5
    for g in games:
        a, b = (index[s] for s in g.seat_bots[:2])
        winner = g.winner
        if winner is None:
            wins[a][b] += 0.5
            wins[b][a] += 0.5
        else:
            w = index[winner]
            wins[w][b if w == a else a] += 1.0
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            total = sum(wins[i][j] for j in range(n) if j != i)
            denom = sum(
                (wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i
            )
            new.append(total / denom if denom > 0 else strength[i])
        mean_log = sum(math.log(s) for s in new) / n
        strength = [s / math.exp(mean_log) for s in new]
    return {b: 1500 + 400 * math.log10(strength[index[b]]) for b in bots}


def _pairing_stats(a: str, b: str, games: list[MatchGame]) -> PairingStats:
    wins_a = sum(1 for g in games if g.winner == a)
    wins_b = sum(1 for g in games if g.winner == b)
    draws = len(games) - wins_a - wins_b
    n = len(games)
    points = wins_a + draws / 2
    # Wilson interval on the score rate (draws as half a win, rounded to whole games).
    low, high = wilson_interval(round(points), n)
    return PairingStats(
        a,
        b,
        n,
        wins_a,
        wins_b,
        draws,
        points / n if n else 0.0,
        low,
        high,
        sum(g.plies for g in games) / n if n else 0.0,
        sum(g.seconds for g in games) / n if n else 0.0,
    )


def run_match(
    game_id: str,
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    preset: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
) -> MatchResult:
    """Play a round robin of ``games`` games per pairing of ``bots``, seats alternating.

    Raises UnknownGameError / OptionsError / ValueError on bad input before any game."""
    spec = get_game(game_id)
    if spec.num_seats != 2:
        raise ValueError(f"matches are between two seats; {spec.id} has {spec.num_seats}")
    options = spec.options_type.from_preset(preset, overrides)
    names = tuple(b.strip().lower() for b in bots)
    if len(names) < 2:
        raise ValueError("a match needs at least two bots")
    if len(set(names)) != len(names):
        raise ValueError("each bot may appear once in a match (give budgets to tell apart)")
    for name in names:
        match_bot(spec.id, name, 0)
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    pairs = list(combinations(names, 2))
    tasks = [
        _Task(
            spec.id,
            options.to_dict(),
            p,
            k,
            seed,
            (a, b) if k % 2 == 0 else (b, a),
            max_plies,
        )
        for p, (a, b) in enumerate(pairs)
        for k in range(games)
    ]
    began = time.perf_counter()
    results = _run(tasks, jobs, progress)
    results.sort(key=lambda g: (g.pairing, g.index))
    stats = tuple(
        _pairing_stats(a, b, [g for g in results if g.pairing == p])
        for p, (a, b) in enumerate(pairs)
    )
    return MatchResult(
        spec.id,
        options.to_dict(),
        names,
        seed,
        games,
        stats,
        elo_ratings(names, results),
        tuple(results),
        time.perf_counter() - began,
    )


def _run(tasks: list[_Task], jobs: int, progress: Progress | None) -> list[MatchGame]:
    out: list[MatchGame] = []

    def collect(game: MatchGame) -> None:
        out.append(game)
        if progress is not None:
            progress(len(out), len(tasks))

    run_jobs(_play, tasks, jobs, collect)
    return out


# -- storage ------------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    bots TEXT NOT NULL,
    seed INTEGER NOT NULL,
    games_per_pairing INTEGER NOT NULL,
    elo TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    pairing INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seat0 TEXT NOT NULL,
    seat1 TEXT NOT NULL,
    winner TEXT,
    returns TEXT NOT NULL,
    plies INTEGER NOT NULL,
    result TEXT NOT NULL,
    seconds REAL NOT NULL
);
"""

GAME_COLUMNS = ("pairing", "index", "seed", "seat0", "seat1", "winner", "plies", "result")


def save_match(result: MatchResult, path: str | Path) -> int:
    """Append the match to the SQLite database at ``path`` (created if need be); returns
    the match id."""
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        cursor = db.execute(
            "INSERT INTO matches (created, game, options, bots, seed, games_per_pairing, elo)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                time.time(),
                result.game,
                json.dumps(result.options, sort_keys=True),
                json.dumps(list(result.bots)),
                result.seed,
                result.games_per_pairing,
                json.dumps(result.elo),
            ),
        )
        match_id = cursor.lastrowid
        assert match_id is not None
        db.executemany(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    match_id,
                    g.pairing,
                    g.index,
                    g.seed,
                    g.seat_bots[0],
                    g.seat_bots[1],
                    g.winner,
                    json.dumps(list(g.returns)),
                    g.plies,
                    g.result,
                    g.seconds,
                )
                for g in result.games
            ],
        )
    return match_id


def load_games(path: str | Path, match_id: int | None = None) -> list[dict[str, Any]]:
    """The stored games of one match (default: the latest) as plain rows."""
    with sqlite3.connect(path) as db:
        if match_id is None:
            row = db.execute("SELECT max(id) FROM matches").fetchone()
            match_id = row[0] if row else None
        if match_id is None:
            return []
        rows = db.execute(
            "SELECT pairing, idx, seed, seat0, seat1, winner, plies, result FROM games "
            "WHERE match_id = ? ORDER BY pairing, idx",
            (match_id,),
        ).fetchall()
    return [dict(zip(GAME_COLUMNS, r, strict=True)) for r in rows]


def games_csv(result: MatchResult) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(GAME_COLUMNS)
    for g in result.games:
        writer.writerow(
            [g.pairing, g.index, g.seed, g.seat_bots[0], g.seat_bots[1], g.winner or "draw",
             g.plies, g.result]
        )  # fmt: skip
    return out.getvalue()


def match_json(result: MatchResult) -> str:
    return json.dumps(result.to_dict(), indent=2, sort_keys=True)


# -- ratings with intervals, and the leaderboard across runs ------------------------------


@dataclass(frozen=True, slots=True)
class Rating:
    bot: str
    elo: float
    low: float
    high: float
    games: int


def elo_with_intervals(
    bots: Sequence[str], games: Sequence[MatchGame], *, samples: int = 200, seed: int = 0
) -> list[Rating]:
    """Elo ratings with 95% bootstrap intervals: the games of each pairing are resampled
    with replacement ``samples`` times and the ratings refitted; the interval is the 2.5th
    to 97.5th percentile of each bot's refitted rating. Sorted best first."""
    import random

    rng = random.Random(seed)
    point = elo_ratings(bots, games)
    groups: dict[tuple[str, ...], list[MatchGame]] = {}
    for g in games:
        groups.setdefault(tuple(sorted(g.seat_bots[:2])), []).append(g)
    draws: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(samples):
        resampled = [rng.choice(group) for group in groups.values() for _ in group]
        for bot, value in elo_ratings(bots, resampled, iterations=60).items():
            draws[bot].append(value)
    played = {b: sum(1 for g in games if b in g.seat_bots) for b in bots}
    out = []
    for bot in bots:
        values = sorted(draws[bot])
        low = values[int(0.025 * (len(values) - 1))] if values else point[bot]
        high = values[math.ceil(0.975 * (len(values) - 1))] if values else point[bot]
        out.append(Rating(bot, point[bot], min(low, point[bot]), max(high, point[bot]),
                          played[bot]))  # fmt: skip
    return sorted(out, key=lambda r: -r.elo)


def leaderboard(
    path: str | Path, game: str, options: Mapping[str, Any], *, samples: int = 200
) -> list[Rating]:
    """Elo over every match of ``game`` with these ``options`` stored at ``path`` (bots that
    never met are linked through the ones they did meet; the virtual draws keep the fit
    finite)."""
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        rows = db.execute(
            "SELECT g.pairing, g.idx, g.seed, g.seat0, g.seat1, g.returns, g.plies, g.result, "
            "g.seconds FROM games g JOIN matches m ON g.match_id = m.id "
            "WHERE m.game = ? AND m.options = ? ORDER BY g.match_id, g.pairing, g.idx",
            (game, json.dumps(dict(options), sort_keys=True)),
        ).fetchall()
    games = [
        MatchGame(p, i, s, (a, b), tuple(json.loads(r)), pl, res, sec)
        for p, i, s, a, b, r, pl, res, sec in rows
    ]
    bots = sorted({b for g in games for b in g.seat_bots})
    return elo_with_intervals(bots, games, samples=samples) if bots else []


def default_results_path() -> Path:
    """The results file under the user's data directory (XDG_DATA_HOME on Linux)."""
    from platformdirs import user_data_path

    return user_data_path("monsterball") / "results.sqlite"
