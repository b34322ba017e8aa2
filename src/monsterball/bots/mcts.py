"""Monte Carlo tree search over the engine's decision and chance nodes, for every game.

- **Decision nodes** pick children by UCT; long legal lists (a team move may have hundreds
  of destinations) are opened gradually (progressive widening), the game heuristic's own
  rule for the decision, if it has one, first.
- **Chance nodes** hold one child per outcome and take the outcome that is most
  under-visited relative to its exact probability (``p * N - n``, largest first), so the
  visits follow the dice's distribution with no sampling noise and a chance node's value
  is the expectation over the dice.
- **The root** (``ROOT_PASS``): every legal action (up to half the budget) is first judged
  one step ahead as the heuristic bot judges its sample, each evaluation charged as an
  iteration; the best (or the game's rule) is the default choice, which the search
  replaces only with a child visited at least ``MIN_VISITS`` times whose mean beats it by
  ``MARGIN`` (CHANGELOG.md 0.1.0, "The root's one-step pass and default"). Not in a
  game whose hooks say ``root_pass=False`` (Midway), where it cost wins.
- **Leaves** are judged by the game's heuristic evaluation, after an optional short
  rollout (random or heuristic moves): the games are thousands of plies long, so search
  never plays a game out.
- **Hidden information** (a game whose heuristic defines ``determinize``): every
  iteration starts from a fresh determinization, the opponent's secrets sampled from what
  the searching seat may see, and walks a tree keyed by action numbers (information-set
  MCTS, single observer); only children legal in this determinization are considered. Games
  without hidden information keep each node's state and legal list, so an iteration costs
  one clone, one ``apply`` and one evaluation.

Children are keyed by the game's :class:`ActionTable` numbers, not by action objects: an
action is hashed once, when its node's legal list is numbered, and every later lookup
(UCT, "is this child legal here", "tried yet") hashes a small integer.

Values are from seat 0's side (the games are two-seat and zero-sum); a decision node of
seat 1 maximises the negation.

Budgets: ``iterations`` and/or ``time_limit`` seconds per decision, whichever ends first.
With an iteration budget only, the bot is fully determined by its seed; a time budget
depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from monsterball.bots.heuristic import (
    Heuristic,
    PlanFollower,
    StreakGuard,
    greedy_choice,
    heuristic_for,
    sample_candidates,
    settle_value,
)
from monsterball.core.actions import Action, ActionTable
from monsterball.core.game import CHANCE, TERMINAL, GameState

DEFAULT_ITERATIONS = 400
# Rollout plies of a search bot built without a depth (the hard bot) are the game's
# ``BotHooks.rollout_depth``: where a rollout paid in strength for the same time (none
# today: CHANGELOG.md 0.1.0, "Rollouts for the hard bot"); 0 elsewhere.
# A game's planner (Heuristic.plan, e.g. Midway's offense phase) gets one play-out per this
# many iterations of the budget (per this many seconds: PLAN_SECONDS), at least PLAN_MIN.
PLAN_PER_ITERATIONS = 25
PLAN_SECONDS = 0.02
PLAN_MIN = 16  # play-outs at the least (Midway's planner outscored the one-step heuristic
# with 16: CHANGELOG.md 0.1.0, "Midway's phase planner")
EXPLORATION = 0.1
# The root's one-step look-ahead (a superset of the heuristic bot's): every legal action
# is judged by the evaluation after it (the dice it brings averaged exactly), up to this
# share of the budget; the best is the search's default choice.
ROOT_SHARE = 0.5
ROOT_PASS = True  # the search bot's default (MCTSBot(root_pass=None)), except in a game
# whose hooks turn it off (``BotHooks.root_pass``: Midway, where it cost wins).
# The search overrules the default only with a root child visited at least this often
# (and at least as often as the default) whose mean beats the default's by MARGIN.
MIN_VISITS = 20
MARGIN = 0.02
# How many candidates a new inner decision node judges one step ahead to open them best
# first is the game's ``BotHooks.inner`` (0: the game's candidates unjudged, then random).
CANDIDATES = 12  # how many of a game's own candidates a new decision node tries first
WIDEN = 2.0  # a decision node with n visits may have 1 + WIDEN * sqrt(n) children


def _unset(action: Action) -> int:
    raise RuntimeError("the search numbers actions only during search()")


def _unset_action(code: int) -> Action:
    raise RuntimeError("the search numbers actions only during search()")


class Node:
    """A node of the search tree: a decision or a chance node (or the end of the game)."""

    __slots__ = (
        "actor",
        "children",
        "codes",
        "legal",
        "order",
        "outcomes",
        "state",
        "total",
        "visits",
    )

    def __init__(self, state: GameState | None, actor: int):
        self.state = state  # kept for games without hidden information
        self.actor = actor
        self.visits = 0
        self.total = 0.0  # sum of seat-0 values backed up through this node
        self.children: dict[int, Node] = {}  # by action number
        self.legal: list[Action] | None = None  # decisions: cached legal list (full info)
        self.codes: list[int] | None = None  # their numbers
        self.order: list[int] | None = None  # decisions: untried action numbers, next last
        self.outcomes: list[tuple[int, float]] | None = None  # chance: with probabilities

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class SearchStats:
    iterations: int = 0
    seconds: float = 0.0
    nodes: int = 0
    root_evaluations: int = 0  # of the iterations, those the root's one-step pass spent
    root_visits: dict[str, int] = field(default_factory=dict)


class MCTS:
    """One search from a root position for ``seat``."""

    def __init__(
        self,
        heuristic: Heuristic,
        rng: random.Random,
        *,
        exploration: float = EXPLORATION,
        rollout_depth: int = 0,
        rollout_policy: str = "random",
        root_pass: bool = True,
        inner: int = 0,
    ):
        self.h = heuristic
        self.root_pass = root_pass
        self.inner = inner  # candidates judged one step ahead at a new inner decision node
        self.extra = 0  # evaluations spent so in the current iteration
        self.rng = rng
        self.c = exploration
        self.rollout_depth = rollout_depth
        self.rollout_policy = rollout_policy
        self.nodes = 0
        self.table: ActionTable | None = None
        self.root: Node | None = None  # the last search's tree
        self.code: Callable[[Action], int] = _unset
        self.action: Callable[[int], Action] = _unset_action

    def search(
        self,
        state: GameState,
        seat: int,
        *,
        iterations: int | None,
        time_limit: float | None,
    ) -> tuple[Action, SearchStats]:
        if iterations is None and time_limit is None:
            iterations = DEFAULT_ITERATIONS
        hidden = self.h.determinize is not None
        self.table = state.spec.action_table(state.options)
        self.code = self.table.encoder()
        self.action = self.table.actions.__getitem__
        began = time.perf_counter()
        deadline = began + time_limit if time_limit is not None else math.inf
        root = self.root = Node(None if hidden else state.clone(), seat)
        root.legal = state.legal_actions()
        root.codes = [self.code(a) for a in root.legal]
        done = 0
        default: int | None = None
        if self.root_pass and len(root.legal) > 1:
            share = None if iterations is None else max(1, int(iterations * ROOT_SHARE))
            until = began + ROOT_SHARE * time_limit if time_limit is not None else math.inf
            seen = state
            if hidden:
                assert self.h.determinize is not None
                seen = self.h.determinize(state, seat, self.rng)
            default, done = self._root_pass(root, seen, seat, share, until)
        spent = done
        while True:
            if iterations is not None and done >= iterations:
                break
            if done & 7 == 0 and time.perf_counter() >= deadline and done > 0:
                break
            if hidden:
                assert self.h.determinize is not None
                self._iterate_hidden(root, self.h.determinize(state, seat, self.rng))
            else:
                self._iterate(root)
            done += 1 + self.extra
            self.extra = 0
        sign = 1.0 if seat == 0 else -1.0
        chosen = self._final(root, sign, default)
        stats = SearchStats(
            iterations=done,
            seconds=time.perf_counter() - began,
            nodes=self.nodes,
            root_evaluations=spent,
            root_visits={self.action(c).notation(): n.visits for c, n in root.children.items()},
        )
        return self.action(chosen), stats

    def _final(self, root: Node, sign: float, default: int | None) -> int:
        """The most visited root child, unless the root pass named a default: then that,
        unless the search found a child it visited at least :data:`MIN_VISITS` times (and
        as often as the default) whose mean beats the default's by :data:`MARGIN`."""
        if not root.children:
            assert default is not None
            return default
        code, best = max(root.children.items(), key=lambda kv: (kv[1].visits, sign * kv[1].mean()))
        if default is None or code == default:
            return code
        mine = root.children.get(default)
        if mine is None or not mine.visits:
            return code if best.visits >= MIN_VISITS else default
        if (
            best.visits >= max(MIN_VISITS, mine.visits)
            and sign * (best.mean() - mine.mean()) > MARGIN
        ):
            return code
        return default

    def _root_pass(
        self, root: Node, state: GameState, seat: int, share: int | None, until: float
    ) -> tuple[int, int]:
        """The one-step look-ahead over the root's legal actions (all of them if the share
        of the budget allows, else the game's rule, its candidates and a random sample):
        each judged by :func:`settle_value` (the dice after it averaged exactly), each
        evaluation counted as one iteration of the budget. Orders the root's widening best
        first and returns the default choice (the game's rule if it has one here, else the
        best by this look-ahead) and the iterations spent."""
        assert root.legal is not None and root.codes is not None
        legal, codes = root.legal, root.codes
        ruled = self.h.policy(state, seat, legal, self.rng) if self.h.policy else None
        picked: list[int] = list(range(len(legal)))
        if share is not None and len(legal) > share:
            # The rule's action, the game's candidates, then a random sample: as many as
            # the share allows.
            index = {code: i for i, code in enumerate(codes)}
            first = [ruled] if ruled is not None else []
            first += self.h.candidates(state, seat, legal, self.rng, CANDIDATES)
            front = list(dict.fromkeys(index[self.code(a)] for a in first))[:share]
            chosen = set(front)
            rest = [i for i in range(len(legal)) if i not in chosen]
            room = max(0, share - len(front))
            picked = front + sorted(self.rng.sample(rest, min(room, len(rest))))
        spent = 0
        # Ties are broken at random (seeded): by list order, a "do nothing" action listed
        # last ('end') would win every tie, and a side that may hold the disc can stall.
        values: list[tuple[float, float, int]] = []
        for n, i in enumerate(picked):
            if n and (
                (share is not None and spent >= share)
                or (n & 15 == 0 and time.perf_counter() >= until)
            ):
                break
            value, cost = self._look_ahead(state, legal[i], seat)
            values.append((value, self.rng.random(), codes[i]))
            spent += cost
        values.sort()
        root.order = [c for _, _, c in values]  # popped from the end: best first
        default = self.code(ruled) if ruled is not None else values[-1][2]
        if ruled is not None:
            root.order = [c for c in root.order if c != default] + [default]
        return default, spent

    def _look_ahead(self, state: GameState, action: Action, seat: int) -> tuple[float, int]:
        """``seat``'s value after ``action`` and the dice in front of it: exact over the
        first chance step (sampled after it, as the heuristic bot does), and the
        evaluations it took."""
        state = state.clone()
        state.apply_unchecked(action)
        if state.current_player() != CHANCE:
            return self.h.value(state, seat), 1
        outcomes = state.chance_outcomes()
        value = settle_value(self.h, state, seat, self.rng)
        return value, len(outcomes) if len(outcomes) <= 8 else 3

    # -- full information: states kept in the nodes ----------------------------------------

    def _iterate(self, root: Node) -> None:
        path = [root]
        node = root
        while True:
            if node.actor == TERMINAL:
                assert node.state is not None
                value = self.h.value(node.state, 0)
                break
            if node.actor == CHANCE:
                code = self._pick_outcome(node)
            else:
                code, fresh = self._pick_decision(node)
                if fresh:
                    child = self._expand(node, code)
                    path.append(child)
                    assert child.state is not None
                    value = self._leaf_value(child.state)
                    break
            child_or_none = node.children.get(code)
            if child_or_none is None:
                child = self._expand(node, code)
                path.append(child)
                assert child.state is not None
                value = self._leaf_value(child.state)
                break
            node = child_or_none
            path.append(node)
        for n in path:
            n.visits += 1
            n.total += value

    def _expand(self, parent: Node, code: int) -> Node:
        assert parent.state is not None
        state = parent.state.clone()
        state.apply_unchecked(self.action(code))
        child = Node(state, state.current_player())
        parent.children[code] = child
        self.nodes += 1
        return child

    def _pick_outcome(self, node: Node) -> int:
        if node.outcomes is None:
            assert node.state is not None
            code = self.code
            node.outcomes = [(code(a), float(p)) for a, p in node.state.chance_outcomes()]
        return self._stratified(node, node.outcomes)

    def _stratified(self, node: Node, outcomes: list[tuple[int, float]]) -> int:
        n = node.visits + 1
        best = outcomes[0][0]
        best_gap = -math.inf
        for code, p in outcomes:
            child = node.children.get(code)
            gap = p * n - (child.visits if child is not None else 0)
            if gap > best_gap:
                best, best_gap = code, gap
        return best

    def _pick_decision(self, node: Node) -> tuple[int, bool]:
        """The child to follow (its action number), and whether it is new (to be expanded
        now)."""
        if node.legal is None:
            assert node.state is not None
            node.legal = node.state.legal_actions()
        if node.codes is None:
            node.codes = [self.code(a) for a in node.legal]
        codes = node.codes
        if node.order is None:
            assert node.state is not None
            node.order = self._first_order(node.state, node.actor, node.legal)
        limit = 1 + int(WIDEN * math.sqrt(node.visits))
        if len(node.children) < min(limit, len(codes)):
            return self._next_untried(node, codes), True
        return self._uct(node, node.children), False

    def _first_order(self, state: GameState, actor: int, legal: list[Action]) -> list[int]:
        """Untried actions, popped from the end: the heuristic's own rule for this decision
        (if any) goes last so it is tried first, then the game's own candidates (if it
        names them: with hundreds of legal moves, random widening rarely finds the few that
        matter); the rest are drawn at random as needed."""
        order: list[Action] = []
        if self.inner and len(legal) > 1:
            # Judged one step ahead and opened best first; each evaluation is charged to
            # the budget (self.extra).
            scored: list[tuple[float, float, Action]] = []
            for action in self.h.candidates(state, actor, legal, self.rng, self.inner):
                value, cost = self._look_ahead(state, action, actor)
                self.extra += cost
                scored.append((value, self.rng.random(), action))  # ties: at random
            scored.sort(key=lambda t: (t[0], t[1]))
            order = [a for _, _, a in scored]
        elif self.h.candidates is not sample_candidates and len(legal) > 1:
            order = self.h.candidates(state, actor, legal, self.rng, CANDIDATES)[::-1]
        if self.h.policy is not None and len(legal) > 1:
            ruled = self.h.policy(state, actor, legal, self.rng)
            if ruled is not None:
                order.append(ruled)
        code = self.code
        return [code(a) for a in order]

    def _next_untried(self, node: Node, codes: list[int]) -> int:
        assert node.order is not None
        while node.order:
            code = node.order.pop()
            if code not in node.children:
                return code
        # Draw an untried action at random (the legal list is not copied).
        if len(node.children) >= len(codes):
            return self._uct(node, node.children)
        while True:
            code = codes[self.rng.randrange(len(codes))]
            if code not in node.children:
                return code

    def _uct(self, node: Node, children: dict[int, Node]) -> int:
        sign = 1.0 if node.actor == 0 else -1.0
        log_n = math.log(max(1, node.visits))
        best = -1
        best_score = -math.inf
        for code, child in children.items():
            if child.visits == 0:
                return code
            score = sign * child.total / child.visits + self.c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = code, score
        assert best >= 0
        return best

    def _leaf_value(self, state: GameState) -> float:
        if self.rollout_depth and not state.is_terminal():
            state = state.clone()
            self._rollout(state)
        return self.h.value(state, 0)

    def _rollout(self, state: GameState) -> None:
        rng = self.rng
        for _ in range(self.rollout_depth):
            actor = state.current_player()
            if state.is_terminal():
                return
            if actor == CHANCE:
                outcomes = state.chance_outcomes()
                r = rng.random()
                acc = 0.0
                action = outcomes[-1][0]
                for a, p in outcomes:
                    acc += float(p)
                    if r < acc:
                        action = a
                        break
            elif self.rollout_policy == "heuristic":
                legal = state.legal_actions()
                action = greedy_choice(self.h, state, actor, legal, rng, width=4)
            else:
                # The same draw as legal[rng.randrange(len(legal))], without the list.
                action = state.sample_legal(rng)
            state.apply_unchecked(action)

    # -- hidden information: a fresh determinization per iteration -------------------------

    def _iterate_hidden(self, root: Node, state: GameState) -> None:
        path = [root]
        node = root
        value: float | None = None
        while True:
            if state.is_terminal():
                value = self.h.value(state, 0)
                break
            actor = state.current_player()
            node.actor = actor
            if actor == CHANCE:
                code = self.code
                outcomes = [(code(a), float(p)) for a, p in state.chance_outcomes()]
                pick = self._stratified(node, outcomes)
            else:
                if node is root and root.legal:
                    legal, codes = root.legal, root.codes
                    assert codes is not None
                else:
                    legal = state.legal_actions()
                    codes = [self.code(a) for a in legal]
                allowed = set(codes)
                available = {k: c for k, c in node.children.items() if k in allowed}
                limit = 1 + int(WIDEN * math.sqrt(node.visits))
                untried = len(available) < len(codes)
                if untried and len(available) < limit:
                    if node.order is None:
                        node.order = self._first_order(state, actor, legal)
                    # The rule's and the candidates' actions first (while legal in this
                    # determinization), then random ones.
                    pick = node.order.pop() if node.order else codes[0]
                    while node.order and (pick in available or pick not in allowed):
                        pick = node.order.pop()
                    while pick in available or pick not in allowed:
                        pick = codes[self.rng.randrange(len(codes))]
                else:
                    pick = self._uct(node, available)
            state.apply_unchecked(self.action(pick))
            child = node.children.get(pick)
            if child is None:
                child = Node(None, state.current_player())
                node.children[pick] = child
                self.nodes += 1
                path.append(child)
                value = self._leaf_value(state)
                break
            node = child
            path.append(node)
        for n in path:
            n.visits += 1
            n.total += value


