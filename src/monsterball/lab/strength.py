"""Strength of the bots, one pairing at a time, in resumable parts kept in a ledger.

Issue 17's targets: at 1 s per decision, full-length default games, >= 100 games per
pairing, seats alternating, the hard bot wins (a draw is not a win) >= 80% against the
heuristic with the 95% Wilson interval's lower bound >= 70%; the heuristic wins >= 95%
against random with the lower bound >= 90%.

Every finished game is appended to the ledger (JSON lines) with its dice seed, seats and
result, so runs from several sessions add up: a run plays the next game numbers its key
(game, options, pairing, budget, base seed, bots' version) lacks in the ledger, and the
summary counts every game of that key. Game k uses the dice seed ``derive_seed(seed, k)``
and puts the first-named bot in seat ``k % 2`` (as ``monsterball match`` does). Only one
run per key at a time (a lock file says so; other pairings may run beside it); ``--jobs``
plays games on several processes.

Usage::

    python scripts/strength.py --game midway --pairing hard-heuristic \\
        --games 10 --seconds-per-decision 1 --ledger strength.jsonl
    python scripts/strength.py --game midway --pairing hard-heuristic \\
        --seconds-per-decision 1 --ledger strength.jsonl --summary

A time budget depends on the machine and its load: each game records the load average
and the hard bot's mean iterations per searched decision, so a loaded run can be told
from an idle one. ``--iterations N`` gives the hard bot a fixed count instead (then
every game is fully determined by its seed).
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from monsterball.bots.heuristic import HeuristicBot, heuristic_for
from monsterball.bots.mcts import MCTSBot
from monsterball.bots.protocol import Bot, RandomBot, bot_seed, play_game
from monsterball.bots.registry import hard_bot
from monsterball.core.dice import derive_seed
from monsterball.core.game import GameState
from monsterball.games import get_game
from monsterball.lab.pool import run_jobs
from monsterball.lab.simulation import wilson_interval

BOTS = ("hard", "heuristic", "random")


@dataclass(frozen=True)
class Task:
    game: str
    preset: str | None
    pairing: tuple[str, str]
    seconds: float | None
    iterations: int | None
    rollout: int | None
    seed: int
    index: int


class Counting:
    """Counts a bot's decisions (and a search bot's iterations) in one game."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self.name = bot.name
        self.decisions = 0
        self.searched = 0
        self.iterations = 0

    def choose(self, state: GameState, seat: int) -> Any:
        action = self.bot.choose(state, seat)
        self.decisions += 1
        if isinstance(self.bot, MCTSBot) and self.bot.last is not None:
            self.searched += 1
            self.iterations += self.bot.last.iterations
            self.bot.last = None
        return action


def make(name: str, seed: int, task: Task) -> Bot:
    if name == "hard":
        return hard_bot(
            seed, seconds=task.seconds, iterations=task.iterations, rollout_depth=task.rollout
        )
    return HeuristicBot(seed) if name == "heuristic" else RandomBot(seed)


def budget_label(
    pairing: tuple[str, str], seconds: float | None, iterations: int | None, rollout: int | None
) -> str:
    """The hard bot's budget; "none" for a pairing without it (the other bots have none)."""
    if "hard" not in pairing:
        return "none"
    label = f"{iterations}it" if iterations is not None else f"{seconds:g}s"
    return label if rollout is None else f"{label}+rollout{rollout}"


