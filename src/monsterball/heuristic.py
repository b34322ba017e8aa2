"""The game-independent half of the heuristic bots: how a game's own heuristic is found,
and the greedy one-step look-ahead that turns a position evaluation into a policy.

Each game may ship a ``heuristic`` module in its own package (for example
``monsterball.games.huck_monster.heuristic``); this module never names a game. The module
may define:

``evaluate(state) -> float``
    How good the position is for seat 0, in [-1, 1] (+1 a sure win). Two-seat zero-sum
    games only need this one number; seat 1's value is its negation.
``policy(state, seat, legal, rng) -> Action | None``
    A rule for some decisions (which throw, whether to add a strategy die); None leaves the
    decision to the greedy look-ahead.
``determinize(state, seat, rng) -> GameState``
    A copy of ``state`` in which everything ``seat`` may not see (``view(seat)``) is
    sampled afresh, consistent with what it does see. Games with hidden information must
    define it; search bots call it instead of reading the truth.
``candidates(state, seat, legal, rng, k) -> list[Action]``
    Which few of a long legal list are worth a look (default: a seeded sample plus the
    'end' action).
``VERSION``
    A string to change whenever the bots' decisions change on purpose (default "1"):
    strength ledgers (``scripts/strength.py``) count games per version.
``plan(heuristic, state, seat, rng, tries) -> list[Action] | None`` and ``plan_key(state)``
    A plan for a stretch of decisions (Midway: the offense's whole movement phase), made
    from ``tries`` play-outs on determinized copies, or None where the game does not plan;
    ``plan_key`` names the stretch a plan belongs to. Bots follow it with
    :class:`PlanFollower`.
``final(state) -> float``
    Seat 0's value of a finished game, within [-1, 1] (default: the result, +-1), for an
    evaluation that goes on telling results apart by the score once the winner is sure.
``binding(state, legal) -> bool``
    Whether ``policy`` decides here for the search bot too (default: never): decisions the
    evaluation cannot tell apart, where a search only finds which choice reaches the next
    evaluated position soonest (Midway: the draft and the formations).

A game without the module gets :data:`GENERIC`: the score and the final result only.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE, GameSpec, GameState

Evaluate = Callable[[GameState], float]
Policy = Callable[[GameState, int, Sequence[Action], random.Random], Action | None]
Determinize = Callable[[GameState, int, random.Random], GameState]
Candidates = Callable[[GameState, int, Sequence[Action], random.Random, int], list[Action]]
# The game's planner is handed the heuristic it plays out with (games sit below this module).
Planner = Callable[["Heuristic", GameState, int, random.Random, int], list[Action] | None]
PlanKey = Callable[[GameState], Any]
Binding = Callable[[GameState, Sequence[Action]], bool]


def terminal_value(state: GameState, seat: int) -> float:
    return float(state.returns()[seat])


def score_evaluate(state: GameState) -> float:
    """The fallback evaluation: the result when over, else a squashed score difference."""
    if state.is_terminal():
        return terminal_value(state, 0)
    score = state.view().get("score")
    values: list[float] = []
    if isinstance(score, dict):
        values = [float(v) for v in score.values()]
    elif isinstance(score, list | tuple):
        values = [float(v) for v in score]
    if len(values) < 2:
        return 0.0
    return math.tanh((values[0] - values[1]) / 3.0)


def sample_candidates(
    state: GameState, seat: int, legal: Sequence[Action], rng: random.Random, k: int
) -> list[Action]:
    """Up to ``k`` distinct legal actions drawn at random, plus any 'end' action (stopping
    is always worth weighing against moving on)."""
    if len(legal) <= k:
        return list(legal)
    picked = rng.sample(range(len(legal)), k)
    out = [legal[i] for i in picked]
    for action in legal[-2:]:
        if action.notation() == "end" and action not in out:
            out.append(action)
    return out


@dataclass(frozen=True)
class Heuristic:
    """A game's heuristic, with defaults filled in."""

    game: str
    evaluate: Evaluate
    policy: Policy | None = None
    determinize: Determinize | None = None
    candidates: Candidates = sample_candidates
    plan: Planner | None = None
    plan_key: PlanKey | None = None
    version: str = "1"
    # Seat 0's value of a finished game, for a game whose evaluation goes on telling
    # results apart by the score (None: the result alone, +-1). With the result alone a
    # side that has lost either way judged any move that ended the game worse than one
    # that kept it going.
    final: Evaluate | None = None
    # Decisions the policy makes for the search bot too (None: none).
    binding: Binding | None = None

    def value(self, state: GameState, seat: int) -> float:
        """The evaluation from ``seat``'s side (two-seat zero-sum games)."""
        if state.is_terminal():
            if self.final is None:
                return terminal_value(state, seat)
            v = self.final(state)
        else:
            v = self.evaluate(state)
        return v if seat == 0 else -v

    @property
    def hidden_information(self) -> bool:
        return self.determinize is not None


GENERIC = Heuristic("generic", score_evaluate)


def heuristic_for(spec: GameSpec) -> Heuristic:
    """The heuristic in ``spec``'s package, or :data:`GENERIC` if it has none."""
    return _heuristic_in(spec.id, spec.state_type.__module__.rsplit(".", 1)[0])


