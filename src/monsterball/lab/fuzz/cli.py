"""The command line of the fuzz harness, run as ``python scripts/fuzz.py`` (its flags are in
that script's docstring and ``--help``): one run, a campaign in chunks with a ledger
(``--ledger``, ``--seed next``, ``--chunks``), the ledger's totals (``--report``), or one case
again with a traceback (``--repro``)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from monsterball.core.game import GameSpec
from monsterball.games import all_games, get_game
from monsterball.lab.fuzz import ledger as fuzz_ledger
from monsterball.lab.fuzz.mutations import MUTATORS
from monsterball.lab.fuzz.play import Job, Tally, fuzz_one, play_game
from monsterball.lab.fuzz.report import report

DESCRIPTION = (
    "Fuzz every game x preset: random legal play with invariant checks after every action,\n"
    "then mutation fuzzers that feed broken records, positions, notation and options to the\n"
    "readers and require a clean error."
)
# The checkout the package runs from (its git commit goes into the ledger).
ROOT = Path(__file__).resolve().parents[4]


def repro(case: str) -> int:
    kind, game, preset, seed = case.split(":")
    spec = get_game(game)
    runner: Callable[[GameSpec, str, int], Any] = MUTATORS.get(kind, play_game)
    try:
        runner(spec, preset, int(seed))
    except Exception:  # show whatever it is
        traceback.print_exc()
        return 1
    print("no failure")
    return 0


def pairs_for(args: argparse.Namespace) -> list[tuple[str, str]]:
    specs = [get_game(args.game)] if args.game else all_games()
    return [
        (spec.id, preset)
        for spec in specs
        for preset in ([args.preset] if args.preset else sorted(spec.options_type.PRESETS))
    ]


def jobs_for(args: argparse.Namespace, seed: int, pairs: list[tuple[str, str]]) -> list[Job]:
    return [
        Job(
            game,
            preset,
            seed,
            args.actions,
            args.seconds,
            args.mutations,
            args.window,
            args.yardstick,
        )
        for game, preset in pairs
    ]


WARM: set[tuple[str, str]] = set()


def warm_up(jobs: list[Job]) -> None:
    """Build each game x preset's tables (a big field's geometry: seconds) here, once: the
    worker processes fork from this one and inherit them, instead of each paying for them
    inside its timed play in every chunk."""
    for job in jobs:
        if (job.game, job.preset) not in WARM:
            spec = get_game(job.game)
            spec.new_game(spec.options(job.preset))
            WARM.add((job.game, job.preset))


def run_chunk(args: argparse.Namespace, jobs: list[Job]) -> list[Tally]:
    warm_up(jobs)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            return list(pool.map(fuzz_one, jobs))
    tallies = []
    for job in jobs:
        tallies.append(fuzz_one(job))
        done = tallies[-1]
        print(  # progress, so a long run that is stopped still says how far it got
            f"done {done.game}/{done.preset}: {done.actions} actions, {done.games} games, "
            f"{done.seconds:.0f} s, {len(done.failures)} failures"
            + (f", hidden twins {dict(done.hidden)}" if done.hidden else ""),
            file=sys.stderr,
            flush=True,
        )
    return tallies


def main(argv: list[str] | None = None, *, root: Path = ROOT) -> int:
    """The command (``argv``: its flags, default the process's); ``root``: the checkout whose
    commit each ledger entry records. Returns the exit status."""
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--actions", type=int, default=2000, help="per game x preset")
    parser.add_argument(
        "--seconds", type=float, default=float("inf"), help="play time cap per game x preset"
    )
    parser.add_argument("--game", help="one game (default: all)")
    parser.add_argument("--preset", help="one preset (default: all of each game)")
    parser.add_argument(
        "--seed", default="0", help="base seed (an integer), or 'next': one the ledger has not used"
    )
    parser.add_argument(
        "--window",
        type=int,
        default=0,
        help="check only this many plies per game, from a random ply (0: whole games)",
    )
    parser.add_argument(
        "--yardstick",
        type=float,
        default=0.0,
        help="seconds of unchecked random playout before and after each preset (speed ratio)",
    )
    parser.add_argument("--mutations", type=int, default=50, help="cases per kind per preset")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", help="also write the full report to this file")
    parser.add_argument("--repro", help="rerun one case KIND:GAME:PRESET:SEED with a traceback")
    parser.add_argument("--ledger", help="add each finished chunk's totals to this JSON ledger")
    parser.add_argument("--report", action="store_true", help="print the ledger's totals, exit")
    parser.add_argument(
        "--chunks", type=int, default=1, help="run this many chunks, each with the next seed"
    )
    parser.add_argument(
        "--seed-from",
        type=int,
        default=fuzz_ledger.FIRST_SEED,
        help="--seed next: the smallest unused seed from this one (one block per machine)",
    )
    parser.add_argument("--stop-file", help="start no new chunk once this file exists")
    parser.add_argument(
        "--skip-done",
        action="store_true",
        help="leave out game x presets the ledger has at the goal (10^6 actions)",
    )
    args = parser.parse_args(argv)
    if args.repro:
        return repro(args.repro)
    if args.seed != "next" and not re.fullmatch(r"-?[0-9]+", args.seed):
        parser.error(f"--seed must be an integer or 'next', not {args.seed!r}")
    if (args.report or args.seed == "next" or args.skip_done) and not args.ledger:
        parser.error("--report, --seed next and --skip-done need --ledger FILE")
    ledger_path = Path(args.ledger) if args.ledger else None
    rules = {spec.id: spec.rules_version for spec in all_games()}
    try:
        if ledger_path is not None and args.report:
            ledger = fuzz_ledger.load(ledger_path)
            print(fuzz_ledger.report(ledger, rules, pairs_for(args)))
            return 0
        commit = fuzz_ledger.code_version(root)
        seed = None if args.seed == "next" else int(args.seed)
        status = 0
        for chunk in range(args.chunks):
            if args.stop_file and os.path.exists(args.stop_file):
                print(f"stop file {args.stop_file} found: no further chunk", file=sys.stderr)
                break
            pairs = pairs_for(args)
            if ledger_path is not None:
                ledger = fuzz_ledger.load(ledger_path)
                if args.skip_done:
                    pairs = [
                        (g, p)
                        for g, p in pairs
                        if fuzz_ledger.counted(ledger, g, p, rules[g]) < fuzz_ledger.GOAL
                    ]
                    if not pairs:
                        print("every game x preset is at the goal", file=sys.stderr)
                        break
                if seed is None or (args.seed == "next" and chunk):
                    seed = fuzz_ledger.next_seed(ledger, args.seed_from)
                taken = fuzz_ledger.clashes(ledger, pairs, seed)
                if taken:
                    print(
                        f"error: seed {seed} is already in {ledger_path} for {', '.join(taken)}: "
                        "those games are counted; use another --seed, or --seed next",
                        file=sys.stderr,
                    )
                    return 2
            assert seed is not None
            start = time.perf_counter()
            print(f"chunk {chunk + 1}/{args.chunks}: seed {seed}", file=sys.stderr, flush=True)
            tallies = run_chunk(args, jobs_for(args, seed, pairs))
            summary = report(tallies, time.perf_counter() - start)
            summary["command"] = " ".join(["python", "scripts/fuzz.py", *(argv or sys.argv[1:])])
            summary["seed"] = seed
            if args.json:
                with open(args.json, "w", encoding="utf-8") as handle:
                    json.dump(summary, handle, indent=1)
            if ledger_path is not None:
                fuzz_ledger.add_chunk(
                    ledger_path,
                    [
                        fuzz_ledger.entry(t, seed, commit, rules[t.game], args.window)
                        for t in tallies
                    ],
                )
                print(f"added chunk (seed {seed}) to {ledger_path}", file=sys.stderr, flush=True)
            if summary["failures_by_kind"]:
                status = 1
                break  # a failure stops a campaign: get the reproducer first
            if args.seed != "next":
                seed += 1
        return status
    except fuzz_ledger.LedgerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
