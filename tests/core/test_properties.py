"""Random play over every preset and random option combinations, checking invariants after
every action.

The checks use references written here from the rulebook and the rulings (a plain BFS for
runs, the end zones from the options), not the engine's own helpers, so a rule slip in the
engine shows up as a mismatch. A ``RuleBasedStateMachine`` drives games one action at a time
and also checks that clones are independent and positions survive a round trip.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections import deque
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from monsterball.core.actions import Action, Roll
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE, TERMINAL
from monsterball.games import get_game
from monsterball.games.paper_ultimate import PaperUltimateOptions, PaperUltimateState
from monsterball.games.paper_ultimate.actions import (
    CallMonster,
    DeclineMonster,
    EndRun,
    PassTo,
    RunTo,
)

SPEC = get_game("paper-ultimate")
PRESETS = sorted(PaperUltimateOptions.PRESETS)
PLY_CAP = 200_000
SETUP_STEPS = {"CoinToss", "StartPoint", "SetUp"}

# -- references ---------------------------------------------------------------------------


def king_neighbours(opts: PaperUltimateOptions, cell: int) -> tuple[int, ...]:
    return _king_neighbours(opts.width, opts.length, cell)


@functools.cache
def _king_neighbours(w: int, h: int, cell: int) -> tuple[int, ...]:
    col, row = cell % w, cell // w
    out = []
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (dc or dr) and 0 <= col + dc < w and 0 <= row + dr < h:
                out.append((row + dr) * w + col + dc)
    return tuple(out)


def end_zone_cells(state: PaperUltimateState, team: int) -> set[int]:
    """Fields of the end zone ``team`` defends: the south one for the north-attacking team."""
    opts = state.options
    depth, w, h = opts.end_zone_depth, opts.width, opts.length
    rows = range(depth) if team == state.north_team else range(h - depth, h)
    return {r * w + c for r in rows for c in range(w)}


def ref_destinations(state: PaperUltimateState, player: int) -> set[int]:
    """PU-RUN-1 / PU-R4 / PU-R2 / PU-MARK-2 by breadth-first search."""
    opts = state.options
    team = player // 4
    occupied = {c for c in state.pos if c >= 0}
    start = state.pos[player]
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        if dist[cur] == opts.run_distance:
            continue
        for n in king_neighbours(opts, cur):
            if n in dist or (n in occupied and not opts.run_through_players):
                continue
            dist[n] = dist[cur] + 1
            queue.append(n)
    dest = {c for c in dist if c != start and c not in occupied}
    if team != state.offense:
        if state.holder < 0 and state.disc >= 0:
            dest.discard(state.disc)
        if state.holder >= 0:
            ring = set(king_neighbours(opts, state.pos[state.holder]))
            others = {state.pos[p] for p in range(team * 4, team * 4 + 4) if p != player}
            if others & ring:
                dest -= ring
    return dest


def defenders_in_ring(state: PaperUltimateState) -> set[int]:
    if state.holder < 0:
        return set()
    ring = set(king_neighbours(state.options, state.pos[state.holder]))
    defense = 1 - state.holder // 4
    return {p for p in range(defense * 4, defense * 4 + 4) if state.pos[p] in ring}


def top_name(state: PaperUltimateState) -> str | None:
    return type(state.stack[-1]).__name__ if state.stack else None


# -- the invariant checker ----------------------------------------------------------------


class Watcher:
    """Applies actions to one game and checks every invariant before and after each."""

    def __init__(self, state: PaperUltimateState, *, check_all_every: int = 8):
        self.state = state
        self.plies = 0
        # Every legal action is checked at every ``check_all_every``-th node; at the others
        # a deterministic sample of them (checking hundreds of runs per node is slow).
        self.check_all_every = check_all_every
        self.ring_at_step_start: set[int] | None = None
        self.offense_at_step_start = state.offense
        self.pending_catch: tuple[int, bool] | None = None  # (team, in attacking end zone)
        self.check_node()

    # .. at a node ..

    def check_node(self) -> None:
        state = self.state
        opts = state.options
        size = opts.width * opts.length
        top = top_name(state)
        placed = [c for c in state.pos if c >= 0]
        assert len(state.pos) == 8
        assert len(set(placed)) == len(placed), f"two players on one field: {state.pos}"
        assert all(0 <= c < size for c in placed)
        for team in (0, 1):
            mask = sum(
                1 << state.pos[p] for p in range(team * 4, team * 4 + 4) if state.pos[p] >= 0
            )
            assert state.occupied[team] == mask
        setting_up = top in SETUP_STEPS
        if setting_up:
            assert state.holder == -1 and state.disc == -1
            for p, c in enumerate(state.pos):
                if c >= 0:
                    assert c in end_zone_cells(state, p // 4), "set up outside the end zone"
        elif top is not None or state.winner != -1:
            assert len(placed) == 8, "a player is missing once play has started"
        if top not in SETUP_STEPS and top != "HandDisc":
            # Exactly one disc: on its holder's field, or loose on an empty field.
            assert 0 <= state.disc < size
            if state.holder >= 0:
                assert state.disc == state.pos[state.holder]
                if top != "Pull":  # the puller holds it for the receivers' opponents
                    assert state.holder // 4 == state.offense, "the holder is not on offense"
            else:
                assert state.disc not in placed
        if opts.max_throws:
            assert state.throws <= opts.max_throws
        actor = state.current_player()
        if actor == TERMINAL:
            self.check_end()
            assert state.legal_actions() == []
            return
        assert state.winner == -1
        if actor == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
            assert all(p > 0 for _, p in outcomes)
            assert len({a for a, _ in outcomes}) == len(outcomes)
            assert all(isinstance(a, Roll) for a, _ in outcomes)
            return
        legal = state.legal_actions()
        assert legal, f"no legal action at a decision node ({top})"
        assert len(set(legal)) == len(legal)
        sample = legal
        if len(legal) > 12 and self.plies % self.check_all_every:
            sample = legal[self.plies % 7 :: max(1, len(legal) // 6)]
        for action in sample:
            state.check(action, seat=actor)
        if top == "Running":
            self.check_running(legal)

    def check_running(self, legal: list[Action]) -> None:
        state = self.state
        step = state.stack[-1]
        team = step.team  # type: ignore[attr-defined]
        moved = step.moved  # type: ignore[attr-defined]
        restricted = team != state.offense and state.marker_only >= 0
        runs: dict[int, set[int]] = {}
        names = state.field.names
        cells = {n: i for i, n in enumerate(names)}
        for action in legal:
            if isinstance(action, RunTo):
                runs.setdefault(action.player, set()).add(cells[action.cell])
        for p in range(team * 4, team * 4 + 4):
            may_move = not moved >> p & 1 and p != state.holder
            if restricted and p != state.marker_only:
                may_move = False
            want = ref_destinations(state, p) if may_move else set()
            assert runs.get(p, set()) == want, f"runs of player {p} differ"
        assert set(runs) <= set(range(team * 4, team * 4 + 4))
        if team != state.offense and moved == 0:
            self.ring_at_step_start = defenders_in_ring(state)
            self.offense_at_step_start = state.offense

    def check_end(self) -> None:
        state = self.state
        opts = state.options
        a, b = state.score
        assert state.winner in (0, 1, 2)
        if max(a, b) >= opts.points_to_win:
            assert state.winner in (0, 1)
            assert state.score[state.winner] == opts.points_to_win
            assert state.score[1 - state.winner] < opts.points_to_win
            assert state.returns()[state.winner] == 1.0
        else:
            assert opts.max_throws and state.throws >= opts.max_throws, "ended without reason"
            assert state.winner == (0 if a > b else 1 if b > a else 2)

    # .. across an action ..

    def apply(self, action: Action) -> None:
        state = self.state
        top = top_name(state)
        before_score = list(state.score)
        before_throws = state.throws
        if top == "Running" and isinstance(action, EndRun):
            self.check_surplus_markers()
        if isinstance(action, PassTo):
            team = action.player // 4
            zone = end_zone_cells(state, 1 - team)
            self.pending_catch = (team, state.pos[action.player] in zone)
        state.apply(action)
        self.plies += 1
        assert self.plies < PLY_CAP, "the game does not end"
        gained = [state.score[t] - before_score[t] for t in (0, 1)]
        assert min(gained) >= 0, "the score went down"
        assert sum(gained) <= 1, "more than one point in one action"
        assert state.throws - before_throws in (0, 1)
        self.check_scoring(action, top, gained)
        if top == "Running" and isinstance(action, EndRun):
            self.check_markers_after_defense()
        self.check_node()

    def check_scoring(self, action: Action, top: str | None, gained: list[int]) -> None:
        state = self.state
        if self.pending_catch is None:
            assert sum(gained) == 0, f"a point without a catch ({action})"
            return
        team, in_zone = self.pending_catch
        now = top_name(state)
        if isinstance(action, PassTo) and now == "MonsterDefense":
            assert sum(gained) == 0
            return  # the defense decides first
        if isinstance(action, CallMonster):
            assert sum(gained) == 0
            return  # the die decides
        turned = isinstance(action, Roll) and action.value in ("1", "6", "HH")
        should_score = in_zone and not turned
        assert gained[team] == int(should_score), f"catch in zone={in_zone}, {action}"
        assert gained[1 - team] == 0
        assert isinstance(action, PassTo | DeclineMonster | Roll)
        self.pending_catch = None

    def check_surplus_markers(self) -> None:
        """PU-TURN-4 / PU-R11: after a turn, the defense may end its step with several
        markers only when none of them can run to a field away from the holder."""
        state = self.state
        step = state.stack[-1]
        team = step.team  # type: ignore[attr-defined]
        if team == state.offense or not state.surplus_must_leave or state.holder < 0:
            return
        markers = defenders_in_ring(state)
        if len(markers) <= 1:
            return
        ring = set(king_neighbours(state.options, state.pos[state.holder]))
        moved = step.moved  # type: ignore[attr-defined]
        for p in markers:
            if moved >> p & 1:
                continue
            if state.marker_only >= 0 and p != state.marker_only:
                continue
            assert not ref_destinations(state, p) - ring, "a surplus marker could have left"

    def check_markers_after_defense(self) -> None:
        state = self.state
        start = self.ring_at_step_start
        if start is None:
            return  # the offense's step, or a step before the disc was picked up
        self.ring_at_step_start = None
        if self.offense_at_step_start != state.offense:
            return  # PU-R14: the step ended in a stall, the disc went to a defender as on a turn
        # The step just ended: nothing else moves before the throw.
        ring_now = defenders_in_ring(state)
        entered = ring_now - start
        assert len(entered) <= 1, "two defenders joined the holder"
        if entered:
            assert len(ring_now) == 1, "a defender joined while another marked (PU-MARK-2)"


def play_game(options: PaperUltimateOptions, seed: int) -> Watcher:
    state = SPEC.new_game(options)
    assert isinstance(state, PaperUltimateState)
    watcher = Watcher(state)
    bot = random.Random(seed)
    dice = SeededSampler(seed)
    while not state.is_terminal():
        if state.is_chance():
            watcher.apply(dice.choose(state.chance_outcomes()))
        else:
            watcher.apply(bot.choice(state.legal_actions()))
    return watcher


# -- strategies ---------------------------------------------------------------------------

# Upper bounds that keep random games short: small pitches and few points.
SMALL_CAPS = {"width": 9, "length": 14, "points_to_win": 3, "max_throws": 60}


def field_strategy(f: dataclasses.Field[Any], caps: dict[str, int]) -> st.SearchStrategy[Any]:
    meta = f.metadata
    if meta.get("choices") is not None:
        return st.sampled_from(meta["choices"])
    if isinstance(f.default, bool):
        return st.booleans()
    assert isinstance(f.default, int)
    low = meta.get("minimum") or 0
    high = min(meta.get("maximum") or low + 100, caps.get(f.name, 10**9))
    return st.integers(low, high)


def options_strategy(caps: dict[str, int] = SMALL_CAPS) -> st.SearchStrategy[Any]:
    fields = {f.name: field_strategy(f, caps) for f in dataclasses.fields(PaperUltimateOptions)}
    # max_throws=0 means "no cap": random play on a wide pitch can then run for hours.
    return st.builds(PaperUltimateOptions, **fields).map(
        lambda o: o if o.max_throws else o.replace(max_throws=caps["max_throws"])
    )


SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- tests --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=SEEDS, cap=st.integers(1, 20))
@FAST
def test_random_play_every_preset(preset: str, seed: int, cap: int) -> None:
    options = SPEC.options(preset, max_throws=cap)
    watcher = play_game(options, seed)
    assert watcher.state.is_terminal()


@pytest.mark.slow
@given(options=options_strategy(), seed=SEEDS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_play_random_options(options: PaperUltimateOptions, seed: int) -> None:
    watcher = play_game(options, seed)
    assert watcher.state.is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@given(seed=SEEDS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_full_games_every_preset_slow(preset: str, seed: int) -> None:
    watcher = play_game(SPEC.options(preset), seed)
    assert max(watcher.state.score) == watcher.state.options.points_to_win


@pytest.mark.slow
@given(options=options_strategy({"width": 20, "length": 30, "max_throws": 300}), seed=SEEDS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_play_random_options_slow(options: PaperUltimateOptions, seed: int) -> None:
    play_game(options, seed)


def test_the_watcher_catches_a_broken_invariant() -> None:
    """The checks above can fail: corrupt a state and they do."""
    state = SPEC.new_game(SPEC.options("small", first_receiver="A"))
    assert isinstance(state, PaperUltimateState)
    watcher = play_game(SPEC.options("small", max_throws=3), 5)
    state = watcher.state
    # Put two players on one field.
    state.pos[1] = state.pos[0]
    with pytest.raises(AssertionError, match="two players"):
        Watcher(state)


def test_clone_is_independent() -> None:
    state = SPEC.new_game(SPEC.options("small"))
    assert isinstance(state, PaperUltimateState)
    bot, dice = random.Random(9), SeededSampler(9)
    for ply in range(400):
        if state.is_terminal():
            break
        if ply % 20 == 0:
            check_clone_independence(state, bot)
        state.apply(
            dice.choose(state.chance_outcomes())
            if state.is_chance()
            else bot.choice(state.legal_actions())
        )


def check_clone_independence(state: PaperUltimateState, rng: random.Random) -> None:
    before = state.to_position()
    clone = state.clone()
    assert clone.to_position() == before
    assert clone == state
    # Play on in the clone ...
    for _ in range(5):
        if clone.is_terminal():
            break
        legal = clone.legal_actions()
        clone.apply(legal[rng.randrange(len(legal))])
    # ... and scribble on its board directly.
    clone.pos[0] = -5
    clone.occupied[0] = 0
    clone.score[1] += 7
    assert state.to_position() == before
    assert state.pos[0] != -5


# -- the state machine --------------------------------------------------------------------


# Short games for the state machine, so that runs finish games and start new ones.
SHORT_GAMES = options_strategy({**SMALL_CAPS, "max_throws": 8}).map(
    lambda o: o if o.max_throws else o.replace(max_throws=4)
)


class RandomGames(RuleBasedStateMachine):
    """Games one action at a time; a finished game is replaced by a new one."""

    def __init__(self) -> None:
        super().__init__()
        self.watcher: Watcher | None = None
        self.games = 0

    @initialize(options=SHORT_GAMES)
    def start(self, options: PaperUltimateOptions) -> None:
        self.new_game(options)

    def new_game(self, options: PaperUltimateOptions) -> None:
        state = SPEC.new_game(options)
        assert isinstance(state, PaperUltimateState)
        self.watcher = Watcher(state)
        self.games += 1

    @property
    def state(self) -> PaperUltimateState:
        assert self.watcher is not None
        return self.watcher.state

    @precondition(lambda self: self.watcher is not None and self.state.is_terminal())
    @rule(
        options=SHORT_GAMES | st.sampled_from(PRESETS).map(lambda p: SPEC.options(p, max_throws=5))
    )
    def restart(self, options: PaperUltimateOptions) -> None:
        self.new_game(options)

    @precondition(lambda self: self.watcher is not None and not self.state.is_terminal())
    @rule(pick=st.integers(0, 10**6))
    def act(self, pick: int) -> None:
        state = self.state
        assert self.watcher is not None
        if state.is_chance():
            outcomes = state.chance_outcomes()
            self.watcher.apply(outcomes[pick % len(outcomes)][0])
        else:
            legal = state.legal_actions()
            self.watcher.apply(legal[pick % len(legal)])

    @precondition(lambda self: self.watcher is not None and not self.state.is_terminal())
    @rule(seed=SEEDS, count=st.integers(50, 400))
    def run_ahead(self, seed: int, count: int) -> None:
        """Many random actions in one rule, so a run gets through whole points."""
        bot = random.Random(seed)
        assert self.watcher is not None
        for _ in range(count):
            state = self.state
            if state.is_terminal():
                return
            if state.is_chance():
                outcomes = state.chance_outcomes()
                self.watcher.apply(outcomes[bot.randrange(len(outcomes))][0])
            else:
                self.watcher.apply(bot.choice(state.legal_actions()))

    @precondition(lambda self: self.watcher is not None)
    @rule(seed=SEEDS)
    def clone_is_independent(self, seed: int) -> None:
        check_clone_independence(self.state, random.Random(seed))

    @precondition(lambda self: self.watcher is not None)
    @rule()
    def position_round_trips(self) -> None:
        position = self.state.to_position()
        again = SPEC.from_position(json.loads(json.dumps(position)))
        assert again.to_position() == position
        assert again.state_hash() == self.state.state_hash()
        assert again.legal_actions() == self.state.legal_actions()

    @invariant()
    def to_act_is_consistent(self) -> None:
        if self.watcher is None:
            return
        state = self.state
        actor = state.current_player()
        assert actor in (0, 1, CHANCE, TERMINAL)
        assert state.is_terminal() == (actor == TERMINAL)
        assert state.is_chance() == (actor == CHANCE)


TestRandomGames = RandomGames.TestCase
TestRandomGames.pytestmark = [pytest.mark.slow]
TestRandomGames.settings = settings(
    max_examples=10,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