@cache
def _heuristic_in(game: str, package: str) -> Heuristic:
    try:
        module: Any = importlib.import_module(f"{package}.heuristic")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.heuristic":
            raise
        return GENERIC
    return Heuristic(
        game,
        module.evaluate,
        getattr(module, "policy", None),
        getattr(module, "determinize", None),
        getattr(module, "candidates", sample_candidates),
        getattr(module, "plan", None),
        getattr(module, "plan_key", None),
        str(getattr(module, "VERSION", "1")),
        getattr(module, "final", None),
        getattr(module, "binding", None),
    )


def settle_value(
    heuristic: Heuristic,
    state: GameState,
    seat: int,
    rng: random.Random,
    *,
    samples: int = 3,
    max_chance: int = 8,
) -> float:
    """The value of ``state`` for ``seat`` after the dice in front of it have fallen.

    At a chance node the value is the expectation over its outcomes: exact over the first
    chance step when it has at most ``max_chance`` outcomes, else an average over
    ``samples`` seeded draws; later chance steps (until the next decision) are sampled.
    """
    if state.current_player() != CHANCE:
        return heuristic.value(state, seat)
    outcomes = state.chance_outcomes()
    if len(outcomes) <= max_chance:
        total = 0.0
        for action, p in outcomes:
            child = state.clone()
            child.apply_unchecked(action)
            total += float(p) * _roll_on(heuristic, child, seat, rng)
        return total
    sampler = SeededSampler(rng.getrandbits(32))
    acc = 0.0
    for _ in range(samples):
        child = state.clone()
        child.apply_unchecked(sampler.choose(outcomes))
        acc += _roll_on(heuristic, child, seat, rng)
    return acc / samples


def _roll_on(heuristic: Heuristic, state: GameState, seat: int, rng: random.Random) -> float:
    """Sample further chance steps (a few at most) until a decision or the end."""
    steps = 0
    while state.current_player() == CHANCE and steps < 6:
        outcomes = state.chance_outcomes()
        r = rng.random()
        acc = 0.0
        chosen = outcomes[-1][0]
        for action, p in outcomes:
            acc += float(p)
            if r < acc:
                chosen = action
                break
        state.apply_unchecked(chosen)
        steps += 1
    return heuristic.value(state, seat)


def greedy_choice(
    heuristic: Heuristic,
    state: GameState,
    seat: int,
    legal: Sequence[Action],
    rng: random.Random,
    *,
    width: int = 12,
) -> Action:
    """The game's rule if it has one for this decision, else the best of ``width`` sampled
    candidates by the value after the action (and the dice it brings) is played out."""
    if len(legal) == 1:
        return legal[0]
    if heuristic.policy is not None:
        ruled = heuristic.policy(state, seat, legal, rng)
        if ruled is not None:
            return ruled
    best: Action = legal[0]
    best_value = -math.inf
    for action in heuristic.candidates(state, seat, legal, rng, width):
        child = state.clone()
        child.apply_unchecked(action)
        value = settle_value(heuristic, child, seat, rng)
        if value > best_value:
            best, best_value = action, value
    return best


MAX_STREAK = 64


class StreakGuard:
    """Breaks endless runs of one seat's decisions with no dice in between (some rules
    allow, say, handing the ball back and forth forever, and a deterministic bot can find
    such a cycle): after ``MAX_STREAK`` such decisions in a row the bot plays 'end' if it
    may, else a random legal action, until the run is broken."""

    def __init__(self) -> None:
        self.last_ply = -2
        self.last_seat = -1
        self.streak = 0

    def override(
        self, state: GameState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        if state.ply == self.last_ply + 1 and seat == self.last_seat:
            self.streak += 1
        else:
            self.streak = 0
        self.last_ply, self.last_seat = state.ply, seat
        if self.streak < MAX_STREAK:
            return None
        for action in legal:
            if action.notation() == "end":
                return action
        return legal[rng.randrange(len(legal))]

    def obvious(
        self, state: GameState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        """The move to play without thinking: a streak-breaking one, or the only legal one.
        Raises if there is none (a bot asked to move when it cannot)."""
        if not legal:
            raise ValueError(f"no legal action for seat {seat} at ply {state.ply}")
        forced = self.override(state, seat, legal, rng)
        if forced is not None:
            return forced
        return legal[0] if len(legal) == 1 else None


class PlanFollower:
    """Plays a game's plan (``Heuristic.plan``) decision by decision: asks for a new plan at
    every decision (the game says where it plans, e.g. at the start of a phase), then plays
    the plan's next action while the plan's stretch (``plan_key``) lasts and that action is
    legal; otherwise returns None and the bot decides as usual."""

    def __init__(self, tries: int) -> None:
        self.tries = tries
        self.key: Any = None
        self.actions: list[Action] = []

    def choose(
        self,
        heuristic: Heuristic,
        state: GameState,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action | None:
        if heuristic.plan is None or heuristic.plan_key is None or self.tries < 1:
            return None
        key = (seat, heuristic.plan_key(state))
        fresh = heuristic.plan(heuristic, state, seat, rng, self.tries)
        if fresh:
            self.key, self.actions = key, list(fresh)
        if self.actions and self.key == key and self.actions[0] in legal:
            return self.actions.pop(0)
        self.actions = []
        return None
