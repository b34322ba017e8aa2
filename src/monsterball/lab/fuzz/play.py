"""Random legal play, checked after every action, and the runs that tally it: one case
(``run_case``: a game or a mutation case), one game x preset of a chunk (``fuzz_one``)."""

from __future__ import annotations

import hashlib
import random
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler
from monsterball.core.game import GameSpec
from monsterball.core.record import Recorder, read_record, replay
from monsterball.games import get_game
from monsterball.lab.fuzz.checks import (
    HIDDEN_CHECKS,
    ActionMemo,
    Found,
    check_hidden,
    check_rng,
    check_state,
    describe,
    pick_decision,
)
from monsterball.lab.fuzz.mutations import MUTATORS

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
    hidden: Counter[str] = field(default_factory=Counter)  # hidden-information twins compared
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
    twins = spec.checks is not None and spec.checks.twins is not None
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
        if twins:
            check_hidden(spec, state, check_rng(seed, state.ply), got[0])
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
