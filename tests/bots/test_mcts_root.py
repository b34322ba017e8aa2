"""The hard bot's root: a one-step look-ahead over every legal action names the default
choice, which the tree search replaces only with a child it visited enough that beats it
by a margin; a fixed iteration budget gives the same choice for the same seed."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import monsterball.bots.mcts as search
from monsterball.bots.heuristic import heuristic_for
from monsterball.bots.mcts import MCTS, MCTSBot, Node
from monsterball.core.game import Action, GameState
from monsterball.games import all_games, get_game


def _team_move() -> GameState:
    """A Huck + Monster team move (a long list of player moves, no rule, no dice after)."""
    spec = get_game("huck-monster")
    state = spec.new_game(spec.options("small"))
    rng = random.Random(4)
    while True:
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply_unchecked(outcomes[rng.randrange(len(outcomes))][0])
            continue
        legal = state.legal_actions()
        if len(legal) > 40 and type(legal[0]).__name__ == "MoveTo" and state.ply > 30:
            return state
        state.apply_unchecked(legal[rng.randrange(len(legal))])


def _root(default_mean: float, default_visits: int, other_mean: float, other_visits: int) -> Node:
    root = Node(None, 0)
    for code, mean, visits in ((1, default_mean, default_visits), (2, other_mean, other_visits)):
        child = Node(None, 0)
        child.visits, child.total = visits, mean * visits
        root.children[code] = child
    return root


def test_the_default_is_kept_unless_the_search_beats_it_clearly() -> None:
    mcts = MCTS(heuristic_for(get_game("huck-monster")), random.Random(0))
    margin, enough = search.MARGIN, search.MIN_VISITS
    # Better by more than the margin, visited enough: the search's child.
    assert mcts._final(_root(0.1, enough, 0.1 + 2 * margin, enough + 5), 1.0, 1) == 2
    # Better, but by less than the margin: the default stays.
    assert mcts._final(_root(0.1, enough, 0.1 + margin / 2, enough + 5), 1.0, 1) == 1
    # Better by far but visited too little: the default stays.
    assert mcts._final(_root(0.1, 3, 0.5, enough - 1), 1.0, 1) == 1
    # Seat 1 minimises seat 0's value: a lower mean is better for it.
    assert mcts._final(_root(0.1, enough, 0.1 - 2 * margin, enough + 5), -1.0, 1) == 2
    assert mcts._final(_root(0.1, enough, 0.1 + 2 * margin, enough + 5), -1.0, 1) == 1
    # Without a default (no root pass): the most visited child, as plain MCTS.
    assert mcts._final(_root(0.5, 10, 0.0, 30), 1.0, None) == 2


def test_the_root_pass_finds_the_best_one_step_move_of_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the search never allowed to overrule (MIN_VISITS out of reach) the bot plays
    the best of *all* legal moves by the evaluation after it, not of a sample of 12 as the
    heuristic bot does."""
    state = _team_move()
    seat = state.current_player()
    h = heuristic_for(state.spec)
    legal = state.legal_actions()

    def after(action: object) -> float:
        child = state.clone()
        child.apply_unchecked(action)  # type: ignore[arg-type]
        assert not child.is_chance()
        return h.value(child, seat)

    best = max(after(a) for a in legal)
    monkeypatch.setattr(search, "MIN_VISITS", 10**9)
    bot = MCTSBot(3, iterations=2 * len(legal) + 10, root_pass=True)
    action = bot.choose(state, seat)
    assert bot.last is not None and bot.last.root_evaluations == len(legal)
    assert after(action) == best
    # The search did run over the rest of the budget.
    assert sum(bot.last.root_visits.values()) == 10 + len(legal)


def test_a_fixed_budget_gives_the_same_choice_for_the_same_seed() -> None:
    state = _team_move()
    seat = state.current_player()
    runs = []
    for _ in range(2):
        bot = MCTSBot(11, iterations=400)
        action = bot.choose(state, seat)
        assert bot.last is not None
        runs.append((action, bot.last.root_visits))
    assert runs[0] == runs[1]


def test_judged_inner_candidates_are_charged_to_the_budget() -> None:
    """With ``inner`` candidates judged one step ahead at each new inner node, those
    evaluations count as iterations: fewer walks down the tree for the same budget."""
    state = _team_move()
    seat = state.current_player()
    walks = {}
    for inner in (0, 6):
        bot = MCTSBot(2, iterations=300, inner=inner, root_pass=True)
        bot.choose(state, seat)
        assert bot.last is not None and bot.last.iterations >= 300
        walks[inner] = sum(bot.last.root_visits.values()) + bot.last.root_evaluations
    assert walks[0] == 300
    assert walks[6] < 300 - 6


