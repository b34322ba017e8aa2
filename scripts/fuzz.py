"""Fuzz every game x preset: random legal play with invariant checks after every action,
then mutation fuzzers that feed broken records, positions, notation and options to the
readers and require a clean error.

Random play (per game x preset, until ``--actions`` or ``--seconds`` is reached). Half the
games draw chance outcomes by their probability (seeded, and the record must verify the
dice); the other half draw them uniformly and pick decisions uniformly by kind of action
first (so rare outcomes and rare actions such as spells come up). After every action:

- nothing raises (apply, legal actions, chance outcomes, every seat's view, render);
- a state that is not terminal offers actions (distinct ones), chance outcomes are
  Fractions in (0, 1] that sum to exactly 1;
- a clone equals the state and playing on it leaves the state unchanged;
- the position round-trips through JSON (same position, same hash, same legal actions);
- legal actions' notations parse back to the same action (12 a ply; one that read back
  already in this game is not parsed again), and no two different actions offered are
  written alike;
- Midway: swapping the real mirror-image caster with an image, or moving the invisible
  player to another free hex, changes nothing the other seat or a spectator sees (view,
  render) nor, when the other seat is to act, its legal actions.

At the end of each game its record must read back and verify. (The per-action checks are
in fuzz_checks.py; the campaign ledger, --ledger, in fuzz_ledger.py.)

Mutation fuzzers (``--mutations`` cases per kind per game x preset): a broken record must
raise RecordError or replay to a divergence; a broken position must raise
MonsterballError (PositionError, OptionsError), or load into a state that can be viewed and
played without any other exception; a mangled notation must raise NotationError or give an
action that is legal or refused with IllegalActionError; mangled option text and values must
raise OptionsError or give options that start a game.

    python scripts/fuzz.py [--actions 2000] [--seconds S] [--game G] [--preset P]
                           [--seed 0] [--mutations 50] [--jobs 1] [--json FILE]
    python scripts/fuzz.py --repro KIND:GAME:PRESET:SEED     # rerun one case, traceback
    python scripts/fuzz.py --ledger scripts/ledgers/fuzz.json --seed next [--chunks N]
                           [--skip-done] [--stop-file F]  # a campaign, in chunks
    python scripts/fuzz.py --ledger scripts/ledgers/fuzz.json --report   # its totals (markdown)

Exit status 1 when a failure is found that is not on the KNOWN allow-list.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import re
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import (
    IllegalActionError,
    NotationError,
    OptionsError,
    PositionError,
    RecordError,
)
from monsterball.core.game import GameSpec, GameState
from monsterball.core.record import Recorder, read_record, replay
from monsterball.games import all_games, get_game

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_ledger  # siblings of this script, not a package
from fuzz_checks import (
    HIDDEN_CHECKS,
    ActionMemo,
    Found,
    check_chance,
    check_hidden,
    check_rng,
    check_state,
    describe,
    pick_decision,
)

__all__ = ["Found", "check_state"]  # used through this module by tests/scripts/test_fuzz.py

MAX_PLIES = 50_000  # a game longer than this is reported as endless
MAX_SKIP = 2000  # a checked window starts before this ply (and before the longest game seen)

# Known bugs owned by another branch: (kind, game, text in the message) -> who fixes it.
# A failure matching an entry is listed as known, not counted as a failure. The lead
# empties this list after merging the branches that fix them.
KNOWN: dict[tuple[str, str, str], str] = {
    # Empty: the entries for the Cone Push negative count and the unvalidated Midway and
    # Huck + Monster board fields went when hm-rules and midway-rules were merged (their
    # reproducers in CHANGELOG.md 0.1.0 "Fuzzing" now pass). Example of an entry:
    # ("position", "huck-monster", "'ConeThrows' field 'left' is out of range"): "hm-rules",
}


@dataclass
class Failure:
    kind: str
    game: str
    preset: str
    seed: int
    ply: int
    message: str
    known: str = ""

    @property
    def reproducer(self) -> str:
        return f"python scripts/fuzz.py --repro {self.kind}:{self.game}:{self.preset}:{self.seed}"


@dataclass
class Tally:
    game: str
    preset: str
    actions: int = 0
    games: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # CPU time of the checked play (the ledger's rate, load-proof)
    plain_rate: float = 0.0  # unchecked random playout actions/s, same process (yardstick)
    mutations: Counter[str] = field(default_factory=Counter)
    hidden: Counter[str] = field(default_factory=Counter)  # Midway twins compared
    failures: list[Failure] = field(default_factory=list)


def known_reason(kind: str, game: str, message: str) -> str:
    for (k, g, text), reason in KNOWN.items():
        if k == kind and g == game and text in message:
            return reason
    return ""


# -- random legal play ------------------------------------------------------------------


def play_game(
    spec: GameSpec,
    preset: str,
    seed: int,
    *,
    limit: int | None = None,
    window: int = 0,
    skip: int = 0,
    deadline: float = float("inf"),
) -> tuple[int, int]:
    """One random game, checked after every action (with ``window``: only ``window`` plies
    from a random ply under ``skip``, the plies before it played unchecked); stops after
    ``limit`` checked actions or at ``deadline``. Returns (actions checked, plies of the game
    if it ended, else 0); raises Found
    or whatever the engine raised. The game played depends only on ``seed``."""
    rng = random.Random(seed)
    by_probability = seed % 2 == 0
    sampler = SeededSampler(seed)
    state = spec.new_game(spec.options(preset))
    recorder = Recorder(state, seed=seed if by_probability else None, hash_every=8)
    midway = spec.id == "midway"
    first = random.Random(~seed).randrange(skip) if window and skip > 0 else 0
    last = first + window if window else MAX_PLIES
    checked = 0
    memo = ActionMemo()  # each action's notation (once read back) and kind, this game
    # What the checks listed for the current ply: (decisions, chance outcomes), or None.
    listed: tuple[list[Action], list[tuple[Action, Fraction]]] | None = None

    def check() -> tuple[list[Action], list[tuple[Action, Fraction]]] | None:
        if not first <= state.ply <= last:
            return None
        got = check_state(spec, state, check_rng(seed, state.ply), memo)
        if midway:
            check_hidden(state, check_rng(seed, state.ply), got[0])
        return got

    listed = check()
    while not state.is_terminal():
        if state.ply >= MAX_PLIES:
            raise Found("endless", f"no end after {MAX_PLIES} plies")
        if state.ply >= last or (limit is not None and checked >= limit):
            break
        if state.is_chance():
            outcomes = listed[1] if listed is not None else state.chance_outcomes()
            if by_probability:
                action = sampler.choose(outcomes)
            else:
                action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = listed[0] if listed is not None else state.legal_actions()
            action = pick_decision(rng, legal, not by_probability, memo)
        # Unchecked: the action was picked from the legal list just checked; the record's
        # replay below applies every action again through the checked apply().
        recorder.apply(action, checked=False)
        listed = None
        if state.ply >= first:
            listed = check()
            checked += 1
            if checked & 31 == 0 and time.perf_counter() > deadline:
                break
    text = recorder.record.to_text()
    report = replay(read_record(text), verify=True)
    if not report.ok:
        raise Found("record", f"the game's own record does not verify: {report.divergence}")
    return checked, state.ply if state.is_terminal() else 0


# -- mutations --------------------------------------------------------------------------

JUNK: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.0,
    1e308,
    10**30,
    "",
    "x",
    "\x85",
    "\u2028",
    "²",
    "٣",
    "A1",
    "a1",
    [],
    [1],
    {},
    {"step": "x"},
    "\ud800",
]
CHARS = "0123456789abcdefghABCDXYZ -=,;:./\n\r\t\x00\x85\u2028²٣１ⅷ'\"{}[]"


def mutate_text(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        where = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(where, len(chars) - 1)]
        elif op == 1:
            chars.insert(where, rng.choice(CHARS))
        elif op == 2 and chars:
            chars[min(where, len(chars) - 1)] = rng.choice(CHARS)
        else:
            chars[where:where] = list(rng.choice(["1" * 40, " ", "=", "-", "²", "99"]))
    return "".join(chars)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def mutate_json(rng: random.Random, data: Any) -> Any:
    data = json.loads(json.dumps(data))
    for _ in range(rng.randint(1, 2)):
        where = rng.choice(list(paths(data)))
        if not where:
            continue
        parent = data
        for step in where[:-1]:
            parent = parent[step]
        key, old = where[-1], parent[where[-1]]
        op = rng.randrange(5)
        if op == 0:
            parent[key] = rng.choice(JUNK)
        elif op == 1 and isinstance(old, int) and not isinstance(old, bool):
            parent[key] = old + rng.choice([-1, 1, -100, 100, 1000])
        elif op == 2 and isinstance(old, str):
            parent[key] = mutate_text(rng, old)
        elif op == 3 and isinstance(parent, dict):
            del parent[key]
        elif op == 4 and isinstance(parent, list):
            parent.append(json.loads(json.dumps(old)))
        else:
            parent[key] = rng.choice(JUNK)
    return data


def sample_states(spec: GameSpec, preset: str, seed: int, count: int) -> list[GameState]:
    """States along the first plies (a random number under 1500) of one random game, for
    the mutation fuzzers to start from."""
    rng, sampler = random.Random(seed), SeededSampler(seed)
    state = spec.new_game(spec.options(preset))
    seen = [state.clone()]
    stop = rng.randrange(1500)
    while not state.is_terminal() and state.ply < stop:
        if state.is_chance():
            state.apply(sampler.choose(state.chance_outcomes()))
        else:
            state.apply(pick_decision(rng, state.legal_actions(), by_kind=True))
        seen.append(state.clone())
    return rng.sample(seen, min(count, len(seen)))


def exercise(state: GameState, rng: random.Random, steps: int = 6) -> None:
    """Use a state that loaded: every view, then a few random actions."""
    for _ in range(steps):
        for seat in (None, *range(state.num_seats)):
            state.view(seat)
            state.render(seat)
        state.to_position()
        if state.is_terminal():
            return
        actions = [a for a, _ in check_chance(state)] if state.is_chance() else None
        actions = actions if actions is not None else state.legal_actions()
        if not actions:
            raise Found("no-actions", "a loaded position offers no action")
        state.apply(rng.choice(actions))


def mutate_record(spec: GameSpec, preset: str, seed: int) -> None:
    rng = random.Random(seed)
    state = sample_states(spec, preset, seed, 1)[0]
    recorder = Recorder(state, seed=None, hash_every=4)
    for _ in range(rng.randint(0, 30)):
        if state.is_terminal():
            break
        actions = state.legal_actions()  # at a chance node: the outcomes
        recorder.apply(rng.choice(actions))
    lines = recorder.record.to_text().split("\n")[:-1]
    number = rng.randrange(len(lines))
    op = rng.randrange(5)
    if op == 0:
        lines[number] = json.dumps(mutate_json(rng, json.loads(lines[number])), ensure_ascii=False)
    elif op == 1:
        lines[number] = mutate_text(rng, lines[number])
    elif op == 2:
        del lines[number]
    elif op == 3:
        lines.insert(number, lines[rng.randrange(len(lines))])
    else:
        lines[number] = rng.choice(
            ["[" * 5000, '{"ply": ' + "9" * 5000 + "}", "\x00", '{"end": {}}', "null", ""]
        )
    text = "\n".join(lines) + "\n"
    with contextlib.suppress(RecordError):  # refused cleanly, or replayed to a divergence
        replay(read_record(text), verify=True)


def mutate_position(spec: GameSpec, preset: str, seed: int) -> None:
    rng = random.Random(seed)
    state = sample_states(spec, preset, seed, 1)[0]
    data = mutate_json(rng, state.to_position())
    try:
        loaded = spec.from_position(data)
    except (PositionError, OptionsError):
        return
    exercise(loaded, rng)


def mutate_notation(spec: GameSpec, preset: str, seed: int) -> None:
    rng = random.Random(seed)
    for state in sample_states(spec, preset, seed, 5):
        if state.is_terminal():
            continue
        actions = state.legal_actions()  # at a chance node: the outcomes
        text = mutate_text(rng, rng.choice(actions).notation())
        try:
            action = spec.parse_action(text)
        except NotationError:
            continue
        try:
            state.apply(action)
        except IllegalActionError:
            continue
        exercise(state, rng, steps=2)


def mutate_options(spec: GameSpec, preset: str, seed: int) -> None:
    rng = random.Random(seed)
    kind = spec.options_type
    infos = kind.describe()
    info = rng.choice(infos)
    base = spec.options(preset).to_dict()
    if rng.random() < 0.5:
        raw = mutate_text(rng, str(base[info.name]).lower())
        try:
            overrides = kind.parse_assignments([f"{info.name}={raw}"])
            options = kind.from_preset(preset, overrides)
        except OptionsError:
            return
    else:
        values = mutate_json(rng, base)
        try:
            options = kind.from_dict(values if isinstance(values, dict) else {})
        except OptionsError:
            return
    state = spec.new_game(options)
    exercise(state, rng, steps=20)


MUTATORS: dict[str, Callable[[GameSpec, str, int], None]] = {
    "mutation-record": mutate_record,
    "mutation-position": mutate_position,
    "mutation-notation": mutate_notation,
    "mutation-options": mutate_options,
}


# -- running ----------------------------------------------------------------------------


def run_case(
    kind: str, spec: GameSpec, preset: str, seed: int, **play: Any
) -> tuple[tuple[int, int], Failure | None]:
    """One game (``play`` as for play_game) or one mutation case: (actions checked,
    failure or None)."""
    try:
        if kind in MUTATORS:
            MUTATORS[kind](spec, preset, seed)
            return (0, 0), None
        return play_game(spec, preset, seed, **play), None
    except Found as found:
        fail_kind = found.kind if kind == "play" else kind
        message = f"{found.kind}: {found}" if kind != "play" else str(found)
        return (0, 0), Failure(fail_kind, spec.id, preset, seed, -1, message)
    except Exception as exc:  # the point is to catch anything
        fail_kind = "exception" if kind == "play" else kind
        where = traceback.extract_tb(exc.__traceback__)[-1]
        message = f"{describe(exc)} at {where.filename.split('src/')[-1]}:{where.lineno}"
        return (0, 0), Failure(fail_kind, spec.id, preset, seed, -1, message)


@dataclass(frozen=True)
class Job:
    game: str
    preset: str
    seed: int
    actions: int
    seconds: float
    mutations: int
    window: int
    yardstick: float = 0.0


def fuzz_one(job: Job) -> Tally:
    game, preset, seed = job.game, job.preset, job.seed
    spec = get_game(game)
    tally = Tally(game, preset)
    before = plain_rate(spec, preset, job.yardstick) if job.yardstick else 0.0
    hidden_before = HIDDEN_CHECKS.copy()
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + job.seconds
    index = 0
    lengths: list[int] = []  # plies of the games that ended: where a window may start
    while tally.actions < job.actions and time.perf_counter() < deadline:
        (played, plies), failure = run_case(
            "play",
            spec,
            preset,
            case_seed(seed, game, preset, "play", index),
            limit=job.actions - tally.actions,
            window=job.window,
            skip=min(MAX_SKIP, max(lengths)) if lengths else MAX_SKIP,
            deadline=deadline,
        )
        index += 1
        tally.games += 1
        tally.actions += played
        if plies:
            lengths.append(plies)
        if failure is not None:
            tally.failures.append(failure)
            tally.actions += 1  # the game stopped at the failure; count it as progress
    tally.seconds = time.perf_counter() - start
    tally.cpu_seconds = time.process_time() - cpu
    tally.hidden = HIDDEN_CHECKS - hidden_before
    if job.yardstick:
        tally.plain_rate = (plain_rate(spec, preset, job.yardstick) + before) / 2
    for kind in MUTATORS:
        for index in range(job.mutations):
            _, failure = run_case(kind, spec, preset, case_seed(seed, game, preset, kind, index))
            tally.mutations[kind] += 1
            if failure is not None:
                tally.failures.append(failure)
    for failure in tally.failures:
        failure.known = known_reason(failure.kind, failure.game, failure.message)
    return tally


def plain_rate(spec: GameSpec, preset: str, seconds: float) -> float:
    """Unchecked random playout (apply_unchecked, as scripts/bench.py) actions/s: the
    yardstick that checked actions/s are divided by, so machine load mostly cancels."""
    rng, sampler = random.Random(0), SeededSampler(0)
    state, actions = spec.new_game(spec.options(preset)), 0
    stop = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < stop:
        for _ in range(64):
            if state.is_terminal():
                state = spec.new_game(spec.options(preset))
            if state.is_chance():
                state.apply_unchecked(sampler.choose(state.chance_outcomes()))
            else:
                legal = state.legal_actions()
                state.apply_unchecked(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (time.perf_counter() - start)


def case_seed(seed: int, game: str, preset: str, kind: str, index: int) -> int:
    """An independent seed per case (Python's own hash() of a string is salted per run)."""
    digest = hashlib.sha256(f"fuzz:{seed}:{game}:{preset}:{kind}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def signature(failure: Failure) -> str:
    text = failure.message
    for digit in "0123456789":
        text = text.replace(digit, "#")
    return f"{failure.kind} {failure.game} {text[:120]}"


def report(tallies: list[Tally], elapsed: float) -> dict[str, Any]:
    failures = [f for t in tallies for f in t.failures]
    real = [f for f in failures if not f.known]
    print(
        f"{'game':14} {'preset':18} {'actions':>9} {'games':>6} {'act/s':>7} "
        f"{'plain/s':>8} {'ratio':>7} {'fail':>5}"
    )
    for t in tallies:
        rate = t.actions / t.seconds if t.seconds else 0.0
        ratio = f"{rate / t.plain_rate:7.4f}" if t.plain_rate else f"{'-':>7}"
        bad = sum(1 for f in t.failures if not f.known)
        print(
            f"{t.game:14} {t.preset:18} {t.actions:9d} {t.games:6d} {rate:7.0f} "
            f"{t.plain_rate:8.0f} {ratio} {bad:5d}"
        )
    actions = sum(t.actions for t in tallies)
    games = sum(t.games for t in tallies)
    mutations = sum(sum(t.mutations.values()) for t in tallies)
    print(f"total: {actions} actions, {games} games, {mutations} mutation cases, {elapsed:.0f} s")
    hidden = sum((t.hidden for t in tallies), Counter[str]())
    if hidden:
        print(
            "Midway hidden-information twins compared: "
            + ", ".join(f"{what} {n}" for what, n in sorted(hidden.items()))
        )
    by_kind = Counter(f.kind for f in real)
    print(
        "failures by kind: " + (", ".join(f"{k} {n}" for k, n in sorted(by_kind.items())) or "none")
    )
    groups: dict[str, list[Failure]] = {}
    for failure in failures:
        groups.setdefault(signature(failure), []).append(failure)
    for group in groups.values():
        first = group[0]
        label = f"KNOWN ({first.known})" if first.known else "FAIL"
        print(f"{label} x{len(group)} [{first.kind}] {first.game}/{first.preset}: {first.message}")
        for failure in group[:3]:
            print(f"    {failure.reproducer}")
    return {
        "elapsed_seconds": elapsed,
        "actions": actions,
        "games": games,
        "mutation_cases": mutations,
        "failures_by_kind": dict(by_kind),
        "known": sum(1 for f in failures if f.known),
        "per_preset": [
            {
                "game": t.game,
                "preset": t.preset,
                "actions": t.actions,
                "games": t.games,
                "seconds": t.seconds,
                "actions_per_second": t.actions / t.seconds if t.seconds else 0.0,
                "plain_actions_per_second": t.plain_rate,
                "mutations": dict(t.mutations),
                "hidden_twins": dict(t.hidden),
            }
            for t in tallies
        ],
        "failures": [{**asdict(f), "reproducer": f.reproducer} for f in failures],
    }


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
    """Build each game x preset's tables (Midway's field geometry: seconds) here, once: the
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
        commit = fuzz_ledger.code_version(Path(__file__).resolve().parent.parent)
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