class MCTSBot:
    """The search bot: MCTS with the game's heuristic at the leaves.

    ``iterations`` and ``time_limit`` (seconds) bound each decision (default: 400
    iterations); a decision with one legal action is played without searching.
    ``rollout_depth=None`` takes the game's ``BotHooks.rollout_depth``. Where the game
    plans (``Heuristic.plan``), the bot follows a plan made from ``plan_tries`` play-outs
    (default: from the budget, at least :data:`PLAN_MIN`; 0 turns planning off).
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        rollout_depth: int | None = 0,
        rollout_policy: str = "random",
        exploration: float = EXPLORATION,
        name: str = "mcts",
        plan_tries: int | None = None,
        root_pass: bool | None = None,
        inner: int | None = None,
    ):
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if time_limit is not None and time_limit <= 0:
            raise ValueError("time_limit must be positive")
        if rollout_policy not in ("random", "heuristic"):
            raise ValueError("rollout_policy must be 'random' or 'heuristic'")
        self.name = name
        self.seed = seed
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.rollout_depth = rollout_depth
        self.rollout_policy = rollout_policy
        self.exploration = exploration
        self.root_pass = root_pass  # None: ROOT_PASS unless the game turns it off
        self.inner = inner
        self.last: SearchStats | None = None
        self.guard = StreakGuard()
        limits = []  # the plans' share of the budget: the smaller bound, as for the search
        if iterations is not None:
            limits.append(iterations // PLAN_PER_ITERATIONS)
        if time_limit is not None:
            limits.append(int(time_limit / PLAN_SECONDS))
        tries = min(limits) if limits else DEFAULT_ITERATIONS // PLAN_PER_ITERATIONS
        if plan_tries is None:
            plan_tries = max(PLAN_MIN, tries)
        self.follower = PlanFollower(plan_tries)

    def choose(self, state: GameState, seat: int) -> Action:
        legal = state.legal_actions()
        obvious = self.guard.obvious(state, seat, legal, self.rng)
        if obvious is not None:
            return obvious
        if state.num_seats != 2:
            raise ValueError("the search bot plays two-seat games")
        heuristic = heuristic_for(state.spec)
        binding, rule = heuristic.binding, heuristic.policy
        if binding is not None and rule is not None and binding(state, legal):
            ruled = rule(state, seat, legal, self.rng)  # the game's rule decides here
            if ruled is not None:
                self.last = None
                return ruled
        planned = self.follower.choose(heuristic, state, seat, legal, self.rng)
        if planned is not None:
            self.last = None
            return planned
        search = MCTS(
            heuristic,
            self.rng,
            exploration=self.exploration,
            rollout_depth=(
                heuristic.rollout_depth if self.rollout_depth is None else self.rollout_depth
            ),
            rollout_policy=self.rollout_policy,
            root_pass=(
                ROOT_PASS and heuristic.root_pass if self.root_pass is None else self.root_pass
            ),
            inner=heuristic.inner if self.inner is None else self.inner,
        )
        action, self.last = search.search(
            state, seat, iterations=self.iterations, time_limit=self.time_limit
        )
        return action

    def __repr__(self) -> str:
        return f"MCTSBot(seed={self.seed}, iterations={self.iterations}, time={self.time_limit})"