def test_without_the_root_pass_every_iteration_walks_the_tree() -> None:
    state = _team_move()
    bot = MCTSBot(2, iterations=200, root_pass=False)
    bot.choose(state, state.current_player())
    assert bot.last is not None and bot.last.root_evaluations == 0
    assert sum(bot.last.root_visits.values()) == 200


def _midway_until(
    state: GameState,
    rng: random.Random,
    found: Callable[[GameState, list[Action], Action | None], bool],
    otherwise: Callable[[list[Action]], Action],
) -> GameState:
    """Plays ``state`` on (random dice, the heuristic's rule where it has one, else
    ``otherwise``) until ``found(state, legal, ruled)`` at a decision."""
    heuristic = heuristic_for(state.spec)
    assert heuristic.policy is not None
    while True:
        assert not state.is_terminal()
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply_unchecked(outcomes[rng.randrange(len(outcomes))][0])
            continue
        legal = state.legal_actions()
        ruled = heuristic.policy(state, state.current_player(), legal, rng)
        if found(state, legal, ruled):
            return state
        state.apply_unchecked(ruled if ruled is not None else otherwise(legal))


def _midway_player_move() -> GameState:
    """A Midway movement phase's decision with many player moves and no rule for it."""
    spec = get_game("midway")
    rng = random.Random(3)

    def found(state: GameState, legal: list[Action], ruled: Action | None) -> bool:
        moves = sum(type(a).__name__ == "Move" for a in legal)
        return moves > 40 and ruled is None and state.ply > 200

    return _midway_until(
        spec.new_game(spec.options()), rng, found, lambda legal: legal[rng.randrange(len(legal))]
    )


def test_the_default_search_skips_the_root_pass_only_in_the_games_that_turn_it_off() -> None:
    # BotHooks.root_pass: in Midway the pass cost wins (CHANGELOG.md 0.1.0).
    assert search.ROOT_PASS
    assert [s.id for s in all_games() if s.bot and not s.bot.root_pass] == ["midway"]
    midway = _midway_player_move()
    bot = MCTSBot(2, iterations=60, plan_tries=0)
    bot.choose(midway, midway.current_player())
    assert bot.last is not None and bot.last.root_evaluations == 0
    assert sum(bot.last.root_visits.values()) == 60
    # Asked for explicitly, Midway gets it too; Huck + Monster has it by default.
    forced = MCTSBot(2, iterations=60, plan_tries=0, root_pass=True)
    forced.choose(midway, midway.current_player())
    assert forced.last is not None and forced.last.root_evaluations > 0
    huck = _team_move()
    default = MCTSBot(2, iterations=60)
    default.choose(huck, huck.current_player())
    assert default.last is not None and default.last.root_evaluations > 0


def _midway_receiving_set_up() -> GameState:
    """Midway: the receivers' first placement for a kickoff (saved rosters, no draft), the
    decisions before it by the heuristic bot's rules and random dice."""
    spec = get_game("midway")
    roster = "pixie,pixie,pixie,elf,elf,elf,human,human,human,orc"

    def found(state: GameState, legal: list[Action], ruled: Action | None) -> bool:
        top = state.stack[-1]
        return type(top).__name__ == "SetUp" and getattr(top, "mode", "") == "receive"

    state = spec.new_game(spec.options(roster_a=roster, roster_b=roster))
    return _midway_until(state, random.Random(5), found, lambda legal: legal[0])


def test_the_draft_and_formations_are_the_games_rule_for_the_search_bot_too() -> None:
    # The search found the one-step 'auto' formation (receivers at midfield) best: it
    # reaches the kick, the next position the evaluation tells apart, soonest; the kickers
    # then recovered deep kicks and scored (strength game 7, bots version 4).
    state = _midway_receiving_set_up()
    seat = state.current_player()
    heuristic = heuristic_for(state.spec)
    assert heuristic.policy is not None and heuristic.binding is not None
    legal = state.legal_actions()
    assert heuristic.binding(state, legal)
    ruled = heuristic.policy(state, seat, legal, random.Random(0))
    assert ruled is not None and ruled.notation() != "auto"
    for seed in range(3):
        bot = MCTSBot(seed, iterations=400, plan_tries=0)
        assert bot.choose(state, seat) == ruled and bot.last is None  # no search
    searched = MCTS(heuristic, random.Random(0), root_pass=False)
    assert searched.search(state, seat, iterations=400, time_limit=None)[0].notation() == "auto"
    # A movement phase is still searched.
    midway = _midway_player_move()
    assert not heuristic.binding(midway, midway.legal_actions())
