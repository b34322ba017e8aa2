"""Midway's phase planner: the offense's whole movement phase chosen at once.

A team moves its players one at a time, the carrier one hex per action (ruling MW-R5), and
blocks are only rolled "at the end of the offensive movement phase" (MW-BLOCK-1): judged a
move at a time, a blocker's step and the carrier's run behind him look no better than
standing still until the phase is over, and a search that spends its budget one counter
move at a time sees little past the current phase (the hard bot drew 0 - 0 with the
heuristic over four downs). The planner instead plays the phase to its end many times:

- each try starts from a fresh determinization (the other side's secrets sampled from
  what the planning seat sees: a plan never reads the real caster or where an invisible
  player reappears), then plays the seat's decisions by a noisy greedy choice (the first
  try noiseless: the plain greedy phase is always among the plans; the next ones open
  with each of the first decision's candidates in turn) and the other side's
  mid-phase decisions (tackle tries) and the dice as they come, until the next phase
  begins;
- a plan is judged by the evaluation when the phase is over (blocks and tackles rolled),
  averaged over fresh dice and determinizations for the best few;
- the bot then plays the best plan's actions while they stay legal, and plans again at
  the start of its next phase.

Only the offense (the team holding the ball, at the first decision of its phase) plans;
everything else is left to the bot's usual choice.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE, GameState
from monsterball.games.midway.rules.phases import Phase
from monsterball.games.midway.state import MidwayState, team_of


class PlayOuts(Protocol):
    """What a play-out asks of the heuristic (``monsterball.bots.heuristic.Heuristic``, in the
    bots' layer above the games: it hands itself to the planner)."""

    @property
    def policy(self) -> Callable[..., Action | None] | None: ...

    @property
    def determinize(self) -> Callable[..., GameState] | None: ...

    @property
    def candidates(self) -> Callable[..., list[Action]]: ...

    def value(self, state: GameState, seat: int) -> float: ...


STEP_WIDTH = 8  # candidates weighed at each step of a try
FIRST_WIDTH = 12  # openings of the phase, each tried once before the noisy tries
NOISE = 0.35  # chance that a step of a noisy try takes a random candidate of the best three
REPLAYS = 3  # extra dice / determinizations for each of the best plans
FINALISTS = 3
HORIZON = 2  # phases played out: the seat's own, then the other side's reply
MAX_STEPS = 80  # decisions and dice in one play-out at most (a handoff back and forth
# could otherwise run on: see heuristic.StreakGuard)


def plan_key(state: GameState) -> tuple[int, int]:
    """Which phase a plan belongs to: (plays, phases) of the play under way."""
    assert isinstance(state, MidwayState)
    return state.plays, state.phases


def should_plan(state: GameState, seat: int) -> bool:
    """At the first decision of ``seat``'s movement phase, holding the ball."""
    assert isinstance(state, MidwayState)
    top = state.stack[-1] if state.stack else None
    return (
        isinstance(top, Phase)
        and top.team == seat
        and top.acted == 0
        and top.moving < 0
        and state.carrier >= 0
        and team_of(state.carrier) == seat
        and not state.phase_over
    )


def _step(h: PlayOuts, state: GameState, seat: int, rng: random.Random, noise: float) -> Action:
    """A greedy choice for ``seat`` by a one-step look-ahead, now and then one of the next
    best (the noise that makes the tries differ)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if h.policy is not None:
        ruled = h.policy(state, seat, legal, rng)
        if ruled is not None:
            return ruled
    scored: list[tuple[float, int, Action]] = []
    for i, action in enumerate(h.candidates(state, seat, legal, rng, STEP_WIDTH)):
        child = state.clone()
        child.apply_unchecked(action)
        scored.append((h.value(child, seat), -i, action))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    if noise and rng.random() < noise:
        return scored[rng.randrange(min(3, len(scored)))][2]
    return scored[0][2]


def _play_out(
    h: PlayOuts,
    state: GameState,
    seat: int,
    rng: random.Random,
    noise: float,
    script: Sequence[Action] | None = None,
) -> tuple[float, list[Action]]:
    """Play ``state`` (a determinized copy, changed in place) through :data:`HORIZON`
    phases (or to the end of the play, or a score): the seat's decisions in this phase
    from ``script`` while it lasts and its actions are legal, else by :func:`_step`; the
    other side's and the seat's later ones greedily. Returns the seat's value then and the
    seat's actions in this phase."""
    key = plan_key(state)
    plays = key[0]
    keys = 1
    sampler = SeededSampler(rng.getrandbits(32))
    mine: list[Action] = []
    other_rng = random.Random(rng.getrandbits(32))
    steps = 0
    assert isinstance(state, MidwayState)
    score = tuple(state.score)
    while not state.is_terminal() and steps < MAX_STEPS and tuple(state.score) == score:
        now = plan_key(state)
        if now != key:
            if now[0] != plays or keys >= HORIZON:
                break
            key, keys = now, keys + 1
        steps += 1
        actor = state.current_player()
        if actor == CHANCE:
            state.apply_unchecked(sampler.choose(state.chance_outcomes()))
            continue
        if actor != seat or keys > 1:
            state.apply_unchecked(_step(h, state, actor, other_rng, 0.0))
            continue
        action: Action | None = None
        if script is not None and len(mine) < len(script):
            wanted = script[len(mine)]
            if wanted in state.legal_actions():
                action = wanted
            else:
                script = None  # off the plan: finish greedily
        if action is None:
            action = _step(h, state, seat, rng, noise)
        mine.append(action)
        state.apply_unchecked(action)
    return h.value(state, seat), mine


def plan(
    h: PlayOuts, state: GameState, seat: int, rng: random.Random, tries: int
) -> list[Action] | None:
    """The seat's actions for the rest of this phase (the first legal now), or None when
    the seat does not plan here (see :func:`should_plan`) or no try changed anything."""
    if tries < 1 or not should_plan(state, seat) or h.determinize is None:
        return None
    determinize = h.determinize
    plans: list[tuple[float, list[Action]]] = []
    seen: set[tuple[Action, ...]] = set()
    # First every candidate opening (the plain greedy phase first), each then played on
    # greedily: a handoff or a block that pays only later in the phase gets its chance.
    # The candidates are read from a determinized copy too: they look at where the other
    # side's counters stand, and the real caster's hex is a secret.
    copy = determinize(state, seat, rng)
    legal = copy.legal_actions()
    if h.policy is not None and h.policy(copy, seat, legal, rng) is not None:
        return None  # the game's rule decides (a fourth-down punt, a field goal)
    openings: list[Action | None] = [None]
    openings += h.candidates(copy, seat, legal, rng, FIRST_WIDTH)
    for k in range(tries):
        if k < len(openings):
            first = openings[k]
            script, noise = (None if first is None else [first]), 0.0
        else:
            script, noise = None, NOISE
        value, actions = _play_out(h, determinize(state, seat, rng), seat, rng, noise, script)
        if actions and tuple(actions) not in seen:
            seen.add(tuple(actions))
            plans.append((value, actions))
    if not plans:
        return None
    plans.sort(key=lambda t: t[0], reverse=True)
    best: list[Action] = plans[0][1]
    best_value = -math.inf
    for value, actions in plans[:FINALISTS]:
        total = value
        for _ in range(REPLAYS):
            total += _play_out(h, determinize(state, seat, rng), seat, rng, 0.0, actions)[0]
        mean = total / (REPLAYS + 1)
        if mean > best_value:
            best, best_value = actions, mean
    return best