def play(task: Task) -> dict[str, Any]:
    spec = get_game(task.game)
    options = spec.options(task.preset)
    dice = derive_seed(task.seed, task.index)
    first, second = task.pairing
    names = (first, second) if task.index % 2 == 0 else (second, first)
    bots = [Counting(make(n, bot_seed(dice, seat), task)) for seat, n in enumerate(names)]
    began = time.perf_counter()
    cpu = time.process_time()
    state, _, plies = play_game(spec, options, bots, dice)
    returns = state.returns()
    best = max(returns)
    leaders = [i for i, r in enumerate(returns) if r == best]
    hard = [b for b in bots if b.searched]
    return {
        "game": task.game,
        "options": options.to_dict(),
        "pairing": "-".join(task.pairing),
        "budget": budget_label(task.pairing, task.seconds, task.iterations, task.rollout),
        "seed": task.seed,
        "bots": heuristic_for(spec).version,
        "rules": spec.rules_version,
        "index": task.index,
        "dice_seed": dice,
        "seats": list(names),
        "returns": list(returns),
        "winner": names[leaders[0]] if len(leaders) == 1 else None,
        "result": state.result_text(),
        "plies": plies,
        "seconds": round(time.perf_counter() - began, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "decisions": {b.name: b.decisions for b in bots},
        # Decisions the search bot searched (not forced, not planned): at a time budget,
        # each costs the full budget, so these set a game's length in time.
        "searched": sum(b.searched for b in bots),
        "mean_iterations": (
            round(sum(b.iterations for b in hard) / max(1, sum(b.searched for b in hard)), 1)
            if hard
            else None
        ),
        "load": round(os.getloadavg()[0], 2),
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }


def _key(entry: dict[str, Any]) -> tuple[str, str, str, str, int, str, str]:
    """Games count together only under the same options, pairing, budget, base seed, bots'
    version (a ledger line without one predates versions: "1") and rules version (a line
    without one predates its recording: "")."""
    options = json.dumps(entry["options"], sort_keys=True)
    version = str(entry.get("bots", "1"))
    rules = str(entry.get("rules", ""))
    key = entry["game"], options, entry["pairing"], entry["budget"], entry["seed"], version
    return (*key, rules)


def read_ledger(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                raise SystemExit(f"error: {path} line {number} is not JSON") from None
    return out


def summary(entries: list[dict[str, Any]], first: str) -> str:
    n = len(entries)
    wins = sum(e["winner"] == first for e in entries)
    draws = sum(e["winner"] is None for e in entries)
    losses = n - wins - draws
    lo, hi = wilson_interval(wins, n)
    slo, shi = wilson_interval(wins + draws / 2, n)
    seconds = sum(e["seconds"] for e in entries)
    iters = [e["mean_iterations"] for e in entries if e.get("mean_iterations") is not None]
    loads = [e["load"] for e in entries]
    lines = [
        f"{n} games: {first} {wins} - {losses} - {draws} (wins - losses - draws)",
        f"win rate {wins / n:.1%}, 95% Wilson interval {lo:.1%} - {hi:.1%}"
        if n
        else "no games yet",
    ]
    if n:
        score = (wins + draws / 2) / n
        lines.append(f"score (draw = 1/2) {score:.1%}, 95% Wilson interval {slo:.1%} - {shi:.1%}")
        lines.append(
            f"{seconds / n:.1f} s per game (wall), load average {min(loads):.1f} - {max(loads):.1f}"
        )
    if iters:
        lines.append(f"hard bot: {sum(iters) / len(iters):.0f} iterations per searched decision")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--pairing", required=True, help="A-B of hard, heuristic, random")
    parser.add_argument("--games", type=int, default=0, help="games to add in this run")
    parser.add_argument("--seconds-per-decision", type=float, default=1.0)
    parser.add_argument("--iterations", type=int, help="fixed iterations instead of time")
    parser.add_argument("--rollout", type=int, help="override the hard bot's rollout plies")
    parser.add_argument("--preset", help="default: the full-length default options")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ledger", required=True, type=Path)
    parser.add_argument("--summary", action="store_true", help="print the tally and stop")
    args = parser.parse_args(argv)
    pairing = tuple(args.pairing.strip().lower().split("-"))
    if len(pairing) != 2 or not all(p in BOTS for p in pairing) or pairing[0] == pairing[1]:
        parser.error(f"--pairing must be two different bots of {', '.join(BOTS)}, like A-B")
    if args.games < 0 or args.jobs < 1:
        parser.error("--games must be >= 0 and --jobs >= 1")
    if args.seconds_per_decision <= 0 or (args.iterations is not None and args.iterations < 1):
        parser.error("the budget must be positive")
    try:
        spec = get_game(args.game)
        options = spec.options(args.preset)
    except Exception as exc:  # unknown game or preset: one line, nothing written
        parser.error(str(exc))
    seconds = None if args.iterations is not None else args.seconds_per_decision
    base = Task(spec.id, args.preset, pairing, seconds, args.iterations, args.rollout, args.seed, 0)
    probe = {
        "game": spec.id,
        "options": options.to_dict(),
        "pairing": "-".join(pairing),
        "budget": budget_label(pairing, seconds, args.iterations, args.rollout),
        "seed": args.seed,
        "bots": heuristic_for(spec).version,
        "rules": spec.rules_version,
    }
    key = _key(probe)
    # One run per key at a time (two would play the same game numbers); runs of other
    # pairings may share the ledger (each line is appended under a lock).
    tag = hashlib.sha1(repr(key).encode()).hexdigest()[:10]
    lock_path = args.ledger.with_name(f"{args.ledger.name}.{tag}.lock")
    with open(lock_path, "w") as lock:
        try:
            if not args.summary:  # reading the tally needs no lock
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            parser.error(
                f"another run is playing {probe['pairing']} at {probe['budget']} into "
                f"{args.ledger}; wait for it to finish"
            )
        done = [e for e in read_ledger(args.ledger) if _key(e) == key]
        have = {e["index"] for e in done}
        todo: list[int] = []
        k = 0
        while len(todo) < args.games:
            if k not in have:
                todo.append(k)
            k += 1
        if todo and not args.summary:
            print(
                f"{spec.id} {probe['pairing']} at {probe['budget']}: playing games "
                f"{todo[0]}..{todo[-1]} ({len(done)} already in {args.ledger})",
                file=sys.stderr,
            )

            def collect(entry: dict[str, Any]) -> None:
                with open(args.ledger, "a") as out:
                    fcntl.flock(out, fcntl.LOCK_EX)
                    out.write(json.dumps(entry, sort_keys=True) + "\n")
                done.append(entry)
                print(
                    f"game {entry['index']}: {entry['result']} (seats {entry['seats']}, "
                    f"{entry['seconds']} s)",
                    file=sys.stderr,
                )

            tasks = [Task(**{**base.__dict__, "index": i}) for i in todo]
            try:
                run_jobs(play, tasks, args.jobs, collect)
            except RuntimeError as exc:  # a game that does not end: a bug to look at
                print(f"error: {exc} (the games before it are in the ledger)", file=sys.stderr)
                return 1
    print(
        f"{spec.id}, {probe['pairing']}, budget {probe['budget']}, seed {args.seed}, "
        f"bots version {probe['bots']}"
    )
    print(summary(done, pairing[0]))
    return 0
